"""The on-disk formats, each with a schema version.

* ``journal.jsonl`` — a header line, then one entry per line: an action done, an undo or a redo.
* ``snapshot.json`` — what resuming needs without replaying the past: the current state, the open run of
  the undo history (its checkpoint and the actions since), the seqs naming the sealed history blocks,
  and the actions that can be redone. It holds states, not every action since the session began.
* ``history/IIIIII-TTTTTTTTT.json.z`` — one sealed block of the undo history (zlib-compressed JSON): the
  state before it and its actions. Read only when an undo reaches it.
* ``snapshot.prev.json`` and ``journal.prev.jsonl`` — the snapshot before and the journal that followed
  it, kept so that a damaged newest snapshot still leaves a session to recover.

Format 1 (before history blocks) kept every action since the start in the snapshot; it still opens,
and is written in the current format at the next save.
"""

from __future__ import annotations

import msgspec

from tui_combat.engine.actions import Action
from tui_combat.engine.model import State
from tui_combat.saves.schema import JOURNAL_SCHEMA as JOURNAL_SCHEMA  # re-exported: the codec's versions
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
    """Format 1: the state the history starts from and every action done since."""

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


line_encoder = msgspec.json.Encoder()
line_decoder = msgspec.json.Decoder(Line)
snapshot_decoders: dict[int, msgspec.json.Decoder[Snapshot] | msgspec.json.Decoder[SnapshotV1]] = {
    1: msgspec.json.Decoder(SnapshotV1),
    2: msgspec.json.Decoder(Snapshot),
}
"""Every snapshot format this version reads, by schema number (a newer one is refused)."""
block_decoder = msgspec.json.Decoder(HistoryBlock)
probe_decoder = msgspec.json.Decoder(SchemaProbe)


def block_name(index: int, tag: int) -> str:
    return f"{index:06d}-{tag:09d}.json.z"
