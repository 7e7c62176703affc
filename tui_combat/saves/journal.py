"""One session's folder: ``snapshot.json`` plus an append-only ``journal.jsonl``, the pair before them,
and the sealed blocks of the undo history in ``history/``.

Every entry is written before the screen shows its result, so whatever happens to the app next (quit,
kill -9, a dropped SSH connection) the session resumes after the last action. It is fsynced then too, or,
when the writer asks (``sync=False``), by :meth:`SessionFolder.sync` once the frame is drawn: the app does,
so that a key's frame does not wait on the disk; what the system has not yet written out is lost only if
the machine itself goes down in that moment.

Writing a snapshot rotates: the current snapshot and journal are kept as ``snapshot.prev.json`` and
``journal.prev.jsonl`` (hard links where the file system allows, so nothing is copied), then the new
snapshot replaces ``snapshot.json``, then a fresh ``journal.jsonl`` starts after it. A crash between any
two steps leaves a session that opens: the seq numbers tell which entries a snapshot already holds.
History blocks are written before the snapshot that refers to them, and deleted only once neither
the newest nor the previous snapshot refers to them.

Opening reads and changes nothing; only a writer (the holder of the folder's lock) writes, and a torn
last line is cut when that writer saves its next action, not before. A session whose states were saved
in an older schema keeps its old snapshot and journal beside the new ones (``snapshot.schema1.json``,
``journal.schema1.jsonl``) from the first change on.
"""

from __future__ import annotations

import errno
import os
import re
import zlib
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import msgspec
from msgspec.structs import replace

from tui_combat.engine.actions import Action
from tui_combat.engine.model import State
from tui_combat.i18n import _
from tui_combat.saves import codec
from tui_combat.saves.errors import FolderTaken, SaveError
from tui_combat.saves.files import Folder, explain
from tui_combat.saves.history import Block
from tui_combat.saves.reading import Segment, SnapshotRead, parse_segment, parse_snapshot, snapshot_sum_problem
from tui_combat.saves.schema import HISTORY, JOURNAL, PREV_JOURNAL, PREV_SNAPSHOT, SNAPSHOT
from tui_combat.saves.sums import of_file, seal

BLOCK_SUFFIX = ".json.z"
_BLOCK_NAME = re.compile(r"[0-9]{6,}-[0-9]{9,}" + re.escape(BLOCK_SUFFIX))
"""The name :func:`~tui_combat.saves.codec.block_name` gives a history block."""

__all__ = ["JOURNAL", "SNAPSHOT", "SessionFolder", "first_snapshot", "make_snapshot", "now_iso"]


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
        self._unsynced = False
        """Entries were appended without their fsync (:meth:`sync`)."""
        self._current_blocks: set[str] | None = None
        """History blocks ``snapshot.json`` refers to; None when unknown (then none is ever deleted)."""
        self._previous_blocks: set[str] | None = None
        self._sums: dict[str, int] = {}
        """The checksum of each history block file known to be right (written here, or checked on opening)."""

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
        if self._dir is None or not self._locked:
            return
        self._dir.remove_temp_files()
        if self._dir.exists(HISTORY):
            try:
                history = self._dir.subfolder(HISTORY, create=False)
            except SaveError:
                return
            history.remove_temp_files()
            history.close()

    def close(self) -> None:
        self._close_journal()
        if self._dir is not None:
            self._dir.close()  # releases the lock
            self._dir = None
        self._locked = False

    def _close_journal(self) -> None:
        if self._journal is not None:
            try:
                if self._unsynced:
                    os.fsync(self._journal)
            except OSError:
                pass  # closed to start anew: a snapshot follows, which holds what it held
            self._unsynced = False
            try:
                os.close(self._journal)
            except OSError:
                pass
            self._journal = None

    # -- reading -----------------------------------------------------------------------------------
    def holds_a_session(self) -> bool:
        """Whether any file of a session is here (a folder with none is simply not a session)."""
        return self._dir is not None and any(
            self._dir.exists(name) for name in (SNAPSHOT, PREV_SNAPSHOT, JOURNAL, PREV_JOURNAL)
        )

    def _read(self, name: str) -> bytes | None:
        if self._dir is None:
            raise SaveError(_("{path} is not open.", path=self.folder))
        try:
            return self._dir.read(name)
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise SaveError(
                    _(
                        "{path} is a symbolic link: tui-combat does not follow links inside its data folder.",
                        path=self.folder / name,
                    )
                ) from None
            raise SaveError(_("Cannot read {path}: {error}", path=self.folder / name, error=explain(error))) from None

    def read_snapshot(self, name: str = SNAPSHOT) -> SnapshotRead:
        return parse_snapshot(name, self.folder / name, self._read(name))

    def read_segment(self, name: str = JOURNAL, *, required: bool = True) -> Segment:
        return parse_segment(name, self.folder / name, self._read(name), required=required)

    # -- writing -----------------------------------------------------------------------------------
    def claim_new(self) -> None:
        """Become the writer of a new session in this folder (created when missing). Raises
        :class:`FolderTaken` when the folder already holds a session or another writer holds it, and
        :class:`SaveError` when it cannot be written."""
        if self._dir is None:
            self._dir = Folder.open(self.folder, create=True)
        if not self.lock():
            raise FolderTaken(_("{path} is open in another copy of tui-combat; nothing was written.", path=self.folder))
        if self.holds_a_session():
            raise FolderTaken(_("{path} already holds a session: a new one never writes over it.", path=self.folder))
        self._current_blocks = set()

    def _writable(self) -> Folder:
        if self._dir is None:
            self._dir = Folder.open(self.folder, create=True)
            if not self._dir.exists(SNAPSHOT):
                self._current_blocks = set()  # a new session: no snapshot refers to any block yet
        if not self.lock():
            raise SaveError(_("{path} is open in another copy of tui-combat; nothing was written.", path=self.folder))
        if not self._made_private:
            self._dir.make_private()  # a folder written by an older version may be 0755
            self._made_private = True
        return self._dir

    def write_snapshot(
        self, snapshot: codec.Snapshot, blocks: Sequence[tuple[Block, State, list[Action]]] = ()
    ) -> None:
        """Write the history ``blocks`` not yet on disk, rotate (keep the current pair as the previous one),
        write ``snapshot`` and start an empty journal after it. Raises :class:`SaveError`."""
        folder = self._writable()
        self._close_journal()
        first = snapshot.seq == 0 and not snapshot.sealed and not snapshot.run and not snapshot.redo
        header = codec.JournalHeader(
            schema=codec.JOURNAL_SCHEMA, after=snapshot.seq, start=snapshot.current if first else None
        )
        names = [codec.block_name(index, tag) for index, tag in enumerate(snapshot.sealed)]
        referenced = set(names)
        try:
            if blocks:
                self._write_blocks(folder, blocks)
            snapshot = replace(snapshot, block_sums=[self._sums.get(name, -1) for name in names])
            folder.keep_copy(SNAPSHOT, PREV_SNAPSHOT)
            folder.keep_copy(JOURNAL, PREV_JOURNAL)
            folder.write_atomic(SNAPSHOT, seal(msgspec.json.encode(snapshot)))
            folder.write_atomic(JOURNAL, seal(codec.line_encoder.encode(header)) + b"\n")
        except OSError as error:
            raise SaveError(_("Cannot write {path}: {error}", path=self.folder, error=explain(error))) from None
        self._cut_journal_at = None
        self._previous_blocks, self._current_blocks = self._current_blocks, referenced
        self._forget_blocks(folder)

    def _write_blocks(self, folder: Folder, blocks: Sequence[tuple[Block, State, list[Action]]]) -> None:
        history = folder.subfolder(HISTORY, create=True)
        try:
            # Always written, even when the name exists: a snapshot that failed after writing its blocks
            # leaves files no snapshot refers to, and the seqs naming them are given out again.
            for block, start, actions in blocks:
                name = codec.block_name(block.index, block.tag)
                data = msgspec.json.encode(
                    codec.HistoryBlock(schema=codec.SNAPSHOT_SCHEMA, index=block.index, start=start, actions=actions)
                )
                compressed = zlib.compress(data, 3)  # as fast as 1 on a fight's JSON, a fifth smaller
                history.write_atomic(name, compressed)
                self._sums[name] = of_file(compressed)
        finally:
            history.close()

    def _forget_blocks(self, folder: Folder) -> None:
        """Delete the history blocks neither the newest nor the previous snapshot refers to."""
        if self._current_blocks is None or self._previous_blocks is None or not folder.exists(HISTORY):
            return  # what an older snapshot refers to is unknown: keep everything
        keep = self._current_blocks | self._previous_blocks
        try:
            history = folder.subfolder(HISTORY, create=False)
        except SaveError:
            return
        try:
            for name in history.names():
                if _BLOCK_NAME.fullmatch(name) and name not in keep:  # a file of another name is not ours
                    history.remove(name)
        except OSError:
            pass
        finally:
            history.close()

    def keep_old_files(self, schema: int) -> None:
        """Copy the snapshot and the journal aside (``snapshot.schema1.json`` …) before a session whose states
        were saved in an older schema is first written in today's; an existing copy is never overwritten.
        The copies are real copies, not links: the journal is appended to in place. Raises :class:`SaveError`."""
        folder = self._writable()
        for name in (SNAPSHOT, JOURNAL):
            stem, dot, suffix = name.partition(".")
            copy = f"{stem}.schema{schema}{dot}{suffix}"
            try:
                data = folder.read(name)
                if data is not None and not folder.exists(copy):
                    folder.write_atomic(copy, data)
            except OSError as error:
                raise SaveError(
                    _("Cannot write {path}: {error}", path=self.folder / copy, error=explain(error))
                ) from None

    def note_opened(self, snapshot: codec.AnySnapshot) -> None:
        """Which history blocks the snapshot ``snapshot.json`` holds refers to (none for format 1)."""
        sealed = snapshot.sealed if isinstance(snapshot, codec.Snapshot) else []
        self._current_blocks = {codec.block_name(index, tag) for index, tag in enumerate(sealed)}
        self.expect_sums(snapshot)

    def expect_sums(self, snapshot: codec.AnySnapshot) -> None:
        """The checksums ``snapshot`` holds for its history blocks: a block read later must match."""
        if isinstance(snapshot, codec.Snapshot):
            for index, (tag, known) in enumerate(zip(snapshot.sealed, snapshot.block_sums)):
                if known >= 0:
                    self._sums[codec.block_name(index, tag)] = known

    def damaged_parts(self, sealed: Sequence[int], block_sums: Sequence[int]) -> tuple[list[str], int]:
        """What is damaged or missing among the files opening a snapshot does not need right away: the
        history blocks it refers to (``sealed``, with their checksums ``block_sums``; each read and checked
        whole), the previous snapshot and the journal that followed it. Returns (the problems, the index of
        the last bad block or -1). Changes nothing; blocks found right have their checksums remembered."""
        problems: list[str] = []
        last_bad = -1
        for index, tag in enumerate(sealed):
            known = block_sums[index] if index < len(block_sums) else -1
            problem = self._block_problem(codec.block_name(index, tag), known)
            if problem:
                problems.append(problem)
                last_bad = index
        try:
            previous = self._read(PREV_SNAPSHOT)
            if previous is not None:
                problem = snapshot_sum_problem(self.folder / PREV_SNAPSHOT, previous)
                if problem:
                    problems.append(problem)
            journal = self.read_segment(PREV_JOURNAL, required=False)
            if journal.problem:
                problems.append(journal.problem)
        except SaveError as error:  # NewerVersionError included: a part that this version cannot trust
            problems.append(str(error))
        return problems, last_bad

    def _block_problem(self, name: str, known: int) -> str:
        """What is wrong with one history block file ("" when it is right)."""
        path = self.folder / HISTORY / name
        if self._dir is None:
            return _("{path} is not open.", path=self.folder)
        try:
            history = self._dir.subfolder(HISTORY, create=False)
        except SaveError:
            return _("{path} is missing: the undo history cannot go back past it.", path=path)
        try:
            data = history.read(name)
        except OSError as error:
            return _("Cannot read {path}: {error}", path=path, error=explain(error))
        finally:
            history.close()
        if data is None:
            return _("{path} is missing: the undo history cannot go back past it.", path=path)
        if known >= 0:
            if of_file(data) != known:
                return _("{path} is damaged: its checksum does not match, so a byte in it has changed.", path=path)
        else:  # written before checksums: its own compression checksum still tells a changed byte
            try:
                zlib.decompress(data)
            except zlib.error as error:
                return _(
                    "{path} is damaged ({error}): the undo history cannot go back past it.", path=path, error=error
                )
        self._sums[name] = of_file(data)
        return ""

    def read_block(self, index: int, tag: int) -> tuple[State, list[Action]]:
        """One sealed block of the undo history. Raises :class:`SaveError`."""
        path = self.folder / HISTORY / codec.block_name(index, tag)
        data = self._block_bytes(index, tag)
        try:
            block = codec.block_decoder.decode(data)
            start = codec.restored(block.start, path)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            raise SaveError(
                _("{path} is damaged ({error}): the undo history cannot go back past it.", path=path, error=error)
            ) from None
        self._check_block(path, index, block.index, block.actions)
        return start, block.actions

    def read_block_actions(self, index: int, tag: int) -> list[Action]:
        """The actions of one sealed block, its starting state left undecoded (reading the whole history
        then costs its actions, not a state per block). Raises :class:`SaveError`."""
        path = self.folder / HISTORY / codec.block_name(index, tag)
        data = self._block_bytes(index, tag)
        try:
            block = codec.block_actions_decoder.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            raise SaveError(
                _("{path} is damaged ({error}): the undo history cannot go back past it.", path=path, error=error)
            ) from None
        self._check_block(path, index, block.index, block.actions)
        return block.actions

    @staticmethod
    def _check_block(path: Path, index: int, found: int, actions: list[Action]) -> None:
        if found != index or len(actions) == 0:
            raise SaveError(_("{path} is damaged: the undo history cannot go back past it.", path=path))

    def _block_bytes(self, index: int, tag: int) -> bytes:
        """One sealed block's JSON, its checksum checked and decompressed. Raises :class:`SaveError`."""
        name = codec.block_name(index, tag)
        path = self.folder / HISTORY / name
        if self._dir is None:  # a closed session can still be read
            folder = Folder.open(self.folder)
            try:
                self._dir = folder
                return self._block_bytes(index, tag)
            finally:
                self._dir = None
                folder.close()
        try:
            history = self._dir.subfolder(HISTORY, create=False)
            try:
                data = history.read(name)
            finally:
                history.close()
            if data is None:
                raise SaveError(_("{path} is missing: the undo history cannot go back past it.", path=path))
            if name in self._sums and of_file(data) != self._sums[name]:
                raise SaveError(
                    _("{path} is damaged: its checksum does not match, so a byte in it has changed.", path=path)
                )
            return zlib.decompress(data)
        except OSError as error:
            raise SaveError(_("Cannot read {path}: {error}", path=path, error=explain(error))) from None
        except zlib.error as error:
            raise SaveError(
                _("{path} is damaged ({error}): the undo history cannot go back past it.", path=path, error=error)
            ) from None

    def append(self, entry: codec.Entry, *, sync: bool = True) -> None:
        """Append one entry and fsync it (or leave that to :meth:`sync`); raises :class:`SaveError`."""
        line = seal(codec.line_encoder.encode(entry)) + b"\n"
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
            if sync:
                os.fsync(self._journal)
            else:
                self._unsynced = True
        except OSError as error:
            self._close_journal()
            raise SaveError(_("Cannot write {path}: {error}", path=self.journal_path, error=explain(error))) from None

    def sync(self) -> None:
        """fsync the entries appended without it; raises :class:`SaveError`."""
        if not self._unsynced or self._journal is None:
            return
        self._unsynced = False
        try:
            os.fsync(self._journal)
        except OSError as error:
            self._close_journal()
            raise SaveError(_("Cannot write {path}: {error}", path=self.journal_path, error=explain(error))) from None


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def make_snapshot(
    seq: int,
    *,
    block_size: int,
    sealed: list[int],
    checkpoint: State,
    run: list[Action],
    redo: list[Action],
    current: State,
) -> codec.Snapshot:
    return codec.Snapshot(
        schema=codec.SNAPSHOT_SCHEMA,
        seq=seq,
        name=current.name,
        ruleset=current.ruleset,
        round=current.round,
        saved_at=now_iso(),
        block_size=block_size,
        sealed=sealed,
        checkpoint=checkpoint,
        run=run,
        redo=redo,
        current=current,
    )


def first_snapshot(state: State, block_size: int) -> codec.Snapshot:
    """The snapshot a session starts with: ``state`` and no history."""
    return make_snapshot(0, block_size=block_size, sealed=[], checkpoint=state, run=[], redo=[], current=state)
