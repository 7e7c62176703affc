"""The only writer of a fight's state.

``dispatch(action)``: apply it (pure) → push undo history → append it to the journal (fsynced, or with
:attr:`Store.sync_later` written, and fsynced by :meth:`Store.sync`) → notify subscribers. Undo and redo
are journalled too, so history survives a restart.

When the disk refuses a write, nothing already saved is touched: the fight goes on in memory, the
store remembers it is unsaved, and every later action retries with a full snapshot until one lands.

One writer per session: the store that writes holds a lock on the session folder; a second store on
the same folder (another copy of the app, or a viewer) opens read-only and refuses every change.

A session saved in an older snapshot format opens as it is and is written in today's format at its
first change; one whose states have an older schema also keeps its old files beside the new ones. Only
looked at, it is left as it was.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from tui_combat.engine.actions import Action
from tui_combat.engine.apply import apply
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.engine.text import action_text_problem
from tui_combat.i18n import _, ngettext
from tui_combat.saves import codec
from tui_combat.saves.errors import (
    DamagedSession,
    DamageReport,
    FolderTaken,
    IncompatibleSession,
    NewerVersionError,
    SaveError,
)
from tui_combat.saves.history import Block, History
from tui_combat.saves.journal import SessionFolder, first_snapshot, make_snapshot
from tui_combat.saves.reading import JournalPlace, Plan, Segment, place_after, plan
from tui_combat.saves.schema import JOURNAL, PREV_JOURNAL, PREV_SNAPSHOT, SNAPSHOT

if TYPE_CHECKING:  # encounter files (and their TOML reader) load only when a session is started from one
    from tui_combat.engine.encounter import Encounter

Listener = Callable[[State], None]
SNAPSHOT_EVERY = 500
"""Journal entries between two snapshots: resuming replays at most this many."""
BLOCK_SIZE = 250
"""Actions per sealed block of undo history: an undo replays at most this many (some 25 ms at 2,000 combatants,
once for each block an undo reaches back into), and the states of the open block stay in memory. Each sealed
block keeps the state before it, compressed (some 70 KB at 2,000 combatants): blocks of 100 made the folder of a
50,000-action fight 39 MB. Sessions cut in blocks of another size resume and undo as they did."""
REDO_STATES = 20
"""States after the newest undone actions kept in memory, so that redoing them applies nothing."""
READ_ATTEMPTS = 3


def _reason(error: Exception) -> str:
    return str(error) if isinstance(error, RuleError) else f"{type(error).__name__}: {error}"


class Rebuilt(NamedTuple):
    store: Store | None
    """None when even the starting snapshot could not be turned into a store."""
    replayed: int
    """How many journal entries were replayed before ``problem`` stopped the replay."""
    problem: str


class Store:
    def __init__(self, state: State, folder: SessionFolder | None = None) -> None:
        self.state = state
        self.folder = folder
        self._blocks_from: SessionFolder | None = folder
        """Where sealed history blocks not in memory are read from."""
        self._history = History(state, apply, BLOCK_SIZE, self._load_block, self._load_block_actions)
        self._redo: list[Action] = []
        self._redo_states: list[State] = []
        """The states after the newest undone actions: ``_redo_states[-k]`` is the state ``_redo[-k]`` leads to."""
        self._seq = 0
        self._since_snapshot = 0
        self.unsaved = False
        self.save_problem = ""
        self.sync_later = False
        """Each action's journal entry is written at once and fsynced by :meth:`sync` (the app calls it once
        the action's frame is drawn), not before the listeners are told."""
        self.warnings: list[str] = []
        self.read_only = False
        """Opened read-only (another copy of tui-combat is this session's writer): every change is refused."""
        self.read_only_reason = ""
        self.damaged = False
        """Read-only because part of the session is damaged or missing (see :attr:`read_only_reason`)."""
        self._listeners: list[Listener] = []
        self.rng = random.Random(state.seed)
        self.upgraded_from = 0
        """The older state schema the session's files are in (0: today's); they are copied aside
        (``snapshot.schema1.json`` …) and the session written in today's format at the first change."""
        self._old_format = False
        """Opened from a snapshot of an older format; written in today's at the first change."""
        self._loaded_seq = 0
        self.journal_place: JournalPlace | None = None
        """How far ``journal.jsonl`` was read when the session was opened (None when it was not)."""

    # -- creating and resuming ------------------------------------------------------------------------
    @classmethod
    def create(cls, state: State, folder: Path | None) -> Store:
        """A new session. If its folder cannot be written the fight still starts, in memory, marked
        unsaved; every later action retries the save. Raises :class:`FolderTaken` (nothing written) when the
        folder already holds a session or another writer holds it: two sessions never share a folder."""
        store = cls(state, SessionFolder(folder) if folder else None)
        try:
            if store.folder is not None:
                store.folder.claim_new()
            store._write_snapshot()
        except FolderTaken:
            store.close()
            raise
        except SaveError as error:
            store.unsaved = True
            store.save_problem = str(error)
        return store

    @classmethod
    def resume(cls, folder: Path, *, read_only: bool = False, damaged_read_only: bool = False) -> Store:
        """Open a saved session. Reading changes nothing on disk: damage raises :class:`DamagedSession`
        (with a report of what :func:`recover` can rebuild), a session of a newer version
        :class:`NewerVersionError`, one this version cannot make a fight of (an older session whose
        history no longer replays, a ruleset that is not installed) :class:`IncompatibleSession`, any
        other problem :class:`SaveError`.

        One writer per session: when another copy of tui-combat holds the session (or ``read_only`` is
        asked), the store opens read-only, says so in :attr:`warnings`, and refuses every change.

        With ``damaged_read_only``, a damaged session that can be rebuilt opens read-only instead, as far as
        its files can be read, saying what is wrong and how to recover it (:attr:`damaged`); nothing in it is
        written.
        """
        session = SessionFolder.open(folder)
        try:
            writer = not read_only and session.lock()
            try:
                store = cls._open(session, check_all=True) if writer else cls._open_beside_a_writer(session)
            except DamagedSession as damage:
                if not damaged_read_only or not damage.report.recoverable:
                    raise
                store = cls._open_as_far_as_it_reads(session, damage.report)
        except BaseException:
            session.close()
            raise
        if store.read_only:  # damaged: nothing in the folder may change, not even a leftover temp file
            pass
        elif writer:
            session.remove_temp_files()
        else:
            store.read_only = True
            if read_only:
                store.read_only_reason = _("This session was opened read-only: nothing can be changed here.")
            else:
                store.read_only_reason = _(
                    "This session is open in another copy of tui-combat, so it is "
                    "read-only here: nothing can be changed or saved from this one."
                )
            store.warnings.append(store.read_only_reason)
        return store

    @classmethod
    def _open_beside_a_writer(cls, session: SessionFolder) -> Store:
        """A writer may be halfway through rotating its files; what looks like a gap can be that moment."""
        for _attempt in range(READ_ATTEMPTS - 1):
            try:
                return cls._open(session)
            except DamagedSession:
                time.sleep(0.05)
        return cls._open(session)

    @classmethod
    def _open(cls, session: SessionFolder, *, check_all: bool = False) -> Store:
        """With ``check_all`` (the writer), the parts opening does not need at once are checked too: any of
        them damaged or missing opens the session read-only, so that nothing in it is ever rewritten."""
        problems: list[str] = []
        snapshot = session.read_snapshot()
        if snapshot.snapshot is None:
            if not session.holds_a_session():
                raise SaveError(_("{path} is missing: this is not a saved session.", path=session.snapshot_path))
            problems.append(snapshot.problem)
        else:
            journal = session.read_segment(JOURNAL)
            steps = plan(SNAPSHOT, snapshot.snapshot, [journal])
            rebuilt = cls._rebuild(steps, session)
            problems += steps.problems + ([rebuilt.problem] if rebuilt.problem else [])
            store = rebuilt.store
            if not problems and store is not None:
                store.folder = session
                store.warnings = list(steps.warnings)
                session.note_opened(snapshot.snapshot)
                if check_all:
                    sealed = snapshot.snapshot
                    damaged, last_bad = session.damaged_parts(
                        *((sealed.sealed, sealed.block_sums) if isinstance(sealed, codec.Snapshot) else ([], []))
                    )
                    if damaged:
                        store._open_damaged(session, damaged, last_bad)
                        store._loaded_seq = store._seq
                        return store
                if journal.torn_at is not None:
                    session.cut_journal_before_next_write(journal.torn_at)
                if snapshot.snapshot.schema < codec.SNAPSHOT_SCHEMA:
                    store._since_snapshot = SNAPSHOT_EVERY  # the next save writes the current format
                    store._old_format = True
                if isinstance(snapshot.snapshot, codec.SnapshotV1):
                    store.upgraded_from = snapshot.snapshot.upgraded_from
                store._loaded_seq = store._seq
                store.journal_place = place_after(journal)
                return store
        report = damage_report(session, problems)
        raise DamagedSession(describe_damage(report), report)

    @classmethod
    def _open_as_far_as_it_reads(cls, session: SessionFolder, report: DamageReport) -> Store:
        """A damaged session, read-only, as far as its best recovery reaches."""
        best = _best_recovery(session, None)
        if best is None:
            raise DamagedSession(describe_damage(report), report)
        store = best.store
        store.folder = session
        store.read_only = store.damaged = True
        store.read_only_reason = describe_read_only(report)
        store.warnings = [store.read_only_reason]
        return store

    def _open_damaged(self, session: SessionFolder, problems: list[str], last_bad: int) -> None:
        """Read-only, saying what is wrong and the way out."""
        lines = list(problems)
        if last_bad >= 0:
            lines.append(
                ngettext(
                    "Undo reaches back only to action {n} of this fight.",
                    "Undo reaches back only to action {n} of this fight.",
                    (last_bad + 1) * self._history.block_size,
                )
            )
        lines.append(
            _(
                "So that nothing in it is changed, this session is open read-only. "
                "tui-combat recover {name} rebuilds it into a new session beside it.",
                name=session.folder.name,
            )
        )
        self.read_only = True
        self.damaged = True
        self.read_only_reason = "\n".join(lines)
        self.warnings.append(self.read_only_reason)

    @classmethod
    def _from_snapshot(cls, snapshot: codec.AnySnapshot, blocks_from: SessionFolder | None) -> Store:
        if isinstance(snapshot, codec.SnapshotV1):
            return cls._from_format_1(snapshot)
        store = cls(snapshot.current)
        store._blocks_from = blocks_from
        store._history = History.restore(
            apply=apply,
            block_size=snapshot.block_size,
            sealed=snapshot.sealed,
            checkpoint=snapshot.checkpoint,
            run=snapshot.run,
            current=snapshot.current,
            load=store._load_block,
            load_actions=store._load_block_actions,
        )
        store._redo = list(snapshot.redo)
        store._seq = snapshot.seq
        return store

    @classmethod
    def _from_format_1(cls, snapshot: codec.SnapshotV1) -> Store:
        """Formats 1 and 2 kept every action since the start: replay them once to cut the history into blocks."""
        store = cls(snapshot.base)
        for action in snapshot.done:
            store._history.push(action, apply(store._history.current, action), tag=0)
        store.state = store._history.current
        store._redo = list(snapshot.redo)
        store._seq = snapshot.seq
        return store

    @classmethod
    def _rebuild(cls, steps: Plan, blocks_from: SessionFolder | None) -> Rebuilt:
        """The store ``steps`` lead to, replayed in memory as far as they go (nothing is written)."""
        try:
            store = cls._from_snapshot(steps.snapshot, blocks_from)
        except Exception as error:  # a format-1 history that no longer replays
            return Rebuilt(
                None, 0, _("{source} cannot be replayed ({error}).", source=steps.source, error=_reason(error))
            )
        replayed, problem = 0, ""
        for located in steps.entries:
            try:
                store._replay(located.entry)
            except Exception as error:  # the rules are plugins: whatever they raise is damage here
                problem = _(
                    "{path}, line {line}: this entry cannot be replayed ({error}).",
                    path=located.segment.path,
                    line=located.line,
                    error=_reason(error),
                )
                break
            store._seq = located.entry.seq
            replayed += 1
        store._since_snapshot = replayed
        # A different stream of dice after every resume, yet reproducible from the seed and history.
        store.rng = random.Random(f"{store.state.seed}:{store._seq}")
        return Rebuilt(store, replayed, problem)

    def follow(self, entry: codec.Entry) -> bool:
        """Go on with an entry another copy of tui-combat appended to the session's journal (a read-only
        store following the session); False, and nothing done, when it does not come next. Whatever the
        rules raise replaying it is raised: the store is then no longer to be trusted."""
        if not self.read_only or entry.seq != self._seq + 1:
            return False
        self._replay(entry)
        self._seq = entry.seq
        return True

    def _replay(self, entry: codec.Entry) -> None:
        if isinstance(entry, codec.Done):
            self._do(entry.a)
            self._clear_redo()
        elif isinstance(entry, codec.Undone):
            if not self._history:
                raise RuleError(_("an undo with nothing to undo"))
            self._undo()
        else:
            if not self._redo:
                raise RuleError(_("a redo with nothing to redo"))
            self._redo_one()

    def _load_block(self, index: int, tag: int) -> tuple[State, list[Action]]:
        if self._blocks_from is None:
            raise SaveError(_("The undo history before this point is not saved anywhere."))
        return self._blocks_from.read_block(index, tag)

    def _load_block_actions(self, index: int, tag: int) -> list[Action]:
        if self._blocks_from is None:
            raise SaveError(_("The undo history before this point is not saved anywhere."))
        return self._blocks_from.read_block_actions(index, tag)

    # -- reading --------------------------------------------------------------------------------------
    @property
    def base(self) -> State:
        """The state before the first action (read from the saved history when not in memory)."""
        return self._history.base

    @property
    def can_undo(self) -> bool:
        return len(self._history) > 0

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def done_actions(self) -> list[Action]:
        """Every action done, oldest first. Reads the whole saved history: not for every key press."""
        return self._history.actions()

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    # -- changing -------------------------------------------------------------------------------------
    def _refuse_if_read_only(self) -> None:
        if self.read_only:
            raise RuleError(self.read_only_reason)

    def dispatch(self, action: Action) -> State:
        """Apply, remember, save, notify. Raises :class:`RuleError` (nothing changes) when refused: by the
        rules, or because text typed in it holds a control character (an action read back from the journal is
        replayed as it was saved, whatever it holds)."""
        self._refuse_if_read_only()
        problem = action_text_problem(action)
        if problem is not None:
            raise RuleError(problem)
        self._do(action)
        self._clear_redo()
        self._record(lambda seq: codec.Done(seq=seq, round=self.state.round, a=action))
        return self.state

    def undo(self) -> State:
        """Raises :class:`RuleError` (nothing changes) when there is nothing to undo, or when the saved
        history it needs cannot be read."""
        self._refuse_if_read_only()
        if not self._history:
            raise RuleError(_("Nothing to undo."))
        try:
            self._undo()
        except SaveError as error:
            raise RuleError(str(error)) from None
        except Exception as error:  # the history replays through the rules; a bug there must not crash the app
            raise RuleError(_("Cannot undo: {error}", error=_reason(error))) from None
        self._record(lambda seq: codec.Undone(seq=seq, round=self.state.round))
        return self.state

    def redo(self) -> State:
        self._refuse_if_read_only()
        if not self._redo:
            raise RuleError(_("Nothing to redo."))
        self._redo_one()
        self._record(lambda seq: codec.Redone(seq=seq, round=self.state.round))
        return self.state

    def _do(self, action: Action) -> None:
        new = apply(self.state, action)
        self._history.push(action, new, tag=self._seq + 1)  # the seq of the entry about to record it
        self.state = new

    def _undo(self) -> None:
        after = self.state
        action, before = self._history.pop()
        self._redo.append(action)
        self._redo_states.append(after)
        if len(self._redo_states) > REDO_STATES:
            del self._redo_states[0]
        self.state = before

    def _redo_one(self) -> None:
        """Steps forward to the state the undo left, when it is still held (the same state applying gives)."""
        action = self._redo[-1]
        if self._redo_states:
            after = self._redo_states[-1]
            self._history.push(action, after, tag=self._seq + 1)
            self.state = after
            self._redo_states.pop()
        else:
            self._do(action)
        self._redo.pop()

    def _clear_redo(self) -> None:
        self._redo.clear()
        self._redo_states.clear()

    # -- saving ---------------------------------------------------------------------------------------
    def _record(self, make_entry: Callable[[int], codec.Entry]) -> None:
        self._seq += 1
        if self.folder is not None:
            try:
                self._keep_old_files()  # before anything is appended to the old journal
                if self.unsaved:  # the journal misses what failed to save: only a snapshot can follow it
                    self._write_snapshot()
                else:
                    # Journalled even when a snapshot follows, so that the previous snapshot and its
                    # journal still reach this action if the new snapshot is ever lost.
                    self.folder.append(make_entry(self._seq), sync=not self.sync_later)
                    self._since_snapshot += 1
                    if self._since_snapshot >= SNAPSHOT_EVERY:
                        self._write_snapshot()
            except SaveError as error:
                self.unsaved = True
                self.save_problem = str(error)
        for listener in list(self._listeners):
            listener(self.state)

    def sync(self) -> None:
        """fsync the entries written since the last call (see :attr:`sync_later`); a failure is a save
        problem, as a failed write is: the next action writes a snapshot."""
        if self.folder is None:
            return
        try:
            self.folder.sync()
        except SaveError as error:
            self.unsaved = True
            self.save_problem = str(error)

    def _snapshot(self) -> codec.Snapshot:
        history = self._history
        return make_snapshot(
            self._seq,
            block_size=history.block_size,
            sealed=[block.tag for block in history.sealed],
            checkpoint=history.checkpoint,
            run=list(history.run),
            redo=list(self._redo),
            current=self.state,
        )

    def _keep_old_files(self) -> None:
        if self.folder is not None and self.upgraded_from:
            self.folder.keep_old_files(self.upgraded_from)

    def _write_snapshot(self) -> None:
        if self.folder is None:
            return
        self._keep_old_files()
        self.folder.write_snapshot(self._snapshot(), self._history.unsaved_blocks())
        self._history.mark_saved(keep_in_memory=False)
        self._since_snapshot = 0
        self.unsaved = False
        self.save_problem = ""
        self.upgraded_from = 0
        self._old_format = False

    def save_now(self) -> None:
        """Compact the journal into a snapshot (on quit, or to retry after a failed write). A read-only
        store writes nothing, nor does one of an older format that was only looked at."""
        if self.read_only or (self._old_format and self._seq == self._loaded_seq):
            return
        self._write_snapshot()

    def save_as(self, folder: Path) -> None:
        """Write the whole session, history included, to a new folder and continue there."""
        target = SessionFolder(folder)
        self._history.load_all()  # every block is written again, in the new folder
        try:
            target.claim_new()  # never over another session, nor in a folder another writer holds
            target.write_snapshot(self._snapshot(), self._history.unsaved_blocks())
        except SaveError:
            target.close()
            raise
        if self.folder is not None:
            self.folder.close()
        self.folder = self._blocks_from = target
        self._history.mark_saved(keep_in_memory=False)
        self.read_only = False
        self.damaged = False
        self.read_only_reason = ""
        self.upgraded_from = 0  # the old files stay where they were, untouched
        self._old_format = False
        self._since_snapshot = 0
        self.unsaved = False
        self.save_problem = ""

    def close(self) -> None:
        if self.folder is not None:
            self.folder.close()


def new_state(seed: int | None = None, ruleset: str = "") -> State:
    """An empty fight in set-up, with its own dice seed, under ``ruleset`` (an id in the registry; "" until
    the set-up names one)."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    return State(seed=seed, ruleset=ruleset)


def store_from_encounter(encounter: Encounter, folder: Path | None = None, seed: int | None = None) -> Store:
    """A new session built from an encounter: every step of the build is in the journal."""
    from tui_combat.engine.encounter import encounter_actions

    store = Store.create(new_state(seed), folder)
    for action in encounter_actions(encounter, store.state):
        store.dispatch(action)
    return store


# -- damaged sessions ---------------------------------------------------------------------------------
class Recovery(NamedTuple):
    store: Store
    replayed: int
    steps: Plan
    problem: str = ""
    """Why the replay stopped before the end of what was read ("" when it did not)."""


def _recoveries(session: SessionFolder, up_to_line: int | None) -> list[Recovery]:
    """Every way the folder's files can rebuild the session: from the newest snapshot, from the one before,
    or from the first state a journal's header holds; each replayed in memory as far as it goes."""
    journal = session.read_segment(JOURNAL)
    previous_journal = session.read_segment(PREV_JOURNAL, required=False)
    sources: list[tuple[str, codec.AnySnapshot | None, list[Segment]]] = []
    for name, segments in ((SNAPSHOT, [journal]), (PREV_SNAPSHOT, [previous_journal, journal])):
        try:
            sources.append((name, session.read_snapshot(name).snapshot, segments))
        except IncompatibleSession:
            continue  # a session newer than this version is refused whole (NewerVersionError goes up)
    for segment, segments in ((previous_journal, [previous_journal, journal]), (journal, [journal])):
        start = segment.header.start if segment.header is not None else None
        first = first_snapshot(start, BLOCK_SIZE) if start is not None else None
        sources.append((segment.name, first, segments))
    recoveries = []
    for name, snapshot, segments in sources:
        if snapshot is not None:
            steps = plan(name, snapshot, segments, up_to_line=up_to_line)
            rebuilt = Store._rebuild(steps, session)
            # A fight that does not even name its rules (a session saved through the engine, damaged from its
            # first action on) is nothing to show or to rebuild.
            if rebuilt.store is not None and rebuilt.store.state.ruleset:
                recoveries.append(Recovery(rebuilt.store, rebuilt.replayed, steps, rebuilt.problem))
    return recoveries


def _best_recovery(session: SessionFolder, up_to_line: int | None) -> Recovery | None:
    """The recovery that reaches furthest (the newest snapshot first when two reach as far)."""
    best: Recovery | None = None
    for recovery in _recoveries(session, up_to_line):
        if best is None or recovery.store._seq > best.store._seq:
            best = recovery
    return best


def _last_journal_line(recovery: Recovery) -> int:
    used = recovery.steps.entries[: recovery.replayed]
    lines = [located.line for located in used if located.segment.name == JOURNAL]
    return lines[-1] if lines else 0


def damage_report(session: SessionFolder, problems: list[str]) -> DamageReport:
    try:
        best = _best_recovery(session, None)
    except NewerVersionError:
        best = None
    if best is None:
        return DamageReport(folder=str(session.folder), problems=tuple(problems), recoverable=False)
    return DamageReport(
        folder=str(session.folder),
        problems=tuple(problems),
        recoverable=True,
        source=best.steps.source,
        actions=best.replayed,
        last_line=_last_journal_line(best),
    )


def describe_damage(report: DamageReport) -> str:
    lines = [_("{path} is damaged, so it was not opened; nothing on disk was changed.", path=report.folder)]
    lines += report.problems
    name = Path(report.folder).name
    if not report.recoverable:
        lines.append(
            _(
                "No snapshot in it can be read, nor anything that names the fight's rules, so it cannot be "
                "rebuilt automatically."
            )
        )
    elif report.last_line:
        lines.append(
            ngettext(
                "It can be rebuilt from {source} and line {line} of {journal} ({n} "
                "saved action) into a new session beside it: tui-combat recover {name}",
                "It can be rebuilt from {source} and line {line} of {journal} ({n} "
                "saved actions) into a new session beside it: tui-combat recover {name}",
                report.actions,
                source=report.source,
                line=report.last_line,
                journal=JOURNAL,
                name=name,
            )
        )
    else:
        lines.append(
            ngettext(
                "It can be rebuilt from {source} ({n} saved action after "
                "it) into a new session beside it: tui-combat recover {name}",
                "It can be rebuilt from {source} ({n} saved actions after "
                "it) into a new session beside it: tui-combat recover {name}",
                report.actions,
                source=report.source,
                name=name,
            )
        )
    return "\n".join(lines)


def describe_read_only(report: DamageReport) -> str:
    """What is wrong with a damaged session opened read-only, how far it was read, and the way out."""
    lines = [_("{path} is damaged, so it is open read-only and nothing in it is changed.", path=report.folder)]
    lines += report.problems
    lines.append(
        ngettext(
            "What is shown is {source} and {n} saved action after it. tui-combat "
            "recover {name} rebuilds it into a new session beside it.",
            "What is shown is {source} and {n} saved actions after it. "
            "tui-combat recover {name} rebuilds it into a new session beside it.",
            report.actions,
            source=report.source,
            name=Path(report.folder).name,
        )
    )
    return "\n".join(lines)


def recover(folder: Path, into: Path, *, up_to_line: int | None = None) -> Store:
    """Rebuild a damaged session, as far as its files can be read (and no further than line ``up_to_line``
    of its journal), into the new folder ``into``. The damaged folder is only read, never written.

    Returns the new session's store, open for writing. Raises :class:`SaveError`.
    """
    if os.path.lexists(into) and (not into.is_dir() or into.is_symlink() or any(into.iterdir())):
        raise SaveError(_("{path} already exists: a recovery never writes over anything.", path=into))
    session = SessionFolder.open(folder)
    try:
        best = _best_recovery(session, up_to_line)
        if best is None:
            raise SaveError(
                _(
                    "Nothing in {path} can be rebuilt: no snapshot in it can be read, nor anything that "
                    "names the fight's rules.",
                    path=folder,
                )
            )
        session.expect_sums(best.steps.snapshot)
        forgotten = best.store._history.keep_readable(lambda block: _block_reads(best.store, block))
        best.store.save_as(into)  # reads the history blocks it needs from the damaged folder, so before closing it
    finally:
        session.close()
    best.store.warnings = [
        ngettext(
            "Rebuilt from {path}: {n} saved action after {source}.",
            "Rebuilt from {path}: {n} saved actions after {source}.",
            best.replayed,
            path=folder,
            source=best.steps.source,
        )
    ]
    lost = best.steps.problems + ([best.problem] if best.problem else [])
    best.store.warnings += [_("Not kept: {problem}", problem=problem) for problem in lost]
    if forgotten:
        best.store.warnings.append(
            ngettext(
                "Part of the undo history could not be read: undo reaches back only to action {n} of this fight.",
                "Part of the undo history could not be read: undo reaches back only to action {n} of this fight.",
                forgotten,
            )
        )
    return best.store


def _block_reads(store: Store, block: Block) -> bool:
    if block.start is not None and block.actions is not None:
        return True
    try:
        store._load_block(block.index, block.tag)
    except SaveError:
        return False
    return True
