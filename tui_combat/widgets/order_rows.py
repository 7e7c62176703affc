"""The turn order's rows: the slots (everyone in a slot acts at once) with the combatants in each, laid out from a
state (:func:`layout`), and each row's look (:class:`Looks`): name, health, marks, the live budget's marker.
:class:`~tui_combat.widgets.order_list.OrderList` shows them; the players' view and the rewind read them too.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress, count
from operator import is_, is_not
from typing import NamedTuple

from rich.text import Text

from tui_combat.engine.contract import AnyRuleset, BudgetLine, fallen, listed_health
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, render
from tui_combat.engine.model import Combatant, Effect, State, changed_places
from tui_combat.i18n import N_, _
from tui_combat.widgets.glyphs import glyph

STATUS_MARK = {"active": "", "down": " ✝", "fled": " ↪", "surrendered": " ⚐"}
FILTER_ALL, FILTER_ACTING = "", "\0acting"
"""The list's filters besides a side's id: everyone, or only those acting now."""
FOLD_OVER = 12
"""A group of more members than this is shown folded into one row until the GM unfolds it."""
GROUP_PREFIX = "group-"


def status_mark(status: str) -> str:
    mark = STATUS_MARK.get(status, "")
    return f" {glyph(mark.strip())}" if mark else ""


def fallen_mark(how: str, saves: tuple[int, int] | None = None) -> str:
    """The mark after a fallen combatant's health: ♥ while he lies alive (dying, stable, bound), with his death
    saving throws where his book counts them ("♥ ✓✓○ ✗○○"), ✝ once dead; "" for one standing."""
    if how == "dead":
        return f" {glyph('✝')}"
    if how != "dying":
        return ""
    mark = f" {glyph('♥')}"
    if saves is not None:
        successes, failures = (min(max(count, 0), 3) for count in saves)
        empty = glyph("○")
        mark += f" {glyph('✓') * successes}{empty * (3 - successes)}"
        mark += f" {glyph('✗') * failures}{empty * (3 - failures)}"
    return mark


def budget_marker(lines: tuple[BudgetLine, ...]) -> str:
    """What a combatant has left, in a few cells, once he has spent something: "left/total" of his first two
    budget lines ("1/2·0/1"); nothing while all of it is left (a fresh round draws no marker at all; the
    card shows the selected combatant's whole budget)."""
    if all(line.left >= line.total for line in lines):
        return ""
    return "·".join(f"{line.left}/{line.total}" for line in lines[:2])


def effect_text(effect: Effect) -> str:
    """An effect as the turn list shows it beside its combatant: its name and the rounds left ("Held 2")."""
    return f"{render(effect.label)} {effect.rounds}"


def _line(
    combatant: Combatant,
    marker: str = "",
    budget: str = "",
    effects: tuple[Effect, ...] = (),
    health: str = "",
    fall: str = "",
) -> Text:
    style = "dim" if combatant.status != "active" else ""
    text = Text("  ")
    text.append(combatant.name, style=style)
    if combatant.hidden:  # kept from the players until revealed
        text.append(f" {glyph('⊘')}", style="bold yellow")
    health = health or f"{combatant.hp}/{combatant.max_hp}"  # the rules' count of it ("Wounds 0/3"), when known
    if fall and combatant.status == "down":  # how he lies, by his rules: ♥ alive (dying), ✝ dead
        text.append(f"  {health}", style="dim")
        text.append(fall, style="bold red" if fall != status_mark("down") else "dim")
    else:
        text.append(f"  {health}{status_mark(combatant.status)}", style="dim" if style else "cyan")
    if effects:
        text.append("  " + ", ".join(effect_text(effect) for effect in effects), style="magenta")
    if budget:
        text.append(f"  {budget}")
    if marker:
        text.append(f"  {marker}", style="italic")
    return text


def group_name(members: list[Combatant]) -> str:
    """What a group is called: its members' name without their number ("Orc 12" → "Orc")."""
    name = members[0].name
    base, _space, number = name.rpartition(" ")
    return base if base and number.isdigit() else name


OUT_WORDS = {"down": N_("{count} down"), "fled": N_("{count} fled"), "surrendered": N_("{count} surrendered")}
"""How a folded group counts those of its members out of the fight, by status."""


def _group_line(name: str, count: int, out: tuple[tuple[str, int], ...], marker: str, budget: str) -> Text:
    text = Text("  ")
    text.append(_("{name} ×{count}", name=name, count=count), style="bold")
    for status, many in out:
        text.append(" · " + _(OUT_WORDS[status], count=many), style="dim")
    if budget:
        text.append(f"  {budget}")
    if marker:
        text.append(f"  {marker}", style="italic")
    return text


def _out_of_the_fight(group: list[Combatant]) -> tuple[tuple[str, int], ...]:
    """(status, how many) of a group's members out of the fight: down, fled, surrendered, in that order."""
    counts = {status: sum(1 for c in group if c.status == status) for status in OUT_WORDS}
    return tuple((status, many) for status, many in counts.items() if many)


class Row:
    """One line of the list: its option id, whether it can be selected, and what it shows (``look``:
    compared with ``==``, so an unchanged combatant, the same object in the new state, costs nothing).
    A folded group's row lists its ``members``, those still active first."""

    __slots__ = ("_text", "disabled", "key", "look", "members")

    def __init__(
        self, key: str, look: tuple[object, ...], disabled: bool = False, members: tuple[str, ...] = ()
    ) -> None:
        self.key = key
        self.look = look
        self.disabled = disabled
        self.members = members
        self._text: Text | None = None

    def text(self) -> Text:
        """What the row shows, made once."""
        if self._text is None:
            self._text = self.prompt()
        return self._text

    def prompt(self) -> Text:
        kind = self.look[0]
        if kind == "combatant":
            combatant, marker, budget, effects = self.look[1], self.look[2], self.look[3], self.look[4]
            health, fall = self.look[5], self.look[6]
            assert isinstance(combatant, Combatant) and isinstance(marker, str) and isinstance(budget, str)
            assert isinstance(effects, tuple) and isinstance(health, str) and isinstance(fall, str)
            return _line(combatant, marker, budget, effects, health, fall)
        if kind == "group":
            name, count, out, marker, budget = self.look[1:6]
            assert isinstance(name, str) and isinstance(count, int) and isinstance(out, tuple)
            assert isinstance(marker, str) and isinstance(budget, str)
            return _group_line(name, count, out, marker, budget)
        if kind == "slot":
            label, now, marker = self.look[1], self.look[2], self.look[3]
            assert isinstance(label, Msg)
            # The same cells either way but the first: a turn moving on redraws one cell of each header (and
            # the word after it).
            word = f"{marker} " if marker else ""
            return Text.assemble(
                (glyph("▶") if now else "─", "bold yellow" if now else "bold"), (f"─ {render(label)} {word}", "bold")
            )
        if kind == "idle":
            return Text(f"── {_('not in the order')} ", style="dim")
        return Text(f"── {self.look[1]} ", style="bold")


class RowView(NamedTuple):
    """A row as the list shows it: its id, its text and whether it can be selected."""

    id: str
    prompt: Text
    disabled: bool


def folded_groups(state: State, flipped: frozenset[str] = frozenset()) -> frozenset[str]:
    """The groups shown as one row: those of more than :data:`FOLD_OVER` members, unless the GM unfolded
    them, and the smaller ones he folded (``flipped``: the groups whose default the GM turned over)."""
    sizes: dict[str, int] = {}
    for combatant in state.combatants:
        if combatant.group:
            sizes[combatant.group] = sizes.get(combatant.group, 0) + 1
    return frozenset(group for group, size in sizes.items() if (size > FOLD_OVER) != (group in flipped))


class Spot:
    """Where a row stands and whom it shows, without how it looks: worked out again only when the rows
    themselves change (a new order, a combatant added or removed, a group folded, another filter).
    ``kind``: "slot" (``slot`` its index), "combatant" (``who`` his id), "group" (``who`` the group,
    ``members`` its ids as listed), "idle", "side" (``who`` the side's id)."""

    __slots__ = ("disabled", "key", "kind", "members", "slot", "who")

    def __init__(
        self,
        key: str,
        kind: str,
        slot: int | None = None,
        who: str = "",
        members: tuple[str, ...] = (),
        disabled: bool = False,
    ) -> None:
        self.key = key
        self.kind = kind
        self.slot = slot
        self.who = who
        self.members = members
        self.disabled = disabled


def layout(state: State, in_resolve: bool, shown: str = FILTER_ALL, folded: frozenset[str] = frozenset()) -> list[Spot]:
    """The rows for ``state``: the order's slots with their combatants, then those not in the order; before
    any order, the sides with their combatants. ``shown`` filters: a side's id, or :data:`FILTER_ACTING`.
    The groups in ``folded`` are one row each wherever their members stand together."""
    spots: list[Spot] = []
    acting = set(state.acting_now()) if in_resolve else set()

    def wanted(combatant: Combatant) -> bool:
        if shown == FILTER_ALL:
            return True
        if shown == FILTER_ACTING:
            return combatant.id in acting
        return combatant.side == shown

    def filtered(combatants: list[Combatant]) -> list[Combatant]:
        # (everyone listed, the usual case: no test for each of a mass battle's 10,000)
        return combatants if shown == FILTER_ALL else [c for c in combatants if wanted(c)]

    listed_groups: set[str] = set()

    def add_spots(members: list[Combatant], slot: int | None, key_of: Callable[[Combatant], str]) -> None:
        """The rows of ``members`` (those listed, filtered already): a folded group once, where its first
        member stands."""
        by_group: dict[str, list[Combatant]] = {}
        if folded:
            for combatant in members:
                if combatant.group in folded:
                    by_group.setdefault(combatant.group, []).append(combatant)
        for combatant in members:
            if combatant.group not in folded:
                spots.append(Spot(key_of(combatant), "combatant", slot, combatant.id))
                continue
            group = by_group.pop(combatant.group, None)
            if group is None:
                continue  # shown already in its group's row
            key = GROUP_PREFIX + combatant.group
            key = key if combatant.group not in listed_groups else f"{key}#{slot}"
            listed_groups.add(combatant.group)
            spots.append(Spot(key, "group", slot, combatant.group, tuple(c.id for c in group)))

    if state.order:
        listed: set[str] = set()
        for index, slot in enumerate(state.order):
            members = state.present(slot.combatants)
            shown_members = filtered(members)
            if shown != FILTER_ALL and not shown_members:
                listed.update(slot.combatants)
                continue
            spots.append(Spot(f"slot-{index}", "slot", index, disabled=True))
            keys = {c.id: c.id if c.id not in listed else f"{c.id}#{index}" for c in members}
            listed.update(keys)
            add_spots(shown_members, index, lambda c: keys[c.id])  # noqa: B023 (called in this iteration)
        idle = filtered([c for c in state.combatants if c.id not in listed])
        if idle:
            spots.append(Spot("slot-idle", "idle", disabled=True))
            add_spots(idle, None, lambda c: c.id)
    else:
        by_side: dict[str, list[Combatant]] = {}
        for combatant in state.combatants:
            by_side.setdefault(combatant.side, []).append(combatant)
        for side in state.sides:
            members = filtered(by_side.get(side.id, []))
            if shown != FILTER_ALL and not members:
                continue
            spots.append(Spot(f"side-{side.id}", "side", who=side.id, disabled=True))
            add_spots(members, None, lambda c: c.id)
    return spots


class Census:
    """A folded group's row as its members stand: its name, how many are out of the fight and how, and the
    members, those still active first."""

    __slots__ = ("members", "name", "out")

    def __init__(self, group: list[Combatant]) -> None:
        active = [c.id for c in group if c.status == "active"]
        self.name = group_name(group)
        self.out = _out_of_the_fight(group)
        self.members = tuple(active) + tuple(c.id for c in group if c.status != "active")


BudgetInputs = tuple[object, object, object, object, object, int, int]
"""What a budget that ignores the turn is worked out from (see ``Ruleset.budget_ignores_the_turn``)."""


def budget_inputs(state: State, combatant: Combatant) -> BudgetInputs:
    """The combatant, the round and fight states, the options and the sides (each compared by identity: the
    state is immutable, so a part that did not change is the same object), the round and the step."""
    return (combatant, state.round_state, state.fight_state, state.options, state.sides, state.round, state.step)


def same_inputs(kept: BudgetInputs, now: BudgetInputs) -> bool:
    return all(map(is_, kept[:5], now[:5])) and kept[5:] == now[5:]


class Looks:
    """How the rows look in one state: in a resolve step, with the ruleset, each slot header says where the
    round is ("acted", "now", "to come"), each combatant what he has left (when ``visible``: worked out for
    the rows on the screen only) and any word of his own that differs from his slot's ("holds"). What
    several rows share (the slots' words, the effects by combatant) is worked out once, when first asked."""

    def __init__(
        self,
        state: State,
        in_resolve: bool,
        ruleset: AnyRuleset | None = None,
        census: dict[str, dict[str, Census]] | None = None,
        budgets: dict[str, tuple[BudgetInputs, str]] | None = None,
    ) -> None:
        self.state = state
        self.in_resolve = in_resolve
        self.rules = ruleset
        """The ruleset whatever the step (its count of a combatant's health)."""
        self.ruleset = ruleset if in_resolve else None
        self.census = census
        """A folded group's row's count of its members, by group and row key, kept from state to state
        (whoever keeps it forgets a group's when one of its members changes)."""
        self.budgets = budgets if self.ruleset is not None and self.ruleset.budget_ignores_the_turn else None
        """Each combatant's budget marker with what it was worked out from, kept from state to state for a
        ruleset whose budget ignores the turn (see :func:`budget_inputs`)."""
        self._slot_words: dict[int, str] = {}
        self._effects_on: dict[str, tuple[Effect, ...]] | None = None

    def slot_word(self, index: int | None) -> str:
        if index is None or self.ruleset is None:
            return ""
        word = self._slot_words.get(index)
        if word is None:
            word = self._slot_words[index] = self.ruleset.slot_marker(self.state, index)
        return word

    def effects_on(self, combatant_id: str) -> tuple[Effect, ...]:
        if self._effects_on is None:
            self._effects_on = {}
            for effect in self.state.effects:
                self._effects_on[effect.combatant] = (*self._effects_on.get(effect.combatant, ()), effect)
        return self._effects_on.get(combatant_id, ())

    def combatant(self, combatant: Combatant, slot: int | None, visible: bool) -> tuple[object, ...]:
        marker = budget = ""
        ruleset = self.ruleset
        if ruleset is not None:
            marker = ruleset.turn_marker(self.state, combatant.id, slot)
            marker = "" if marker == self.slot_word(slot) else marker
            if combatant.status == "active" and visible:
                budget = self.budget(ruleset, combatant)
        return (
            "combatant",
            combatant,
            marker,
            budget,
            self.effects_on(combatant.id),
            self.health(combatant),
            self.fall(combatant),
        )

    def health(self, combatant: Combatant) -> str:
        """His health as the rules count it ("Wounds 0/3"); "" without a ruleset (hit points then)."""
        if self.rules is None:
            return ""
        try:
            return listed_health(self.rules, self.state, combatant.id)
        except (RuleError, KeyError):
            return ""

    def fall(self, combatant: Combatant) -> str:
        """How he lies when down, by his rules (:func:`fallen_mark`); "" while he stands or without a ruleset."""
        if combatant.status != "down" or self.rules is None:
            return ""
        try:
            how = fallen(self.rules, self.state, combatant.id)
            return fallen_mark(how, self.rules.death_saves(self.state, combatant.id) if how == "dying" else None)
        except (RuleError, KeyError):
            return ""

    def budget(self, ruleset: AnyRuleset, combatant: Combatant) -> str:
        """His budget marker: the one kept, when what it was worked out from is the same (so a turn moving on
        in a mass battle asks the rules about nobody's budget)."""
        budgets = self.budgets
        if budgets is None:
            return self._worked_out_budget(ruleset, combatant)
        inputs = budget_inputs(self.state, combatant)
        kept = budgets.get(combatant.id)
        if kept is not None and same_inputs(kept[0], inputs):
            return kept[1]
        marker = self._worked_out_budget(ruleset, combatant)
        budgets[combatant.id] = (inputs, marker)
        return marker

    def _worked_out_budget(self, ruleset: AnyRuleset, combatant: Combatant) -> str:
        try:
            return budget_marker(ruleset.budget(self.state, combatant.id))
        except RuleError:
            return ""

    def row(self, spot: Spot, visible: bool) -> Row:
        state = self.state
        if spot.kind == "combatant":
            return Row(spot.key, self.combatant(state.combatant(spot.who), spot.slot, visible))
        if spot.kind == "group":
            kept = self.census.setdefault(spot.who, {}) if self.census is not None else {}
            counted = kept.get(spot.key)
            if counted is None:
                counted = kept[spot.key] = Census(state.present(spot.members))
            first = state.combatant(counted.members[0])
            _kind, _first, marker, budget, _effects, _health, _fall = self.combatant(first, spot.slot, visible)
            return Row(
                spot.key,
                ("group", counted.name, len(counted.members), counted.out, marker, budget),
                members=counted.members,
            )
        if spot.kind == "slot":
            assert spot.slot is not None
            now = self.in_resolve and spot.slot == state.cursor
            return Row(spot.key, ("slot", state.order[spot.slot].label, now, self.slot_word(spot.slot)), disabled=True)
        if spot.kind == "side":
            return Row(spot.key, ("side", state.side(spot.who).name), disabled=True)
        return Row(spot.key, ("idle",), disabled=True)


def order_rows(
    state: State,
    in_resolve: bool,
    ruleset: AnyRuleset | None = None,
    shown: str = FILTER_ALL,
    window: tuple[tuple[int, int], ...] | None = None,
    folded: frozenset[str] = frozenset(),
) -> list[Row]:
    """Every row for ``state`` (see :func:`layout` and :class:`Looks`); what is left is worked out only for
    the rows ``window`` (ranges of first, last) covers, when given."""
    looks = Looks(state, in_resolve, ruleset)
    return [
        looks.row(spot, window is None or any(first <= index <= last for first, last in window))
        for index, spot in enumerate(layout(state, in_resolve, shown, folded))
    ]


def changed_combatants(before: State, after: State, shown: str = FILTER_ALL) -> list[Combatant] | None:
    """The combatants of ``after`` that are not those of ``before``, when ``after`` has the rows of ``before``
    (the same order, sides and combatants, each in the same side and group, and, when only those acting are
    listed, the same ones acting): then only how rows look can differ. None when the rows differ. Looks at
    the combatants that changed only (the others are the same objects)."""
    if before.order is not after.order and before.order != after.order:
        return None
    if before.sides is not after.sides and before.sides != after.sides:
        return None
    if shown == FILTER_ACTING and before.acting_now() != after.acting_now():
        return None
    old, new = before.combatants, after.combatants
    if old is new:
        return []
    if len(old) != len(new):
        return None
    places = changed_places(old, new)
    if places is None:
        places = list(compress(count(), map(is_not, old, new)))
    changed = [new[index] for index in places]
    for combatant in changed:
        was = old[before.position(combatant.id)] if before.has(combatant.id) else None
        if was is None or was.side != combatant.side or was.group != combatant.group:
            return None
    return changed
