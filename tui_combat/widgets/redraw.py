"""Scrolling widgets that redraw no more than they must: a new layout of the screen (a card that grew a
line) should not redraw the scroll bars of every list on it."""

from __future__ import annotations

from collections import deque

from textual.events import Resize
from textual.geometry import Size
from textual.widgets import RichLog


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
    it is written)."""

    _texts: deque[str] | None = None
    _wrapped_at = 0

    def add_lines(self, text: str) -> None:
        """Append ``text`` (lines separated by newlines) and scroll to it."""
        if self._texts is None:
            self._texts = deque(maxlen=self.max_lines)
        self._texts.extend(text.split("\n"))
        self.write(text, scroll_end=True)

    def on_resize(self, event: Resize) -> None:
        width = event.size.width
        if self._size_known and width and self._wrapped_at and width != self._wrapped_at and self._texts:
            self.clear()
            self.write("\n".join(self._texts), scroll_end=True)
        if width:
            self._wrapped_at = width
        super().on_resize(event)

    def forget(self) -> None:
        """Empty the log and what it would wrap again."""
        self.clear()
        if self._texts is not None:
            self._texts.clear()
