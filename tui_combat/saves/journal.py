"""One session's folder: ``snapshot.json`` plus an append-only ``journal.jsonl``, and the pair before them.

Every entry is written and fsynced before the screen shows its result, so whatever happens next
(quit, kill -9, a dropped SSH connection) the session resumes after the last action.

Writing a snapshot rotates: the current snapshot and journal are kept as ``snapshot.prev.json`` and
``journal.prev.jsonl`` (hard links where the file system allows, so nothing is copied), then the new
snapshot replaces ``snapshot.json``, then a fresh ``journal.jsonl`` starts after it. A crash between any
two steps leaves a session that opens: the seq numbers tell which entries a snapshot already holds.

Opening reads and changes nothing; only a writer (the holder of the folder's lock) writes, and a torn
last line is cut when that writer saves its next action, not before.
"""

from __future__ import annotations

import errno
import os
from datetime import datetime, timezone
from pathlib import Path

import msgspec

from tui_combat.engine.actions import Action
from tui_combat.engine.model import State
from tui_combat.i18n import _
from tui_combat.saves import codec
from tui_combat.saves.errors import SaveError
from tui_combat.saves.files import Folder, explain
from tui_combat.saves.reading import Segment, SnapshotRead, parse_segment, parse_snapshot
from tui_combat.saves.schema import JOURNAL, PREV_JOURNAL, PREV_SNAPSHOT, SNAPSHOT

__all__ = ["JOURNAL", "SNAPSHOT", "SessionFolder", "make_snapshot", "now_iso"]


class SessionFolder:
    """The files of one session. Reads need only an open folder; writes need the writer's lock too."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.snapshot_path = folder / SNAPSHOT
        self.journal_path = folder / JOURNAL
        self._dir: Folder | None = None
        self._locked = False
        self._made_private = False
        self._journal: int | None = None
        self._cut_journal_at: int | None = None

    @classmethod
    def open(cls, folder: Path) -> SessionFolder:
        """An existing session folder, opened for reading (a symbolic link is refused). Raises :class:`SaveError`."""
        session = cls(folder)
        session._dir = Folder.open(folder)
        return session

    def lock(self) -> bool:
        """Become this session's one writer; False when another copy of tui-combat already is."""
        if self._dir is None:
            raise SaveError(_("{path} is not open.", path=self.folder))
        if not self._locked:
            self._locked = self._dir.try_lock()
        return self._locked

    @property
    def locked(self) -> bool:
        return self._locked

    def cut_journal_before_next_write(self, offset: int) -> None:
        """A torn last line was skipped on reading; the next append first cuts it off at ``offset``."""
        self._cut_journal_at = offset

    def remove_temp_files(self) -> None:
        if self._dir is not None and self._locked:
            self._dir.remove_temp_files()

    def close(self) -> None:
        self._close_journal()
        if self._dir is not None:
            self._dir.close()  # releases the lock
            self._dir = None
        self._locked = False

    def _close_journal(self) -> None:
        if self._journal is not None:
            try:
                os.close(self._journal)
            except OSError:
                pass
            self._journal = None

    # -- reading -----------------------------------------------------------------------------------
    def holds_a_session(self) -> bool:
        """Whether any file of a session is here (a folder with none is simply not a session)."""
        return self._dir is not None and any(self._dir.exists(name) for name in (SNAPSHOT, PREV_SNAPSHOT, JOURNAL, PREV_JOURNAL))

    def _read(self, name: str) -> bytes | None:
        if self._dir is None:
            raise SaveError(_("{path} is not open.", path=self.folder))
        try:
            return self._dir.read(name)
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise SaveError(_("{path} is a symbolic link: tui-combat does not follow links inside its data folder.",
                                  path=self.folder / name)) from None
            raise SaveError(_("Cannot read {path}: {error}", path=self.folder / name, error=explain(error))) from None

    def read_snapshot(self, name: str = SNAPSHOT) -> SnapshotRead:
        return parse_snapshot(name, self.folder / name, self._read(name))

    def read_segment(self, name: str = JOURNAL, *, required: bool = True) -> Segment:
        return parse_segment(name, self.folder / name, self._read(name), required=required)

    # -- writing -----------------------------------------------------------------------------------
    def _writable(self) -> Folder:
        if self._dir is None:
            self._dir = Folder.open(self.folder, create=True)
        if not self.lock():
            raise SaveError(_("{path} is open in another copy of tui-combat; nothing was written.", path=self.folder))
        if not self._made_private:
            self._dir.make_private()  # a folder written by an older version may be 0755
            self._made_private = True
        return self._dir

    def write_snapshot(self, snapshot: codec.Snapshot) -> None:
        """Rotate (keep the current pair as the previous one), write ``snapshot`` and start an empty journal
        after it. Raises :class:`SaveError`."""
        folder = self._writable()
        self._close_journal()
        start = snapshot.current if snapshot.seq == 0 and not snapshot.done and not snapshot.redo else None
        header = codec.JournalHeader(schema=codec.JOURNAL_SCHEMA, after=snapshot.seq, start=start)
        try:
            folder.keep_copy(SNAPSHOT, PREV_SNAPSHOT)
            folder.keep_copy(JOURNAL, PREV_JOURNAL)
            folder.write_atomic(SNAPSHOT, msgspec.json.encode(snapshot))
            folder.write_atomic(JOURNAL, codec.line_encoder.encode(header) + b"\n")
        except OSError as error:
            raise SaveError(_("Cannot write {path}: {error}", path=self.folder, error=explain(error))) from None
        self._cut_journal_at = None

    def append(self, entry: codec.Entry) -> None:
        """Append one entry and fsync it; raises :class:`SaveError`."""
        line = codec.line_encoder.encode(entry) + b"\n"
        try:
            if self._journal is None:
                folder = self._writable()
                if self._cut_journal_at is not None:
                    folder.truncate(JOURNAL, self._cut_journal_at)
                    self._cut_journal_at = None
                self._journal = folder.open_append(JOURNAL)
            written = os.write(self._journal, line)
            if written != len(line):
                raise OSError(28, "No space left on device")
            os.fsync(self._journal)
        except OSError as error:
            self._close_journal()
            raise SaveError(_("Cannot write {path}: {error}", path=self.journal_path, error=explain(error))) from None


def now_iso() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def make_snapshot(seq: int, base: State, done: list[Action], redo: list[Action], current: State) -> codec.Snapshot:
    return codec.Snapshot(
        schema=codec.SNAPSHOT_SCHEMA,
        seq=seq,
        name=current.name,
        ruleset=current.ruleset,
        round=current.round,
        saved_at=now_iso(),
        base=base,
        done=done,
        redo=redo,
        current=current,
    )
