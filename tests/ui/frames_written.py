"""What an app's frames leave on a terminal (:class:`~tests.test_fewer_codes.Terminal`), each written as the app
writes it (with the fewest codes), beside the screen drawn whole: for the tests of what is redrawn of a screen."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.widget import Widget

from tests.test_fewer_codes import Terminal
from tui_combat.textual_ext.runs_by_look import with_fewest_codes


class FramesWritten:
    """Starts from the screen drawn whole; then every frame the app writes goes on :attr:`terminal`, and its size on
    :attr:`frames`."""

    def __init__(self, app: App[Any], widget: Widget) -> None:
        self.app, self.widget = app, widget
        self.terminal = self.whole()[0]
        self.frames: list[int] = []
        display = app._display

        def shown(on: Any, renderable: Any) -> None:
            if renderable is not None:
                output = with_fewest_codes(renderable.render_segments(app.console))
                self.frames.append(len(output))
                self.terminal.write(output)
            display(on, renderable)

        app._display = shown  # type: ignore[method-assign]

    def whole(self) -> tuple[Terminal, int]:
        """The screen drawn whole, every line of :attr:`widget` drawn anew (not those Textual keeps), and its
        bytes."""
        self.widget.refresh()
        update = self.app.screen._compositor.render_update(full=True)
        assert update is not None
        output = with_fewest_codes(update.render_segments(self.app.console))
        terminal = Terminal()
        terminal.write(output)
        return terminal, len(output)

    def shows_the_whole(self) -> bool:
        """The terminal shows, cell for cell and colour for colour, the screen drawn whole."""
        return bool(self.terminal.shown()[0] == self.whole()[0].shown()[0])
