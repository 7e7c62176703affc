"""Saving throws in OSE / Dolmenwood with the books' figures: each class's five saves by level (OSE Classic
Fantasy), a monster by its "save as" ("F1", "(NH)", a bare number a fighter's level) or by its own SV line as a
stat block prints it, by its Hit Dice when nothing else says; Dolmenwood's names; a failed save disrupts a
declared spell as a hit does; hit points rolled from the Hit Dice; what the GM and the players read."""

from __future__ import annotations

from typing import Any

import pytest

from tests.common import rolled
from tests.rulesets.ose_fight import WENDEL, build, declare, demo, started
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import ROLLS_OPTION, ROLLS_SHOWN
from tui_combat.engine.public import public_entries
from tui_combat.rulesets.ose import RULESET
from tui_combat.rulesets.ose.saves import read_save_as, read_save_line, reckon_saves, saves_text
from tui_combat.rulesets.ose.state import Sheet

KINDS = ("death", "wands", "paralysis", "breath", "spells")


def saves(**sheet: Any) -> tuple[int, ...]:
    return reckon_saves(Sheet(**sheet))[0]


@pytest.mark.parametrize(
    ("cls", "level", "expected"),
    [
        # OSE Classic Fantasy, each class's table: D W P B S.
        ("cleric", 1, (11, 12, 14, 16, 15)),
        ("cleric", 4, (11, 12, 14, 16, 15)),
        ("cleric", 5, (9, 10, 12, 14, 12)),
        ("cleric", 9, (6, 7, 9, 11, 9)),
        ("cleric", 14, (3, 5, 7, 8, 7)),
        ("fighter", 1, (12, 13, 14, 15, 16)),
        ("fighter", 4, (10, 11, 12, 13, 14)),
        ("fighter", 7, (8, 9, 10, 10, 12)),
        ("fighter", 10, (6, 7, 8, 8, 10)),
        ("fighter", 13, (4, 5, 6, 5, 8)),
        ("magic-user", 5, (13, 14, 13, 16, 15)),
        ("magic-user", 6, (11, 12, 11, 14, 12)),
        ("magic-user", 11, (8, 9, 8, 11, 8)),
        ("thief", 4, (13, 14, 13, 16, 15)),
        ("thief", 5, (12, 13, 11, 14, 13)),
        ("thief", 9, (10, 11, 9, 12, 10)),
        ("thief", 13, (8, 9, 7, 10, 8)),
        ("dwarf", 3, (8, 9, 10, 13, 12)),
        ("dwarf", 4, (6, 7, 8, 10, 10)),
        ("dwarf", 7, (4, 5, 6, 7, 8)),
        ("dwarf", 12, (2, 3, 4, 4, 6)),
        ("elf", 1, (12, 13, 13, 15, 15)),
        ("elf", 4, (10, 11, 11, 13, 12)),
        ("elf", 9, (8, 9, 9, 10, 10)),
        ("elf", 10, (6, 7, 8, 8, 8)),
        ("halfling", 2, (8, 9, 10, 13, 12)),
        ("halfling", 6, (6, 7, 8, 10, 10)),
        ("halfling", 8, (4, 5, 6, 7, 8)),
        ("normal human", 0, (14, 15, 16, 17, 18)),
    ],
)
def test_each_class_saves_by_its_level(cls: str, level: int, expected: tuple[int, ...]) -> None:
    assert saves(cls=cls, level=level) == expected


@pytest.mark.parametrize(
    ("save_as", "expected"),
    [
        ("F1", (12, 13, 14, 15, 16)),
        ("1", (12, 13, 14, 15, 16)),
        ("(4)", (10, 11, 12, 13, 14)),
        ("NH", (14, 15, 16, 17, 18)),
        ("T1", (13, 14, 13, 16, 15)),
        ("MU5", (13, 14, 13, 16, 15)),
        ("M6", (11, 12, 11, 14, 12)),
        ("C9", (6, 7, 9, 11, 9)),
        ("E10", (6, 7, 8, 8, 8)),
        ("D1", (8, 9, 10, 13, 12)),
        ("fighter 3", (12, 13, 14, 15, 16)),
    ],
)
def test_a_monster_saves_as_a_class_and_level(save_as: str, expected: tuple[int, ...]) -> None:
    assert saves(save_as=save_as) == expected


@pytest.mark.parametrize(
    "line",
    [
        "D12 W13 P14 B15 S16",
        "SV D12 W13 P14 B15 S16 (1)",
        "Saves: D12 W13 P14 B15 S16 (F1)",
        "S16 B15 P14 W13 D12",
        "12 13 14 15 16",
        "D12 R13 H14 B15 S16",
    ],
)
def test_a_sheet_s_saves_line_as_a_stat_block_prints_it(line: str) -> None:
    assert saves(saves=line, save_as="NH", cls="fighter", level=9) == (12, 13, 14, 15, 16)  # the line wins


@pytest.mark.parametrize(
    "line",
    [
        "D12 W13 P14 B15",
        "D12 W13 P14 B15 S16 X17",
        "D12 D13 P14 B15 S16",
        "D12 W13 P14 B15 S26",
        "D12 W13 P14 B15 S16 (Q7)",
        "lots",
    ],
)
def test_a_wrong_saves_line_is_refused_with_what_it_should_look_like(line: str) -> None:
    with pytest.raises(RuleError) as error:
        RULESET.check_sheet({"saves": line})
    assert "D12 W13 P14 B15 S16" in str(error.value) or "F1, MU5, T1" in str(error.value)


def test_a_wrong_save_as_or_class_is_refused() -> None:
    for sheet in ({"save_as": "Q3"}, {"save_as": "F"}, {"cls": "bard"}, {"hd": "many"}, {"level": -1}):
        with pytest.raises(RuleError):
            RULESET.check_sheet(sheet)
    assert read_save_as("") is None and read_save_line("  ") is None


def test_without_a_line_a_monster_saves_as_a_fighter_of_its_hit_dice_and_below_one_as_a_normal_human() -> None:
    assert saves(hd="4+1") == (10, 11, 12, 13, 14)  # the ogre: (4), its plus left out
    assert saves(hd="6+3*") == (10, 11, 12, 13, 14)  # the troll: (6)
    assert saves(hd="1-1") == (14, 15, 16, 17, 18)  # the goblin: (NH)
    assert saves(hd="½") == (14, 15, 16, 17, 18)  # the kobold: (NH)
    sheet, reasons = reckon_saves(Sheet())
    assert sheet == (14, 15, 16, 17, 18)
    assert [str(reason) for reason in reasons] == ["as normal human: nothing on the sheet says otherwise"]


@pytest.mark.parametrize(
    ("rules", "labels", "shown"),
    [
        (
            "ose",
            [
                "Death ray or poison",
                "Magic wands",
                "Paralysis or petrification",
                "Breath attacks",
                "Spells, rods or staves",
            ],
            "D12 W13 P14 B15 S16",
        ),
        (
            "dolmenwood",
            [
                "Doom (death, poison)",
                "Ray (wands)",
                "Hold (paralysis)",
                "Blast (breath)",
                "Spell (spells, rods, staves)",
            ],
            "D12 R13 H14 B15 S16",
        ),
    ],
)
def test_the_five_saves_by_the_rules_names_and_letters(rules: str, labels: list[str], shown: str) -> None:
    state = build({"Party": [("Ambrose", 9, {"cls": "fighter", "level": 1})]})
    state = apply(state, a.SetOption(key="rules", value=rules))
    kinds = RULESET.save_kinds(state)
    assert [kind for kind, _label in kinds] == list(KINDS)
    assert [label for _kind, label in kinds] == labels
    assert saves_text(RULESET.sheet_of(state.combatants[0]), rules == "dolmenwood") == shown


def test_the_odds_and_the_chance_before_the_roll() -> None:
    state = build(
        {
            "Party": [("Ambrose", 9, {"cls": "fighter", "level": 1})],
            "Goblins": [("Goblin", 3, {"hd": "1-1", "save_as": "NH"})],
        }
    )
    ambrose, goblin = (c.id for c in state.combatants)
    odds = RULESET.save_odds(state, goblin, "spells", 0)
    assert (odds.needed, odds.modifier, odds.chance()) == (18, 0, pytest.approx(0.15))
    assert [str(reason) for reason in odds.reasons] == ["as normal human"]
    assert RULESET.save_odds(state, ambrose, "breath", 0).chance() == pytest.approx(0.3)  # F1: 15
    with pytest.raises(RuleError, match="is not a saving throw of these rules"):
        RULESET.save_odds(state, ambrose, "dexterity", 15)


def test_a_failed_save_disrupts_a_declared_spell_a_saved_one_does_not() -> None:
    state = declare(demo(), WENDEL, "spell", "Sleep")
    saved = apply(state, a.SavingThrow(combatant=WENDEL, kind="spells", roll=rolled("1d20", 19)))
    assert not RULESET.disrupted(saved, WENDEL)
    failed = apply(state, a.SavingThrow(combatant=WENDEL, kind="spells", roll=rolled("1d20", 3)))
    assert RULESET.disrupted(failed, WENDEL)
    assert failed.log_entries()[-1].text == (
        "Wendel's spell Sleep is disrupted (a failed saving throw "
        "before his side's magic phase): it is lost from memory."
    )


@pytest.mark.parametrize(
    ("sheet", "dice"),
    [
        ({"hd": "1-1"}, "1d8-1"),
        ({"hd": "4+1"}, "4d8+1"),
        ({"hd": "6+3*"}, "6d8+3"),
        ({"hd": "½"}, "1d4"),
        ({"hd": "2"}, "2d8"),
        ({}, ""),
        ({"hd": "3", "cls": "fighter"}, ""),
        ({"hd": "many"}, ""),
    ],
)
def test_a_monster_s_hit_points_are_rolled_from_its_hit_dice(sheet: dict[str, Any], dice: str) -> None:
    assert RULESET.hit_point_dice(sheet) == dice


@pytest.mark.parametrize("rolls_shown", ROLLS_SHOWN)
def test_what_the_gm_and_the_players_read_of_a_save(rolls_shown: str) -> None:
    state = apply(demo(), a.SetOption(key=ROLLS_OPTION, value=rolls_shown))
    state = apply(state, a.EditCombatant(combatant=WENDEL, sheet={"cls": "magic-user", "level": 1}))
    state = apply(started(state), a.SavingThrow(combatant=WENDEL, kind="paralysis", roll=rolled("1d20", 13)))
    gm = state.log_entries()[-1].text
    assert gm == "Wendel: Hold (paralysis) save (as magic-user 1): 1d20: [13] = 13 against 13: saved."
    read = [entry.text for entry in public_entries(state)]
    if rolls_shown == "outcomes":
        assert read[-1] == "Wendel saves."  # not the 13 he needed
    elif rolls_shown == "everything":
        assert read[-1] == gm
    else:
        assert not [line for line in read if "save" in line]


def test_a_sheet_keeps_its_class_as_the_data_names_it() -> None:
    checked = RULESET.check_sheet({"cls": "Fighter", "level": 3})
    assert (checked["cls"], checked["level"]) == ("fighter", 3)
