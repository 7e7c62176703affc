"""The list of saved sessions, newest first, read cheaply (no replay)."""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

import msgspec

from tui_combat.saves.schema import JOURNAL, SNAPSHOT, SNAPSHOT_SCHEMA
from tui_combat.saves.locations import sessions_dir, slug


class SessionInfo(msgspec.Struct, frozen=True, kw_only=True):
    key: str
    """The session's folder name; what ``tui-combat resume KEY`` takes."""
    name: str
    ruleset: str
    round: int
    saved_at: float
    problem: str = ""


class _Head(msgspec.Struct):
    name: str = ""
    ruleset: str = ""
    round: int = 0
    schema: int = 0


_head_decoder = msgspec.json.Decoder(_Head)
_round_decoder = msgspec.json.Decoder(dict[str, object])


def _last_round(journal: Path) -> int | None:
    """The round of the last journal entry, read from the file's tail."""
    try:
        with journal.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(size - 4096, 0))
            tail = handle.read()
    except OSError:
        return None
    for raw in reversed(tail.split(b"\n")):
        try:
            line = _round_decoder.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue
        value = line.get("round")
        if isinstance(value, int):
            return value
    return None


def list_sessions(root: Path) -> list[SessionInfo]:
    folder = sessions_dir(root)
    try:
        children = [child for child in folder.iterdir() if (child / SNAPSHOT).exists()]
    except OSError:
        return []
    sessions = []
    for child in children:
        snapshot = child / SNAPSHOT
        journal = child / JOURNAL
        try:
            mtime = max(snapshot.stat().st_mtime, journal.stat().st_mtime if journal.exists() else 0)
        except OSError:
            mtime = 0.0
        problem = ""
        try:
            head = _head_decoder.decode(snapshot.read_bytes())
        except (OSError, msgspec.DecodeError, msgspec.ValidationError):
            head, problem = _Head(name=child.name), "damaged"
        if head.schema > SNAPSHOT_SCHEMA:
            problem = "newer version"
        round_number = _last_round(journal)
        sessions.append(
            SessionInfo(
                key=child.name,
                name=head.name or child.name,
                ruleset=head.ruleset,
                round=head.round if round_number is None else round_number,
                saved_at=mtime,
                problem=problem,
            )
        )
    sessions.sort(key=lambda info: info.saved_at, reverse=True)
    return sessions


def new_session_folder(root: Path, name: str) -> Path:
    """A fresh folder for a session called ``name`` (``name-2`` … when taken)."""
    base = slug(name)
    folder = sessions_dir(root)
    candidate = folder / base
    number = 2
    while candidate.exists():
        candidate = folder / f"{base}-{number}"
        number += 1
    return candidate


def format_time(timestamp: float) -> str:
    if not timestamp:
        return "—"
    return datetime.fromtimestamp(timestamp, tz=timezone.utc).astimezone().strftime("%Y-%m-%d %H:%M")
