"""The last guard between the app and the terminal: no control character of any text reaches it.

Names, notes and effects with a control character are refused where they are typed or read
(:mod:`tui_combat.engine.text`), but a fight saved before that, or one written by hand, may still hold an
escape sequence that would retitle, recolour or reprogram the GM's terminal, or the players' over SSH. Every
line a screen draws passes through :class:`HarmlessText` on its way out, whatever widget drew it (the turn
list, the card, the log, a form, a notification, the players' view): the control characters are taken out,
and what followed an escape ("[31m") is shown as the plain text it then is. They are taken out, not shown as
pictures: each was laid out with no width, and a picture would push the rest of its line one cell on.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from tui_combat.engine.text import without_controls

__all__ = ["HARMLESS", "HarmlessText", "with_harmless"]


class HarmlessText(LineFilter):
    """A line filter (as Textual's own NO_COLOR filter is) that takes control characters out of the text."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if all(control or text.isprintable() for text, _style, control in segments):
            return segments  # every line but one drawn from such a text
        return [
            segment
            if segment.control or segment.text.isprintable()
            else Segment(without_controls(segment.text), segment.style)
            for segment in segments
        ]


HARMLESS = HarmlessText()


def with_harmless(filters: Sequence[LineFilter]) -> list[LineFilter]:
    """``filters`` (an app's, from ``App.get_line_filters``) and :class:`HarmlessText` last: an app returns this
    from its own ``get_line_filters``, so Textual applies it to every line it draws, the screenshots a test takes
    included."""
    return [*filters, HARMLESS]
