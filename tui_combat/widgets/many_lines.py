"""The players' turn order of a mass battle: a long list of lines that scrolls itself and redraws, of the rows on
the screen, only the cells that differ from what the terminal shows there.

Inside a scrolling container, a list moved to a new page is drawn whole: every row in sight written again with
its colour codes, though a new page of orcs differs from the last in a digit a row ("Orc 2001" where "Orc 2501"
was: 3.4 KB for a next turn in a fight of 10,000). :class:`ManyLines` is its own scroll view: it remembers the
row it drew at each line of the screen, and after an update or a scroll (or both, in one
:meth:`~ManyLines.compared_once`) marks dirty of each line only the cells between the first and the last that
differ from it.

Each line of the list is drawn once and kept while it stays the same; a line that fits on one row is drawn
only when it comes into sight, and a :class:`~tui_combat.widgets.lines.LaterLine` is not even made until then:
an update of 2,000 lines draws the twenty in sight, and finds which changed by identity first, so that a caller
that keeps its unchanged lines costs nothing for them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from itertools import repeat
from operator import is_

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.strip import Strip

from tui_combat.widgets.lines import JoinedLines, LaterLine, Line, Row, changed_span, text_of
from tui_combat.widgets.scroll_thumb import ThumbMovesAlone


class ManyLines(ThumbMovesAlone):
    """Shown with :meth:`show_lines`; scrolled as any scroll view (``scroll_to``, the wheel, the bar)."""

    DEFAULT_CSS = """
    ManyLines { height: 1fr; }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._lines: list[Line] = []
        self._same: dict[int, tuple[Line, list[Row]]] = {}
        self._kept_for: tuple[int, Style] | None = None
        self._drawn_for: tuple[int, Style] | None = None
        """The width and base style the rows were laid out for."""
        self._rows: list[Row] = []
        """Each row as drawn, or the one-row line it shows while not yet drawn."""
        self._row_lines: list[Line] = []
        """The line each row shows."""
        self._one_row_each = False
        """Each line takes one row (the rows are the lines, in their order)."""
        self._shown: dict[int, Strip] = {}
        """What the terminal shows at each line of the widget's screen, as last drawn there."""
        self._batching = 0
        self._joined = JoinedLines()
        self.lines_drawn = 0
        """How many lines were drawn into rows; for tests."""
        self.lines_looked_at = 0
        """How many lines given were looked at when laid out (not passed over as the very line of that row
        last time); for tests."""
        self.cells_redrawn = 0
        """How many cells updates and scrolls marked dirty, in all; for tests."""

    @property
    def lines(self) -> list[Line]:
        return self._lines

    def render(self) -> Text:
        """The whole list as one text (what ``str()`` of it reads); the screen is drawn from :meth:`render_line`."""
        return Text("\n").join(text_of(line) for line in self._lines)

    @contextmanager
    def compared_once(self) -> Iterator[None]:
        """Lines shown and a scroll inside it are compared with the screen once, at its end: each cell that
        differs marked dirty once."""
        self._batching += 1
        try:
            yield
        finally:
            self._batching -= 1
            if not self._batching:
                self._redraw_in_sight()

    def show_lines(self, lines: list[Line]) -> None:
        """Show ``lines``: of the rows in sight, the cells that changed are redrawn, nothing else."""
        if len(lines) == len(self._lines) and (all(map(is_, lines, self._lines)) or lines == self._lines):
            return
        self._lines = lines
        if self._drawn_for is None or not self.is_mounted:
            self.refresh()
            return
        width, style = self._drawn_for
        old, old_lines = self._rows, self._row_lines
        new = self._lay_out(width, style)
        if len(new) == len(old):  # a line in sight given anew that looks the same: its row as drawn
            top = self.scroll_offset.y
            for index in range(max(top, 0), min(top + self.scrollable_content_region.height, len(new))):
                before, after = old[index], new[index]
                if isinstance(before, Strip) and not isinstance(after, Strip):
                    if text_of(after) == text_of(old_lines[index]):
                        new[index] = before
        self._rows = new
        self._set_height()
        if not self._batching:
            self._redraw_in_sight()

    def lines_scrolled(self, old_top: int) -> None:
        if not self._batching:
            self._redraw_in_sight()

    def on_resize(self, event: events.Resize) -> None:
        self._shown.clear()  # (all drawn again)
        self._lines_at(self.scrollable_content_region.width)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._shown.clear()

    # -- drawing ---------------------------------------------------------------------------------------
    def _set_height(self) -> None:
        size = Size(self._drawn_for[0] if self._drawn_for else 0, len(self._rows))
        if size != self.virtual_size:
            self.virtual_size = size

    def _lines_at(self, width: int) -> None:
        style = self.rich_style
        if self._drawn_for != (width, style):
            self._drawn_for = (width, style)
            self._rows = self._lay_out(width, style)
            self._shown.clear()
            self._set_height()

    def _redraw_in_sight(self) -> None:
        """Mark dirty, of each line of the screen, the cells that differ from what the terminal shows there."""
        if self._drawn_for is None or not self.is_mounted:
            return
        region = self.scrollable_content_region
        width, top = region.width, self.scroll_offset.y
        dirty = []
        for y in range(region.height):
            shown = self._shown.get(y)
            if shown is None:
                dirty.append(Region(0, y, width, 1))
                continue
            index = top + y
            now = self._row(index) if index < len(self._rows) else Strip.blank(width, self.rich_style)
            span = changed_span(shown, now, width) if shown.cell_length == now.cell_length else (0, width)
            if span is not None:
                dirty.append(Region(span[0], y, span[1] - span[0], 1))
                self.cells_redrawn += span[1] - span[0]
        if dirty:
            self.refresh(*dirty)

    def _row(self, index: int) -> Strip:
        """Row ``index`` drawn (kept drawn in the rows, and for its line while it is given again)."""
        rows = self._rows
        row = rows[index]
        if isinstance(row, Strip):
            return row
        assert self._drawn_for is not None
        width, style = self._drawn_for
        drawn = self._draw_line(text_of(row), width, style)[0]
        rows[index] = drawn
        kept = self._same.get(id(row))
        if kept is not None and kept[0] is row and len(kept[1]) == 1 and kept[1][0] is row:
            kept[1][0] = drawn
        return drawn

    def _draw_line(self, line: Text, width: int, style: Style) -> list[Strip]:
        self.lines_drawn += 1
        console = self.app.console
        options = console.options.update_width(max(width, 1))
        return [
            Strip(Segment.apply_style(row, style)).crop_extend(0, width, style)
            for row in console.render_lines(line, options, pad=False)
        ]

    @staticmethod
    def _fits(line: Line, width: int) -> bool:
        """Whether ``line`` takes one row, not drawn."""
        if isinstance(line, LaterLine):
            return line.cells <= width
        return "\n" not in line.plain and (line.no_wrap or line.cell_len <= width)

    def _lay_out(self, width: int, style: Style) -> list[Row]:
        """The rows of the lines: those kept from last time for the very lines given again, a line that fits on
        one row as itself (drawn when it comes into sight), the others drawn now."""
        again = self._laid_out_again(width, style)
        if again is not None:
            return again
        if self._kept_for != (width, style):
            self._same, self._kept_for = {}, (width, style)
        same: dict[int, tuple[Line, list[Row]]] = {}  # (a line's rows, drawn or not)
        rows: list[Row] = []
        row_lines: list[Line] = []
        earlier = self._same
        for line in self._lines:
            known = earlier.get(id(line))
            if known is not None and known[0] is line:  # the very line given last time (its caller kept it)
                drawn = known[1]
            else:
                self.lines_looked_at += 1
                drawn = [line] if self._fits(line, width) else list(self._draw_line(text_of(line), width, style))
            same[id(line)] = (line, drawn)
            rows.extend(drawn)
            row_lines.extend(repeat(line, len(drawn)))
        self._same = same  # only what is shown now is kept
        self._row_lines = row_lines
        self._one_row_each = len(rows) == len(self._lines)
        return rows

    def _laid_out_again(self, width: int, style: Style) -> list[Row] | None:
        """The rows when every line took one row and as many lines are given again, each new one fitting on a
        row: the rows of last time but for the lines given anew, only those looked at. None otherwise."""
        lines, old_lines = self._lines, self._row_lines
        if not self._one_row_each or self._kept_for != (width, style) or len(lines) != len(old_lines):
            return None
        changed = [index for index, same in enumerate(map(is_, lines, old_lines)) if not same]
        self.lines_looked_at += len(changed)
        for index in changed:
            line = lines[index]
            if line.cells > width if isinstance(line, LaterLine) else not self._fits(line, width):
                return None
        rows = list(self._rows)
        for index in changed:
            rows[index] = lines[index]
        self._row_lines = list(lines)
        return rows

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines with their padding, each with as few pieces as it looks (see :func:`joined`)."""
        return self._joined(super().render_lines(crop))

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        self._lines_at(width)
        index = self.scroll_offset.y + y
        strip = self._row(index) if 0 <= index < len(self._rows) else Strip.blank(width, self.rich_style)
        self._shown[y] = strip
        return strip
