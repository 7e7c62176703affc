"""Scrolling widgets that redraw no more than they must: a new layout of the screen (a card that grew a
line) should not redraw the scroll bars of every list on it."""

from __future__ import annotations

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
    """The roll log: lines are appended, never redrawn all at once."""
