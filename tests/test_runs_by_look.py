"""A frame of changes written one style at a time where that is shorter shows the same on the terminal, cell for
cell, cursor and style left, as the frame Textual wrote; on a page of the turn list it is much shorter."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from tests.test_fewer_codes import HEIGHT, WIDTH, Terminal, same_on_the_terminal, styles
from tui_combat.textual_ext.fewer_codes import with_fewer_codes
from tui_combat.textual_ext.runs_by_look import runs_by_look, with_fewest_codes

CONSOLE = Console(color_system="truecolor", force_terminal=True, width=WIDTH)
WHITE = Style.parse("rgb(224,224,224) on rgb(39,39,39)")
CYAN = Style.parse("rgb(88,209,235) on rgb(39,39,39)")
CURSOR_AND_RESET = "\x1b[1;2H\x1b[0m"
"""How Textual ends a frame: the cursor where it stays, the style put back."""


def piece(row: int, column: int, *segments: tuple[str, Style | None]) -> str:
    """A piece of a frame as Textual writes it: to the next line, a move to its cell, its segments styled."""
    return f"\n\x1b[{row};{column}H" + Strip([Segment(*segment) for segment in segments]).render(CONSOLE)


def orcs_page() -> str:
    """A new page of orcs: on each row the orc's number and his health changed, two colours a row."""
    return (
        "".join(piece(row, 9, ("6", WHITE), ("  ", CYAN), (str(row % 9 + 1), CYAN)) for row in range(5, 23))
        + CURSOR_AND_RESET
    )


def test_a_page_of_orcs_is_written_a_colour_at_a_time() -> None:
    frame = orcs_page()
    fewest, fewer = with_fewest_codes(frame), with_fewer_codes(frame)
    assert len(fewest) < 0.7 * len(fewer), (len(fewest), len(fewer))
    assert fewest.count("38;2;88;209;235") == 1  # (the health's colour set once)
    same_on_the_terminal(frame, made_over=with_fewest_codes)


def test_a_piece_that_follows_a_wide_character_stays_after_it() -> None:
    """Its cell is known only on the terminal (a wide character's width is the terminal's to say)."""
    frame = piece(3, 1, ("猫", WHITE), ("Orc", CYAN)) + piece(4, 1, ("Orc", WHITE)) + CURSOR_AND_RESET
    fewest = with_fewest_codes(frame)
    assert re.search(r"猫(\x1b\[[0-9;]*m)?Orc", fewest), fewest  # (no move between them)
    same_on_the_terminal(frame, made_over=with_fewest_codes)


def test_pieces_over_the_same_cells_are_left_in_their_order() -> None:
    frame = piece(3, 1, ("Orc 5", WHITE)) + piece(3, 3, ("c", CYAN)) + piece(4, 1, ("Orc", WHITE)) + CURSOR_AND_RESET
    assert runs_by_look(frame) is None
    same_on_the_terminal(frame, made_over=with_fewest_codes)


def test_what_is_not_a_frame_of_pieces_at_cells_is_made_over_as_it_came() -> None:
    lines = "\x1b[1;1H" + Strip([Segment("Orc", WHITE)]).render(CONSOLE) + "\r\n" + "Orc" + CURSOR_AND_RESET
    erase = piece(3, 1, ("Orc", WHITE)) + "\x1b[K" + piece(4, 1, ("Orc", CYAN)) + CURSOR_AND_RESET
    unstyled = "\x1b[3;1HOrc" + piece(4, 1, ("Orc", CYAN)) + CURSOR_AND_RESET
    no_end = piece(3, 1, ("Orc", WHITE)) + piece(4, 1, ("Orc", CYAN))
    mode_between = piece(3, 1, ("Orc", WHITE)) + "\x1b[?25l" + piece(4, 1, ("Orc", CYAN)) + CURSOR_AND_RESET
    for frame in (lines, erase, unstyled, no_end, mode_between):
        assert runs_by_look(frame) is None
        assert with_fewest_codes(frame) == with_fewer_codes(frame)


cells = st.tuples(st.integers(1, HEIGHT), st.integers(1, WIDTH - 10))
texts = st.sampled_from([" ", "  ", "Orc 5", "8/8", "▶─", "Герой", "猫", "e\u0301"])
segments = st.lists(st.tuples(texts, styles), max_size=3)


@given(
    frames=st.lists(
        st.tuples(st.sampled_from(["", "\x1b[?2026h"]), st.lists(st.tuples(cells, segments), max_size=25), cells),
        min_size=1,
        max_size=3,
    )
)
@example(frames=[("", [((1, 70), [("Orc 5", None), ("Orc 5", None), ("e\u0301", None)])], (1, 1))])
def test_frames_show_the_same_with_the_fewest_codes(frames: list[Any]) -> None:
    """Frames as Textual writes them (pieces at cells, over one another or not, in any styles, a mode set before
    them, the cursor and the style put back after): the same cells, cursor and style, and never longer than
    with fewer codes alone."""
    written = []
    for mode, pieces, (row, column) in frames:
        frame = mode + "".join(piece(at_row, at_column, *styled) for (at_row, at_column), styled in pieces)
        frame += f"\x1b[{row};{column}H\x1b[0m"
        written.append(frame)
        assert len(with_fewest_codes(frame)) <= len(with_fewer_codes(frame))
        by_look = runs_by_look(frame)
        if by_look is not None:  # (shows the same when it is not the shorter too)
            same_on_the_terminal(frame, made_over=lambda _frame, by_look=by_look: by_look)
    same_on_the_terminal(*written, made_over=with_fewest_codes)


def test_the_terminal_model_tells_a_piece_moved() -> None:
    """(The model the tests above rely on sees a piece written at another cell.)"""
    moved, right = Terminal(), Terminal()
    moved.write(piece(3, 2, ("Orc", WHITE)))
    right.write(piece(3, 1, ("Orc", WHITE)))
    assert moved.shown() != right.shown()
