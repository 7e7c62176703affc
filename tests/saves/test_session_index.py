"""The session list's index: what was read of each session is kept beside the sessions, read back while
their files are as they were, and rebuilt from the sessions when it is missing, damaged or stale; the
sessions stay the truth."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from tests.ui.fights import round_state
from tui_combat.engine import actions as a
from tui_combat.fight import session
from tui_combat.fight.store import Store, new_state
from tui_combat.saves import session_folders
from tui_combat.saves.index import INDEX_FILE, read_index
from tui_combat.saves.locations import sessions_dir
from tui_combat.saves.schema import JOURNAL

ROOT = Path(__file__).resolve().parents[2]


def named(root: Path, key: str, name: str) -> Path:
    folder = sessions_dir(root) / key
    Store.create(msgspec.structs.replace(new_state(seed=1, ruleset="adnd2e"), name=name), folder).close()
    return folder


def fought(root: Path, key: str, name: str) -> Path:
    """A fight in round 1 (its step moves on with each next step)."""
    folder = sessions_dir(root) / key
    Store.create(round_state(["Raf"], 2, name=name), folder).close()
    return folder


def moved_on(root: Path, key: str, steps: int = 2) -> None:
    store = session.resume(root, key)
    for _ in range(steps):
        store.dispatch(a.NextStep())  # journalled after the snapshot
    store.close()


def truth(root: Path) -> list[tuple[str, str, str]]:
    """The list as it is read from the sessions alone (no index)."""
    (root / INDEX_FILE).unlink(missing_ok=True)
    return listed(root)


def listed(root: Path, *, steps: bool = True) -> list[tuple[str, str, str]]:
    return sorted(
        (info.key, info.name, session.progress_label(info)) for info in session.list_sessions(root, steps=steps)
    )


def no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on a session's files are not read for the list: only the index can answer."""

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("a session was read although the index has it")

    monkeypatch.setattr(session_folders, "_info", refused)
    monkeypatch.setattr(session, "_shown", refused)


def test_the_first_list_writes_the_index_and_the_next_reads_no_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    named(tmp_path, "a", "Ambush")
    named(tmp_path, "b", "Bridge")
    assert not (tmp_path / INDEX_FILE).exists()
    first = listed(tmp_path)
    assert first == [("a", "Ambush", "set-up"), ("b", "Bridge", "set-up")]
    assert set(read_index(tmp_path)) == {"a", "b"}
    no_reading(monkeypatch)
    assert listed(tmp_path) == first
    assert [info.key for info in session_folders.list_sessions(tmp_path)] == [
        info.key for info in session.list_sessions(tmp_path)
    ]
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]  # no temporary file left


@pytest.mark.parametrize("damage", [b"", b"{", b"\0" * 64, b"not json at all", b'{"schema": 1}', b"[1, 2, 3]"])
def test_a_damaged_index_is_rebuilt_from_the_sessions(tmp_path: Path, damage: bytes) -> None:
    named(tmp_path, "a", "Ambush")
    expected = listed(tmp_path)
    (tmp_path / INDEX_FILE).write_bytes(damage)
    assert listed(tmp_path) == expected
    assert set(read_index(tmp_path)) == {"a"}  # written again, whole


def test_an_index_of_another_version_or_format_counts_as_empty(tmp_path: Path) -> None:
    named(tmp_path, "a", "Ambush")
    listed(tmp_path)
    for field, value in (("version", "0.0.1"), ("schema", 99), ("formats", [1, 1])):
        document = json.loads((tmp_path / INDEX_FILE).read_bytes())
        document[field] = value
        (tmp_path / INDEX_FILE).write_text(json.dumps(document))
        assert read_index(tmp_path) == {}, field
        assert listed(tmp_path) == [("a", "Ambush", "set-up")]
        assert set(read_index(tmp_path)) == {"a"}


def test_an_index_that_lies_about_a_session_it_no_longer_matches_is_not_believed(tmp_path: Path) -> None:
    """The index says another name for a session whose files changed since: the files win."""
    named(tmp_path, "a", "Ambush")
    listed(tmp_path)
    document = json.loads((tmp_path / INDEX_FILE).read_bytes())
    document["entries"]["a"]["listed"]["name"] = document["entries"]["a"]["shown"]["name"] = "Lie"
    document["entries"]["a"]["stamp"][0][1] += 1  # a size the snapshot does not have
    (tmp_path / INDEX_FILE).write_text(json.dumps(document))
    assert listed(tmp_path) == [("a", "Ambush", "set-up")]


def test_a_session_written_since_is_read_again_and_only_that_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    named(tmp_path, "a", "Ambush")
    fought(tmp_path, "b", "Bridge")
    before = listed(tmp_path)
    moved_on(tmp_path, "b")
    read: list[str] = []
    real = session_folders._info

    def counted(key: str, folder: object) -> object:
        read.append(key)
        return real(key, folder)  # type: ignore[arg-type]

    monkeypatch.setattr(session_folders, "_info", counted)
    after = listed(tmp_path)
    assert read == ["b"]
    assert after != before and after[0] == before[0]
    assert listed(tmp_path) == after
    assert read == ["b"]  # the index has it now
    assert truth(tmp_path) == after


def test_a_save_by_another_running_copy_shows_in_the_list(tmp_path: Path) -> None:
    """Another process holds the session and writes to it while this one lists: every list shows what it
    wrote so far, the journal lines after the snapshot as well as the snapshot itself."""
    fought(tmp_path, "a", "Ambush")
    shown = [listed(tmp_path)]
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sys\n"
                "from pathlib import Path\n"
                "from tui_combat.fight import session\n"
                "from tui_combat.engine import actions as a\n"
                "store = session.resume(Path(sys.argv[1]), 'a')\n"
                "assert not store.read_only\n"
                "for line in sys.stdin:\n"
                "    if line.strip() == 'snapshot':\n"
                "        store.save_now()\n"
                "    else:\n"
                "        store.dispatch(a.NextStep())\n"
                "    print('done', flush=True)\n"
                "store.close()\n"
            ),
            str(tmp_path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert writer.stdin is not None and writer.stdout is not None

    def written(line: str) -> None:
        assert writer.stdin is not None and writer.stdout is not None
        writer.stdin.write(line + "\n")
        writer.stdin.flush()
        assert writer.stdout.readline().strip() == "done"

    try:
        for _ in range(5):  # the cursor to the next slot, the end of the round, the next round's steps
            written("next")
            shown.append(listed(tmp_path))
            assert shown[-1] == truth(tmp_path)
        assert len(set(map(tuple, shown))) == 5  # each step shown (but the cursor's move within one)
        written("snapshot")
        assert listed(tmp_path) == shown[-1] == truth(tmp_path)
    finally:
        writer.stdin.close()
        assert writer.wait(timeout=30) == 0


def test_sessions_come_and_go_in_the_index(tmp_path: Path) -> None:
    named(tmp_path, "a", "Ambush")
    named(tmp_path, "b", "Bridge")
    listed(tmp_path)
    session.delete(tmp_path, "a")
    named(tmp_path, "c", "Cave")
    assert listed(tmp_path) == [("b", "Bridge", "set-up"), ("c", "Cave", "set-up")]
    assert set(read_index(tmp_path)) == {"b", "c"}


def test_a_damaged_session_is_listed_damaged_although_the_index_knew_it_whole(tmp_path: Path) -> None:
    folder = fought(tmp_path, "a", "Ambush")
    moved_on(tmp_path, "a")
    assert listed(tmp_path) == [("a", "Ambush", "round 1 · End of round")]
    journal = folder / JOURNAL
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join(lines[:-1]) + lines[-1].replace(b'"next"', b'"prev"'))  # its sum is wrong now
    (info,) = session.list_sessions(tmp_path, steps=True)
    assert info.problem == session_folders.RECOVERABLE


def test_an_index_that_is_a_symbolic_link_is_not_followed(tmp_path: Path) -> None:
    named(tmp_path, "a", "Ambush")
    listed(tmp_path)
    elsewhere = tmp_path.parent / f"{tmp_path.name}-elsewhere.json"
    elsewhere.write_bytes((tmp_path / INDEX_FILE).read_bytes())
    (tmp_path / INDEX_FILE).unlink()
    (tmp_path / INDEX_FILE).symlink_to(elsewhere)
    kept = elsewhere.read_bytes()
    assert read_index(tmp_path) == {}
    assert listed(tmp_path) == [("a", "Ambush", "set-up")]
    assert elsewhere.read_bytes() == kept
    assert not (tmp_path / INDEX_FILE).is_symlink()  # replaced by an index of its own


def test_a_data_folder_that_cannot_take_the_index_still_lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    named(tmp_path, "a", "Ambush")
    real_open = os.open

    def refused(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if str(path).endswith(".tmp") and INDEX_FILE in str(path):
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refused)
    assert listed(tmp_path) == [("a", "Ambush", "set-up")]
    assert not (tmp_path / INDEX_FILE).exists()


def test_five_hundred_sessions_are_listed_right_newest_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # only to build them quickly
    for number in range(500):
        if number % 50:
            named(tmp_path, f"fight-{number:03}", f"Fight {number}")
        else:  # some in a round, moved on since their snapshot
            fought(tmp_path, f"fight-{number:03}", f"Fight {number}")
            moved_on(tmp_path, f"fight-{number:03}", number // 50 % 3 * 2)
    first = listed(tmp_path)
    assert [(key, name) for key, name, _where in first] == [(f"fight-{n:03}", f"Fight {n}") for n in range(500)]
    assert {where for key, _name, where in first if int(key[-3:]) % 50} == {"set-up"}
    assert len({where for key, _name, where in first if int(key[-3:]) % 50 == 0}) == 3
    with monkeypatch.context() as reading:
        no_reading(reading)
        assert listed(tmp_path) == first
        infos = session.list_sessions(tmp_path, steps=True)
        assert [info.saved_at for info in infos] == sorted((info.saved_at for info in infos), reverse=True)
    assert truth(tmp_path) == first


def test_the_quick_list_with_steps_does_not_stand_in_for_the_session_lists_replay(tmp_path: Path) -> None:
    """The saves' own list with steps reads no journal line after the snapshot; what it found is not kept as
    what the session list shows (which replays them)."""
    fought(tmp_path, "a", "Ambush")
    moved_on(tmp_path, "a")
    (quick,) = session_folders.list_sessions(tmp_path, steps=True)
    assert session.progress_label(quick) == "round 1"
    assert listed(tmp_path) == [("a", "Ambush", "round 1 · End of round")]
    (quick,) = session_folders.list_sessions(tmp_path, steps=True)
    assert session.progress_label(quick) == "round 1"


def test_the_index_alone_gives_the_list_as_last_seen_and_none_until_it_knows_every_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long list is first drawn from the index without looking at any session's files, then checked
    (:func:`session.list_sessions`): what the index says is the list as it was when last read."""
    assert session.indexed_sessions(tmp_path) is None  # no index yet
    fought(tmp_path, "a", "Ambush")
    named(tmp_path, "b", "Bridge")
    session.list_sessions(tmp_path)  # an index without the steps the list shows
    assert session.indexed_sessions(tmp_path) is None
    read = session.list_sessions(tmp_path, steps=True)
    moved_on(tmp_path, "a")  # written since

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("a session's files were looked at")

    with monkeypatch.context() as blind:
        blind.setattr(session_folders, "stamp", refused)
        blind.setattr(session_folders, "_info", refused)
        indexed = session.indexed_sessions(tmp_path)
    assert indexed == read  # as last seen, newest first
    assert session.list_sessions(tmp_path, steps=True) != read  # the files tell what changed since
