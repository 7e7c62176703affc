"""Control characters in text from outside: refused where the text comes in (what the GM types, encounter and
library files), shown harmless where text that holds them from before goes out (reports, the shell)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.saves.helpers import small_fight
from tui_combat.engine import actions as a
from tui_combat.engine.encounter import EncounterError, read_encounter
from tui_combat.engine.errors import RuleError
from tui_combat.engine.text import (
    action_text_problem,
    control_problem,
    first_control,
    harmless,
    json_harmless,
    without_controls,
)
from tui_combat.fight.store import Store

ESCAPES = ("Raf\x1b]0;owned\x07", "Orc\x1b[31m", "Ogre\x9b2J", "Troll\x00", "Imp\x7f", "Two\nlines")
CONTROLS = st.characters(min_codepoint=0, max_codepoint=0x9F).filter(lambda c: c < " " or "\x7f" <= c)


@given(st.text(st.characters(codec="utf-8")))
def test_harmless_text_holds_no_control_character_and_printable_text_is_left_as_it_is(text: str) -> None:
    assert first_control(harmless(text)) is None and first_control(without_controls(text)) is None
    if text.isprintable():
        assert harmless(text) == text == without_controls(text)


@given(st.text(), CONTROLS, st.text())
def test_any_control_character_is_found_where_it_is(before: str, control: str, after: str) -> None:
    text = before.translate(dict.fromkeys(range(0xA0))) + control + after
    at = len(before.translate(dict.fromkeys(range(0xA0))))
    assert first_control(text) == at
    assert control_problem(text) is not None


def test_the_refusal_says_which_character_and_where_and_quotes_the_text_harmless() -> None:
    problem = control_problem("Raf\x1b]0;owned\x07")
    assert problem is not None and problem.startswith(
        '"Raf␛]0;owned␇" holds a control character (U+001B, escape) at character 4'
    )
    assert "\x1b" not in problem and "\x07" not in problem
    assert control_problem("two\nlines\tof notes", lines=True) is None
    assert control_problem("two\nlines") is not None
    assert harmless("a\x9bb\tc\nd", lines=True) == "a\ufffdb\tc\nd"


def test_json_keeps_the_data_and_escapes_what_a_terminal_would_obey() -> None:
    assert json_harmless('{"name": "Ogre\x9b2J\x7f"}') == '{"name": "Ogre\\u009b2J\\u007f"}'


@pytest.mark.parametrize("name", ESCAPES)
def test_every_action_with_typed_text_is_refused_at_the_door(tmp_path: Path, name: str) -> None:
    store = small_fight(tmp_path / "fight")
    before = store.state
    for action in (
        a.AddCombatants(side="s1", name=name, hp=3),
        a.AddSide(name=name),
        a.SetName(name=name),
        a.EditCombatant(combatant="c3", name=name),
        a.AddCombatants(side="s1", name="Bo", hp=3, sheet={"weapon": name}),
        a.RulesetAction(name="attack", args={"combatant": "c3", "what": name}),
    ):
        assert action_text_problem(action) is not None
        with pytest.raises(RuleError, match="holds a control character"):
            store.dispatch(action)
    assert store.state is before
    if name != "Two\nlines":
        with pytest.raises(RuleError, match="holds a control character"):
            store.dispatch(a.Note(text=name))
    store.dispatch(a.Note(text="two\nlines of a note"))  # a note may run over several lines
    store.close()


def test_a_fight_saved_with_such_a_name_before_still_opens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The door is the store's: an action already in a journal is replayed as it was saved."""
    with monkeypatch.context() as older_version:  # which let it in
        older_version.setattr("tui_combat.fight.store.action_text_problem", lambda action: None)
        store = small_fight(tmp_path / "fight")
        store.dispatch(a.AddCombatants(side="s1", name="Raf\x1b[31m", hp=3))
        store.close()
    opened = Store.resume(tmp_path / "fight")
    assert opened.state.combatants[-1].name == "Raf\x1b[31m" and not opened.read_only
    opened.close()


ESCAPED_ENCOUNTER = '''name = "Ambush"
ruleset = "adnd2e"
[[sides]]
name = "Party"
party = true
[[sides.combatants]]
name = "Raf\\u001b]0;owned\\u0007"
hp = 30
[[sides]]
name = "Monsters"
[[sides.combatants]]
name = "Orc"
hp = 5
notes = """two
lines\\tand a tab"""
[sides.combatants.sheet]
weapon = "long sword\\u009b2J"
"\\u001b[0m" = 1
'''


def test_an_encounter_file_with_an_escape_is_refused_with_the_file_the_line_and_the_character(tmp_path: Path) -> None:
    path = tmp_path / "ambush.toml"
    path.write_text(ESCAPED_ENCOUNTER, encoding="utf-8")
    with pytest.raises(EncounterError) as caught:
        read_encounter(path)
    problems = [
        (problem.line, problem.key) for problem in caught.value.problems if "control character" in problem.message
    ]
    assert problems == [
        (7, "sides[0].combatants[0].name"),
        (17, "sides[1].combatants[0].sheet.weapon"),
        (18, "sides[1].combatants[0].sheet.\x1b[0m"),
    ]
    text = str(caught.value)
    assert (
        f'{path}, line 7: side Party, Raf␛]0;owned␇: "Raf␛]0;owned␇" holds a control character '
        "(U+001B, escape) at character 4"
    ) in text
    assert "(U+009B, escape) at character 11" in text
    assert first_control(text, lines=True) is None  # what `check` prints is harmless


def test_check_prints_the_line_and_character_and_nothing_raw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui_combat.__main__ import main

    path = tmp_path / "ambush.toml"
    path.write_text(ESCAPED_ENCOUNTER, encoding="utf-8")
    assert main(["--data-dir", str(tmp_path / "data"), "check", str(path)]) == 2
    said = capsys.readouterr().err
    assert f"{path}, line 7: " in said and "(U+001B, escape) at character 4" in said
    assert first_control(said, lines=True) is None
