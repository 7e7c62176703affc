"""New monsters join a monster side at 80×24, whatever row is under the cursor: an ogre typed in the add form on
the party's row (its side moves to the monsters' as the name is found in the bestiary, and the GM may choose the
party all the same), a stat block pasted there, one added mid-fight with the party's character selected. The
set-up table goes to what was just added, in sight below the rows there were."""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.widgets import DataTable, Select

from tests.test_statblock import TROLL_ADND
from tests.ui.steps import (
    MONSTERS,
    PARTY,
    SIZE,
    combatant_id,
    open_demo,
    select,
    store,
    to_round,
    until_closed,
    until_form,
)
from tests.waiting import until, until_screen
from tui_combat.app import CombatApp
from tui_combat.screens.library import LibraryPicker
from tui_combat.screens.paste import PasteDialog
from tui_combat.screens.setup import SetupScreen


def table(app: CombatApp) -> DataTable[object]:
    return app.screen.query_one(DataTable)


def cursor_on(app: CombatApp) -> str:
    rows = table(app)
    return str(rows.coordinate_to_cell_key(rows.cursor_coordinate).row_key.value)


def in_sight(app: CombatApp, row: int) -> bool:
    rows = table(app)
    top = round(rows.scroll_y)
    return top <= row < top + rows.scrollable_content_region.height - 1  # (the header's line)


async def test_an_ogre_typed_on_the_party_s_row_joins_the_monsters(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)
        state = store(app).state
        assert (state.side(PARTY).is_party, state.side(MONSTERS).is_party) == (True, False)
        assert state.combatants[0].side == PARTY  # the cursor is on Raf

        await pilot.press("a")
        form = await until_form(pilot, "the add form")
        side = form.query_one("#f-side", Select)
        assert side.value == PARTY  # the row's side: the party is added one by one in the set-up
        await pilot.press(*"2 ogre")
        await until(pilot, lambda: side.value == MONSTERS, "the side moved to the monsters' for a bestiary name")
        await pilot.press("ctrl+s")
        await until_closed(pilot, form, "the ogres added")
        ogres = [c for c in store(app).state.combatants if c.name.startswith("Ogre")]
        assert [(c.name, c.side) for c in ogres] == [("Ogre 1", MONSTERS), ("Ogre 2", MONSTERS)]
        # The table went to them, below the twelve rows of the demo.
        first = len(state.combatants)
        await until(pilot, lambda: cursor_on(app) == ogres[0].id and in_sight(app, first), "the first ogre in sight")

        # A name the bestiary does not know stays with the row's side; the GM's own choice wins over the bestiary.
        await pilot.press("home", "a", *"Mirela")
        form = await until_form(pilot, "the add form again")
        await pilot.press("ctrl+s")
        await until_closed(pilot, form, "Mirela added")
        assert store(app).state.combatants[-1].side == PARTY
        await pilot.press("home", "a", *"ogre")
        form = await until_form(pilot, "the add form a third time")
        side = form.query_one("#f-side", Select)
        await until(pilot, lambda: side.value == MONSTERS, "the monsters' side again")
        await pilot.press("tab", "p")  # the side's list: "p", the party
        await until(pilot, lambda: side.value == PARTY, "the party chosen")
        await pilot.press("ctrl+s")
        await until_closed(pilot, form, "the party's ogre added")
        last = store(app).state.combatants[-1]
        assert (last.name, last.side) == ("Ogre 3", PARTY)

        # From the library (l), on the first row: to the monsters, and the table goes to him.
        await pilot.press("home", "l")
        await until_screen(pilot, LibraryPicker, "the library picker")
        await pilot.press(*"hobgoblin", "enter")
        await until_screen(pilot, SetupScreen, "the set-up after the library")
        hobgoblin = store(app).state.combatants[-1]
        assert (hobgoblin.name, hobgoblin.side) == ("Hobgoblin", MONSTERS)
        await until(
            pilot,
            lambda: cursor_on(app) == hobgoblin.id and in_sight(app, len(store(app).state.combatants) - 1),
            "the hobgoblin in sight",
        )


async def test_a_stat_block_pasted_on_the_party_s_row_joins_the_monsters(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)
        await pilot.press("p")
        await until_screen(pilot, PasteDialog, "the paste field")
        app.post_message(events.Paste(TROLL_ADND))
        await until(pilot, lambda: app.screen.query_one("#paste-read").render() != "", "the reading")
        await pilot.press("ctrl+s")
        form = await until_form(pilot, "the add form, filled in")
        assert form.query_one("#f-side", Select).value == MONSTERS
        await pilot.press("ctrl+s")
        await until_screen(pilot, SetupScreen, "the set-up again")
        troll = store(app).state.combatants[-1]
        assert troll.side == MONSTERS
        await until(
            pilot,
            lambda: cursor_on(app) == troll.id and in_sight(app, len(store(app).state.combatants) - 1),
            "the pasted troll in sight",
        )


async def test_one_added_mid_fight_joins_the_monsters(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        await select(pilot, combatant_id(app, "Raf"))
        await pilot.press("i")
        form = await until_form(pilot, "the add form at the foot")
        assert form.query_one("#f-side", Select).value == MONSTERS
