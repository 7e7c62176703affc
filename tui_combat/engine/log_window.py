"""The part of a fight's log its state holds: the newest entries, at least :data:`LOG_KEPT` of them.

The whole log is not kept in the state, so that a snapshot, a history block and every state in memory stay
the size of the fight, however long it has gone on. The rest is never lost: the journal and the history
hold every action, and replaying them gives every entry again (:func:`tui_combat.engine.apply.apply_logged`
says which entries an action wrote); the report, the export and the look back read the log that way.

What the rules read of the log (the last attack, the last CP put into a parry, the damage just logged) is
within the newest :data:`LOG_KEPT` entries. Who may read each line was decided when it was written
(:mod:`tui_combat.engine.audience`), and what the GM said in secret is among the fight's secret words from then
on, so nothing here depends on the lines that leave the state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msgspec.structs import replace

from tui_combat.engine.log import LogEntry
from tui_combat.engine.model import State

__all__ = ["LOG_KEPT", "kept_recent", "logged_since"]

LOG_KEPT = 2048
"""A state holds at least this many of the newest log entries (all of them in a shorter fight): the rules
look back no further (:func:`tui_combat.engine.contract.last_target` reads at most 2,000)."""


def kept_recent(state: State) -> State:
    """``state`` holding only the shortest run of its newest log chunks with :data:`LOG_KEPT` entries or more
    (itself when it holds no more); the entries left out are counted in ``log_start``."""
    chunks = state.log
    held = sum(map(len, chunks))
    drop = 0
    while drop < len(chunks) and held - len(chunks[drop]) >= LOG_KEPT:
        held -= len(chunks[drop])
        drop += 1
    if not drop:
        return state
    left = sum(map(len, chunks[:drop]))
    return replace(state, log=chunks[drop:], log_start=state.log_start + left)


def logged_since(state: State, count: int) -> list[LogEntry]:
    """The entries of ``state``'s log from the ``count``-th of the fight on (those it holds), oldest first.
    Read from the newest chunk back: an action's entries are the last ones."""
    taken: list[tuple[LogEntry, ...]] = []
    end = state.log_count
    for chunk in reversed(state.log):
        start = end - len(chunk)
        if end <= count:
            break
        taken.append(chunk[max(count - start, 0) :])
        end = start
    return [entry for chunk in reversed(taken) for entry in chunk]


def last_target(state: State, attacker_id: str, within: int = 2000) -> str | None:
    """Whom ``attacker_id`` attacked last (the ``attacker``/``target`` facts of the log), if he is still in
    the fight; looks back at most ``within`` entries (a mass battle's log is long)."""
    seen = 0
    for chunk in reversed(state.log):
        for entry in reversed(chunk):
            if entry.facts.get("attacker") == attacker_id and entry.facts.get("target"):
                target = str(entry.facts["target"])
                try:
                    return target if state.combatant(target).status == "active" else None
                except KeyError:
                    return None
            seen += 1
            if seen >= within:
                return None
    return None


def new_facts(before: State, after: State) -> list[Mapping[str, Any]]:
    """The facts of the log entries ``after`` has and ``before`` had not, newest first."""
    count = after.log_count - before.log_count
    found: list[Mapping[str, Any]] = []
    for chunk in reversed(after.log):
        for entry in reversed(chunk):
            if len(found) >= count:
                return found
            found.append(entry.facts)
    return found


def new_attack(before: State, after: State, attacker_id: object) -> Mapping[str, Any] | None:
    """The facts of the attack ``attacker_id`` just logged (``before`` → ``after``), if he attacked."""
    return next((facts for facts in new_facts(before, after) if facts.get("attacker") == attacker_id), None)
