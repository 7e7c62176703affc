"""A scroll bar whose thumb moving redraws the cells it moved over, not the whole bar.

Textual redraws every row of a vertical scroll bar when its position changes: in a turn list of 21 rows on the
screen, a page down costs 21 cells of the bar of some 44 bytes each (a full colour code, the move to the cell),
though only the rows the thumb left and those it came to look different. :class:`ThumbMovesAlone` works out the
bar before and after, and redraws the rows that differ (their mouse actions as well as their look: a row above the
thumb pages up, one below it pages down).
"""

from __future__ import annotations

from math import ceil

from rich.segment import Segment
from textual.geometry import Region
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar


def bar_rows(bar: ScrollBar) -> list[Segment]:
    """The rows of a vertical scroll bar as it draws them now (one segment each; the colours left out: the same
    before and after a move)."""
    window_size = bar.window_size if bar.window_size < bar.window_virtual_size else 0
    segments = bar.renderer.render_bar(
        size=bar.size.height,
        virtual_size=ceil(bar.window_virtual_size),
        window_size=ceil(window_size),
        position=bar.position,
        thickness=1,
        vertical=True,
    )
    return list(segments.segments)


class ThumbMovesAlone(ScrollView):
    """A scroll view whose vertical scroll bar, when the view scrolls, redraws only the rows that changed."""

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        if not self.show_vertical_scrollbar:
            super().watch_scroll_y(old_value, new_value)
            return
        bar = self.vertical_scrollbar
        before = bar_rows(bar)
        bar.set_reactive(ScrollBar.position, bar.validate_position(new_value))
        after = bar_rows(bar)
        if len(before) != len(after):
            bar.refresh()
        else:
            width = bar.size.width
            moved = enumerate(zip(before, after, strict=True))
            changed = [Region(0, y, width, 1) for y, (was, now) in moved if was != now]
            if changed:
                bar.refresh(*changed)
        if round(old_value) != round(new_value):
            self.lines_scrolled(round(old_value))

    def lines_scrolled(self, old_top: int) -> None:
        """The view scrolled from line ``old_top``: every line on the screen redrawn, not the bar beside them
        (Textual: both). A subclass that knows the lines it drew may redraw fewer."""
        self.refresh(Region(0, 0, self.scrollable_content_region.width, self.size.height))
