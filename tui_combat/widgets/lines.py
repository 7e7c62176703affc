"""Text that redraws only the cells that changed.

A Textual ``Static`` rewrites every cell of every line it has on each update: the phase bar's one line is
some 600 bytes of colour codes, sent again when only "▶ 7" became "▶ 3". :class:`TextLines` keeps the
lines it drew; an update compares each new line with the old one and marks dirty only the run of cells
between the first and the last that differ. The screen is laid out again only when the number of lines
changes.

The text is always a Rich ``Text`` built by the caller, never markup: a combatant called ``Raf [/]`` shows
as it is.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

Cell = tuple[str, Style | None]


def _cells(strip: Strip, width: int) -> list[Cell]:
    """One entry per terminal cell (a wide character takes its own entry and an empty one after it)."""
    cells: list[Cell] = []
    for segment in strip:
        for character in segment.text:
            cells.append((character, segment.style))
            cells.extend(("", segment.style) for _ in range(cell_len(character) - 1))
    cells.extend(("", None) for _ in range(width - len(cells)))
    return cells


def changed_span(old: Strip, new: Strip, width: int) -> tuple[int, int] | None:
    """The cells ``[start, end)`` of a line that differ between ``old`` and ``new``; None when none do."""
    before, after = _cells(old, width), _cells(new, width)
    length = max(len(before), len(after))
    before.extend(("", None) for _ in range(length - len(before)))
    after.extend(("", None) for _ in range(length - len(after)))
    start = 0
    while start < length and before[start] == after[start]:
        start += 1
    if start == length:
        return None
    end = length
    while end > start and before[end - 1] == after[end - 1]:
        end -= 1
    return start, end


class TextLines(Widget):
    """Shows a Rich ``Text`` (wrapped at the widget's width, or cut with "…" when it is ``no_wrap``)."""

    DEFAULT_CSS = """
    TextLines { height: auto; }
    """

    def __init__(self, text: Text | str = "", *, name: str | None = None, id: str | None = None,  # noqa: A002
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._content_text = text if isinstance(text, Text) else Text(text)
        self._strips: list[Strip] = []
        self._drawn_for: tuple[int, Style] | None = None
        """The width and base style the strips were drawn with."""
        self.cells_redrawn = 0
        """How many cells updates marked dirty, in all; for tests."""

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
        if self._drawn_for is None or not self.is_mounted:
            self.refresh(layout=True)
            return
        width, style = self._drawn_for
        old, new = self._strips, self._draw(width, style)
        self._strips = new
        if len(new) != len(old):
            self.refresh(layout=True)
            return
        gutter = self.styles.gutter
        regions = []
        for y, (before, after) in enumerate(zip(old, new)):
            span = changed_span(before, after, width)
            if span is not None:
                regions.append(Region(gutter.left + span[0], gutter.top + y, span[1] - span[0], 1))
                self.cells_redrawn += span[1] - span[0]
        if regions:
            self.refresh(*regions)

    def _draw(self, width: int, style: Style) -> list[Strip]:
        console = self.app.console
        lines = console.render_lines(self._content_text, console.options.update_width(max(width, 1)), pad=False)
        return [Strip(Segment.apply_style(line, style)).crop_extend(0, width, style) for line in lines]

    def _lines_at(self, width: int) -> list[Strip]:
        style = self.rich_style
        if self._drawn_for != (width, style):
            self._drawn_for = (width, style)
            self._strips = self._draw(width, style)
        return self._strips

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(len(self._lines_at(width)), 1) if self._content_text.plain else 0

    def render_line(self, y: int) -> Strip:
        width = self.content_region.width
        lines = self._lines_at(width)
        return lines[y] if y < len(lines) else Strip.blank(width, self.rich_style)
