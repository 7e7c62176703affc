"""Being told when a session folder changes (:class:`~tui_combat.saves.watch.FolderWatch`, Linux's inotify):
each change is told once, a folder deleted and made again is watched again, and where the system cannot tell
there is no watch at all (the players' view then only polls)."""

from __future__ import annotations

import select
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui_combat.saves.watch import FolderWatch

LIMIT = 30.0
"""The longest a test waits to be told (a condition waited for, not a time: it returns the moment it is told)."""


@pytest.fixture
def watch() -> Iterator[FolderWatch]:
    opened = FolderWatch.open()
    assert opened is not None, f"no inotify watch on {sys.platform}: the players' view would only poll here"
    yield opened
    opened.close()


def told(watch: FolderWatch) -> bool:
    """Wait until the watch is readable (at most :data:`LIMIT`), then drain it."""
    readable, _written, _failed = select.select([watch.fileno], [], [], LIMIT)
    return bool(readable) and watch.drain()


def test_an_append_a_rename_and_a_delete_are_each_told_once(watch: FolderWatch, tmp_path: Path) -> None:
    assert watch.watch(tmp_path)
    assert not watch.drain()  # nothing happened yet
    journal = tmp_path / "journal.jsonl"
    with journal.open("a") as file:
        file.write('{"action": 1}\n')
    assert told(watch)
    assert not watch.drain()  # told once
    (tmp_path / "snapshot.json.tmp").write_text("{}")
    (tmp_path / "snapshot.json.tmp").rename(tmp_path / "snapshot.json")
    assert told(watch)
    journal.unlink()
    assert told(watch)


def test_a_folder_deleted_and_made_again_is_watched_again(watch: FolderWatch, tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    folder.mkdir()
    assert watch.watch(folder)
    shutil.rmtree(folder)
    assert told(watch)
    assert not watch.watch(folder)  # gone: nothing to watch
    folder.mkdir()
    assert watch.watch(folder)
    (folder / "journal.jsonl").write_text("\n")
    assert told(watch)


def test_only_the_folder_followed_now_is_watched(watch: FolderWatch, tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    assert watch.watch(first)
    assert watch.watch(second)
    (first / "journal.jsonl").write_text("\n")
    assert not watch.drain()  # an event is queued before the write returns: none was, for the first folder
    (second / "journal.jsonl").write_text("\n")
    assert told(watch)
    assert watch.folder == second
    assert not watch.watch(None)
    (second / "journal.jsonl").write_text("\n\n")
    assert not watch.drain()


def test_where_there_is_no_inotify_there_is_no_watch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert FolderWatch.open() is None
