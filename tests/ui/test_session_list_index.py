"""The session list is first drawn as its index last saw the sessions, without reading any session's
files, then checked against them: a session written since (by another copy of tui-combat) shows where it
stands now."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import DataTable

from tests.saves.test_session_index import fought, moved_on
from tests.ui.steps import SIZE
from tests.waiting import until, until_screen
from tui_combat.app import CombatApp
from tui_combat.fight import session
from tui_combat.saves import session_folders
from tui_combat.screens.sessions import SessionsScreen
from tui_combat.widgets.session_table import SessionTable


def where(table: DataTable[object], key: str) -> str:
    return str(table.get_row(key)[2])


async def test_the_list_drawn_from_the_index_is_then_checked_against_the_sessions(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fought(data_root, "ambush", "Ambush")
    fought(data_root, "bridge", "Bridge")
    session.list_sessions(data_root, steps=True)  # the index written
    moved_on(data_root, "ambush")  # since then, by another copy of tui-combat
    told = {info.key: session.progress_label(info) for info in session.indexed_sessions(data_root) or ()}

    events: list[str] = []
    fill, stamp = SessionTable.fill, session_folders.stamp

    def filled(table: SessionTable, *args: object, **kwargs: object) -> None:
        events.append("fill")
        fill(table, *args, **kwargs)  # type: ignore[arg-type]

    def stamped(folder: str) -> object:
        events.append("stamp")
        return stamp(folder)

    monkeypatch.setattr(SessionTable, "fill", filled)
    monkeypatch.setattr(session_folders, "stamp", stamped)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await until_screen(pilot, SessionsScreen)
        table = screen.query_one(DataTable)
        assert events[0] == "fill"  # drawn before any session's files were looked at
        truth = {info.key: session.progress_label(info) for info in session.list_sessions(data_root, steps=True)}
        assert truth["ambush"] != told["ambush"]
        await until(
            pilot,
            lambda: where(table, "ambush") == truth["ambush"],
            "Ambush where it stands now",
            describe=lambda: where(table, "ambush"),
        )
        assert "stamp" in events and events.count("fill") == 2
        assert where(table, "bridge") == truth["bridge"]
