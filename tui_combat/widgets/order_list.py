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

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Self

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip

from tui_combat.engine.contract import AnyRuleset
from tui_combat.engine.model import State
from tui_combat.textual_ext.scroll_bars import SteadyScrollBars
from tui_combat.widgets.lines import changed_span, joined
from tui_combat.widgets.order_rows import (
    FILTER_ACTING,
    FILTER_ALL,
    GROUP_PREFIX,
    BudgetInputs,
    Census,
    Looks,
    Row,
    RowView,
    Spot,
    changed_combatants,
    folded_groups,
    layout,
)
from tui_combat.widgets.plain_lines import FinishedLines, plain_look
from tui_combat.widgets.scroll_thumb import ThumbMovesAlone


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
        self._finished = FinishedLines()
        """Each row's line as the screen shows it: padded, filtered (see :meth:`render_lines`)."""
        self._row_styles: dict[tuple[str, Style], Style] = {}
        """The style of a disabled or a highlighted row over each base style, while the list's styles are the
        same (see :meth:`_row_style`)."""
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
        self._finished.clear()
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
        self._finished.clear()
        self._set_virtual_size()
        # Laid out for the first time (a fight resumed: the state was shown before the list had a height) or at
        # a new size of the terminal: the slot acting now, and the row selected, in sight.
        if self._turn is not None:
            self._bring_slot_into_sight(self._turn[2], self.highlighted)
        else:
            self._scroll_to_row(self.highlighted)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.clear()
        self._finished.clear()
        self._row_styles.clear()

    # -- drawing ---------------------------------------------------------------------------------------
    _drawing: tuple[int, Style] | None = None
    """The width and the base style of the lines being drawn (see :meth:`render_lines`)."""

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines of ``crop``, their width and base style worked out once for all of them: Textual works the
        style out from every widget above the list each time it is asked (some 0.1 ms; a page of the list
        that comes into sight draws 21 lines). Finished here, as Textual would (:mod:`plain_lines`), while the
        list looks plain: its side padding and background."""
        self._drawing = (self.scrollable_content_region.width, self.rich_style)
        try:
            look = plain_look(self)
            if look is None:
                return super().render_lines(crop)
            return self._finished.lines(crop, look, self.render_line, first=self.scroll_offset.y)
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
            style = self._row_style("order-list--disabled", style)
        if highlighted:
            style = self._row_style("order-list--highlighted", style)
        text = row.text()
        if text.cell_len > width:
            text = text.copy()
            text.truncate(width, overflow="ellipsis")
        segments = Segment.apply_style(text.render(self.app.console), style)
        strip = joined(Strip(list(segments)).extend_cell_length(width, style).crop(0, width))
        self._lines[index] = (row, width, highlighted, base, strip)
        return strip

    def _row_style(self, component: str, base: Style) -> Style:
        """``base`` with the style of ``component`` over it. Textual forgets the styles of a widget's parts at
        each refresh of it, and every next turn refreshes two rows: working them out again took some 0.1 ms
        each. They change only when the list is restyled (:meth:`notify_style_update`: the focus, the theme)."""
        key = (component, base)
        style = self._row_styles.get(key)
        if style is None:
            style = self._row_styles[key] = base + self.get_component_rich_style(component)
        return style

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
        self.uncovered()

    def uncovered(self) -> None:
        """Nothing lies over the foot of the list any more: the rows scrolled up above it go back down."""
        if self._foot_lines:
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
