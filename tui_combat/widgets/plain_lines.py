"""The lines of a plainly drawn widget finished without Textual's general path, and kept while they stay the same.

Textual finishes every line a widget draws in its styles cache: the content line fitted to the content's width,
the padding on each side, the border, the outline, tint, opacity and hatching where the widget has them, and
then the app's line filters (each made anew for a new line). Done for every look a widget might have, that is
some 45 µs a line; a turn list that scrolls a page redraws 21 of them. A widget with none of those looks but its
background and its side padding (the turn list) has its lines finished here in a few µs each, the same cells
(a test compares them with Textual's for every theme), and each kept with the content line it was made from, so
a row drawn again as it was (scrolled back into sight) costs a look-up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.color import Color
from textual.filter import LineFilter
from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style
from textual.widget import Widget


class PlainLook(NamedTuple):
    """What finishing a content line of a plainly drawn widget takes."""

    width: int
    content_width: int
    pad_left: int
    pad_right: int
    inner: RichStyle
    """The background of the widget over the one beneath it: the padding's, and a short line's filling."""
    background: Color
    filters: tuple[LineFilter, ...]


def plain_look(widget: Widget) -> PlainLook | None:
    """How ``widget``'s lines are finished, or None when it has more to its look than a background and side
    padding (a border, an outline, top or bottom padding, a title, tint, opacity, text opacity, hatching,
    links): Textual's own path then draws it."""
    styles = widget.styles
    padding = styles.padding
    if (
        widget.BLANK
        or padding.top
        or padding.bottom
        or any(edge for edge, _color in styles.border)
        or any(edge for edge, _color in styles.outline)
        or widget.border_title
        or widget.border_subtitle
        or styles.tint.a
        or styles.text_opacity != 1.0
        or (styles.has_rule("hatch") and styles.hatch != "none")
        or (widget.auto_links and widget.hover_style.link_id)
    ):
        return None
    # Textual's ``background_colors`` and ``opacity``, in one walk up the widget's ancestors rather than two.
    base_background = background = Color(0, 0, 0, 0)
    opacity = 1.0
    for node in reversed(widget.ancestors_with_self):
        node_styles = node.styles
        base_background = background
        opacity *= node_styles.opacity
        background += node_styles.background.tint(node_styles.background_tint).multiply_alpha(opacity)
    if opacity != 1.0:
        return None
    return PlainLook(
        width=widget.region.width,
        content_width=widget.content_region.width,
        pad_left=padding.left,
        pad_right=padding.right,
        inner=Style(background=base_background + background).rich_style,
        background=background,
        filters=tuple(widget.get_line_filters()),
    )


def finished(content: Strip, look: PlainLook) -> Strip:
    """``content`` as Textual's styles cache finishes a content line of a widget that looks as ``look`` says."""
    inner = look.inner
    segments: list[Segment] = list(content.adjust_cell_length(look.content_width, inner))
    if look.pad_left:
        segments.insert(0, Segment(" " * look.pad_left, inner))
    if look.pad_right:
        segments.append(Segment(" " * look.pad_right, inner))
    strip = Strip(segments, look.width)
    for line_filter in look.filters:
        strip = strip.apply_filter(line_filter, look.background)
    return strip


class FinishedLines:
    """Each line of a widget's content, by a key of the widget's choosing (a row), as last finished: kept while
    its content line is the very strip it was finished from, and the look the same."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[Strip, PlainLook, Strip]] = {}

    def lines(self, crop: Region, look: PlainLook, content_line: Callable[[int], Strip], first: int = 0) -> list[Strip]:
        """The lines of ``crop`` (a region of the widget), each made from ``content_line(y)`` and kept under the
        key ``first + y`` (the row a scrolled list shows there), cut to the crop's columns as Textual cuts them."""
        kept, made = self._kept, []
        for y in crop.line_range:
            content = content_line(y)
            line = kept.get(first + y)
            if line is None or line[0] is not content or line[1] != look:
                line = kept[first + y] = (content, look, finished(content, look))
            made.append(line[2])
        if (crop.x, crop.right) == (0, look.width):
            return made
        return [line.crop(crop.x, crop.right) for line in made]

    def clear(self) -> None:
        self._kept.clear()
