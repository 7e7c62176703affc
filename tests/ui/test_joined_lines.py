"""Lines joined into as few pieces as they look (:class:`~tui_combat.widgets.lines.JoinedLines`) are worked out
once for each line Textual hands back, and again only for a line it drew anew."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from tui_combat.widgets.lines import JoinedLines, joined

PLAIN = Style(color="white", bgcolor="black")
BLANK = Style(bgcolor="black")


def line(text: str) -> Strip:
    return Strip([Segment(" ", BLANK), Segment(text, PLAIN), Segment("  ", BLANK)])


def test_the_same_lines_are_joined_once_and_a_new_one_again() -> None:
    join = JoinedLines()
    first, second = line("Orc 1 takes 3 damage."), line("Raf heals 2.")
    drawn = join([first, second])
    assert drawn == [joined(first), joined(second)] and len(list(drawn[0])) == 1  # one piece each
    again = join([first, second])
    assert again[0] is drawn[0] and again[1] is drawn[1]  # kept: the same objects, not joined again
    third = line("Raf heals 2.")  # equal, but drawn anew: joined anew
    moved = join([second, third])
    assert moved[0] is drawn[1] and moved[1] is not drawn[1] and moved[1] == drawn[1]
    assert join([first])[0] is not drawn[0]  # only the last call's lines are kept
