"""The turn list and the lines of text finish their own lines (:mod:`tui_combat.widgets.plain_lines`): the same cells
as Textual's styles cache makes of them, in every theme, with colours or without, focused or not, whole or cut; and
Textual's own path draws a widget that has more to its look than a background and side padding."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.strip import Strip
from textual.widget import Widget

from tests.ui.fights import opened
from tests.ui.steps import SIZE, store
from tests.ui.test_turn_list_scrolls import ten_slots
from tests.waiting import settled, until
from tui_combat.app import CombatApp
from tui_combat.widgets.lines import TextLines, joined
from tui_combat.widgets.order_list import OrderList
from tui_combat.widgets.plain_lines import plain_look


def cells(lines: list[Strip]) -> list[list[tuple[str, object]]]:
    """Each line's cells as text and style, however its segments are cut."""
    return [[(character, style) for text, style, _control in line for character in text] for line in lines]


def big_fight(make_app: Callable[..., CombatApp], data_root: Path) -> CombatApp:
    """The app on a fight of ten slots whose turn list is taller than the screen."""
    ten_slots(data_root, "big")
    return make_app(resume="big")


async def turn_list(pilot: Pilot[None]) -> OrderList:
    await opened(pilot)
    return pilot.app.screen.query_one(OrderList)


def as_textual_draws(widget: Widget, crop: Region) -> list[Strip]:
    widget.refresh()  # (every line of Textual's styles cache made anew)
    lines = Widget.render_lines(widget, crop)
    return [joined(line) for line in lines] if isinstance(widget, TextLines) else lines


@pytest.mark.slow
@pytest.mark.parametrize("colour", [False, True], ids=["no colour", "colour"])
async def test_the_turn_list_finishes_its_lines_as_textual_does(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch, colour: bool
) -> None:
    if colour:
        monkeypatch.delenv("NO_COLOR", raising=False)
    app = big_fight(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        order = await turn_list(pilot)
        await pilot.press("n")  # (scrolled: rows drawn for the first time, and the highlight)
        await until(pilot, lambda: store(app).state.cursor == 1 and settled(order), "the next slot drawn")
        width, height = order.size
        crops = [Region(0, 0, width, height), Region(3, 2, width - 5, 7)]
        for theme in ("textual-dark", "ansi-dark", "gruvbox", "textual-light"):
            app.theme = theme
            await until(pilot, lambda: settled(order), f"the list in {theme}")
            for focused in (True, False):
                if focused:
                    order.focus()
                else:
                    app.screen.set_focus(None)
                await until(pilot, lambda: order.has_focus == focused and settled(order), "the focus moved")
                assert plain_look(order) is not None
                for crop in crops:
                    ours = order.render_lines(crop)
                    assert len(ours) == crop.height
                    assert all(line.cell_length == crop.width for line in ours)
                    assert cells(ours) == cells(as_textual_draws(order, crop)), (theme, focused, crop)
            compared = []
            for text in app.screen.query(TextLines).results():
                if text.display and text.size and plain_look(text) is not None:
                    whole = Region(0, 0, *text.outer_size)
                    assert cells(text.render_lines(whole)) == cells(as_textual_draws(text, whole)), (theme, text.id)
                    compared.append(text.id)
            assert {"phase-bar", "card-head"} <= set(compared), compared


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rule", "value", "plain"),
    [
        ("border", ("round", "red"), False),
        ("opacity", 0.5, False),
        ("tint", "red 30%", False),
        ("background", "red 40%", True),  # (laid over the background beneath it: still plain)
    ],
)
async def test_a_list_that_looks_more_than_plain_is_drawn_by_textual(
    make_app: Callable[..., CombatApp], data_root: Path, rule: str, value: object, plain: bool
) -> None:
    app = big_fight(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        order = await turn_list(pilot)
        setattr(order.styles, rule, value)
        await until(pilot, lambda: settled(order), f"the list drawn with its {rule}")
        assert (plain_look(order) is not None) == plain
        crop = Region(0, 0, *order.outer_size)
        ours = order.render_lines(crop)
        assert cells(ours) == cells(as_textual_draws(order, crop))


@pytest.mark.slow
async def test_a_row_drawn_again_as_it_was_is_the_line_finished_before(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    app = big_fight(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        order = await turn_list(pilot)
        crop = Region(0, 0, *order.size)
        await until(pilot, lambda: settled(order), "the list drawn")
        first = order.render_lines(crop)
        await pilot.press("n")
        await until(pilot, lambda: store(app).state.cursor == 1 and settled(order), "the next slot drawn")
        await pilot.press("b")
        await until(pilot, lambda: store(app).state.cursor == 0 and settled(order), "back to the first slot")
        again = order.render_lines(crop)
        # The rows of combatants are the very lines finished before; the slot headers' words changed and back.
        kept = [line for before, line in zip(first, again, strict=True) if line is before]
        assert len(kept) >= len(first) - 3, len(kept)
        assert cells(again) == cells(first)
