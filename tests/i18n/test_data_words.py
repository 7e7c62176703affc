"""Names from the data shown in the GM's language, and the GM's words read back from a file."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from tui_combat.engine.encounter import load_encounter
from tui_combat.engine.errors import RuleError
from tui_combat.i18n import data_word, data_words, english_word, set_language
from tui_combat.i18n.os_words import os_error_text
from tui_combat.rulesets.adnd2e.sheet import CLASSES, SIZES, Sheet, canonical_sheet, check_sheet_values


def test_a_comma_list_is_translated_item_by_item() -> None:
    set_language("ru")
    assert data_words("longsword, heavy crossbow") == "длинный меч, тяжёлый арбалет"


@pytest.mark.parametrize(
    ("written", "ru"),
    [
        ("action surge 1", "всплеск действий 1"),  # a counter: the figures after the name stay
        ("1st-level slots 4, 2nd-level slots 2", "ячейки 1-го круга 4, ячейки 2-го круга 2"),
        ("Armed combat 1", "Вооружённый бой 1"),
        ("One-handed light weapons 2; Brawler 1", "Одноручное лёгкое оружие 2; Бузотёр 1"),  # the semicolons too
        ("javelin (thrown) +4 1d6+2", "метательное копьё (бросок) +4 1d6+2"),
        ("bastard sword (two-handed)", "полуторный меч (двумя руками)"),  # the catalog's own entry
        ("Club (im -2, actions 3), seax", "Дубинка (im -2, actions 3), сакс"),  # commas in parentheses are not between
        ("1d4+4, 1d4+4, 2d6", "1d4+4, 1d4+4, 2d6"),
    ],
)
def test_a_sheets_list_is_translated_name_by_name(written: str, ru: str) -> None:
    set_language("ru")
    assert data_words(written) == ru


def test_the_catalog_is_found_whatever_the_case() -> None:
    set_language("ru")
    # The catalog has "Hardened leather"; a sheet writes it in lower case, and keeps its case.
    assert data_word("hardened leather") == "вываренная кожа"
    assert data_word("Hardened leather") == "Вываренная кожа"


def test_a_word_the_catalog_lacks_stays_as_written() -> None:
    set_language("uk")
    assert data_words("Vorpal blade, longsword") == "Vorpal blade, довгий меч"


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_class_and_size_words_of_any_language_are_read_in_every_language(lang: str) -> None:
    set_language(lang)
    assert english_word("Воин", CLASSES) == "warrior"
    assert canonical_sheet({"cls": "Воитель"}) == {"cls": "warrior"}  # the words of earlier versions
    assert canonical_sheet({"cls": "шахрай"}) == {"cls": "rogue"}
    assert english_word("Огромный", SIZES) == "huge"
    assert canonical_sheet({"cls": "воїн", "size": "Великий"}) == {"cls": "warrior", "size": "large"}
    assert english_word("knight", CLASSES) is None


def test_a_misspelt_class_is_refused_with_the_likely_one() -> None:
    set_language("en")
    with pytest.raises(RuleError, match='Did you mean "warrior"'):
        check_sheet_values({"cls": "warior"}, Sheet)


def test_the_systems_reason_is_in_the_gms_language(tmp_path: Path) -> None:
    set_language("uk")
    assert os_error_text(FileNotFoundError(errno.ENOENT, "No such file or directory")) == "Немає такого файлу чи теки"
    assert os_error_text(OSError(errno.EIO, "Input/output error")) == "Input/output error"  # a rare one: as given
    set_language("ru")
    with pytest.raises(RuleError, match="Нет такого файла или папки"):
        load_encounter(tmp_path / "missing.toml")
