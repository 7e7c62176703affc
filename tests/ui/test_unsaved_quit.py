"""Leaving with actions the disk refused: the app asks first, and the process exits non-zero if the GM
leaves all the same."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from tests.ui.fights import messages, opened, saved_round
from tests.ui.steps import SIZE, store
from tui_combat import __main__ as cli
from tui_combat.app import EXIT_UNSAVED, CombatApp
from tui_combat.fight.store import Store
from tui_combat.saves.errors import SaveError
from tui_combat.screens.dialogs import ConfirmDialog
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.sessions import SessionsScreen

DISK_FULL = "No space left on device"


def refuse_writes(app: CombatApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on the session's folder refuses every write, as a full disk would."""
    folder = store(app).folder
    assert folder is not None

    def full(*_args: object, **_kwargs: object) -> None:
        raise SaveError(DISK_FULL)

    monkeypatch.setattr(folder, "append", full)
    monkeypatch.setattr(folder, "write_snapshot", full)


async def test_quitting_with_unsaved_actions_asks_and_exits_non_zero(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved_round(data_root, "ambush", ["Raf", "Ada"], 3)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        refuse_writes(app, monkeypatch)
        await pilot.press("n")  # the monsters' slot: done in memory, refused by the disk
        assert store(app).state.cursor == 1 and store(app).unsaved
        assert any(DISK_FULL in message for message in messages(app))

        await pilot.press("q")
        assert isinstance(app.screen, ConfirmDialog)
        assert DISK_FULL in str(app.screen.message)
        await pilot.press("escape")  # stay
        assert isinstance(app.screen, RoundScreen) and app.return_code is None

        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("enter")  # the first answer, highlighted: stay
        assert isinstance(app.screen, RoundScreen) and app.return_code is None

        await pilot.press("escape")  # back to the list: asks too
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("down", "enter")  # leave without saving
        assert isinstance(app.screen, SessionsScreen) and app.lost_actions
        await pilot.press("q")  # nothing is open now, but actions were lost in this run
    assert app.return_code == EXIT_UNSAVED

    # What the disk took is there; the refused action is not.
    assert Store.resume(data_root / "sessions" / "ambush", read_only=True).state.cursor == 0


async def test_no_question_once_the_disk_takes_the_actions_again(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved_round(data_root, "ambush", ["Raf", "Ada"], 3)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        refuse_writes(app, monkeypatch)
        await pilot.press("n")
        assert store(app).unsaved
        monkeypatch.undo()  # the disk has room again: quitting saves, and asks nothing
        await pilot.press("q")
        assert not isinstance(app.screen, ConfirmDialog)
    assert app.return_code == 0
    assert Store.resume(data_root / "sessions" / "ambush", read_only=True).state.cursor == 1


def test_the_command_exits_with_the_status_of_lost_actions(data_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tui-combat resume NAME``, the GM leaving with an action the disk refused: exit status 3."""
    saved_round(data_root, "ambush", ["Raf", "Ada"], 3)
    run = CombatApp.run
    with pytest.MonkeyPatch.context() as disk:

        async def gm(pilot: Pilot[None]) -> None:
            assert isinstance(pilot.app, CombatApp)
            await opened(pilot)
            refuse_writes(pilot.app, disk)
            await pilot.press("n", "q", "down", "enter")

        def headless(app: CombatApp) -> None:
            run(app, headless=True, size=SIZE, auto_pilot=gm)

        monkeypatch.setattr(CombatApp, "run", headless)
        monkeypatch.setattr(cli, "_has_terminal", lambda: True)  # the app runs headless here
        assert cli.main(["--data-dir", str(data_root), "resume", "ambush"]) == EXIT_UNSAVED
