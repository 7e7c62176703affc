"""The old-school books' monsters in the library and the starter bestiaries: hit points rolled from the Hit Dice,
as AD&D 2e, Player's Option and OSE do (an entry without ``hp`` whose sheet gives a monster's Hit Dice has each
member's rolled with the app's dice, d8 a die with the pluses added, each at least 1, unless the GM types a
figure; an entry with ``hp`` keeps it), and each bestiary entry's saving throws as its book gives them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.common import Faces
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.model import State
from tui_combat.fight.library import (
    Entry,
    Finder,
    entry_action,
    read_bestiary,
    read_library,
    rolled_hps,
    summary,
    with_entry,
)
from tui_combat.rulesets.adnd2e.saves import reckon_saves as adnd_reckon
from tui_combat.rulesets.adnd2e.sheet import Sheet as AdndSheet
from tui_combat.rulesets.ose.saves import reckon_saves as ose_reckon
from tui_combat.rulesets.ose.state import Sheet as OseSheet

WARRIOR = {
    0: (16, 18, 17, 20, 19),
    1: (14, 16, 15, 17, 17),
    2: (14, 16, 15, 17, 17),
    3: (13, 15, 14, 16, 16),
    5: (11, 13, 12, 13, 14),
    8: (10, 12, 11, 12, 13),
}
"""PHB Table 60's warrior rows at the levels the bestiaries' monsters save at."""


def adnd_saves(**sheet: Any) -> tuple[int, ...]:
    return adnd_reckon(AdndSheet(**sheet))[0]


def ose_saves(**sheet: Any) -> tuple[int, ...]:
    return ose_reckon(OseSheet(**sheet))[0]


ROLLED = """[[combatants]]
name = "Bugbear"
count = 3
sheet = { cls = "monster", level = "3+1", ac = 5 }

[[combatants]]
name = "Hero"
sheet = { cls = "warrior", level = 3 }

[[combatants]]
name = "Sergeant"
hp = 12
sheet = { cls = "monster", level = "2+2" }
"""


def test_an_entry_without_hp_rolls_each_member_s_from_its_hit_dice(tmp_path: Path) -> None:
    path = tmp_path / "adnd2e.toml"
    path.write_text(ROLLED, encoding="utf-8")
    library = read_library(path, "adnd2e")
    bugbear, sergeant = library.entries
    assert (bugbear.hp_dice, bugbear.hp) == ("3d8+1", 14)  # the average stands in where no dice are at hand
    assert (sergeant.hp_dice, sergeant.hp) == ("", 12)
    # A character's hit points are the GM's figure: an entry without them is wrong, and says so.
    assert library.problems == (f'{path}, line 6: entry Hero: "hp" is missing.',)

    action = entry_action(bugbear, "s2", rng=Faces(1, 1, 1, 8, 8, 8, 4, 5, 6))
    assert (action.count, action.hps) == (3, (4, 25, 16))  # 3d8+1 each
    typed = entry_action(bugbear, "s2", hp=20, rng=Faces())
    assert (typed.hp, typed.hps) == (20, ())  # the GM's figure for all
    assert entry_action(bugbear, "s2").hps == ()  # no dice at hand: the average, 14, for each
    assert entry_action(sergeant, "s2", rng=Faces()).hp == 12  # fixed hit points stay


def test_each_roll_is_at_least_one_and_the_gm_s_changed_hit_dice_are_rolled() -> None:
    assert rolled_hps("1d8-1", 3, Faces(1, 2, 8)) == (1, 1, 7)
    goblin = Entry(name="Goblin", hp=3, hp_dice="1d8-1", ruleset="adnd2e", sheet={"cls": "monster", "level": "1-1"})
    bigger = entry_action(goblin, "s2", count=2, sheet={"level": "2+2"}, rng=Faces(8, 8, 1, 1))
    assert bigger.hps == (18, 4)  # 2d8+2 each, from the Hit Dice typed in the form


def test_a_group_added_from_the_bestiary_rolls_each_member_s_hit_points(tmp_path: Path) -> None:
    finder = Finder.load(tmp_path, "adnd2e")
    orc = finder.find("orc")
    assert orc is not None and orc.hp_dice == "1d8"
    state = State(seed=1)
    for action in (a.SetRuleset(ruleset="adnd2e"), a.AddSide(name="Party", is_party=True), a.AddSide(name="Orcs")):
        state = apply(state, action)
    state = apply(state, entry_action(orc, state.sides[1].id, count=3, rng=Faces(2, 7, 5)))
    assert [(c.name, c.hp, c.max_hp) for c in state.combatants] == [("Orc 1", 2, 2), ("Orc 2", 7, 7), ("Orc 3", 5, 5)]


@pytest.mark.parametrize(
    ("ruleset", "name", "dice", "average"),
    [
        ("adnd2e", "Troll", "6d8+6", 33),
        ("players_option", "Giant spider", "4d8+4", 22),
        ("ose", "Goblin", "1d8-1", 3),
        ("ose", "Troll", "6d8+3", 30),
    ],
)
def test_the_starter_bestiaries_leave_the_hit_points_to_the_dice(
    tmp_path: Path, ruleset: str, name: str, dice: str, average: int
) -> None:
    entry = Finder.load(tmp_path, ruleset).find(name)
    assert entry is not None and (entry.hp_dice, entry.hp) == (dice, average)
    assert summary(entry, ()) == f"HP {dice} (rolled)"


def test_an_entry_whose_hit_points_are_rolled_is_written_without_them() -> None:
    text = with_entry(
        "", Entry(name="Bugbear", hp=14, hp_dice="3d8+1", sheet={"cls": "monster", "level": "3+1"}), "adnd2e"
    )
    assert "hp =" not in text and 'name = "Bugbear"' in text


def test_the_bestiary_monsters_save_by_their_hit_dice() -> None:
    for ruleset, expected in (
        ("adnd2e", {"Troll": 8, "Orc": 1, "Goblin": 0, "Hobgoblin": 2, "Ogre": 5}),
        ("players_option", {"Orc": 1, "Wolf": 3, "Gnoll": 2, "Ogre": 5, "Giant spider": 5}),
    ):
        entries = {entry.name: entry for entry in read_bestiary(ruleset).entries if entry.name in expected}
        assert set(entries) == set(expected)
        for name, level in expected.items():
            warrior = WARRIOR[level]
            assert adnd_saves(**{k: v for k, v in entries[name].sheet.items() if k in ("cls", "level")}) == warrior, (
                name
            )
            assert entries[name].hp_dice, name  # no fixed hit points: rolled


def test_every_bestiary_entry_s_sv_line_agrees_with_its_save_as() -> None:
    entries = read_bestiary("ose").entries
    assert {entry.name for entry in entries} >= {"Goblin", "Orc", "Ogre", "Troll", "Wolf", "Skeleton", "Bandit"}
    for entry in entries:
        line, save_as = entry.sheet["saves"], entry.sheet["save_as"]
        assert ose_saves(saves=line) == ose_saves(save_as=save_as), entry.name
        by_hit_dice = ose_saves(hd=entry.sheet["hd"])  # as a fighter of its Hit Dice, below one as a normal human
        assert ose_saves(save_as=save_as) == by_hit_dice or (entry.name, save_as) == ("Bandit", "T1"), entry.name
        assert entry.hp_dice, entry.name  # no fixed hit points: rolled from the Hit Dice
