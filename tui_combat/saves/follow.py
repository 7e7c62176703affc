"""Following a session from another process (the players' view), only ever reading.

The GM's copy of tui-combat appends every action to ``journal.jsonl`` and now and then rotates the files
(a new ``snapshot.json`` and journal). A follower notices either with a few ``stat`` calls (inode, size
and modification time of the two files): cheap enough to do twenty times a second, and no busy polling.
When they change it reads the session again, read-only (no lock, nothing written) with the reading function
the caller passes: :meth:`tui_combat.fight.store.Store.resume` with ``read_only=True`` reads it whole, so an
undo, a restart of the GM's app or a rotation half-way through are all just "read it again"; the players' view
passes a :class:`tui_combat.fight.following.SessionReader`, which reads only the journal lines appended since
and the whole session when the files did more than grow.

Which session: a named one, or the latest one (the one written most recently, looked up about once a
second, so the view moves on when the GM starts or resumes another fight). "Save as" writes the fight
into a new folder and goes on there; the old folder does not say where it went, so a follower recognises
the copy instead: a new session folder whose saved state is the one being followed (but for its name).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from msgspec.structs import replace

from tui_combat.engine.model import State
from tui_combat.i18n import _
from tui_combat.saves.errors import DamagedSession, SaveError
from tui_combat.saves.journal import SessionFolder
from tui_combat.saves.locations import sessions_dir
from tui_combat.saves.schema import JOURNAL, PREV_SNAPSHOT, SNAPSHOT
from tui_combat.saves.session_folders import session_folder

__all__ = [
    "POLL_SECONDS",
    "SCAN_SECONDS",
    "Follower",
    "Update",
    "latest_session",
    "saved_states",
    "session_times",
    "signature",
]

POLL_SECONDS = 0.05
"""How often the followed session's files are looked at (a few ``stat`` calls): an action shows on the players'
screen some 25 ms sooner than at a tenth of a second, for about 1.5 % of a core while the fight is idle
(0.8 % at a tenth, 2.4 % at a fortieth; measured on a 200-combatant fight). On Linux the players' view is
also told the moment the folder changes (:mod:`tui_combat.saves.watch`) and looks then."""
SCAN_SECONDS = 1.0
"""How often the sessions folder is looked at for a newer session or a "save as" copy."""
RETRY_SECONDS = 1.0
"""How soon a session that could not be read is tried again when its files have not changed; each failure
after that waits twice as long, up to :data:`MAX_RETRY_SECONDS`. A damaged session is not read again
until its files change: an idle view of one reads nothing."""
MAX_RETRY_SECONDS = 60.0

Stamp = tuple[int, int, int]
Signature = tuple[Stamp | None, Stamp | None]
Loader = Callable[[Path], State]


def _stamp(path: Path) -> Stamp | None:
    try:
        found = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return found.st_ino, found.st_size, found.st_mtime_ns


def signature(folder: Path) -> Signature:
    """What changes whenever the session in ``folder`` is written: an append, an undo, a rotation."""
    return _stamp(folder / SNAPSHOT), _stamp(folder / JOURNAL)


def session_times(root: Path) -> dict[str, int]:
    """Each saved session's key → when it was last written (nanoseconds); links are skipped, never followed."""
    times: dict[str, int] = {}
    try:
        entries = list(os.scandir(sessions_dir(root)))
    except OSError:
        return times
    for entry in entries:
        if entry.is_symlink() or not entry.is_dir(follow_symlinks=False):
            continue
        stamps = [stamp for stamp in signature(Path(entry.path)) if stamp is not None]
        if stamps:
            times[entry.name] = max(stamp[2] for stamp in stamps)
    return times


def latest_session(root: Path) -> str | None:
    times = session_times(root)
    return max(times, key=lambda key: (times[key], key)) if times else None


def saved_states(folder: Path) -> list[State]:
    """The current states of the folder's newest and previous snapshots (those that can be read)."""
    try:
        session = SessionFolder.open(folder)
    except SaveError:
        return []
    states: list[State] = []
    try:
        for name in (SNAPSHOT, PREV_SNAPSHOT):
            try:
                read = session.read_snapshot(name)
            except SaveError:
                continue
            if read.snapshot is not None:
                states.append(read.snapshot.current)
    finally:
        session.close()
    return states


@dataclass
class Update:
    """What changed since the last poll."""

    state: State | None
    """The session's state now (None while no session could be read yet)."""
    key: str | None
    """The session followed (its folder name)."""
    problem: str = ""
    """Why the session cannot be read just now (the last state read stays on screen); "" when it can."""
    moved: str = ""
    """Why the follower moved to another session ("" when it did not): translated, for the players."""


class Follower:
    """Follows one session (``key``) or the latest one (``key`` None); :meth:`poll` says what changed."""

    def __init__(self, root: Path, key: str | None, load: Loader) -> None:
        self.root = root
        self.named = key is not None
        self.key = key
        self.state: State | None = None
        self.problem = ""
        self._load = load
        self._signature: Signature | None = None
        self._retry_at = 0.0
        self._retry_wait = RETRY_SECONDS
        self._next_scan = 0.0
        self._known: set[str] | None = None

    def folder(self) -> Path | None:
        if self.key is None:
            return None
        try:
            return session_folder(self.root, self.key)
        except SaveError:
            return None

    def poll(self, now: float | None = None) -> Update | None:
        """Look at the files; read the session again if they changed. None when nothing changed."""
        now = time.monotonic() if now is None else now
        moved = ""
        if now >= self._next_scan or self.key is None:
            self._next_scan = now + SCAN_SECONDS
            moved = self._scan()
        folder = self.folder()
        if folder is None:
            problem = (
                _("No fight yet: waiting for the GM to start one.")
                if self.key is None
                else _("There is no saved session {name}.", name=self.key)
            )
            return self._changed(self.state, problem, moved)
        current = signature(folder)
        if current == self._signature and not moved and not (self.problem and now >= self._retry_at):
            return None
        if current != self._signature or moved:
            self._retry_wait = RETRY_SECONDS
        self._signature = current
        try:
            state = self._load(folder)
        except Exception as error:  # whatever reading raises, the view keeps what it shows and tries again
            if isinstance(error, DamagedSession):
                self._retry_at = float("inf")  # read again only when its files change
            else:
                self._retry_at = now + self._retry_wait
                self._retry_wait = min(self._retry_wait * 2, MAX_RETRY_SECONDS)
            problem = str(error) if isinstance(error, SaveError) else f"{type(error).__name__}: {error}"
            return self._changed(self.state, problem, moved)
        return self._changed(state, "", moved)

    def _changed(self, state: State | None, problem: str, moved: str) -> Update | None:
        same = state == self.state and problem == self.problem and not moved
        self.state, self.problem = state, problem
        return None if same else Update(state, self.key, problem, moved)

    def _scan(self) -> str:
        """Move to the session the fight went on in, if it moved; why it moved, or ""."""
        times = session_times(self.root)
        known, self._known = self._known, set(times)
        if known is not None and self.state is not None:
            for key in sorted(set(times) - known - {self.key or ""}):
                if self._is_a_copy(key):
                    return self._move(key, _("The GM saved the fight as {name}: following it there.", name=key))
        if not self.named and times:
            latest = max(times, key=lambda key: (times[key], key))
            if latest != self.key and (self.key not in times or times[latest] > times[self.key]):
                first = self.key is None
                self._move(latest, "")
                return "" if first else _("Now following {name}, the fight written most recently.", name=latest)
        return ""

    def _is_a_copy(self, key: str) -> bool:
        followed = self.state
        if followed is None:
            return False
        try:
            folder = session_folder(self.root, key)
        except SaveError:
            return False
        return any(replace(state, name=followed.name) == followed for state in saved_states(folder))

    def _move(self, key: str, reason: str) -> str:
        self.key = key
        self._signature = None
        self.problem = ""
        return reason
