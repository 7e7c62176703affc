"""A scroll bar whose thumb moving redraws the cells it moved over, not the whole bar, and whose cells are made
without Rich's console.

Textual redraws every row of a vertical scroll bar when its position changes: in a turn list of 21 rows on the
screen, a page down costs 21 cells of the bar of some 44 bytes each (a full colour code, the move to the cell),
though only the rows the thumb left and those it came to look different. :class:`ThumbMovesAlone` works out the
bar before and after, and redraws the rows that differ (their mouse actions as well as their look: a row above the
thumb pages up, one below it pages down).

Textual draws a scroll bar as a Rich renderable, through Rich's console, every row of it at each redraw of any
(some 0.8 ms of each key that scrolls the turn list a row). :class:`BarStrips`, the app's renderer of every scroll
bar (``ScrollBar.renderer``, Textual's way to change how they are drawn), makes the same cells as Textual's
``ScrollBarRender`` straight from its ``render_bar``.
"""

from __future__ import annotations

from itertools import islice
from math import ceil

from rich.color import Color
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.css.styles import RulesMap
from textual.geometry import Region
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual


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


class BarStrips(ScrollBarRender, Visual):
    """Textual's scroll bar renderer as a Textual visual: the rows of ``render_bar``, each over the widget's style
    as Textual lays a renderable's cells over it, made into lines without Rich's console."""

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        bar_style = self.style if isinstance(self.style, RichStyle) else RichStyle.parse(str(self.style))
        size, thickness = (height or 0, width) if self.vertical else (width, height or 1)
        bar = self.render_bar(
            size=size,
            window_size=self.window_size,
            virtual_size=self.virtual_size,
            position=self.position,
            vertical=self.vertical,
            thickness=thickness,
            back_color=bar_style.bgcolor or Color.parse("#555555"),
            bar_color=bar_style.color or Color.parse("bright_magenta"),
        )
        if self.vertical:
            rows: list[list[Segment]] = [[segment] for segment in bar.segments]
        else:
            rows = list(Segment.split_lines(bar.segments))
        base = style.rich_style
        # (each row is ``width`` cells: the bar's thickness across, or one cell per column along)
        return [
            Strip([Segment(text, base + row_style if base else row_style) for text, row_style, _ in row])
            for row in islice(rows, height)
        ]

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.thickness if self.vertical else container_width

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.virtual_size if self.vertical else self.thickness
