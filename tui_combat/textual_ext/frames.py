"""Screens that send the terminal only what changed: a layout redraws what moved (:class:`LaidOutInPlace`),
and a modal screen is drawn whole once when it appears (:class:`DrawnOnce`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual import events
from textual._compositor import ChopsUpdate, Compositor, ReflowResult
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget


class ArrangedOnce(Compositor):
    """Textual's compositor arranges the whole screen anew after each layout that shows a widget hidden
    until then (a prompt, a form): a refresh of that widget marks its map of every widget out of date, and
    the layout that follows makes a new map but leaves it marked, so the next question of where a widget is
    arranges the screen a second time. The map a layout has just made is up to date.

    A frame of what changed asks only the widgets that changed cells lie on for their lines: Textual asks
    every widget in the rectangle around all of them, which for a next turn (two rows of the list, the
    card) is every widget of the screen, the footer and the log among them, each a tenth of a millisecond.
    Cells between the changed ones are left as the terminal has them."""

    _changed: list[Region] | None = None
    """The regions changed, while a frame of them is made."""

    def render_partial_update(self) -> ChopsUpdate | None:
        self._changed = list(self._dirty_regions)
        try:
            return super().render_partial_update()
        finally:
            self._changed = None

    def _get_renders(self, crop: Region | None = None) -> Iterable[tuple[Region, Region, list[Strip]]]:
        changed = self._changed
        if not changed:
            return super()._get_renders(crop)
        shown = self.visible_widgets
        self._visible_widgets = {
            widget: (region, clip) for widget, (region, clip) in shown.items()
            if any(part.overlaps(region.intersection(clip)) for part in changed)}
        try:
            return list(super()._get_renders(crop))
        finally:
            self._visible_widgets = shown

    def reflow(self, parent: Widget, size: Size) -> ReflowResult:
        result = super().reflow(parent, size)
        self._full_map_invalidated = False
        return result

    @property
    def visible_widgets(self) -> dict[Widget, tuple[Region, Region]]:
        """Textual's, less the widgets wholly under one that lies over the screen's others on a layer of its
        own (the prompt or a form over the footer). Nothing of them can be seen: Textual draws the top widget
        of each cell. Left in, each one cuts the lines it is on where it begins and ends, and every piece of
        the line over it goes out with its own cursor move and colours (the prompt's line twice its bytes)."""
        if self._visible_widgets is None:
            shown = super().visible_widgets
            geometry = self._visible_map if self._visible_map is not None else self._full_map
            covers: list[Region] = []
            seen: dict[Widget, tuple[Region, Region]] = {}
            for widget, (region, clip) in shown.items():  # (the top first: a widget's own come before it)
                showing = region.intersection(clip)
                if any(cover.contains_region(showing) for cover in covers):
                    continue
                seen[widget] = (region, clip)
                order = geometry[widget].order
                if len(order) == 2 and order[1][0] > 0:  # on the screen, on a layer over its first
                    covers.append(showing)
            self._visible_widgets = seen
        return self._visible_widgets


class LaidOutInPlace:
    """Textual repaints every cell of a screen when the screen's layout is refreshed (a widget of it mounted,
    a screen closed over it), and when the focus moves: a whole frame, some 17 KB, sent to the terminal
    again. A layout redraws the widgets that moved, appeared or went, and the widgets that gain and lose the
    focus redraw themselves, which is all that changed."""

    _moving_focus = False
    _compositor: Compositor

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._compositor = ArrangedOnce()

    def set_focus(self, widget: Any, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        self._moving_focus = True
        try:
            super().set_focus(widget, scroll_visible, from_app_focus)  # type: ignore[misc]
        finally:
            self._moving_focus = False

    def refresh(self, *regions: Any, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Any:
        if not (regions or recompose) and self.is_mounted:  # type: ignore[attr-defined]
            if layout:
                repaint = False
            elif self._moving_focus:
                return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)  # type: ignore[misc]


class DrawnOnce(LaidOutInPlace):
    """For a modal screen: drawn once when it appears, then only what changes in it. Textual draws a screen
    that appears, then marks all of it to be drawn again (and lays it out again once its widgets are
    mounted); a screen over another one draws the one behind it too, in every cell, slow over SSH. A resize,
    or coming back from under another screen, still draws it all."""

    _shown = False
    """The screen has appeared once: its first appearance lays it out, and that draws every cell."""
    _drawn_in_full = False
    """Set while Textual's handler of the first appearance runs: its repaint of every cell comes after the
    layout that drew them, so it is dropped."""

    def _on_screen_resume(self, event: events.ScreenResume) -> None:  # runs before Screen's own handler
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
