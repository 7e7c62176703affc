"""History that stays small: snapshots hold states, the journal is rotated, undo reads blocks back from disk."""

from __future__ import annotations

import json
import os
import shutil
import zlib
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

import tui_combat.fight.store as store_module
from tests.saves.helpers import fingerprint, small_fight
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.fight.store import Store, new_state, recover
from tui_combat.saves import codec
from tui_combat.saves import files as files_module
from tui_combat.saves import journal as journal_module
from tui_combat.saves.history import History
from tui_combat.saves.schema import HISTORY, JOURNAL, PREV_JOURNAL, PREV_SNAPSHOT, SNAPSHOT

FORMAT_1 = Path(__file__).parent / "fixtures" / "ambush-at-the-ford"


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Blocks of 4 actions and a snapshot every 6 entries, so a short test crosses many of both."""
    monkeypatch.setattr(store_module, "BLOCK_SIZE", 4)
    monkeypatch.setattr(store_module, "SNAPSHOT_EVERY", 6)
    yield


def wounds(count: int) -> list[a.Action]:
    return [a.Damage(combatant="c5", amount=1) if n % 3 else a.Heal(combatant="c5", amount=1) for n in range(count)]


class CountingApply:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, state: State, action: a.Action) -> State:
        self.calls += 1
        return apply(state, action)


# -- the history structure ------------------------------------------------------------------------------
def test_history_pops_across_blocks_like_a_list_of_states() -> None:
    start = small_fight(None).state
    history = History(start, apply, block_size=3)
    states = [start]
    for action in wounds(11):
        states.append(apply(states[-1], action))
        history.push(action, states[-1], tag=len(states))
    assert len(history) == 11 and len(history.sealed) == 3
    while len(history):
        action, before = history.pop()
        states.pop()
        assert before == states[-1]
    with pytest.raises(IndexError):
        history.pop()


def test_a_block_that_cannot_be_read_leaves_the_history_as_it_was() -> None:
    start = small_fight(None).state

    def unreadable(index: int, tag: int) -> tuple[State, list[a.Action]]:
        raise OSError("disk gone")

    history = History(start, apply, block_size=2, load=unreadable)
    for n, action in enumerate(wounds(4)):
        history.push(action, apply(history.current, action), tag=n + 1)
    history.mark_saved(keep_in_memory=False)
    for _ in range(2):  # the block sealed last keeps its states in memory: no read
        history.pop()
    current = history.current
    with pytest.raises(OSError):
        history.pop()
    assert len(history) == 2 and history.current is current


# -- snapshots and journals stay the size of what changed -----------------------------------------------
def test_a_snapshot_holds_states_and_the_open_run_not_every_action(tmp_path: Path, small_blocks: None) -> None:
    folder = tmp_path / "fight"
    store = small_fight(folder)
    for action in wounds(40):
        store.dispatch(action)
    store.save_now()
    store.close()
    raw = json.loads((folder / SNAPSHOT).read_bytes())
    assert raw["schema"] == codec.SNAPSHOT_SCHEMA
    assert "done" not in raw and len(raw["run"]) < 4
    assert len(raw["sealed"]) == len(store.done_actions()) // 4
    assert [line for line in (folder / JOURNAL).read_bytes().split(b"\n") if line][1:] == []  # rotated: the header only


def test_the_journal_is_rotated_at_each_snapshot(tmp_path: Path, small_blocks: None) -> None:
    folder = tmp_path / "fight"
    store = small_fight(folder)
    for action in wounds(20):
        store.dispatch(action)
        lines = (folder / JOURNAL).read_bytes().count(b"\n")
        assert lines <= 6 + 1  # the header, then the entries since the last snapshot
    store.close()
    previous = (folder / PREV_JOURNAL).read_bytes().split(b"\n")
    header = codec.line_decoder.decode(previous[0])
    assert isinstance(header, codec.JournalHeader) and header.after > 0
    resumed = Store.resume(folder)
    assert resumed.state == store.state and resumed.done_actions() == store.done_actions()


def test_old_history_blocks_are_deleted_once_no_kept_snapshot_needs_them(tmp_path: Path, small_blocks: None) -> None:
    folder = tmp_path / "fight"
    store = small_fight(folder)
    for action in wounds(30):
        store.dispatch(action)
    for _ in range(25):  # back into the early blocks, then a new branch: the later blocks are superseded
        store.undo()
    for action in wounds(30):
        store.dispatch(action)
    store.save_now()
    store.close()
    referenced = set()
    for name in (SNAPSHOT, PREV_SNAPSHOT):
        raw = json.loads((folder / name).read_bytes())
        referenced |= {codec.block_name(index, tag) for index, tag in enumerate(raw["sealed"])}
    assert set(path.name for path in (folder / HISTORY).iterdir()) == referenced
    for path in (folder / HISTORY).iterdir():
        block = codec.block_decoder.decode(zlib.decompress(path.read_bytes()))
        assert len(block.actions) == 4


# -- undo without every state, across restarts ------------------------------------------------------------
def test_undo_all_the_way_back_across_a_restart(tmp_path: Path, small_blocks: None) -> None:
    folder = tmp_path / "fight"
    store = small_fight(folder)
    states = [store.base]
    actions = store.done_actions() + wounds(37)
    state = store.base
    for action in actions:
        state = apply(state, action)
        states.append(state)
    for action in actions[len(store.done_actions()) :]:
        store.dispatch(action)
    assert store.state == states[-1]
    # Sealed blocks already on disk are not kept in memory.
    assert all(block.start is None for block in store._history.sealed if block.saved)
    store.close()

    resumed = Store.resume(folder)
    for expected in reversed(states[:-1]):
        resumed.undo()
        assert resumed.state == expected
    assert not resumed.can_undo
    resumed.close()
    again = Store.resume(folder)
    assert again.state == states[0] and again.base == states[0]
    for expected in states[1:]:
        again.redo()
        assert again.state == expected
    again.close()


def test_the_first_undo_after_a_resume_replays_no_more_than_a_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "BLOCK_SIZE", 50)
    folder = tmp_path / "fight"
    store = small_fight(folder)
    for action in wounds(1_000):
        store.dispatch(action)
    store.close()
    counting = CountingApply()
    monkeypatch.setattr(store_module, "apply", counting)
    resumed = Store.resume(folder)
    counting.calls = 0
    resumed.undo()
    first = counting.calls
    assert first <= 50
    worst_ordinary = 0
    for _ in range(120):  # further undos, across block boundaries: none costs more than a block either
        counting.calls = 0
        resumed.undo()
        worst_ordinary = max(worst_ordinary, counting.calls)
    assert worst_ordinary == 50 and first <= worst_ordinary
    resumed.close()


def test_undo_and_redo_step_through_held_states_after_a_resume_and_across_a_seal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "BLOCK_SIZE", 50)
    folder = tmp_path / "fight"
    store = small_fight(folder)
    for action in wounds(1_000 - len(store.done_actions()) - 3):  # the 3rd new action seals a block
        store.dispatch(action)
    store.close()
    counting = CountingApply()
    monkeypatch.setattr(store_module, "apply", counting)
    resumed = Store.resume(folder)
    states = [resumed.state]
    for action in wounds(8):
        resumed.dispatch(action)
        states.append(resumed.state)
    counting.calls = 0
    for expected in reversed(states[:-1]):  # back across the seal, to where the resume left it
        resumed.undo()
        assert resumed.state == expected
    for expected in states[1:]:
        resumed.redo()
        assert resumed.state == expected
    assert counting.calls == 0
    resumed.undo()
    resumed.dispatch(a.Damage(combatant="c5", amount=2))
    counting.calls = 0
    resumed.undo()
    assert counting.calls == 0 and resumed.state == states[-2]
    resumed.close()


def test_an_unreadable_history_block_refuses_that_undo_without_a_traceback(tmp_path: Path, small_blocks: None) -> None:
    folder = tmp_path / "fight"
    store = small_fight(folder)
    for action in wounds(8):
        store.dispatch(action)
    store.save_now()
    for path in (folder / HISTORY).iterdir():
        path.write_bytes(b"not a block")
    while store._history.run:
        store.undo()
    for _ in range(4):  # the block sealed last keeps its states in memory: undone without a read
        store.undo()
    assert len(store._history.sealed) >= 1
    state = store.state
    with pytest.raises(RuleError, match="damaged"):
        store.undo()
    assert store.can_undo and store.state is state
    store.close()


def test_save_as_carries_the_whole_history_to_the_new_folder(tmp_path: Path, small_blocks: None) -> None:
    store = small_fight(tmp_path / "first")
    for action in wounds(21):
        store.dispatch(action)
    done = store.done_actions()
    store.save_as(tmp_path / "second")
    store.close()
    shutil.rmtree(tmp_path / "first")
    resumed = Store.resume(tmp_path / "second")
    assert resumed.done_actions() == done
    while resumed.can_undo:
        resumed.undo()
    assert resumed.state == new_state(seed=11, ruleset="adnd2e")


# -- a session saved in format 1 (before history blocks) --------------------------------------------------
def format_1_actions() -> list[a.Action]:
    """What tests/saves/fixtures/ambush-at-the-ford holds, written by the previous version: these actions, then undo,
    undo, redo, a note, undo (the snapshot was written after the first undo; the rest is in the journal)."""
    actions: list[a.Action] = [
        a.SetName(name="Засада у брода"),
        a.AddSide(name="Отряд", is_party=True),
        a.AddSide(name="Чудовища"),
        a.AddCombatants(side="s1", name="Дельсенора", hp=14),
        a.AddCombatants(side="s2", name="Тролль", hp=36, count=2),
    ]
    return actions + [a.Damage(combatant="c5", amount=n) for n in range(1, 6)]


def test_a_format_1_session_opens_unchanged_and_is_written_in_the_current_format_next(tmp_path: Path) -> None:
    folder = tmp_path / "old"
    shutil.copytree(FORMAT_1, folder)
    before = fingerprint(folder)
    actions = format_1_actions()
    done = actions[:-1]  # the last damage was undone, then the note done and undone: the note is the one redo
    states = [new_state(seed=21, ruleset="adnd2e")]
    for action in actions:
        states.append(apply(states[-1], action))

    store = Store.resume(folder)
    assert fingerprint(folder) == before
    assert store.upgraded_from == 1  # its states had schema 1: rebuilt by replaying its history
    assert store.state == states[-2] and store.state.combatant("c5").hp == 26
    assert store.done_actions() == done and store._redo == [a.Note(text="после снимка")]
    store.dispatch(a.Note(text="в новом формате"))
    assert json.loads((folder / SNAPSHOT).read_bytes())["schema"] == codec.SNAPSHOT_SCHEMA
    assert json.loads((folder / PREV_SNAPSHOT).read_bytes())["schema"] == 1  # the old snapshot, kept as it was
    assert (folder / "snapshot.schema1.json").read_bytes() == (FORMAT_1 / SNAPSHOT).read_bytes()
    assert (folder / "journal.schema1.jsonl").read_bytes() == (FORMAT_1 / JOURNAL).read_bytes()
    store.close()

    again = Store.resume(folder)
    assert again.done_actions() == [*done, a.Note(text="в новом формате")]
    while again.can_undo:
        again.undo()
    assert again.state == states[0]
    again.close()


def test_a_format_1_previous_snapshot_still_serves_a_recovery(tmp_path: Path) -> None:
    folder = tmp_path / "old"
    shutil.copytree(FORMAT_1, folder)
    store = Store.resume(folder)
    store.dispatch(a.Note(text="в новом формате"))
    store.close()
    (folder / SNAPSHOT).write_bytes(b"{")
    rebuilt = recover(folder, tmp_path / "rebuilt")
    assert rebuilt.state == store.state and rebuilt.done_actions() == store.done_actions()
    rebuilt.close()


def test_every_snapshot_format_has_a_decoder() -> None:
    assert sorted(codec.snapshot_decoders) == list(range(1, codec.SNAPSHOT_SCHEMA + 1))
    old = msgspec.json.decode((FORMAT_1 / SNAPSHOT).read_bytes(), type=codec.SchemaProbe)
    assert isinstance(codec.snapshot_decoders[old.schema].decode((FORMAT_1 / SNAPSHOT).read_bytes()), codec.SnapshotV1)


def _eighteen_actions(folder: Path) -> list[Path]:
    store = small_fight(folder)
    for action in wounds(14):
        store.dispatch(action)
    store.save_now()
    store.close()
    blocks = sorted((folder / HISTORY).iterdir())
    assert len(blocks) == 4  # 18 actions: 4 sealed blocks of 4, a run of 2
    return blocks


def _flip(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0x01
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", ["missing", "flipped"])
def test_a_damaged_history_block_opens_read_only_and_nothing_is_rewritten(
    tmp_path: Path, small_blocks: None, damage: str
) -> None:
    folder = tmp_path / "fight"
    blocks = _eighteen_actions(folder)
    if damage == "missing":
        blocks[1].unlink()
    else:
        _flip(blocks[1], len(blocks[1].read_bytes()) // 2)
    before = fingerprint(folder)
    resumed = Store.resume(folder)
    assert resumed.read_only
    reason = resumed.read_only_reason
    assert blocks[1].name in reason and "read-only" in reason and "tui-combat recover fight" in reason
    assert "Undo reaches back only to action 8" in reason
    assert resumed.warnings == [reason]
    with pytest.raises(RuleError):
        resumed.undo()
    with pytest.raises(RuleError):
        resumed.dispatch(a.Damage(combatant="c5", amount=1))
    resumed.save_now()
    resumed.close()
    assert fingerprint(folder) == before, "a session with a damaged history block was written to"
    rebuilt = recover(folder, tmp_path / "rebuilt")
    assert fingerprint(folder) == before
    assert any("undo reaches back only to action 8" in warning for warning in rebuilt.warnings)
    for _ in range(10):
        rebuilt.undo()
    with pytest.raises(RuleError):
        rebuilt.undo()
    rebuilt.close()
    again = Store.resume(tmp_path / "rebuilt")
    assert not again.read_only and again.state == rebuilt.state
    again.close()


@pytest.mark.parametrize("name", [PREV_SNAPSHOT, PREV_JOURNAL])
def test_a_flipped_byte_in_the_previous_snapshot_or_journal_opens_read_only(
    tmp_path: Path, small_blocks: None, name: str
) -> None:
    folder = tmp_path / "fight"
    _eighteen_actions(folder)
    _flip(folder / name, 40)
    before = fingerprint(folder)
    resumed = Store.resume(folder)
    assert resumed.read_only and name in resumed.read_only_reason
    resumed.save_now()
    resumed.close()
    assert fingerprint(folder) == before


class _AppendsFail:
    """The ``os`` module inside the journal, except that every write fails: no entry reaches the journal."""

    def __getattr__(self, name: str) -> object:
        return getattr(os, name)

    @staticmethod
    def write(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")


def test_blocks_left_by_a_failed_snapshot_are_rewritten_not_trusted(
    tmp_path: Path, small_blocks: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "fight"
    store = small_fight(folder)  # 4 actions: one sealed block, written with the first snapshot below
    store.save_now()
    real_write_atomic = files_module.Folder.write_atomic

    def snapshot_fails(self: files_module.Folder, name: str, data: bytes) -> None:
        if name == SNAPSHOT:
            raise OSError(28, "No space left on device")
        real_write_atomic(self, name, data)

    with monkeypatch.context() as patched:
        patched.setattr(journal_module, "os", _AppendsFail())
        patched.setattr(files_module.Folder, "write_atomic", snapshot_fails)
        for action in wounds(4):  # seals block 1; its file is written, the snapshot naming it is not
            store.dispatch(action)
        assert store.unsaved
    store.close()
    assert len(list((folder / HISTORY).iterdir())) == 2

    resumed = Store.resume(folder)  # back at the last snapshot: the four unsaved actions are gone
    other = [a.Note(text=f"другая ветка {n}") for n in range(4)]
    states = [resumed.state]
    for action in other:  # the same seqs seal block 1 again, with other actions
        resumed.dispatch(action)
        states.append(resumed.state)
    resumed.save_now()
    resumed.close()

    again = Store.resume(folder)
    for expected in reversed(states[:-1]):
        again.undo()
        assert again.state == expected
    again.close()


def _as_written_before_checksums(folder: Path) -> None:
    """The session's files as a version without checksums wrote them: snapshot format 3, journal format 1."""
    for name in (SNAPSHOT, PREV_SNAPSHOT):
        raw = json.loads((folder / name).read_bytes())
        raw.pop("sum")
        raw.pop("block_sums", None)
        raw["schema"] = 3
        (folder / name).write_bytes(msgspec.json.encode(raw))
    for name in (JOURNAL, PREV_JOURNAL):
        lines = []
        for written in (folder / name).read_bytes().splitlines():
            raw = json.loads(written)
            raw.pop("sum")
            if raw["k"] == "header":
                raw["schema"] = 1
            lines.append(msgspec.json.encode(raw) + b"\n")
        (folder / name).write_bytes(b"".join(lines))


def test_a_session_written_before_checksums_opens_and_is_written_with_them(tmp_path: Path, small_blocks: None) -> None:
    folder = tmp_path / "fight"
    blocks = _eighteen_actions(folder)
    store = Store.resume(folder)
    store.dispatch(a.Damage(combatant="c5", amount=2))
    expected = store.state
    store.close()
    _as_written_before_checksums(folder)
    resumed = Store.resume(folder)
    assert not resumed.read_only and resumed.state == expected
    for _ in range(12):
        resumed.undo()  # reaches into the blocks, whose own compression still checks them
    resumed.save_now()
    resumed.close()
    snapshot = json.loads((folder / SNAPSHOT).read_bytes())
    assert snapshot["schema"] == codec.SNAPSHOT_SCHEMA and all(sum_ >= 0 for sum_ in snapshot["block_sums"])
    _as_written_before_checksums(folder)
    _flip(blocks[0], len(blocks[0].read_bytes()) // 2)
    before = fingerprint(folder)
    damaged = Store.resume(folder)
    assert damaged.read_only and blocks[0].name in damaged.read_only_reason
    damaged.close()
    assert fingerprint(folder) == before


class _NoStates:
    def decode(self, data: bytes) -> None:
        raise AssertionError("a history block's state was decoded")


def test_reading_every_action_does_not_decode_the_states_of_the_blocks(
    tmp_path: Path, small_blocks: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = small_fight(tmp_path / "s")
    for action in wounds(30):
        store.dispatch(action)
    done = store.done_actions()
    store.close()
    resumed = Store.resume(tmp_path / "s", read_only=True)
    monkeypatch.setattr(codec, "block_decoder", _NoStates())
    assert len(resumed._history.sealed) > 3 and resumed.done_actions() == done
    resumed.close()


def test_a_session_saved_with_the_whole_log_in_its_states_opens_with_the_newest_entries(
    tmp_path: Path, small_blocks: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Saved before the log left the state (every entry in every snapshot and history block): it opens, its
    states cut down to the newest entries; undo, the report and the next snapshot work as for a new session."""
    from tui_combat.engine import log_window
    from tui_combat.engine import messages as log_module
    from tui_combat.fight.report import store_report

    monkeypatch.setattr(log_module, "LOG_CHUNK", 2)
    monkeypatch.setattr(log_window, "LOG_KEPT", 10**9)  # as before: a state holds the whole log
    store = small_fight(tmp_path / "s")
    for number, action in enumerate(wounds(21)):
        store.dispatch(action if number % 4 else a.Note(text=f"note {number}"))
    whole = store.state.log_entries()
    report = store_report(store)
    store.close()
    old_size = (tmp_path / "s" / SNAPSHOT).stat().st_size
    monkeypatch.setattr(log_window, "LOG_KEPT", 3)
    resumed = Store.resume(tmp_path / "s")
    state = resumed.state
    assert state.log_count == len(whole) and state.log_entries() == whole[state.log_start :] and state.log_start > 0
    assert store_report(resumed) == report
    assert apply_all(resumed.base, resumed.done_actions()) == state
    resumed.undo()
    resumed.redo()
    assert resumed.state == state
    resumed.save_now()
    assert (tmp_path / "s" / SNAPSHOT).stat().st_size < old_size
    while resumed.can_undo:
        resumed.undo()
    assert resumed.state == resumed.base
    resumed.close()


def test_a_session_of_the_format_before_is_left_as_it_was_until_it_changes(
    tmp_path: Path, small_blocks: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tui_combat.engine import log_window
    from tui_combat.engine import messages as log_module

    folder = tmp_path / "s"
    with monkeypatch.context() as old_version:  # format 4: every state holds the whole log
        old_version.setattr(log_module, "LOG_CHUNK", 2)
        old_version.setattr(log_window, "LOG_KEPT", 10**9)
        old_version.setattr(codec, "SNAPSHOT_SCHEMA", 4)
        store = small_fight(folder)
        for number in range(9):
            store.dispatch(a.Note(text=f"note {number}"))
        store.save_now()
        store.close()
    assert json.loads((folder / SNAPSHOT).read_bytes())["schema"] == 4
    monkeypatch.setattr(log_module, "LOG_CHUNK", 2)
    monkeypatch.setattr(log_window, "LOG_KEPT", 3)
    before = fingerprint(folder)
    looked_at = Store.resume(folder)
    looked_at.save_now()
    looked_at.close()
    assert fingerprint(folder) == before
    changed = Store.resume(folder)
    changed.dispatch(a.Note(text="after"))
    changed.close()
    snapshot = json.loads((folder / SNAPSHOT).read_bytes())
    assert snapshot["schema"] == codec.SNAPSHOT_SCHEMA == 5 and len(snapshot["current"]["log"][-1]) <= 2
    assert sum(map(len, snapshot["current"]["log"])) < 5 and snapshot["current"]["log_start"] > 0


def apply_all(state: State, actions: list[a.Action]) -> State:
    for action in actions:
        state = apply(state, action)
    return state


def test_a_session_cut_in_blocks_of_another_size_resumes_and_undoes_all_the_way_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Played with blocks of 4 (as sessions of an older version were cut in blocks of 100), resumed where new
    sessions have blocks of 9: an undo all the way back goes through every state it went through."""
    monkeypatch.setattr(store_module, "BLOCK_SIZE", 4)
    monkeypatch.setattr(store_module, "SNAPSHOT_EVERY", 6)
    folder = tmp_path / "fight"
    store = small_fight(folder)
    states = [store.state]
    for action in wounds(30):
        states.append(store.dispatch(action))
    store.close()
    monkeypatch.setattr(store_module, "BLOCK_SIZE", 9)
    resumed = Store.resume(folder)
    assert resumed.state == states[-1]
    for expected in reversed(states[:-1]):
        resumed.undo()
        assert resumed.state == expected
    resumed.close()
