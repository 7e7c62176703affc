"""An action's journal entry is written before the screen shows it and fsynced once its frame is drawn: the
key's frame does not wait on the disk, and a kill in between loses nothing (the system holds the bytes)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.ui.fights import opened_round
from tests.ui.steps import SIZE, store
from tests.ui.test_form_at_the_foot import start
from tests.waiting import until
from tui_combat.app import CombatApp
from tui_combat.engine.model import State
from tui_combat.saves import journal as journal_module


class Fsyncs:
    """Stands in for the ``os`` module inside the journal, counting each ``fsync``."""

    def __init__(self) -> None:
        self.calls = 0

    def __getattr__(self, name: str) -> object:
        return getattr(os, name)

    def fsync(self, fd: int) -> None:
        self.calls += 1
        os.fsync(fd)


async def test_the_journal_is_fsynced_after_the_frame_of_each_action(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = start(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        await opened_round(pilot)
        fsyncs = Fsyncs()
        monkeypatch.setattr(journal_module, "os", fsyncs)
        told: list[int] = []

        def heard(_state: State) -> None:
            told.append(fsyncs.calls)

        store(app).subscribe(heard)
        for turn in range(1, 3):
            await pilot.press("n")
            await until(pilot, lambda: fsyncs.calls == turn, f"turn {turn} fsynced")
            assert told == list(range(turn))  # the screen was told of each before its fsync
