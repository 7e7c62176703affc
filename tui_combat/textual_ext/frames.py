"""Screens that send the terminal only what changed: a layout redraws what moved (:class:`LaidOutInPlace`),
and a modal screen is drawn whole once when it appears (:class:`DrawnOnce`).

Private names of Textual relied on, each checked by ``tests/test_textual_ext.py``: ``textual._compositor.
Compositor`` and its ``_full_map_invalidated`` flag, a screen's ``_compositor``, a screen's and a widget's
``_repaint_required`` mark. With ``TUI_COMBAT_STOCK_TEXTUAL`` set, none is touched and Textual draws as it
does (see :mod:`tui_combat.textual_ext`)."""

from __future__ import annotations

from typing import Any

from textual import messages
from textual._compositor import Compositor
from textual.geometry import Region, Size
from textual.scrollbar import ScrollBar
from textual.widget import Widget

from tui_combat.textual_ext import stock_textual
from tui_combat.textual_ext.exact_cuts import from_the_first_change


class ArrangedOnce(Compositor):
    """Upstream: Textual's compositor arranges the whole screen anew after each layout that shows a widget
    hidden until then (a prompt, a form): a refresh of that widget marks its map of every widget out of date,
    and the layout that follows makes a new map but leaves it marked, so the next question of where a widget
    is arranges the screen a second time. The map a layout has just made is up to date.

    Upstream too: a widget redrawn that is not on the screen marks the map out of date (it may be new), and the
    next question of where a widget is arranges the whole screen; a scroll bar kept hidden is redrawn at each
    scroll of its widget (the round's log at each line added). One the screen never draws is not new to it.

    Upstream too: a frame of what changed asks every widget in the rectangle around all the changes for its
    lines, which for a next turn (two rows of the list, the card) is every widget of the screen, the footer
    and the log among them, and cuts every line of theirs. When nothing was scrolled since the last frame, the
    frame asks only the widgets that lie on the widgets redrawn and on those a layout moved, showed or hid (where
    each widget lies, compared before and after the layout), and each only for its lines from the first of
    those over it to the last (through the public ``update_widgets``, ``reflow``, ``render_partial_update``,
    ``render_full_update``, ``cuts`` and ``visible_widgets``); cells between them are left as the terminal has
    them. The prompt opening asked the whole screen for its 24 lines, and the frame after a whole one (the round
    screen drawn again as a dialog closes) asked every widget around the changes.

    And upstream: a frame asks for their lines the widgets that lie wholly under others (the whole screen under
    the help, the form at the foot under its lines and rows side by side), or whose lines it redraws do (the
    turn list and the log under that form as it opens), then throws them away. A frame asks only the widgets
    that some of the cells it redraws show (:class:`Cover`); and
    each line of it is written from the first cell that changed (:mod:`~tui_combat.textual_ext.exact_cuts`)."""

    _redrawn: list[Region] | None = None
    """Where the widgets redrawn, moved, shown or hidden since the last frame lie, when nothing was scrolled
    meanwhile."""
    _narrowed: list[Region] | None = None
    """Set while a frame of what changed is made: the regions its widgets must lie on."""
    _narrowed_widgets: dict[Widget, tuple[Region, Region]] | None = None
    _rendering = False
    """Set while a frame is made."""
    _uncovered: tuple[dict[Widget, tuple[Region, Region]], dict[Widget, tuple[Region, Region]]] | None = None
    """The widgets in sight, and those of them that no other widget covers whole (worked out once a layout)."""

    def reflow(self, parent: Widget, size: Size) -> Any:
        before = dict(super().visible_widgets) if self._redrawn is not None else None
        result = super().reflow(parent, size)
        self._full_map_invalidated = False
        if before is not None and self._redrawn is not None:
            after = super().visible_widgets
            self._redrawn.extend(
                region.intersection(clip)
                for widgets, others in ((before, after), (after, before))
                for widget, (region, clip) in widgets.items()
                if others.get(widget) != (region, clip)
            )
        return result

    def reflow_visible(self, parent: Widget, size: Size) -> set[Widget]:
        self._redrawn = None
        return super().reflow_visible(parent, size)

    def update_widgets(self, widgets: set[Widget]) -> None:
        shown = super().visible_widgets
        unseen = [widget for widget in widgets if widget not in shown]
        if unseen and all(never_drawn(widget) for widget in unseen):
            widgets = widgets.difference(unseen)
        if self._redrawn is not None:
            self._redrawn.extend(
                region.intersection(clip) for widget, (region, clip) in shown.items() if widget in widgets
            )
        super().update_widgets(widgets)

    def render_partial_update(self) -> Any:
        if self._redrawn:
            _cuts = self.cuts  # (where each widget starts and ends on each line: from every widget, and kept)
        self._narrowed, self._narrowed_widgets = self._redrawn, None
        self._rendering = True
        try:
            return from_the_first_change(super().render_partial_update())
        finally:
            self._narrowed = self._narrowed_widgets = None
            self._redrawn = []
            self._rendering = False

    def render_full_update(self, simplify: bool = False) -> Any:
        self._rendering = True
        try:
            return super().render_full_update(simplify)
        finally:
            self._rendering = False
            self._redrawn = []  # every cell drawn: the next frame goes on from there (a screen shown again)

    @staticmethod
    def uncovered(shown: dict[Widget, tuple[Region, Region]]) -> dict[Widget, tuple[Region, Region]]:
        """``shown`` (the widgets in sight, the one on top first, as Textual paints them) without those that lie
        wholly under the widgets above them (one, or several side by side: a form under its rows): none of their
        cells shows."""
        above = Cover()
        kept = {}
        for widget, (region, clip) in shown.items():
            seen = region.intersection(clip)
            if seen and above.holds(seen):
                continue
            kept[widget] = (region, clip)
            if seen:
                above.add(seen)
        return kept

    @property
    def visible_widgets(self) -> dict[Widget, tuple[Region, Region]]:
        shown = super().visible_widgets
        if self._rendering:
            known = self._uncovered
            if known is None or known[0] is not shown:
                known = self._uncovered = (shown, self.uncovered(shown))
            shown = known[1]
        narrowed = self._narrowed
        if not narrowed:
            return shown
        if self._narrowed_widgets is None:
            self._narrowed_widgets = {}
            narrowed = outermost(narrowed)  # (a layout gives a form and each of its parts: the form says it all)
            above = Cover()
            for widget, (region, clip) in shown.items():  # (the one on top first)
                seen = region.intersection(clip)
                parts = [part for part in narrowed if part.overlaps(seen)]
                if not parts:
                    continue
                # Not asked at all when each of its cells to redraw lies under a widget drawn over it: the turn
                # list and the log under the form at the foot as it opens, the screen and the boxes behind the
                # list and the card as a turn moves on.
                if all(above.holds(part.intersection(seen)) for part in parts):
                    continue
                # Asked for the lines from the first redrawn over it to the last only.
                top, bottom = min(part.y for part in parts), max(part.bottom for part in parts)
                band = Region(clip.x, top, clip.width, bottom - top)
                self._narrowed_widgets[widget] = (region, clip.intersection(band))
                drawn = region.intersection(clip.intersection(band))
                if drawn:
                    above.add(drawn)
        return self._narrowed_widgets


def outermost(regions: list[Region]) -> list[Region]:
    """``regions`` without the empty ones and those that lie inside the ones kept: the same cells, the largest
    first."""
    kept: list[Region] = []
    cover = Cover()
    for region in sorted(set(regions), key=lambda region: region.area, reverse=True):
        if region and not cover.holds(region):
            kept.append(region)
            cover.add(region)
    return kept


class Cover:
    """The cells of the regions added so far, each line of the screen a bit mask of its columns: whether they
    hold all of a region is one mask compared a line, however many regions lie side by side."""

    def __init__(self) -> None:
        self._lines: dict[int, int] = {}

    @staticmethod
    def _mask(region: Region) -> int:
        left = max(region.x, 0)
        return ((1 << max(region.right - left, 0)) - 1) << left

    def add(self, region: Region) -> None:
        mask = self._mask(region)
        lines = self._lines
        for y in range(region.y, region.bottom):
            lines[y] = lines.get(y, 0) | mask

    def holds(self, region: Region) -> bool:
        mask = self._mask(region)
        lines = self._lines
        return all(lines.get(y, 0) & mask == mask for y in range(region.y, region.bottom))


def never_drawn(widget: Widget) -> bool:
    """Whether ``widget`` is none the screen draws, nor one a layout would place: hidden (itself or a container
    of it), or a scroll bar its widget keeps hidden."""
    if isinstance(widget, ScrollBar):
        return widget.parent is not None and widget.parent.styles.scrollbar_visibility == "hidden"
    return not all(node.display for node in widget.ancestors_with_self)


class LaidOutInPlace:
    """Upstream: Textual repaints every cell of a screen when the screen's layout is refreshed (a widget of it
    mounted, a screen closed over it), and when the focus moves: a whole frame, some 17 KB, sent to the
    terminal again. A layout redraws the widgets that moved, appeared or went, and the widgets that gain and
    lose the focus redraw themselves, which is all that changed. (``refresh`` and ``set_focus`` are public;
    the compositor put in place is not.)"""

    _compositor: Compositor
    _moving_focus = False
    _in_place = True
    """False on stock Textual: the screen refreshes as Textual's own."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_place = not stock_textual()
        if self._in_place:
            self._compositor = ArrangedOnce()

    def set_focus(self, widget: Any, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        self._moving_focus = True
        try:
            super().set_focus(widget, scroll_visible, from_app_focus)  # type: ignore[misc]
        finally:
            self._moving_focus = False

    def refresh(self, *regions: Any, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Any:
        if self._in_place and not (regions or recompose) and self.is_mounted:  # type: ignore[attr-defined]
            if layout:
                repaint = False
            elif self._moving_focus:
                return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)  # type: ignore[misc]


class DrawnOnce(LaidOutInPlace):
    """For a modal screen: drawn once when it appears, then only what changes in it. Upstream: Textual draws
    a screen that appears, then marks all of it to be drawn again (its handler of ScreenResume, which runs
    after ours, repaints every cell once the layout has drawn them); a screen over another one draws the one
    behind it too, in every cell, slow over SSH. A resize, or coming back from under another screen, still
    draws it all."""

    _shown = False
    """The screen has appeared once: its first appearance lays it out, and that draws every cell."""
    _drawn_in_full = False
    """Set while Textual's handler of the first appearance runs: its repaint of every cell comes after the
    layout that drew them, so it is dropped."""

    def on_screen_resume(self) -> None:  # runs before Screen's own handler of ScreenResume
        if not self._in_place:
            return
        self._drawn_in_full, self._shown = not self._shown, True
        self.call_next(self._resumed)  # type: ignore[attr-defined]

    def _resumed(self) -> None:
        self._drawn_in_full = False

    def refresh(self, *regions: Any, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Any:
        if self._drawn_in_full and not (regions or layout or recompose):
            self._drawn_in_full = False
            self._repaint_required = False  # also the marks left by changes made before the layout drew it
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


def told_at_once(widget: Widget) -> None:
    """Upstream: a widget restyled (a list field's parts as the field gains the focus) tells its screen of its
    new look when it next idles, which may come after the screen has drawn the frame of the key that
    restyled it (a form opened: its list field drawn focused in a second frame, some 20 ms later). Its
    screen told now (the screen's public ``Update`` message), it makes that frame; and its own telling later,
    which would draw it again as it is in a frame of its own, is dropped (the widget's ``_repaint_required``
    mark, which a refresh of it made after this sets again). For a widget restyled already (its styles
    worked out: the public ``update_node_styles``). Nothing on stock Textual."""
    if not stock_textual() and widget.is_mounted and widget.display:
        widget.screen.post_message(messages.Update(widget))
        widget._repaint_required = False
