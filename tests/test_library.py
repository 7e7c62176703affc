"""The GM's combatant library and the starter bestiaries: an entry saved from a fight and read back, for every
ruleset; a wrong entry reported with its file, line and what the field holds; the library found before the
bestiary ("5 orc"); saving that keeps the GM's own entries and comments; the bestiaries themselves."""

from __future__ import annotations

import fnmatch
import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.model import State
from tui_combat.fight.library import (
    BESTIARY_DIR,
    Entry,
    Finder,
    LibraryError,
    entry_action,
    entry_from_state,
    library_path,
    parse_count,
    read_bestiary,
    save_entry,
    with_entry,
)
from tui_combat.rulesets.names import name_key

RULESETS = ("adnd2e", "players_option", "dnd5e", "ose", "trudvang")
PARTY, FOES = "s1", "s2"


def fight(ruleset: str, *adds: a.AddCombatants) -> State:
    state = State(seed=1)
    for action in (
        a.SetName(name="Test"),
        a.SetRuleset(ruleset=ruleset),
        a.AddSide(name="Party", is_party=True),
        a.AddSide(name="Foes"),
        *adds,
    ):
        state = apply(state, action)
    return state


# One creature per ruleset, with a sheet field whose value the entry must keep.
CREATURES: dict[str, tuple[str, int, dict[str, Any], str, Any]] = {
    "adnd2e": ("Orc chief", 11, {"cls": "monster", "level": "2+1", "ac": 4, "weapon": "long sword"}, "level", "2+1"),
    "players_option": (
        "Gnoll chief",
        14,
        {"cls": "monster", "level": 3, "ac": 4, "weapon": "battle axe", "size": "large", "movement": 9},
        "movement",
        9,
    ),
    "dnd5e": ("Goblin boss", 21, {"dex": 14, "ac": 17, "attack": 4, "attacks": 2, "damage": "1d6+2"}, "attacks", 2),
    "ose": ("Goblin king", 15, {"ac": 13, "attack": 2, "damage": "1d6+1", "morale": 9}, "morale", 9),
    "trudvang": ("Raider chief", 24, {"sv": 12, "weapons": "broadsword", "armour": "chain"}, "sv", 12),
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_entry_saved_from_a_fight_reads_back_and_adds_the_same_combatant(tmp_path: Path, ruleset: str) -> None:
    name, hp, sheet, field, kept = CREATURES[ruleset]
    state = fight(ruleset, a.AddCombatants(side=FOES, name=name, hp=hp, sheet=sheet, notes="Leads the band."))
    chief = state.combatants[0]

    path = save_entry(tmp_path, ruleset, entry_from_state(state, chief.id))
    assert path == tmp_path / "library" / f"{'adnd2e' if ruleset == 'players_option' else ruleset}.toml"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600

    finder = Finder.load(tmp_path, ruleset)
    assert finder.problems == ()
    found = finder.find(name.upper())  # case does not matter
    assert found is not None and found.source == "library"
    assert (found.name, found.hp, found.count, found.notes) == (name, hp, 1, "Leads the band.")
    assert found.sheet[field] == kept

    again = apply(fight(ruleset), entry_action(found, FOES))
    assert [(c.name, c.max_hp, c.sheet, c.notes) for c in again.combatants] == [
        (name, hp, chief.sheet, "Leads the band.")
    ]


def test_a_whole_group_is_one_entry_with_its_size(tmp_path: Path) -> None:
    state = fight("adnd2e", a.AddCombatants(side=FOES, name="Orc", hp=6, count=4, sheet={"cls": "monster", "level": 1}))
    third = state.combatants[2]
    assert third.name == "Orc 3"
    save_entry(tmp_path, "adnd2e", entry_from_state(state, third.id))
    found = Finder.load(tmp_path, "adnd2e").find("orc")
    assert found is not None and (found.name, found.hp, found.count) == ("Orc", 6, 4)
    assert found.label() == "Orc ×4"
    single = entry_from_state(state, third.id, whole_group=False, name="Orc sergeant")
    assert (single.name, single.count) == ("Orc sergeant", 1)


# -- "5 orc": the library before the bestiary -----------------------------------------------------------
def test_the_library_s_orc_is_found_before_the_bestiary_s(tmp_path: Path) -> None:
    bestiary_orc = Finder.load(tmp_path, "adnd2e").find("orc")
    assert bestiary_orc is not None and bestiary_orc.source == "bestiary" and bestiary_orc.hp == 4  # 1 HD: 4.5 down

    save_entry(tmp_path, "adnd2e", Entry(name="Orc", hp=9, sheet={"cls": "monster", "level": 2, "ac": 5}))
    finder = Finder.load(tmp_path, "adnd2e")
    mine = finder.find("orc")
    assert mine is not None and (mine.source, mine.hp) == ("library", 9)
    assert finder.find("орк") == mine  # the bestiary's other names lead to the GM's own orc too
    assert [entry.source for entry in finder.search("orc")] == ["library", "bestiary"]

    count, name = parse_count("5 orc")
    assert (count, name) == (5, "orc")
    added = apply(fight("adnd2e"), entry_action(mine, FOES, name="Orc", count=count))
    assert [(c.name, c.max_hp, c.sheet["level"]) for c in added.combatants] == [(f"Orc {n}", 9, 2) for n in range(1, 6)]


def test_a_bestiary_entry_is_found_by_its_names_in_every_language(tmp_path: Path) -> None:
    finder = Finder.load(tmp_path, "adnd2e")
    troll = finder.find("Troll")
    assert troll is not None and troll.hp == 33  # 6+6 HD: 6 × 4.5 + 6
    assert finder.find("  ТРОЛЛЬ ") == troll and finder.find("троль") == troll
    assert finder.find("людоед") == finder.find("ogre")
    assert finder.find("dragon") is None
    assert [entry.name for entry in finder.search("gob")] == ["Goblin", "Hobgoblin"]  # begins with it, then holds it


def test_parse_count() -> None:
    assert parse_count("12 x goblin") == (12, "goblin")
    assert parse_count("goblin") == (None, "goblin")
    assert parse_count("1234567 orc") == (None, "1234567 orc")  # seven digits: part of the name


# -- mistakes, each with its line ------------------------------------------------------------------------
BAD_LIBRARY = """# My orcs and ogres.
[[combatants]]
name = "Orc"
hp = 5

[[combatants]]
name = "Ogre"
hp = "lots"

[[combatants]]
name = "Dragon"
hp = 90
sheet = { cls = "dragon", level = 12 }

[[combatants]]
name = "Gnoll"
hitpoints = 9
hp = 9

[[combatants]]
name = "orc"
hp = 7
aliases = "орк"
"""


def test_every_wrong_entry_is_reported_with_its_file_line_and_what_it_should_hold(tmp_path: Path) -> None:
    path = library_path(tmp_path, "adnd2e")
    path.parent.mkdir(parents=True)
    path.write_text(BAD_LIBRARY, encoding="utf-8")
    finder = Finder.load(tmp_path, "adnd2e")
    problems = list(finder.problems)
    assert problems[0] == f'{path}, line 8: entry Ogre: "hp" must be a whole number, not "lots".'
    assert problems[1] == (
        f'{path}, line 13: entry Dragon: Class "dragon" is not one of warrior, wizard, priest, rogue, monster.'
    )
    assert problems[2].startswith(f'{path}, line 17: entry Gnoll: unknown field "hitpoints"')
    assert (
        problems[3]
        == f"{path}, line 21: entry orc: there is already an entry called orc (line 2): this one is not used."
    )
    assert problems[4] == f'{path}, line 23: entry orc: "aliases" must be a list of text, not "орк".'
    assert len(problems) == 5
    # The good entry still serves, and the wrong ones are not offered.
    orc = finder.find("orc")
    assert orc is not None and (orc.source, orc.hp, orc.line) == ("library", 5, 2)
    assert finder.find("dragon") is None
    assert [entry.source for entry in finder.search("ogre")] == ["bestiary"]


def test_an_entry_with_an_escape_in_its_text_is_refused_with_its_line_and_character(tmp_path: Path) -> None:
    path = library_path(tmp_path, "ose")
    path.parent.mkdir(parents=True)
    path.write_text(
        '[[combatants]]\nname = "Orc"\nhp = 4\n\n[[combatants]]\nname = "Ogre\\u001b]0;owned\\u0007"\n'
        'hp = 19\naliases = ["big one\\u009b2J"]\n',
        encoding="utf-8",
    )
    finder = Finder.load(tmp_path, "ose")
    assert list(finder.problems) == [
        f'{path}, line 6: entry Ogre␛]0;owned␇: "Ogre␛]0;owned␇" '
        f"holds a control character (U+001B, escape) at character 5: "
        "names, notes and other text may hold no control character or escape sequence.",
        f'{path}, line 8: entry Ogre␛]0;owned␇: "big one�2J" holds '
        f"a control character (U+009B, escape) at character 8: "
        "names, notes and other text may hold no control character or escape sequence.",
    ]
    assert finder.find("orc") is not None  # the right entry still serves, the refused one is not offered
    assert all(entry.source == "bestiary" for entry in finder.search("ogre"))


def test_an_entry_with_an_escape_is_not_saved_to_the_library(tmp_path: Path) -> None:
    for entry in (
        Entry(name="Ogre\x1b[31m", hp=19),
        Entry(name="Ogre", hp=19, sheet={"weapon": "club\x07"}),
        Entry(name="Ogre", hp=19, aliases=("big\x9b",)),
    ):
        with pytest.raises(LibraryError, match="control character"):
            save_entry(tmp_path, "ose", entry)
    assert not library_path(tmp_path, "ose").exists()


def test_a_library_that_is_not_toml_is_reported_and_never_overwritten(tmp_path: Path) -> None:
    path = library_path(tmp_path, "ose")
    path.parent.mkdir(parents=True)
    broken = '[[combatants]]\nname = "Orc"\nhp = 4\n\n[[combatants]\nname = "Ogre"\n'
    path.write_text(broken, encoding="utf-8")
    (problem,) = Finder.load(tmp_path, "ose").problems
    assert problem.startswith(f"{path}, line 5: this is not valid TOML")
    with pytest.raises(LibraryError, match="Line 5 of the library is not valid TOML"):
        save_entry(tmp_path, "ose", Entry(name="Troll", hp=30))
    assert path.read_text(encoding="utf-8") == broken


# -- saving keeps the rest ---------------------------------------------------------------------------------
MINE = """# Monsters of my campaign.

# The orc warband's leader.
[[combatants]]
name = "Orc leader"
hp = 8   # as the book says
[combatants.sheet]
cls = "monster"
level = 1

# Goblins of the marsh: small and many.
[[combatants]]
name = "Marsh goblin"
hp = 3
count = 6
"""


def test_saving_replaces_an_entry_of_the_same_name_and_keeps_everything_else(tmp_path: Path) -> None:
    replaced = with_entry(MINE, Entry(name="ORC LEADER", hp=11, sheet={"cls": "monster", "level": 2}), "adnd2e")
    assert replaced == MINE.replace(
        """[[combatants]]
name = "Orc leader"
hp = 8   # as the book says
[combatants.sheet]
cls = "monster"
level = 1
""",
        """[[combatants]]
name = "ORC LEADER"
hp = 11
sheet = { cls = "monster", level = 2 }
""",
    )
    added = with_entry(MINE, Entry(name="Bog troll", hp=40, aliases=("болотный тролль",)), "adnd2e")
    assert (
        added
        == MINE
        + """
[[combatants]]
name = "Bog troll"
hp = 40
aliases = ["болотный тролль"]
"""
    )


def test_entries_written_in_one_inline_list_are_all_kept(tmp_path: Path) -> None:
    inline = 'combatants = [{ name = "Orc", hp = 4 }, { name = "Ogre", hp = 19 }]\n'
    text = with_entry(inline, Entry(name="Troll", hp=33), "adnd2e")
    assert tomllib.loads(text) == {
        "combatants": [{"name": "Orc", "hp": 4}, {"name": "Ogre", "hp": 19}, {"name": "Troll", "hp": 33}]
    }


def test_a_new_library_starts_with_a_note_for_the_gm(tmp_path: Path) -> None:
    path = save_entry(tmp_path, "dnd5e", Entry(name="Cultist", hp=9, sheet={"ac": 12}, notes="Dark Devotion."))
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# The combatant library of D&D 5e:")
    assert tomllib.loads(text) == {
        "combatants": [{"name": "Cultist", "hp": 9, "notes": "Dark Devotion.", "sheet": {"ac": 12}}]
    }
    save_entry(tmp_path, "dnd5e", Entry(name="Cult fanatic", hp=33))
    assert [entry["name"] for entry in tomllib.loads(path.read_text(encoding="utf-8"))["combatants"]] == [
        "Cultist",
        "Cult fanatic",
    ]


def test_a_ruleset_id_cannot_lead_out_of_the_library_folder(tmp_path: Path) -> None:
    with pytest.raises(LibraryError):
        library_path(tmp_path, "../sessions/x")


# -- the bestiaries --------------------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_bestiary_entry_is_right_and_every_number_says_where_it_comes_from(ruleset: str) -> None:
    bestiary = read_bestiary(ruleset)
    assert bestiary.problems == ()
    assert len(bestiary.entries) >= 4
    text = (BESTIARY_DIR / f"{ruleset}.toml").read_text(encoding="utf-8")
    unsourced = [line for line in text.splitlines() if re.match(r"^\s*[\w.]+\s*=\s*-?\d+\s*$", line)]
    assert unsourced == [], "a number without a comment saying where it comes from"
    names = [name_key(entry.name) for entry in bestiary.entries]
    assert len(names) == len(set(names))


def test_the_bestiaries_name_the_seeds_creatures() -> None:
    def names(ruleset: str) -> set[str]:
        return {entry.name for entry in read_bestiary(ruleset).entries}

    assert {"Troll", "Orc", "Goblin", "Ogre"} <= names("adnd2e")  # seed 000
    assert {"Orc", "Giant spider"} <= names("players_option")  # seed 003
    assert "Troll" in names("dnd5e")  # seed 002
    assert "Bandit" in names("trudvang")  # seed 001
    assert {"Goblin", "Ogre", "Skeleton"} <= names("ose")  # the morale scores of gaps.md


def test_the_bestiaries_are_packaged() -> None:
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["tui_combat"]
    files = sorted(BESTIARY_DIR.glob("*.toml"))
    assert [path.stem for path in files] == sorted(RULESETS)
    for path in files:
        relative = path.relative_to(BESTIARY_DIR.parents[2]).as_posix()
        assert any(
            fnmatch.fnmatchcase(relative, pattern) and "/" not in relative[len(pattern.rsplit("/", 1)[0]) + 1 :]
            for pattern in patterns
        ), relative


def test_ad_and_d_and_players_option_share_one_library(tmp_path: Path) -> None:
    """The same stat blocks: a monster saved in either book's fight is found in the other's; what only
    Player's Option writes (the movement rate) stays in the file and is left out of an AD&D 2e fight."""
    name, hp, sheet, _field, _kept = CREATURES["players_option"]
    gnoll = fight("players_option", a.AddCombatants(side=FOES, name=name, hp=hp, sheet=sheet))
    save_entry(tmp_path, "players_option", entry_from_state(gnoll, gnoll.combatants[0].id))
    orc = fight("adnd2e", a.AddCombatants(side=FOES, name="Orc chief", hp=11, sheet=CREATURES["adnd2e"][2]))
    save_entry(tmp_path, "adnd2e", entry_from_state(orc, orc.combatants[0].id))
    assert library_path(tmp_path, "players_option") == library_path(tmp_path, "adnd2e")
    assert [p.name for p in (tmp_path / "library").iterdir()] == ["adnd2e.toml"]
    for ruleset in ("adnd2e", "players_option"):
        finder = Finder.load(tmp_path, ruleset)
        assert finder.problems == (), finder.problems
        found = finder.find(name)
        assert found is not None and found.source == "library"
        assert ("movement" in found.sheet) is (ruleset == "players_option")
        assert finder.find("Orc chief") is not None and finder.find("Orc chief").source == "library"
        added = apply(fight(ruleset), entry_action(found, FOES))
        assert added.combatants[0].name == name


def test_a_players_option_library_kept_from_before_still_serves(tmp_path: Path) -> None:
    (tmp_path / "library").mkdir()
    (tmp_path / "library" / "players_option.toml").write_text(
        '[[combatants]]\nname = "Old gnoll"\nhp = 9\nsheet = { cls = "monster", level = 2, ac = 5 }\n', encoding="utf-8"
    )
    found = Finder.load(tmp_path, "players_option").find("old gnoll")
    assert found is not None and found.hp == 9


def test_an_entry_is_summed_up_in_the_words_of_its_rules() -> None:
    from tui_combat.engine import registry
    from tui_combat.fight.library import summary
    from tui_combat.i18n import set_language

    trudvang = registry.get("trudvang")
    entry = Entry(name="Raider", hp=16, sheet={"sv": 8})
    assert summary(entry, trudvang.sheet_fields, trudvang.health_label).startswith("BP 16 · ")
    set_language("ru")
    assert summary(entry, trudvang.sheet_fields, trudvang.health_label).startswith("ОТ 16 · ")
    assert summary(Entry(name="Orc", hp=5), (), registry.get("adnd2e").health_label) == "Хиты 5"
