"""The cells of a line redrawn on an update are exactly those between the first and the last that differ
(:func:`~tui_combat.widgets.lines.changed_span`), whatever the pieces the two lines are made of: wide
characters, pieces alike at either end passed over whole, lines of other lengths."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from tui_combat.widgets.lines import _cells, changed_span

WORDS = ["a", "bb", " ", "  ", "Орк", "Тролль 1", "▶", "🔒", "x y", "›"]
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


@given(pairs())
def test_the_span_holds_every_cell_that_differs_and_starts_and_ends_on_one(pair: tuple[Strip, Strip, int]) -> None:
    old, new, width = pair
    before, after = _cells(old, width), _cells(new, width)
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
