"""What the session list shows of each saved session, and the index file that keeps it between starts.

Reading a session for the list means reading its snapshot and journal whole, checking their sums and, for
the step of its round, loading its ruleset; with hundreds of sessions that is most of the start-up. The
index (``session-index.json`` in the data folder, beside ``sessions/``) keeps what was found for each
session with the stamps of its files (inode, size, modification and change times of the snapshots, the
journals and the history folder). A session whose stamps are those the index holds is not read again;
one written since (here, or by another copy of tui-combat), or missing from the index, is.

The index is only a cache: the sessions stay the truth. It is replaced in one step (a temporary file
renamed over it); one that is missing, unreadable, of another format or of another version of tui-combat
counts as empty, and is written again from the sessions. It is opened without waiting and read only when it
is a regular file of at most :data:`MAX_INDEX_BYTES`: anything else there (a FIFO, which a read would wait on
forever, a device, a folder) counts as no index and is left as it is, the list read from the sessions.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import msgspec

from tui_combat import __version__
from tui_combat.saves.schema import (
    HISTORY,
    JOURNAL,
    JOURNAL_SCHEMA,
    PREV_JOURNAL,
    PREV_SNAPSHOT,
    SNAPSHOT,
    SNAPSHOT_SCHEMA,
)

INDEX_FILE = "session-index.json"
MAX_INDEX_BYTES = 32 << 20
"""Far more than the index of 10,000 sessions: a bigger one is refused without reading it."""
INDEX_SCHEMA = 1
"""The index's own format: a change of what the list reads from a session changes it too."""
STAMPED = (SNAPSHOT, PREV_SNAPSHOT, JOURNAL, PREV_JOURNAL, HISTORY)
"""What of a session folder the list reads: when none of these changed, neither did what it shows."""

FileStamp = tuple[int, int, int, int]
"""Inode, size, modification and change times (nanoseconds)."""
Stamp = tuple[FileStamp | None, ...]
"""One :data:`FileStamp` per name of :data:`STAMPED`; None for one that does not exist."""


class SessionInfo(msgspec.Struct, frozen=True, kw_only=True):
    key: str
    """The session's folder name; what ``tui-combat resume KEY`` takes."""
    name: str
    ruleset: str
    round: int
    saved_at: float
    problem: str = ""
    recoverable: bool = False
    """Damaged, but ``tui-combat recover KEY`` can rebuild it into a new session."""
    phase: str = ""
    """"setup", "surprise", "round" or "over"; "" when unknown (a damaged session)."""
    step: int = -1
    """The step of the round (an index into the ruleset's steps); -1 when not in a round, or when actions
    were saved after the last snapshot (the step then needs a replay to be known)."""
    step_label: str = ""
    """The step's label, a message id translated when shown; only filled when the list is asked for
    ``steps``, and "" when the step is unknown."""
    after_snapshot: bool = False
    """Actions were saved after the last snapshot: where the fight stands (and whether they replay) is known
    only by replaying them (:func:`tui_combat.fight.session.list_sessions` does, with ``steps``)."""


class IndexEntry(msgspec.Struct, frozen=True, kw_only=True):
    stamp: Stamp
    listed: SessionInfo
    """What the list reads from the files alone."""
    shown: SessionInfo | None = None
    """What the list shows with the step of each round (which takes the ruleset, or a replay); None until
    it was asked for once."""


class _IndexFile(msgspec.Struct, kw_only=True):
    schema: int
    version: str
    formats: tuple[int, int]
    entries: dict[str, IndexEntry]


_decoder = msgspec.json.Decoder(_IndexFile)
_encoder = msgspec.json.Encoder()


def stamp(folder: str) -> Stamp:
    """The stamps of what the list reads in the session folder ``folder``, taken before it is read: a write
    that comes while it is being read changes them, and the session is read again next time."""
    stamps: list[FileStamp | None] = []
    for name in STAMPED:
        try:
            found = os.stat(f"{folder}/{name}", follow_symlinks=False)
        except OSError:
            stamps.append(None)
            continue
        stamps.append((found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns))
    return tuple(stamps)


def read_index(root: Path) -> dict[str, IndexEntry]:
    """The entries of the data folder ``root``'s index, by session key; none when it is missing, damaged,
    or written by another version (it is then rebuilt from the sessions)."""
    try:
        fd = os.open(root / INDEX_FILE, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return {}
    try:
        with os.fdopen(fd, "rb") as file:
            found = os.fstat(file.fileno())
            if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_INDEX_BYTES:
                return {}
            index = _decoder.decode(file.read(MAX_INDEX_BYTES + 1))
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return {}
    if (
        index.schema != INDEX_SCHEMA
        or index.version != __version__
        or index.formats != (SNAPSHOT_SCHEMA, JOURNAL_SCHEMA)
    ):
        return {}
    return index.entries


def write_index(root: Path, entries: dict[str, IndexEntry]) -> None:
    """Replace the index in one step; when the data folder cannot be written, the list is read from the
    sessions every time, as without an index. Not synced to the disk: after a crash it is the old index,
    the new one, or one that does not decode, and each of those is right to read (it is checked against
    the sessions)."""
    try:
        mode = os.lstat(root / INDEX_FILE).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
            return  # something else stands there (a FIFO, a device): not the app's to replace (a link is, itself)
    except FileNotFoundError:
        pass
    except OSError:
        return
    data = _encoder.encode(
        _IndexFile(schema=INDEX_SCHEMA, version=__version__, formats=(SNAPSHOT_SCHEMA, JOURNAL_SCHEMA), entries=entries)
    )
    temp = root / f".{INDEX_FILE}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError:
        return
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.replace(temp, root / INDEX_FILE)
    except OSError:
        try:
            os.unlink(temp)
        except OSError:
            pass
