"""One session's folder: ``snapshot.json`` plus an append-only ``journal.jsonl``.

Every entry is written and fsynced before the screen shows its result, so whatever happens next
(quit, kill -9, a dropped SSH connection) the session resumes after the last action.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

import msgspec
from msgspec.structs import replace

from tui_combat.engine.actions import Action
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import SCHEMA_VERSION, State
from tui_combat.engine.registry import restore
from tui_combat.i18n import _
from tui_combat.saves import codec
from tui_combat.saves.atomic import atomic_write, fsync_dir
from tui_combat.saves.errors import SaveError
from tui_combat.saves.migrate import OLDEST_READABLE, state_schema, upgrade_snapshot
from tui_combat.saves.schema import JOURNAL, SNAPSHOT


def _explain(error: OSError) -> str:
    return error.strerror or str(error)


class Loaded(msgspec.Struct, kw_only=True):
    snapshot: codec.Snapshot
    entries: list[codec.Entry]
    warnings: list[str]
    upgraded_from: int = 0
    """The state schema the files were written in, when older than today's (0: today's). The folder
    still holds the old files; they are replaced the first time the session is saved."""


class SessionFolder:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.snapshot_path = folder / SNAPSHOT
        self.journal_path = folder / JOURNAL
        self._journal: int | None = None

    # -- writing -----------------------------------------------------------------------------------
    def write_snapshot(self, snapshot: codec.Snapshot) -> None:
        """Write a snapshot and start an empty journal after it; raises :class:`SaveError`."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            atomic_write(self.snapshot_path, msgspec.json.encode(snapshot))
            self.close()
            header = codec.line_encoder.encode(codec.JournalHeader(schema=codec.JOURNAL_SCHEMA)) + b"\n"
            atomic_write(self.journal_path, header)
        except OSError as error:
            raise SaveError(_("Cannot write {path}: {error}", path=self.folder, error=_explain(error))) from None

    def append(self, entry: codec.Entry) -> None:
        """Append one entry and fsync it; raises :class:`SaveError`."""
        line = codec.line_encoder.encode(entry) + b"\n"
        try:
            if self._journal is None:
                self._journal = os.open(self.journal_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            written = os.write(self._journal, line)
            if written != len(line):
                raise OSError(28, "No space left on device")
            os.fsync(self._journal)
        except OSError as error:
            self.close()
            raise SaveError(_("Cannot write {path}: {error}", path=self.journal_path, error=_explain(error))) from None

    def close(self) -> None:
        if self._journal is not None:
            try:
                os.close(self._journal)
            except OSError:
                pass
            self._journal = None

    # -- reading -----------------------------------------------------------------------------------
    def load(self) -> Loaded:
        """Read the snapshot and the journal after it.

        A torn last journal line (the process died mid-write) is cut off with a warning; any other
        damage raises :class:`SaveError` naming the file, and nothing on disk is changed.
        """
        snapshot, upgraded_from = self._read_snapshot()
        entries, warnings, good_length = self._read_journal(snapshot.seq)
        if good_length is not None and not upgraded_from:  # old files are only read; they are replaced whole later
            try:
                with self.journal_path.open("r+b") as handle:
                    handle.truncate(good_length)
                    os.fsync(handle.fileno())
            except OSError as error:
                raise SaveError(_("Cannot repair {path}: {error}", path=self.journal_path, error=_explain(error))) from None
        return Loaded(snapshot=snapshot, entries=entries, warnings=warnings, upgraded_from=upgraded_from)

    def keep_old_files(self, schema: int) -> None:
        """Copy the snapshot and the journal aside (``snapshot.schema1.json`` …) before a session written
        in an older format is saved in today's; an existing copy is never overwritten."""
        for path in (self.snapshot_path, self.journal_path):
            copy = path.with_name(f"{path.stem}.schema{schema}{path.suffix}")
            try:
                if path.exists() and not copy.exists():
                    atomic_write(copy, path.read_bytes())
            except OSError as error:
                raise SaveError(_("Cannot write {path}: {error}", path=copy, error=_explain(error))) from None

    def _read_snapshot(self) -> tuple[codec.Snapshot, int]:
        """The snapshot, and the state schema it was written in when that is older than today's."""
        path = self.snapshot_path
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise SaveError(_("{path} is missing: this is not a saved session.", path=path)) from None
        except OSError as error:
            raise SaveError(_("Cannot read {path}: {error}", path=path, error=_explain(error))) from None
        try:
            schema = codec.probe_decoder.decode(data).schema
        except (msgspec.DecodeError, msgspec.ValidationError):
            raise SaveError(_("{path} is damaged (not a snapshot). The file was left as it is.", path=path)) from None
        if schema > codec.SNAPSHOT_SCHEMA:
            raise SaveError(
                _("{path} was saved by a newer tui-combat (format {found}, this one reads up to {known}). Update tui-combat to open it.",
                  path=path, found=schema, known=codec.SNAPSHOT_SCHEMA)
            )
        state_version = state_schema(data)
        if state_version > SCHEMA_VERSION:
            raise SaveError(_("{path} was saved by a newer tui-combat. Update tui-combat to open it.", path=path))
        if OLDEST_READABLE <= state_version < SCHEMA_VERSION:
            return upgrade_snapshot(data, path), state_version
        try:
            snapshot = codec.snapshot_decoder.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            raise SaveError(_("{path} is damaged ({error}). The file was left as it is.", path=path, error=error)) from None
        try:
            snapshot = replace(snapshot, base=restore(snapshot.base), current=restore(snapshot.current))
        except (RuleError, msgspec.ValidationError) as error:
            raise SaveError(_("Cannot open {path}: {error}", path=path, error=error)) from None
        return snapshot, 0

    def _read_journal(self, after_seq: int) -> tuple[list[codec.Entry], list[str], int | None]:
        path = self.journal_path
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return [], [], None
        except OSError as error:
            raise SaveError(_("Cannot read {path}: {error}", path=path, error=_explain(error))) from None
        lines = data.split(b"\n")
        torn = lines.pop()  # after the last newline: empty unless the last write was cut short
        warnings: list[str] = []
        good_length: int | None = None
        entries: list[codec.Entry] = []
        offset = 0
        for number, raw in enumerate(lines, start=1):
            is_last = number == len(lines) and not torn
            try:
                line = codec.line_decoder.decode(raw)
            except (msgspec.DecodeError, msgspec.ValidationError) as error:
                if is_last:
                    torn, good_length = raw, offset
                    break
                raise SaveError(
                    _("{path} is damaged at line {line} ({error}). The file was left as it is.", path=path, line=number, error=error)
                ) from None
            offset += len(raw) + 1
            if isinstance(line, codec.JournalHeader):
                if line.schema > codec.JOURNAL_SCHEMA:
                    raise SaveError(_("{path} was saved by a newer tui-combat. Update tui-combat to open it.", path=path))
                continue
            if line.seq > after_seq:
                entries.append(line)
        if torn:
            good_length = offset if good_length is None else good_length
            warnings.append(_("The last action in {path} was cut off while being written and has been dropped.", path=path))
        return entries, warnings, good_length


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


__all__ = ["Loaded", "SessionFolder", "fsync_dir", "make_snapshot", "now_iso"]
