"""Sessions saved before the log became data: brought up to date in memory, by replaying their actions.

A state of schema 1 kept the log as already-translated text, the turn order's labels as text and the
ruleset's own data as untyped mappings (``round_data``, ``carry``); none of that can be converted field
by field. The actions, though, are unchanged (the same tags; ``SetSurprised`` only gained an optional
``combatants``), so such a session is rebuilt by applying its journalled actions to its first state with
today's engine, and the result is checked against what the old version saved.

Such states are only in snapshots of format 1 (the state the history starts from, every action since,
the redo list, the current state); :data:`tui_combat.saves.codec.snapshot_decoders` calls
:func:`upgrade_snapshot` for them. Nothing is written here: opening an old session only reads it. The
store saves it in today's format the first time the fight changes, and keeps the old files beside it
(:meth:`SessionFolder.keep_old_files <tui_combat.saves.journal.SessionFolder.keep_old_files>`).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import msgspec

from tui_combat.engine.actions import Action
from tui_combat.engine.apply import apply
from tui_combat.engine.log import LogEntry, Msg, append_log
from tui_combat.engine.model import Combatant, LogChunk, Side, State
from tui_combat.i18n import _
from tui_combat.saves.errors import IncompatibleSession

OLDEST_READABLE = 1
REPLAYED_BELOW = 2
"""States of a schema below this are rebuilt by replaying their history; schema 2 is converted as it is read
(:mod:`tui_combat.saves.migrate_audience`)."""

__all__ = ["OLDEST_READABLE", "REPLAYED_BELOW", "Upgraded", "state_schema", "upgrade_snapshot"]


class _StateHead(msgspec.Struct):
    schema: int = 0


class _SnapshotHead(msgspec.Struct):
    schema: int = 0
    base: _StateHead | None = None
    checkpoint: _StateHead | None = None
    current: _StateHead | None = None


_head_decoder = msgspec.json.Decoder(_SnapshotHead)


def state_schema(data: bytes) -> int:
    """The newest schema of the states a snapshot holds (0 when it cannot be read: the decoder that
    follows reports the damage)."""
    try:
        head = _head_decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return 0
    return max((state.schema for state in (head.base, head.checkpoint, head.current) if state is not None), default=0)


# -- schema 1, as far as the migration reads it ---------------------------------------------------------
class _LogEntryV1(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    text: str
    secret: bool = False


class _SlotV1(msgspec.Struct, frozen=True, kw_only=True):
    combatants: tuple[str, ...]


class _StateV1(msgspec.Struct, frozen=True, kw_only=True):
    schema: int
    name: str = ""
    ruleset: str = "adnd2e"
    options: dict[str, str] = msgspec.field(default_factory=dict)
    seed: int = 0
    sides: tuple[Side, ...] = ()
    combatants: tuple[Combatant, ...] = ()
    next_id: int = 1
    phase: str = "setup"
    round: int = 0
    step: int = 0
    order: tuple[_SlotV1, ...] = ()
    cursor: int = 0
    round_data: dict[str, object] = msgspec.field(default_factory=dict)
    carry: dict[str, object] = msgspec.field(default_factory=dict)
    log: tuple[tuple[_LogEntryV1, ...], ...] = ()


class _SnapshotV1(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    saved_at: str = ""
    base: _StateV1
    done: list[Action]
    redo: list[Action]
    current: _StateV1


_v1_decoder = msgspec.json.Decoder(_SnapshotV1)


def _fight(state: State | _StateV1) -> tuple[object, ...]:
    """What the GM sees of a fight, comparable across schemas: where the round is, who acts with whom, HP."""
    people = tuple((c.id, c.name, c.side, c.group, c.hp, c.max_hp, c.status) for c in state.combatants)
    order = tuple(slot.combatants for slot in state.order)
    return (state.phase, state.round, state.step, state.cursor, order, people)


def _first_state(old: _StateV1) -> State:
    """The state a session's history starts from. It is always a fight still in set-up (no round data);
    its log, if any, is kept word for word."""
    log: tuple[LogChunk, ...] = ()
    for chunk in old.log:
        for entry in chunk:
            log = append_log(
                log, LogEntry(round=entry.round, secret=entry.secret, msg=Msg(id="{text}", params={"text": entry.text}))
            )
    return State(
        name=old.name,
        ruleset=old.ruleset,
        options=dict(old.options),
        seed=old.seed,
        sides=old.sides,
        combatants=old.combatants,
        next_id=old.next_id,
        log=log,
    )


def _refusal(path: Path, reason: str) -> str:
    return _(
        "{path} was saved by an older tui-combat and cannot be brought up to date: {reason} "
        "The files were left as they are.",
        path=path,
        reason=reason,
    )


class Upgraded(NamedTuple):
    """A format-1 snapshot of state schema 1, its states rebuilt with today's engine."""

    seq: int
    saved_at: str
    base: State
    done: list[Action]
    redo: list[Action]
    current: State


def upgrade_snapshot(data: bytes, path: Path) -> Upgraded:
    """A format-1 snapshot of state schema 1 with today's states: its first state converted, its current
    state replayed from its history and checked against the one saved.

    Raises ``msgspec.DecodeError`` / ``ValidationError`` when the file is damaged, and
    :class:`IncompatibleSession` saying why when the session cannot be brought up to date. Nothing is written.
    """
    old = _v1_decoder.decode(data)
    if old.base.phase != "setup" or old.base.round or old.base.round_data or old.base.carry:
        raise IncompatibleSession(_refusal(path, _("its history does not start in set-up.")))
    base = _first_state(old.base)
    state = base
    for number, action in enumerate(old.done, start=1):
        try:
            state = apply(state, action)
        except Exception as error:  # a refusal or a fault in a ruleset: either way this session cannot replay
            reason = _(
                "action {number} ({action}) is refused now: {error}",
                number=number,
                action=type(action).__name__,
                error=error,
            )
            raise IncompatibleSession(_refusal(path, reason)) from None
    if _fight(state) != _fight(old.current):
        raise IncompatibleSession(
            _refusal(
                path, _("replayed with the rules of this version, the fight comes out different from what was saved.")
            )
        )
    return Upgraded(seq=old.seq, saved_at=old.saved_at, base=base, done=old.done, redo=old.redo, current=state)
