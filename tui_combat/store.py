"""The only writer of a fight's state.

``dispatch(action)``: apply it (pure) → push undo history → append it to the journal (fsynced) →
notify subscribers. Undo and redo are journalled too, so history survives a restart.

When the disk refuses a write, nothing already saved is touched: the fight goes on in memory, the
store remembers it is unsaved, and every later action retries with a full snapshot until one lands.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Callable
from pathlib import Path

from tui_combat.engine.actions import Action
from tui_combat.engine.apply import apply
from tui_combat.engine.encounter import Encounter, encounter_actions
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.i18n import _
from tui_combat.saves import codec
from tui_combat.saves.errors import SaveError
from tui_combat.saves.journal import SessionFolder, make_snapshot

Listener = Callable[[State], None]
SNAPSHOT_EVERY = 500


class Store:
    def __init__(self, state: State, folder: SessionFolder | None = None) -> None:
        self.base = state
        self.state = state
        self.folder = folder
        self._history: list[tuple[Action, State | None]] = []
        """Each action done, with the state before it (None until rebuilt after a resume)."""
        self._redo: list[Action] = []
        self._seq = 0
        self._since_snapshot = 0
        self.unsaved = False
        self.save_problem = ""
        self.warnings: list[str] = []
        self._listeners: list[Listener] = []
        self.rng = random.Random(state.seed)
        self.upgraded_from = 0
        """The older state schema the session's files are in (0: today's); they are rewritten, the old
        ones kept beside them, the first time the fight changes."""
        self._loaded_seq = 0

    # -- creating and resuming ------------------------------------------------------------------------
    @classmethod
    def create(cls, state: State, folder: Path | None) -> Store:
        """A new session. If its folder cannot be written the fight still starts, in memory, marked
        unsaved; every later action retries the save."""
        store = cls(state, SessionFolder(folder) if folder else None)
        try:
            store._write_snapshot()
        except SaveError as error:
            store.unsaved = True
            store.save_problem = str(error)
        return store

    @classmethod
    def resume(cls, folder: Path) -> Store:
        session = SessionFolder(folder)
        loaded = session.load()
        snapshot = loaded.snapshot
        store = cls(snapshot.base, session)
        store.state = snapshot.current
        store._history = [(action, None) for action in snapshot.done]
        store._redo = list(snapshot.redo)
        store._seq = snapshot.seq
        store.warnings = list(loaded.warnings)
        # Replay keeps every earlier state alive for undo; the cyclic collector would rescan that
        # growing heap again and again for nothing (states hold no cycles), doubling resume time.
        collecting = gc.isenabled()
        gc.disable()
        try:
            for entry in loaded.entries:
                store._replay(entry)
                store._seq = entry.seq
        except Exception as error:  # a refused or failing action: the journal cannot be replayed here
            raise SaveError(_("{path} cannot be replayed by this version of tui-combat (journal entry {seq}: {error}). "
                              "The files were left as they are.", path=session.journal_path, seq=entry.seq,
                              error=error)) from None
        finally:
            if collecting:
                gc.enable()
        store._since_snapshot = len(loaded.entries)
        store._loaded_seq = store._seq
        if loaded.upgraded_from:
            store.upgraded_from = loaded.upgraded_from
            store.unsaved = True  # the next change writes the whole session in today's format
        # A different stream of dice after every resume, yet reproducible from the seed and history.
        store.rng = random.Random(f"{snapshot.base.seed}:{store._seq}")
        return store

    def _replay(self, entry: codec.Entry) -> None:
        if isinstance(entry, codec.Done):
            self._do(entry.a)
            self._redo.clear()
        elif isinstance(entry, codec.Undone):
            self._undo()
        else:
            self._redo_one()

    # -- reading --------------------------------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def done_actions(self) -> list[Action]:
        return [action for action, _before in self._history]

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    # -- changing -------------------------------------------------------------------------------------
    def dispatch(self, action: Action) -> State:
        """Apply, remember, save, notify. Raises :class:`RuleError` (nothing changes) when refused."""
        self._do(action)
        self._redo.clear()
        self._record(lambda seq: codec.Done(seq=seq, round=self.state.round, a=action))
        return self.state

    def undo(self) -> State:
        if not self._history:
            raise RuleError(_("Nothing to undo."))
        self._undo()
        self._record(lambda seq: codec.Undone(seq=seq, round=self.state.round))
        return self.state

    def redo(self) -> State:
        if not self._redo:
            raise RuleError(_("Nothing to redo."))
        self._redo_one()
        self._record(lambda seq: codec.Redone(seq=seq, round=self.state.round))
        return self.state

    def _do(self, action: Action) -> None:
        new = apply(self.state, action)
        self._history.append((action, self.state))
        self.state = new

    def _undo(self) -> None:
        action, before = self._history[-1]
        if before is None:
            self._rebuild_history()
            action, before = self._history[-1]
        assert before is not None
        self._history.pop()
        self._redo.append(action)
        self.state = before

    def _redo_one(self) -> None:
        action = self._redo.pop()
        self._do(action)

    def _rebuild_history(self) -> None:
        """Recompute the states before each action from the base (needed once after a resume)."""
        state = self.base
        rebuilt: list[tuple[Action, State | None]] = []
        for action, _before in self._history:
            rebuilt.append((action, state))
            state = apply(state, action)
        self._history = rebuilt

    # -- saving ---------------------------------------------------------------------------------------
    def _record(self, make_entry: Callable[[int], codec.Entry]) -> None:
        self._seq += 1
        if self.folder is not None:
            try:
                if self.unsaved or self._since_snapshot >= SNAPSHOT_EVERY:
                    self._write_snapshot()
                else:
                    self.folder.append(make_entry(self._seq))
                    self._since_snapshot += 1
            except SaveError as error:
                self.unsaved = True
                self.save_problem = str(error)
        for listener in list(self._listeners):
            listener(self.state)

    def _write_snapshot(self) -> None:
        if self.folder is None:
            return
        if self.upgraded_from:
            self.folder.keep_old_files(self.upgraded_from)
        snapshot = make_snapshot(self._seq, self.base, self.done_actions(), list(self._redo), self.state)
        self.folder.write_snapshot(snapshot)
        self._since_snapshot = 0
        self.unsaved = False
        self.save_problem = ""
        self.upgraded_from = 0

    def save_now(self) -> None:
        """Compact the journal into a snapshot (on quit, or to retry after a failed write). A session in an
        older format that was only looked at is left as it was."""
        if self.upgraded_from and self._seq == self._loaded_seq:
            return
        self._write_snapshot()

    def save_as(self, folder: Path) -> None:
        """Write the whole session, history included, to a new folder and continue there."""
        target = SessionFolder(folder)
        snapshot = make_snapshot(self._seq, self.base, self.done_actions(), list(self._redo), self.state)
        target.write_snapshot(snapshot)
        if self.folder is not None:
            self.folder.close()
        self.folder = target
        self._since_snapshot = 0
        self.unsaved = False
        self.save_problem = ""
        self.upgraded_from = 0

    def close(self) -> None:
        if self.folder is not None:
            self.folder.close()


def new_state(seed: int | None = None) -> State:
    """An empty fight in set-up, with its own dice seed."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    return State(seed=seed)


def store_from_encounter(encounter: Encounter, folder: Path | None = None, seed: int | None = None) -> Store:
    """A new session built from an encounter: every step of the build is in the journal."""
    store = Store.create(new_state(seed), folder)
    for action in encounter_actions(encounter, store.state):
        store.dispatch(action)
    return store

