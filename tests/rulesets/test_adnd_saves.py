"""Saving throws in AD&D 2e and Player's Option, with the books' figures: PHB Table 60 row by row for each class
group (warrior 0 included), a multi-class character's best of each column, a monster by its Hit Dice as the
DM's Guide counts its pluses (one level for every four points or fraction; 5+6 saves at 7th level, and at 4th
with no intelligence, but against poison and death), a monster's own line, the GM's bonus and the chance shown
before the roll; hit points rolled from the Hit Dice; what the GM and the players read of a save."""

from __future__ import annotations

from typing import Any

import pytest

from tests.common import rolled
from tests.rulesets.test_adnd_secrets import cid, fight, gm_texts, players_lines, roll_initiative
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.encounter import CombatantSpec
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import ROLLS_SHOWN, State
from tui_combat.engine.registry import get
from tui_combat.rulesets.adnd2e.saves import SAVE_KINDS, monster_save_level, reckon_saves, saves_text
from tui_combat.rulesets.adnd2e.sheet import Sheet

# PHB Table 60, as the book prints it: level ranges and the five numbers (paralyzation/poison/death magic,
# rod/staff/wand, petrification/polymorph, breath weapon, spell).
TABLE_60: dict[str, list[tuple[range, tuple[int, int, int, int, int]]]] = {
    "priest": [
        (range(1, 4), (10, 14, 13, 16, 15)),
        (range(4, 7), (9, 13, 12, 15, 14)),
        (range(7, 10), (7, 11, 10, 13, 12)),
        (range(10, 13), (6, 10, 9, 12, 11)),
        (range(13, 16), (5, 9, 8, 11, 10)),
        (range(16, 19), (4, 8, 7, 10, 9)),
        (range(19, 26), (2, 6, 5, 8, 7)),
    ],
    "rogue": [
        (range(1, 5), (13, 14, 12, 16, 15)),
        (range(5, 9), (12, 12, 11, 15, 13)),
        (range(9, 13), (11, 10, 10, 14, 11)),
        (range(13, 17), (10, 8, 9, 13, 9)),
        (range(17, 21), (9, 6, 8, 12, 7)),
        (range(21, 26), (8, 4, 7, 11, 5)),
    ],
    "warrior": [
        (range(0, 1), (16, 18, 17, 20, 19)),
        (range(1, 3), (14, 16, 15, 17, 17)),
        (range(3, 5), (13, 15, 14, 16, 16)),
        (range(5, 7), (11, 13, 12, 13, 14)),
        (range(7, 9), (10, 12, 11, 12, 13)),
        (range(9, 11), (8, 10, 9, 9, 11)),
        (range(11, 13), (7, 9, 8, 8, 10)),
        (range(13, 15), (5, 7, 6, 5, 8)),
        (range(15, 17), (4, 6, 5, 4, 7)),
        (range(17, 26), (3, 5, 4, 4, 6)),
    ],
    "wizard": [
        (range(1, 6), (14, 11, 13, 15, 12)),
        (range(6, 11), (13, 9, 11, 13, 10)),
        (range(11, 16), (11, 7, 9, 11, 8)),
        (range(16, 21), (10, 5, 7, 9, 6)),
        (range(21, 26), (8, 3, 5, 7, 4)),
    ],
}
EVERY_LEVEL = [
    (group, level, numbers) for group, rows in TABLE_60.items() for levels, numbers in rows for level in levels
]
BOTH = ("adnd2e", "players_option")


def numbers(**sheet: Any) -> tuple[int, ...]:
    return reckon_saves(Sheet(**sheet))[0]


@pytest.mark.parametrize(("group", "level", "expected"), EVERY_LEVEL)
def test_every_row_of_table_60_for_each_class_group(group: str, level: int, expected: tuple[int, ...]) -> None:
    assert numbers(cls=group, level=level) == expected


@pytest.mark.parametrize("ruleset", BOTH)
def test_the_five_saves_in_the_book_s_order_of_priority(ruleset: str) -> None:
    kinds = get(ruleset).save_kinds(State())
    assert kinds == SAVE_KINDS
    assert [label for _id, label in kinds] == [
        "Paralyzation, poison, death magic",
        "Rod, staff, wand",
        "Petrification, polymorph",
        "Breath weapon",
        "Spell",
    ]


@pytest.mark.parametrize("ruleset", BOTH)
def test_a_warrior_of_level_0_is_a_man_at_arms_and_no_other_class_has_one(ruleset: str) -> None:
    checked = get(ruleset).check_sheet({"cls": "warrior", "level": 0})
    assert numbers(cls="warrior", level=0) == (16, 18, 17, 20, 19)
    assert checked["level"] == 0
    with pytest.raises(RuleError, match="a warrior's may be 0"):
        get(ruleset).check_sheet({"cls": "wizard", "level": 0})


def test_a_multi_class_character_takes_the_best_of_each_column() -> None:
    # Fighter 5 (11 13 12 13 14) / mage 6 (13 9 11 13 10): the best of each.
    assert numbers(cls="warrior", level=5, multiclass="wizard 6") == (11, 9, 11, 13, 10)
    # Three classes: the other two after the main one.
    # Rogue 4 (13 14 12 16 15), warrior 3 (13 15 14 16 16), wizard 3 (14 11 13 15 12).
    assert numbers(cls="rogue", level=4, multiclass="warrior 3, wizard 3") == (13, 11, 12, 15, 12)
    numbers_, reasons = reckon_saves(Sheet(cls="warrior", level=5, multiclass="wizard 6"))
    assert [str(reason) for reason in reasons] == ["the best of each: warrior 5, wizard 6"]


@pytest.mark.parametrize(
    ("hit_dice", "level"),
    [
        (1, 1),
        ("4", 4),
        ("1+1", 2),
        ("2+1", 3),
        ("4+1", 5),
        ("4+4", 5),
        ("4+5", 6),
        ("5+6", 7),
        ("6+6", 8),
        ("1-1", 0),
        ("1/2", 0),
        ("½", 0),
    ],
)
def test_a_monster_saves_as_a_warrior_of_its_hit_dice_its_pluses_one_level_for_every_four_points(
    hit_dice: int | str, level: int
) -> None:
    """DMG chapter 9: "at the rate of one die for every four points or fraction thereof" (5+6 saves at 7th);
    less than one full die: warrior 0."""
    assert monster_save_level(hit_dice) == (level, level)
    warrior = next(row for levels, row in TABLE_60["warrior"] if level in levels)
    assert numbers(cls="monster", level=hit_dice) == warrior


def test_a_monster_with_pluses_crosses_into_the_next_row() -> None:
    assert numbers(cls="monster", level=2) == (14, 16, 15, 17, 17)  # warrior 2
    assert numbers(cls="monster", level="2+1") == (13, 15, 14, 16, 16)  # warrior 3
    assert numbers(cls="monster", level="6+6") == (10, 12, 11, 12, 13)  # the troll: warrior 8
    assert saves_text(Sheet(cls="monster", level="6+6", save_bonus=-1)) == "10 12 11 12 13 (-1)"
    assert [str(reason) for reason in reckon_saves(Sheet(cls="monster", level="6+6"))[1]] == ["warrior 8: 6+6 Hit Dice"]


def test_a_monster_of_no_intelligence_saves_at_half_its_level_but_against_poison_and_death() -> None:
    """The DMG's example: 5+6 Hit Dice, no intelligence: 7th level against poison and death, 4th (rounded up)
    against the rest."""
    assert monster_save_level("5+6", mindless=True) == (7, 4)
    assert numbers(cls="monster", level="5+6", mindless=True) == (10, 15, 14, 16, 16)


def test_a_spellcasting_monster_uses_the_better_table_column_by_column() -> None:
    assert numbers(cls="monster", level=7, multiclass="wizard 7") == (10, 9, 11, 12, 10)


def test_a_monster_s_own_line_replaces_the_table_and_a_wrong_one_is_refused() -> None:
    assert numbers(cls="monster", level="4+1", saves="12 14 13 15 15") == (12, 14, 13, 15, 15)
    assert numbers(cls="monster", level="4+1", saves="12/14/13/15/15") == (12, 14, 13, 15, 15)
    for ruleset in BOTH:
        with pytest.raises(RuleError, match="five numbers from 1 to 20"):
            get(ruleset).check_sheet({"cls": "monster", "level": 3, "saves": "12 14 13"})
        with pytest.raises(RuleError, match="is not a class and a level"):
            get(ruleset).check_sheet({"cls": "warrior", "level": 3, "multiclass": "bard 4"})


def one(ruleset: str, sheet: dict[str, Any]) -> tuple[State, str]:
    """A fight in set-up with one combatant of ``sheet``, and his id."""
    state = apply(apply(State(), a.SetRuleset(ruleset=ruleset)), a.AddSide(name="Party", is_party=True))
    state = apply(state, a.AddCombatants(side=state.sides[0].id, name="Raf", hp=30, sheet=sheet))
    return state, state.combatants[0].id


@pytest.mark.parametrize("ruleset", BOTH)
def test_the_gm_s_bonus_is_added_and_the_chance_is_shown_before_the_roll(ruleset: str) -> None:
    state, raf = one(ruleset, {"cls": "warrior", "level": 5, "save_bonus": 2})
    odds = get(ruleset).save_odds(state, raf, "spell", 0)
    assert (odds.needed, odds.modifier, odds.dice) == (14, 2, "1d20")  # warrior 5: 14 against spells
    assert odds.chance() == pytest.approx(0.45)  # 12 or more on the d20
    assert [str(reason) for reason in odds.reasons] == ["warrior 5", "saving throw bonus +2"]
    assert odds.succeeds(12) and not odds.succeeds(11)
    troll, troll_id = one(ruleset, {"cls": "monster", "level": "6+6"})
    assert get(ruleset).save_odds(troll, troll_id, "breath", 0).chance() == pytest.approx(0.45)  # 12 or more
    with pytest.raises(RuleError, match="is not a saving throw of these rules"):
        get(ruleset).save_odds(state, raf, "dexterity", 15)


def test_player_s_option_reads_the_same_table() -> None:
    state, ogre = one("players_option", {"cls": "monster", "level": "4+1", "movement": 9})
    po = get("players_option")
    assert [po.save_odds(state, ogre, kind, 0).needed for kind, _label in SAVE_KINDS] == [11, 13, 12, 13, 14]
    assert po.hit_point_dice(state.combatants[0].sheet) == "4d8+1"


@pytest.mark.parametrize("ruleset", BOTH)
@pytest.mark.parametrize(
    ("sheet", "dice"),
    [
        ({"cls": "monster", "level": "6+6"}, "6d8+6"),
        ({"cls": "monster", "level": 1}, "1d8"),
        ({"cls": "monster", "level": "1-1"}, "1d8-1"),
        ({"cls": "monster", "level": "½"}, "1d4"),
        ({"cls": "monster", "level": "1/2"}, "1d4"),
        ({"cls": "монстр", "level": 3}, "3d8"),
        ({"cls": "warrior", "level": 5}, ""),
        ({"cls": "monster", "level": "lots"}, ""),
    ],
)
def test_a_monster_s_hit_points_are_rolled_from_its_hit_dice_a_character_s_are_the_gm_s(
    ruleset: str, sheet: dict[str, Any], dice: str
) -> None:
    assert get(ruleset).hit_point_dice(sheet) == dice


@pytest.mark.parametrize("rolls_shown", ROLLS_SHOWN)
def test_what_the_gm_and_the_players_read_of_a_save(rolls_shown: str) -> None:
    store = fight(rolls_shown, [CombatantSpec(name="Troll", hp=40, sheet={"cls": "monster", "level": "6+6", "ac": 4})])
    roll_initiative(store, {"Party": 3, "Monsters": 5})
    troll, raf = cid(store.state, "Troll"), cid(store.state, "Raf")
    store.dispatch(a.EditCombatant(combatant=raf, sheet={"save_bonus": 1}))
    store.dispatch(a.SavingThrow(combatant=troll, kind="breath", roll=rolled("1d20", 12)))
    store.dispatch(a.SavingThrow(combatant=raf, kind="spell", roll=rolled("1d20", 9)))
    assert gm_texts(store.state)[-2:] == [
        "Troll: Breath weapon save (warrior 8: 6+6 Hit Dice): 1d20: [12] = 12 against 12: saved.",
        "Raf: Spell save (warrior 5, saving throw bonus +1): 1d20: [9] = 9, +1 → 10 against 14: failed.",
    ]
    read = players_lines(store.state)
    if rolls_shown == "outcomes":  # who saves, not the number needed nor the bonus
        assert read[-2:] == ["Troll saves.", "Raf fails the save."]
    elif rolls_shown == "everything":
        assert read[-2:] == gm_texts(store.state)[-2:]
    else:
        assert not [line for line in read if "save" in line]
