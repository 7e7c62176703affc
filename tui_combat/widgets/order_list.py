"""The turn order: slots (everyone in a slot acts at once) with the combatants in each.

The acting slot is marked on its header ("▶─ 7 now"; "── 3 acted", "── 1 to come" for the others), so that a turn moving on changes one cell of two
rows however many combatants a slot holds. Each action changes a few rows at most, so :meth:`OrderList.show`
compares every row with what it shows and redraws only the rows that changed, and moving the highlight
redraws the two rows involved. The whole list is rebuilt only when its rows themselves change: a new
order, a combatant added or removed, a group folded or unfolded. Every row is one line (no wrapping), so
replacing a row never moves the others.

A group of more than :data:`FOLD_OVER` members (a mass battle) is folded into one row, "Orc ×480 · 3 down",
with its slot and the budget marker of its first member still up; a key unfolds it (or folds a small one).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.reactive import reactive
from textual.widgets import OptionList
from textual.visual import VisualType
from textual.widgets.option_list import Option

from tui_combat.engine.contract import AnyRuleset, BudgetLine
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, render
from tui_combat.engine.model import Combatant, Effect, State
from tui_combat.i18n import N_, _
from tui_combat.widgets.glyphs import glyph
from tui_combat.widgets.lines import changed_span, joined
from tui_combat.widgets.redraw import SteadyScrollBars

STATUS_MARK = {"active": "", "down": " ✝", "fled": " ↪", "surrendered": " ⚐"}
FILTER_ALL, FILTER_ACTING = "", "\0acting"
"""The list's filters besides a side's id: everyone, or only those acting now."""
FOLD_OVER = 12
"""A group of more members than this is shown folded into one row until the GM unfolds it."""
GROUP_PREFIX = "group-"


def status_mark(status: str) -> str:
    mark = STATUS_MARK.get(status, "")
    return f" {glyph(mark.strip())}" if mark else ""


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


def _line(combatant: Combatant, marker: str = "", budget: str = "", effects: tuple[Effect, ...] = ()) -> Text:
    style = "dim" if combatant.status != "active" else ""
    text = Text("  ")
    text.append(combatant.name, style=style)
    if combatant.hidden:  # kept from the players until revealed
        text.append(f" {glyph('⊘')}", style="bold yellow")
    text.append(f"  {combatant.hp}/{combatant.max_hp}{status_mark(combatant.status)}", style="dim" if style else "cyan")
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

    __slots__ = ("disabled", "key", "look", "members")

    def __init__(self, key: str, look: tuple[object, ...], disabled: bool = False,
                 members: tuple[str, ...] = ()) -> None:
        self.key = key
        self.look = look
        self.disabled = disabled
        self.members = members

    def prompt(self) -> Text:
        kind = self.look[0]
        if kind == "combatant":
            combatant, marker, budget, effects = self.look[1], self.look[2], self.look[3], self.look[4]
            assert isinstance(combatant, Combatant) and isinstance(marker, str) and isinstance(budget, str)
            assert isinstance(effects, tuple)
            return _line(combatant, marker, budget, effects)
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
            return Text.assemble((glyph("▶") if now else "─", "bold yellow" if now else "bold"), (f"─ {render(label)} {word}", "bold"))
        if kind == "idle":
            return Text(f"── {_('not in the order')} ", style="dim")
        return Text(f"── {self.look[1]} ", style="bold")


class RowOption(Option):
    """An option whose text is made the first time it is drawn: of 2,000 rows only those on screen are."""

    def __init__(self, row: Row) -> None:
        super().__init__("", id=row.key, disabled=row.disabled)
        self._row: Row | None = row

    @property
    def built(self) -> bool:
        """Its text was made: it may be on the terminal."""
        return self._row is None

    @property
    def prompt(self) -> VisualType:
        if self._row is not None:
            self._prompt, self._row = self._row.prompt(), None
        return self._prompt


def folded_groups(state: State, flipped: frozenset[str] = frozenset()) -> frozenset[str]:
    """The groups shown as one row: those of more than :data:`FOLD_OVER` members, unless the GM unfolded
    them, and the smaller ones he folded (``flipped``: the groups whose default the GM turned over)."""
    sizes: dict[str, int] = {}
    for combatant in state.combatants:
        if combatant.group:
            sizes[combatant.group] = sizes.get(combatant.group, 0) + 1
    return frozenset(group for group, size in sizes.items() if (size > FOLD_OVER) != (group in flipped))


def order_rows(state: State, in_resolve: bool, ruleset: AnyRuleset | None = None, shown: str = FILTER_ALL,
               window: tuple[tuple[int, int], ...] | None = None, folded: frozenset[str] = frozenset()) -> list[Row]:
    """The rows for ``state``: the order's slots with their combatants, then those not in the order; before
    any order, the sides with their combatants. In a resolve step, with the ``ruleset``, each slot header
    says where the round is ("acted", "now", "to come"), each combatant what he has left and any word of
    his own that differs from his slot's ("holds"). ``shown`` filters: a side's id, or :data:`FILTER_ACTING`.
    The groups in ``folded`` are one row each wherever their members stand together.
    What is left is worked out only for the rows ``window`` (ranges of first, last) covers, when given: those
    on the screen (a budget for each of 2,000 combatants on every action would cost more than the rest of the list)."""
    rows: list[Row] = []
    by_id = {combatant.id: combatant for combatant in state.combatants}  # one pass, not a search per line
    marked = in_resolve and ruleset is not None
    acting = set(state.acting_now()) if in_resolve else set()
    effects_on: dict[str, tuple[Effect, ...]] = {}
    for effect in state.effects:
        effects_on[effect.combatant] = (*effects_on.get(effect.combatant, ()), effect)

    def wanted(combatant: Combatant) -> bool:
        if shown == FILTER_ALL:
            return True
        if shown == FILTER_ACTING:
            return combatant.id in acting
        return combatant.side == shown

    def row(key: str, combatant: Combatant, slot: int | None, slot_word: str) -> Row:
        marker = budget = ""
        if marked and ruleset is not None:
            marker = ruleset.turn_marker(state, combatant.id, slot)
            marker = "" if marker == slot_word else marker
            visible = window is None or any(first <= len(rows) <= last for first, last in window)
            if combatant.status == "active" and visible:
                try:
                    budget = budget_marker(ruleset.budget(state, combatant.id))
                except RuleError:
                    budget = ""
        return Row(key, ("combatant", combatant, marker, budget, effects_on.get(combatant.id, ())))

    listed_groups: set[str] = set()

    def add_rows(members: list[Combatant], slot: int | None, slot_word: str, key_of: Callable[[Combatant], str]) -> None:
        """The rows of ``members`` (those wanted): a folded group once, where its first member stands."""
        by_group: dict[str, list[Combatant]] = {}
        for combatant in members:
            if combatant.group in folded and wanted(combatant):
                by_group.setdefault(combatant.group, []).append(combatant)
        for combatant in members:
            if not wanted(combatant):
                continue
            group = by_group.pop(combatant.group, None) if combatant.group in folded else None
            if group is None and combatant.group in folded:
                continue  # shown already in its group's row
            if group is None:
                rows.append(row(key_of(combatant), combatant, slot, slot_word))
                continue
            active = [c for c in group if c.status == "active"]
            first = active[0] if active else group[0]
            shown_row = row(first.id, first, slot, slot_word)
            _kind, _first, marker, budget, _effects = shown_row.look
            assert isinstance(marker, str) and isinstance(budget, str)
            key = GROUP_PREFIX + combatant.group
            key = key if combatant.group not in listed_groups else f"{key}#{slot}"
            listed_groups.add(combatant.group)
            members_first = tuple(c.id for c in active) + tuple(c.id for c in group if c.status != "active")
            rows.append(Row(key, ("group", group_name(group), len(group), _out_of_the_fight(group), marker, budget),
                            members=members_first))

    if state.order:
        listed: set[str] = set()
        for index, slot in enumerate(state.order):
            now = in_resolve and index == state.cursor
            members = [by_id[cid] for cid in slot.combatants if cid in by_id]
            if shown != FILTER_ALL and not any(wanted(c) for c in members):
                listed.update(slot.combatants)
                continue
            slot_word = ruleset.slot_marker(state, index) if marked and ruleset is not None else ""
            rows.append(Row(f"slot-{index}", ("slot", slot.label, now, slot_word), disabled=True))
            keys = {c.id: c.id if c.id not in listed else f"{c.id}#{index}" for c in members}
            listed.update(keys)
            add_rows(members, index, slot_word, lambda c: keys[c.id])
        idle = [c for c in state.combatants if c.id not in listed and wanted(c)]
        if idle:
            rows.append(Row("slot-idle", ("idle",), disabled=True))
            add_rows(idle, None, "", lambda c: c.id)
    else:
        for side in state.sides:
            members = [c for c in state.combatants if c.side == side.id and wanted(c)]
            if shown != FILTER_ALL and not members:
                continue
            rows.append(Row(f"side-{side.id}", ("side", side.name), disabled=True))
            add_rows(members, None, "", lambda c: c.id)
    return rows


class OrderList(SteadyScrollBars, OptionList):
    """Slot headers are disabled options; combatants are options whose id is the combatant id (with
    ``#slot`` after it when the combatant appears again in a later slot)."""

    DEFAULT_CSS = """
    OrderList { text-wrap: nowrap; text-overflow: ellipsis; }
    """

    highlighted: reactive[int | None] = reactive(None, repaint=False)
    """As in ``OptionList``, but a move redraws the two rows involved, not the whole list."""

    _turn: tuple[int, int, int, tuple[str, ...]] | None = None

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:  # noqa: A002
        super().__init__(name=name, id=id, classes=classes)
        self._rows: list[Row] = []
        self._index: dict[str, int] = {}
        """Option id, and combatant id (its first row), → index."""
        self.rebuilds = 0
        """How many times every row was rebuilt (a new order, a combatant added …); for tests."""
        self.rows_redrawn = 0
        """How many rows were redrawn one by one; for tests."""
        self.filter = FILTER_ALL
        """Who is listed: everyone, those acting now (:data:`FILTER_ACTING`), or one side (its id)."""
        self._shown_state: tuple[State, bool, AnyRuleset | None] | None = None
        self._window: tuple[int, int] = (0, 0)
        self.flipped: frozenset[str] = frozenset()
        """The groups the GM folded or unfolded, against their default (see :func:`folded_groups`)."""

    def selected_group(self) -> str | None:
        """The group of the selected row: a folded group's row, or a member of a group."""
        index = self.highlighted
        if index is None or self._shown_state is None or not 0 <= index < len(self._rows):
            return None
        row = self._rows[index]
        if row.key.startswith(GROUP_PREFIX):
            return row.key[len(GROUP_PREFIX):].split("#")[0]
        combatant = self.selected_combatant()
        state = self._shown_state[0]
        group = next((c.group for c in state.combatants if c.id == combatant), "") if combatant else ""
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

    # -- showing a state ------------------------------------------------------------------------------
    def show(self, state: State, in_resolve: bool, ruleset: AnyRuleset | None = None) -> None:
        selected = self.highlighted_option.id if self.highlighted_option is not None else None
        self._shown_state = (state, in_resolve, ruleset)
        self._window = self._visible_rows()
        # And where the list will scroll to when the turn moves on (the first of those acting now), so that
        # the rows it brings up are drawn once, with what they have left.
        acting = state.acting_now()
        at = self._index.get(acting[0]) if in_resolve and acting else None
        height = max(self.size.height, 24)
        rows = order_rows(state, in_resolve, ruleset, self.filter,
                          (self._window, (max(at - height, 0), at + height)) if at is not None else (self._window,),
                          folded_groups(state, self.flipped))
        if [(row.key, row.disabled) for row in rows] == [(row.key, row.disabled) for row in self._rows]:
            self._update_rows(rows)
        else:
            self._rebuild(rows)
        target = selected
        turn = (state.round, state.step, state.cursor, state.acting_now()) if in_resolve else None
        if turn is not None and turn != self._turn and state.order:
            # The turn moved on: select who acts now. Otherwise keep the GM's selection.
            acting = state.order[state.cursor].combatants if state.cursor < len(state.order) else ()
            if acting and (selected is None or selected.split("#")[0] not in acting):
                target = acting[0]
        self._turn = turn
        self._highlight(target)

    def _visible_rows(self) -> tuple[int, int]:
        """The rows on the screen now, and two more either side."""
        top = self.scroll_offset.y
        return max(top - 2, 0), top + max(self.size.height, 24) + 2

    def watch_scroll_y(self, old: float, new: float) -> None:
        """Scrolled: the rows now on the screen get what they have left (worked out for the rows shown only)."""
        super().watch_scroll_y(old, new)
        if self._shown_state is not None and self._visible_rows() != self._window:
            self.call_later(self._show_again)

    def _show_again(self) -> None:
        if self._shown_state is not None and self._visible_rows() != self._window:
            self.show(*self._shown_state)

    def _rebuild(self, rows: list[Row]) -> None:
        self.rebuilds += 1
        self._rows = rows
        self._index = {}
        for index, row in enumerate(rows):
            self._index[row.key] = index
            self._index.setdefault(row.key.split("#")[0], index)
            for member in row.members:
                self._index.setdefault(member, index)
        self.set_options([RowOption(row) for row in rows])

    def _update_rows(self, rows: list[Row]) -> None:
        """Same rows as shown: replace the options of those that look different, and redraw their lines."""
        old_rows = self._rows
        self._rows = rows
        for index, row in enumerate(rows):
            if row.look != old_rows[index].look:
                self._replace_option(index, row)

    def _replace_option(self, index: int, row: Row) -> None:
        """A new option object in place of the old one (rendered lines are cached per option object), and
        only the cells of its line that changed redrawn. ``OptionList.replace_option_prompt`` would drop
        every cached line instead."""
        old = self._options[index]
        new = RowOption(row)
        self._options[index] = new
        del self._option_to_index[old]
        self._option_to_index[new] = index
        if old.id is not None:
            self._id_to_option[old.id] = new
        self.rows_redrawn += 1
        if isinstance(old, RowOption) and old.built and self.is_mounted:
            console = self.app.console
            before, after = (Strip(list(option.prompt.render(console))) for option in (old, new))  # type: ignore[union-attr]
            span = changed_span(before, after, max(before.cell_length, after.cell_length))
            if span is not None:
                self._refresh_row(index, span)
            return
        self._refresh_row(index)

    def _refresh_row(self, index: int | None, cells: tuple[int, int] | None = None) -> None:
        """Redraw row ``index``: its ``cells`` (start, end) of the prompt, or the whole row (not the scroll
        bar beside it)."""
        if index is None or not self.is_mounted:
            return
        line = self._index_to_line.get(index)
        if line is None:
            return
        y = line - self.scroll_offset.y
        if cells is None:
            self.refresh(Region(0, y, self.scrollable_content_region.width, 1))
        else:
            left = self.get_component_styles("option-list--option").padding.left + self._get_left_gutter_width()
            self.refresh(Region(left + cells[0], y, cells[1] - cells[0], 1))

    def _update_lines(self) -> None:
        """Every row is one line (``text-wrap: nowrap``, no separators), so the line of row ``i`` is ``i``:
        no need to measure 2,000 rows, as ``OptionList`` does whenever its line cache is cleared."""
        if not self.scrollable_content_region:
            return
        cache = self._line_cache
        start, count = len(cache.lines), len(self._options)
        if start < count:
            cache.lines.extend((index, 0) for index in range(start, count))
            cache.heights.update((index, 1) for index in range(start, count))
            cache.index_to_line.update((index, index) for index in range(start, count))
        virtual_size = Size(self.scrollable_content_region.width - self._get_left_gutter_width(), count)
        if virtual_size != self.virtual_size:
            self.virtual_size = virtual_size
            self._scroll_update(virtual_size)

    def render_lines(self, crop: Region) -> list[Strip]:
        """Each line with as few pieces as it looks (see :func:`joined`; the list's text cannot be selected)."""
        return [joined(strip) for strip in super().render_lines(crop)]

    # -- the highlight --------------------------------------------------------------------------------
    def watch_highlighted(self, old: int | None, new: int | None) -> None:  # type: ignore[override]
        self._refresh_row(old)
        self._refresh_row(new)
        super().watch_highlighted(new)

    def _highlight(self, option_id: str | None) -> None:
        index = self._index.get(option_id) if option_id is not None else None
        if index is None:
            index = next((i for i, row in enumerate(self._rows) if not row.disabled), None)
        if index is not None:
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
