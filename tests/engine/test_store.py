"""The Store: dispatch, undo/redo, the journal on disk, resume, and what happens when the disk says no."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import tui_combat.fight.store as store_module
from tui_combat.engine import actions as a
from tui_combat.engine import log_window, registry
from tui_combat.engine import messages as log_module
from tui_combat.engine.apply import apply, apply_logged, initiative_asked
from tui_combat.engine.dice import Roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.fight.store import Store, new_state
from tui_combat.saves import codec
from tui_combat.saves import files as files_module
from tui_combat.saves import history as history_module
from tui_combat.saves import journal as journal_module
from tui_combat.saves.errors import SaveError
from tui_combat.saves.journal import JOURNAL, SNAPSHOT

CYRILLIC = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
names = st.one_of(
    st.text(alphabet=CYRILLIC + " -'", min_size=1, max_size=20),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=20),
    st.sampled_from(["Дельсенора", "Тролль", "Ørc", "鬼", "Raf 🪓", "  ", "\u200b"]),
)


def replay(state: State, actions: list[a.Action]) -> State:
    for action in actions:
        state = apply(state, action)
    return state


def is_initiative_step(state: State) -> bool:
    if state.phase != "round":
        return False
    return registry.get(state.ruleset).steps(state)[state.step].kind == "initiative"


# -- the stateful test ----------------------------------------------------------------------------------
class StoreMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="tui-combat-store-"))
        self.folder = self.root / "сессия"
        self.store = Store.create(new_state(seed=7, ruleset="adnd2e"), self.folder)
        self.store.dispatch(a.AddSide(name="Отряд", is_party=True))
        self.store.dispatch(a.AddSide(name="Monsters"))
        self.store.dispatch(a.AddCombatants(side="s1", name="Дельсенора", hp=14))
        self.store.dispatch(a.AddCombatants(side="s2", name="Тролль", hp=36))

    @initialize(in_fight=st.booleans())
    def maybe_start_at_the_initiative_step(self, in_fight: bool) -> None:
        if in_fight:
            for action in (a.BeginSurprise(), a.StartFight(), a.NextStep(), a.NextStep()):
                self.store.dispatch(action)
            assert is_initiative_step(self.store.state)

    def teardown(self) -> None:
        self.store.close()
        shutil.rmtree(self.root, ignore_errors=True)

    def _try(self, action: a.Action) -> None:
        """Dispatch; a refusal must leave the store exactly as it was."""
        before, history, redo = self.store.state, self.store.done_actions(), self.store.can_redo
        try:
            self.store.dispatch(action)
        except RuleError:
            assert self.store.state is before
            assert self.store.done_actions() == history
            assert self.store.can_redo == redo

    def _combatant(self, index: int) -> str | None:
        combatants = self.store.state.combatants
        return combatants[index % len(combatants)].id if combatants else None

    @rule(side=st.sampled_from(["s1", "s2"]), name=names, hp=st.integers(0, 200), count=st.sampled_from([1, 1, 1, 3]))
    def add_combatant(self, side: str, name: str, hp: int, count: int) -> None:
        self._try(a.AddCombatants(side=side, name=name, hp=hp, count=count))

    @rule(index=st.integers(0, 1000), amount=st.integers(0, 60))
    def damage(self, index: int, amount: int) -> None:
        combatant = self._combatant(index)
        if combatant is not None:
            self._try(a.Damage(combatant=combatant, amount=amount))

    @rule(index=st.integers(0, 1000), amount=st.integers(0, 60))
    def heal(self, index: int, amount: int) -> None:
        combatant = self._combatant(index)
        if combatant is not None:
            self._try(a.Heal(combatant=combatant, amount=amount))

    @rule()
    def begin_fight(self) -> None:
        self._try(a.BeginSurprise())
        self._try(a.StartFight())

    @rule()
    def next_step(self) -> None:
        self._try(a.NextStep())

    @precondition(lambda self: self.store.state.phase == "round")
    @rule()
    def to_the_next_initiative_step(self) -> None:
        for _ in range(12):
            if is_initiative_step(self.store.state) and not self.store.state.initiative.settled:
                return
            before = self.store.state
            self._try(a.NextStep())
            if self.store.state is before:
                return

    @precondition(lambda self: is_initiative_step(self.store.state))
    @rule(data=st.data())
    def roll_initiative(self, data: st.DataObject) -> None:
        state = self.store.state
        requests, _fresh = initiative_asked(registry.get(state.ruleset), state)  # first rolls, or those still pending
        rolls = {}
        for request in requests:
            face = data.draw(st.integers(1, 10), label=request.key)
            rolls[request.key] = Roll(expr="1d10", total=face, faces=(face,))
        self.store.dispatch(a.RollInitiative(rolls=rolls))
        assert self.store.state.order or not requests
        assert self.store.state.initiative.settled or self.store.state.initiative.pending
        event(
            f"initiative rolled in round {min(self.store.state.round, 3)}{'+' if self.store.state.round >= 3 else ''}"
        )

    @precondition(lambda self: self.store.can_undo)
    @rule()
    def undo(self) -> None:
        self.store.undo()

    @precondition(lambda self: self.store.can_redo)
    @rule()
    def redo(self) -> None:
        self.store.redo()

    @precondition(lambda self: self.store.can_undo)
    @rule()
    def undo_then_redo_is_identity(self) -> None:
        before, history, redo = self.store.state, self.store.done_actions(), list(self.store._redo)
        self.store.undo()
        self.store.redo()
        assert self.store.state == before
        assert self.store.done_actions() == history
        assert list(self.store._redo) == redo

    @rule()
    def reload(self) -> None:
        old = self.store
        old.close()
        new = Store.resume(self.folder)
        assert new.state == old.state
        assert new.base == old.base
        assert new.done_actions() == old.done_actions()
        assert list(new._redo) == list(old._redo)
        assert new.warnings == []
        assert not new.unsaved
        event("reloaded with a redo stack" if new.can_redo else "reloaded")
        self.store = new

    @invariant()
    def replaying_the_history_rebuilds_the_state(self) -> None:
        assert replay(self.store.base, self.store.done_actions()) == self.store.state

    @invariant()
    def everything_is_saved(self) -> None:
        assert not self.store.unsaved, self.store.save_problem


StoreMachine.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestStoreMachine = StoreMachine.TestCase


class SmallLogWindowMachine(StoreMachine):
    """The same, with states that hold only the newest 3 log entries (in chunks of 2): the rest is replayed
    from the history."""

    def __init__(self) -> None:
        self._sizes = log_window.LOG_KEPT, log_module.LOG_CHUNK
        log_window.LOG_KEPT, log_module.LOG_CHUNK = 3, 2
        super().__init__()

    def teardown(self) -> None:
        super().teardown()
        log_window.LOG_KEPT, log_module.LOG_CHUNK = self._sizes

    @invariant()
    def the_state_holds_the_newest_entries_and_the_history_every_one(self) -> None:
        state = self.store.state
        assert len(state.log_entries()) >= min(state.log_count, 3)
        assert len(state.log) <= 2 or len(state.log_entries()) - len(state.log[0]) < 3
        logged, replayed = list(self.store.base.log_entries()), self.store.base
        for action in self.store.done_actions():
            replayed, entries = apply_logged(replayed, action)
            logged += entries
        assert replayed == state and len(logged) == state.log_count
        assert logged[state.log_start :] == state.log_entries()
        event("the state holds part of the log" if state.log_start else "the state holds the whole log")


SmallLogWindowMachine.TestCase.settings = StoreMachine.TestCase.settings
TestSmallLogWindowMachine = SmallLogWindowMachine.TestCase


class SmallBlocksMachine(StoreMachine):
    """The same, with blocks of 3 actions, a snapshot every 5 entries and only 2 states kept past a seal and for
    redo: undos and redos step back from held states, past them (a replay), right after a resume, across seals,
    interleaved with new actions."""

    def __init__(self) -> None:
        self._sizes = (
            store_module.BLOCK_SIZE,
            store_module.SNAPSHOT_EVERY,
            store_module.REDO_STATES,
            history_module.SEALED_STATES,
        )
        store_module.BLOCK_SIZE, store_module.SNAPSHOT_EVERY, store_module.REDO_STATES = 3, 5, 2
        history_module.SEALED_STATES = 2
        super().__init__()

    def teardown(self) -> None:
        super().teardown()
        (
            store_module.BLOCK_SIZE,
            store_module.SNAPSHOT_EVERY,
            store_module.REDO_STATES,
            history_module.SEALED_STATES,
        ) = self._sizes

    @precondition(lambda self: self.store.can_undo)
    @rule(count=st.integers(2, 9))
    def undo_several(self, count: int) -> None:
        for _ in range(count):
            if not self.store.can_undo:
                return
            done = self.store.done_actions()
            self.store.undo()
            assert self.store.state == replay(self.store.base, done[:-1])

    @precondition(lambda self: self.store.can_redo)
    @rule(count=st.integers(2, 9))
    def redo_several(self, count: int) -> None:
        for _ in range(count):
            if not self.store.can_redo:
                return
            self.store.redo()

    @rule()
    def reload_then_undo(self) -> None:
        self.reload()
        if self.store.can_undo:
            done = self.store.done_actions()
            self.store.undo()
            assert self.store.state == replay(self.store.base, done[:-1])
            event("undone right after a resume")


SmallBlocksMachine.TestCase.settings = StoreMachine.TestCase.settings
TestSmallBlocksMachine = SmallBlocksMachine.TestCase


# -- unit tests ---------------------------------------------------------------------------------------------
def small_fight(folder: Path | None) -> Store:
    store = Store.create(new_state(seed=11, ruleset="adnd2e"), folder)
    store.dispatch(a.AddSide(name="Отряд", is_party=True))
    store.dispatch(a.AddSide(name="Чудовища"))
    store.dispatch(a.AddCombatants(side="s1", name="Дельсенора", hp=14, sheet={"cls": "wizard", "level": 5}))
    store.dispatch(a.AddCombatants(side="s2", name="Тролль", hp=36, count=2))
    return store


def journal_lines(folder: Path) -> list[bytes]:
    return (folder / JOURNAL).read_bytes().split(b"\n")


def test_torn_last_journal_line_is_skipped_with_a_warning_and_cut_only_by_the_next_write(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    store = small_fight(folder)
    store.dispatch(a.Damage(combatant="c3", amount=4))
    store.close()
    good = (folder / JOURNAL).read_bytes()
    torn = good + b'{"k":"do","seq":99,"round":0,"a":{"t":"dam'
    (folder / JOURNAL).write_bytes(torn)

    resumed = Store.resume(folder)
    assert resumed.state == store.state
    assert resumed.done_actions() == store.done_actions()
    assert len(resumed.warnings) == 1
    assert "cut off" in resumed.warnings[0] and str(folder / JOURNAL) in resumed.warnings[0]
    assert (folder / JOURNAL).read_bytes() == torn  # opening is reading: the file is as it was

    # The next action saved cuts the torn tail, then goes on normally from there.
    resumed.dispatch(a.Heal(combatant="c3", amount=1))
    after = (folder / JOURNAL).read_bytes()
    assert after.startswith(good) and b'seq":99' not in after and after[len(good) :].count(b"\n") == 1
    resumed.close()
    again = Store.resume(folder)
    assert again.state == resumed.state
    assert again.warnings == []


def test_damage_in_the_middle_of_the_journal_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    store = small_fight(folder)
    store.dispatch(a.Damage(combatant="c3", amount=4))
    store.dispatch(a.Damage(combatant="c3", amount=5))
    store.close()
    lines = journal_lines(folder)
    assert len(lines) >= 4
    lines[2] = b'{"k":"do","seq":3,"round":0,"a":{"t":"dam'  # line 3 of the file
    damaged = b"\n".join(lines)
    (folder / JOURNAL).write_bytes(damaged)
    snapshot = (folder / SNAPSHOT).read_bytes()

    with pytest.raises(SaveError) as caught:
        Store.resume(folder)
    message = str(caught.value)
    assert str(folder / JOURNAL) in message
    assert "line 3" in message
    assert (folder / JOURNAL).read_bytes() == damaged
    assert (folder / SNAPSHOT).read_bytes() == snapshot


def test_damaged_snapshot_is_refused_unchanged(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    small_fight(folder).close()
    data = (folder / SNAPSHOT).read_bytes()
    (folder / SNAPSHOT).write_bytes(data[: len(data) // 2])
    with pytest.raises(SaveError, match="damaged") as caught:
        Store.resume(folder)
    assert str(folder / SNAPSHOT) in str(caught.value)
    assert (folder / SNAPSHOT).read_bytes() == data[: len(data) // 2]


def test_missing_snapshot_says_it_is_not_a_session(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="not a saved session"):
        Store.resume(tmp_path)


def _rewrite_json(path: Path, change) -> bytes:
    raw = json.loads(path.read_bytes())
    change(raw)
    data = json.dumps(raw, ensure_ascii=False).encode()
    path.write_bytes(data)
    return data


@pytest.mark.parametrize(
    "change",
    [
        lambda raw: raw.__setitem__("schema", 99),
        lambda raw: raw["current"].__setitem__("schema", 99),
    ],
    ids=["snapshot-format", "state-schema"],
)
def test_snapshot_from_a_newer_version_is_refused_unchanged(tmp_path: Path, change) -> None:
    folder = tmp_path / "fight"
    small_fight(folder).close()
    data = _rewrite_json(folder / SNAPSHOT, change)
    journal = (folder / JOURNAL).read_bytes()
    with pytest.raises(SaveError, match="newer") as caught:
        Store.resume(folder)
    assert str(folder / SNAPSHOT) in str(caught.value)
    assert (folder / SNAPSHOT).read_bytes() == data
    assert (folder / JOURNAL).read_bytes() == journal


def test_journal_from_a_newer_version_is_refused_unchanged(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    small_fight(folder).close()
    lines = journal_lines(folder)
    lines[0] = b'{"k":"header","schema":99,"app":"tui-combat"}'
    data = b"\n".join(lines)
    (folder / JOURNAL).write_bytes(data)
    with pytest.raises(SaveError, match="newer"):
        Store.resume(folder)
    assert (folder / JOURNAL).read_bytes() == data


class _DiskFull:
    """Stands in for the ``os`` module inside the journal: every ``write`` fails with ENOSPC."""

    def __getattr__(self, name: str):
        return getattr(os, name)

    @staticmethod
    def write(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")


def _full_atomic_write(self: files_module.Folder, name: str, data: bytes) -> None:
    raise OSError(28, "No space left on device")


def test_full_disk_keeps_the_fight_in_memory_until_a_write_lands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "fight"
    store = small_fight(folder)
    on_disk = store.state
    seen: list[State] = []
    store.subscribe(seen.append)

    monkeypatch.setattr(journal_module, "os", _DiskFull())
    monkeypatch.setattr(files_module.Folder, "write_atomic", _full_atomic_write)
    store.dispatch(a.Damage(combatant="c3", amount=4))
    assert store.state.combatant("c3").hp == 10
    assert store.unsaved
    assert "No space left on device" in store.save_problem and str(folder / JOURNAL) in store.save_problem
    assert seen[-1] is store.state  # the screen still hears about it

    # Every later action retries with a snapshot; while the disk is full they fail too.
    store.dispatch(a.Damage(combatant="c3", amount=1))
    assert store.state.combatant("c3").hp == 9
    assert store.unsaved and "No space left on device" in store.save_problem
    assert Store.resume(folder).state == on_disk  # nothing already saved was touched

    monkeypatch.undo()
    store.dispatch(a.Heal(combatant="c3", amount=2))
    assert not store.unsaved and store.save_problem == ""
    store.dispatch(a.Damage(combatant="c5", amount=1))  # back to plain journal appends
    store.close()
    resumed = Store.resume(folder)
    assert resumed.state == store.state
    assert resumed.done_actions() == store.done_actions()
    assert resumed.state.combatant("c3").hp == 11


def test_folder_under_a_regular_file_then_save_as(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("I am a file")
    created = Store.create(new_state(seed=1, ruleset="adnd2e"), blocker / "fight")  # starts in memory, marked unsaved
    assert created.unsaved and "Cannot write" in created.save_problem

    store = small_fight(None)
    store.folder = journal_module.SessionFolder(blocker / "fight")
    store.dispatch(a.Damage(combatant="c3", amount=4))
    assert store.unsaved and str(blocker / "fight") in store.save_problem
    store.dispatch(a.Damage(combatant="c3", amount=1))
    assert store.unsaved and store.state.combatant("c3").hp == 9

    good = tmp_path / "elsewhere"
    store.save_as(good)
    assert not store.unsaved
    store.dispatch(a.Heal(combatant="c3", amount=1))
    store.close()
    resumed = Store.resume(good)
    assert resumed.state == store.state
    assert resumed.done_actions() == store.done_actions()


def test_undo_survives_resume(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    store = Store.create(new_state(seed=5, ruleset="adnd2e"), folder)
    store.dispatch(a.AddSide(name="Отряд", is_party=True))
    after_first = store.state
    store.dispatch(a.AddCombatants(side="s1", name="Дельсенора", hp=14))
    store.dispatch(a.Damage(combatant="c2", amount=3))
    after_third = store.state
    store.close()

    resumed = Store.resume(folder)
    assert resumed.state == after_third
    resumed.undo()
    resumed.undo()
    assert resumed.state == after_first
    assert resumed.can_redo
    resumed.close()

    # The undos were journalled too, and the redos still work after another resume.
    again = Store.resume(folder)
    assert again.state == after_first
    again.redo()
    again.redo()
    assert again.state == after_third
    assert not again.can_redo
    again.undo()
    again.undo()
    again.undo()
    assert again.state == again.base == new_state(seed=5, ruleset="adnd2e")
    with pytest.raises(RuleError):
        again.undo()


def test_a_new_action_after_undo_clears_redo_across_resume(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    store = small_fight(folder)
    store.undo()
    assert store.can_redo
    store.dispatch(a.Note(text="Заметка"))
    assert not store.can_redo
    store.close()
    resumed = Store.resume(folder)
    assert not resumed.can_redo
    assert resumed.state == store.state


@pytest.mark.parametrize("every", [1, 2, 3, 5])
def test_snapshot_compaction_still_resumes_equal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, every: int) -> None:
    monkeypatch.setattr(store_module, "SNAPSHOT_EVERY", every)
    folder = tmp_path / "fight"
    store = small_fight(folder)
    for amount in range(1, 6):
        store.dispatch(a.Damage(combatant="c5", amount=amount))
        store.dispatch(a.Heal(combatant="c5", amount=1))
    store.undo()
    store.undo()
    store.redo()
    store.dispatch(a.Note(text="компактно", secret=True))
    store.undo()
    store.close()

    lines = [line for line in journal_lines(folder) if line]
    assert len(lines) <= every + 1  # the header plus what came after the last snapshot
    resumed = Store.resume(folder)
    assert resumed.state == store.state
    assert resumed.base == store.base
    assert resumed.done_actions() == store.done_actions()
    assert list(resumed._redo) == list(store._redo)
    assert replay(resumed.base, resumed.done_actions()) == resumed.state
    while resumed.can_undo:
        resumed.undo()
    assert resumed.state == store.base


def test_save_now_compacts_and_resumes_equal(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    store = small_fight(folder)
    store.dispatch(a.Damage(combatant="c3", amount=2))
    store.save_now()
    (header,) = [line for line in journal_lines(folder) if line]
    assert isinstance(codec.line_decoder.decode(header), codec.JournalHeader)
    store.close()
    assert Store.resume(folder).state == store.state


def test_refused_dispatch_writes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    store = small_fight(folder)
    journal = (folder / JOURNAL).read_bytes()
    seen: list[State] = []
    store.subscribe(seen.append)
    with pytest.raises(RuleError):
        store.dispatch(a.Damage(combatant="c99", amount=1))
    with pytest.raises(RuleError):
        store.redo()
    assert (folder / JOURNAL).read_bytes() == journal
    assert seen == []


class _Fsyncs:
    """Stands in for the ``os`` module inside the journal: counts each ``fsync``, and fails them once told."""

    def __init__(self) -> None:
        self.calls = 0
        self.failing = False

    def __getattr__(self, name: str):
        return getattr(os, name)

    def fsync(self, fd: int) -> None:
        self.calls += 1
        if self.failing:
            raise OSError(5, "Input/output error")
        os.fsync(fd)


def _synced_later(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Store, _Fsyncs]:
    """A fight whose store leaves the fsyncs to :meth:`Store.sync`, as the app's does, each fsync counted."""
    folder = tmp_path / "fight"
    store = small_fight(folder)
    store.sync_later = True
    fsyncs = _Fsyncs()
    monkeypatch.setattr(journal_module, "os", fsyncs)
    return folder, store, fsyncs


def test_an_action_synced_later_is_written_at_once_and_fsynced_by_sync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app's store writes each action's entry before telling the screen, and fsyncs it once the frame is
    drawn: a kill in between loses nothing (the system has the bytes); the key's frame waits on no disk."""
    folder, store, fsyncs = _synced_later(tmp_path, monkeypatch)
    store.dispatch(a.Damage(combatant="c3", amount=4))
    store.dispatch(a.Damage(combatant="c3", amount=1))
    assert fsyncs.calls == 0
    assert Store.resume(folder, read_only=True).state == store.state  # written, as a kill would leave it
    store.sync()
    assert fsyncs.calls == 1  # both entries at once
    store.sync()
    assert fsyncs.calls == 1  # nothing left to sync
    store.undo()
    store.close()  # closing syncs what is left
    assert fsyncs.calls == 2
    assert Store.resume(folder).state == store.state


def test_a_failed_fsync_is_a_save_problem_and_the_next_action_writes_a_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, store, fsyncs = _synced_later(tmp_path, monkeypatch)
    store.dispatch(a.Damage(combatant="c3", amount=4))
    fsyncs.failing = True
    store.sync()
    assert store.unsaved and "Input/output error" in store.save_problem and str(folder / JOURNAL) in store.save_problem
    fsyncs.failing = False
    store.dispatch(a.Heal(combatant="c3", amount=1))  # retried as a whole snapshot
    assert not store.unsaved and store.save_problem == ""
    store.close()
    assert Store.resume(folder).state == store.state
