"""The cells of a line redrawn on an update are exactly those between the first and the last that differ
(:func:`~tui_combat.widgets.lines.changed_span`), whatever the pieces the two lines are made of: wide
characters, pieces alike at either end passed over whole, lines of other lengths."""

from __future__ import annotations

from itertools import repeat

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from tui_combat.widgets.lines import changed_span

Cell = tuple[str, Style | None]


def cells_of(strip: Strip, width: int) -> list[Cell]:
    """One entry per terminal cell (a wide character takes its own entry and an empty one after it), blank
    entries up to ``width``: what the span is checked against, cell by cell."""
    cells: list[Cell] = []
    for text, style, _control in strip:
        if text.isascii():  # one cell each (a control character takes an entry of its own, as below)
            cells.extend(zip(text, repeat(style)))
            continue
        for character in text:
            cells.append((character, style))
            cells.extend(("", style) for _ in range(cell_len(character) - 1))
    cells.extend(("", None) for _ in range(width - len(cells)))
    return cells


WORDS = ["a", "bb", " ", "  ", "Орк", "Тролль 1", "▶", "🔒", "x y", "›", "Orc 15  8/8", "Orc 125  3/8"]
STYLES = [None, Style(bold=True), Style(dim=True), Style(color="red"), Style(bgcolor="black")]

pieces = st.lists(
    st.builds(lambda text, style: Segment(text, style), st.sampled_from(WORDS), st.sampled_from(STYLES)), max_size=7
)


@st.composite
def pairs(draw: st.DrawFn) -> tuple[Strip, Strip, int]:
    first = draw(pieces)
    if draw(st.booleans()):  # the second made from the first: pieces alike at either end
        cut = draw(st.integers(0, len(first)))
        second = first[:cut] + draw(pieces) + first[cut + draw(st.integers(0, len(first) - cut)) :]
    else:
        second = draw(pieces)
    width = draw(st.sampled_from([0, 12, 30]))
    strips = [Strip(line) for line in (first, second)]
    if draw(st.booleans()):  # padded to the width, as a widget's lines are
        strips = [strip.crop_extend(0, max(width, strip.cell_length), None) for strip in strips]
    return strips[0], strips[1], width


@settings(max_examples=400)
@given(pairs())
def test_the_span_holds_every_cell_that_differs_and_starts_and_ends_on_one(pair: tuple[Strip, Strip, int]) -> None:
    old, new, width = pair
    before, after = cells_of(old, width), cells_of(new, width)
    length = max(len(before), len(after))
    before += [("", None)] * (length - len(before))
    after += [("", None)] * (length - len(after))
    differ = [index for index in range(length) if before[index] != after[index]]
    span = changed_span(old, new, width)
    if not differ:
        assert span is None
    else:
        assert span == (differ[0], differ[-1] + 1)


async def test_a_text_shown_again_is_not_drawn_anew_and_redraws_only_what_differs() -> None:
    from rich.text import Text
    from textual.app import App, ComposeResult

    from tests.waiting import settled, until
    from tui_combat.widgets.lines import DRAWN_KEPT, TextLines

    class OneLine(App[None]):
        def compose(self) -> ComposeResult:
            yield TextLines(id="line")

    app = OneLine()
    async with app.run_test(size=(40, 3)) as pilot:
        line = app.query_one(TextLines)
        turns = [Text.assemble(("Round 1", "bold"), f" ▶ {count}") for count in (3, 7)]
        line.show(turns[0])
        await until(pilot, lambda: settled(app.screen) and line.texts_drawn == 1, "the first turn drawn")
        before = line.cells_redrawn
        for turn in (turns[1], turns[0], turns[1]):  # back and forth between two turns
            line.show(turn)
        assert line.texts_drawn == 2  # the second turn once; the first as it was
        assert line.cells_redrawn - before == 3  # one cell each time: "3" ↔ "7"
        for count in range(DRAWN_KEPT + 1):  # no more than DRAWN_KEPT texts are kept
            line.show(Text(f"Round {count}"))
        line.show(turns[0])
        assert line.texts_drawn == 2 + DRAWN_KEPT + 2
