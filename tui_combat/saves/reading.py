"""Reading a session folder without changing it: what each file holds and what is wrong with it.

Nothing here writes. Damage is described (file, line, what) and left to the caller: :mod:`tui_combat.fight.store`
refuses to open a damaged session and offers to recover it into a new folder instead.

Only a real torn tail counts as an interrupted write: bytes after the last newline that look like the
start of a journal line (or are the zeros a crash can leave) and are shorter than any line tui-combat
writes. A complete line that cannot be read, or a long run of trailing bytes, is damage.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import msgspec
from msgspec.structs import replace

from tui_combat.engine.model import SCHEMA_VERSION
from tui_combat.i18n import _, ngettext
from tui_combat.saves import codec
from tui_combat.saves.errors import IncompatibleSession, NewerVersionError, SaveError
from tui_combat.saves.schema import JOURNAL, SUMMED_JOURNAL, SUMMED_SNAPSHOT, is_torn
from tui_combat.saves.schema import MAX_TORN_TAIL as MAX_TORN_TAIL
from tui_combat.saves.sums import Sum, check


@dataclass
class Segment:
    """One journal file as read: its header, the entries up to the first damage, and that damage."""

    name: str
    path: Path
    exists: bool = True
    header: codec.JournalHeader | None = None
    entries: list[tuple[int, codec.Entry]] = field(default_factory=list)
    """(line number, entry); line 1 is the header."""
    problem: str = ""
    problem_line: int = 0
    """The line the problem is on (0: the whole file; one past the last line: its trailing bytes)."""
    torn_at: int | None = None
    """Byte offset where a torn last line starts (skipped, never cut on reading)."""
    end: int = 0
    """Byte offset just after the last whole line (where the next line appended starts)."""
    last_line: bytes = b""
    """The last whole line, without its newline (a reader going on from :attr:`end` checks it is still there)."""


class JournalPlace(NamedTuple):
    """How far a reader has read ``journal.jsonl``: where the next line starts, the last line read there (to
    check the file still holds it), and whether each line must carry a checksum."""

    end: int
    last_line: bytes
    summed: bool


def place_after(segment: Segment) -> JournalPlace:
    """Where a reader of the whole of ``segment`` goes on from."""
    summed = segment.header is not None and segment.header.schema >= SUMMED_JOURNAL
    return JournalPlace(segment.end, segment.last_line, summed)


@dataclass
class SnapshotRead:
    name: str
    path: Path
    snapshot: codec.AnySnapshot | None
    problem: str = ""


def parse_segment(name: str, path: Path, data: bytes | None, *, required: bool) -> Segment:
    """Raises :class:`NewerVersionError` for a journal written by a newer tui-combat."""
    segment = Segment(name=name, path=path)
    if data is None:
        segment.exists = False
        if required:
            segment.problem = _("{path} is missing: the actions saved after the snapshot are lost.", path=path)
        return segment
    if not data:
        segment.problem = _("{path} is empty: it has lost even its header line.", path=path)
        return segment
    lines = data.split(b"\n")
    tail = lines.pop()
    segment.end = len(data) - len(tail)
    segment.last_line = lines[-1] if lines else b""
    summed = False
    """Every line must carry a checksum (the header says the journal's format has them)."""
    for number, raw in enumerate(lines, start=1):
        found = check(raw)
        if found is Sum.BAD:
            segment.problem = _(
                "{path} is damaged at line {line}: its checksum does not match, so a byte in it has changed.",
                path=path,
                line=number,
            )
            segment.problem_line = number
            return segment
        try:
            line = codec.line_decoder.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            segment.problem = _("{path} cannot be read at line {line} ({error}).", path=path, line=number, error=error)
            segment.problem_line = number
            return segment
        if isinstance(line, codec.JournalHeader) and number == 1:
            summed = line.schema >= SUMMED_JOURNAL
        if summed and found is Sum.NONE:
            segment.problem = _("{path} is damaged at line {line}: its checksum is missing.", path=path, line=number)
            segment.problem_line = number
            return segment
        if isinstance(line, codec.JournalHeader):
            if line.schema > codec.JOURNAL_SCHEMA:
                raise NewerVersionError(
                    _("{path} was saved by a newer tui-combat. Update tui-combat to open it.", path=path)
                )
            if number != 1:
                segment.problem = _("{path} has a second header at line {line}.", path=path, line=number)
                segment.problem_line = number
                return segment
            segment.header = _with_start_restored(line, path)
            continue
        if number == 1:
            segment.problem = _("{path} has no header line: its beginning is lost.", path=path)
            segment.problem_line = 1
            # The lines are still entries; a recovery may use them.
        segment.entries.append((number, line))
    if tail:
        if check(tail[:-1]) is Sum.GOOD and not segment.problem:  # a whole line whose newline was changed
            segment.problem = _(
                "{path} is damaged at line {line}: its checksum does not match, so a byte in it has changed.",
                path=path,
                line=len(lines) + 1,
            )
            segment.problem_line = len(lines) + 1
        elif is_torn(tail):
            segment.torn_at = len(data) - len(tail)
        elif not segment.problem:
            segment.problem = ngettext(
                "{path} ends with {n} byte that is not a journal line.",
                "{path} ends with {n} bytes that are not a journal line.",
                len(tail),
                path=path,
            )
            segment.problem_line = len(lines) + 1
    return segment


def _with_start_restored(header: codec.JournalHeader, path: Path) -> codec.JournalHeader:
    """The header with its first state's ruleset Structs back; without that state when they cannot be
    (it is only a way to recover a session that lost every snapshot)."""
    if header.start is None:
        return header
    try:
        return replace(header, start=codec.restored(header.start, path))
    except (SaveError, msgspec.ValidationError):
        return replace(header, start=None)


def snapshot_sum_problem(path: Path, data: bytes) -> str:
    """What is wrong with a snapshot's checksum ("" when it matches, or when the snapshot is of a format
    written before checksums). Reads nothing but the bytes: no decoding of the states."""
    found = check(data)
    if found is Sum.BAD:
        return _("{path} is damaged: its checksum does not match, so a byte in it has changed.", path=path)
    if found is Sum.NONE:
        try:
            schema = codec.probe_decoder.decode(data).schema
        except (msgspec.DecodeError, msgspec.ValidationError):
            return _("{path} is damaged (not a snapshot).", path=path)
        if schema >= SUMMED_SNAPSHOT:
            return _("{path} is damaged: its checksum is missing.", path=path)
    return ""


def journal_sum_problem(path: Path, data: bytes) -> str:
    """The first line of a journal whose checksum does not match or is missing where its format has them
    ("" when none). Decodes only the header; a torn last line is not looked at."""
    lines = data.split(b"\n")
    lines.pop()
    summed = False
    for number, raw in enumerate(lines, start=1):
        found = check(raw)
        if number == 1:
            try:
                header = codec.line_decoder.decode(raw)
            except (msgspec.DecodeError, msgspec.ValidationError):
                header = None
            summed = isinstance(header, codec.JournalHeader) and header.schema >= SUMMED_JOURNAL
        if found is Sum.BAD or (summed and found is Sum.NONE):
            return _(
                "{path} is damaged at line {line}: its checksum does not match, so a byte in it has changed.",
                path=path,
                line=number,
            )
    return ""


def parse_snapshot(name: str, path: Path, data: bytes | None) -> SnapshotRead:
    """Raises :class:`NewerVersionError` for a snapshot written by a newer tui-combat, and
    :class:`~tui_combat.saves.errors.IncompatibleSession` for one this version reads but cannot make a
    fight of (an older session whose history no longer replays, a ruleset that is not installed)."""
    if data is None:
        return SnapshotRead(name, path, None, _("{path} is missing.", path=path))
    try:
        schema = codec.probe_decoder.decode(data).schema
    except (msgspec.DecodeError, msgspec.ValidationError):
        return SnapshotRead(name, path, None, _("{path} is damaged (not a snapshot).", path=path))
    if schema > codec.SNAPSHOT_SCHEMA:
        raise NewerVersionError(
            _(
                "{path} was saved by a newer tui-combat (format {found}, this "
                "one reads up to {known}). Update tui-combat to open it.",
                path=path,
                found=schema,
                known=codec.SNAPSHOT_SCHEMA,
            )
        )
    decoder = codec.snapshot_decoders.get(schema)
    if decoder is None:
        return SnapshotRead(name, path, None, _("{path} is damaged (unknown format {found}).", path=path, found=schema))
    problem = snapshot_sum_problem(path, data)
    try:
        snapshot = decoder.decode(data, path)
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        return SnapshotRead(name, path, None, problem or _("{path} is damaged ({error}).", path=path, error=error))
    except IncompatibleSession:
        if problem:
            return SnapshotRead(name, path, None, problem)
        raise
    if problem:  # decoded only to tell a newer state (refused as such) from damage
        return SnapshotRead(name, path, None, problem)
    if any(state.schema > SCHEMA_VERSION for state in snapshot.states()):
        raise NewerVersionError(_("{path} was saved by a newer tui-combat. Update tui-combat to open it.", path=path))
    return SnapshotRead(name, path, snapshot)


@dataclass
class Located:
    """A journal entry and where it was read, so a replay error can name its line."""

    segment: Segment
    line: int
    entry: codec.Entry


@dataclass
class Plan:
    """A way to rebuild a session: start from ``snapshot`` (read from ``source``), then replay ``entries``."""

    source: str
    snapshot: codec.AnySnapshot
    entries: list[Located]
    problems: list[str]
    warnings: list[str]

    def last_line(self, segment_name: str = JOURNAL) -> int:
        lines = [located.line for located in self.entries if located.segment.name == segment_name]
        return lines[-1] if lines else 0


def plan(source: str, snapshot: codec.AnySnapshot, segments: list[Segment], *, up_to_line: int | None = None) -> Plan:
    """The entries after ``snapshot`` through ``segments`` in order, stopping at the first damage or gap.

    ``up_to_line`` leaves out every line of ``journal.jsonl`` after it (a recovery "up to line N").
    """
    entries: list[Located] = []
    problems: list[str] = []
    warnings: list[str] = []
    seq = snapshot.seq
    for segment in segments:
        if segment.header is not None and segment.header.after > seq:
            problems.append(
                _(
                    "{path} follows action {after}, but what comes before it "
                    "ends at action {seq}: the actions between are missing.",
                    path=segment.path,
                    after=segment.header.after,
                    seq=seq,
                )
            )
            break
        limit = up_to_line if segment.name == JOURNAL else None
        started = seq
        for line, entry in segment.entries:
            if limit is not None and line > limit:
                break
            if entry.seq <= started and seq == started:  # its first lines are already in the snapshot: written
                continue  # before a crash cut the rotation short
            if entry.seq <= seq:
                problems.append(
                    _(
                        "{path}, line {line}: action {found} is there a second time, after action {seq}.",
                        path=segment.path,
                        line=line,
                        found=entry.seq,
                        seq=seq,
                    )
                )
                return Plan(source, snapshot, entries, problems, warnings)
            if entry.seq != seq + 1:
                problems.append(
                    _(
                        "{path}, line {line}: action {found} follows action {seq}; the ones between are missing.",
                        path=segment.path,
                        line=line,
                        found=entry.seq,
                        seq=seq,
                    )
                )
                return Plan(source, snapshot, entries, problems, warnings)
            entries.append(Located(segment, line, entry))
            seq = entry.seq
        if segment.problem and (limit is None or segment.problem_line <= limit):
            problems.append(segment.problem)
            break
        if limit is not None:
            break
        if segment.torn_at is not None:
            warnings.append(
                _("The last action in {path} was cut off while being written and is skipped.", path=segment.path)
            )
    return Plan(source, snapshot, entries, problems, warnings)
