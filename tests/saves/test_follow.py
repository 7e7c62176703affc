"""A follower (the players' view) of a damaged session reads it once, not again and again while its files stay as
they are."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.saves.helpers import damage_round, small_fight
from tui_combat.engine.model import State
from tui_combat.fight.store import Store
from tui_combat.saves.follow import MAX_RETRY_SECONDS, Follower
from tui_combat.saves.schema import JOURNAL


class CountingReader:
    def __init__(self, fails_with: Exception | None = None) -> None:
        self.reads = 0
        self.fails_with = fails_with

    def __call__(self, folder: Path) -> State:
        self.reads += 1
        if self.fails_with is not None:
            raise self.fails_with
        store = Store.resume(folder, read_only=True)
        try:
            return store.state
        finally:
            store.close()


def test_an_idle_view_of_a_damaged_session_does_not_read_it_again(tmp_path: Path) -> None:
    root = tmp_path / "data"
    store = small_fight(root / "sessions" / "fight")
    damage_round(store, 2)
    store.close()
    with (root / "sessions" / "fight" / JOURNAL).open("ab") as journal:
        journal.write(b"garbage\n" * 100_000)
    reader = CountingReader()
    follower = Follower(root, "fight", reader)
    update = follower.poll(now=0.0)
    assert update is not None and "damaged" in update.problem
    for tick in range(1, 600):  # a minute of polls, ten a second, the files unchanged
        assert follower.poll(now=tick / 10) is None
    assert reader.reads == 1
    with (root / "sessions" / "fight" / JOURNAL).open("ab") as journal:
        journal.write(b"more\n")
    follower.poll(now=61.0)
    assert reader.reads == 2  # a change of its files is looked at at once


def test_a_session_that_cannot_be_read_is_tried_ever_less_often(tmp_path: Path) -> None:
    root = tmp_path / "data"
    small_fight(root / "sessions" / "fight").close()
    reader = CountingReader(fails_with=PermissionError("no"))
    follower = Follower(root, "fight", reader)
    for tick in range(0, 6000):  # ten minutes
        follower.poll(now=tick / 10)
    assert 5 <= reader.reads <= 10 + 600 / MAX_RETRY_SECONDS


@pytest.mark.parametrize("seconds", [1.0])
def test_a_readable_session_is_read_once_while_unchanged(tmp_path: Path, seconds: float) -> None:
    root = tmp_path / "data"
    small_fight(root / "sessions" / "fight").close()
    reader = CountingReader()
    follower = Follower(root, "fight", reader)
    assert follower.poll(now=0.0) is not None
    for tick in range(1, int(seconds * 100)):
        assert follower.poll(now=tick / 10) is None
    assert reader.reads == 1
