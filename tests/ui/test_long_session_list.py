"""A session list of 500 saved fights: drawn with its first rows at once, the others after the first frame;
every one is listed, newest first, and the keys that go past the rows drawn so far reach them."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from textual.pilot import Pilot

from tests.ui.steps import SIZE, visible_text
from tests.waiting import settled, until, until_screen
from tui_combat.app import CombatApp
from tui_combat.fight import session
from tui_combat.fight.store import Store, new_state
from tui_combat.saves.locations import sessions_dir
from tui_combat.screens.sessions import DEMO_PREFIX, SessionsScreen
from tui_combat.widgets import session_table
from tui_combat.widgets.session_table import FIRST_ROWS, SessionTable

FIGHTS = 500


@pytest.fixture
def many(data_root: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """500 saved fights in set-up; their keys, newest first."""
    with monkeypatch.context() as quick:
        quick.setattr(os, "fsync", lambda fd: None)  # only to build them quickly
        for number in range(FIGHTS):
            state = msgspec.structs.replace(new_state(seed=number, ruleset="adnd2e"), name=f"Fight {number}")
            Store.create(state, sessions_dir(data_root) / f"fight-{number:03}").close()
    return [info.key for info in session.list_sessions(data_root, steps=True)]


def keys(table: SessionTable) -> list[str]:
    return [str(row.value) for row in table.rows]


def demos() -> tuple[session.Demo, ...]:
    """The demos listed: the app's, then an installed plugin's (the Savage Worlds example's, where it is)."""
    return (*session.DEMOS, *session.plugin_demos())


async def until_listed(pilot: Pilot[None]) -> SessionsScreen:
    """Until the session list is shown and has checked its rows (and found the plugins' demos) once drawn."""
    screen = await until_screen(pilot, SessionsScreen)
    assert isinstance(screen, SessionsScreen)
    await until(pilot, lambda: settled(screen), "the list checked once drawn")
    return screen


async def test_every_fight_is_listed_newest_first_then_the_demos(
    make_app: Callable[..., CombatApp], many: list[str]
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await until_listed(pilot)
        table = screen.query_one(SessionTable)
        await until(pilot, lambda: not table.pending, "every row")
        assert keys(table) == many + [DEMO_PREFIX + demo.file_name for demo in demos()]
        assert f"Fight {int(many[0][-3:])}" in visible_text(table).splitlines()[1]  # under the header: the newest
        await pilot.press("ctrl+end")
        assert table.cursor_row == FIGHTS + len(demos()) - 1


async def test_the_keys_past_the_rows_drawn_so_far_bring_the_rest(
    make_app: Callable[..., CombatApp], many: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rest held back (as if the GM pressed the key before they came): ctrl+end, page down, down on the last
    row drawn, and a look-up by key each bring every row first."""
    monkeypatch.setattr(session_table.SessionTable, "_add_batch", lambda self, filling: None)
    total = FIGHTS + len(demos())
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await until_listed(pilot)
        table = screen.query_one(SessionTable)
        await until(
            pilot, lambda: table.row_count == FIRST_ROWS, "the first rows", describe=lambda: f"{table.row_count} rows"
        )
        assert table.pending and keys(table) == many[:FIRST_ROWS]
        await pilot.press("ctrl+end")
        assert table.row_count == total and table.cursor_row == total - 1

        screen.reload()  # held back again
        assert table.row_count == FIRST_ROWS
        table.move_cursor(row=FIRST_ROWS - 1)
        await pilot.press("down")
        assert table.row_count == total and table.cursor_row == FIRST_ROWS

        screen.reload()
        await pilot.press("pagedown")
        assert table.row_count == total

        screen.reload()
        screen.select_key(many[-1])
        assert table.row_count == total and table.cursor_row == FIGHTS - 1
        assert screen.selected_key() == many[-1]


async def test_home_and_end_go_to_the_first_and_the_last_session(
    make_app: Callable[..., CombatApp], many: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """End reaches the last row even while the rest are held back (not drawn yet); Home the first."""
    monkeypatch.setattr(session_table.SessionTable, "_add_batch", lambda self, filling: None)
    total = FIGHTS + len(demos())
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await until_listed(pilot)
        table = screen.query_one(SessionTable)
        await until(
            pilot, lambda: table.row_count == FIRST_ROWS, "the first rows", describe=lambda: f"{table.row_count} rows"
        )
        await pilot.press("down", "down")
        await pilot.press("end")
        await until(
            pilot,
            lambda: table.cursor_row == total - 1,
            "the last row",
            describe=lambda: f"row {table.cursor_row} of {table.row_count}",
        )
        assert table.row_count == total and screen.selected_key() == DEMO_PREFIX + demos()[-1].file_name
        await pilot.press("home")
        await until(pilot, lambda: table.cursor_row == 0, "the first row", describe=lambda: f"row {table.cursor_row}")
        assert screen.selected_key() == many[0]
