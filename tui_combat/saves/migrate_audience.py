"""States of schema 2, brought up to schema 3: who may read each log line and effect, decided once.

Until schema 3 the players' view decided what was secret when it showed a line, by matching its text against
the words the GM typed in secret and the names of those hidden, and by the GM's setting for rolls at the moment
of showing. Schema 3 records that decision in each line when it is written (:mod:`tui_combat.engine.audience`).
A session saved before keeps what it showed: each of its lines is decided here, once, by the rules it was shown
by (kept below as they were, for this alone), with the setting for rolls the state holds. New lines follow the
new rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from msgspec.structs import replace

from tui_combat.engine.messages import LogChunk, LogEntry, Msg, Param
from tui_combat.engine.model import BEHIND_THE_SCREEN, ROLLS_OPTION, ROLLS_SHOWN, SCHEMA_VERSION, Effect, State

__all__ = ["AUDIENCE_SCHEMA", "decided_once"]

AUDIENCE_SCHEMA = 3
"""The state schema from which each line carries who may read it."""

_HP_MESSAGES: dict[str, str] = {
    "{name} takes {amount} damage{rolled}: {hp}/{max} HP.": "{name} takes {amount} damage{rolled}.",
    "{name} heals {amount}: {hp}/{max} HP.": "{name} heals {amount}.",
    "{name} takes {amount} damage{rolled}: {hp}/{max} {health}.": "{name} takes {amount} damage{rolled}.",
    "{name} heals {amount}: {hp}/{max} {health}.": "{name} heals {amount}.",
}
_HITS = {True: ("{name} hits {target}.", "{name} hits."), False: ("{name} misses {target}.", "{name} misses.")}
_COUNTED = re.compile(r"^\s*[-+]?\d+(\s+\w+)?\s*$")


def _leaves(value: object) -> Iterator[str]:
    if isinstance(value, Msg):
        for inner in value.params.values():
            yield from _leaves(inner)
    elif isinstance(value, str):
        for piece in re.split(r"[;,]\s*", value):
            if piece.strip():
                yield piece.strip().casefold()
    elif isinstance(value, (list, tuple)):
        for inner in value:
            yield from _leaves(inner)


def _typed(value: object) -> Iterator[str]:
    if isinstance(value, Msg):
        if value.id == "{text}" and isinstance(value.params.get("text"), str):
            yield str(value.params["text"]).strip().casefold()
        for inner in value.params.values():
            yield from _typed(inner)
    elif isinstance(value, (list, tuple)):
        for inner in value:
            yield from _typed(inner)


def _entry_leaves(entry: LogEntry) -> set[str]:
    return {*_leaves(entry.msg), *_leaves([v for v in entry.facts.values() if isinstance(v, str)])}


def _secret_words(state: State) -> frozenset[str]:
    names = {c.name.casefold() for c in state.combatants} | {s.name.casefold() for s in state.sides}
    names |= {base for name in names for base, _space, number in [name.rpartition(" ")] if number.isdigit()}
    words = {word.strip().casefold() for word in state.secret_words}
    for chunk in state.log:
        for entry in chunk:
            if entry.secret:
                words.update(_typed(entry.msg))
    return frozenset(
        word
        for word in words
        if word not in names and sum(ch.isalpha() for ch in word) >= 3 and not _COUNTED.match(word)
    )


def _exact_names(state: State) -> frozenset[str]:
    party = {side.id for side in state.sides if side.is_party}
    inside = {c.name for c in state.combatants if c.side in party}
    outside = {c.name for c in state.combatants if c.side not in party}
    return frozenset(inside - outside)


def _outcome(entry: LogEntry, names: Mapping[str, str]) -> Msg | None:
    hit = entry.facts.get("hit")
    name = entry.msg.params.get("name", entry.msg.params.get("attacker"))
    if not isinstance(name, str) and isinstance(entry.facts.get("attacker"), str):
        name = str(entry.facts["attacker"])
    if not isinstance(hit, bool) or not isinstance(name, str):
        return None
    target = names.get(str(entry.facts.get("target", "")), entry.msg.params.get("target"))
    with_target, alone = _HITS[hit]
    params: dict[str, Param] = {"name": names.get(name, name)}
    if isinstance(target, str) and target:
        params["target"] = target
    return Msg(id=with_target if "target" in params else alone, params=params)


class _Rules:
    """The schema-2 rules of what the players read, for one state."""

    def __init__(self, state: State) -> None:
        self.words = _secret_words(state)
        self.exact = _exact_names(state)
        self.names = state.names()
        rolls = state.options.get(ROLLS_OPTION, ROLLS_SHOWN[0])
        self.rolls = rolls if rolls in ROLLS_SHOWN else ROLLS_SHOWN[0]

    def names_secret(self, texts: set[str]) -> bool:
        return not self.words.isdisjoint(texts)

    def entry(self, entry: LogEntry) -> LogEntry:
        if entry.secret:
            return entry
        if self.names_secret(_entry_leaves(entry)):
            return replace(entry, secret=True, held=True)
        if entry.facts.get(BEHIND_THE_SCREEN) is True and self.rolls != "everything":
            return replace(entry, unseen=True)
        message = entry.msg
        public_id = _HP_MESSAGES.get(message.id)
        if entry.rolls and self.rolls != "everything":
            if public_id is None:
                outcome = _outcome(entry, self.names) if self.rolls == "outcomes" else None
                return replace(entry, unseen=True) if outcome is None else replace(entry, public=outcome)
            message = Msg(id=message.id, params={**message.params, "rolled": ""})
        if public_id is not None and message.params.get("name") not in self.exact:
            message = Msg(
                id=public_id, params={k: v for k, v in message.params.items() if k not in ("hp", "max", "health")}
            )
        return entry if message is entry.msg else replace(entry, public=message)

    def effect(self, effect: Effect) -> Effect:
        if effect.secret or not self.names_secret(set(_leaves(effect.label))):
            return effect
        return replace(effect, secret=True, held=True)


def decided_once(state: State) -> State:
    """A state of schema 2 as schema 3: each of its lines and effects with who may read it, as it was shown."""
    if state.schema >= AUDIENCE_SCHEMA:
        return state
    rules = _Rules(state)
    log: tuple[LogChunk, ...] = tuple(tuple(rules.entry(entry) for entry in chunk) for chunk in state.log)
    effects = tuple(rules.effect(effect) for effect in state.effects)
    return replace(state, schema=SCHEMA_VERSION, log=log, effects=effects)
