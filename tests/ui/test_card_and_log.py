"""The card of the selected combatant scrolls when its details are longer than its room, every label whole;
the log follows new entries and wraps again when the terminal's width changes."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.containers import VerticalScroll

from tests.ui.steps import SIZE, to_round, type_initiative
from tests.waiting import settled, until
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.screens.round import RoundScreen
from tui_combat.widgets.lines import TextLines
from tui_combat.widgets.redraw import RoundLog

NOTES = " ".join(f"note{number}" for number in range(60))
"""Notes long enough to need some ten lines of the card at 80 columns."""


async def test_the_card_scrolls_and_shows_every_label_whole(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        await type_initiative(pilot, "7", "10")
        screen = app.screen
        assert isinstance(screen, RoundScreen) and app.store is not None
        raf = screen.selected()
        assert raf is not None
        screen.host.dispatch(a.EditCombatant(combatant=raf, notes=NOTES))
        box = screen.query_one("#card-box", VerticalScroll)
        card = screen.query_one("#card", TextLines)
        await until(pilot, lambda: card.size.height > 6 and box.max_scroll_y > 0, "the card laid out with the notes")
        assert box.size.height == 6 and card.size.height > 6  # the room it has, less than it holds
        assert box.max_scroll_y == card.size.height - 6
        lines = [card.render_line(y).text.strip() for y in range(card.size.height)]
        state = app.store.state
        for label, _value in registry.get(state.ruleset).details(state, raf):
            assert any(line.startswith(f"{label}:") for line in lines), (label, lines)  # never cut
        assert lines[-1].endswith("note59")
        box.focus()
        await pilot.press("end")
        await until(pilot, lambda: box.scroll_y == box.max_scroll_y, "the last lines brought into view")


async def test_the_log_follows_new_entries_and_wraps_again_on_resize(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        await type_initiative(pilot, "7", "10")
        log = app.screen.query_one(RoundLog)
        for _ in range(8):  # more than the log's few lines at 80×24
            await pilot.press("d", "1", "enter")
        await until(
            pilot,
            lambda: log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y,  # the newest entry in view
            f"the log scrolled to its end ({log.scroll_y} of {log.max_scroll_y})",
        )
        words = " ".join(strip.text for strip in log.lines).split()
        wide = len(log.lines)
        before = log.scrollable_content_region.width
        await pilot.resize_terminal(60, 24)
        await until(
            pilot,
            lambda: (
                log.scrollable_content_region.width < before
                and all(strip.cell_length <= log.scrollable_content_region.width for strip in log.lines)
            ),
            "the log wrapped again at 60 columns",
        )
        width = log.scrollable_content_region.width
        assert all(strip.cell_length <= width for strip in log.lines)  # wrapped at the new width
        assert " ".join(strip.text for strip in log.lines).split() == words  # the same entries, whole
        assert len(log.lines) > wide
        await until(pilot, lambda: log.scroll_y == log.max_scroll_y, "the newest entry still in view")


async def test_a_turn_moving_on_draws_the_card_once(
    make_app: Callable[..., CombatApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The next turn selects whoever acts now and shows him; the selection's own message, which follows,
    finds him drawn already (each drawing works out his budget and details again)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        await type_initiative(pilot, "7", "10")
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        drawn: list[str | None] = []
        show_card = RoundScreen.show_card

        def counted(self: RoundScreen) -> None:
            drawn.append(self.selected())
            show_card(self)

        monkeypatch.setattr(RoundScreen, "show_card", counted)
        before = screen.selected()
        await pilot.press("n")
        await until(pilot, lambda: screen.selected() != before and settled(screen), "the next turn shown")
        assert drawn == [screen.selected()]
        await pilot.press("down")  # the GM moves the selection himself: the card follows
        await until(pilot, lambda: len(drawn) == 2, "the card of the one selected")
        assert drawn[-1] == screen.selected()
