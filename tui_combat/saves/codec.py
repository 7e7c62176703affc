"""The on-disk formats, each with a schema version.

* ``journal.jsonl`` — a header line, then one entry per line: an action done, an undo or a redo.
* ``snapshot.json`` — what resuming needs without replaying the past: the current state, the open run of
  the undo history (its checkpoint and the actions since), the seqs naming the sealed history blocks,
  and the actions that can be redone. It holds states, not every action since the session began.
* ``history/IIIIII-TTTTTTTTT.json.z`` — one sealed block of the undo history (zlib-compressed JSON): the
  state before it and its actions. Read only when an undo reaches it.
* ``snapshot.prev.json`` and ``journal.prev.jsonl`` — the snapshot before and the journal that followed
  it, kept so that a damaged newest snapshot still leaves a session to recover.

Formats 1 and 2 (before history blocks) kept every action since the start in the snapshot; they still
open, and are written in the current format at the next change. A format-1 snapshot whose states have
schema 1 (before the log became data) is rebuilt by replaying its history (:mod:`tui_combat.saves.migrate`).

Every state read from a file goes through :func:`tui_combat.engine.registry.restore` (the ruleset's own
Structs back in place of plain mappings): the snapshot decoders do it, and so do the readers of history
blocks and journal headers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, TypeVar

import msgspec
from msgspec.structs import replace

from tui_combat.engine.actions import Action
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import SCHEMA_VERSION, Combatant, LogChunk, State
from tui_combat.engine.registry import restore
from tui_combat.i18n import _
from tui_combat.saves.errors import IncompatibleSession, NewerVersionError
from tui_combat.saves.schema import JOURNAL_SCHEMA as JOURNAL_SCHEMA  # re-exported: the codec's versions
from tui_combat.saves.schema import SNAPSHOT
from tui_combat.saves.schema import SNAPSHOT_SCHEMA as SNAPSHOT_SCHEMA


class JournalHeader(msgspec.Struct, frozen=True, kw_only=True, tag="header", tag_field="k"):
    schema: int
    app: str = "tui-combat"
    after: int = 0
    """The seq of the snapshot this journal follows: its entries start at ``after + 1``."""
    start: State | None = None
    """The session's first state, in the journal that follows its very first snapshot: with it the
    session can be rebuilt even if every snapshot is lost."""


class Done(msgspec.Struct, frozen=True, kw_only=True, tag="do", tag_field="k"):
    seq: int
    round: int
    a: Action


class Undone(msgspec.Struct, frozen=True, kw_only=True, tag="undo", tag_field="k"):
    seq: int
    round: int


class Redone(msgspec.Struct, frozen=True, kw_only=True, tag="redo", tag_field="k"):
    seq: int
    round: int


Entry = Done | Undone | Redone
Line = JournalHeader | Done | Undone | Redone


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    schema: int
    seq: int
    """The last journal entry this snapshot includes."""
    name: str
    ruleset: str
    round: int
    saved_at: str
    block_size: int
    sealed: list[int]
    """For each sealed history block, oldest first, the seq that names its file."""
    checkpoint: State
    """The state before ``run``."""
    run: list[Action]
    """The actions done since the last sealed block (fewer than ``block_size``)."""
    redo: list[Action]
    current: State
    block_sums: list[int] = msgspec.field(default_factory=list)
    """The checksum of each sealed block's file (:func:`tui_combat.saves.sums.of_file`), -1 where unknown;
    empty in a snapshot written before checksums."""

    def states(self) -> tuple[State, ...]:
        return (self.checkpoint, self.current)


class SnapshotV1(msgspec.Struct, frozen=True, kw_only=True):
    """Formats 1 and 2: the state the history starts from and every action done since."""

    schema: int
    seq: int
    name: str
    ruleset: str
    round: int
    saved_at: str
    base: State
    done: list[Action]
    redo: list[Action]
    current: State
    upgraded_from: int = 0
    """Not in the file: the older state schema the file held (its states were rebuilt by replaying its
    history), or 0 when its states are today's."""

    def states(self) -> tuple[State, ...]:
        return (self.base, self.current)


AnySnapshot = Snapshot | SnapshotV1


class HistoryBlock(msgspec.Struct, frozen=True, kw_only=True):
    schema: int
    index: int
    start: State
    actions: list[Action]


class HistoryBlockActions(msgspec.Struct, frozen=True, kw_only=True):
    """A history block read for its actions only: its starting state left as JSON, not decoded."""

    schema: int
    index: int
    start: msgspec.Raw
    actions: list[Action]


class SchemaProbe(msgspec.Struct):
    schema: int = 0


def restored(state: State, path: Path) -> State:
    """``state`` as read from ``path``, with its ruleset's Structs back (:func:`~tui_combat.engine.registry.restore`).

    Raises :class:`IncompatibleSession` when its ruleset is not installed, ``msgspec.ValidationError``
    when the ruleset's data in it is damaged."""
    from tui_combat.engine.log_window import kept_recent

    if state.schema < SCHEMA_VERSION:  # schema 2: who may read each line is decided once, as it was shown
        from tui_combat.saves.migrate_audience import decided_once

        state = decided_once(state)
    try:
        return kept_recent(restore(state))  # a state saved before the log left the state holds all of it
    except RuleError as error:
        raise IncompatibleSession(_("Cannot open {path}: {error}", path=path, error=error)) from None


def _newer(path: Path) -> NewerVersionError:
    return NewerVersionError(_("{path} was saved by a newer tui-combat. Update tui-combat to open it.", path=path))


class SnapshotDecoder(Protocol):
    def decode(self, data: bytes, path: Path = ...) -> AnySnapshot:
        """The snapshot in ``data`` (read from ``path``), its states restored.

        Raises ``msgspec.DecodeError`` / ``ValidationError`` when it is damaged, :class:`NewerVersionError`
        when a state in it is newer than this version's, :class:`IncompatibleSession` when it reads but
        cannot be made a fight of here."""
        ...


class _WholeHistory:
    """Formats 1 and 2: the first state and every action since. Format 1 was written with states of schema
    1 (rebuilt by :func:`migrate.upgrade_snapshot`) and, later, of schema 2; format 2 always with schema 2."""

    def __init__(self, schema: int) -> None:
        self.schema = schema
        self._decoder = msgspec.json.Decoder(SnapshotV1)

    def decode(self, data: bytes, path: Path = Path(SNAPSHOT)) -> AnySnapshot:
        from tui_combat.saves import migrate  # only for sessions of these older formats

        found = migrate.state_schema(data)
        if found > SCHEMA_VERSION:
            raise _newer(path)
        if migrate.OLDEST_READABLE <= found < migrate.REPLAYED_BELOW:
            if self.schema != 1:
                raise IncompatibleSession(
                    _(
                        "{path} was written by a development version of tui-combat whose format this version "
                        "does not read. The file was left as it is.",
                        path=path,
                    )
                )
            head = probe_decoder.decode(data)
            upgraded = migrate.upgrade_snapshot(data, path)
            return SnapshotV1(
                schema=head.schema,
                seq=upgraded.seq,
                name=upgraded.current.name,
                ruleset=upgraded.current.ruleset,
                round=upgraded.current.round,
                saved_at=upgraded.saved_at,
                base=upgraded.base,
                done=upgraded.done,
                redo=upgraded.redo,
                current=upgraded.current,
                upgraded_from=found,
            )
        snapshot = self._decoder.decode(data)
        return replace(snapshot, base=restored(snapshot.base, path), current=restored(snapshot.current, path))


class _States:
    """Format 3 (today's): states and the open run of the undo history.

    The checkpoint is the state a few actions (fewer than a block) before the current one, so most of it is
    the same: it is decoded sharing the current state's combatants and log chunks wherever their JSON is
    the same (all of it when nothing was done since the last block), which keeps one copy of a big fight
    in memory instead of two and decodes it once. A snapshot that does not decode that way is decoded
    whole, so that a damaged one is reported exactly as before."""

    def __init__(self) -> None:
        self._decoder = msgspec.json.Decoder(Snapshot)
        self._parts = _Parts()

    def decode(self, data: bytes, path: Path = Path(SNAPSHOT)) -> AnySnapshot:
        try:
            parts = self._parts.decode_snapshot(data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            parts = None  # decoded whole below, for the error to name the field as it always has
        if isinstance(parts, _NewerState):
            raise _newer(path)
        if parts is not None:
            checkpoint, current, head = parts
            checkpoint_restored = restored(checkpoint, path)
            current_restored = checkpoint_restored if current is checkpoint else restored(current, path)
            return Snapshot(
                **{name: getattr(head, name) for name in _SNAPSHOT_FIELDS},
                checkpoint=checkpoint_restored,
                current=current_restored,
            )
        from tui_combat.saves import migrate  # only here, for a snapshot that did not decode in parts

        if migrate.state_schema(data) > SCHEMA_VERSION:
            raise _newer(path)
        snapshot = self._decoder.decode(data)
        return replace(
            snapshot, checkpoint=restored(snapshot.checkpoint, path), current=restored(snapshot.current, path)
        )


def _with_field_types(struct: type[msgspec.Struct], name: str, raw: dict[str, Any]) -> Any:
    """A Struct type with the fields of ``struct`` (same names, defaults and types), except that those named
    in ``raw`` are read as the type given there (with ``msgspec.Raw``, left as their JSON)."""
    fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
    for info in msgspec.structs.fields(struct):
        kind = raw.get(info.name, info.type)
        if info.default is not msgspec.NODEFAULT:
            fields.append((info.name, kind, info.default))
        elif info.default_factory is not msgspec.NODEFAULT:
            fields.append((info.name, kind, msgspec.field(default_factory=info.default_factory)))
        else:
            fields.append((info.name, kind))
    return msgspec.defstruct(name, fields, kw_only=True)


_SHARED = ("checkpoint", "current")
_SNAPSHOT_FIELDS = tuple(name for name in Snapshot.__struct_fields__ if name not in _SHARED)
_STATE_PIECES = ("combatants", "log")
_STATE_FIELDS = tuple(name for name in State.__struct_fields__ if name not in _STATE_PIECES)


class _NewerState:
    """A snapshot holds a state of a newer schema than this version's."""


class _Parts:
    """Decodes a format-3 snapshot's two states so that they share what is the same in both."""

    def __init__(self) -> None:
        self._head = msgspec.json.Decoder(
            _with_field_types(Snapshot, "_SnapshotParts", dict.fromkeys(_SHARED, msgspec.Raw))
        )
        self._state = msgspec.json.Decoder(State)
        self._state_pieces = msgspec.json.Decoder(
            _with_field_types(State, "_StatePieces", dict.fromkeys(_STATE_PIECES, tuple[msgspec.Raw, ...]))
        )
        self._combatant = msgspec.json.Decoder(Combatant)
        self._chunk = msgspec.json.Decoder(LogChunk)

    def decode_snapshot(self, data: bytes) -> tuple[State, State, Any] | _NewerState:
        """(checkpoint, current, the snapshot's other fields), the states not yet restored; the checkpoint
        is the current state itself when their JSON is the same. :class:`_NewerState` when a state in it
        has a newer schema than this version's. A newer state that does not even decode as today's raises
        here: the whole-file path then refuses it as newer, before decoding anything."""
        head = self._head.decode(data)
        current = self._state.decode(head.current)
        if current.schema > SCHEMA_VERSION:
            return _NewerState()
        if head.checkpoint == head.current:
            return current, current, head
        checkpoint = self._beside(head.checkpoint, head.current, current)
        return (checkpoint, current, head) if checkpoint is not None else _NewerState()

    def _beside(self, raw: msgspec.Raw, other_raw: msgspec.Raw, other: State) -> State | None:
        """The state in ``raw``, holding ``other``'s own combatants and log chunks where the JSON of
        theirs (in ``other_raw``) is the same; None when its schema is newer than this version's."""
        mine = self._state_pieces.decode(raw)
        if mine.schema > SCHEMA_VERSION:
            return None
        theirs = self._state_pieces.decode(other_raw)
        combatants = _shared(mine.combatants, theirs.combatants, other.combatants, self._combatant)
        log = _shared(mine.log, theirs.log, other.log, self._chunk)
        return State(**{name: getattr(mine, name) for name in _STATE_FIELDS}, combatants=combatants, log=log)


T = TypeVar("T")


def _shared(
    pieces: tuple[msgspec.Raw, ...],
    their_pieces: tuple[msgspec.Raw, ...],
    theirs: tuple[T, ...],
    decoder: msgspec.json.Decoder[T],
) -> tuple[T, ...]:
    """Each of ``pieces`` decoded, or the one of ``theirs`` whose JSON is the same: at the same place first
    (an action changes a few combatants and the last log chunk), then anywhere (one was added or removed)."""
    found: list[T | None] = [
        theirs[index] if index < len(their_pieces) and piece == their_pieces[index] else None
        for index, piece in enumerate(pieces)
    ]
    missing = [index for index, value in enumerate(found) if value is None]
    if missing:
        matched = set(range(len(pieces))).difference(missing)
        by_json = {bytes(piece): theirs[index] for index, piece in enumerate(their_pieces) if index not in matched}
        for index in missing:
            value = by_json.get(bytes(pieces[index]))
            found[index] = decoder.decode(pieces[index]) if value is None else value
    return tuple(value for value in found if value is not None)


line_encoder = msgspec.json.Encoder()
line_decoder = msgspec.json.Decoder(Line)
snapshot_decoders: dict[int, SnapshotDecoder] = {
    1: _WholeHistory(1),
    2: _WholeHistory(2),
    3: _States(),
    4: _States(),
    5: _States(),
}
"""Every snapshot format this version reads, by schema number (a newer one is refused)."""
block_decoder = msgspec.json.Decoder(HistoryBlock)
"""A history block as stored; :func:`restored` brings its starting state back."""
block_actions_decoder = msgspec.json.Decoder(HistoryBlockActions)
probe_decoder = msgspec.json.Decoder(SchemaProbe)


def block_name(index: int, tag: int) -> str:
    return f"{index:06d}-{tag:09d}.json.z"
