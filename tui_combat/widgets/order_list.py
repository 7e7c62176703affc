"""The turn order: slots (everyone in a slot acts at once) with the combatants in each.

The acting slot is marked on its header ("▶─ 7 now"; "── 3 acted", "── 1 to come" for the others), so that a turn
moving on changes one cell of two rows however many combatants a slot holds. Each action changes a few rows at
most, so :meth:`OrderList.show` works out again only the rows on the screen and redraws those that look
different; every other row is worked out when it is next drawn (scrolled into sight), so an action costs the
same at 20 combatants as at 10,000. Moving the highlight redraws the two rows involved. The rows are laid out
again (:func:`layout`) only when they themselves change: a new order, a combatant added or removed, a group
folded or unfolded, another filter. Every row is one line (no wrapping), so replacing a row never moves the others.

A group of more than :data:`FOLD_OVER` members (a mass battle) is folded into one row, "Orc ×480 · 3 down",
with its slot and the budget marker of its first member still up; a key unfolds it (or folds a small one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import compress, count
from operator import is_, is_not
from typing import NamedTuple, Self

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip

from tui_combat.engine.contract import AnyRuleset, BudgetLine, fallen, listed_health
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, render
from tui_combat.engine.model import Combatant, Effect, State
from tui_combat.i18n import N_, _
from tui_combat.textual_ext.scroll_bars import SteadyScrollBars
from tui_combat.widgets.glyphs import glyph
from tui_combat.widgets.lines import changed_span, joined
from tui_combat.widgets.scroll_thumb import ThumbMovesAlone

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
    changed = [new[index] for index in compress(count(), map(is_not, old, new))]
    for combatant in changed:
        was = old[before.position(combatant.id)] if before.has(combatant.id) else None
        if was is None or was.side != combatant.side or was.group != combatant.group:
            return None
    return changed


class OrderList(SteadyScrollBars, ThumbMovesAlone, can_focus=True):
    """The turn order on a scrolling view of its own lines (Textual's line API): one line per row, so the
    line of row ``i`` is ``i``. Slot headers cannot be selected; combatants' rows have the combatant's id
    (with ``#slot`` after it when the combatant appears again in a later slot)."""

    # ``-answering``: while a prompt on the screen asks about the selected combatant, the list looks as it
    # does focused (the selected row stands out as the one the answer is for), and the focus moving to the
    # prompt and back redraws none of it.
    COMPONENT_CLASSES = {"order-list--highlighted", "order-list--disabled"}
    DEFAULT_CSS = """
    OrderList {
        height: auto;
        max-height: 100%;
        color: $foreground;
        overflow-x: hidden;
        border: tall $border-blurred;
        padding: 0 1;
        background: $surface;
        & > .order-list--highlighted {
            color: $foreground;
            background: $block-cursor-blurred-background;
        }
        & > .order-list--disabled { color: $text-disabled; }
        &:focus, &.-answering {
            border: tall $border;
            background-tint: $foreground 5%;
            & > .order-list--highlighted {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
    }
    """
    BINDINGS = [
        Binding("down", "cursor_down", "Down", show=False),
        Binding("up", "cursor_up", "Up", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("pagedown", "page_down", "Page Down", show=False),
        Binding("pageup", "page_up", "Page Up", show=False),
    ]

    class Highlighted(Message):
        """Another row is highlighted (``index``; None: none)."""

        def __init__(self, order_list: OrderList, index: int | None) -> None:
            super().__init__()
            self.order_list = order_list
            self.index = index

        @property
        def control(self) -> OrderList:
            return self.order_list

    highlighted: reactive[int | None] = reactive(None, repaint=False, init=False)
    """The highlighted row; a move redraws the two rows involved, not the whole list."""

    _turn: tuple[int, int, int, tuple[str, ...]] | None = None

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._rows: list[Row] = []
        self._index: dict[str, int] = {}
        """Option id, and combatant id (its first row), → index."""
        self._lines: dict[int, tuple[Row, int, bool, Style, Strip]] = {}
        """Each row's line as last drawn: the row, the width, whether highlighted, the base style."""
        self.rebuilds = 0
        """How many times every row was rebuilt (a new order, a combatant added …); for tests."""
        self.rows_redrawn = 0
        """How many rows were redrawn one by one; for tests."""
        self.rows_looked = 0
        """How many rows were worked out again one by one (to see whether they changed); for tests."""
        self._spots: list[Spot] = []
        self._made: list[int] = []
        """For each row, the :attr:`_generation` it was last worked out in."""
        self._generation = 0
        """Counts the states shown."""
        self._looks: Looks | None = None
        self._shape: tuple[str, frozenset[str], bool] | None = None
        self._folded: frozenset[str] = frozenset()
        self._census: dict[str, dict[str, Census]] = {}
        self._budgets: dict[str, tuple[BudgetInputs, str]] = {}
        self.filter = FILTER_ALL
        """Who is listed: everyone, those acting now (:data:`FILTER_ACTING`), or one side (its id)."""
        self._shown_state: tuple[State, bool, AnyRuleset | None] | None = None
        self._window: tuple[int, int] = (0, 0)
        self.flipped: frozenset[str] = frozenset()
        """The groups the GM folded or unfolded, against their default (see :func:`folded_groups`)."""

    # -- the rows as others read them ----------------------------------------------------------------
    @property
    def option_count(self) -> int:
        return len(self._rows)

    def get_option_at_index(self, index: int) -> RowView:
        row = self._rows[index]
        return RowView(row.key, row.text(), row.disabled)

    def get_option(self, option_id: str) -> RowView:
        index = self._index.get(option_id)
        if index is None or self._rows[index].key != option_id:
            raise KeyError(option_id)
        return self.get_option_at_index(index)

    @property
    def highlighted_option(self) -> RowView | None:
        index = self.highlighted
        return self.get_option_at_index(index) if index is not None and 0 <= index < len(self._rows) else None

    def selected_group(self) -> str | None:
        """The group of the selected row: a folded group's row, or a member of a group."""
        index = self.highlighted
        if index is None or self._shown_state is None or not 0 <= index < len(self._rows):
            return None
        row = self._rows[index]
        if row.key.startswith(GROUP_PREFIX):
            return row.key[len(GROUP_PREFIX) :].split("#")[0]
        combatant = self.selected_combatant()
        state = self._shown_state[0]
        group = state.combatant(combatant).group if combatant and state.has(combatant) else ""
        return group or None

    def fold_or_unfold(self) -> bool | None:
        """Fold the selected group into one row, or unfold it: True when it is now folded, None when no
        group is selected. The selection stays on the group (its first member when unfolded)."""
        group = self.selected_group()
        if group is None or self._shown_state is None:
            return None
        member = self.selected_combatant()
        self.flipped = self.flipped ^ {group}
        state = self._shown_state[0]
        now_folded = group in folded_groups(state, self.flipped)
        self.show(*self._shown_state)
        self._highlight(member)
        return now_folded

    def show_only(self, shown: str) -> None:
        """List only ``shown`` (a side's id, :data:`FILTER_ACTING`, or :data:`FILTER_ALL`: everyone)."""
        self.filter = shown
        if self._shown_state is not None:
            self.show(*self._shown_state)

    def find(self, typed: str) -> str | None:
        """Select the next row after the highlighted one (round the list) that shows a combatant called
        ``typed``: a name that begins so first, else one that holds it, ignoring case; one found in a folded
        group unfolds it, so that he is selected himself. Returns the combatant's id (None: nobody listed is)."""
        needle = typed.strip().casefold()
        if not needle or self._shown_state is None or not self._spots:
            return None
        state = self._shown_state[0]
        start = 0 if self.highlighted is None else self.highlighted + 1
        holding: tuple[int, str] | None = None
        for index in (*range(start, len(self._spots)), *range(start)):
            spot = self._spots[index]
            shows: tuple[str, ...] = (
                spot.members if spot.kind == "group" else (spot.who,) if spot.kind == "combatant" else ()
            )
            for who in shows:
                name = state.combatant(who).name.casefold()
                if name.startswith(needle):
                    return self._select_found(index, who)
                if holding is None and needle in name:
                    holding = (index, who)
        return None if holding is None else self._select_found(*holding)

    def _select_found(self, index: int, who: str) -> str:
        spot = self._spots[index]
        if spot.kind == "group" and self._shown_state is not None:
            self.flipped = self.flipped ^ {spot.who}
            self.show(*self._shown_state)
            self._highlight(who)
            # (the list, as tall as its rows up to the screen, grows in the layout that follows: scrolled after it)
            self.call_after_refresh(self._scroll_to_row, self.highlighted, True)
        else:
            self.highlighted = index
        return who

    # -- showing a state ------------------------------------------------------------------------------
    def show(self, state: State, in_resolve: bool, ruleset: AnyRuleset | None = None) -> None:
        """Show ``state``. The rows are laid out again only when they themselves change; otherwise the rows on
        the screen are worked out again and those that look different redrawn, and every other row is worked
        out when it is next drawn: an action costs the same with 20 combatants as with 10,000.

        The row to highlight is found first, and the list scrolled to it at once: the rows that come into
        sight are drawn in the same frame as the slot headers and the highlight that changed. A scroll redraws
        of each line on the screen only the cells that differ from those the terminal shows there (a new page
        of orcs: "Orc 6  3/8" where "Orc 5  8/8" was)."""
        self._showing = True
        try:
            self._show(state, in_resolve, ruleset)
        finally:
            self._showing = False
            self._redraw_page()

    _showing = False
    """Set while a state is shown: a scroll then leaves the lines to :meth:`_redraw_page`."""
    _page_before: list[Strip | None] | None = None
    """The lines the screen showed before it scrolled, top first (None: not known), until they are compared."""

    def lines_scrolled(self, old_top: int) -> None:
        if not self._showing:
            super().lines_scrolled(old_top)
        elif self._page_before is None:  # (scrolled twice: the terminal still shows the first page)
            width = self.scrollable_content_region.width
            kept = [self._lines.get(old_top + y) for y in range(self.scrollable_content_region.height)]
            self._page_before = [line[4] if line is not None and line[1] == width else None for line in kept]

    def _redraw_page(self) -> None:
        """After a scroll, each line on the screen redrawn where it differs from what the terminal shows: the
        cells from the first to the last that differ (:func:`changed_span`), none when they are the same."""
        before, self._page_before = self._page_before, None
        if before is None or not self.is_mounted:
            return
        width, base, top = self.scrollable_content_region.width, self.rich_style, self.scroll_offset.y
        changed: list[Region] = []
        for y, old in enumerate(before):
            index = top + y
            new = self._line(index, width, base) if 0 <= index < len(self._rows) else Strip.blank(width, base)
            span = (0, width) if old is None else changed_span(old, new, width)
            if span is not None:
                changed.append(Region(span[0], y, span[1] - span[0], 1))
        if changed:
            self.refresh(*changed)

    def _show(self, state: State, in_resolve: bool, ruleset: AnyRuleset | None = None) -> None:
        selected = self.highlighted_option.id if self.highlighted_option is not None else None
        previous = self._shown_state
        self._shown_state = (state, in_resolve, ruleset)
        self._generation += 1
        shape = (self.filter, self.flipped, in_resolve)
        changed = changed_combatants(previous[0], state, self.filter) if previous is not None else None
        for combatant in changed or ():
            self._census.pop(combatant.group, None)
        self._looks = Looks(state, in_resolve, ruleset, self._census, self._budgets)
        if changed is not None and shape != self._shape and self._same_spots(shape):
            self._shape = shape  # (each row is worked out again as it is drawn, as after any state)
        elif changed is None or shape != self._shape:
            self._census.clear()
            self._budgets.clear()
            self._shape = shape
            self._folded = folded_groups(state, self.flipped)
            spots = layout(state, in_resolve, self.filter, self._folded)
            if [(spot.key, spot.disabled) for spot in spots] == [(row.key, row.disabled) for row in self._rows]:
                self._spots = spots
                self._made = [-1] * len(spots)
                self._index_spots()
            else:
                self._window = self._visible_rows()
                first, last = self._window
                self._rebuild(
                    spots, [self._looks.row(spot, first <= index <= last) for index, spot in enumerate(spots)]
                )
        target = selected
        turn = (state.round, state.step, state.cursor, state.acting_now()) if in_resolve else None
        if turn is not None and turn != self._turn and state.order:
            # The turn moved on: select who acts now. Otherwise keep the GM's selection.
            acting = state.order[state.cursor].combatants if state.cursor < len(state.order) else ()
            if acting and (selected is None or selected.split("#")[0] not in acting):
                target = acting[0]
        slot_moved = turn is not None and (self._turn is None or turn[:3] != self._turn[:3]) and bool(state.order)
        self._turn = turn
        index = self._index.get(target) if target is not None else None
        # (scrolled before the rows on the screen are worked out: those are the new ones)
        if slot_moved:
            self._bring_slot_into_sight(state.cursor, index)
        elif index is not None:
            self._scroll_to_row(index)
        self._window = self._visible_rows()
        first, last = self._window
        for row_index in range(first, min(last + 1, len(self._spots))):
            self._freshen(row_index)
        if self.highlighted is not None and 0 <= self.highlighted < len(self._spots):
            self._freshen(self.highlighted)
        self._highlight(target)

    def _same_spots(self, shape: tuple[str, frozenset[str], bool]) -> bool:
        """Whether rows shown as ``shape`` stand where they stood as shown last: so when only the step changed
        (into or out of the resolve step), unless only those acting now are listed. Laying 10,000 rows out
        again to find them the same took some 10 ms of the key that ends a round's resolve step."""
        return self._shape is not None and shape[:2] == self._shape[:2] and self.filter != FILTER_ACTING

    def _visible_rows(self) -> tuple[int, int]:
        """The rows on the screen now (first, last): a screen's worth before the list is laid out. A row
        scrolled into sight is worked out as it is drawn."""
        top = self.scroll_offset.y
        return top, top + (self.size.height or 24) - 1

    def _rebuild(self, spots: list[Spot], rows: list[Row]) -> None:
        self.rebuilds += 1
        self._spots = spots
        self._rows = rows
        first, last = self._window
        self._made = [self._generation if first <= index <= last else -1 for index in range(len(rows))]
        self._index_spots()
        self._lines.clear()
        if self.highlighted is not None and self.highlighted >= len(rows):
            self.set_reactive(OrderList.highlighted, None)
        self._set_virtual_size()
        self.refresh()

    def _index_spots(self) -> None:
        self._index = {}
        for index, spot in enumerate(self._spots):
            self._index[spot.key] = index
            self._index.setdefault(spot.key.split("#")[0], index)
            for member in spot.members:
                self._index.setdefault(member, index)

    def _freshen(self, index: int, drawing: bool = False) -> None:
        """Row ``index`` as it looks in the state shown, unless it was worked out for it already; redrawn
        when it looks different (``drawing``: it is being drawn now, as it is)."""
        if self._made[index] == self._generation or self._looks is None:
            return
        self._made[index] = self._generation
        self.rows_looked += 1
        row = self._looks.row(self._spots[index], True)
        old = self._rows[index]
        if row.look == old.look and row.members == old.members:
            return  # the same row: its text, and its line as drawn last, are kept (a row scrolled back into sight)
        self._rows[index] = row
        self._replace_row(index, old, row, drawing)

    def _replace_row(self, index: int, old: Row, new: Row, drawing: bool = False) -> None:
        """Only the cells of the row's line that changed redrawn (none while it is being drawn)."""
        self.rows_redrawn += 1
        drawn = self._lines.get(index)
        if drawing or drawn is None or not self.is_mounted:
            if not drawing:
                self._refresh_row(index)
            return
        _row, width, highlighted, base, before = drawn
        after = self._line(index, width, base)
        span = changed_span(before, after, width)
        if span is not None:
            self._refresh_row(index, span)

    def _refresh_row(self, index: int | None, cells: tuple[int, int] | None = None) -> None:
        """Redraw row ``index``: its ``cells`` (start, end), or the whole row (not the scroll bar beside it). Not
        while the list has scrolled in the state being shown: every line on the screen is then compared with the
        one the terminal shows (:meth:`_redraw_page`)."""
        if index is None or not self.is_mounted or self._page_before is not None:
            return
        y = index - self.scroll_offset.y
        if not 0 <= y < self.scrollable_content_region.height:
            return
        if cells is None:
            self.refresh(Region(0, y, self.scrollable_content_region.width, 1))
        else:
            self.refresh(Region(cells[0], y, cells[1] - cells[0], 1))

    def _set_virtual_size(self) -> None:
        """One line per row, and the blank lines a form at the foot asks for."""
        width = self.scrollable_content_region.width
        virtual_size = Size(width, len(self._rows) + self._foot_lines)
        if virtual_size != self.virtual_size:
            self.virtual_size = virtual_size
            if self.scroll_offset.y > self.max_scroll_y:  # fewer lines: scrolled back as far as they reach
                self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True, force=True)

    def on_resize(self, event: events.Resize) -> None:
        self._lines.clear()
        self._set_virtual_size()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.clear()

    # -- drawing ---------------------------------------------------------------------------------------
    _drawing: tuple[int, Style] | None = None
    """The width and the base style of the lines being drawn (see :meth:`render_lines`)."""

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines of ``crop``, their width and base style worked out once for all of them: Textual works the
        style out from every widget above the list each time it is asked (some 0.1 ms; a page of the list
        that comes into sight draws 21 lines)."""
        self._drawing = (self.scrollable_content_region.width, self.rich_style)
        try:
            return super().render_lines(crop)
        finally:
            self._drawing = None

    def render_line(self, y: int) -> Strip:
        """Row ``scroll + y``, worked out first if the state changed since it was (a row scrolled into
        sight), drawn with as few pieces as it looks (its text cannot be selected)."""
        index = self.scroll_offset.y + y
        width, base = self._drawing or (self.scrollable_content_region.width, self.rich_style)
        if not 0 <= index < len(self._rows):
            return Strip.blank(width, base)
        self._freshen(index, drawing=True)
        return self._line(index, width, base)

    def _line(self, index: int, width: int, base: Style) -> Strip:
        row = self._rows[index]
        highlighted = index == self.highlighted
        kept = self._lines.get(index)
        if kept is not None and kept[0] is row and kept[1] == width and kept[2] == highlighted and kept[3] == base:
            return kept[4]
        style = base
        if row.disabled:
            style += self.get_component_rich_style("order-list--disabled")
        if highlighted:
            style += self.get_component_rich_style("order-list--highlighted")
        text = row.text()
        if text.cell_len > width:
            text = text.copy()
            text.truncate(width, overflow="ellipsis")
        segments = Segment.apply_style(text.render(self.app.console), style)
        strip = joined(Strip(list(segments)).extend_cell_length(width, style).crop(0, width))
        self._lines[index] = (row, width, highlighted, base, strip)
        return strip

    # -- the focus -----------------------------------------------------------------------------------
    # Textual redraws every row of a widget that gains or loses the focus; answering, the list looks the same
    # either way, so the focus moving to the prompt and back leaves it as drawn.
    def on_focus(self, event: events.Focus) -> None:
        self._focus_while_answering(event, True)

    def on_blur(self, event: events.Blur) -> None:
        self._focus_while_answering(event, False)

    def _focus_while_answering(self, event: events.Focus | events.Blur, focused: bool) -> None:
        """Answering, the focus coming or going only says so (Textual's own handlers redraw every row)."""
        if not self.has_class("-answering"):
            return
        event.prevent_default()
        self.has_focus = focused
        if self.parent is not None:
            self.parent.post_message(events.DescendantFocus(self) if focused else events.DescendantBlur(self))

    _styling_quietly = False
    """Set while styles are worked out again that leave the list looking as it was (see :meth:`_quietly`)."""

    @contextmanager
    def _quietly(self) -> Iterator[None]:
        quiet, self._styling_quietly = self._styling_quietly, True
        try:
            yield
        finally:
            self._styling_quietly = quiet

    def update_node_styles(self, animate: bool = True) -> None:
        # Answering, the look is the same focused or not (the CSS above): the focus leaving for the prompt and
        # coming back, and the class that says so, change nothing to work out.
        if self.has_class("-answering") or self._styling_quietly:
            return
        super().update_node_styles(animate)

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        if self._styling_quietly and not (regions or layout or recompose):
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    _foot_lines = 0
    """Blank lines after the last row while a form lies over the foot of the list: room to scroll its last
    rows up above the form."""

    def keep_above(self, covered: int) -> None:
        """The highlighted row scrolled up into sight when it is among the ``covered`` lines at the foot of the
        list (a form lies over them), even when every row fits; the list stays where it is otherwise."""
        highlighted = self.highlighted
        shown = self.scrollable_content_region.height - covered
        if highlighted is None or covered <= 0 or shown <= 0 or highlighted - self.scroll_offset.y < shown:
            return
        self._foot_lines = covered
        self._set_virtual_size()
        self.scroll_to(y=highlighted - shown + 1, animate=False, immediate=True, force=True)

    def answering(self) -> None:
        """A prompt about the selected combatant takes the focus: the list keeps its focused look meanwhile."""
        with self._quietly():
            self.add_class("-answering")

    def answered(self) -> None:
        """The prompt is gone and the focus back: the list looks focused as itself again (after the focus
        has come back, so that its arrival redraws nothing)."""

        def drop_class() -> None:
            with self._quietly():
                self.remove_class("-answering")

        self.call_later(drop_class)
        if self._foot_lines:  # the rows scrolled up above a form go back down
            self._foot_lines = 0
            self._set_virtual_size()

    # -- the highlight --------------------------------------------------------------------------------
    def validate_highlighted(self, index: int | None) -> int | None:
        if index is None or not self._rows:
            return None
        return min(max(index, 0), len(self._rows) - 1)

    def watch_highlighted(self, old: int | None, new: int | None) -> None:
        self._refresh_row(old)
        self._scroll_to_row(new)
        self._refresh_row(new)
        self.post_message(self.Highlighted(self, new))

    def _bring_slot_into_sight(self, slot: int, index: int | None) -> None:
        """The slot that acts now in sight: its header on the screen, and the slot either wholly on it or
        filling it from its header in the upper half down to the foot (a slot of 2,000 orcs under a party of
        six). Otherwise the list is scrolled so that its header is the first row, as many of its members as fit
        beneath it: a whole new page, which a slot already in sight is spared. Row ``index`` (the one to
        highlight) is in sight either way, the header's place given up for it only when the slot is taller
        than the list."""
        header = self._index.get(f"slot-{slot}")
        height = self.scrollable_content_region.height
        if header is None or height <= 0 or not self.is_mounted:
            self._scroll_to_row(index)
            return
        top = self.scroll_offset.y
        row = header - top
        if not (0 <= row < height and (row <= height // 2 or self._ends_by(header, top + height))):
            self.scroll_to(y=header, animate=False, immediate=True)
        self._scroll_to_row(index)

    def _ends_by(self, header: int, bottom: int) -> bool:
        """Whether the slot whose header is row ``header`` ends before row ``bottom`` (the next header, or the
        list's end, comes first): looks at the rows between them only."""
        for row in range(header + 1, bottom + 1):
            if row >= len(self._rows) or self._rows[row].disabled:
                return True
        return False

    def _scroll_to_row(self, index: int | None, force: bool = False) -> None:
        """Row ``index`` brought into sight at once (in the frame being made), by as little as it takes
        (``force``: even before a layout has shown the scroll bar that more rows call for)."""
        if index is None or not self.is_mounted:
            return
        height = self.scrollable_content_region.height
        top = self.scroll_offset.y
        if height <= 0 or top <= index < top + height:
            return
        self.scroll_to(y=index if index < top else index - height + 1, animate=False, immediate=True, force=force)

    def _highlight(self, option_id: str | None) -> None:
        index = self._index.get(option_id) if option_id is not None else None
        if index is None:
            index = next((i for i, row in enumerate(self._rows) if not row.disabled), None)
        if index is not None:
            if index < len(self._made):
                self._freshen(index)  # a folded group's row names its first member still up
            self.highlighted = index

    def _move(self, start: int, step: int) -> None:
        """The highlight on the first row from ``start`` on, in the direction of ``step``, that can be
        selected."""
        index = start
        while 0 <= index < len(self._rows):
            if not self._rows[index].disabled:
                self.highlighted = index
                return
            index += step

    def action_cursor_down(self) -> None:
        self._move(0 if self.highlighted is None else self.highlighted + 1, 1)

    def action_cursor_up(self) -> None:
        self._move(len(self._rows) - 1 if self.highlighted is None else self.highlighted - 1, -1)

    def action_first(self) -> None:
        self._move(0, 1)

    def action_last(self) -> None:
        self._move(len(self._rows) - 1, -1)

    def action_page_down(self) -> None:
        if not self._rows:
            return
        page = max(self.scrollable_content_region.height - 1, 1)
        start = min((self.highlighted or 0) + page, len(self._rows) - 1)
        self._move(start, 1)
        if self.highlighted is None or self.highlighted < start:
            self._move(start, -1)

    def action_page_up(self) -> None:
        if not self._rows:
            return
        page = max(self.scrollable_content_region.height - 1, 1)
        start = max((self.highlighted or 0) - page, 0)
        self._move(start, -1)
        if self.highlighted is None or self.highlighted > start:
            self._move(start, 1)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = self.scroll_offset.y + offset.y
        if 0 <= index < len(self._rows) and not self._rows[index].disabled:
            self.highlighted = index

    def selected_combatant(self) -> str | None:
        """The selected combatant: on a folded group's row, its first member still active."""
        option = self.highlighted_option
        if option is None or option.disabled or option.id is None:
            return None
        index = self.highlighted
        if index is not None and option.id.startswith(GROUP_PREFIX) and 0 <= index < len(self._rows):
            members = self._rows[index].members
            return members[0] if members else None
        return option.id.split("#")[0]
