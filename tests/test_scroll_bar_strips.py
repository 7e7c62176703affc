"""The app's scroll bars draw the cells Textual's own renderer draws through Rich's console (its RichVisual: the
renderable's segments laid over the widget's style, cut into lines of the bar's width)."""

from __future__ import annotations

from itertools import islice

from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.scrollbar import ScrollBarRender
from textual.style import Style

from tui_combat.widgets.scroll_thumb import BarStrips

LOOKS = [
    RichStyle.parse("#7f7f7f on #1e1e1e"),
    RichStyle.parse("bright_magenta on #555555"),
    RichStyle(),
]
BASES = [Style(), Style.parse("bold #e0e0e0 on #242f38")]


def through_rich(renderer: ScrollBarRender, width: int, height: int, base: Style) -> list[list[Segment]]:
    console = Console(width=width, height=height, color_system="truecolor", force_terminal=True)
    options = console.options.update(width=width, height=height, highlight=False)
    style = base.rich_style
    segments = [
        Segment(text, style + segment_style if style else segment_style, None)
        for text, segment_style, _control in console.render(renderer, options)
    ]
    return [
        list(line)
        for line in islice(Segment.split_and_crop_lines(segments, width, include_new_lines=False, pad=False), height)
    ]


@given(
    size=st.integers(1, 40),
    thickness=st.integers(1, 2),
    virtual_size=st.integers(0, 400),
    window_size=st.integers(0, 60),
    position=st.floats(0, 400, allow_nan=False),
    vertical=st.booleans(),
    look=st.sampled_from(LOOKS),
    base=st.sampled_from(BASES),
)
def test_a_bar_is_drawn_in_the_cells_rich_draws_it_in(
    size: int,
    thickness: int,
    virtual_size: int,
    window_size: int,
    position: float,
    vertical: bool,
    look: RichStyle,
    base: Style,
) -> None:
    window_size = window_size if window_size < virtual_size else 0  # (as a ScrollBar gives it)
    position = min(position, max(virtual_size - window_size, 0))
    arguments = {
        "virtual_size": virtual_size,
        "window_size": window_size,
        "position": position,
        "thickness": thickness,
        "vertical": vertical,
        "style": look,
    }
    width, height = (thickness, size) if vertical else (size, thickness)
    ours = BarStrips(**arguments).render_strips(width, height, base, None)  # type: ignore[arg-type]
    assert [list(strip) for strip in ours] == through_rich(ScrollBarRender(**arguments), width, height, base)
    assert all(strip.cell_length == width for strip in ours)
