"""Keys typed at once with the one that leaves the fight (q quits, Esc goes back to the session list): what
the keys before it set going ends quietly as the fight's screen goes, and the keys after it do nothing to the
fight. Before, a turn moved with n just before q read a fight already closed, and the app
ended on a traceback."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual import events

from tests.ui.fights import opened_round, saved_round
from tests.waiting import until, until_screen
from tui_combat.app import CombatApp
from tui_combat.fight.store import Store
from tui_combat.screens.sessions import SessionsScreen
from tui_combat.widgets.order_list import OrderList


def burst(app: CombatApp, *keys: str) -> None:
    """Keys queued all at once, as a fast typist's reach the app over a slow link."""
    for name in keys:
        app.post_message(events.Key(name, {"escape": "\x1b"}.get(name, name)))


@pytest.mark.parametrize("keys", [("n", "q"), ("n", "q", "n", "n")])
async def test_keys_around_q_quit_cleanly(
    make_app: Callable[..., CombatApp], data_root: Path, keys: tuple[str, ...]
) -> None:
    folder = saved_round(data_root, "ambush", ["Raf"], 3)
    app = make_app(resume="ambush")
    async with app.run_test(size=(80, 24)) as pilot:
        await opened_round(pilot)
        burst(app, *keys)
        await until(pilot, lambda: not app.is_running, "the app to quit")
    assert app.return_code == 0
    assert Store.resume(folder, read_only=True).state.cursor == 1  # the turn moved before q, none after


async def test_keys_around_escape_leave_cleanly(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    folder = saved_round(data_root, "ambush", ["Raf"], 3)
    app = make_app(resume="ambush")
    async with app.run_test(size=(80, 24)) as pilot:
        await opened_round(pilot)
        burst(app, "n", "escape")
        await until_screen(pilot, SessionsScreen)
        await until(pilot, lambda: app.store is None, "the fight closed")
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "the app to quit")
    assert app.return_code == 0
    assert Store.resume(folder, read_only=True).state.cursor == 1


async def test_a_turn_moved_as_the_fight_closes_is_not_read_from_the_closed_fight(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """The order forced: the turn list's "row highlighted", sent by an n, still on its way to the screen when
    q closes the fight. (Over a slow link this happened when n and q came close together.)"""
    saved_round(data_root, "ambush", ["Raf"], 3)
    app = make_app(resume="ambush")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened_round(pilot)
        order = screen.query_one(OrderList)
        screen.post_message(OrderList.Highlighted(order, 1))
        await app.action_quit()  # handled before the screen reads the message: nothing awaited in between
        await until(pilot, lambda: not app.is_running, "the app to quit")
    assert app.return_code == 0
