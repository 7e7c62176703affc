"""What the players may see of a fight: a pure function from a state to its public view.

The players' screen (``tui-combat view``) shows only what :func:`public_view` returns, so every secret is
left out here, in the engine, and never depends on a screen remembering to hide it:

* log entries marked secret (secret notes, GM-only rolls such as the 5e speed factor, the monsters'
  declarations and whatever was done during a secret step: :func:`~tui_combat.engine.apply.apply` marks
  them as they are logged);
* the exact hit points of anyone outside the party: a word instead (unhurt, wounded, bloodied, down; the
  thresholds and the words are the GM's :class:`HealthScale`), also in the log lines that state them;
* notes, secret notes, sheets and the ruleset's own round and fight state (declarations, budgets …):
  none of them is read, except the details a ruleset shows as conditions (:data:`CONDITION_LABELS`);
* an order rolled in secret (a GM-only initiative roll): only the slots that have acted and the one acting
  now are listed, without their values; everyone else waits, in no particular order.
* whatever comes from a secret, wherever it lands (:class:`Secrecy`, one rule for every line and effect):
  a line or effect that names a word the GM typed in secret or a word of a secret line is secret too;
* hidden combatants (:attr:`Combatant.hidden`): not in the order nor among the combatants; the lines about
  them while hidden are marked secret as they are logged (:func:`~tui_combat.engine.apply.apply`), so what
  they did stays the GM's after "X appears";
* the dice, as the GM chose (:data:`~tui_combat.engine.model.ROLLS_OPTION`): by default a line with dice
  shows as its outcome ("Troll 1 hits Raf.") or not at all, the damage line without its dice; a line that
  says it states what is behind the screen (:data:`~tui_combat.engine.model.BEHIND_THE_SCREEN`) only
  when the GM shows everything.

The view holds text in the active language (it is computed when shown, like every label on screen).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Literal

import msgspec

from tui_combat.engine.contract import CONDITION_LABELS, AnyRuleset, StepDef
from tui_combat.engine.effects import effects_of
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import LogEntry, Msg, Param, render
from tui_combat.engine.model import BEHIND_THE_SCREEN, ROLLS_OPTION, ROLLS_SHOWN, Combatant, Effect, State, Status
from tui_combat.engine.registry import get
from tui_combat.i18n import N_, _, after_name, ngettext

__all__ = [
    "BEHIND_THE_SCREEN", "CONDITION_LABELS", "HEALTH_WORDS", "LOG_LINES", "HealthScale", "PublicCombatant", "PublicGroup", "PublicLine",
    "PublicStep", "PublicView", "Secrecy", "effect_secret", "health_word", "public_entries", "public_log", "public_view",
    "secrecy",
]

LOG_LINES = 60
"""How many of the latest public log lines a view carries."""

HEALTH_WORDS: dict[str, str] = {
    "unhurt": N_("unhurt"),
    "wounded": N_("wounded"),
    "bloodied": N_("bloodied"),
    "down": N_("down"),
    "fled": N_("fled"),
    "surrendered": N_("surrendered"),
}


_HP_MESSAGES: dict[str, str] = {
    N_("{name} takes {amount} damage{rolled}: {hp}/{max} HP."): N_("{name} takes {amount} damage{rolled}."),
    N_("{name} heals {amount}: {hp}/{max} HP."): N_("{name} heals {amount}."),
    N_("{name} takes {amount} damage{rolled}: {hp}/{max} {health}."): N_("{name} takes {amount} damage{rolled}."),
    N_("{name} heals {amount}: {hp}/{max} {health}."): N_("{name} heals {amount}."),
}
"""Log messages that state exact HP, and what the players read instead about someone outside the party."""

GroupKind = Literal["slot", "side", "waiting", "idle"]


class HealthScale(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """How the players see the health of those outside the party (the GM's settings)."""

    wounded_below: int = 100
    """Below this percentage of his maximum HP a combatant looks wounded."""
    bloodied_at: int = 50
    """At or below this percentage he looks bloodied."""
    words: dict[str, str] = msgspec.field(default_factory=dict)
    """The GM's own words, by key of :data:`HEALTH_WORDS` (shown as written, not translated)."""


class PublicCombatant(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    side: str
    """The side's name."""
    party: bool
    health: str
    """The word for his health (for the party too, beside the exact figures)."""
    hp: int | None = None
    """Exact, for the party only."""
    max_hp: int | None = None
    status: Status = "active"
    conditions: tuple[str, ...] = ()
    acting: bool = False
    acted: bool = False


class PublicGroup(msgspec.Struct, frozen=True, kw_only=True):
    """A slot of the order (or, with no order yet, a side; or those still waiting, or not acting)."""

    kind: GroupKind
    label: str
    combatants: tuple[PublicCombatant, ...]
    now: bool = False
    done: bool = False


class PublicStep(msgspec.Struct, frozen=True, kw_only=True):
    label: str
    secret: bool = False
    current: bool = False


class PublicLine(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    text: str


class PublicView(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    ruleset: str
    """The ruleset's name."""
    phase: str
    round: int
    steps: tuple[PublicStep, ...]
    groups: tuple[PublicGroup, ...]
    now: tuple[PublicCombatant, ...]
    """Who acts now (empty outside the turns of a round)."""
    now_label: str = ""
    """What the GM calls out for the slot acting now ("" when that is secret)."""
    order_hidden: bool = False
    """The order was rolled in secret: only the slots that acted and the one acting now are listed."""
    distance: str = ""
    log: tuple[PublicLine, ...] = ()


def health_word(combatant: Combatant, scale: HealthScale, condition: str | None = None) -> str:
    """The word the players read for ``combatant``'s health: the book's own word for it when the ruleset
    names one (``condition``, a message id: "dying", "stable"), else the scale's."""
    if condition and combatant.status not in ("fled", "surrendered"):
        return after_name(condition)
    key: str
    if combatant.status in ("fled", "surrendered"):
        key = combatant.status
    elif combatant.status == "down" or combatant.hp <= 0:
        key = "down"
    elif combatant.max_hp > 0 and combatant.hp * 100 <= combatant.max_hp * scale.bloodied_at:
        key = "bloodied"
    elif combatant.max_hp > 0 and combatant.hp * 100 < combatant.max_hp * scale.wounded_below:
        key = "wounded"
    else:
        key = "unhurt"
    return scale.words.get(key) or _(HEALTH_WORDS[key])


def _exact_names(state: State) -> frozenset[str]:
    """Names whose HP the players may read: the party's, unless someone outside it has the same name."""
    party = {side.id for side in state.sides if side.is_party}
    inside = {c.name for c in state.combatants if c.side in party}
    outside = {c.name for c in state.combatants if c.side not in party}
    return frozenset(inside - outside)


_COUNTED = re.compile(r"^\s*[-+]?\d+(\s+\w+)?\s*$")


def _leaves(value: object) -> Iterator[str]:
    """Every piece of text in a log parameter or fact (not the message ids: those are the program's words),
    a list of names ("Orc 1, Orc 2") piece by piece."""
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
    """The texts the GM typed in a log parameter: the engine logs them as ``{text}`` messages (a note, an
    effect's name), not the names, numbers and words a ruleset puts in its lines (a weapon, a label)."""
    if isinstance(value, Msg):
        if value.id == "{text}" and isinstance(value.params.get("text"), str):
            yield str(value.params["text"]).strip().casefold()
        for inner in value.params.values():
            yield from _typed(inner)
    elif isinstance(value, (list, tuple)):
        for inner in value:
            yield from _typed(inner)


def typed_in_secret(entry: LogEntry) -> Iterator[str]:
    """What the GM typed in a secret line (casefolded): the players' view keeps secret whatever names it."""
    if entry.secret:
        yield from _typed(entry.msg)


def entry_texts(entry: LogEntry) -> set[str]:
    """The pieces of text a log line is made of (its parameters and facts, casefolded)."""
    return _entry_leaves(entry)


def _entry_leaves(entry: LogEntry) -> set[str]:
    return {*_leaves(entry.msg), *_leaves([v for v in entry.facts.values() if isinstance(v, str)])}


class Secrecy(msgspec.Struct, frozen=True):
    """What makes a line or an effect secret, whatever it says and whoever it lands on: its origin. Something
    the GM typed in secret (:attr:`State.secret_words`: a declared spell, a plan, an effect named in a secret
    step; the text of a secret note or of an effect in a secret line) is a secret word; a later line or effect
    that names one is secret too (the spell going on next round, "Hold Person" put on a player). The rest of a
    secret line (a 5e monster's declared weapon, an initiative label) is not: the attack he then makes is the
    players' to see.
    The names of those in the fight are not secret words (that would hide everyone); numbers and times are not
    either ("2 rounds")."""

    words: frozenset[str]
    rolls: str
    """What the players see of rolls (:data:`~tui_combat.engine.model.ROLLS_SHOWN`)."""

    def names_secret(self, texts: set[str]) -> bool:
        return not self.words.isdisjoint(texts)


def secrecy(state: State) -> Secrecy:
    names = {c.name.casefold() for c in state.combatants} | {s.name.casefold() for s in state.sides}
    names |= {base for name in names for base, _space, number in [name.rpartition(" ")] if number.isdigit()}
    words = {word.strip().casefold() for word in state.secret_words}
    for chunk in state.log:
        for entry in chunk:
            words.update(typed_in_secret(entry))
    kept = frozenset(word for word in words if word not in names and sum(ch.isalpha() for ch in word) >= 3
                     and not _COUNTED.match(word))
    rolls = state.options.get(ROLLS_OPTION, ROLLS_SHOWN[0])
    return Secrecy(words=kept, rolls=rolls if rolls in ROLLS_SHOWN else ROLLS_SHOWN[0])


_HITS = {True: (N_("{name} hits {target}."), N_("{name} hits.")), False: (N_("{name} misses {target}."), N_("{name} misses."))}


def _outcome(entry: LogEntry, names: Mapping[str, str]) -> LogEntry | None:
    """A line with dice as the players read it when they see outcomes only: who hits whom, or nothing (the
    needed number, the modifiers, morale scores, the monsters' skill values stay behind the screen)."""
    hit = entry.facts.get("hit")
    name = entry.msg.params.get("name", entry.msg.params.get("attacker"))
    if not isinstance(name, str) and isinstance(entry.facts.get("attacker"), str):
        name = str(entry.facts["attacker"])
    if not isinstance(hit, bool) or not isinstance(name, str):
        return None
    target = names.get(str(entry.facts.get("target", "")), entry.msg.params.get("target"))
    with_target, alone = _HITS[hit]
    params: dict[str, Param] = {"name": names.get(name, name)}
    if isinstance(target, str) and target:  # a name; not a Msg, which may tell more ("Raf (AC 3)")
        params["target"] = target
    return LogEntry(round=entry.round, msg=Msg(id=with_target if "target" in params else alone, params=params),
                    facts={"hit": hit})


def _public_entry(entry: LogEntry, exact: frozenset[str], secret: Secrecy, names: Mapping[str, str]) -> LogEntry | None:
    """``entry`` as the players read it (None when it is secret): left out when it names a secret word; its
    dice as the GM chose to show them; about someone outside the party, a message that states exact HP
    without them, in its text and in its facts."""
    if entry.secret or secret.names_secret(_entry_leaves(entry)):
        return None
    public_id = _HP_MESSAGES.get(entry.msg.id)
    if entry.facts.get(BEHIND_THE_SCREEN) is True and secret.rolls != "everything":
        return None
    if entry.rolls and secret.rolls != "everything":
        if public_id is None:
            return _outcome(entry, names) if secret.rolls == "outcomes" else None
        entry = msgspec.structs.replace(entry, rolls=(), msg=Msg(id=entry.msg.id, params={**entry.msg.params, "rolled": ""}))
    if public_id is None or entry.msg.params.get("name") in exact:
        return entry
    return msgspec.structs.replace(
        entry, msg=Msg(id=public_id, params={k: v for k, v in entry.msg.params.items() if k not in ("hp", "max", "health")}),
        facts={k: v for k, v in entry.facts.items() if k not in ("hp", "hp_before")})


def public_entries(state: State, entries: Iterable[LogEntry] | None = None) -> list[LogEntry]:
    """Every log entry the players may read, oldest first, as they read it (for a report of the fight):
    of ``entries`` (the fight's whole log, replayed) or of the entries ``state`` holds, as ``state`` stands."""
    exact = _exact_names(state)
    secret = secrecy(state)
    names = state.names()
    logged = state.log_entries() if entries is None else entries
    return [shown for entry in logged if (shown := _public_entry(entry, exact, secret, names)) is not None]


def public_log(state: State, lines: int = LOG_LINES, secret: Secrecy | None = None) -> tuple[PublicLine, ...]:
    """The latest ``lines`` entries the players may read, oldest first, in the active language."""
    exact = _exact_names(state)
    secret = secret or secrecy(state)
    names = state.names()
    shown: list[PublicLine] = []
    for chunk in reversed(state.log):
        for entry in reversed(chunk):
            public = _public_entry(entry, exact, secret, names)
            if public is None:
                continue
            shown.append(PublicLine(round=entry.round, text=render(public.msg)))
            if len(shown) >= lines:
                return tuple(reversed(shown))
    return tuple(reversed(shown))


def effect_secret(effect: Effect, secret: Secrecy) -> bool:
    """Whether an effect stays the GM's: put on in a secret step, or named after a secret."""
    return effect.secret or secret.names_secret(set(_leaves(effect.label)))


def _conditions(ruleset: AnyRuleset, state: State, combatant_id: str, secret: Secrecy) -> tuple[str, ...]:
    """The ruleset's public conditions (:meth:`~tui_combat.engine.contract.Ruleset.public_conditions`), then the
    conditions and effects the GM put on with the time they have left (not one put on during a secret step or
    named after a secret)."""
    lasting = tuple(ngettext("{effect}: {n} round", "{effect}: {n} rounds", effect.rounds, effect=render(effect.label),
                             n=effect.rounds)
                    for effect in effects_of(state, combatant_id) if not effect_secret(effect, secret))
    try:
        own = ruleset.public_conditions(state, combatant_id)
    except Exception:  # a sheet the ruleset cannot read (or a bug in it) must not take the players' screen down
        return lasting

    def secret_word(condition: str) -> bool:
        return secret.names_secret({condition.strip().casefold(), condition.rpartition(": ")[2].strip().casefold()})

    return tuple(condition for condition in own if not secret_word(condition)) + lasting


def _secretly_rolled(ruleset: AnyRuleset, state: State) -> bool:
    """Whether the order comes from GM-only rolls (then it is the GM's, like the log entry that lists it)."""
    if any(request.secret for request in state.initiative.pending):
        return True
    try:
        return any(request.secret for request in ruleset.initiative_requests(state))
    except (RuleError, KeyError, ValueError):
        return True  # when in doubt, the order stays hidden


class _Builder:
    """Turns combatants into their public form, once each."""

    def __init__(self, ruleset: AnyRuleset, state: State, scale: HealthScale, secret: Secrecy) -> None:
        self.ruleset = ruleset
        self.state = state
        self.scale = scale
        self.secret = secret
        self.party = {side.id for side in state.sides if side.is_party}
        self.side_names = {side.id: side.name for side in state.sides}
        self.by_id = {combatant.id: combatant for combatant in state.combatants if not combatant.hidden}
        """Those the players may see: not the hidden."""

    def combatant(self, combatant_id: str, *, acting: bool = False, acted: bool = False) -> PublicCombatant:
        combatant = self.by_id[combatant_id]
        party = combatant.side in self.party
        health = health_word(combatant, self.scale, self.ruleset.condition_word(self.state, combatant_id))
        conditions = _conditions(self.ruleset, self.state, combatant_id, self.secret) \
            if self.state.phase == "round" else ()
        return PublicCombatant(
            name=combatant.name,
            side=self.side_names.get(combatant.side, ""),
            party=party,
            health=health,
            hp=combatant.hp if party else None,
            max_hp=combatant.max_hp if party else None,
            status=combatant.status,
            conditions=tuple(word for word in conditions if word != health),  # "dead" once, not as a condition too
            acting=acting,
            acted=acted,
        )


def _step_position(steps: tuple[StepDef, ...], step: int) -> tuple[bool, bool]:
    """(the current step walks the order, every turn of the round is over)."""
    kind = steps[step].kind if 0 <= step < len(steps) else ""
    resolving = [index for index, definition in enumerate(steps) if definition.kind == "resolve"]
    return kind == "resolve", bool(resolving) and step > max(resolving)


def _groups(builder: _Builder, state: State, steps: tuple[StepDef, ...]) -> tuple[list[PublicGroup], bool]:
    """The groups shown, and whether the order is hidden."""
    ruleset = builder.ruleset
    if not state.order:
        return [PublicGroup(kind="side", label=side.name,
                            combatants=tuple(builder.combatant(c.id) for c in state.combatants
                                             if c.side == side.id and c.id in builder.by_id))
                for side in state.sides], False
    in_turns, all_done = _step_position(steps, state.step) if state.phase == "round" else (False, state.phase == "over")
    hidden = _secretly_rolled(ruleset, state)
    cursor = min(state.cursor, len(state.order) - 1)
    groups: list[PublicGroup] = []
    listed: set[str] = set()
    for index, slot in enumerate(state.order):
        now = in_turns and index == cursor
        done = all_done or (in_turns and index < cursor)
        if hidden and not (now or done):
            continue
        members = [c for c in slot.combatants if c in builder.by_id]
        if not members and (hidden or slot.combatants):  # a slot of the hidden only is not there for the players
            continue
        listed.update(members)
        groups.append(PublicGroup(kind="slot", label="" if hidden else render(slot.label), now=now, done=done,
                                  combatants=tuple(builder.combatant(c, acting=now, acted=done) for c in members)))
    groups += _out_of_order(builder, state, listed)
    rest = [c for c in state.combatants if c.id not in listed and c.id in builder.by_id]
    if hidden:
        waiting = [c for c in rest if c.status == "active" and any(c.id in slot.combatants for slot in state.order)]
        if waiting:
            groups.append(PublicGroup(kind="waiting", label=_("yet to act"),
                                      combatants=tuple(builder.combatant(c.id) for c in waiting)))
        rest = [c for c in rest if c not in waiting]
    if rest:
        groups.append(PublicGroup(kind="idle", label=_("not acting"),
                                  combatants=tuple(builder.combatant(c.id) for c in rest)))
    return groups, hidden


def _out_of_order(builder: _Builder, state: State, listed: set[str]) -> list[PublicGroup]:
    """Those waiting outside the order (on hold, a Joker), one group for each reason, in the ruleset's order;
    each id found is added to ``listed``."""
    if state.phase != "round":
        return []
    try:
        waiting = builder.ruleset.out_of_order(state)
    except Exception:  # a bug in a ruleset must not take the players' screen down
        return []
    by_label: dict[str, list[str]] = {}
    for entry in waiting:
        if entry.combatant in builder.by_id and entry.combatant not in listed:
            by_label.setdefault(render(entry.label), []).append(entry.combatant)
            listed.add(entry.combatant)
    return [PublicGroup(kind="waiting", label=label, combatants=tuple(builder.combatant(c) for c in members))
            for label, members in by_label.items()]


def public_view(state: State, scale: HealthScale | None = None, *, log_lines: int = LOG_LINES) -> PublicView:
    """Everything the players' screen shows of ``state``, and nothing secret."""
    ruleset = get(state.ruleset)
    secret = secrecy(state)
    builder = _Builder(ruleset, state, scale or HealthScale(), secret)
    steps = ruleset.steps(state) if state.phase == "round" else ()
    groups, hidden = _groups(builder, state, steps)
    now_group = next((group for group in groups if group.now), None)
    return PublicView(
        name=state.name,
        ruleset=_(ruleset.name),
        phase=state.phase,
        round=state.round,
        steps=tuple(PublicStep(label=_(step.label), secret=step.secret, current=index == state.step)
                    for index, step in enumerate(steps)),
        groups=tuple(groups),
        now=now_group.combatants if now_group else (),
        now_label=now_group.label if now_group else "",
        order_hidden=hidden,
        distance=render(state.distance) if state.distance is not None else "",
        log=public_log(state, log_lines, secret),
    )
