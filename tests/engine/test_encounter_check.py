"""Checking an encounter file: every mistake at once, each with its line, whom it belongs to and the known
values; and the small locator that finds a key's line in TOML text (tomllib keeps no positions)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import msgspec
import pytest

from tui_combat.engine.encounter import (
    ENCOUNTER_DIR,
    FIELDS_OF,
    CombatantSpec,
    Encounter,
    EncounterError,
    Problem,
    SideSpec,
    built,
    load_encounter,
    read_encounter,
)
from tui_combat.engine.errors import RuleError
from tui_combat.engine.toml_lines import key_lines, line_of
from tui_combat.i18n import _, set_language
from tui_combat.rulesets.adnd2e.sheet import Sheet

# -- the locator ----------------------------------------------------------------------------------------
LOCATED = '''# line 1: a comment
name = "Ambush \\" # not a comment"
"ruleset" = 'adnd2e'
notes = """
name = "inside a string, not a key"
[[sides]]
"""

[options]
initiative = "standard"   # line 10

[[sides]]
name = "Party"
combatants = [
  { name = "Raf", hp = 38, sheet = { weapon = "war hammer" } },

  { name = "Rupert", hp = 30 },
  # line 18: an array may hold comments
]

[[sides]]
name = "Monsters"
site.floor = 3

[[sides.combatants]]
name = "Orc"
[sides.combatants.sheet]
level = 1
"armour" = "chain"

[[sides.combatants]]
name = "Troll"
'''


def test_the_locator_finds_every_key_on_its_line() -> None:
    assert tomllib.loads(LOCATED)  # the locator's input is always TOML that reads
    lines = key_lines(LOCATED)
    assert lines[("name",)] == 2 and lines[("ruleset",)] == 3 and lines[("notes",)] == 4
    assert lines[("options",)] == 9 and lines[("options", "initiative")] == 10
    assert lines[("sides", 0)] == 12 and lines[("sides", 0, "name")] == 13
    assert lines[("sides", 0, "combatants", 0)] == 15
    assert lines[("sides", 0, "combatants", 0, "hp")] == 15
    assert lines[("sides", 0, "combatants", 0, "sheet", "weapon")] == 15
    assert lines[("sides", 0, "combatants", 1)] == 17
    assert lines[("sides", 0, "combatants", 1, "hp")] == 17
    assert lines[("sides", 1)] == 21 and lines[("sides", 1, "name")] == 22
    assert lines[("sides", 1, "site")] == lines[("sides", 1, "site", "floor")] == 23
    assert lines[("sides", 1, "combatants", 0)] == 25 and lines[("sides", 1, "combatants", 0, "name")] == 26
    assert lines[("sides", 1, "combatants", 0, "sheet")] == 27
    assert lines[("sides", 1, "combatants", 0, "sheet", "armour")] == 29
    assert lines[("sides", 1, "combatants", 1)] == 31 and lines[("sides", 1, "combatants", 1, "name")] == 32
    assert ("sides", 2) not in lines  # the "[[sides]]" inside the multi-line string is no table


def test_a_key_without_a_line_takes_the_line_of_what_holds_it() -> None:
    lines = key_lines(LOCATED)
    assert line_of(lines, ("sides", 1, "combatants", 1, "hp")) == 31  # missing: the table it belongs in
    assert line_of(lines, ("nowhere",)) is None


# -- checking a file -------------------------------------------------------------------------------------
def write(tmp_path: Path, text: str, name: str = "fight.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problems(path: Path) -> list[Problem]:
    with pytest.raises(EncounterError) as refused:
        load_encounter(path)
    return refused.value.problems


MISTAKES = """name = "Ambush"
ruleset = "adnd2e"
[options]
initiative = "standardd"
tempo = "fast"

[[sides]]
name = "Party"
party = "yes"

[[sides.combatants]]
name = "Raf"
hp = 38
sheet = { cls = "warrior", level = 5, weapon = "war hamer" }

[[sides.combatants]]
name = "Rupert"
hpp = 30

[[sides]]
name = "party"

[[sides.combatants]]
name = "Orc"
hp = -5
count = 6
[sides.combatants.sheet]
cls = "monster"
level = 1
armour = "chian mail"
"""


def test_every_mistake_is_reported_at_once_with_its_line_and_owner(tmp_path: Path) -> None:
    found = problems(write(tmp_path, MISTAKES))
    assert [(p.line, p.where) for p in found] == [
        (4, ""),  # initiative: not a choice
        (5, ""),  # no option "tempo"
        (9, "side Party"),  # party = "yes"
        (14, "side Party, Raf"),  # war hamer
        (16, "side Party, Rupert"),  # hp missing: the line of his table
        (18, "side Party, Rupert"),  # hpp
        (21, "side party"),  # the side's name is taken
        (25, "side party, group Orc ×6"),  # hp -5
        (30, "side party, group Orc ×6"),  # chian mail: the armour's own line in the sheet table
    ]
    messages = [p.message for p in found]
    assert "standard (" in messages[0] and "group (" in messages[0] and "individual (" in messages[0]
    assert "tempo" in messages[1] and "initiative" in messages[1] and "three_halves" in messages[1]
    assert messages[2] == '"party" must be true or false, not "yes".'
    assert "war hammer" in messages[3]  # the close match
    assert messages[4] == '"hp" is missing.'
    assert (
        messages[5].startswith('unknown field "hpp" (did you mean "hp"?)')
        and "name, hp, count, sheet, notes" in messages[5]
    )
    assert messages[6].startswith("there is already a side called Party (line 8)")
    assert messages[7] == '"hp" must be from 0 to 999999, not -5.'
    assert "chain mail" in messages[8]


def test_the_message_names_the_file_the_line_and_the_field(tmp_path: Path) -> None:
    path = write(tmp_path, MISTAKES)
    with pytest.raises(EncounterError) as refused:
        load_encounter(path)
    lines = str(refused.value).splitlines()
    assert len(lines) == 9
    assert lines[5] == (
        f'{path}, line 18: side Party, Rupert: unknown field "hpp" (did you mean "hp"?); '
        "the fields here are: name, hp, count, sheet, notes, hidden."
    )
    assert isinstance(refused.value, RuleError)


def test_an_unknown_ruleset_lists_the_known_ones(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "x"\nruleset = "adnd2"\n[[sides]]\nname = "A"\n')
    (problem,) = problems(path)
    assert problem.line == 2
    assert problem.message.startswith('unknown ruleset "adnd2" (did you mean "adnd2e"?)')
    for known in ("adnd2e", "trudvang", "dnd5e", "ose", "players_option"):
        assert known + " (" in problem.message


def test_a_file_that_names_no_ruleset_is_told_to_and_is_given_none(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "x"\n[[sides]]\nname = "A"\n[[sides.combatants]]\nname = "Raf"\nhp = 3\n')
    (problem,) = problems(path)
    assert problem.message.startswith('"ruleset" is missing: the file names its rules, one of: adnd2e (')
    assert "trudvang (Trudvang Chronicles)" in problem.message


def test_sheets_are_checked_by_their_ruleset_one_combatant_after_another(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """name = "Ford"
ruleset = "dnd5e"
[[sides]]
name = "Heroes"
combatants = [{ name = "Ada", hp = 9, sheet = { dex = 40 } }, { name = "Bo", hp = 9, sheet = { dexx = 12 } }]
[[sides]]
name = "Goblins"
[[sides.combatants]]
name = "Goblin"
hp = 7
count = 600
sheet = { damage = "1d" }
""",
    )
    found = problems(path)
    assert [(p.line, p.where) for p in found] == [
        (5, "side Heroes, Ada"),
        (5, "side Heroes, Bo"),
        (11, "side Goblins, group Goblin ×600"),
        (12, "side Goblins, group Goblin ×600"),
    ]
    assert "40" in found[0].message and "dexx" in found[1].message
    assert found[2].message == '"count" must be from 1 to 500, not 600.'
    assert found[2].key == "sides[1].combatants[0].count"
    assert found[3].message.startswith("Damage dice")


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_sheet_value_of_the_wrong_kind_is_said_plainly_with_the_sheets_other_mistakes(
    tmp_path: Path, lang: str
) -> None:
    path = write(
        tmp_path,
        """name = "Ford"
ruleset = "adnd2e"
[[sides]]
name = "Party"
[[sides.combatants]]
name = "Raf"
hp = 9
[sides.combatants.sheet]
cls = "warior"
ac = "three"
[[sides.combatants]]
name = "Ada"
hp = 9
sheet = { level = [5], dexx = 1 }
""",
    )
    set_language(lang)
    try:
        found = problems(path)
        said = {
            "en": ('Sheet, ac: a whole number, not "three".', "Sheet, level: a whole number or text, not a list."),
            "ru": ('Лист, ac: целое число, а не "three".', "Лист, level: целое число или текст, а не список."),
            "uk": ('Аркуш, ac: ціле число, а не "three".', "Аркуш, level: ціле число або текст, а не список."),
        }[lang]
        unknown = _(
            'unknown field "{field}" (did you mean "{close}"?); the fields here are: {known}.',
            field="dexx",
            close="dex_ac",
            known=", ".join(Sheet.__struct_fields__),
        )
    finally:
        set_language("en")
    assert [p.line for p in found] == [9, 10, 14, 14]  # the class and the AC of one sheet, each on its line
    assert '"warior"' in found[0].message or "«warior»" in found[0].message
    assert found[1].message == said[0] and found[3].message == said[1]
    assert found[2].message == said[0].split(",")[0] + ", " + unknown
    for problem in found:
        assert "$." not in problem.message and "Expected" not in problem.message and "`" not in problem.message


def test_an_unknown_sheet_field_is_named_plainly_with_the_known_ones(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'name = "x"\nruleset = "ose"\n[[sides]]\nname = "A"\n[[sides.combatants]]\nname = "Raf"\n'
        'hp = 3\nsheet = { klasse = "fighter", ac = 14 }\n',
    )
    set_language("ru")
    try:
        (problem,) = problems(path)
    finally:
        set_language("en")
    assert problem.line == 8
    assert problem.message == (
        "Лист, неизвестное поле «klasse»; здесь есть поля: ac, shield, attack, damage, weapon, "
        "dex, morale, cls, level, hd, save_as, saves."
    )


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
@pytest.mark.parametrize(
    ("written", "value"),
    [
        ("групповая", "group"),
        ("Стандартная", "standard"),
        ("групова", "group"),
        ("group-modified", "group"),
        ("групповая: 1d10 на сторону + свои модификаторы", "group"),
        ("individual: 1d10 each, every monster too", "individual"),
        ("індивідуальна: 1d10 кожному, один на групу однакових монстрів", "individual_groups"),
        ("individual", "individual"),
    ],
)
def test_an_option_may_be_written_as_its_label_in_any_language(
    tmp_path: Path, lang: str, written: str, value: str
) -> None:
    path = write(
        tmp_path,
        f'name = "x"\nruleset = "adnd2e"\n[options]\ninitiative = "{written}"\n'
        f'public_rolls = "ничего"\n[[sides]]\nname = "A"\n',
    )
    set_language(lang)
    try:
        encounter = load_encounter(path)
    finally:
        set_language("en")
    assert encounter.options == {"initiative": value, "public_rolls": "nothing"}
    options = built(encounter, path).options
    assert (options["initiative"], options["public_rolls"]) == (value, "nothing")


def test_a_short_form_two_choices_share_is_refused_naming_both(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'name = "x"\nruleset = "adnd2e"\n[options]\ninitiative = "индивидуальная"\nthree_halves = "в нечётных"\n',
    )
    first, second = problems(path)
    assert (first.line, second.line) == (4, 5)
    assert first.message.startswith(
        '"индивидуальная" may be any of individual (individual: 1d10 each, every monster too), individual_groups ('
    ) and first.message.endswith("write which.")
    assert second.message.startswith('"в нечётных" is not a choice for three_halves; the choices are: even (')


def test_wrong_kinds_and_missing_names(tmp_path: Path) -> None:
    path = write(tmp_path, 'ruleset = 5\n[[sides]]\nparty = true\n[[sides.combatants]]\nname = ""\nhp = "five"\n')
    assert [(p.line, p.where, p.message) for p in problems(path)] == [
        (1, "", '"ruleset" must be text, not 5.'),
        (2, "side 1", '"name" is missing.'),
        (5, "side 1, combatant 1", '"name" cannot be empty.'),
        (6, "side 1, combatant 1", '"hp" must be a whole number, not "five".'),
        (None, "", '"name" is missing.'),  # the encounter's own name: no line to point at
    ]


def test_a_file_that_is_not_toml_says_where(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "x"\n[[sides]]\nname = \n')
    (problem,) = problems(path)
    assert problem.line == 3 and problem.message.startswith("this is not valid TOML: not a value")
    assert str(EncounterError(path, [problem])).startswith(f"{path}, line 3: this is not valid TOML")


def test_a_file_that_is_not_utf8_is_said_plainly(tmp_path: Path) -> None:
    path = tmp_path / "ford.toml"
    path.write_bytes('name = "Gué"\n'.encode("latin-1"))
    with pytest.raises(RuleError) as refused:
        load_encounter(path)
    assert str(refused.value) == f"{path} is not UTF-8 text."


def test_a_file_that_passes_is_built_and_the_build_refusal_is_reported(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'name = "Ford"\nruleset = "adnd2e"\n[[sides]]\nname = "A"\n[[sides.combatants]]\nname = "Raf"\nhp = 3\n',
    )
    encounter = read_encounter(path)
    assert [c.name for c in built(encounter, path).combatants] == ["Raf"]
    nameless = msgspec.structs.replace(encounter, name=" ")  # what only building finds
    with pytest.raises(EncounterError) as refused:
        built(nameless, path)
    assert str(refused.value) == f"{path}: A name cannot be empty."


@pytest.mark.parametrize("demo", sorted(path.name for path in ENCOUNTER_DIR.glob("*.toml")))
def test_every_packaged_encounter_passes(demo: str) -> None:
    path = ENCOUNTER_DIR / demo
    assert built(read_encounter(path), path).combatants


def test_the_checked_fields_are_the_fields_of_the_encounter_structs() -> None:
    for struct in (Encounter, SideSpec, CombatantSpec):
        assert list(FIELDS_OF[struct]) == list(struct.__struct_fields__)


def test_a_sheet_field_beside_the_name_is_pointed_to_the_sheet(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'name = "x"\nruleset = "adnd2e"\n[[sides]]\nname = "Party"\n[[sides.combatants]]\n'
        'name = "Raf"\nhp = 10\ncls = "warrior"\n',
    )
    with pytest.raises(EncounterError) as refused:
        load_encounter(path)
    text = str(refused.value)
    assert 'line 8: side Party, Raf: "cls" belongs in the sheet: write it as sheet.cls' in text, text
    assert "sides[0]" not in text
