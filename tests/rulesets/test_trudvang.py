"""Trudvang Chronicles: combat points, the initiative countdown, hold / skip / change, refusals.

Everything that touches a fight goes through the real engine (``apply``) with real actions.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui_combat.engine import registry
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.dice import Roll, physical, roll
from tui_combat.engine.model import State
from tui_combat.engine.contract import RuleError, Ruleset
from tui_combat.rulesets.trudvang import (
    RULESET,
    Trudvang,
    cp_available,
    cp_pools,
    load_data,
    sheet_from_fields,
)

FRIDGAR = {
    "sv": 9,
    "weapons": "seax, broadsword",
    "disciplines": "Armed combat 1",
    "specialties": "One-handed light weapons 2",
}


# -- helpers ------------------------------------------------------------------------------------------
def d20(total: int) -> Roll:
    return Roll(expr="1d20", total=total, faces=(total,))


def d10(*faces: int) -> Roll:
    return Roll(expr="1d10!", total=sum(faces), faces=faces)


def fight(*people: tuple[str, str, dict[str, Any]], count: dict[str, int] | None = None, surprised: str = "") -> State:
    """A Trudvang fight in its first round's declare step; people are (side name, name, sheet)."""
    state = apply(State(), a.SetRuleset(ruleset="trudvang"))
    sides: dict[str, str] = {}
    for side, _name, _sheet in people:
        if side not in sides:
            state = apply(state, a.AddSide(name=side, is_party=not sides))
            sides[side] = state.sides[-1].id
    for side, name, sheet in people:
        state = apply(state, a.AddCombatants(side=sides[side], name=name, hp=20, count=(count or {}).get(name, 1), sheet=sheet))
    state = apply(state, a.BeginSurprise())
    if surprised:
        state = apply(state, a.SetSurprised(sides=(sides[surprised],)))
    return apply(state, a.StartFight())


def cid(state: State, name: str) -> str:
    return next(c.id for c in state.combatants if c.name == name)


def act(state: State, name: str, **args: Any) -> State:
    return apply(state, a.RulesetAction(name=name, args=args))


def declare(state: State, name: str, **declaration: Any) -> State:
    return apply(state, a.Declare(combatant=cid(state, name), declaration=declaration))


def roll_initiative(state: State, **totals: Roll) -> State:
    """Go to the initiative step (if needed) and roll: keyword = combatant name (or group base name)."""
    if RULESET.steps(state)[state.step].kind == "declare":
        state = apply(state, a.NextStep())
    rolls = {}
    for request in RULESET.initiative_requests(state):
        label = request.label.split(" ×")[0]
        rolls[request.key] = totals[label.replace(" ", "_")]
    return apply(state, a.RollInitiative(rolls=rolls))


def labels(state: State) -> list[tuple[str, list[str]]]:
    return [(slot.label, [state.combatant(c).name for c in slot.combatants]) for slot in state.order]


def budget(state: State, name: str) -> dict[str, tuple[int, int]]:
    return {line.label: (line.left, line.total) for line in RULESET.budget(state, cid(state, name))}


def last_log(state: State) -> str:
    return state.log_entries()[-1].text


def next_round(state: State) -> State:
    start = state.round
    while state.round == start:
        state = apply(state, a.NextStep())
    return state


# -- the ruleset object and its data ------------------------------------------------------------------
def test_registered_and_implements_the_protocol() -> None:
    ruleset = registry.get("trudvang")
    assert ruleset is RULESET
    assert isinstance(ruleset, Ruleset)
    assert [step.kind for step in ruleset.steps(State())] == ["declare", "initiative", "resolve", "end"]
    keys = [k.key for k in ruleset.round_actions(State(phase="round", step=2))]
    assert len(keys) == len(set(keys))
    assert not set(keys) & set("nbrtedhxiuUq ")


def test_every_data_entry_says_where_it_came_from() -> None:
    data = RULESET.data
    for table in (data.weapons, data.shields, data.armour, data.disciplines, data.specialties):
        for entry in table.values():
            assert entry.source in ("seed", "default")
            if entry.source == "seed":
                assert entry.where
    assert data.weapons["seax"].im == -1 and data.weapons["seax"].actions == 4
    assert data.weapons["two_handed_sword"].actions == 2
    assert data.specialties["one_handed_light"].lock == "group:one-handed light"
    assert data.specialties["brawler"].cp_per_level == 2


def test_a_bad_data_value_names_the_file_and_the_key(tmp_path: Path) -> None:
    text = (Path(__file__).parents[2] / "tui_combat/rulesets/data/trudvang.toml").read_text(encoding="utf-8")
    bad = tmp_path / "house.toml"
    bad.write_text(text.replace("im = -4\nactions = 3\ngroup = \"one-handed heavy\"", "im = \"slow\"\nactions = 3\ngroup = \"one-handed heavy\"", 1), encoding="utf-8")
    with pytest.raises(RuleError) as error:
        load_data(bad)
    assert "house.toml" in str(error.value) and "weapons.battle_axe.im" in str(error.value)
    bad.write_text(text.replace('lock = "brawl"', 'lock = "group:fists"'), encoding="utf-8")
    with pytest.raises(RuleError) as error:
        load_data(bad)
    assert "house.toml" in str(error.value) and "specialties.brawler.lock" in str(error.value) and "fists" in str(error.value)
    bad.write_text("schema = [", encoding="utf-8")
    with pytest.raises(RuleError, match="house.toml"):
        load_data(bad)


def test_house_rules_instance() -> None:
    house = Trudvang(data=msgspec.structs.replace(RULESET.data, rules=msgspec.structs.replace(RULESET.data.rules, skip_bonus=3)))
    assert house.data.rules.skip_bonus == 3


# -- combat points: the seed's Fridgar -----------------------------------------------------------------
def test_fridgar_cp_by_weapon() -> None:
    assert cp_pools(sheet_from_fields({"sv": 6})) == {"general": 6}
    sheet = sheet_from_fields(FRIDGAR)
    assert cp_pools(sheet) == {"general": 9, "any_weapon": 1, "group:one handed light": 4}
    assert cp_available(sheet, "seax") == 14  # a one-handed light weapon: 9 + 1 + 4
    assert cp_available(sheet, "dagger") == 14  # an alias of the seax
    assert cp_available(sheet, "broadsword") == 10  # another weapon: 9 + 1
    assert cp_available(sheet, "unarmed") == 9
    later = sheet_from_fields({**FRIDGAR, "disciplines": "Armed combat 1; Unarmed combat 1", "specialties": "One-handed light weapons 2; Brawler 1"})
    assert cp_available(later, "unarmed") == 12  # 9 + 1 + 2
    assert cp_available(later, "seax") == 14


def test_fridgar_budget_in_a_fight() -> None:
    state = fight(("Heroes", "Fridgar", FRIDGAR), ("Foes", "Ulf", {"sv": 8, "weapons": "broadsword"}))
    assert budget(state, "Fridgar") == {
        "CP": (9, 9),
        "CP any weapon": (1, 1),
        "CP one-handed light": (4, 4),
        "Seax actions": (4, 4),
        "Broadsword actions": (3, 3),
        "Unarmed attacks": (4, 4),
    }
    assert RULESET.cp_left(state, cid(state, "Fridgar"), "seax") == 14


def test_russian_names_and_typos() -> None:
    sheet = sheet_from_fields({"sv": 9, "weapons": "сакс", "disciplines": "Вооружённый бой 1", "specialties": "Одноручное легкое оружие 2"})
    assert cp_available(sheet, "Seax") == 14
    with pytest.raises(RuleError) as error:
        sheet_from_fields({"disciplines": "Armd combat 1"})
    assert "Armed combat" in str(error.value) and "Known:" in str(error.value) and "Did you mean" in str(error.value)
    with pytest.raises(RuleError, match="needs a level"):
        sheet_from_fields({"specialties": "Brawler"})
    with pytest.raises(RuleError, match="unknown weapon \"sord\""):
        sheet_from_fields({"weapons": "sord"})
    with pytest.raises(RuleError, match="Combat SV"):
        sheet_from_fields({"sv": "nine"})


def test_mini_syntax_extras() -> None:
    sheet = sheet_from_fields(
        {
            "sv": 10,
            "weapons": "broadsword, Left seax (like seax), Club (im -2, actions 3, group one-handed heavy)",
            "disciplines": "Experienced 2, Body control 1",
            "specialties": "Axe lord 1 (cp 3, lock weapon:club); Combat reaction 1; Ambidexter 2",
            "agi_mod": "1",
        }
    )
    assert [w.name for w in sheet.weapons] == ["Broadsword", "Left seax", "Club"]
    assert sheet.experienced == 2 and sheet.combat_reaction == 1 and sheet.body_control == 1 and sheet.ambidexter == 2
    assert cp_pools(sheet) == {"general": 12, "weapon:club": 3}
    assert cp_available(sheet, "club") == 15 and cp_available(sheet, "broadsword") == 12
    # a stored (resolved) sheet reads back the same
    assert sheet_from_fields(msgspec.to_builtins(sheet)) == sheet
    with pytest.raises(RuleError, match="listed twice"):
        sheet_from_fields({"weapons": "seax, seax"})


# -- initiative and the countdown ----------------------------------------------------------------------
def test_countdown_calls() -> None:
    calls = {v: RULESET.call_label(v) for v in (31, 20, 19, 15, 14, 10, 9, 5, 1, 0, -4)}
    assert calls == {31: "20", 20: "20", 19: "15", 15: "15", 14: "10", 10: "10", 9: "9", 5: "5", 1: "1", 0: "≤0", -4: "≤0"}


def test_order_buckets_higher_first_and_ties_share_a_slot() -> None:
    people = [("Heroes", n, {"sv": 8}) for n in ("A", "B", "C")] + [("Foes", n, {"sv": 8}) for n in ("D", "E", "F", "G")]
    state = roll_initiative(fight(*people), A=d10(10, 10, 3), B=d10(10, 7), C=d10(10, 6), D=d10(10, 6), E=d10(9), F=d10(1), G=d10(10, 10, 10, 1))
    assert [(slot.label, slot.value) for slot in state.order] == [("20", 31), ("20", 23), ("15", 17), ("15", 16), ("9", 9), ("1", 1)]
    assert labels(state)[3] == ("15", ["C", "D"])
    assert state.acting_now() == (cid(state, "G"),)


def test_open_ended_roll_totals_with_modifiers() -> None:
    class Fixed(random.Random):
        def __init__(self, faces: list[int]) -> None:
            super().__init__(0)
            self.faces = faces

        def randint(self, a: int, b: int) -> int:
            return self.faces.pop(0)

    rolled = roll("1d10!", Fixed([10, 10, 3]))
    assert rolled.total == 23 and rolled.faces == (10, 10, 3)
    typed = physical("1d10!", "27")
    sheet = {"sv": 9, "weapons": "broadsword", "armour": "chain", "shield": "medium", "agi_mod": 1, "specialties": "Combat reaction 1", "disciplines": "Experienced 1"}
    state = fight(("Heroes", "Fridgar", sheet), ("Foes", "Ulf", {"sv": 5}))
    request = next(r for r in RULESET.initiative_requests(state) if r.key == cid(state, "Fridgar"))
    assert request.dice == "1d10!"
    # chain −2, broadsword −4, medium shield −2, Agility +1, Combat reaction +2, Experienced +1
    assert request.modifier == -4
    state = roll_initiative(state, Fridgar=rolled, Ulf=typed)
    assert [(slot.label, slot.value) for slot in state.order] == [("20", 27), ("15", 19)]
    assert "1d10!: [10+10+3] = 23 -4 = 19" in "\n".join(e.text for e in state.log_entries())


def test_declaration_decides_the_im_and_unused_items_count_nothing() -> None:
    sheet = {"sv": 9, "weapons": "broadsword, seax", "armour": "plate", "shield": "large"}
    state = fight(("Heroes", "Fridgar", sheet), ("Foes", "Ulf", {"sv": 5}))
    fridgar = cid(state, "Fridgar")
    assert RULESET.init_modifier(state, fridgar) == -5 - 4 - 3  # undeclared: first weapon and the shield
    state = declare(state, "Fridgar", weapon="seax", shield=False)
    assert RULESET.init_modifier(state, fridgar) == -5 - 1  # armour always counts
    state = declare(state, "Fridgar", weapon="unarmed", shield=False, spell_im=-2)
    assert RULESET.init_modifier(state, fridgar) == -5 - 2
    with pytest.raises(RuleError, match="no \"axe\""):
        declare(state, "Fridgar", weapon="axe")  # refused when declared, not later


def test_npc_group_rolls_once_and_acts_together() -> None:
    state = fight(("Heroes", "Fridgar", FRIDGAR), ("Foes", "Bandit", {"sv": 6, "weapons": "short sword"}), count={"Bandit": 4})
    requests = RULESET.initiative_requests(state)
    assert len(requests) == 2
    group = next(r for r in requests if len(r.combatants) == 4)
    assert group.label == "Bandit ×4" and group.modifier == -3
    state = roll_initiative(state, Fridgar=d10(3), Bandit=d10(9))
    assert labels(state) == [("6", ["Bandit 1", "Bandit 2", "Bandit 3", "Bandit 4"]), ("2", ["Fridgar"])]


# -- attacks, parries and CP ---------------------------------------------------------------------------
def two(fridgar: dict[str, Any] | None = None, ulf: dict[str, Any] | None = None,
        decl: dict[str, dict[str, Any]] | None = None, **kwargs: Any) -> State:
    """Fridgar (first, at 10) against Ulf (at 5), in the countdown; ``decl`` is declared before the roll."""
    state = fight(("Heroes", "Fridgar", fridgar or FRIDGAR), ("Foes", "Ulf", ulf or {"sv": 8, "weapons": "broadsword"}), **kwargs)
    for name, declaration in (decl or {}).items():
        state = declare(state, name, **declaration)
    return roll_initiative(state, Fridgar=d10(10, 4), Ulf=d10(9))


def test_attack_spends_locked_cp_first_and_one_weapon_action() -> None:
    state = two(decl={"Fridgar": {"weapon": "seax"}})
    ulf = cid(state, "Ulf")
    state = act(state, "attack", combatant=cid(state, "Fridgar"), target=ulf, cp=6, weapon="seax", roll=msgspec.to_builtins(d20(6)))
    assert budget(state, "Fridgar")["CP one-handed light"] == (0, 4)
    assert budget(state, "Fridgar")["CP any weapon"] == (0, 1)
    assert budget(state, "Fridgar")["CP"] == (8, 9)
    assert budget(state, "Fridgar")["Seax actions"] == (3, 4)
    assert "6 CP = SV 6" in last_log(state) and "→ hit" in last_log(state)
    state = act(state, "attack", combatant=cid(state, "Fridgar"), target=ulf, cp=2, weapon="seax", roll=d20(1))
    assert "critical hit" in last_log(state)
    state = act(state, "attack", combatant=cid(state, "Fridgar"), target=ulf, cp=2, weapon="seax", roll=d20(20))
    assert "fumble" in last_log(state)
    state = act(state, "attack", combatant=cid(state, "Fridgar"), target=ulf, cp=2, weapon="seax", roll=d20(3))
    assert "→ miss" in last_log(state)


def test_not_enough_cp_says_how_many_are_left() -> None:
    state = two(decl={"Fridgar": {"weapon": "broadsword"}})
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=7, weapon="broadsword", roll=d20(15))
    with pytest.raises(RuleError) as error:
        act(state, "attack", combatant=fridgar, target=ulf, cp=5, weapon="broadsword", roll=d20(4))
    assert str(error.value) == "Not enough CP: Fridgar has 3 left for the broadsword, needs 5."


def test_weapon_actions_and_unarmed_attacks_are_limited() -> None:
    state = two({"sv": 30, "weapons": "two-handed sword"}, decl={"Fridgar": {"weapon": "two-handed sword"}})
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    for _ in range(2):
        state = act(state, "attack", combatant=fridgar, target=ulf, cp=1, roll=d20(19))
    with pytest.raises(RuleError, match="The two-handed sword allows 2 weapon actions a round; Fridgar has used them all."):
        act(state, "attack", combatant=fridgar, target=ulf, cp=1, roll=d20(19))
    for _ in range(4):
        state = act(state, "attack", combatant=fridgar, target=ulf, cp=1, weapon="unarmed", roll=d20(19))
    with pytest.raises(RuleError, match="all 4 unarmed attacks"):
        act(state, "attack", combatant=fridgar, target=ulf, cp=1, weapon="unarmed", roll=d20(19))


def test_refusals_say_why() -> None:
    state = two()
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    with pytest.raises(RuleError, match="It is not Ulf's turn: his call is 5, the countdown is at 10"):
        act(state, "attack", combatant=ulf, target=fridgar, cp=3, roll=d20(3))
    with pytest.raises(RuleError, match="declared seax this round: change the action first to use the broadsword"):
        act(state, "attack", combatant=fridgar, target=ulf, cp=3, weapon="broadsword", roll=d20(3))
    with pytest.raises(RuleError, match="Choose whom Fridgar attacks"):
        act(state, "attack", combatant=fridgar, cp=3, roll=d20(3))
    with pytest.raises(RuleError, match="1d20"):
        act(state, "attack", combatant=fridgar, target=ulf, cp=3, roll=Roll(expr="1d10!", total=23))
    with pytest.raises(RuleError, match="No hit on Ulf"):
        act(state, "parry", combatant=ulf, cp=3, roll=d20(3))
    with pytest.raises(RuleError, match="Unknown Trudvang action"):
        act(state, "fireball", combatant=fridgar)
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=3, roll=d20(15))
    with pytest.raises(RuleError, match="missed: there is nothing to parry"):
        act(state, "parry", combatant=ulf, cp=3, attack=0, roll=d20(3))
    state = apply(state, a.NextStep())
    with pytest.raises(RuleError, match="Fridgar's turn has passed \\(his call was 10\\)"):
        act(state, "attack", combatant=fridgar, target=ulf, cp=3, roll=d20(3))


def test_parry_once_per_attack_and_never_against_ranged() -> None:
    state = two(ulf={"sv": 8, "weapons": "hunting bow, broadsword", "shield": "small"})
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=5, roll=d20(2))
    state = act(state, "parry", combatant=ulf, cp=3, weapon="hunting bow", roll=d20(2))
    assert budget(state, "Ulf")["CP"] == (5, 8) and budget(state, "Ulf")["Hunting bow actions"] == (2, 3)
    assert "parried" in last_log(state)
    with pytest.raises(RuleError, match="one attempt per attack"):
        act(state, "parry", combatant=ulf, cp=3, attack=0, roll=d20(2))
    state = apply(state, a.NextStep())
    state = act(state, "attack", combatant=ulf, target=fridgar, cp=4, weapon="hunting bow", roll=d20(2))
    with pytest.raises(RuleError, match="A ranged attack cannot be parried; Fridgar may dodge"):
        act(state, "parry", combatant=fridgar, cp=3, roll=d20(2))
    state = act(state, "dodge", combatant=fridgar, cp=3, roll=d20(2))
    assert "dodged" in last_log(state) and budget(state, "Fridgar")["CP"] == (6, 9)


def test_ranged_locked_cp_cannot_parry() -> None:
    archer = {"sv": 4, "weapons": "hunting bow", "specialties": "Bows 3"}
    state = two(ulf=archer)
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=5, roll=d20(2))
    with pytest.raises(RuleError, match="Not enough CP: Ulf has 4 left for the hunting bow, needs 5"):
        act(state, "parry", combatant=ulf, cp=5, weapon="hunting bow", roll=d20(2))


def test_undeclared_shield_parry_before_and_after_own_call() -> None:
    state = two(ulf={"sv": 8, "weapons": "broadsword", "shield": "medium", "shield_bearer": 1},
                decl={"Ulf": {"weapon": "broadsword", "shield": False}})
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    # the declaration counts: Ulf 9 − 4 = 5
    assert labels(state) == [("10", ["Fridgar"]), ("5", ["Ulf"])]
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=5, roll=d20(2))
    state = act(state, "parry", combatant=ulf, cp=3, weapon="shield", roll=d20(2))
    # before his call the medium shield's IM (−2) is added to his initiative
    assert labels(state) == [("10", ["Fridgar"]), ("3", ["Ulf"])]
    assert "3 CP = SV 3" in last_log(state)  # Shield bearer 1: no off-hand penalty
    state = two(ulf={"sv": 8, "weapons": "broadsword", "shield": "medium"},
                decl={"Ulf": {"weapon": "broadsword", "shield": False}, "Fridgar": {"weapon": "seax"}})
    state = apply(state, a.NextStep())  # Ulf's call
    with pytest.raises(RuleError, match="call has come"):
        declare(state, "Ulf", weapon="unarmed")
    state = act(state, "attack", combatant=cid(state, "Ulf"), target=cid(state, "Fridgar"), cp=2, roll=d20(2))
    with pytest.raises(RuleError, match="did not count the IM of the broadsword on his turn"):
        act(state, "parry", combatant=cid(state, "Fridgar"), cp=2, weapon="broadsword", roll=d20(2))


def test_off_hand_penalty_and_its_reductions() -> None:
    base = {"sv": 20, "weapons": "broadsword, seax", "shield": "small"}
    for extra, expected in (({}, "-15 off hand"), ({"body_control": 2}, "-9 off hand"), ({"ambidexter": 5}, "= SV 10")):
        state = two({**base, **extra}, decl={"Fridgar": {"weapon": "broadsword", "offhand": "seax", "shield": True}})
        state = act(state, "attack", combatant=cid(state, "Fridgar"), target=cid(state, "Ulf"), cp=10, weapon="seax", roll=d20(5))
        assert expected in last_log(state)
    state = two({**base, "shield_bearer": 1}, decl={"Fridgar": {"weapon": "broadsword", "shield": True}})
    state = act(state, "attack", combatant=cid(state, "Fridgar"), target=cid(state, "Ulf"), cp=10, weapon="shield", roll=d20(5))
    assert "10 CP = SV 10" in last_log(state) and budget(state, "Fridgar")["Small shield actions"] == (2, 3)


def test_surprised_side_acts_with_minus_five() -> None:
    state = two(surprised="Foes")
    assert any(e.text == "Surprised, they act this round with -5 on every combat action: Ulf." for e in state.log_entries())
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=6, roll=d20(5))
    assert "6 CP = SV 6" in last_log(state)
    state = act(state, "parry", combatant=ulf, cp=6, roll=d20(2))
    assert "6 CP -5 surprised = SV 1" in last_log(state) and "failed" in last_log(state)
    assert ("This round", "surprised (-5)") in RULESET.details(state, ulf)
    state = next_round(state)
    state = roll_initiative(state, Fridgar=d10(10, 4), Ulf=d10(9))
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=6, roll=d20(5))
    state = act(state, "parry", combatant=ulf, cp=6, roll=d20(2))
    assert "6 CP = SV 6" in last_log(state)


# -- hold, skip, change --------------------------------------------------------------------------------
def three() -> State:
    people = [
        ("Heroes", "Fridgar", FRIDGAR),
        ("Heroes", "Sigrid", {"sv": 12, "weapons": "seax"}),
        ("Foes", "Ulf", {"sv": 8, "weapons": "broadsword"}),
        ("Foes", "Orm", {"sv": 12, "weapons": "seax"}),
    ]
    # Fridgar 14−1 = 13 (call 10); Sigrid 12−1 = 11 (call 10); Ulf 9−4 = 5; Orm 4−1 = 3
    return roll_initiative(fight(*people), Fridgar=d10(10, 4), Sigrid=d10(10, 2), Ulf=d10(9), Orm=d10(4))


def test_hold_then_act_at_minus_five() -> None:
    state = three()
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    assert labels(state) == [("10", ["Fridgar"]), ("10", ["Sigrid"]), ("5", ["Ulf"]), ("3", ["Orm"])]
    with pytest.raises(RuleError, match="It is not Ulf's turn"):
        act(state, "hold", combatant=ulf)
    state = act(state, "hold", combatant=fridgar)
    assert labels(state) == [("10", ["Sigrid"]), ("5", ["Ulf"]), ("3", ["Orm"])]
    assert state.acting_now() == (cid(state, "Sigrid"),)
    with pytest.raises(RuleError, match="holding his action: act held first"):
        act(state, "attack", combatant=fridgar, target=ulf, cp=3, roll=d20(2))
    with pytest.raises(RuleError, match="call has come"):
        act(state, "change_action", combatant=fridgar, declaration={"weapon": "broadsword"})
    state = apply(state, a.NextStep())  # Ulf's turn
    state = act(state, "act_held", combatant=fridgar)
    assert labels(state)[1:3] == [("held", ["Fridgar"]), ("5", ["Ulf"])]
    assert state.acting_now() == (fridgar,)
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=8, roll=d20(3))
    assert "8 CP -5 held = SV 3" in last_log(state) and "→ hit" in last_log(state)
    state = apply(state, a.NextStep())
    assert state.acting_now() == (ulf,)
    # parries are not part of the held turn
    state = act(state, "attack", combatant=ulf, target=fridgar, cp=3, roll=d20(2))
    state = act(state, "parry", combatant=fridgar, cp=5, roll=d20(2))
    assert "5 CP = SV 5" in last_log(state)


def test_several_held_act_highest_combat_sv_first_ties_by_d10() -> None:
    state = three()
    fridgar, sigrid, orm = cid(state, "Fridgar"), cid(state, "Sigrid"), cid(state, "Orm")
    state = act(state, "hold", combatant=fridgar)
    state = act(state, "hold", combatant=sigrid)
    state = apply(state, a.NextStep())  # Orm (Ulf at 5 acts, then Orm)
    assert state.acting_now() == (orm,)
    state = act(state, "hold", combatant=orm)
    state = act(state, "act_held", combatants=[fridgar, sigrid])
    assert [names for label, names in labels(state) if label == "held"] == [["Sigrid"], ["Fridgar"]]  # SV 12 before 9
    with pytest.raises(RuleError, match="Fridgar is not holding an action"):
        act(state, "act_held", combatant=fridgar)
    state = three()
    for who in (fridgar, sigrid):
        state = act(state, "hold", combatant=who)
    state = apply(state, a.NextStep())
    state = act(state, "hold", combatant=orm)
    with pytest.raises(RuleError, match="same Combat SV \\(12\\): each rolls 1d10"):
        act(state, "act_held", combatants=[sigrid, orm])
    with pytest.raises(RuleError, match="tied again"):
        act(state, "act_held", combatants=[sigrid, orm], tiebreak={sigrid: 4, orm: 4})
    state = act(state, "act_held", combatants="Sigrid, Orm", tiebreak="Sigrid 3, Orm 8")
    assert [names for label, names in labels(state) if label == "held"] == [["Orm"], ["Sigrid"]]


def test_skip_gives_plus_five_next_round_and_still_allows_parries() -> None:
    state = three()
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    state = act(state, "skip", combatant=fridgar)
    assert "Fridgar" not in [n for _l, names in labels(state) for n in names]
    with pytest.raises(RuleError, match="gave up his turn this round: he may only parry"):
        act(state, "attack", combatant=fridgar, target=ulf, cp=3, roll=d20(2))
    state = apply(state, a.NextStep())  # Ulf (Sigrid moved up to the cursor after the skip)
    assert state.acting_now() == (ulf,)
    state = act(state, "attack", combatant=ulf, target=fridgar, cp=3, roll=d20(2))
    state = act(state, "parry", combatant=fridgar, cp=4, roll=d20(2))
    assert "parried" in last_log(state)
    state = next_round(state)
    assert any("+5 to initiative" in e.text for e in state.log_entries() if e.round == 2)
    request = next(r for r in RULESET.initiative_requests(state) if r.key == fridgar)
    assert request.modifier == -1 + 5
    assert budget(state, "Fridgar")["CP"] == (9, 9)
    state = roll_initiative(state, Fridgar=d10(10, 4), Sigrid=d10(10, 2), Ulf=d10(9), Orm=d10(4))
    assert state.order[0].value == 18 and labels(state)[0] == ("15", ["Fridgar"])
    state = next_round(state)
    request = next(r for r in RULESET.initiative_requests(state) if r.key == fridgar)
    assert request.modifier == -1  # only the next round


def test_skip_refused_after_acting_or_after_the_call() -> None:
    state = three()
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=3, roll=d20(2))
    with pytest.raises(RuleError, match="already acted this round"):
        act(state, "skip", combatant=fridgar)
    state = three()
    state = apply(state, a.NextStep())
    with pytest.raises(RuleError, match="Fridgar's turn has passed"):
        act(state, "skip", combatant=fridgar)
    # before his call he may give up his turn
    state = act(state, "skip", combatant=ulf)
    assert [n for _l, names in labels(state) for n in names] == ["Fridgar", "Sigrid", "Orm"]


def test_skip_before_the_countdown_needs_no_roll() -> None:
    state = fight(("Heroes", "Fridgar", FRIDGAR), ("Foes", "Ulf", {"sv": 8, "weapons": "broadsword"}))
    state = act(state, "skip", combatant=cid(state, "Fridgar"))
    assert [r.label for r in RULESET.initiative_requests(state)] == ["Ulf"]
    state = roll_initiative(state, Ulf=d10(9))
    assert labels(state) == [("5", ["Ulf"])]


def test_change_action_before_the_call_moves_him_in_the_countdown() -> None:
    state = three()
    ulf = cid(state, "Ulf")
    # Ulf: 9 − 4 (broadsword) = 5; unarmed: 9 → call 9
    state = act(state, "change_action", combatant=ulf, declaration={"weapon": "unarmed"})
    assert labels(state) == [("10", ["Fridgar"]), ("10", ["Sigrid"]), ("9", ["Ulf"]), ("3", ["Orm"])]
    assert "IM -4 → +0, initiative 5 → 9 (call 9)" in last_log(state)
    state = act(state, "change_action", combatant=ulf, weapon="broadsword")  # flat form fields work too
    assert labels(state)[-2:] == [("5", ["Ulf"]), ("3", ["Orm"])]
    state = apply(state, a.NextStep())
    state = apply(state, a.NextStep())
    assert state.acting_now() == (ulf,)
    with pytest.raises(RuleError, match="Ulf's call has come: he can no longer change his action"):
        act(state, "change_action", combatant=ulf, declaration={"weapon": "unarmed"})


def test_change_to_a_call_already_passed_acts_next() -> None:
    state = three()
    state = apply(state, a.NextStep())  # Sigrid at 11
    orm = cid(state, "Orm")
    state = act(state, "change_action", combatant=orm, declaration={"weapon": "unarmed", "spell_im": 10})
    # Orm: 4 + 10 = 14 ≥ 11: he acts right after the current slot
    assert labels(state) == [("10", ["Fridgar"]), ("10", ["Sigrid"]), ("10", ["Orm"]), ("5", ["Ulf"])]
    assert state.acting_now() == (cid(state, "Sigrid"),)
    state = apply(state, a.NextStep())
    assert state.acting_now() == (orm,)


def test_change_action_before_the_countdown_is_a_declaration() -> None:
    state = fight(("Heroes", "Fridgar", FRIDGAR), ("Foes", "Ulf", {"sv": 8, "weapons": "broadsword"}))
    state = act(state, "change_action", combatant=cid(state, "Fridgar"), declaration={"weapon": "broadsword"})
    assert state.round_data["declarations"][cid(state, "Fridgar")] == {"weapon": "broadsword"}
    assert RULESET.init_modifier(state, cid(state, "Fridgar")) == -4


# -- grapple, break free, Glima -----------------------------------------------------------------------
WRESTLER = {"sv": 10, "weapons": "seax", "disciplines": "Unarmed combat 2", "specialties": "Wrestling 2", "wrestling": 6, "str_mod": 1, "ambidexter": 3}


def test_grapple_break_free_and_glima() -> None:
    state = two(WRESTLER, {"sv": 9, "weapons": "broadsword", "agi_mod": 1, "wrestling": 4})
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    with pytest.raises(RuleError, match="cannot buy SV 7 for a grapple: his Wrestling SV is 6"):
        act(state, "grapple", combatant=fridgar, target=ulf, sv=7, roll=d20(2))
    with pytest.raises(RuleError, match="costs 2 CP per SV"):
        act(state, "grapple", combatant=fridgar, target=ulf, cp=9, roll=d20(2))
    state = act(state, "grapple", combatant=fridgar, target=ulf, sv=6, hand="shield", roll=d20(4))
    assert "SV 6 (12 CP) +1 Strength -7 shield hand only = SV 0" in last_log(state)
    assert "miss" in last_log(state)
    assert budget(state, "Fridgar")["CP wrestling"] == (0, 4) and budget(state, "Fridgar")["CP unarmed"] == (0, 2)
    assert budget(state, "Fridgar")["CP"] == (4, 10) and budget(state, "Fridgar")["Unarmed attacks"] == (3, 4)
    with pytest.raises(RuleError, match="already tried a grapple this round"):
        act(state, "grapple", combatant=fridgar, target=ulf, sv=1, roll=d20(1))
    state = next_round(state)
    state = roll_initiative(state, Fridgar=d10(10, 4), Ulf=d10(9))
    state = act(state, "grapple", combatant=fridgar, target=ulf, sv=5, roll=d20(4))
    assert "grappled" in last_log(state)
    with pytest.raises(RuleError, match="cannot attack himself"):
        act(state, "attack", combatant=fridgar, target=fridgar, cp=1, roll=d20(1))
    state = act(state, "glima", combatant=fridgar, target=ulf, sv=2, drop=True, roll=d20(2))
    assert "1d6 damage" in last_log(state)
    state = act(state, "glima_defence", combatant=ulf, sv=2, roll=d20(1))
    assert "SV 2 (6 CP) +1 Agility = SV 3" in last_log(state) and "still held" in last_log(state)
    with pytest.raises(RuleError, match="one attempt per attack"):
        act(state, "glima_defence", combatant=ulf, sv=1, attack=1, roll=d20(1))
    state = apply(state, a.NextStep())
    assert state.acting_now() == (ulf,)
    with pytest.raises(RuleError, match="Ulf is held by Fridgar: he can only try to break free"):
        act(state, "attack", combatant=ulf, target=fridgar, cp=2, roll=d20(2))
    state = act(state, "break_free", combatant=ulf, sv=1, roll=d20(5))
    assert "SV 1 (3 CP) +1 Agility = SV 2" in last_log(state) and "still held" in last_log(state)
    with pytest.raises(RuleError, match="already tried to break free"):
        act(state, "break_free", combatant=ulf, sv=1, roll=d20(1))
    state = next_round(state)
    state = roll_initiative(state, Fridgar=d10(10, 4), Ulf=d10(9))
    with pytest.raises(RuleError, match="can try to break free at his call \\(6\\)"):
        act(state, "break_free", combatant=ulf, sv=1, roll=d20(1))
    state = act(state, "glima", combatant=fridgar, target=ulf, sv=3, roll=d20(1))
    assert "1d4 damage" in last_log(state)
    assert "Ulf" not in " ".join(v for _l, v in RULESET.details(state, fridgar))


def test_a_parried_grapple_does_not_hold() -> None:
    state = two(WRESTLER, {"sv": 9, "weapons": "broadsword"})
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    state = act(state, "grapple", combatant=fridgar, target=ulf, sv=3, roll=d20(2))
    assert ("This round", "held by Fridgar") in RULESET.details(state, ulf)
    state = act(state, "parry", combatant=ulf, cp=3, roll=d20(2))
    assert all(label != "This round" for label, _v in RULESET.details(state, ulf))


# -- what the screens ask for -------------------------------------------------------------------------
def form(state: State, name: str, who: str, **values: Any) -> dict[str, Any]:
    """Args as the round screen builds them: the form's defaults, the typed values, the selected combatant."""
    fields = RULESET.action_fields(state, name, cid(state, who))
    args = {f.key: f.default for f in fields if f.key != "roll"}
    args.update(values)
    return {"combatant": cid(state, who), **args}


def test_action_forms_drive_the_actions() -> None:
    state = two(ulf={"sv": 8, "weapons": "broadsword", "shield": "small", "shield_bearer": 1})
    assert [f.key for f in RULESET.action_fields(state, "attack", cid(state, "Fridgar"))] == ["target", "weapon", "cp", "hand", "modifier", "roll"]
    assert next(f for f in RULESET.action_fields(state, "attack", cid(state, "Fridgar")) if f.key == "roll").default == "1d20"
    state = apply(state, a.RulesetAction(name="attack", args=form(state, "attack", "Fridgar", cp=5, roll=msgspec.to_builtins(d20(2)))))
    assert "Fridgar attacks Ulf with the seax" in last_log(state)
    parry = RULESET.action_fields(state, "parry", cid(state, "Ulf"))
    assert next(f for f in parry if f.key == "attack").choices[0][0] == "0"
    state = apply(state, a.RulesetAction(name="parry", args=form(state, "parry", "Ulf", weapon="shield", cp=4, roll=msgspec.to_builtins(d20(3)))))
    assert "parries attack #0 with the small shield: 4 CP = SV 4" in last_log(state)
    change = form(state, "change_action", "Ulf", weapon="broadsword", shield=False)
    assert set(change) >= {"weapon", "shield", "spell_im", "other_im"}
    state = apply(state, a.RulesetAction(name="change_action", args=change))
    assert "changes his action" in last_log(state)
    assert RULESET.action_fields(state, "hold", cid(state, "Fridgar")) == ()
    for action in RULESET.round_actions(state):
        RULESET.action_fields(state, action.name, cid(state, "Ulf"))
    declared = {f.key: f.default for f in RULESET.declaration_fields(state, cid(state, "Ulf"))}
    assert declared == {"weapon": "Broadsword", "shield": True, "spell_im": 0, "other_im": 0}
    assert dict(RULESET.details(state, cid(state, "Fridgar")))["CP by weapon"] == "Seax 14 · Broadsword 10 · unarmed 9"


# -- the round's budget: properties -------------------------------------------------------------------
DATA = RULESET.data
WEAPON_NAMES = [w.name for w in DATA.weapons.values()]
CP_DISCIPLINES = [s.name for s in DATA.disciplines.values() if s.field is None]
CP_SPECIALTIES = [s.name for s in DATA.specialties.values() if s.field is None]


@st.composite
def sheets(draw: st.DrawFn) -> dict[str, Any]:
    weapons = draw(st.lists(st.sampled_from(WEAPON_NAMES), min_size=0, max_size=3, unique=True))
    disciplines = draw(st.dictionaries(st.sampled_from(CP_DISCIPLINES), st.integers(0, 4), max_size=3))
    specialties = draw(st.dictionaries(st.sampled_from(CP_SPECIALTIES), st.integers(0, 4), max_size=3))
    return {
        "sv": draw(st.integers(0, 20)),
        "weapons": ", ".join(weapons),
        "shield": draw(st.sampled_from(["none", *DATA.shields])),
        "armour": draw(st.sampled_from(["none", *DATA.armour])),
        "disciplines": "; ".join(f"{name} {level}" for name, level in disciplines.items()),
        "specialties": "; ".join(f"{name} {level}" for name, level in specialties.items()),
        "wrestling": draw(st.integers(0, 12)),
        "ambidexter": draw(st.integers(0, 5)),
        "shield_bearer": draw(st.integers(0, 1)),
        "str_mod": draw(st.integers(-2, 2)),
        "agi_mod": draw(st.integers(-2, 2)),
    }


OPERATIONS = ["attack"] * 5 + ["parry"] * 4 + ["dodge"] * 2 + ["grapple", "break_free", "glima", "glima_defence", "hold", "act_held", "skip", "change", "next", "next"]
STEPS = st.tuples(st.sampled_from(OPERATIONS), st.integers(0, 1), st.integers(0, 5), st.integers(0, 15), st.integers(1, 20))


def check_budget_invariants(state: State) -> None:
    budgets = state.round_data["budgets"]
    for combatant in state.combatants:
        sheet = RULESET.sheet_of(combatant)
        own = budgets[combatant.id]
        for meter in own["pools"].values():
            assert 0 <= meter["left"] <= meter["total"]
        limits = {w.name: w.actions for w in sheet.weapons}
        if sheet.shield:
            limits["shield"] = DATA.shields[sheet.shield].actions
        assert {item: meter["total"] for item, meter in own["actions"].items()} == limits
        for meter in own["actions"].values():
            assert 0 <= meter["left"] <= meter["total"]
        assert 0 <= own["unarmed"]["left"] <= own["unarmed"]["total"] == DATA.rules.unarmed_attacks


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheet_a=sheets(), sheet_b=sheets(), steps=st.lists(STEPS, max_size=25), rolls=st.tuples(st.integers(1, 10), st.integers(1, 10)))
def test_random_spending_never_breaks_the_budget(sheet_a: dict[str, Any], sheet_b: dict[str, Any], steps: list[tuple[str, int, int, int, int]], rolls: tuple[int, int]) -> None:
    state = fight(("Heroes", "A", sheet_a), ("Foes", "B", sheet_b))
    ids = [cid(state, "A"), cid(state, "B")]
    state = roll_initiative(state, A=d10(rolls[0]), B=d10(rolls[1]))
    check_budget_invariants(state)
    for name, who, item_index, amount, face in steps:
        me, other = ids[who], ids[1 - who]
        items = ["", "unarmed", "shield", *(w.name for w in RULESET.sheet_of(state.combatant(me)).weapons)]
        item = items[item_index % len(items)]
        args: dict[str, Any] = {"combatant": me, "roll": msgspec.to_builtins(d20(face))}
        if name in ("attack", "grapple", "glima"):
            args["target"] = other
        if name in ("attack", "parry", "dodge"):
            args["cp"] = amount
            args["weapon"] = item
        elif name in ("grapple", "break_free", "glima", "glima_defence"):
            args["sv"] = amount
        try:
            if name == "next":
                state = apply(state, a.NextStep())
            elif name == "change":
                state = act(state, "change_action", combatant=me, weapon=item or "unarmed", shield=item_index % 2 == 0)
            else:
                state = act(state, name, **args)
        except RuleError:
            pass
        if state.phase == "round" and RULESET.steps(state)[state.step].kind == "resolve":
            check_budget_invariants(state)
            assert all(slot.combatants for slot in state.order)
            placed = [c for slot in state.order for c in slot.combatants]
            assert len(placed) == len(set(placed))
        else:
            break
    state = next_round(state)
    for combatant in state.combatants:
        sheet = RULESET.sheet_of(combatant)
        fresh = msgspec.to_builtins(RULESET.fresh_budget(sheet))
        assert state.round_data["budgets"][combatant.id] == fresh
        assert {pool: meter["total"] for pool, meter in fresh["pools"].items()} == cp_pools(sheet)
        assert {pool: meter["left"] for pool, meter in fresh["pools"].items()} == cp_pools(sheet)


@settings(max_examples=80, deadline=None)
@given(sheet=sheets())
def test_random_sheets_read_back_and_cp_adds_up(sheet: dict[str, Any]) -> None:
    resolved = sheet_from_fields(sheet)
    assert sheet_from_fields(msgspec.to_builtins(resolved)) == resolved
    pools = cp_pools(resolved)
    assert all(value > 0 for pool, value in pools.items() if pool != "general")
    assert pools["general"] == resolved.sv
    for weapon in resolved.weapons:
        assert resolved.sv <= cp_available(resolved, weapon.name) <= sum(pools.values())
    assert cp_available(resolved, "dodge") == resolved.sv


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheet_a=sheets(), sheet_b=sheets(), steps=st.lists(STEPS, max_size=15))
def test_undo_of_a_spend_restores_the_exact_budget(sheet_a: dict[str, Any], sheet_b: dict[str, Any], steps: list[tuple[str, int, int, int, int]]) -> None:
    """Every spend goes through the store; undoing it gives back the budget as it was, redo re-spends it."""
    from tui_combat.store import Store

    state = fight(("Heroes", "A", sheet_a), ("Foes", "B", sheet_b))
    store = Store(roll_initiative(state, A=d10(7), B=d10(3)))
    ids = [cid(store.state, "A"), cid(store.state, "B")]
    for name, who, item_index, amount, face in steps:
        if name in ("next", "change"):
            continue
        me, other = ids[who], ids[1 - who]
        items = ["", "unarmed", "shield", *(w.name for w in RULESET.sheet_of(store.state.combatant(me)).weapons)]
        args: dict[str, Any] = {"combatant": me, "target": other, "roll": msgspec.to_builtins(d20(face))}
        if name in ("attack", "parry", "dodge"):
            args.update(cp=amount, weapon=items[item_index % len(items)])
        elif name in ("grapple", "break_free", "glima", "glima_defence"):
            args["sv"] = amount
        before = store.state
        try:
            store.dispatch(a.RulesetAction(name=name, args={k: v for k, v in args.items() if k != "target" or name in ("attack", "grapple", "glima")}))
        except RuleError:
            assert store.state == before
            continue
        after = store.state
        store.undo()
        assert store.state.round_data.get("budgets") == before.round_data.get("budgets")
        assert store.state == before
        store.redo()
        assert store.state == after
