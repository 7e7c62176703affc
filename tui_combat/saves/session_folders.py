"""The list of saved sessions, newest first, read cheaply (no replay).

A folder that holds any of a session's files is listed, damaged or not: a session whose newest snapshot
is missing or unreadable shows as damaged (and says whether it can be recovered) instead of vanishing.
What was read of each session is kept in the data folder's index (:mod:`tui_combat.saves.index`): only
the sessions written since the last list are read again.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import NamedTuple

import msgspec

from tui_combat.i18n import _
from tui_combat.saves.errors import SaveError
from tui_combat.saves.files import FOLDER_MODE, Folder, make_private_folders
from tui_combat.saves.index import IndexEntry, SessionInfo, read_index, stamp, write_index
from tui_combat.saves.locations import sessions_dir, slug
from tui_combat.saves.schema import (
    JOURNAL,
    JOURNAL_SCHEMA,
    PREV_JOURNAL,
    PREV_SNAPSHOT,
    SNAPSHOT,
    SNAPSHOT_SCHEMA,
    STATE_SCHEMA,
)

# Problems are message ids: the screens translate them when shown.
DAMAGED = "damaged"
RECOVERABLE = "damaged, can be recovered"
NEWER = "newer version"
SYMLINK = "symbolic link, refused"


class _CurrentHead(msgspec.Struct):
    phase: str = ""
    step: int = 0
    schema: int = 0


class _StateHead(msgspec.Struct):
    schema: int = 0


class _Head(msgspec.Struct):
    name: str = ""
    ruleset: str = ""
    round: int = 0
    schema: int = 0
    seq: int = 0
    sealed: list[int] = msgspec.field(default_factory=list)
    block_sums: list[int] = msgspec.field(default_factory=list)
    current: _CurrentHead | None = None
    checkpoint: _StateHead | None = None
    base: _StateHead | None = None
    """(Formats 1 and 2: the state the history starts from.)"""

    def newer_state(self) -> bool:
        """Whether a state in the snapshot has a newer schema than this version's (opening refuses it as newer)."""
        return any(
            state is not None and state.schema > STATE_SCHEMA for state in (self.current, self.checkpoint, self.base)
        )


class _StartHead(msgspec.Struct):
    name: str = ""
    ruleset: str = ""
    round: int = 0


class _HeaderHead(msgspec.Struct):
    schema: int = 0
    start: _StartHead | None = None


_head_decoder = msgspec.json.Decoder(_Head)
_header_decoder = msgspec.json.Decoder(_HeaderHead)
_SESSION_FILES = (SNAPSHOT, PREV_SNAPSHOT, JOURNAL, PREV_JOURNAL)


def _snapshot_head(folder: Folder, name: str) -> _Head | None:
    """The head of a snapshot; None when it is missing, not a snapshot (a foreign ``snapshot.json``) or its
    checksum says it changed."""
    from tui_combat.saves.reading import snapshot_sum_problem

    try:
        data = folder.read(name)
        head = _head_decoder.decode(data) if data is not None else None
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return None
    if (
        data is None
        or head is None
        or head.schema < 1
        or (head.schema <= SNAPSHOT_SCHEMA and snapshot_sum_problem(folder.path / name, data))
    ):
        return None
    return head


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


class _JournalEnd(NamedTuple):
    round: int | None
    """The round of the last journal entry that follows the snapshot (None: no such entry)."""
    damaged: bool
    """Opening would find damage: in the journal, in a gap after the snapshot, in the previous snapshot or
    journal, or in a history block."""
    entries: bool
    """Entries follow the snapshot (the snapshot does not show the latest state)."""
    newer: bool = False


def _journal_end(folder: Folder, head: _Head) -> _JournalEnd:
    """What opening finds after the snapshot whose head is ``head``, by the same reading and checks (all
    but replaying the entries: that needs the rules)."""
    from tui_combat.saves.errors import NewerVersionError
    from tui_combat.saves.journal import SessionFolder

    try:
        session = SessionFolder.open(folder.path)
    except SaveError:
        return _JournalEnd(None, True, True)
    try:
        segment = session.read_segment(JOURNAL)
        if segment.header is not None and segment.header.after > head.seq:
            return _JournalEnd(None, True, True)
        after = [entry for _line, entry in segment.entries if entry.seq > head.seq]
        contiguous = all(entry.seq == head.seq + number for number, entry in enumerate(after, start=1))
        damaged = bool(segment.problem) or not contiguous
        if not damaged:
            problems, _last_bad = session.damaged_parts(head.sealed, head.block_sums)
            damaged = bool(problems)
        return _JournalEnd(after[-1].round if after else None, damaged, bool(after))
    except NewerVersionError:
        return _JournalEnd(None, False, True, newer=True)
    except SaveError:
        return _JournalEnd(None, True, True)
    finally:
        session.close()


def _fallback_head(folder: Folder) -> tuple[_Head | None, str, bool]:
    """When the newest snapshot cannot be read: the head of the one before it, or of the journal's start, and
    the problem to show (recoverable from those, or damaged)."""
    fallback = _snapshot_head(folder, PREV_SNAPSHOT)
    start = _journal_start(folder, PREV_JOURNAL) or _journal_start(folder, JOURNAL)
    if fallback is not None and fallback.schema <= SNAPSHOT_SCHEMA:
        return fallback, RECOVERABLE, True
    if start is not None:
        return _Head(name=start.name, ruleset=start.ruleset, round=start.round), RECOVERABLE, True
    return None, DAMAGED, False


def _phase_and_step(newest: _Head | None, entries: bool, round_number: int | None) -> tuple[str, int]:
    """The phase of the fight and its step in the round, as far as the newest snapshot tells them ("" and -1
    when it does not)."""
    phase, step = "", -1
    if newest is not None and newest.current is not None:
        phase = newest.current.phase
        if entries and phase in ("setup", "surprise") and (round_number or 0) > 0:
            phase = "round"  # the fight started after the snapshot
        if phase == "round" and not entries:
            step = newest.current.step
    return phase, step


def _info(key: str, folder: Folder) -> SessionInfo | None:
    if not any(folder.exists(name) for name in _SESSION_FILES):
        return None
    saved_at = max(folder.mtime(name) for name in (SNAPSHOT, JOURNAL))
    newest = _snapshot_head(folder, SNAPSHOT)  # the newest snapshot's own head
    head, problem, recoverable = (newest, "", False) if newest is not None else _fallback_head(folder)
    newest_head = newest if newest is not None and newest.schema <= SNAPSHOT_SCHEMA else None
    end = _journal_end(folder, newest_head) if newest_head is not None else _JournalEnd(None, False, True)
    round_number, journal_damaged, entries = end.round, end.damaged, end.entries
    if not problem and journal_damaged:
        problem, recoverable = RECOVERABLE, True  # the snapshot is readable: at least it can be rebuilt
    if end.newer or (head is not None and (head.schema > SNAPSHOT_SCHEMA or head.newer_state())):
        problem, recoverable = NEWER, False
    head = head or _Head()
    phase, step = _phase_and_step(newest, entries, round_number) if not problem else ("", -1)
    return SessionInfo(
        key=key,
        name=head.name or key,
        ruleset=head.ruleset,
        round=head.round if round_number is None else round_number,
        saved_at=saved_at,
        problem=problem,
        recoverable=recoverable,
        phase=phase,
        step=step,
        after_snapshot=entries and not problem,
    )


def with_step_label(folder: Path, info: SessionInfo) -> SessionInfo:
    """``info`` with the label of its round's step, as its ruleset names it (it may depend on the state):
    loads the ruleset and decodes the whole snapshot. Unchanged when the step is not known, or that fails."""
    if info.phase != "round" or info.step < 0:
        return info
    from tui_combat.saves.reading import parse_snapshot

    try:
        opened = Folder.open(folder)
    except SaveError:
        return info
    try:
        read = parse_snapshot(SNAPSHOT, folder / SNAPSHOT, opened.read(SNAPSHOT))
        snapshot = read.snapshot
        if snapshot is None:
            return info
        from tui_combat.engine.registry import get

        state = snapshot.current
        steps = get(state.ruleset).steps(state)
        label = steps[info.step].label if 0 <= info.step < len(steps) else ""
    except Exception:  # the rules are plugins, the file may be anything: the list shows no step then
        return info
    finally:
        opened.close()
    return msgspec.structs.replace(info, step_label=label)


def list_sessions(
    root: Path, *, steps: bool = False, shown: Callable[[Path, SessionInfo], SessionInfo] | None = None
) -> list[SessionInfo]:
    """Every saved session, newest first. With ``steps``, each one with the label of its round's step (which
    loads its ruleset and decodes its snapshot), or as ``shown`` makes it from what its files say. Only the
    sessions written since the index was last written are read again, and what ``shown`` made is kept in
    the index too: it is the session list's own (:func:`tui_combat.fight.session.list_sessions`), always the same."""
    parent = sessions_dir(root)
    if sessions_problem(root):
        return []  # the commands say why (sessions_problem)
    try:
        children = sorted(os.scandir(parent), key=lambda entry: entry.name)
    except OSError:
        return []
    known = read_index(root)
    entries: dict[str, IndexEntry] = {}
    sessions = []
    for child in children:
        if child.is_symlink():
            sessions.append(
                SessionInfo(key=child.name, name=child.name, ruleset="", round=0, saved_at=0.0, problem=SYMLINK)
            )
            continue
        if not child.is_dir(follow_symlinks=False):
            continue
        entry = _entry(child.name, child.path, known.get(child.name))
        if entry is None:
            continue
        if steps and shown is not None and entry.shown is None:
            entry = msgspec.structs.replace(entry, shown=shown(Path(child.path), entry.listed))
        entries[child.name] = entry
        if steps and shown is None:
            sessions.append(with_step_label(Path(child.path), entry.listed))
        else:
            sessions.append(entry.shown if steps and entry.shown is not None else entry.listed)
    if entries != known:
        write_index(root, entries)
    sessions.sort(key=lambda info: info.saved_at, reverse=True)
    return sessions


def indexed_sessions(root: Path) -> list[SessionInfo] | None:
    """What the index says the session list shows (each session with its step), newest first, read without
    looking at any session's files: for a first sight of a long list, which :func:`list_sessions` then checks
    against the files. None when the index holds no session or not what the list shows of each one."""
    if sessions_problem(root):
        return None
    known = read_index(root)
    shown = [entry.shown for entry in known.values()]
    if not shown or None in shown:
        return None
    sessions = [info for info in shown if info is not None]
    sessions.sort(key=lambda info: info.saved_at, reverse=True)
    return sessions


def _entry(key: str, path: str, known: IndexEntry | None) -> IndexEntry | None:
    """What the list reads of the session folder ``path``: from the index when its files are as they were
    then, else from the files; None when it holds none of a session's files."""
    stamped = stamp(path)
    if known is not None and known.stamp == stamped:
        return known
    try:
        folder = Folder.open(Path(path))
    except SaveError:
        return None
    try:
        info = _info(key, folder)
    finally:
        folder.close()
    return IndexEntry(stamp=stamped, listed=info) if info is not None else None


def is_listed_key(root: Path, name: str) -> bool:
    """Whether :func:`list_sessions` lists a session whose key is exactly ``name`` (a folder of that name in
    the sessions folder, not a link, holding one of a session's files), found without reading any session's
    files: ``tui-combat resume KEY`` then needs no list. False when it may be anything else (a name as
    listed, a folder that is no session, a link): the list decides those."""
    try:
        folder_path = session_folder(root, name)
        if name not in os.listdir(sessions_dir(root)):  # the exact name, even where the file system ignores case
            return False
        folder = Folder.open(folder_path)
    except (OSError, SaveError):
        return False
    try:
        return any(folder.exists(file_name) for file_name in _SESSION_FILES)
    finally:
        folder.close()


MAX_KEY_BYTES = 255
"""The longest file name most file systems take (``NAME_MAX``): a longer session key is no folder."""


def _shown(name: str) -> str:
    """A name as a message quotes it: at most 60 characters of it."""
    return name if len(name) <= 60 else name[:60] + "…"


def session_folder(root: Path, name: str) -> Path:
    """The folder of the saved session called ``name``: only a plain name inside the sessions folder is
    accepted (no ``..``, no path, no absolute path), and no symbolic link is followed to reach it.
    Raises :class:`SaveError`."""
    parent = sessions_dir(root)
    if len(name.encode("utf-8", "surrogateescape")) > MAX_KEY_BYTES:
        raise SaveError(
            _(
                '"{name}" is too long for the name of a saved session (a folder name holds at most {limit} bytes): '
                "give a name from tui-combat list.",
                name=_shown(name),
                limit=MAX_KEY_BYTES,
            )
        )
    if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name or os.path.isabs(name):
        raise SaveError(
            _('"{name}" is not the name of a saved session: give a name from tui-combat list.', name=_shown(name))
        )
    problem = sessions_problem(root)
    if problem:
        raise SaveError(problem)
    folder = parent / name
    if folder.is_symlink():
        raise SaveError(
            _("{path} is a symbolic link: tui-combat does not follow links inside its data folder.", path=folder)
        )
    return folder


def sessions_problem(root: Path) -> str:
    """Why the sessions folder cannot be used ("" when it can, or does not exist yet): a symbolic link is
    refused by every command, listing included, as every link inside the data folder is."""
    parent = sessions_dir(root)
    if parent.is_symlink():
        return _("{path} is a symbolic link: tui-combat does not follow links inside its data folder.", path=parent)
    if os.path.lexists(parent) and not parent.is_dir():
        return _("{path} is not a folder.", path=parent)
    return ""


def new_session_folder(root: Path, name: str) -> Path:
    """A fresh folder for a session called ``name`` (``name-2`` … when taken), created here, empty: making
    it is the claim, so two sessions started at once never get the same one. When the sessions folder
    cannot be written, the folder is named but not made (the session starts unsaved and says why). Raises
    :class:`SaveError` when the sessions folder is a symbolic link (:func:`sessions_problem`)."""
    problem = sessions_problem(root)
    if problem:
        raise SaveError(problem)
    base = slug(name)
    folder = sessions_dir(root)
    try:
        make_private_folders(folder)
    except OSError:
        pass
    number = 1
    while True:
        candidate = folder / (base if number == 1 else f"{base}-{number}")
        number += 1
        try:
            os.mkdir(candidate, FOLDER_MODE)
        except FileExistsError:
            continue
        except OSError:
            if os.path.lexists(candidate):
                continue
            return candidate
        return candidate


def delete_session_folder(root: Path, key: str) -> None:
    """Remove the folder of the saved session ``key`` and everything in it, for good. Refused (with
    :class:`SaveError`, nothing removed) while another copy of tui-combat has the session open: its lock is
    held during the removal, so no one can open it halfway."""
    path = session_folder(root, key)
    if not path.is_dir():
        raise SaveError(_("There is no saved session {name}.", name=key))
    folder = Folder.open(path)
    try:
        if not folder.try_lock():
            raise SaveError(_("{path} is open in another copy of tui-combat: close it there first.", path=path))
        try:
            shutil.rmtree(path)
        except OSError as error:
            raise SaveError(_("Cannot delete {path}: {error}", path=path, error=error.strerror or error)) from None
    finally:
        folder.close()


def remove_new_folder(path: Path) -> None:
    """Remove the folder of a session that failed to start (it holds nothing worth keeping)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)


def move_session_folder(root: Path, key: str, name: str) -> str:
    """Give the session ``key`` the folder its new ``name`` makes, when that folder is free; the key it has
    afterwards (the old one when the folder is taken). The caller holds the session's lock."""
    target = sessions_dir(root) / slug(name)
    if target.name == key or os.path.lexists(target):
        return key
    try:
        os.rename(session_folder(root, key), target)
    except OSError:
        return key  # taken meanwhile, or a file system that refuses: the session keeps its folder
    return target.name


def format_time(timestamp: float, now: float | None = None) -> str:
    """When a session was saved, for the list: "today 14:05", "yesterday 09:12", else the date and time, in
    local time. ``now`` is for tests (the current time otherwise)."""
    if not timestamp:
        return "—"
    when = time.localtime(timestamp)  # (a list of 500 fights formats 500 of these before its first frame)
    today = date(*time.localtime(time.time() if now is None else now)[:3])
    day = date(*when[:3])
    if day == today:
        return _("today {time}", time=time.strftime("%H:%M", when))
    if day == today - timedelta(days=1):
        return _("yesterday {time}", time=time.strftime("%H:%M", when))
    return time.strftime("%Y-%m-%d %H:%M", when)
