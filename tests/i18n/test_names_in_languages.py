"""Data in the GM's language: whatever name the app shows for a weapon or an armour, in Russian or
Ukrainian, can be typed back (an encounter file, a form), because the data files list it as an alias;
and "did you mean" answers a typo in the language it was typed in."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tui_combat.engine.errors import RuleError
from tui_combat.fight.session import SessionError, check_encounter
from tui_combat.i18n import _, data_words, set_language

LANGUAGES = ("ru", "uk")


def shown_names(lang: str, names: list[str]) -> list[str]:
    set_language(lang)
    try:
        return [_(name) for name in names]
    finally:
        set_language("en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_adnd_weapons_and_armour(lang: str) -> None:
    from tui_combat.rulesets.adnd2e.data import tables
    from tui_combat.rulesets.adnd2e.sheet import armour_name, weapon_name

    weapons = list(tables().weapon_speeds)
    for english, shown in zip(weapons, shown_names(lang, weapons)):
        assert shown != english, f"{english} has no {lang} name"
        assert weapon_name(shown) == english
        assert weapon_name(shown.upper()) == english  # case does not matter
    armours = list(tables().armour_types)
    for english, shown in zip(armours, shown_names(lang, armours)):
        assert armour_name(shown) == english


def test_adnd_seed_names_and_yo() -> None:
    from tui_combat.rulesets.adnd2e.sheet import armour_name, weapon_name

    assert weapon_name("боевой молот") == "war hammer"
    assert weapon_name("Бойовий  молот") == "war hammer"
    assert armour_name("Тяжелые латы") == "full plate"  # the seed's spelling, е for ё
    assert armour_name("тяжёлые латы") == "full plate"
    assert armour_name("Юшман") == "splint mail"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_dnd5e_weapons(lang: str) -> None:
    from tui_combat.rulesets.dnd5e.data import data, find_weapon

    weapons = list(data().weapons)
    for english, shown in zip(weapons, shown_names(lang, weapons)):
        assert find_weapon(shown) == data().weapons[english], (english, shown)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_ose_weapons(lang: str) -> None:
    from tui_combat.rulesets.ose.data import tables, weapon_name

    weapons = [*tables().missile.ranges, *tables().slow_weapons.weapons]
    for english, shown in zip(weapons, shown_names(lang, weapons)):
        assert weapon_name(shown) == english.lower(), (english, shown)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_trudvang_names(lang: str) -> None:
    from tui_combat.rulesets.trudvang.data import default_data as trudvang_data
    from tui_combat.rulesets.trudvang.data import find_entry

    data = trudvang_data()
    for table in (data.weapons, data.shields, data.armour, data.disciplines, data.specialties):
        names = [entry.name for entry in table.values()]
        for key, shown in zip(table, shown_names(lang, names)):
            assert find_entry(table, shown) == key, (key, shown)


def encounter(tmp_path: Path, ruleset: str, sheet: str) -> Path:
    path = tmp_path / "fight.toml"
    path.write_text(
        f'name = "Засада"\nruleset = "{ruleset}"\n[[sides]]\nname = "Герои"\nparty = true\n'
        f'[[sides.combatants]]\nname = "Раф"\nhp = 30\nsheet = {sheet}\n'
        '[[sides]]\nname = "Орки"\n[[sides.combatants]]\nname = "Орк"\nhp = 5\ncount = 3\n',
        encoding="utf-8",
    )
    return path


def test_an_encounter_file_in_russian(tmp_path: Path) -> None:
    state = check_encounter(
        encounter(
            tmp_path,
            "adnd2e",
            '{ cls = "warrior", level = 5, weapon = "боевой молот", magic = 4, armour = "кольчуга" }',
        )
    )
    raf = state.combatants[0]
    assert raf.sheet["weapon"] == "боевой молот"  # as the GM wrote it
    assert raf.sheet["armour"] == "chain mail"  # the armour is a choice of the form: stored as the table names it


def test_an_encounter_file_in_ukrainian_for_players_option(tmp_path: Path) -> None:
    state = check_encounter(
        encounter(tmp_path, "players_option", '{ cls = "warrior", level = 5, weapon = "дворучний меч" }')
    )
    from tui_combat.engine import registry
    from tui_combat.rulesets.players_option.phases import weapon_class

    ruleset = registry.get("players_option")
    sheet = ruleset.po_sheet(state.combatants[0])  # type: ignore[attr-defined]
    # The two-handed sword is the one weapon the speed-class table lists: slow (index 3 of the five phases).
    assert weapon_class(sheet, sheet.weapon, ruleset.data) == 3  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("lang", "typed", "suggested"),
    [
        ("ru", "боевй молот", "боевой молот"),
        ("uk", "бойовий молт", "бойовий молот"),
        ("en", "war hamer", "war hammer"),
    ],
)
def test_did_you_mean_in_the_language_typed(tmp_path: Path, lang: str, typed: str, suggested: str) -> None:
    set_language(lang)
    try:
        with pytest.raises(SessionError) as refused:
            check_encounter(encounter(tmp_path, "adnd2e", f'{{ cls = "warrior", level = 5, weapon = "{typed}" }}'))
    finally:
        set_language("en")
    assert suggested in str(refused.value)
    assert str(refused.value).count(suggested) >= 1


def test_did_you_mean_for_trudvang_in_russian() -> None:
    from tui_combat.engine import registry

    set_language("ru")
    try:
        with pytest.raises(RuleError) as refused:
            registry.get("trudvang").check_sheet({"sv": 10, "weapons": "сакс", "shield": "малый щт"})
    finally:
        set_language("en")
    assert str(refused.value) == (
        "Щит: неизвестный щит «малый щт». Известные: нет, Малый щит, Средний щит, Большой щит, "
        "Малый меховой щит, Малый металлический щит, Средний меховой щит, Средний металлический "
        "щит, Большой меховой щит, Большой металлический щит. Может быть, «Малый щит»?"
    )  # the name as the list gives it


def test_an_alias_to_nothing_is_refused_in_house_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tui_combat.rulesets.adnd2e.data import tables

    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "adnd2e.toml").write_text(
        '[weapon_aliases]\n"кувалда" = "sledge hammer"\n', encoding="utf-8"
    )
    monkeypatch.setenv("TUI_COMBAT_CONFIG_DIR", str(tmp_path))
    tables.cache_clear()
    try:
        with pytest.raises(RuleError, match="sledge hammer"):
            tables()
    finally:
        monkeypatch.undo()
        tables.cache_clear()


@pytest.mark.parametrize("lang", ["ru", "uk"])
@pytest.mark.parametrize("ruleset", ["adnd2e", "players_option", "dnd5e", "ose", "trudvang"])
def test_every_starter_creature_comes_in_the_gms_language(lang: str, ruleset: str) -> None:
    """A starter bestiary's creature is added with its name, its notes and its weapons in the GM's language."""
    from tui_combat.fight.library import bestiary_path, entry_action, read_library

    set_language(lang)
    english_words = re.compile(r"[A-Za-z]{3,}")
    for entry in read_library(bestiary_path(ruleset), ruleset, "bestiary").entries:
        added = entry_action(entry, "s2")
        assert not english_words.search(added.name), (entry.name, added.name)
        assert not english_words.search(added.notes), (entry.name, added.notes)
        for key in ("weapons", "weapon", "forms"):
            if isinstance(added.sheet.get(key), str):
                shown = re.sub(r"\((?:[^()]|\([^()]*\))*\)", "", data_words(added.sheet[key]))  # a sheet's own numbers
                assert not english_words.search(shown), (entry.name, shown)
