"""Reading a session another copy of tui-combat writes, again and again, for the players' view; no Textual.

The first read is :meth:`~tui_combat.fight.store.Store.resume`, read-only. After that a :class:`SessionReader`
keeps that store and reads only the lines appended to ``journal.jsonl`` since, replaying each of them, as long
as everything says the file simply grew: the same ``snapshot.json`` (inode, size, modification time), the same
journal file, and the last line read still where it was. Anything else — a snapshot rewritten (the journal
rotated), the journal cut or replaced, a line that cannot be read or does not come next, bytes after the last
newline that are not an interrupted write, a line the rules cannot replay — and the session is read whole again,
as before, which says what is wrong if something is.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import msgspec

from tui_combat.engine.model import State
from tui_combat.saves import codec
from tui_combat.saves.reading import JournalPlace
from tui_combat.saves.schema import JOURNAL, SNAPSHOT, is_torn
from tui_combat.saves.sums import Sum, check

__all__ = ["SessionReader"]

Stamp = tuple[int, int, int]
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC


def _stamp(path: Path) -> Stamp | None:
    try:
        found = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return found.st_ino, found.st_size, found.st_mtime_ns


class SessionReader:
    """Called with a session's folder, gives its state as it stands now, read-only (no lock, nothing written):
    the loader :class:`~tui_combat.saves.follow.Follower` takes. ``prepare`` is called with each store read
    whole (the players' view loads the ruleset's words there)."""

    def __init__(self, prepare: Callable[[State], None] | None = None) -> None:
        from tui_combat.fight.store import Store

        self._prepare = prepare
        self._store: Store | None = None
        self._folder: Path | None = None
        self._snapshot: Stamp | None = None
        self._journal_inode = 0
        self._place: JournalPlace | None = None
        self.whole_reads = 0
        """How many times the session was read whole."""
        self.lines_read = 0
        """How many journal lines were read going on from where the last read stopped."""
        self.bytes_read = 0
        """How many bytes of the journal those reads read (the last line read before included)."""

    def __call__(self, folder: Path) -> State:
        if self._store is not None and folder == self._folder:
            try:
                state = self._go_on(folder)
            except Exception:  # a line the rules cannot replay: the whole read says what is wrong
                state = None
            if state is not None:
                return state
        return self._read_whole(folder)

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
        self._store = None
        self._folder = None
        self._place = None

    def _read_whole(self, folder: Path) -> State:
        from tui_combat.fight.store import Store

        self.close()
        self.whole_reads += 1
        snapshot_before = _stamp(folder / SNAPSHOT)
        journal_before = _stamp(folder / JOURNAL)
        store = Store.resume(folder, read_only=True)
        try:
            if self._prepare is not None:
                self._prepare(store.state)
        except BaseException:
            store.close()
            raise
        snapshot_after = _stamp(folder / SNAPSHOT)
        journal_after = _stamp(folder / JOURNAL)
        same_files = (
            snapshot_before is not None
            and snapshot_before == snapshot_after
            and journal_before is not None
            and journal_after is not None
            and journal_before[0] == journal_after[0]
        )
        if same_files and store.journal_place is not None and snapshot_before is not None:
            self._store, self._folder = store, folder
            self._snapshot, self._journal_inode = snapshot_before, journal_before[0] if journal_before else 0
            self._place = store.journal_place
        else:  # written while being read: the next read is a whole one again
            store.close()
        return store.state

    def _go_on(self, folder: Path) -> State | None:
        """The state after the lines appended since the last read; None when they do not simply follow on."""
        store, place = self._store, self._place
        if store is None or place is None or _stamp(folder / SNAPSHOT) != self._snapshot:
            return None
        try:
            fd = os.open(folder / JOURNAL, _READ_FLAGS)
        except OSError:
            return None
        try:
            if os.fstat(fd).st_ino != self._journal_inode:
                return None
            start = place.end - len(place.last_line) - 1 if place.last_line else place.end
            os.lseek(fd, start, os.SEEK_SET)
            chunks = [os.read(fd, 1 << 20)]
            while chunks[-1]:
                chunks.append(os.read(fd, 1 << 20))
        finally:
            os.close(fd)
        data = b"".join(chunks)
        self.bytes_read += len(data)
        if place.last_line:
            if not data.startswith(place.last_line + b"\n"):
                return None
            data = data[len(place.last_line) + 1 :]
        lines = data.split(b"\n")
        tail = lines.pop()
        if tail and (not is_torn(tail) or check(tail[:-1]) is Sum.GOOD):
            return None  # damage after the last line: the whole read reports it
        entries: list[codec.Entry] = []
        for raw in lines:
            self.lines_read += 1
            found = check(raw)
            if found is Sum.BAD or (place.summed and found is Sum.NONE):
                return None
            try:
                line = codec.line_decoder.decode(raw)
            except (msgspec.DecodeError, msgspec.ValidationError):
                return None
            if isinstance(line, codec.JournalHeader):
                return None
            entries.append(line)
        for entry in entries:
            if not store.follow(entry):
                return None
        if lines:
            self._place = JournalPlace(place.end + len(data) - len(tail), lines[-1], place.summed)
        return store.state
