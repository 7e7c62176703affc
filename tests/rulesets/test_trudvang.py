"""Trudvang Chronicles: the ruleset and its data, house rules, sheets and CP, initiative and the countdown,
NPC groups, surprise. Combat actions are in ``test_trudvang_actions.py``, properties in
``test_trudvang_properties.py``.

Everything that touches a fight goes through the real engine (``apply``) with real actions.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from tests.common import Faces, config_folder, house_rules_file
from tests.rulesets.trudvang_fight import (
    FRIDGAR,
    act,
    cid,
    d10,
    d20,
    declare,
    fight,
    labels,
    last_entry,
    next_round,
    roll_initiative,
)
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import apply
from tui_combat.engine.contract import Ruleset
from tui_combat.engine.dice import physical, roll
from tui_combat.engine.encounter import EncounterError, load_encounter
from tui_combat.engine.errors import RuleError
from tui_combat.engine.keys import reserved
from tui_combat.engine.model import State
from tui_combat.i18n import _, pgettext, set_language
from tui_combat.rulesets.trudvang import (
    RULESET,
    Bonus,
    Carry,
    RoundInfo,
    Trudvang,
    cp_available,
    cp_pools,
    default_data,
    load_data,
    sheet_from_fields,
)

DATA_FILE = Path(__file__).parents[2] / "tui_combat/rulesets/data/trudvang.toml"


# -- the ruleset object and its data ------------------------------------------------------------------
def test_registered_typed_and_its_catalogue() -> None:
    ruleset = registry.get("trudvang")
    assert ruleset is RULESET
    assert isinstance(ruleset, Ruleset) and isinstance(ruleset, Trudvang)
    assert (ruleset.round_state_type, ruleset.fight_state_type) == (RoundInfo, Carry)
    assert [step.kind for step in ruleset.steps(State())] == ["declare", "initiative", "resolve", "end"]
    keys = {spec.name: spec.key for spec in ruleset.actions}
    assert keys == {
        "attack": "a",
        "parry": "p",
        "dodge": "o",
        "grapple": "g",
        "break_free": "f",
        "glima": "w",
        "glima_defence": "v",
        "hold": "l",
        "act_held": "j",
        "skip": "k",
        "change_action": "c",
        "release": "z",
    }
    assert not set(keys.values()) & set(reserved())


def test_which_actions_apply_in_which_step() -> None:
    state = fight(("Heroes", "Fridgar", FRIDGAR), ("Foes", "Ulf", {"sv": 8, "weapons": "broadsword"}))
    fridgar = cid(state, "Fridgar")
    names = [spec.name for spec in RULESET.actions]
    assert [n for n in names if RULESET.action_available(state, n, fridgar)] == ["change_action", "skip"]
    with pytest.raises(RuleError, match="Attack cannot be done now"):
        act(state, "attack", combatant=fridgar, target=cid(state, "Ulf"), cp=3, roll=d20(3))
    state = roll_initiative(state, Fridgar=d10(5), Ulf=d10(2))
    assert all(RULESET.action_available(state, n, fridgar) for n in names)
    assert not any(RULESET.action_available(State(), n, None) for n in names)


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


def test_a_bad_data_file_names_the_file_and_the_key(tmp_path: Path) -> None:
    text = DATA_FILE.read_text(encoding="utf-8")
    bad = tmp_path / "whole.toml"
    bad.write_text(
        text.replace(
            'im = -4\nactions = 3\ngroup = "one-handed heavy"',
            'im = "slow"\nactions = 3\ngroup = "one-handed heavy"',
            1,
        ),
        encoding="utf-8",
    )
    with pytest.raises(RuleError) as error:
        load_data(bad)
    assert "whole.toml" in str(error.value) and "battle_axe" in str(error.value) and ".im" in str(error.value)
    assert "Expected `int`, got `str`" in str(error.value)
    bad.write_text(text.replace('lock = "brawl"', 'lock = "group:fists"'), encoding="utf-8")
    with pytest.raises(RuleError) as error:
        load_data(bad)
    assert (
        "whole.toml" in str(error.value)
        and "specialties.brawler.lock" in str(error.value)
        and "fists" in str(error.value)
    )
    bad.write_text("schema = [", encoding="utf-8")
    with pytest.raises(RuleError, match="whole.toml"):
        load_data(bad)


# -- house rules: a file in the GM's config folder --------------------------------------------------------
@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty config folder of our own; the tables are read again from it, and again after the test."""
    with config_folder(tmp_path / "config", monkeypatch, default_data) as folder:
        yield folder


def house_rules(config_dir: Path, text: str) -> Path:
    return house_rules_file(config_dir, "trudvang", text, default_data)


def skip_then_roll_round_two(fridgar_d10: int) -> State:
    """Fridgar (seax, IM −1) gives up his turn in round 1; round 2: he rolls ``fridgar_d10``, Ulf 9 (−4)."""
    state = fight(("Heroes", "Fridgar", FRIDGAR), ("Foes", "Ulf", {"sv": 8, "weapons": "broadsword"}))
    state = act(state, "skip", combatant=cid(state, "Fridgar"))
    state = roll_initiative(state, Ulf=d10(9))
    state = next_round(state)
    return roll_initiative(state, Fridgar=d10(fridgar_d10), Ulf=d10(9))


def test_a_house_rule_changes_the_bonus_for_a_skipped_turn(config_dir: Path) -> None:
    # Packaged rules: +5. Round 2: Fridgar 4 − 1 (seax) + 5 = 8; Ulf 9 − 4 = 5.
    state = skip_then_roll_round_two(4)
    assert labels(state) == [("8", ["Fridgar"]), ("5", ["Ulf"])]
    house_rules(config_dir, "[rules]\nskip_bonus = 3\n")
    assert RULESET.data.rules.skip_bonus == 3
    # House rule +3: Fridgar 4 − 1 + 3 = 6.
    state = skip_then_roll_round_two(4)
    assert labels(state) == [("6", ["Fridgar"]), ("5", ["Ulf"])]
    skipped = [e for e in state.log_entries() if e.msg.id == "{name} skipped last round's turn: {bonus} to initiative."]
    assert [(e.round, e.facts["bonus"], e.text) for e in skipped] == [
        (2, 3, "Fridgar skipped last round's turn: +3 to initiative.")
    ]
    rolled = [e for e in state.log_entries() if e.round == 2 and e.text.startswith("Initiative — Fridgar")]
    assert rolled[0].text == "Initiative — Fridgar: 1d10!: [4] = 4 +2 = 6."


def test_a_wrong_house_rule_names_the_file_the_key_and_what_was_expected(config_dir: Path) -> None:
    path = house_rules(config_dir, '[weapons.battle_axe]\nim = "slow"\n')
    with pytest.raises(RuleError) as error:
        Trudvang().prepare()
    message = str(error.value)
    assert (
        str(path) in message and "battle_axe" in message and ".im" in message and "Expected `int`, got `str`" in message
    )
    path = house_rules(config_dir, '[specialties.brawler]\nlock = "group:fists"\n')
    with pytest.raises(RuleError) as error:
        Trudvang().prepare()
    assert (
        str(path) in str(error.value) and "specialties.brawler.lock" in str(error.value) and "fists" in str(error.value)
    )
    path = house_rules(config_dir, "[rules]\ncalls = [10, 15]\n")
    with pytest.raises(RuleError, match="rules.calls: list the calls from the highest down"):
        Trudvang().prepare()


# -- combat points: the seed's Fridgar -----------------------------------------------------------------
def test_fridgar_cp_by_weapon() -> None:
    assert cp_pools(sheet_from_fields({"sv": 6})) == {"general": 6}
    sheet = sheet_from_fields(FRIDGAR)
    assert cp_pools(sheet) == {"general": 9, "any_weapon": 1, "group:one handed light": 4}
    assert cp_available(sheet, "seax") == 14  # a one-handed light weapon: 9 + 1 + 4
    assert cp_available(sheet, "dagger") == 14  # an alias of the seax
    assert cp_available(sheet, "broadsword") == 10  # another weapon: 9 + 1
    assert cp_available(sheet, "unarmed") == 9
    later = sheet_from_fields(
        {
            **FRIDGAR,
            "disciplines": "Armed combat 1; Unarmed combat 1",
            "specialties": "One-handed light weapons 2; Brawler 1",
        }
    )
    assert cp_available(later, "unarmed") == 12  # 9 + 1 + 2
    assert cp_available(later, "seax") == 14


def test_fridgar_budget_in_a_fight() -> None:
    state = fight(("Heroes", "Fridgar", FRIDGAR), ("Foes", "Ulf", {"sv": 8, "weapons": "broadsword"}))
    assert {line.label: (line.left, line.total) for line in RULESET.budget(state, cid(state, "Fridgar"))} == {
        "CP": (9, 9),
        "CP any weapon": (1, 1),
        "CP one-handed light": (4, 4),
        "Seax actions": (4, 4),
        "Broadsword actions": (3, 3),
        "Unarmed attacks": (4, 4),
    }
    assert RULESET.cp_left(state, cid(state, "Fridgar"), "seax") == 14


def test_russian_names_and_typos() -> None:
    sheet = sheet_from_fields(
        {"sv": 9, "weapons": "сакс", "disciplines": "Вооружённый бой 1", "specialties": "Одноручное легкое оружие 2"}
    )
    assert cp_available(sheet, "Seax") == 14
    with pytest.raises(RuleError) as error:
        sheet_from_fields({"disciplines": "Armd combat 1"})
    assert "Armed combat" in str(error.value) and "Known:" in str(error.value) and "Did you mean" in str(error.value)
    with pytest.raises(RuleError, match="needs a level"):
        sheet_from_fields({"specialties": "Brawler"})
    with pytest.raises(RuleError, match='unknown weapon "sord"'):
        sheet_from_fields({"weapons": "sord"})
    with pytest.raises(RuleError, match='^Sheet, sv: a whole number, not "nine"\\. Armour: unknown armour "chian"'):
        sheet_from_fields({"sv": "nine", "armour": "chian"})  # both mistakes at once


def _examples(text: str) -> list[str]:
    """The weapons written with their numbers in a hint or a message: "Club (im -2, actions 3, …)"."""
    return [found.strip(' «»"') for found in re.findall(r"[^,:;—«\"]+\([^)]*\)", text)]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_the_weapons_hint_is_in_the_gms_language_and_reads_as_it_says(lang: str) -> None:
    from tui_combat.rulesets.trudvang.sheet import WEAPON_KEYS

    set_language(lang)
    try:
        hint = _(next(field.help for field in RULESET.sheet_fields if field.key == "weapons"))
        refusal = str(pytest.raises(RuleError, sheet_from_fields, {"weapons": "Maul"}).value)
        keys = [pgettext("Trudvang sheet key", key) for key in WEAPON_KEYS]
        read = [sheet_from_fields({"weapons": example}).weapons[0] for example in _examples(hint)]
        in_refusal = [
            sheet_from_fields({"weapons": example}).weapons[0]
            for example in _examples(refusal.split("numbers")[-1] if lang == "en" else refusal.rsplit(":", 1)[-1])
        ]
    finally:
        set_language("en")
    if lang != "en":
        for english in ("im ", "actions", "group", "like seax", "one-handed"):
            assert english not in hint and english not in refusal.split("Maul")[-1], (english, hint, refusal)
        assert keys != list(WEAPON_KEYS)
    club, left = read
    assert (club.im, club.actions, club.group, club.base) == (-2, 3, "one-handed heavy", "")
    assert (left.base, left.actions) == ("seax", RULESET.data.weapons["seax"].actions)
    assert [(w.im, w.actions, w.group, w.base) for w in in_refusal] == [
        (-2, 3, "one-handed heavy", ""),
        (left.im, left.actions, left.group, "seax"),
    ]


def test_an_unknown_key_is_named_with_the_known_ones_in_the_gms_language() -> None:
    set_language("ru")
    try:
        with pytest.raises(
            RuleError, match="«вес»; используйте как, МИ, действия, группа, руки, лёгкое, дальнобойное, урон"
        ):
            sheet_from_fields({"weapons": "Молот (вес 3)"})
        sheet = sheet_from_fields(
            {
                "weapons": "Молот (МИ -3, действия 2, группа двуручное, лёгкое нет, руки 2)",
                "specialties": "Молотобоец 1 (БО 2, привязка weapon:молот)",
            }
        )
    finally:
        set_language("en")
    (hammer,) = sheet.weapons
    assert (hammer.im, hammer.actions, hammer.hands, hammer.light) == (-3, 2, 2, False)
    assert [(skill.name, skill.cp_per_level, skill.lock) for skill in sheet.specialties] == [
        ("Молотобоец", 2, "weapon:молот")
    ]


@pytest.mark.parametrize(("lang", "none", "meant"), [("ru", "нет", "Вываренная кожа"), ("uk", "немає", "Варена шкіра")])
def test_a_misspelt_armour_lists_the_known_ones_and_the_likely_one_in_the_gms_language(
    tmp_path: Path, lang: str, none: str, meant: str
) -> None:
    path = tmp_path / "raid.toml"
    path.write_text(
        'name = "Raid"\nruleset = "trudvang"\n[[sides]]\nname = "Raiders"\n[[sides.combatants]]\n'
        'name = "Ulf"\nhp = 9\nsheet = { armour = "hardend leather" }\n',
        encoding="utf-8",
    )
    set_language(lang)
    try:
        with pytest.raises(EncounterError) as refused:
            load_encounter(path)
        armour = next(problem.message for problem in refused.value.problems if "hardend" in problem.message)
        as_shown = sheet_from_fields({"armour": none, "shield": none})  # the word the list gives for none is read
    finally:
        set_language("en")
    assert f": {none}, " in armour and armour.endswith(f"«{meant}»?"), armour
    assert "none" not in armour and "Hardened" not in armour
    assert (as_shown.armour, as_shown.shield) == ("", "")


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
    calls = {v: str(RULESET.call_label(v)) for v in (31, 20, 19, 15, 14, 10, 9, 5, 1, 0, -4)}
    assert calls == {
        31: "20",
        20: "20",
        19: "15",
        15: "15",
        14: "10",
        10: "10",
        9: "9",
        5: "5",
        1: "1",
        0: "≤0",
        -4: "≤0",
    }


def test_two_slots_at_one_call_read_apart() -> None:
    """The countdown once showed "≤0" twice: slots at one call now show their initiative."""
    people = [("Heroes", n, {"sv": 8, "weapons": "two-handed axe", "armour": "plate"}) for n in ("A", "B")] + [
        ("Foes", "C", {"sv": 8})
    ]
    state = roll_initiative(fight(*people), A=d10(9), B=d10(7), C=d10(4))  # A 9 − 11 = −2, B −4; C 4
    assert [(str(slot.label), slot.value) for slot in state.order] == [("4", 4), ("≤0 (-2)", -2), ("≤0 (-4)", -4)]
    state = roll_initiative(fight(*people), A=d10(10, 1), B=d10(7), C=d10(4))  # A 11 − 11 = 0
    assert [str(slot.label) for slot in state.order] == ["4", "≤0", "≤0 (-4)"]
    state = roll_initiative(fight(people[0], people[2]), A=d10(9), C=d10(4))
    assert [str(slot.label) for slot in state.order] == ["4", "≤0"]  # alone at his call: the call alone


def test_order_buckets_higher_first_and_ties_share_a_slot() -> None:
    people = [("Heroes", n, {"sv": 8}) for n in ("A", "B", "C")] + [
        ("Foes", n, {"sv": 8}) for n in ("D", "E", "F", "G")
    ]
    state = roll_initiative(
        fight(*people),
        A=d10(10, 10, 3),
        B=d10(10, 7),
        C=d10(10, 6),
        D=d10(10, 6),
        E=d10(9),
        F=d10(1),
        G=d10(10, 10, 10, 1),
    )
    assert [(str(slot.label), slot.value) for slot in state.order] == [
        ("20 (31)", 31),
        ("20 (23)", 23),
        ("15 (17)", 17),
        ("15 (16)", 16),
        ("9", 9),
        ("1", 1),
    ]
    assert labels(state)[3] == ("15 (16)", ["C", "D"])
    assert state.acting_now() == (cid(state, "G"),)


def test_open_ended_roll_totals_with_modifiers_and_the_faces_are_kept() -> None:
    rolled = roll("1d10!", Faces(10, 10, 3))
    assert rolled.total == 23 and rolled.faces == (10, 10, 3)
    typed = physical("1d10!", "27")
    sheet = {
        "sv": 9,
        "weapons": "broadsword",
        "armour": "chain",
        "shield": "medium",
        "agi_mod": 1,
        "specialties": "Combat reaction 1",
        "disciplines": "Experienced 1",
    }
    state = fight(("Heroes", "Fridgar", sheet), ("Foes", "Ulf", {"sv": 5}))
    fridgar = cid(state, "Fridgar")
    request = next(r for r in RULESET.initiative_requests(state) if r.key == fridgar)
    assert request.dice == "1d10!"
    # chain −2, broadsword −4, medium shield −2, Agility +1, Combat reaction +2, Experienced +1
    assert request.modifier == -4
    state = roll_initiative(state, Fridgar=rolled, Ulf=typed)
    assert [(str(slot.label), slot.value) for slot in state.order] == [("20", 27), ("15", 19)]
    assert "1d10!: [10+10+3] = 23 -4 = 19" in "\n".join(e.text for e in state.log_entries())
    assert state.initiative.rolls[fridgar].faces == (10, 10, 3)
    assert RULESET.initiative_totals(state) == {fridgar: 19, cid(state, "Ulf"): 27}


def test_declaration_decides_the_im_and_unused_items_count_nothing() -> None:
    sheet = {"sv": 9, "weapons": "broadsword, seax", "armour": "plate", "shield": "large"}
    state = fight(("Heroes", "Fridgar", sheet), ("Foes", "Ulf", {"sv": 5}))
    fridgar = cid(state, "Fridgar")
    assert RULESET.init_modifier(state, fridgar) == -5 - 4 - 3  # undeclared: first weapon and the shield
    state = declare(state, "Fridgar", weapon="seax", shield=False)
    assert RULESET.init_modifier(state, fridgar) == -5 - 1  # armour always counts
    state = declare(state, "Fridgar", weapon="unarmed", shield=False, spell_im=-2)
    assert RULESET.init_modifier(state, fridgar) == -5 - 2
    assert RULESET.declaration(state, fridgar) == {"weapon": "unarmed", "shield": False, "spell_im": -2}
    with pytest.raises(RuleError, match='no "axe"'):
        declare(state, "Fridgar", weapon="axe")  # refused when declared, not later


def test_npc_group_rolls_once_and_acts_together() -> None:
    state = fight(
        ("Heroes", "Fridgar", FRIDGAR), ("Foes", "Bandit", {"sv": 6, "weapons": "short sword"}), count={"Bandit": 4}
    )
    requests = RULESET.initiative_requests(state)
    assert len(requests) == 2
    group = next(r for r in requests if len(r.combatants) == 4)
    assert str(group.label) == "Bandit ×4" and group.modifier == -3
    state = roll_initiative(state, Fridgar=d10(3), Bandit=d10(9))
    assert labels(state) == [("6", ["Bandit 1", "Bandit 2", "Bandit 3", "Bandit 4"]), ("2", ["Fridgar"])]


@pytest.mark.parametrize("skipper", ["Bandit 2", "Bandit 1"])
def test_a_group_member_who_skipped_keeps_his_bonus_and_acts_apart(skipper: str) -> None:
    """The group's single roll is not his: he gets it plus his +5, in a slot of his own. The first member
    skipping must not give the whole group his bonus either."""
    state = fight(
        ("Heroes", "Fridgar", FRIDGAR), ("Foes", "Bandit", {"sv": 6, "weapons": "short sword"}), count={"Bandit": 3}
    )
    # Round 1: Fridgar 14 − 1 = 13 (call 10); the bandits 9 − 3 = 6.
    state = roll_initiative(state, Fridgar=d10(10, 4), Bandit=d10(9))
    state = act(state, "skip", combatant=cid(state, skipper))  # before the bandits' call
    state = next_round(state)
    group = next(r for r in RULESET.initiative_requests(state) if len(r.combatants) == 3)
    assert group.modifier == -3  # short sword; no member's bonus on the group's roll
    # Round 2: Fridgar 2 − 1 = 1; the bandits 8 − 3 = 5; the skipper 5 + 5 = 10.
    state = roll_initiative(state, Fridgar=d10(2), Bandit=d10(8))
    others = [name for name in ("Bandit 1", "Bandit 2", "Bandit 3") if name != skipper]
    assert labels(state) == [("10", [skipper]), ("5", others), ("1", ["Fridgar"])]
    apart = next(e for e in state.log_entries() if e.msg.id.startswith("{name} acts apart"))
    assert apart.text == f"{skipper} acts apart from his group: 5 +5 for his skipped turn = 10."
    assert apart.facts == {"initiative": 10, "bonus": 5}
    assert ("Initiative", "10 (call 10)") in RULESET.details(state, cid(state, skipper))
    # Round 3: the bonus was for one round only; the group acts together again.
    state = roll_initiative(next_round(state), Fridgar=d10(2), Bandit=d10(8))
    assert labels(state) == [("5", ["Bandit 1", "Bandit 2", "Bandit 3"]), ("1", ["Fridgar"])]


def test_the_skip_bonus_lives_in_the_typed_fight_state() -> None:
    state = fight(("Heroes", "Fridgar", FRIDGAR), ("Foes", "Ulf", {"sv": 8, "weapons": "broadsword"}))
    fridgar = cid(state, "Fridgar")
    state = act(state, "skip", combatant=fridgar)
    assert RULESET.fight_of(state).init_bonus == {fridgar: Bonus(round=2, value=5)}
    assert RULESET.round_of(state).turns[fridgar].skipped
    assert last_entry(state).facts == {"bonus": 5, "next_round": 2}


# -- surprise ------------------------------------------------------------------------------------------
def test_surprised_combatants_act_with_minus_five_in_round_one() -> None:
    state = roll_initiative(
        fight(("Heroes", "Fridgar", FRIDGAR), ("Foes", "Ulf", {"sv": 8, "weapons": "broadsword"}), surprised="Foes"),
        Fridgar=d10(10, 4),
        Ulf=d10(9),
    )
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    assert state.surprised == (ulf,)  # combatant ids
    effect = next(e for e in state.log_entries() if e.msg.id == RULESET.surprise_effect().id)
    assert effect.text == "Surprised, they act this round with -5 on every combat action: Ulf."
    # the initiative roll takes no penalty: 9 − 4 = 5
    assert labels(state) == [("10", ["Fridgar"]), ("5", ["Ulf"])]
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=6, roll=d20(5))
    assert "6 CP = SV 6" in last_entry(state).text
    state = act(state, "parry", combatant=ulf, cp=6, roll=d20(2))
    assert "6 CP -5 surprised = SV 1" in last_entry(state).text and "failed" in last_entry(state).text
    assert (last_entry(state).facts["sv"], last_entry(state).facts["result"]) == (1, "failure")
    assert ("This round", "surprised (-5)") in RULESET.details(state, ulf)
    state = next_round(state)
    state = roll_initiative(state, Fridgar=d10(10, 4), Ulf=d10(9))
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=6, roll=d20(5))
    state = act(state, "parry", combatant=ulf, cp=6, roll=d20(2))
    assert "6 CP = SV 6" in last_entry(state).text and last_entry(state).facts["sv"] == 6


def test_the_gm_may_mark_a_single_combatant_surprised() -> None:
    state = apply(State(), a.SetRuleset(ruleset="trudvang"))
    state = apply(state, a.AddSide(name="Heroes", is_party=True))
    state = apply(state, a.AddSide(name="Foes"))
    heroes, foes = (side.id for side in state.sides)
    state = apply(state, a.AddCombatants(side=heroes, name="Fridgar", hp=20, sheet=FRIDGAR))
    state = apply(state, a.AddCombatants(side=foes, name="Ulf", hp=20, sheet={"sv": 8, "weapons": "broadsword"}))
    state = apply(state, a.AddCombatants(side=foes, name="Orm", hp=20, sheet={"sv": 8, "weapons": "broadsword"}))
    state = apply(state, a.BeginSurprise())
    state = apply(state, a.SetSurprised(combatants=(cid(state, "Orm"),)))
    state = apply(state, a.StartFight())
    state = roll_initiative(state, Fridgar=d10(10, 4), Ulf=d10(9), Orm=d10(9))
    fridgar, ulf, orm = cid(state, "Fridgar"), cid(state, "Ulf"), cid(state, "Orm")
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=3, roll=d20(2))
    state = act(state, "parry", combatant=ulf, cp=3, roll=d20(2))
    assert last_entry(state).facts["sv"] == 3  # Ulf is not surprised
    state = act(state, "attack", combatant=fridgar, target=orm, cp=3, roll=d20(2))
    state = act(state, "parry", combatant=orm, cp=3, roll=d20(2))
    assert last_entry(state).facts["sv"] == -2  # 3 − 5
