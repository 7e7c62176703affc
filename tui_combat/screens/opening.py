"""What the app shows first when it was started on a session: one line while the session opens."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from tui_combat.i18n import _
from tui_combat.screens.host import host_of


class ShowsOpening:
    """A screen that says so while a session opens (the session list, the opening line)."""

    def show_opening(self, opening: bool) -> None:
        raise NotImplementedError


class OpeningScreen(ShowsOpening, Screen[None]):
    """What the app shows first when it was started on a session (``tui-combat resume NAME``, ``new FILE``):
    one line, drawn at once, instead of the whole session list; the list takes its place when that session
    is left, or could not be opened."""

    def __init__(self) -> None:
        super().__init__()
        self.held: list[events.Key] = []
        """Keys typed while the session opens, in order: they are for the fight (the app gives them to its
        screen once shown, and drops them if the session cannot be opened)."""

    def compose(self) -> ComposeResult:
        yield Static(Text(_("Opening the session…")), id="opening-hint")

    def hold_key(self, event: events.Key) -> bool:
        """Hold a key typed while the session opens, unless the app's own key (ctrl+q quits at once)."""
        if not host_of(self).opening:
            return False
        active = self.app.active_bindings.get(event.key)
        if active is not None and active.binding.priority:
            return False
        self.held.append(events.Key(event.key, event.character))
        return True

    def take_held(self) -> list[events.Key]:
        keys, self.held = self.held, []
        return keys

    def show_opening(self, opening: bool) -> None:
        """It takes a while: a loading indicator under the line."""
        from textual.widgets import LoadingIndicator

        if opening and not self.query(LoadingIndicator):
            self.mount(LoadingIndicator())
        elif not opening:
            self.query(LoadingIndicator).remove()
