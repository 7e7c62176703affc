"""The list of saved sessions, newest first, read cheaply (no replay).

A folder that holds any of a session's files is listed, damaged or not: a session whose newest snapshot
is missing or unreadable shows as damaged (and says whether it can be recovered) instead of vanishing.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

import msgspec

from tui_combat.i18n import _
from tui_combat.saves.errors import SaveError
from tui_combat.saves.files import Folder
from tui_combat.saves.locations import sessions_dir, slug
from tui_combat.saves.schema import JOURNAL, JOURNAL_SCHEMA, PREV_JOURNAL, PREV_SNAPSHOT, SNAPSHOT, SNAPSHOT_SCHEMA, is_torn

# Problems are message ids: the screens translate them when shown.
DAMAGED = "damaged"
RECOVERABLE = "damaged, can be recovered"
NEWER = "newer version"
SYMLINK = "symbolic link, refused"


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


class _Head(msgspec.Struct):
    name: str = ""
    ruleset: str = ""
    round: int = 0
    schema: int = 0


class _StartHead(msgspec.Struct):
    name: str = ""
    ruleset: str = ""
    round: int = 0


class _HeaderHead(msgspec.Struct):
    schema: int = 0
    start: _StartHead | None = None


_head_decoder = msgspec.json.Decoder(_Head)
_header_decoder = msgspec.json.Decoder(_HeaderHead)
_round_decoder = msgspec.json.Decoder(dict[str, object])
_SESSION_FILES = (SNAPSHOT, PREV_SNAPSHOT, JOURNAL, PREV_JOURNAL)
_LINE_KINDS = ("header", "do", "undo", "redo")


def _snapshot_head(folder: Folder, name: str) -> _Head | None:
    try:
        data = folder.read(name)
        return _head_decoder.decode(data) if data is not None else None
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return None


def _journal_start(folder: Folder, name: str) -> _StartHead | None:
    """The first state a journal's header holds (only the journal after a session's first snapshot has one)."""
    try:
        line = folder.read_first_line(name)
        header = _header_decoder.decode(line) if line else None
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return None
    if header is None or header.schema > JOURNAL_SCHEMA:
        return None
    return header.start


def _journal_end(folder: Folder) -> tuple[int | None, bool]:
    """(the round of the last journal entry, whether the journal's end is visibly damaged), from its last
    4 KiB: a missing journal, a last complete line that cannot be read, or trailing bytes that are not
    the start of a line. Deeper damage is found when the session is opened."""
    try:
        tail = folder.read_tail(JOURNAL, 4096)
    except OSError:
        return None, True
    if tail is None:
        return None, True
    lines = tail.split(b"\n")
    damaged = False
    if len(lines) > 1:
        after_last_newline, last_line = lines[-1], lines[-2]
        try:
            damaged = _round_decoder.decode(last_line).get("k") not in _LINE_KINDS
        except (msgspec.DecodeError, msgspec.ValidationError):
            damaged = True
        damaged = damaged or bool(after_last_newline) and not is_torn(after_last_newline)
    for raw in reversed(lines):
        try:
            line = _round_decoder.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue
        value = line.get("round")
        if isinstance(value, int):
            return value, damaged
    return None, damaged


def _info(key: str, folder: Folder) -> SessionInfo | None:
    if not any(folder.exists(name) for name in _SESSION_FILES):
        return None
    saved_at = max(folder.mtime(name) for name in (SNAPSHOT, JOURNAL))
    head = _snapshot_head(folder, SNAPSHOT)
    problem, recoverable = "", False
    if head is None:
        problem = DAMAGED
        fallback = _snapshot_head(folder, PREV_SNAPSHOT)
        start = _journal_start(folder, PREV_JOURNAL) or _journal_start(folder, JOURNAL)
        if fallback is not None and fallback.schema <= SNAPSHOT_SCHEMA:
            head, recoverable = fallback, True
        elif start is not None:
            head, recoverable = _Head(name=start.name, ruleset=start.ruleset, round=start.round), True
        if recoverable:
            problem = RECOVERABLE
    round_number, journal_damaged = _journal_end(folder)
    if not problem and journal_damaged:
        problem, recoverable = RECOVERABLE, True  # the snapshot is readable: at least it can be rebuilt
    if head is not None and head.schema > SNAPSHOT_SCHEMA:
        problem, recoverable = NEWER, False
    head = head or _Head()
    return SessionInfo(
        key=key,
        name=head.name or key,
        ruleset=head.ruleset,
        round=head.round if round_number is None else round_number,
        saved_at=saved_at,
        problem=problem,
        recoverable=recoverable,
    )


def list_sessions(root: Path) -> list[SessionInfo]:
    parent = sessions_dir(root)
    try:
        children = sorted(parent.iterdir())
    except OSError:
        return []
    sessions = []
    for child in children:
        if child.is_symlink():
            sessions.append(SessionInfo(key=child.name, name=child.name, ruleset="", round=0, saved_at=0.0, problem=SYMLINK))
            continue
        if not child.is_dir():
            continue
        try:
            folder = Folder.open(child)
        except SaveError:
            continue
        try:
            info = _info(child.name, folder)
        finally:
            folder.close()
        if info is not None:
            sessions.append(info)
    sessions.sort(key=lambda info: info.saved_at, reverse=True)
    return sessions


def session_folder(root: Path, name: str) -> Path:
    """The folder of the saved session called ``name``: only a plain name inside the sessions folder is
    accepted (no ``..``, no path, no absolute path), and no symbolic link is followed to reach it.
    Raises :class:`SaveError`."""
    parent = sessions_dir(root)
    if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name or os.path.isabs(name):
        raise SaveError(_("\"{name}\" is not the name of a saved session: give a name from tui-combat list.", name=name))
    if parent.is_symlink():
        raise SaveError(_("{path} is a symbolic link: tui-combat does not follow links inside its data folder.", path=parent))
    folder = parent / name
    if folder.is_symlink():
        raise SaveError(_("{path} is a symbolic link: tui-combat does not follow links inside its data folder.", path=folder))
    return folder


def new_session_folder(root: Path, name: str) -> Path:
    """A fresh folder for a session called ``name`` (``name-2`` … when taken)."""
    base = slug(name)
    folder = sessions_dir(root)
    candidate = folder / base
    number = 2
    while os.path.lexists(candidate):
        candidate = folder / f"{base}-{number}"
        number += 1
    return candidate


def format_time(timestamp: float) -> str:
    if not timestamp:
        return "—"
    return datetime.fromtimestamp(timestamp, tz=timezone.utc).astimezone().strftime("%Y-%m-%d %H:%M")
