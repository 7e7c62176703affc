"""Scroll bars that a layout leaves alone when the widget's size did not change.

Private name of Textual relied on, checked by ``tests/test_textual_ext.py``: ``ScrollView._size_updated``
(its signature, and that it is what a layout calls with the widget's new sizes)."""

from __future__ import annotations

from textual.geometry import Size

from tui_combat.textual_ext import stock_textual


class SteadyScrollBars:
    """For a scrolling widget: a new layout of the screen that leaves its size as it was does not redraw
    its scroll bars. Upstream: Textual's ``ScrollView._size_updated`` compares the container size it was
    given with the one it keeps, which differ by the gutter, so every layout of the screen redraws the bars
    of every list. Off on stock Textual (see :mod:`tui_combat.textual_ext`)."""

    _sizes_seen: tuple[Size, Size, Size] | None = None

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        sizes = (size, virtual_size, container_size)
        if sizes == self._sizes_seen and not stock_textual():
            return False
        self._sizes_seen = sizes
        return bool(super()._size_updated(size, virtual_size, container_size, layout))  # type: ignore[misc]
