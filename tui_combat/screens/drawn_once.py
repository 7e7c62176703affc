"""A modal screen drawn once when it appears, then only what changes in it (see :class:`DrawnOnce`)."""

from __future__ import annotations

from typing import Any

from textual import events


class DrawnOnce:
    """For a modal screen: drawn once when it appears, then only what changes in it. Textual draws a screen
    that appears, then marks all of it to be drawn again; and it repaints the whole screen when a screen's
    layout is refreshed (its own widgets mounted). A screen over another one draws the one behind it too, in
    every cell: each of those is some 17 KB sent to the terminal again right after the dialog appeared, slow
    over SSH. A resize, or coming back from under another screen, still draws it all."""

    _shown = False
    """The screen has appeared once: its first appearance lays it out, and that draws every cell."""
    _drawn_in_full = False

    def _on_screen_resume(self, event: events.ScreenResume) -> None:  # runs before Screen's own handler
        self._drawn_in_full, self._shown = not self._shown, True
        self.call_next(self._resumed)  # type: ignore[attr-defined]

    def _resumed(self) -> None:  # after Screen's handler
        if self._drawn_in_full:
            self._drawn_in_full = False
            self._repaint_required = False  # Textual's mark to draw the whole screen once more

    def refresh(self, *regions: Any, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Any:
        if layout and not regions and not recompose and self.is_mounted:  # type: ignore[attr-defined]
            repaint = False  # what moved is redrawn by the layout itself
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)  # type: ignore[misc]
