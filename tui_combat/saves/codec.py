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
from typing import Protocol

import msgspec
from msgspec.structs import replace

from tui_combat.engine.actions import Action
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import SCHEMA_VERSION, State
from tui_combat.engine.registry import restore
from tui_combat.i18n import _
from tui_combat.saves import migrate
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


class SchemaProbe(msgspec.Struct):
    schema: int = 0


def restored(state: State, path: Path) -> State:
    """``state`` as read from ``path``, with its ruleset's Structs back (:func:`~tui_combat.engine.registry.restore`).

    Raises :class:`IncompatibleSession` when its ruleset is not installed, ``msgspec.ValidationError``
    when the ruleset's data in it is damaged."""
    try:
        return restore(state)
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
        found = migrate.state_schema(data)
        if found > SCHEMA_VERSION:
            raise _newer(path)
        if migrate.OLDEST_READABLE <= found < SCHEMA_VERSION:
            if self.schema != 1:
                raise IncompatibleSession(_("{path} was written by a development version of tui-combat whose format this version "
                                            "does not read. The file was left as it is.", path=path))
            head = probe_decoder.decode(data)
            upgraded = migrate.upgrade_snapshot(data, path)
            return SnapshotV1(schema=head.schema, seq=upgraded.seq, name=upgraded.current.name, ruleset=upgraded.current.ruleset,
                              round=upgraded.current.round, saved_at=upgraded.saved_at, base=upgraded.base, done=upgraded.done,
                              redo=upgraded.redo, current=upgraded.current, upgraded_from=found)
        snapshot = self._decoder.decode(data)
        return replace(snapshot, base=restored(snapshot.base, path), current=restored(snapshot.current, path))


class _States:
    """Format 3 (today's): states and the open run of the undo history."""

    def __init__(self) -> None:
        self._decoder = msgspec.json.Decoder(Snapshot)

    def decode(self, data: bytes, path: Path = Path(SNAPSHOT)) -> AnySnapshot:
        if migrate.state_schema(data) > SCHEMA_VERSION:
            raise _newer(path)
        snapshot = self._decoder.decode(data)
        return replace(snapshot, checkpoint=restored(snapshot.checkpoint, path), current=restored(snapshot.current, path))


line_encoder = msgspec.json.Encoder()
line_decoder = msgspec.json.Decoder(Line)
snapshot_decoders: dict[int, SnapshotDecoder] = {
    1: _WholeHistory(1),
    2: _WholeHistory(2),
    3: _States(),
}
"""Every snapshot format this version reads, by schema number (a newer one is refused)."""
block_decoder = msgspec.json.Decoder(HistoryBlock)
"""A history block as stored; :func:`restored` brings its starting state back."""
probe_decoder = msgspec.json.Decoder(SchemaProbe)


def block_name(index: int, tag: int) -> str:
    return f"{index:06d}-{tag:09d}.json.z"
