"""The line typed in the amount prompt: its editing keys, and the cursor kept within what is typed."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tui_combat.widgets.line_edit import EDITING_KEYS, LineEdit

KEYS = sorted(EDITING_KEYS)


def typed(value: str, cursor: int) -> LineEdit:
    return LineEdit(value, cursor)


def test_the_editing_keys_do_what_an_input_does() -> None:
    line = LineEdit()
    line.insert("2d6+1 fire")
    assert (line.value, line.cursor) == ("2d6+1 fire", 10)
    assert line.edit("ctrl+w") and (line.value, line.cursor) == ("2d6+1 ", 6)
    assert line.edit("backspace") and line.value == "2d6+1"
    assert line.edit("home") and line.cursor == 0
    assert line.edit("delete") and line.value == "d6+1"
    line.insert("3")
    assert (line.value, line.cursor) == ("3d6+1", 1)
    assert line.edit("ctrl+k") and line.value == "3"
    line.set("12 fire cold")
    line.cursor = 3
    assert line.edit("ctrl+right") and line.cursor == 8
    assert line.edit("ctrl+left") and line.cursor == 3
    assert line.edit("ctrl+backspace") and line.value == "12 cold"
    assert line.edit("ctrl+u") and (line.value, line.cursor) == ("cold", 0)
    assert not line.edit("f5") and line.value == "cold"


def test_a_paste_with_line_breaks_stays_one_line() -> None:
    line = LineEdit()
    line.insert("2d6\r\n+1\n")
    assert line.value == "2d6 +1 "


@given(
    st.text(alphabet="12d+ fireд", max_size=12),
    st.lists(st.one_of(st.sampled_from(KEYS), st.text(alphabet="3 к", min_size=1, max_size=2)), max_size=30),
)
def test_the_cursor_stays_within_the_line_whatever_is_typed(start: str, keys: list[str]) -> None:
    line = LineEdit()
    line.set(start)
    for key in keys:
        if not line.edit(key):
            before = line.value
            line.insert(key)
            assert len(line.value) == len(before) + len(key)
        assert 0 <= line.cursor <= len(line.value)


@given(st.text(alphabet="12d+ fire", max_size=12), st.integers(0, 12), st.text(alphabet="34 ", max_size=4))
def test_typing_then_deleting_as_many_characters_gives_the_line_back(value: str, at: int, text: str) -> None:
    line = typed(value, min(at, len(value)))
    cursor = line.cursor
    line.insert(text)
    for _character in text:
        line.edit("backspace")
    assert (line.value, line.cursor) == (value, cursor)
