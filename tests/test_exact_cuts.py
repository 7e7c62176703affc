"""A frame of changes is written from the first cell that changed (``tui_combat/textual_ext/exact_cuts.py``): on a
terminal that already shows the line as it was, the line then shows as it is now, whatever characters it holds
(wide ones, marks that combine with the character before them), and never from a cell inside a character."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from tui_combat.textual_ext.exact_cuts import from_the_first_change, whole_cells

UNITS = ["a", "b", " ", "Ж", "ё", "🔒", "中", "e\u0301", "и\u0306"]
"""What a cell or two of a line may hold: one cell, two (a wide character), a character and a mark on it."""
STYLES = [Style(color="red"), Style(color="cyan", bold=True), Style()]
MOVE = re.compile(r"\x1b\[(\d+);(\d+)H")
SGR = re.compile(r"\x1b\[[0-9;]*m")


class Cells:
    """A terminal's line as a terminal keeps it: a wide character takes its cell and the next (""), a mark goes
    on the character before it, and writing into half of a wide character blanks the other half."""

    def __init__(self, width: int) -> None:
        self.cells = [" "] * width
        self.x = 0

    def write(self, output: str) -> None:
        for piece in re.split(r"(\x1b\[\d+;\d+H)", SGR.sub("", output)):
            move = MOVE.fullmatch(piece)
            if move:
                self.x = int(move.group(2)) - 1
                continue
            for character in piece:
                self.put(character)

    def put(self, character: str) -> None:
        width = cell_len(character)
        if width == 0:
            self.cells[self.x - 1] += character
            return
        for x in range(self.x, self.x + width):
            if self.cells[x] == "" and x > 0:  # the second half of a wide character: the first half is lost
                self.cells[x - 1] = " "
            if x + 1 < len(self.cells) and self.cells[x + 1] == "" and cell_len(self.cells[x]) == 2:
                self.cells[x + 1] = " "  # the first half of one: the second half is lost
        self.cells[self.x] = character
        if width == 2:
            self.cells[self.x + 1] = ""
        self.x += width


def strip_of(units: list[str], styles: list[int]) -> Strip:
    return Strip([Segment(unit, STYLES[style]) for unit, style in zip(units, styles, strict=True)])


def cells_of(units: list[str]) -> list[str]:
    cells: list[str] = []
    for unit in units:
        cells.append(unit)
        if cell_len(unit) == 2:
            cells.append("")
    return cells


def written(strip: Strip, y: int, x1: int, x2: int) -> str:
    from textual._compositor import ChopsUpdate

    chops = [{}] * y + [{0: strip}]
    update = from_the_first_change(ChopsUpdate(chops, [(y, x1, x2)], [[]] * y + [[strip.cell_length]]))
    return str(update.render_segments(Console(width=80, color_system="truecolor")))


lines = st.lists(st.tuples(st.sampled_from(UNITS), st.integers(0, 2)), min_size=1, max_size=16)


@settings(max_examples=300, deadline=None)
@given(before=lines, data=st.data())
def test_the_line_shows_as_it_is_now(before: list[tuple[str, int]], data: st.DataObject) -> None:
    # The new line: some units of the old one replaced by as many cells of others (a name, a number changed).
    start = data.draw(st.integers(0, len(before) - 1))
    stop = data.draw(st.integers(start + 1, len(before)))
    width = sum(cell_len(unit) for unit, _style in before[start:stop])
    middle = data.draw(st.lists(st.tuples(st.sampled_from(UNITS), st.integers(0, 2)), max_size=8))
    fitting: list[tuple[str, int]] = []
    for unit, style in middle:  # as many cells as those replaced: wide characters too, blanks after
        if sum(cell_len(kept) for kept, _ in fitting) + cell_len(unit) <= width:
            fitting.append((unit, style))
    middle = fitting + [(" ", 0)] * (width - sum(cell_len(unit) for unit, _ in fitting))
    after = before[:start] + middle + before[stop:]
    old_units, old_styles = [unit for unit, _ in before], [style for _, style in before]
    new_units, new_styles = [unit for unit, _ in after], [style for _, style in after]
    old_cells, new_cells = cells_of(old_units), cells_of(new_units)
    changed = [x for x, (old, new) in enumerate(zip(old_cells, new_cells, strict=True)) if old != new]
    if not changed:
        return
    terminal = Cells(len(new_cells) + 2)
    terminal.write(written(strip_of(old_units, old_styles), 0, 0, len(old_cells)))
    # What is marked dirty covers the change, and may begin or end anywhere around it (a region of another widget).
    x1 = data.draw(st.integers(0, changed[0]))
    x2 = data.draw(st.integers(changed[-1] + 1, len(new_cells)))
    output = written(strip_of(new_units, new_styles), 0, x1, x2)
    terminal.write(output)
    assert terminal.cells[: len(new_cells)] == new_cells


def test_a_line_is_cut_at_the_change_not_at_the_widget() -> None:
    old = Strip([Segment("   Orc 47  ", Style(color="white")), Segment("6/8", Style(color="green"))])
    new = Strip([Segment("   Orc 57  ", Style(color="white")), Segment("7/8", Style(color="green"))])
    output = written(new, 4, 7, 12)
    assert SGR.sub("", output) == "\x1b[5;8H57  7"
    terminal = Cells(14)
    terminal.write(written(old, 4, 0, 14))
    terminal.write(output)
    assert "".join(terminal.cells) == "   Orc 57  7/8"


@pytest.mark.parametrize(
    ("text", "cells", "kept"),
    [
        ("abcd", (1, 3), (1, "bc")),
        ("ЖЖЖ", (2, 3), (2, "Ж")),
        ("a🔒b", (2, 3), (1, "🔒")),  # from the second half of the lock: the lock whole
        ("a🔒b", (0, 2), (0, "a🔒")),  # to its first half: the lock whole
        ("ae\u0301b", (2, 3), (2, "b")),
        ("ae\u0301b", (1, 2), (1, "e\u0301")),  # the e with its mark
        ("ab\u0301", (0, 2), (0, "ab\u0301")),
    ],
)
def test_a_cut_never_falls_inside_a_character(text: str, cells: tuple[int, int], kept: tuple[int, str]) -> None:
    first, segments = whole_cells(Strip([Segment(text)]), *cells)
    assert (first, "".join(segment.text for segment in segments)) == kept


def test_a_mark_in_the_next_piece_goes_with_its_character() -> None:
    strip = Strip([Segment("ae", Style(color="red")), Segment("\u0301b", Style(color="cyan"))])
    first, segments = whole_cells(strip, 0, 2)
    assert (first, [segment.text for segment in segments]) == (0, ["ae", "\u0301"])
