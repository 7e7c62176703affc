"""The on-disk formats, each with a schema version.

* ``journal.jsonl`` — a header line, then one entry per line: an action done, an undo or a redo.
* ``snapshot.json`` — everything needed to resume with full undo: the state the history starts from,
  the actions done since, the actions that can be redone, and the current state (so resuming does not
  replay the history).
* ``snapshot.prev.json`` and ``journal.prev.jsonl`` — the snapshot before and the journal that followed
  it, kept so that a damaged newest snapshot still leaves a session to recover.
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
    base: State
    done: list[Action]
    redo: list[Action]
    current: State


class SchemaProbe(msgspec.Struct):
    schema: int = 0


line_encoder = msgspec.json.Encoder()
line_decoder = msgspec.json.Decoder(Line)
snapshot_decoder = msgspec.json.Decoder(Snapshot)
probe_decoder = msgspec.json.Decoder(SchemaProbe)
