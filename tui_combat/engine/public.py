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

from collections.abc import Iterable, Mapping
from itertools import compress, count
from operator import is_not
from typing import Literal, NamedTuple

import msgspec

from tui_combat.engine.audience import players_line, reading, rolls_shown
from tui_combat.engine.contract import CONDITION_LABELS, FALLEN_ALIVE, AnyRuleset, StepDef, listed_health
from tui_combat.engine.effects import effects_of
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import LogEntry, Msg, render
from tui_combat.engine.model import BEHIND_THE_SCREEN, Combatant, Slot, State, Status, changed_places
from tui_combat.engine.registry import get
from tui_combat.i18n import N_, _, after_name, ngettext, words_in_use

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
    "PublicViews",
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
    fallen: Literal["", "dying", "dead"] = ""
    """How he lies when down: "dying" while alive (dying, stable, bound), "dead"; "" while he is not down."""
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


def public_log(
    state: State, lines: int = LOG_LINES, kept: dict[int, tuple[LogEntry, PublicLine | None]] | None = None
) -> tuple[PublicLine, ...]:
    """The latest ``lines`` entries the players may read, oldest first, in the active language. ``kept``: the
    lines of the entries read last time, by the entry's identity (an entry is immutable), taken again; left
    holding this time's."""
    earlier = dict(kept) if kept is not None else {}
    if kept is not None:
        kept.clear()
    shown: list[PublicLine] = []
    for chunk in reversed(state.log):
        for entry in reversed(chunk):
            known = earlier.get(id(entry))
            if known is not None and known[0] is entry:
                public = known[1]
            else:
                line = players_line(entry)
                public = None if line is None else PublicLine(round=entry.round, text=render(line))
            if kept is not None:
                kept[id(entry)] = (entry, public)
            if public is None:
                continue
            shown.append(public)
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


Kept = dict[str, tuple[Combatant, PublicCombatant, list[PublicCombatant | None]]]
"""Each combatant's public form as last made, by id: the combatant it was made of, the form, and the form as
shown not acting, acting, having acted (each made when first asked)."""


class _SlotShown(NamedTuple):
    """A slot of the order as the players saw it last time, with what its group was made of."""

    slot: Slot
    ids: frozenset[str]
    """Everyone in the slot, seen or not."""
    how: tuple[bool, bool, bool]
    """(acting now, done, the order hidden)."""
    members: list[str]
    """Those of it the players see."""
    group: PublicGroup


class _Builder:
    """Turns combatants into their public form, once each (or takes the one ``kept`` from an earlier view, made
    of the very same combatant while nothing else it reads changed; and a slot's whole group ``slots`` kept,
    when none of its members is among the ``changed``)."""

    def __init__(
        self,
        ruleset: AnyRuleset,
        state: State,
        scale: HealthScale,
        kept: Kept | None = None,
        by_id: dict[str, Combatant] | None = None,
        changed: frozenset[str] | None = None,
        slots: dict[int, _SlotShown] | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.state = state
        self.scale = scale
        self.kept = kept
        self.shown = rolls_shown(state)
        self.party = {side.id for side in state.sides if side.is_party}
        self.side_names = {side.id: side.name for side in state.sides}
        if by_id is None:
            by_id = {combatant.id: combatant for combatant in state.combatants if not combatant.hidden}
        self.by_id = by_id
        """Those the players may see: not the hidden."""
        self.changed = changed
        """The ids of those who changed since the view ``slots`` were kept for (None: not known)."""
        self.slots = slots if changed is not None else None
        self.slots_shown: dict[int, _SlotShown] = {}
        """Each slot's group as made (or kept) this time, by the slot's place in the order."""
        self.made = 0
        """How many public forms were made (not taken from ``kept``)."""

    def kept_slot(self, index: int, slot: Slot, how: tuple[bool, bool, bool]) -> _SlotShown | None:
        """The group of ``slot`` kept from last time, when nothing it is made of changed; with the public forms
        of those of it who changed made anew, when they are still seen (or still not seen) as they were."""
        known = self.slots.get(index) if self.slots is not None else None
        if known is None or known.slot is not slot or known.how != how:
            return None
        ids = known.ids
        changed = [cid for cid in self.changed or () if cid in ids]
        if not changed:
            return known
        forms = list(known.group.combatants)
        now, done, _hidden = how
        for cid in changed:
            try:
                place = known.members.index(cid)
            except ValueError:
                place = -1
            if (place >= 0) != (cid in self.by_id):
                return None  # hidden or shown since: the group is made again
            if place >= 0:
                forms[place] = self.combatant(cid, acting=now, acted=done)
        group = msgspec.structs.replace(known.group, combatants=tuple(forms))
        return known._replace(group=group)

    def combatant(self, combatant_id: str, *, acting: bool = False, acted: bool = False) -> PublicCombatant:
        combatant = self.by_id[combatant_id]
        kept = self.kept
        if kept is None:
            return self._made(combatant, acting, acted)
        known = kept.get(combatant_id)
        if known is None or known[0] is not combatant:
            base = self._made(combatant, False, False)
            known = kept[combatant_id] = (combatant, base, [base, None, None])
        forms = known[2]
        which = 1 if acting else 2 if acted else 0
        shown = forms[which]
        if shown is None or shown.acting != acting or shown.acted != acted:
            shown = forms[which] = msgspec.structs.replace(known[1], acting=acting, acted=acted)
        return shown

    def members(self, ids: Iterable[str], acting: bool, acted: bool) -> tuple[PublicCombatant, ...]:
        """The public forms of a slot's members, each as :meth:`combatant` gives it (in one loop: a slot of a mass
        battle holds thousands)."""
        kept, by_id = self.kept, self.by_id
        if kept is None:
            return tuple(self._made(by_id[cid], acting, acted) for cid in ids)
        which = 1 if acting else 2 if acted else 0
        shown: list[PublicCombatant] = []
        for cid in ids:
            known = kept.get(cid)
            form = known[2][which] if known is not None and known[0] is by_id[cid] else None
            if form is None or form.acting != acting or form.acted != acted:
                form = self.combatant(cid, acting=acting, acted=acted)
            shown.append(form)
        return tuple(shown)

    def _made(self, combatant: Combatant, acting: bool, acted: bool) -> PublicCombatant:
        self.made += 1
        combatant_id = combatant.id
        party = combatant.side in self.party
        word = self.ruleset.condition_word(self.state, combatant_id)
        health = health_word(combatant, self.scale, word)
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
            fallen=("dying" if word in FALLEN_ALIVE else "dead") if combatant.status == "down" else "",
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
        how = (now, done, hidden)
        known = builder.kept_slot(index, slot, how)
        if known is not None:  # (a slot of the hidden only is never kept)
            listed.update(known.members)
            groups.append(known.group)
            builder.slots_shown[index] = known
            continue
        members = [c for c in slot.combatants if c in builder.by_id]
        if not members and (hidden or slot.combatants):  # a slot of the hidden only is not there for the players
            continue
        listed.update(members)
        group = PublicGroup(
            kind="slot",
            label="" if hidden else _label(slot.label, builder.shown),
            now=now,
            done=done,
            combatants=builder.members(members, now, done),
        )
        groups.append(group)
        if builder.changed is not None:
            builder.slots_shown[index] = _SlotShown(slot, frozenset(slot.combatants), how, members, group)
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
    return PublicViews(scale, log_lines=log_lines).view(state)


def _others(state: State) -> tuple[Mapping[str, str], tuple[str, ...]]:
    """What "others" in :attr:`~tui_combat.engine.contract.Ruleset.public_reads` stands for: everyone's name
    (and so who is in the fight) and who is hidden."""
    return state.names(), tuple(combatant.id for combatant in state.combatants if combatant.hidden)


def _reads(ruleset: AnyRuleset, state: State) -> tuple[object, ...] | None:
    """What a combatant's public form is made of besides himself, as this state has it (None: the rules may read
    anything): the words in use (:func:`~tui_combat.i18n.words_in_use`), the ruleset, what the engine reads (the
    sides, the phase, the effects, the options) and what the rules say they read."""
    reads = ruleset.public_reads
    if reads is None:
        return None
    parts: list[object] = [words_in_use(), state.ruleset, state.sides, state.phase, state.effects, state.options]
    for name in sorted(reads):
        if name == "others":
            parts.append(_others(state))
        elif name in ("fight_state", "round_state"):  # as the rules read it (none yet reads as a fresh one)
            parts.append(ruleset.fight_of(state) if name == "fight_state" else ruleset.round_of(state))
        else:
            parts.append(getattr(state, name))
    return tuple(parts)


def _same_reads(kept: tuple[object, ...], now: tuple[object, ...]) -> bool:
    """Compared by identity first (the state is immutable: a part that did not change is the same object), then
    by value (a ruleset may write a part anew that holds the same)."""
    return len(kept) == len(now) and all(one is other or one == other for one, other in zip(kept, now))


class PublicViews:
    """:func:`public_view` of one state after another, as a screen that follows a fight asks for it: a
    combatant's public form is made again only when he changed or something it is made of did (the rules say
    what: :attr:`~tui_combat.engine.contract.Ruleset.public_reads`), and a log line only when its entry did. Each
    view is the one :func:`public_view` gives (a property test holds it to that, after every action of random
    fights in every ruleset). Not for several threads at once."""

    def __init__(self, scale: HealthScale | None = None, *, log_lines: int = LOG_LINES) -> None:
        self.scale = scale or HealthScale()
        self.log_lines = log_lines
        self._reads: tuple[object, ...] | None = None
        self._kept: Kept = {}
        self._lines: dict[int, tuple[LogEntry, PublicLine | None]] = {}
        self._words: tuple[object, int] | None = None
        self._combatants: tuple[Combatant, ...] | None = None
        """The combatants of the state last shown, those of it the players see, and its slots' groups."""
        self._by_id: dict[str, Combatant] = {}
        self._slots: dict[int, _SlotShown] = {}
        self.made = 0
        """How many public forms of combatants were made (not taken from an earlier view); for tests."""

    def _changed(self, combatants: tuple[Combatant, ...]) -> tuple[frozenset[str] | None, dict[str, Combatant] | None]:
        """The ids of the combatants that are not the very ones of the state last shown (None when some came or
        left), and those the players see (None: to be found)."""
        before = self._combatants
        if before is combatants:
            return frozenset(), self._by_id
        if before is None or len(before) != len(combatants):
            return None, None
        places = changed_places(before, combatants)
        if places is None:
            places = list(compress(count(), map(is_not, before, combatants)))
        if any(before[place].id != combatants[place].id for place in places):
            return None, None
        by_id = dict(self._by_id)
        for place in places:
            combatant = combatants[place]
            if combatant.hidden:
                by_id.pop(combatant.id, None)
            else:
                by_id[combatant.id] = combatant
        return frozenset(combatants[place].id for place in places), by_id

    def view(self, state: State) -> PublicView:
        """Everything the players' screen shows of ``state``, and nothing secret."""
        ruleset = get(state.ruleset)
        reads = _reads(ruleset, state)
        same = reads is not None and self._reads is not None and _same_reads(self._reads, reads)
        if not same or len(self._kept) > 2 * len(state.combatants) + 64:  # (or many have left the fight since)
            self._kept = {}
        self._reads = reads
        words = words_in_use()
        if words != self._words:  # the log's lines were written in another language
            self._lines, self._words = {}, words
        changed, by_id = self._changed(state.combatants)
        builder = _Builder(
            ruleset,
            state,
            self.scale,
            self._kept if reads is not None else None,
            by_id,
            changed if same else None,
            self._slots,
        )
        steps = ruleset.steps(state) if state.phase == "round" else ()
        groups, hidden = _groups(builder, state, steps)
        self._combatants, self._by_id, self._slots = state.combatants, builder.by_id, builder.slots_shown
        self.made += builder.made
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
            log=public_log(state, self.log_lines, self._lines),
        )
