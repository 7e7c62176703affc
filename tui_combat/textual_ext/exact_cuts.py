"""A frame of what changed written from the first cell that changed, not from the start of the widget.

Upstream: Textual writes each line of a frame of changes (its ``ChopsUpdate``) from the left edge of the widget
the change lies in up to the end of the change ("TODO: crop to x extents", says its source). A new page of the
turn list, where "Orc 47  6/8" became "Orc 57  7/8", wrote each row from its margin: three times the cells that
changed, with their colour codes; the step bar's "▶ 7" → "▶ 8" wrote the whole bar from the round's number.
:class:`FromTheFirstChange` starts each line at the first cell of the change, unless that cell is the second half
of a wide character or a mark that combines with the character before it: it then starts at that character,
which a terminal would otherwise blank or lose.

The cells left out are those the frame does not change: Textual marks dirty every cell it has to draw, and
writes the rest only because it cuts lines by whole widgets. Private name relied on (checked by
``tests/test_textual_ext.py``): ``textual._compositor.ChopsUpdate``, its ``chops``, ``spans`` and ``chop_ends``
and its ``render_segments``. Nothing on stock Textual (see :mod:`tui_combat.textual_ext`)."""

from __future__ import annotations

import itertools
from typing import Any

from rich.cells import cell_len
from rich.control import Control
from rich.segment import Segment
from textual.strip import Strip

__all__ = ["from_the_first_change", "whole_cells"]

try:
    from textual._compositor import ChopsUpdate
except ImportError:  # (a Textual that moved it: frames are written as it writes them)
    ChopsUpdate = None  # type: ignore[assignment,misc]


def whole_cells(strip: Strip, start: int, stop: int) -> tuple[int, list[Segment]]:
    """The segments of the cells ``[start, stop)`` of a line, widened to whole characters, and the cell they begin
    at: a cut never falls on half of a wide character, nor between a character and a mark that combines with it
    (a terminal blanks the half of a character written over, and a character written anew loses its mark)."""
    kept: list[Segment] = []
    first: int | None = None
    inside = False
    """Whether the character last met is kept (a mark goes with it)."""
    x = 0
    for segment in strip:
        text, style, control = segment
        if control or not text:
            continue
        width = cell_len(text)
        end = x + width
        if x >= stop:  # past the cells: only the marks that go on the last character kept
            marks = "".join(itertools.takewhile(lambda character: not cell_len(character), text))
            if inside and marks:
                kept.append(Segment(marks, style))
            break
        if end <= start and not (width == 0 and inside):
            inside = False
            x = end
            continue
        if start <= x and end <= stop and (not text or cell_len(text[0])):  # wholly inside, from a character
            first = x if first is None else first
            kept.append(segment)
            inside = True
            x = end
            continue
        characters = []
        for character in text:
            character_width = cell_len(character)
            if character_width:
                inside = x + character_width > start and x < stop
                if inside and first is None:
                    first = x
            if inside:
                characters.append(character)
            x += character_width
        if characters:
            kept.append(Segment("".join(characters), style))
    return (start if first is None else first), kept


if ChopsUpdate is not None:

    class FromTheFirstChange(ChopsUpdate):
        """Textual's update of changed spans, each line written from the span's first cell."""

        def render_segments(self, console: Any) -> str:
            sequences: list[str] = []
            append = sequences.append
            move_to = Control.move_to
            last_y = self.spans[-1][0]
            for y, x1, x2 in self.spans:
                for end, (x, strip) in zip(self.chop_ends[y], self.chops[y].items(), strict=False):
                    if strip is None or x > x2 or end <= x1:
                        continue
                    if x2 > x >= x1 and end <= x2:  # (a whole chop, as Textual writes it)
                        append(move_to(x, y).segment.text)
                        append(strip.render(console))
                        continue
                    first, segments = whole_cells(strip, max(x1 - x, 0), min(end, x2) - x)
                    if segments:
                        append(move_to(x + first, y).segment.text)
                        append(Strip(segments).render(console))
                if y != last_y:
                    append("\n")
            return "".join(sequences)

    def from_the_first_change(update: Any) -> Any:
        """``update`` written from the first cell of each change (an update of whole lines as it is)."""
        if type(update) is ChopsUpdate:
            return FromTheFirstChange(update.chops, update.spans, update.chop_ends)
        return update

else:

    def from_the_first_change(update: Any) -> Any:
        return update
