"""The one state value of a fight: a tree of frozen msgspec Structs.

Nothing here is ever edited in place; :func:`tui_combat.engine.apply.apply` returns a new tree.
Ruleset-specific data (a combatant's sheet, what a ruleset tracks during a round) is kept as plain
JSON-like mappings so that any ruleset plugin can store what it needs without the engine knowing its
shape; each ruleset converts them to its own typed Structs with ``msgspec.convert``.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

SCHEMA_VERSION = 1

Status = Literal["active", "down", "fled", "surrendered"]
JSONMap = dict[str, Any]


class Side(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    is_party: bool = False


class Combatant(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    side: str
    hp: int
    max_hp: int
    group: str = ""
    """Combatants sharing a non-empty group roll initiative once, together."""
    status: Status = "active"
    sheet: JSONMap = msgspec.field(default_factory=dict)
    """The ruleset's fields for this combatant (weapon, speed, THAC0, skill values …)."""
    notes: str = ""
    secret_notes: str = ""


class Slot(msgspec.Struct, frozen=True, kw_only=True):
    """One place in the turn order: everyone in it acts simultaneously."""

    label: str
    """What the GM calls out: "7", "countdown 15", "end of round"."""
    combatants: tuple[str, ...]
    value: int = 0


class LogEntry(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    text: str
    """Already translated when written; the faces of any roll are part of the text."""
    secret: bool = False


LogChunk = tuple[LogEntry, ...]
LOG_CHUNK = 64


class State(msgspec.Struct, frozen=True, kw_only=True):
    schema: int = SCHEMA_VERSION
    name: str = ""
    ruleset: str = "adnd2e"
    options: dict[str, str] = msgspec.field(default_factory=dict)
    """Ruleset options chosen at setup, e.g. ``{"initiative": "standard"}``."""
    seed: int = 0
    sides: tuple[Side, ...] = ()
    combatants: tuple[Combatant, ...] = ()
    next_id: int = 1
    phase: Literal["setup", "surprise", "round", "over"] = "setup"
    round: int = 0
    step: int = 0
    """Index into the ruleset's steps for the current round."""
    order: tuple[Slot, ...] = ()
    cursor: int = 0
    """Index of the slot acting now."""
    surprised: tuple[str, ...] = ()
    """Side ids that lose the first round to surprise."""
    distance: str = ""
    round_data: JSONMap = msgspec.field(default_factory=dict)
    """What the ruleset tracks for the current round (rolls, declarations, budgets)."""
    carry: JSONMap = msgspec.field(default_factory=dict)
    """What the ruleset carries from one round to the next."""
    log: tuple[LogChunk, ...] = ()
    """The log in chunks of :data:`LOG_CHUNK` so appending stays cheap in a long fight."""

    # -- small read helpers (pure) --------------------------------------------------------------
    def combatant(self, combatant_id: str) -> Combatant:
        for combatant in self.combatants:
            if combatant.id == combatant_id:
                return combatant
        raise KeyError(combatant_id)

    def side(self, side_id: str) -> Side:
        for side in self.sides:
            if side.id == side_id:
                return side
        raise KeyError(side_id)

    def names(self) -> dict[str, str]:
        """Id → name of every combatant, for text about many of them at once (one pass, not a search each)."""
        return {combatant.id: combatant.name for combatant in self.combatants}

    def log_entries(self) -> list[LogEntry]:
        return [entry for chunk in self.log for entry in chunk]

    def acting_now(self) -> tuple[str, ...]:
        if 0 <= self.cursor < len(self.order):
            return self.order[self.cursor].combatants
        return ()


def append_log(log: tuple[LogChunk, ...], entry: LogEntry) -> tuple[LogChunk, ...]:
    if log and len(log[-1]) < LOG_CHUNK:
        return (*log[:-1], (*log[-1], entry))
    return (*log, (entry,))
