"""What the app writes with fewer colour codes and moves shows the same on the terminal, cell for cell, colour for
colour, as what Textual wrote: checked on a terminal of our own, on pieces of text Rich styled at random and on
the frames of a next turn and back in a turn list taller than the screen
(``tests/ui/test_turn_list_scrolls.py``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.color import Color
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from tui_combat.textual_ext.fewer_codes import BLANK_SHOWS, with_fewer_codes

WIDTH, HEIGHT = 80, 24

SEQUENCE = re.compile(r"\x1b\[([0-9;]*)m|\x1b\[(\d+);(\d+)H|(\r)|(\n)|\x1b\[[0-?]*[ -/]*[@-~]")
OFF = {"22": {"1", "2"}, "23": {"3"}, "24": {"4", "21"}, "25": {"5", "6"}, "27": {"7"}, "28": {"8"}, "29": {"9"}}


class Terminal:
    """The cells of a terminal (their character and how it shows: a blank only its background, unless it is
    underlined, reversed …) and its cursor, as text and SGR sequences leave them."""

    def __init__(self) -> None:
        self.cells: list[list[tuple[str, tuple[object, ...]]]] = [
            [(" ", (frozenset(), None, None))] * WIDTH for _ in range(HEIGHT)
        ]
        self.x = self.y = 0
        self.attributes: set[str] = set()
        self.foreground: str | None = None
        self.background: str | None = None

    def style(self, parameters: str) -> None:
        numbers = parameters.split(";") if parameters else ["0"]
        index = 0
        while index < len(numbers):
            number = numbers[index]
            if number == "0":
                self.attributes, self.foreground, self.background = set(), None, None
            elif number in OFF:
                self.attributes -= OFF[number]
            elif number in ("38", "48"):
                length = 5 if numbers[index + 1] == "2" else 3
                colour = ";".join(numbers[index : index + length])
                if number == "38":
                    self.foreground = colour
                else:
                    self.background = colour
                index += length
                continue
            elif number == "39":
                self.foreground = None
            elif number == "49":
                self.background = None
            elif 30 <= int(number) <= 37 or 90 <= int(number) <= 97:
                self.foreground = number
            elif 40 <= int(number) <= 47 or 100 <= int(number) <= 107:
                self.background = number
            else:
                self.attributes.add(number)
            index += 1

    def write(self, output: str) -> None:
        position = 0
        for match in SEQUENCE.finditer(output):
            self.text(output[position : match.start()])
            position = match.end()
            sgr, row, column, carriage, line = match.groups()
            if sgr is not None:
                self.style(sgr)
            elif row is not None:
                self.y, self.x = int(row) - 1, int(column) - 1
            elif carriage:
                self.x = 0
            elif line:
                self.y = min(self.y + 1, HEIGHT - 1)
        self.text(output[position:])

    def text(self, text: str) -> None:
        look = (frozenset(self.attributes), self.foreground, self.background)
        blank = (frozenset(), None, self.background) if not self.attributes & BLANK_SHOWS else look
        for character in text:
            width = cell_len(character)
            if width == 0:  # a combining mark joins the cell before it, even the last one of a row
                if 0 < self.x <= WIDTH:
                    before, its_look = self.cells[self.y][self.x - 1]
                    self.cells[self.y][self.x - 1] = (before + character, its_look)
                continue
            if self.x + width <= WIDTH:
                self.cells[self.y][self.x] = (character, blank if character == " " else look)
                if width == 2:
                    self.cells[self.y][self.x + 1] = ("", look)
            self.x += width

    def shown(self) -> tuple[object, ...]:
        return tuple(tuple(row) for row in self.cells), (self.x, self.y), self.look_now()

    def look_now(self) -> tuple[object, ...]:
        return frozenset(self.attributes), self.foreground, self.background


def same_on_the_terminal(*frames: str, made_over: Callable[[str], str] = with_fewer_codes) -> int:
    """Writes ``frames`` one after another as they are and ``made_over`` (with fewer codes); the bytes saved (the
    screens, the cursors and the styles left must be the same)."""
    as_written, fewer = Terminal(), Terminal()
    saved = 0
    for frame in frames:
        as_written.write(frame)
        smaller = made_over(frame)
        fewer.write(smaller)
        assert fewer.shown() == as_written.shown() or (
            fewer.shown()[:2] == as_written.shown()[:2] and fewer.look_now() == (frozenset(), None, None)
        ), (frame, smaller)
        saved += len(frame.encode()) - len(smaller.encode())
    return saved


colours = st.one_of(
    st.none(),
    st.sampled_from(["red", "bright_cyan", "color(200)", "grey50"]).map(Color.parse),
    st.builds(Color.from_rgb, st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)),
)
styles = st.one_of(
    st.none(),
    st.builds(
        Style,
        color=colours,
        bgcolor=colours,
        bold=st.none() | st.booleans(),
        dim=st.none() | st.booleans(),
        italic=st.none() | st.booleans(),
        underline=st.none() | st.booleans(),
        reverse=st.none() | st.booleans(),
        strike=st.none() | st.booleans(),
    ),
)
pieces = st.lists(
    st.one_of(
        st.tuples(st.sampled_from([" ", "  Orc 5", "8/8   ", "▶─", "Герой", "猫", ""]), styles),
        st.tuples(st.integers(0, HEIGHT - 1), st.integers(0, WIDTH - 10)),
        st.just("\n"),
    ),
    max_size=30,
)


@pytest.mark.parametrize("system", ["truecolor", "256", "standard"])
@given(frames=st.lists(pieces, min_size=1, max_size=3))
def test_styled_text_shows_the_same_with_fewer_codes(system: str, frames: list[list[Any]]) -> None:
    console = Console(color_system=system, force_terminal=True, width=WIDTH)  # type: ignore[arg-type]
    written = []
    for frame in frames:
        output = []
        for piece in frame:
            if piece == "\n":
                output.append("\r\n")
            elif isinstance(piece[0], int):
                output.append(f"\x1b[{piece[0] + 1};{piece[1] + 1}H")
            else:
                output.append(Strip([Segment(*piece)]).render(console))
        written.append("".join(output))
    same_on_the_terminal(*written)


def test_a_reset_nothing_follows_is_written_at_the_end() -> None:
    assert with_fewer_codes("\x1b[1;31mOrc\x1b[0m") == "\x1b[1;31mOrc\x1b[0m"
    assert with_fewer_codes("\x1b[31mOrc\x1b[0m\x1b[32m 8/8\x1b[0m") == "\x1b[31mOrc\x1b[0;32m 8/8\x1b[0m"
    assert with_fewer_codes("\x1b[0m\x1b[31mOrc\x1b[0m\x1b[32m 8/8\x1b[0m") == "\x1b[0;31mOrc\x1b[32m 8/8\x1b[0m"


def test_blanks_keep_the_foreground_they_do_not_show() -> None:
    """The margin before a name: only its background is written (the terminal keeps the colour of the health
    before it), and the name's colour then only when it differs."""
    row = "\x1b[5;1H\x1b[48;5;235m \x1b[0m\x1b[38;5;253;48;5;235m  Orc 6\x1b[0m\x1b[38;5;80;48;5;235m  3/8 \x1b[0m"
    second = row.replace("5;1H", "6;1H").replace("Orc 6", "Orc 16")
    assert with_fewer_codes(row + second).count("\x1b[") == len(["5;1H", "0;48", "38;5;253", "38;5;80"]) + len(
        ["6;1H", "38;5;253", "38;5;80", "0m"]
    )
    same_on_the_terminal(row + second)
    underlined = "\x1b[31mOrc\x1b[0m\x1b[4;48;5;1m  \x1b[0m"
    assert "\x1b[0;4;48;5;1m" in with_fewer_codes(underlined)  # (an underlined blank shows its colour)
    same_on_the_terminal(underlined)


def test_a_move_another_move_follows_is_left_out() -> None:
    assert with_fewer_codes("\x1b[3;1Hab\x1b[3;30H\n\x1b[4;1Hcd") == "\x1b[3;1Hab\x1b[4;1Hcd"
    assert with_fewer_codes("\x1b[3;1Hab\n\x1b[?25l") == "\x1b[3;1Hab\n\x1b[?25l"
