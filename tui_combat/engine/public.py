"""What the players may see of a fight: a pure function from a state to its public view.

The players' screen (``tui-combat view``) shows only what :func:`public_view` returns, so every secret is
left out here, in the engine, and never depends on a screen remembering to hide it:

* the log as its lines were written for the players (:mod:`tui_combat.engine.audience`: who may read each
  value is decided when the line is written, from where the value came — someone hidden, a secret step, a stat
  behind the GM's screen, a monster's exact hit points, the dice under the GM's setting for rolls then);
* the exact hit points of anyone outside the party: a word instead (unhurt, wounded, bloodied, down; the
  thresholds and the words are the GM's :class:`HealthScale`);
* notes, secret notes, sheets and the ruleset's own round and fight state (declarations, budgets …):
  none of them is read, except the details a ruleset shows as conditions (:data:`CONDITION_LABELS`);
* an order rolled in secret (a GM-only initiative roll): only the slots that have acted and the one acting
  now are listed, without their values; everyone else waits, in no particular order;
* hidden combatants (:attr:`Combatant.hidden`): not in the order nor among the combatants, and a side none of
  whose members the players see is not there for them; while only hidden ones act, the players' marker of who
  acts stays where it was, as if the GM were taking his time;
* effects put on in a secret step or named after a secret (:attr:`Effect.secret`).

The view holds text in the active language (it is computed when shown, like every label on screen).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import msgspec

from tui_combat.engine.audience import players_line, reading, rolls_shown
from tui_combat.engine.contract import CONDITION_LABELS, AnyRuleset, StepDef, listed_health
from tui_combat.engine.effects import effects_of
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import LogEntry, Msg, render
from tui_combat.engine.model import BEHIND_THE_SCREEN, Combatant, State, Status
from tui_combat.engine.registry import get
from tui_combat.i18n import N_, _, after_name, ngettext

__all__ = [
    "BEHIND_THE_SCREEN",
    "CONDITION_LABELS",
    "HEALTH_WORDS",
    "LOG_LINES",
    "PUBLIC_FACTS",
    "HealthScale",
    "PublicCombatant",
    "PublicGroup",
    "PublicLine",
    "PublicStep",
    "PublicView",
    "health_word",
    "public_entries",
    "public_entry",
    "public_log",
    "public_view",
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
    figure: str | None = None
    """His health as the rules count it, for the party only: what the GM's turn list shows ("12/30", "Wounds 0/3":
    :func:`~tui_combat.engine.contract.listed_health`)."""
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


def public_entry(entry: LogEntry) -> LogEntry | None:
    """``entry`` as the players read it (None: nothing of it), as was decided when it was written
    (:func:`~tui_combat.engine.audience.decided`): the players' line in place of the GM's; its dice and the
    facts behind them only where the players read the GM's own line."""
    shown = players_line(entry)
    if shown is None:
        return None
    if shown is entry.msg:
        return entry
    facts = {
        key: value
        for key, value in entry.facts.items()
        if key in PUBLIC_FACTS or (key in ("hp", "hp_before") and "hp" in shown.params)
    }
    return msgspec.structs.replace(entry, msg=shown, public=None, rolls=(), facts=facts)


PUBLIC_FACTS = frozenset(("damage", "heal", "hit", "saved", "disrupted", "cast", "fleeing"))
"""The facts of a line the players read in another form that are still theirs: the outcome, not the numbers
behind it."""


def public_entries(state: State, entries: Iterable[LogEntry] | None = None) -> list[LogEntry]:
    """Every log entry the players may read, oldest first, as they read it (for a report of the fight):
    of ``entries`` (the fight's whole log, replayed) or of the entries ``state`` holds."""
    logged = state.log_entries() if entries is None else entries
    return [shown for entry in logged if (shown := public_entry(entry)) is not None]


def public_log(state: State, lines: int = LOG_LINES) -> tuple[PublicLine, ...]:
    """The latest ``lines`` entries the players may read, oldest first, in the active language."""
    shown: list[PublicLine] = []
    for chunk in reversed(state.log):
        for entry in reversed(chunk):
            line = players_line(entry)
            if line is None:
                continue
            shown.append(PublicLine(round=entry.round, text=render(line)))
            if len(shown) >= lines:
                return tuple(reversed(shown))
    return tuple(reversed(shown))


def _conditions(ruleset: AnyRuleset, state: State, combatant_id: str, shown: str) -> tuple[str, ...]:
    """The ruleset's public conditions (:meth:`~tui_combat.engine.contract.Ruleset.public_conditions`: a message
    is read as a log line's is, :func:`~tui_combat.engine.audience.reading`), then the conditions and effects the
    GM put on with the time they have left (not one put on during a secret step or named after a secret)."""
    lasting = tuple(
        ngettext(
            "{effect}: {n} round", "{effect}: {n} rounds", effect.rounds, effect=render(effect.label), n=effect.rounds
        )
        for effect in effects_of(state, combatant_id)
        if not effect.secret
    )
    try:
        own = ruleset.public_conditions(state, combatant_id)
    except Exception:  # a sheet the ruleset cannot read (or a bug in it) must not take the players' screen down
        return lasting
    read = [condition if isinstance(condition, str) else reading(condition, shown) for condition in own]
    return (
        tuple(
            render(condition) if isinstance(condition, Msg) else condition
            for condition in read
            if isinstance(condition, (str, Msg))
        )
        + lasting
    )


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

    def __init__(self, ruleset: AnyRuleset, state: State, scale: HealthScale) -> None:
        self.ruleset = ruleset
        self.state = state
        self.scale = scale
        self.shown = rolls_shown(state)
        self.party = {side.id for side in state.sides if side.is_party}
        self.side_names = {side.id: side.name for side in state.sides}
        self.by_id = {combatant.id: combatant for combatant in state.combatants if not combatant.hidden}
        """Those the players may see: not the hidden."""

    def combatant(self, combatant_id: str, *, acting: bool = False, acted: bool = False) -> PublicCombatant:
        combatant = self.by_id[combatant_id]
        party = combatant.side in self.party
        health = health_word(combatant, self.scale, self.ruleset.condition_word(self.state, combatant_id))
        conditions = (
            _conditions(self.ruleset, self.state, combatant_id, self.shown) if self.state.phase == "round" else ()
        )
        return PublicCombatant(
            name=combatant.name,
            side=self.side_names.get(combatant.side, ""),
            party=party,
            health=health,
            hp=combatant.hp if party else None,
            max_hp=combatant.max_hp if party else None,
            figure=listed_health(self.ruleset, self.state, combatant_id) if party else None,
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
    if not state.order:
        return _sides(builder, state), False
    hidden = _secretly_rolled(builder.ruleset, state)
    listed: set[str] = set()
    groups = _slots(builder, state, steps, hidden, listed)
    groups += _out_of_order(builder, state, listed)
    rest = [c for c in state.combatants if c.id not in listed and c.id in builder.by_id]
    if hidden:
        waiting = [c for c in rest if c.status == "active" and any(c.id in slot.combatants for slot in state.order)]
        if waiting:
            groups.append(
                PublicGroup(
                    kind="waiting", label=_("yet to act"), combatants=tuple(builder.combatant(c.id) for c in waiting)
                )
            )
        rest = [c for c in rest if c not in waiting]
    if rest:
        groups.append(
            PublicGroup(kind="idle", label=_("not acting"), combatants=tuple(builder.combatant(c.id) for c in rest))
        )
    return groups, hidden


def _sides(builder: _Builder, state: State) -> list[PublicGroup]:
    """Before the order is rolled: the sides, each with those of it the players see."""
    sides = [
        (side, tuple(builder.combatant(c.id) for c in state.combatants if c.side == side.id and c.id in builder.by_id))
        for side in state.sides
    ]
    # A side none of whose members the players see is not there for them.
    return [PublicGroup(kind="side", label=side.name, combatants=members) for side, members in sides if members]


def _slots(
    builder: _Builder, state: State, steps: tuple[StepDef, ...], hidden: bool, listed: set[str]
) -> list[PublicGroup]:
    """The order's slots the players see (only those that acted or act now, when it was rolled in secret); each
    id shown is added to ``listed``."""
    in_turns, all_done = _step_position(steps, state.step) if state.phase == "round" else (False, state.phase == "over")
    cursor = _seen_cursor(builder, state)
    groups: list[PublicGroup] = []
    for index, slot in enumerate(state.order):
        now = in_turns and index == cursor
        done = all_done or (in_turns and index < cursor)
        if hidden and not (now or done):
            continue
        members = [c for c in slot.combatants if c in builder.by_id]
        if not members and (hidden or slot.combatants):  # a slot of the hidden only is not there for the players
            continue
        listed.update(members)
        groups.append(
            PublicGroup(
                kind="slot",
                label="" if hidden else _label(slot.label, builder.shown),
                now=now,
                done=done,
                combatants=tuple(builder.combatant(c, acting=now, acted=done) for c in members),
            )
        )
    return groups


def _label(label: Msg, shown: str) -> str:
    """A slot's label as the players read it ("15, tie" without the tie when one of the tied is hidden)."""
    read = reading(label, shown)
    return render(read) if isinstance(read, Msg) else ""


def _seen_cursor(builder: _Builder, state: State) -> int:
    """The slot the players see acting: the one acting now, or while only those hidden from them act, the last
    slot before it that they saw acting (-1 when none: the round has not begun for them)."""
    cursor = min(state.cursor, len(state.order) - 1)
    while cursor >= 0:
        slot = state.order[cursor]
        if not slot.combatants or any(c in builder.by_id for c in slot.combatants):
            return cursor
        cursor -= 1
    return cursor


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
    return [
        PublicGroup(kind="waiting", label=label, combatants=tuple(builder.combatant(c) for c in members))
        for label, members in by_label.items()
    ]


def public_view(state: State, scale: HealthScale | None = None, *, log_lines: int = LOG_LINES) -> PublicView:
    """Everything the players' screen shows of ``state``, and nothing secret."""
    ruleset = get(state.ruleset)
    builder = _Builder(ruleset, state, scale or HealthScale())
    steps = ruleset.steps(state) if state.phase == "round" else ()
    groups, hidden = _groups(builder, state, steps)
    now_group = next((group for group in groups if group.now), None)
    return PublicView(
        name=state.name,
        ruleset=_(ruleset.name),
        phase=state.phase,
        round=state.round,
        steps=tuple(
            PublicStep(label=_(step.label), secret=step.secret, current=index == state.step)
            for index, step in enumerate(steps)
        ),
        groups=tuple(groups),
        now=now_group.combatants if now_group else (),
        now_label=now_group.label if now_group else "",
        order_hidden=hidden,
        distance=render(state.distance) if state.distance is not None else "",
        log=public_log(state, log_lines),
    )
