"""Saving throws, areas and damage types in the engine (engine/area), with a small ruleset of the shape they
are for: two saves against a DC, a bonus on the sheet, a stone skin that fails Body saves, fire and cold, a
resistance that halves, a ward that takes the first points of each hit, Legendary Resistance by the day. What
the GM reads, what the players read under "outcomes", one action for one undo, and every check made before
anything is applied."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from tests.common import ids, typed
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import apply
from tui_combat.engine.audience import players_line
from tui_combat.engine.contract import NoState, Ruleset
from tui_combat.engine.dice import Roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, log, render
from tui_combat.engine.model import ROLLS_OPTION, State
from tui_combat.engine.public import public_entries
from tui_combat.engine.saves import Incoming, SaveOdds, SpecialAbility
from tui_combat.fight.store import Store


class WardsFight(msgspec.Struct, frozen=True, kw_only=True):
    used: dict[str, int] = {}
    heard: tuple[str, ...] = ()
    """What the hooks heard, in order: "save c3 body True area", "damage c3 12", "ability c4 breath"."""


class Wards(Ruleset[NoState, WardsFight]):
    id = "wards"
    name = "Wards"
    round_state_type = NoState
    fight_state_type = WardsFight

    def save_kinds(self, state: State) -> tuple[tuple[str, str], ...]:
        return (("body", "Body"), ("mind", "Mind"))

    def save_odds(self, state: State, combatant_id: str, kind: str, dc: int, *, cover: int = 0) -> SaveOdds:
        sheet = state.combatant(combatant_id).sheet
        if kind == "body" and sheet.get("stone"):
            return SaveOdds(kind=kind, needed=dc, auto="fail", reasons=(Msg(id="stone skin"),))
        dice = "d20adv" if sheet.get("lucky") else "1d20"
        return SaveOdds(
            kind=kind,
            needed=dc,
            dice=dice,
            modifier=int(sheet.get("save", 0)) + cover,
            reasons=(Msg(id="lucky: advantage"),) if sheet.get("lucky") else (),
        )

    def damage_types(self, state: State) -> tuple[tuple[str, str], ...]:
        return (("fire", "fire"), ("cold", "cold"))

    def incoming_damage(self, state: State, combatant_id: str, amount: int, kind: str) -> Incoming:
        sheet = state.combatant(combatant_id).sheet
        reasons: list[Msg] = []
        if kind and sheet.get("resist") == kind:
            reasons.append(Msg(id="resistant: {before} → {after}", params={"before": amount, "after": amount // 2}))
            amount //= 2
        ward = min(int(sheet.get("ward", 0)), amount)
        if ward:
            reasons.append(Msg(id="{n} on the ward", params={"n": ward}))
        return Incoming(amount=amount - ward, state=state, reasons=tuple(reasons), absorbed=ward)

    def legendary_resistance(self, state: State, combatant_id: str) -> int:
        return int(state.combatant(combatant_id).sheet.get("lr", 0)) - self.fight_of(state).used.get(combatant_id, 0)

    def spend_legendary_resistance(self, state: State, combatant_id: str) -> State:
        fight = self.fight_of(state)
        return self.with_fight(
            state, replace(fight, used={**fight.used, combatant_id: fight.used.get(combatant_id, 0) + 1})
        )

    def _heard(self, state: State, what: str) -> State:
        fight = self.fight_of(state)
        return self.with_fight(state, replace(fight, heard=(*fight.heard, what)))

    def after_save(self, state: State, combatant_id: str, kind: str, saved: bool, source: str) -> State:
        return self._heard(state, f"save {combatant_id} {kind} {saved} {source}")

    def on_damage(self, state: State, combatant_id: str, amount: int, *, critical: bool = False) -> State:
        return self._heard(state, f"damage {combatant_id} {amount}")

    def special_abilities(self, state: State, combatant_id: str) -> tuple[SpecialAbility, ...]:
        return (SpecialAbility(name="breath", damage="4d6", kind="fire", save="body", dc=14),)

    def on_ability_used(self, state: State, combatant_id: str, ability: str) -> State:
        if ability == "spent":
            raise RuleError("spent is not ready")
        return log(self._heard(state, f"ability {combatant_id} {ability}"), "{ability} is spent.", ability=ability)


@pytest.fixture
def wards() -> Iterator[Wards]:
    ruleset = Wards()
    registry.register(ruleset)
    yield ruleset
    registry.forget()


PARTY = {"Raf": {"save": 2}, "Ida": {"save": 0, "resist": "fire", "ward": 3}}
FOES = {"Goblin 1": {"save": 1}, "Goblin 2": {"stone": True}, "Drake": {"save": 5, "lr": 1, "resist": "cold"}}


def fight(rolls: str = "outcomes") -> Store:
    state = State(seed=1)
    for action in (
        a.SetRuleset(ruleset="wards"),
        a.AddSide(name="Party", is_party=True),
        a.AddSide(name="Foes"),
        a.SetOption(key=ROLLS_OPTION, value=rolls),
    ):
        state = apply(state, action)
    for side, members in (("s1", PARTY), ("s2", FOES)):
        for name, sheet in members.items():
            state = apply(state, a.AddCombatants(side=side, name=name, hp=20, sheet=dict(sheet)))
    store = Store(apply(state, a.StartFight()))
    return store


def d20(total: int) -> Roll:
    return typed("1d20", total)


def lines(state: State, count: int) -> list[str]:
    return [entry.text for entry in state.log_entries()[-count:]]


def public(state: State, count: int) -> list[str]:
    read = [players_line(entry) for entry in state.log_entries()[-count:]]
    return [render(line) for line in read if line is not None]


def heard(ruleset: Wards, state: State) -> tuple[str, ...]:
    return ruleset.fight_of(state).heard


# -- a saving throw ---------------------------------------------------------------------------------------------
def test_a_save_is_one_line_the_gm_reads_whole_and_the_players_read_who_saves(wards: Wards) -> None:
    store = fight()
    raf = ids(store.state)["Raf"]
    store.dispatch(a.SavingThrow(combatant=raf, kind="mind", roll=d20(13), dc=15, source="charm"))
    assert lines(store.state, 1) == ["Raf: Mind save: 1d20 (typed): 13, +2 → 15 against DC 15: saved."]
    assert public(store.state, 1) == ["Raf saves."]
    entry = store.state.log_entries()[-1]
    assert entry.facts == {"save": "mind", "needed": 15, "natural": 13, "total": 15, "saved": True, "source": "charm"}
    assert heard(wards, store.state) == (f"save {raf} mind True charm",)
    store.dispatch(a.SavingThrow(combatant=raf, kind="mind", roll=d20(12), dc=15))
    assert public(store.state, 1) == ["Raf fails the save."]


def test_every_roll_is_the_players_only_when_the_gm_shows_them_everything(wards: Wards) -> None:
    store = fight("everything")
    store.dispatch(a.SavingThrow(combatant=ids(store.state)["Goblin 1"], kind="mind", roll=d20(3), dc=12))
    assert public(store.state, 1) == ["Goblin 1: Mind save: 1d20 (typed): 3, +1 → 4 against DC 12: failed."]
    store = fight("nothing")
    store.dispatch(a.SavingThrow(combatant=ids(store.state)["Goblin 1"], kind="mind", roll=d20(3), dc=12))
    assert public(store.state, 1) == []


def test_an_automatic_failure_needs_no_roll_and_says_why(wards: Wards) -> None:
    store = fight()
    goblin = ids(store.state)["Goblin 2"]
    store.dispatch(a.SavingThrow(combatant=goblin, kind="body", roll=d20(20), dc=10))
    assert lines(store.state, 1) == ["Goblin 2: Body save: failed automatically (stone skin)."]
    assert store.state.log_entries()[-1].rolls == ()
    assert public(store.state, 1) == ["Goblin 2: Body save: failed automatically (stone skin)."]  # no figure in it


def test_the_dice_must_be_those_the_rules_ask_for(wards: Wards) -> None:
    store = fight()
    raf = ids(store.state)["Raf"]
    store.state = apply(store.state, a.EditCombatant(combatant=raf, sheet={"lucky": True}))
    with pytest.raises(RuleError, match=r"Raf's saving throw is rolled with d20adv, not 1d20: lucky: advantage."):
        apply(store.state, a.SavingThrow(combatant=raf, kind="mind", roll=d20(13), dc=15))
    state = apply(store.state, a.SavingThrow(combatant=raf, kind="mind", roll=typed("2d20kh1", 13), dc=15))
    assert state.log_entries()[-1].facts["saved"] is True
    with pytest.raises(RuleError, match=r"\"luck\" is not a saving throw of these rules; they have: Body, Mind."):
        apply(store.state, a.SavingThrow(combatant=raf, kind="luck", roll=d20(13), dc=15))


def test_legendary_resistance_turns_a_failure_into_a_success_once_a_day(wards: Wards) -> None:
    store = fight()
    drake = ids(store.state)["Drake"]
    store.dispatch(a.SavingThrow(combatant=drake, kind="mind", roll=d20(2), dc=18, legendary=True))
    assert lines(store.state, 1) == [
        "Drake: Mind save: 1d20 (typed): 2, +5 → 7 against DC 18: failed, but succeeds "
        "with Legendary Resistance (0 left)."
    ]
    assert public(store.state, 1) == ["Drake saves with Legendary Resistance."]
    assert wards.legendary_resistance(store.state, drake) == 0
    store.dispatch(
        a.SavingThrow(combatant=drake, kind="mind", roll=d20(19), dc=18, legendary=True)
    )  # saved: none spent
    assert store.state.log_entries()[-1].facts.get("legendary") is None
    with pytest.raises(RuleError, match="Drake has no Legendary Resistance left."):
        apply(store.state, a.SavingThrow(combatant=drake, kind="mind", roll=d20(2), dc=18, legendary=True))


def test_rules_without_saving_throws_refuse_one() -> None:
    store_state = State(seed=1)
    for action in (
        a.SetRuleset(ruleset="trudvang"),
        a.AddSide(name="Party", is_party=True),
        a.AddSide(name="Foes"),
        a.AddCombatants(side="s1", name="Ulf", hp=30),
        a.AddCombatants(side="s2", name="Troll", hp=40),
        a.StartFight(),
    ):
        store_state = apply(store_state, action)
    with pytest.raises(RuleError, match="These rules have no saving throws: deal the damage to each target."):
        apply(store_state, a.SavingThrow(combatant=ids(store_state)["Ulf"], kind="body", roll=d20(10), dc=10))


# -- an area ------------------------------------------------------------------------------------------------------
def breath(state: State, **changes: Any) -> a.AreaEffect:
    named = ids(state)
    targets = (
        a.AreaTarget(combatant=named["Raf"], roll=d20(14)),
        a.AreaTarget(combatant=named["Ida"], roll=d20(3)),
        a.AreaTarget(combatant=named["Goblin 1"], roll=d20(9)),
        a.AreaTarget(combatant=named["Goblin 2"]),
    )
    action = a.AreaEffect(
        name="Breath",
        targets=targets,
        damage=typed("4d6", 12),
        kind="fire",
        save="body",
        dc=14,
        source=named["Drake"],
        ability="breath",
    )
    return msgspec.structs.replace(action, **changes)


def test_an_area_is_a_header_and_one_line_per_target_for_the_gm(wards: Wards) -> None:
    store = fight()
    named = ids(store.state)
    store.dispatch(breath(store.state))
    texts = lines(store.state, 6)
    assert (
        texts[0]
        == "Drake's Breath: 12 damage (fire) (4d6 (typed): 12); Body save against DC 14, half damage on a success."
    )
    assert texts[1] == "Raf: Body save: 1d20 (typed): 14, +2 → 16 against DC 14: saved; 6 damage (fire): 14/20 HP."
    assert texts[2] == (
        "Ida: Body save: 1d20 (typed): 3 against DC 14: failed; 6 damage (fire: resistant: 12 → 6, "
        "3 on the ward): 17/20 HP."
    )
    assert texts[3] == "Goblin 1: Body save: 1d20 (typed): 9, +1 → 10 against DC 14: failed; 12 damage (fire): 8/20 HP."
    assert texts[4] == "Goblin 2: Body save: failed automatically (stone skin); 12 damage (fire): 8/20 HP."
    assert texts[5] == "breath is spent."
    assert [store.state.combatant(named[n]).hp for n in ("Raf", "Ida", "Goblin 1", "Goblin 2")] == [14, 17, 8, 8]
    assert heard(wards, store.state) == (
        f"damage {named['Raf']} 6",
        f"save {named['Raf']} body True area",
        f"damage {named['Ida']} 6",
        f"save {named['Ida']} body False area",
        f"damage {named['Goblin 1']} 12",
        f"save {named['Goblin 1']} body False area",
        f"damage {named['Goblin 2']} 12",
        f"save {named['Goblin 2']} body False area",
        f"ability {named['Drake']} breath",
    )


def test_the_players_read_who_saves_and_what_each_takes_never_a_dc_a_bonus_or_a_resistance(wards: Wards) -> None:
    store = fight()
    store.dispatch(breath(store.state))
    assert public(store.state, 6) == [
        "Drake's Breath: 12 damage (fire); Body save, half damage on a success.",
        "Raf saves: 6 damage: 14/20 HP.",
        "Ida fails the save: 6 damage: 17/20 HP.",  # the party's own resistance is theirs to know, on the GM's line
        "Goblin 1 fails the save: 12 damage.",
        "Goblin 2 fails the save: 12 damage.",
        "breath is spent.",
    ]
    ida = next(entry for entry in store.state.log_entries() if entry.text.startswith("Ida:"))
    assert ida.facts["damage"] == 6 and ida.facts["lost"] == 3 and ida.facts["absorbed"] == 3


def test_a_monsters_resistance_stays_behind_the_screen(wards: Wards) -> None:
    store = fight()
    drake = ids(store.state)["Drake"]
    store.dispatch(
        a.AreaEffect(
            name="Frost",
            targets=(a.AreaTarget(combatant=drake, roll=d20(1)),),
            damage=typed("2d6", 8),
            kind="cold",
            save="body",
            dc=12,
        )
    )
    assert lines(store.state, 1) == [
        "Drake: Body save: 1d20 (typed): 1, +5 → 6 against DC 12: failed; 4 damage (cold: resistant: 8 → 4): 16/20 HP."
    ]
    assert public(store.state, 2) == [
        "Frost: 8 damage (cold); Body save, half damage on a success.",
        "Drake fails the save: 4 damage.",
    ]


def test_a_legendary_resistance_in_an_area_saves_the_target(wards: Wards) -> None:
    store = fight()
    drake = ids(store.state)["Drake"]
    store.dispatch(
        a.AreaEffect(
            name="Flames",
            targets=(a.AreaTarget(combatant=drake, roll=d20(1), legendary=True),),
            damage=typed("2d6", 9),
            kind="fire",
            save="body",
            dc=12,
            on_save="none",
        )
    )
    assert public(store.state, 1) == ["Drake saves with Legendary Resistance: no damage."]
    assert store.state.combatant(drake).hp == 20 and wards.legendary_resistance(store.state, drake) == 0


def test_an_area_is_one_action_undone_at_once(wards: Wards) -> None:
    store = fight()
    before = store.state
    store.dispatch(breath(store.state))
    assert store.state.combatant(ids(before)["Goblin 1"]).hp == 8
    store.undo()
    assert store.state == before
    store.redo()
    assert store.state.combatant(ids(before)["Goblin 1"]).hp == 8


def test_without_a_save_each_target_takes_the_damage_in_a_hits_own_line(wards: Wards) -> None:
    store = fight()
    named = ids(store.state)
    store.dispatch(
        a.AreaEffect(
            name="Rockfall",
            targets=(a.AreaTarget(combatant=named["Raf"]), a.AreaTarget(combatant=named["Goblin 1"])),
            damage=typed("2d6", 7),
        )
    )
    assert lines(store.state, 3) == [
        "Rockfall: 7 damage (2d6 (typed): 7), no saving throw.",
        "Raf takes 7 damage: 13/20 HP.",
        "Goblin 1 takes 7 damage: 13/20 HP.",
    ]
    assert public(store.state, 3) == [
        "Rockfall: 7 damage, no saving throw.",
        "Raf takes 7 damage: 13/20 HP.",
        "Goblin 1 takes 7 damage.",
    ]


def test_rules_without_saving_throws_deal_an_area_as_plain_damage() -> None:
    state = State(seed=1)
    for action in (
        a.SetRuleset(ruleset="trudvang"),
        a.AddSide(name="Party", is_party=True),
        a.AddSide(name="Foes"),
        a.AddCombatants(side="s1", name="Ulf", hp=30),
        a.AddCombatants(side="s2", name="Troll", hp=40, count=2),
        a.StartFight(),
    ):
        state = apply(state, action)
    named = ids(state)
    targets = (a.AreaTarget(combatant=named["Troll 1"]), a.AreaTarget(combatant=named["Troll 2"]))
    with pytest.raises(RuleError, match="These rules have no saving throws: deal the damage to each target."):
        apply(state, a.AreaEffect(name="Rockfall", targets=targets, damage=typed("1d10", 5), save="body"))
    after = apply(state, a.AreaEffect(name="Rockfall", targets=targets, damage=typed("1d10", 5)))
    assert [after.combatant(named[n]).hp for n in ("Troll 1", "Troll 2")] == [
        state.combatant(named[n]).hp - 5 for n in ("Troll 1", "Troll 2")
    ]
    assert "Rockfall: 5 damage (1d10 (typed): 5), no saving throw." in [entry.text for entry in after.log_entries()]


def test_a_save_only_area_logs_each_save(wards: Wards) -> None:
    store = fight()
    named = ids(store.state)
    store.dispatch(
        a.AreaEffect(
            name="Fear", targets=(a.AreaTarget(combatant=named["Goblin 1"], roll=d20(15)),), save="mind", dc=13
        )
    )
    assert lines(store.state, 2) == [
        "Fear: Mind save against DC 13.",
        "Goblin 1: Mind save: 1d20 (typed): 15, +1 → 16 against DC 13: saved.",
    ]
    assert public(store.state, 2) == ["Fear: Mind save.", "Goblin 1 saves."]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"targets": ()}, "Choose the area's targets."),
        ({"name": "  "}, "An area effect needs a name."),
        ({"kind": "acid"}, '"acid" is not a type of damage; the types are: fire, cold.'),
        ({"damage": Roll(expr="4d6", total=30)}, "4d6 cannot show 30 damage: from 4 to 24."),
        ({"on_save": "quarter"}, "On a successful save: half damage, no damage or full damage."),
        ({"source": ""}, "A special ability is someone's: say whose."),
        ({"save": "", "damage": None}, "An area effect deals damage, asks for a saving throw, or both."),
        ({"ability": "spent"}, "spent is not ready"),
    ],
)
def test_an_area_is_checked_whole_before_anything_is_applied(
    wards: Wards, changes: dict[str, Any], message: str
) -> None:
    store = fight()
    with pytest.raises(RuleError, match=message.replace("(", r"\(").replace(")", r"\)")):
        apply(store.state, breath(store.state, **changes))


def test_each_target_once_with_a_roll_for_a_save_and_none_without(wards: Wards) -> None:
    store = fight()
    named = ids(store.state)
    raf = a.AreaTarget(combatant=named["Raf"], roll=d20(5))
    with pytest.raises(RuleError, match="Raf is a target twice."):
        apply(store.state, breath(store.state, targets=(raf, raf)))
    with pytest.raises(RuleError, match="Roll Raf's saving throw."):
        apply(store.state, breath(store.state, targets=(a.AreaTarget(combatant=named["Raf"]),)))
    with pytest.raises(RuleError, match="The area has no saving throw: Raf rolls none."):
        apply(store.state, breath(store.state, save="", targets=(raf,)))
    with pytest.raises(RuleError, match="No such combatant."):
        apply(store.state, breath(store.state, targets=(a.AreaTarget(combatant="c99", roll=d20(5)),)))


@settings(max_examples=40, deadline=None)
@given(
    rolled=st.integers(min_value=4, max_value=24),
    faces=st.lists(st.integers(min_value=1, max_value=20), min_size=3, max_size=3),
    on_save=st.sampled_from(["half", "none", "full"]),
)
def test_an_area_deals_each_target_what_one_damage_of_his_share_would(
    rolled: int, faces: list[int], on_save: str
) -> None:
    ruleset = Wards()
    registry.register(ruleset)
    try:
        state = fight().state
        named = ids(state)
        people = ("Raf", "Ida", "Goblin 1")
        targets = tuple(a.AreaTarget(combatant=named[n], roll=d20(face)) for n, face in zip(people, faces))
        after = apply(
            state,
            a.AreaEffect(
                name="Blast",
                targets=targets,
                damage=typed("4d6", rolled),
                kind="fire",
                save="mind",
                dc=12,
                on_save=on_save,
            ),
        )
        one_by_one = state
        for name, face in zip(people, faces):
            saved = face + int(state.combatant(named[name]).sheet.get("save", 0)) >= 12
            share = ruleset.area_share(state, named[name], rolled, on_save, saved, "mind")
            one_by_one = apply(one_by_one, a.Damage(combatant=named[name], amount=share, kind="fire"))
        assert [after.combatant(named[n]).hp for n in people] == [one_by_one.combatant(named[n]).hp for n in people]
        new = public_entries(after)[len(public_entries(state)) :]
        assert len([entry for entry in new if "damage" in entry.facts]) == 3  # one line per target, the players' too
    finally:
        registry.forget()


# -- a damage's type --------------------------------------------------------------------------------------------
def test_a_typed_damage_says_what_the_rules_made_of_it(wards: Wards) -> None:
    store = fight()
    named = ids(store.state)
    store.dispatch(a.Damage(combatant=named["Drake"], amount=9, kind="cold", roll=typed("2d8", 9)))
    assert lines(store.state, 1) == ["Drake takes 4 damage (cold: resistant: 9 → 4) (2d8 (typed): 9): 16/20 HP."]
    assert public(store.state, 1) == ["Drake takes 4 damage (cold)."]
    store.dispatch(a.Damage(combatant=named["Drake"], amount=5))
    assert lines(store.state, 1) == ["Drake takes 5 damage: 11/20 HP."]  # a plain hit reads as it always did
    store.dispatch(a.Damage(combatant=named["Ida"], amount=2))
    assert lines(store.state, 1) == ["Ida takes 2 damage (2 on the ward): 20/20 HP."]
    assert heard(wards, store.state)[-1] == f"damage {named['Ida']} 2"  # the damage he took, the ward's part too
    with pytest.raises(RuleError, match='"acid" is not a type of damage'):
        apply(store.state, a.Damage(combatant=named["Drake"], amount=5, kind="acid"))


def test_rules_whose_damage_has_no_type_refuse_one() -> None:
    state = State(seed=1)
    for action in (
        a.SetRuleset(ruleset="ose"),
        a.AddSide(name="Party", is_party=True),
        a.AddCombatants(side="s1", name="Ulf", hp=30),
    ):
        state = apply(state, action)
    with pytest.raises(RuleError, match="These rules give damage no type."):
        apply(state, a.Damage(combatant=ids(state)["Ulf"], amount=3, kind="fire"))


# -- effects held by someone ------------------------------------------------------------------------------------
def test_an_effect_held_by_someone_ends_with_what_holds_it(wards: Wards) -> None:
    from tui_combat.engine.effects import end_held

    store = fight()
    named = ids(store.state)
    store.dispatch(a.AddEffect(combatant=named["Goblin 1"], name="held", rounds=10, holder=named["Raf"]))
    store.dispatch(a.AddEffect(combatant=named["Goblin 2"], name="slowed", rounds=10))
    assert [effect.holder for effect in store.state.effects] == [named["Raf"], ""]
    state = end_held(store.state, named["Raf"])
    assert [render(effect.label) for effect in state.effects] == ["slowed"]
    assert lines(state, 1) == ["held on Goblin 1 ends."]
    with pytest.raises(RuleError, match="No such combatant."):
        apply(store.state, a.AddEffect(combatant=named["Goblin 1"], name="held", rounds=10, holder="c99"))
