"""The surprise screen offers only the keys that do something in the book at hand: Trudvang and D&D 5e have
no surprise roll (the GM marks who is surprised), so no roll, typed-roll or modifier key."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.ui.fights import messages
from tests.ui.steps import SIZE, field_labels, footer_text
from tests.waiting import settled, until, until_screen
from tui_combat.app import CombatApp
from tui_combat.engine import registry
from tui_combat.screens.setup import SetupScreen
from tui_combat.screens.surprise import SurpriseScreen

DEMO_ROWS = {"adnd2e": 0, "trudvang": 1, "dnd5e": 2, "ose": 3, "players_option": 4}


@pytest.mark.parametrize("ruleset", ["adnd2e", "trudvang", "dnd5e"])
async def test_surprise_keys_are_the_books(make_app: Callable[..., CombatApp], ruleset: str) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*["down"] * DEMO_ROWS[ruleset], "enter")
        await until_screen(pilot, SetupScreen)
        assert app.store is not None and app.store.state.ruleset == ruleset
        await pilot.press("c")
        await until_screen(pilot, SurpriseScreen)
        rolls = bool(registry.get(ruleset).surprise_dice())
        footer = footer_text(app)
        assert ("Roll" in footer.split(" · ")) is rolls, footer
        assert ("Typed" in footer.split(" · ")) is rolls, footer
        if not rolls:
            state = app.store.state
            await pilot.press("r", "t", "m")
            await until(pilot, lambda: settled(app.screen) and settled(app), "the keys handled")
            assert isinstance(app.screen, SurpriseScreen) and app.store.state is state
            assert not [m for m in messages(app) if "no surprise roll" in m], messages(app)
        await until(pilot, lambda: "Fight!" in footer_text(app), "the start key in the footer")


async def test_after_the_roll_every_row_has_its_result(make_app: Callable[..., CombatApp]) -> None:
    from textual.widgets import DataTable

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await until_screen(pilot, SetupScreen)
        await pilot.press("c")
        await until_screen(pilot, SurpriseScreen)
        table = app.screen.query_one(DataTable)
        assert all(str(table.get_row_at(i)[3]) == "" for i in range(table.row_count))  # nothing rolled yet
        await pilot.press("r")

        def results() -> list[str]:
            return [str(table.get_row_at(i)[3]) for i in range(table.row_count)]

        await until(pilot, lambda: all(results()), "a result in every row")
        assert set(results()) <= {"surprised", "not surprised"}, results()


async def test_the_surprise_modifier_is_ticked_from_the_books_list_and_adds_up(
    make_app: Callable[..., CombatApp],
) -> None:
    from textual.widgets import DataTable

    from tui_combat.screens.dialogs import FormDialog, TickBox

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await until_screen(pilot, SetupScreen)
        await pilot.press("c")
        await until_screen(pilot, SurpriseScreen)
        surprise = app.screen
        await pilot.press("m")
        form = await until_screen(pilot, FormDialog)
        boxes = list(form.query(TickBox))
        labels = field_labels(form)
        assert labels[: len(boxes)] == [f"{m.label} {m.value:+d}" for m in registry.get("adnd2e").surprise_modifiers()]
        darkness = labels.index("in darkness -4")
        await pilot.press("space", *["enter"] * darkness, "space")  # silenced −2, in darkness −4
        await until(pilot, lambda: boxes[0].value and boxes[darkness].value, "two situations ticked")
        await pilot.press(*["enter"] * (len(boxes) - darkness), "1")  # on to the GM's own figure: +1
        await until(pilot, lambda: "-5" in str(form.query_one("#dialog-preview").render()), "the sum shown")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.screen is surprise, "back on the surprise screen")
        table = surprise.query_one(DataTable)
        await until(pilot, lambda: str(table.get_row_at(table.cursor_row)[2]) == "-5", "the row's modifier in all")
        await pilot.press("m")  # what was ticked is ticked again
        form = await until_screen(pilot, FormDialog)
        boxes = list(form.query(TickBox))
        assert [i for i, box in enumerate(boxes) if box.value] == [0, darkness]
