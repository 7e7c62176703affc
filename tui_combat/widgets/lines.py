"""Text that redraws only the cells that changed.

A Textual ``Static`` rewrites every cell of every line it has on each update: the phase bar's one line is
some 600 bytes of colour codes, sent again when only "▶ 7" became "▶ 3". :class:`TextLines` keeps the
lines it drew; an update compares each new line with the old one and marks dirty only the run of cells
between the first and the last that differ. The screen is laid out again only when the number of lines
changes.

What Textual then writes starts at the left edge of the widget (it never cuts a line short on the left)
and sends every piece of text with its whole colour code and a reset: :func:`joined` draws each line with
as few pieces as it looks, which the turn list uses too.

The text is always a Rich ``Text`` built by the caller, never markup: a combatant called ``Raf [/]`` shows
as it is.
"""

from __future__ import annotations

from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.strip import Strip
from textual.widget import Widget

from tui_combat.widgets.plain_lines import FinishedLines, plain_look

BLANK_SHOWS = ("underline", "underline2", "strike", "overline", "reverse", "frame", "encircle")
"""Attributes that draw something on a blank cell (a bold or an italic blank looks like any other)."""


ATTRIBUTES = (
    "bold",
    "dim",
    "italic",
    "underline",
    "blink",
    "blink2",
    "reverse",
    "conceal",
    "strike",
    "underline2",
    "frame",
    "encircle",
    "overline",
)


@lru_cache(maxsize=4096)
def _look(style: Style | None) -> tuple[object, ...]:
    """What the terminal is sent for ``style``: its colours, the attributes it sets (an attribute set off
    sends what an unset one does), its link."""
    if style is None:
        return (None, None, (), None)
    return (
        style.color,
        style.bgcolor,
        tuple(attribute for attribute in ATTRIBUTES if getattr(style, attribute)),
        style.link,
    )


def _blank_look(style: Style | None) -> tuple[object, ...] | None:
    """How a blank cell in ``style`` looks (its background), or None when more of the style shows on it."""
    if style is None:
        return (None, None)
    if any(getattr(style, attribute) for attribute in BLANK_SHOWS):
        return None
    return style.bgcolor, style.link


@lru_cache(maxsize=4096)
def _meta_but_position(style: Style | None) -> dict[str, object]:
    """What Textual keeps in a style's meta (the row a click picks …) but where its text starts (never
    changed: it is shared)."""
    if style is None:
        return {}
    values = style.meta
    values.pop("offset", None)
    return values


def _joined_style(first: Segment, second: Segment) -> tuple[bool, Style | None]:
    """Whether ``first`` and ``second`` can be drawn as one piece, and in which style. A blank piece takes on
    the look of its neighbour when it would look the same (a bold blank is a blank), and its meta when it
    has none (the padding beside a row: a click on it picks that row)."""
    if first.control or second.control:
        return False, None
    first_style, second_style = first.style, second.style
    first_meta, second_meta = _meta_but_position(first_style), _meta_but_position(second_style)
    same_meta = first_meta == second_meta
    if same_meta and _look(first_style) == _look(second_style):
        return True, first_style
    second_blank = _blank_look(second_style) if not second.text.strip(" ") else None
    if second_blank is not None and (same_meta or not second_meta) and second_blank == _blank_look(first_style):
        return True, first_style
    first_blank = _blank_look(first_style) if not first.text.strip(" ") else None
    if first_blank is not None and (same_meta or not first_meta) and first_blank == _blank_look(second_style):
        return True, second_style
    return False, None


def joined(strip: Strip) -> Strip:
    """``strip`` drawn with as few pieces as it looks: Textual sends every piece with its whole colour code
    (some 40 bytes) and a reset, so "  Orc ×194" and the blank after it, made of three pieces that look
    alike, would cost three codes where one does. Only for a widget whose text cannot be selected with
    the mouse (a joined piece keeps the text position of its first part only)."""
    segments = list(strip)
    if len(segments) < 2:
        return strip
    merged = [segments[0]]
    for segment in segments[1:]:
        last = merged[-1]
        joinable, style = _joined_style(last, segment)
        if joinable:
            merged[-1] = Segment(last.text + segment.text, style)
        else:
            merged.append(segment)
    return strip if len(merged) == len(segments) else Strip(merged, strip.cell_length)


class JoinedLines:
    """:func:`joined` of the lines a widget renders, kept while Textual hands back the same lines: its styles
    cache keeps each drawn line until the widget is marked dirty, and a frame renders whole every widget that
    the box around its changes overlaps (the log beneath a changed card), though most of its lines did not
    change."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[Strip, Strip]] = {}

    def __call__(self, strips: list[Strip]) -> list[Strip]:
        kept: dict[int, tuple[Strip, Strip]] = {}
        lines = []
        for strip in strips:
            pair = self._kept.get(id(strip))
            if pair is None or pair[0] is not strip:
                pair = (strip, joined(strip))
            kept[id(strip)] = pair
            lines.append(pair[1])
        self._kept = kept
        return lines


def _entries(text: str) -> int:
    """How many cells ``text`` takes, one at least for each character (see :func:`_runs`)."""
    if text.isascii():
        return len(text)
    return sum(max(cell_len(character), 1) for character in text)


PLACEHOLDER = "\0"
"""Stands for a cell no character starts in: the second of a wide character, or past the end of a line."""


def _runs(pieces: list[Segment], width: int) -> tuple[list[tuple[str, Style | None]], int]:
    """``pieces`` as runs of cells, one character a cell (a wide character's second cell a
    :data:`PLACEHOLDER`), each with its style, blank cells up to ``width`` after them; and how many cells."""
    runs: list[tuple[str, Style | None]] = []
    cells = 0
    for text, style, _control in pieces:
        if not text.isascii():
            text = "".join(character + PLACEHOLDER * (cell_len(character) - 1) for character in text)
        if text:
            runs.append((text, style))
            cells += len(text)
    if cells < width:
        runs.append((PLACEHOLDER * (width - cells), None))
        cells = width
    return runs, cells


def _alike(before: list[tuple[str, Style | None]], after: list[tuple[str, Style | None]]) -> int:
    """How many cells from the start of two runs of cells are alike (the same character in the same style): a
    stretch of the two in the same style is compared as one string."""
    cell = first = second = at_first = at_second = 0
    while first < len(before) and second < len(after):
        first_text, first_style = before[first]
        second_text, second_style = after[second]
        if first_style != second_style:
            return cell
        count = min(len(first_text) - at_first, len(second_text) - at_second)
        old, new = first_text[at_first : at_first + count], second_text[at_second : at_second + count]
        if old != new:
            return cell + next(index for index in range(count) if old[index] != new[index])
        cell, at_first, at_second = cell + count, at_first + count, at_second + count
        if at_first == len(first_text):
            first, at_first = first + 1, 0
        if at_second == len(second_text):
            second, at_second = second + 1, 0
    return cell


def _reversed(runs: list[tuple[str, Style | None]]) -> list[tuple[str, Style | None]]:
    return [(text[::-1], style) for text, style in reversed(runs)]


def changed_span(old: Strip, new: Strip, width: int) -> tuple[int, int] | None:
    """The cells ``[start, end)`` of a line that differ between ``old`` and ``new``; None when none do."""
    if old is new or old == new:
        return None
    before_pieces, after_pieces = list(old), list(new)
    # Pieces alike at either end are passed over whole: only the cells between are compared.
    head, skipped = 0, 0
    while head < min(len(before_pieces), len(after_pieces)) and before_pieces[head] == after_pieces[head]:
        skipped += _entries(before_pieces[head].text)
        head += 1
    tail = 0
    if old.cell_length == new.cell_length:
        while (
            tail < min(len(before_pieces), len(after_pieces)) - head
            and before_pieces[-1 - tail] == after_pieces[-1 - tail]
        ):
            tail += 1
    pad = max(width - skipped, 0) if not tail else 0
    before, before_cells = _runs(before_pieces[head : len(before_pieces) - tail], pad)
    after, after_cells = _runs(after_pieces[head : len(after_pieces) - tail], pad)
    length = max(before_cells, after_cells)
    if before_cells < length:
        before.append((PLACEHOLDER * (length - before_cells), None))
    if after_cells < length:
        after.append((PLACEHOLDER * (length - after_cells), None))
    start = _alike(before, after)
    if start == length:
        return None
    end = length - _alike(_reversed(before), _reversed(after))
    return skipped + start, skipped + end


DRAWN_KEPT = 16
"""Texts whose lines each :class:`TextLines` keeps."""


class TextLines(Widget):
    """Shows a Rich ``Text`` (wrapped at the widget's width, or cut with "…" when it is ``no_wrap``)."""

    DEFAULT_CSS = """
    TextLines { height: auto; }
    """
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=True, repaint=False)
    """Laid out again when it changes, not drawn again (see :mod:`tui_combat.widgets.containers`): new lines
    redraw it themselves."""

    def __init__(
        self, text: Text | str = "", *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._content_text = text if isinstance(text, Text) else Text(text)
        self._strips: list[Strip] = []
        self._drawn_for: tuple[int, Style] | None = None
        """The width and base style the strips were drawn with."""
        self.cells_redrawn = 0
        """How many cells updates marked dirty, in all; for tests."""
        self._joined = JoinedLines()
        self._finished = FinishedLines()
        self._drawn: dict[tuple[object, ...], list[Strip]] = {}
        """The lines of texts drawn lately, by what they hold: a turn stepped back and forth, a card shown
        again, draw none anew."""
        self.texts_drawn = 0
        """How many texts were drawn into lines (not found among those drawn lately); for tests."""

    @property
    def text(self) -> Text:
        return self._content_text

    def render(self) -> Text:
        """The whole text (what ``str()`` of it reads); the screen is drawn line by line from :meth:`render_line`."""
        return self._content_text

    def show(self, text: Text) -> None:
        """Show ``text``: nothing is redrawn when it is what is shown; else the cells that changed."""
        if text == self._content_text:
            return
        self._content_text = text
        self._redraw_changed()

    def _redraw_changed(self) -> None:
        """Draw the text again and mark dirty the cells that changed (the whole widget when its height did)."""
        if self._drawn_for is None or not self.is_mounted:
            self.refresh(layout=True)
            return
        width, style = self._drawn_for
        old, new = self._strips, self._draw(width, style)
        self._strips = new
        if len(new) != len(old):
            self.refresh(layout=True)
            return
        regions = []
        for y, (before, after) in enumerate(zip(old, new)):
            span = changed_span(before, after, width)
            if span is not None:  # (``refresh`` takes regions of the content: Textual adds the padding)
                regions.append(Region(span[0], y, span[1] - span[0], 1))
                self.cells_redrawn += span[1] - span[0]
        if regions:
            self.refresh(*regions)

    def _draw(self, width: int, style: Style) -> list[Strip]:
        text = self._content_text
        key = (
            text.plain,
            tuple(text.spans),
            text.style,
            text.justify,
            text.overflow,
            text.no_wrap,
            text.end,
            width,
            style,
        )
        strips = self._drawn.get(key)
        if strips is None:
            self.texts_drawn += 1
            console = self.app.console
            lines = console.render_lines(text, console.options.update_width(max(width, 1)), pad=False)
            strips = [Strip(Segment.apply_style(line, style)).crop_extend(0, width, style) for line in lines]
            if len(self._drawn) >= DRAWN_KEPT:
                del self._drawn[next(iter(self._drawn))]
            self._drawn[key] = strips
        return strips

    def _lines_at(self, width: int) -> list[Strip]:
        style = self.rich_style
        if self._drawn_for != (width, style):
            self._drawn_for = (width, style)
            self._strips = self._draw(width, style)
        return self._strips

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(len(self._lines_at(width)), 1) if self._content_text.plain else 0

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines with their padding, each with as few pieces as it looks (see :func:`joined`); finished
        here while the widget looks plain (see :mod:`~tui_combat.widgets.plain_lines`)."""
        look = plain_look(self)
        if look is None:
            return self._joined(super().render_lines(crop))
        return self._joined(self._finished.lines(crop, look, self.render_line))

    def render_line(self, y: int) -> Strip:
        width = self.content_region.width
        lines = self._lines_at(width)
        return lines[y] if y < len(lines) else Strip.blank(width, self.rich_style)


class LaterLine:
    """A line of :class:`~tui_combat.widgets.many_lines.ManyLines` made only when it is needed (it comes into
    sight, or it is wider than a row): ``cells``, how wide it is, says beforehand whether it fits on one row. Made
    once (by :meth:`make`, which a subclass gives), then kept."""

    __slots__ = ("_text", "cells")

    def __init__(self, cells: int) -> None:
        self.cells = cells
        self._text: Text | None = None

    def make(self) -> Text:
        raise NotImplementedError

    def text(self) -> Text:
        if self._text is None:
            self._text = self.make()
        return self._text


Line = Text | LaterLine
Row = Strip | Text | LaterLine
"""A row as drawn, or the one-row line it shows while not yet drawn."""


def text_of(line: Line) -> Text:
    """The text of a line (a :class:`LaterLine` made now)."""
    return line.text() if isinstance(line, LaterLine) else line
