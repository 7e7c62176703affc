"""Scrolling widgets that redraw no more than they must: a new layout of the screen (a card that grew a
line) should not redraw the scroll bars of every list on it."""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Iterable

from rich.cells import cell_len
from rich.segment import Segment
from rich.text import Text
from textual.events import Resize
from textual.geometry import Size
from textual.strip import Strip


def _import_rich_log() -> None:
    """Import Textual's ``RichLog`` without ``attrs``: it imports Rich's pretty printer, which imports
    ``attrs`` when it is installed, to print its classes (some 6 ms of a start on a session; the log is only
    ever given text). Done before anything else could import ``attrs`` (nothing in the app does)."""
    if "rich.pretty" in sys.modules or "attr" in sys.modules:
        return
    sys.modules["attr"] = None  # type: ignore[assignment]  # ``import attr`` fails: Rich goes without
    try:
        import rich.pretty  # noqa: F401
    finally:
        del sys.modules["attr"]


_import_rich_log()
from textual.widgets import RichLog  # noqa: E402


class SteadyScrollBars:
    """For a scrolling widget: a new layout of the screen that leaves its size as it was does not redraw
    its scroll bars. (Textual's ``ScrollView`` compares the container size it was given with the one it
    keeps, which differ by the gutter, so every layout of the screen redraws the bars of every list.)"""

    _sizes_seen: tuple[Size, Size, Size] | None = None

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        sizes = (size, virtual_size, container_size)
        if sizes == self._sizes_seen:
            return False
        self._sizes_seen = sizes
        return bool(super()._size_updated(size, virtual_size, container_size, layout))  # type: ignore[misc]


class RoundLog(SteadyScrollBars, RichLog):
    """The roll log: lines are appended, never redrawn all at once, and the log follows the newest; when
    its width changes it wraps what it holds again at the new width (``RichLog`` wraps a line once, when
    it is written).

    The lines are plain text (never markup), so the log draws them itself rather than through
    ``RichLog.write``, which has Rich measure and wrap all of them: a line that fits is drawn as it is, and
    only a longer one is wrapped by Rich. Opening a long fight fills the log with its last
    :attr:`max_lines` entries before the first frame: 200 lines through ``write`` took some 9 ms."""

    _texts: deque[str] | None = None
    _wrapped_at = 0
    """The width the lines were drawn at; 0 until the log's size is known (they are drawn then)."""

    def add_lines(self, text: str) -> None:
        """Append ``text`` (lines separated by newlines) and scroll to it."""
        if self._texts is None:
            self._texts = deque(maxlen=self.max_lines)
        lines = text.split("\n")
        self._texts.extend(lines)
        if self._wrapped_at:
            self._draw(lines)

    def on_resize(self, event: Resize) -> None:
        width = self.scrollable_content_region.width
        if not width:
            return
        if width != self._wrapped_at:  # the first time, or wrapped again at a new width
            drawn, self._wrapped_at = self._wrapped_at, width
            if drawn:
                self.clear()
            self._draw(self._texts or ())

    def _draw(self, texts: Iterable[str]) -> None:
        """Append the lines of ``texts`` at the log's width (a longer one wrapped as Rich wraps it)."""
        width = max(self._wrapped_at, self.min_width)
        console = self.app.console
        options = console.options.update_width(width)
        strips: list[Strip] = []
        for text in texts:
            cells = cell_len(text)
            if cells <= width and text.isprintable():
                strips.append(Strip([Segment(text)], cells))
                continue
            rich_text = Text(text)
            rich_text.expand_tabs()
            strips.extend(Strip(line) for line in console.render_lines(rich_text, options, pad=False))
        if not strips:
            return
        lines = self.lines
        lines.extend(strips)
        if self.max_lines is not None and len(lines) > self.max_lines:
            self._start_line += len(lines) - self.max_lines
            del lines[: len(lines) - self.max_lines]
            self.refresh()
        self._widest_line_width = max(self._widest_line_width, *(strip.cell_length for strip in strips))
        self.virtual_size = Size(self._widest_line_width, len(lines))
        # Scrolled at once when the log has its size: scrolled after the next refresh, it drew every line
        # twice (the new size at the old place, then at the new one).
        self.scroll_end(animate=False, immediate=bool(self.size.height), x_axis=False)

    def forget(self) -> None:
        """Empty the log and what it would wrap again."""
        self.clear()
        if self._texts is not None:
            self._texts.clear()
