"""Opening a session never stops the screen: the store is resumed (or rebuilt) in a worker thread, the
list shows that it is working when that takes a while, and keys are handled meanwhile."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import DataTable

from tests.ui.fights import messages, newest, opened, saved_round, until
from tests.ui.steps import SIZE, store, until_sessions, visible_text
from tests.waiting import settled
from tui_combat.app import CombatApp
from tui_combat.fight import session
from tui_combat.fight.store import Store
from tui_combat.screens.help import HelpScreen
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.sessions import SessionsScreen


async def test_a_slow_resume_leaves_the_app_answering_keys(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved_round(data_root, "ambush", ["Raf", "Ada"], 3)
    saved_round(data_root, "other", ["Bo"], 1)
    release = threading.Event()
    threads: list[threading.Thread] = []
    resume = session.resume

    def slow_resume(data: Path, key: str, *, read_only: bool = False) -> Store:
        threads.append(threading.current_thread())
        assert release.wait(30), "the test never let the resume finish"
        return resume(data, key, read_only=read_only)

    monkeypatch.setattr(session, "resume", slow_resume)
    app = make_app()
    try:
        await _watch_a_slow_resume(app, release, threads)
    finally:
        release.set()  # a failed test must not leave the worker thread waiting
    assert app.return_code == 0


async def _watch_a_slow_resume(app: CombatApp, release: threading.Event, threads: list[threading.Thread]) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await until_sessions(pilot)
        table = screen.query_one(DataTable)
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        await pilot.press("enter")
        await until(pilot, lambda: bool(threads), "the resume to start")
        assert threads[0] is not threading.main_thread()
        assert app.opening and app.store is None
        (worker,) = [worker for worker in app.workers if worker.name == "open-session"]
        assert worker.is_running

        # It takes long: the list says so, under a loading indicator.
        await until(pilot, lambda: table.loading, "the loading indicator")
        assert "Opening the session" in visible_text(screen.query_one("#sessions-hint"))

        # Meanwhile the keys work: help opens and closes, and a second open is refused with a word.
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("enter")
        assert messages(app)[-1] == "A session is being opened: one moment."
        assert len(threads) == 1

        release.set()
        await opened(pilot)
        assert isinstance(app.screen, RoundScreen)
        assert store(app).folder is not None and store(app).folder.folder.name == key  # the first one asked for
        assert not table.loading
        await pilot.press("q")


async def test_a_refusal_from_the_worker_is_a_message(make_app: Callable[..., CombatApp]) -> None:
    app = make_app(resume="no-such-fight")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: bool(messages(app)), "the refusal")
        assert isinstance(app.screen, SessionsScreen) and app.store is None and not app.opening
        assert messages(app) == ["There is no saved session no-such-fight."]


async def test_a_bug_while_opening_is_reported_not_fatal(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved_round(data_root, "ambush", ["Raf"], 1)

    def broken(data: Path, key: str, *, read_only: bool = False) -> Store:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(session, "resume", broken)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: bool(messages(app)), "the report")
        assert messages(app) == ["Unexpected error: ZeroDivisionError('a bug')"]
        assert isinstance(app.screen, SessionsScreen) and not app.opening
        first = newest(app)
        await pilot.press("enter")  # the app goes on: the list still opens sessions
        await until(pilot, lambda: newest(app) != first, "the second report")
        assert messages(app) == ["Unexpected error: ZeroDivisionError('a bug')"]  # in place of the first


async def test_a_loading_timer_that_fires_after_the_session_opened_shows_nothing(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """The loading timer can fire while the worker's result is on its way: its call, handled after the
    session opened, must not put up a loading indicator nobody takes down (the app would repaint forever)."""
    from textual.widgets import LoadingIndicator

    saved_round(data_root, "ambush", ["Raf"], 2)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        app._show_opening(True)  # the timer's late call, forced to come after the opening
        await until(pilot, lambda: settled(app), "the late call handled")
        indicators = [widget for screen in app.screen_stack for widget in screen.query(LoadingIndicator)]
        assert not indicators and not any(
            isinstance(screen, SessionsScreen) and screen.query_one(DataTable).loading for screen in app.screen_stack
        )


async def test_keys_typed_while_a_resume_opens_reach_the_fight(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tui-combat resume NAME``, and the GM types at once: the keys typed while the session opens are held
    and given to the fight's screen, in order, once it is shown (they were lost on the one-line screen)."""
    folder = saved_round(data_root, "ambush", ["Raf", "Ada"], 3)
    release = threading.Event()
    resume = session.resume

    def slow_resume(data: Path, key: str, *, read_only: bool = False) -> Store:
        assert release.wait(30), "the test never let the resume finish"
        return resume(data, key, read_only=read_only)

    monkeypatch.setattr(session, "resume", slow_resume)
    app = make_app(resume="ambush")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.opening, "the resume to start")
            await pilot.press("n", "d", "4")  # next turn, then 4 damage typed into the prompt n's d opens
            assert app.opening and app.store is None
            release.set()
            await opened(pilot)
            screen = app.screen
            assert isinstance(screen, RoundScreen)
            await until(
                pilot,
                lambda: screen.amount_prompt.is_open and screen.amount_prompt.value == "4",
                "the damage prompt holding the 4 typed",
            )
            assert store(app).state.cursor == 1
            await pilot.press("enter")
            await until(pilot, lambda: not screen.amount_prompt.is_open, "the damage applied")
            await pilot.press("q")
    finally:
        release.set()
    assert app.return_code == 0
    damaged = [
        combatant
        for combatant in Store.resume(folder, read_only=True).state.combatants
        if combatant.hp < combatant.max_hp
    ]
    assert len(damaged) == 1 and damaged[0].max_hp - damaged[0].hp == 4


async def test_only_the_app_s_own_keys_act_while_a_resume_opens(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ctrl+q quits at once, as anywhere; the keys held for the fight are dropped when it cannot be opened."""
    saved_round(data_root, "ambush", ["Raf"], 1)
    release = threading.Event()

    def refused_resume(data: Path, key: str, *, read_only: bool = False) -> Store:
        assert release.wait(30), "the test never let the resume finish"
        raise session.SessionError("Cannot open", "a refusal")

    monkeypatch.setattr(session, "resume", refused_resume)
    app = make_app(resume="ambush")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.opening, "the resume to start")
            await pilot.press("n")  # for the fight; on the session list it would start a new one
            release.set()
            await until_sessions(pilot)
            await until(pilot, lambda: "a refusal" in messages(app), "the refusal shown")
            assert isinstance(app.screen, SessionsScreen)
            await pilot.press("ctrl+q")
    finally:
        release.set()
    assert app.return_code == 0
