"""What the TOML parser finds wrong in a file is said in the GM's language, with its line kept: in `check`,
in an encounter, the library, the settings."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from tests.i18n.walk import latin_words
from tui_combat.fight.library import read_library
from tui_combat.fight.session import SessionError, check_encounter
from tui_combat.i18n import set_language
from tui_combat.settings import toml_read

BROKEN = {
    "no value": "name = \n",
    "unclosed list": "sides = [1, 2\n",
    "no equals sign": 'name "x"\n',
    "twice": 'name = "a"\nname = "b"\n',
    "unclosed text": 'name = "Raf\n',
    "table twice": "[a]\nx = 1\n[a]\ny = 2\n",
    "bad character": 'name = "a"\n\x01\n',
    "line goes on": 'name = "a" b\n',
    "unclosed table": "sheet = { ac = 5\n",
    "no closing bracket": "[sides\n",
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_every_mistake_tomllib_finds_is_translated(case: str) -> None:
    try:
        tomllib.loads(BROKEN[case])
    except tomllib.TOMLDecodeError as decode_error:
        english = str(decode_error)
        where = re.search(r"at line (\d+), column (\d+)", english)
    else:
        pytest.fail("the text is valid TOML")
    for lang in ("ru", "uk"):
        set_language(lang)
        with pytest.raises(toml_read.TomlError) as caught:
            toml_read.loads(BROKEN[case])
        error = caught.value
        assert not latin_words(error.reason), (lang, error.reason, english)
        if where is None:  # tomllib: "at end of document"
            assert error.line is None
        else:
            assert (error.line, error.column) == (int(where.group(1)), int(where.group(2)))
            assert where.group(1) in str(error)
        assert not latin_words(str(error)), str(error)


def test_a_message_tomllib_may_word_otherwise_some_day_is_shown_as_it_is() -> None:
    set_language("ru")
    assert toml_read.reason_of("Some new wording") == "Some new wording"


def test_check_and_the_library_say_it_in_russian_with_the_line(tmp_path: Path) -> None:
    set_language("ru")
    encounter = tmp_path / "fight.toml"
    encounter.write_text('name = "Засада"\nruleset = "adnd2e"\nsides = [1, 2\n', encoding="utf-8")
    with pytest.raises(SessionError) as caught:
        check_encounter(encounter)
    text = str(caught.value.args[-1]) if caught.value.args else str(caught.value)
    assert "строка 4" in text, text  # the list is still open at the end of the text
    assert not latin_words(re.sub(r"\S*fight\.toml\S*", " ", text)), text
    library = tmp_path / "adnd2e.toml"
    library.write_text('[[combatants]]\nname = "Орк"\nhp = \n', encoding="utf-8")
    (problem,) = read_library(library, "adnd2e").problems
    assert "3" in problem and not latin_words(problem.replace(str(library), " ")), problem
