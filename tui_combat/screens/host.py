"""What the screens need from the app that runs them, as a protocol: the screens never import the app.

:class:`~tui_combat.app.CombatApp` satisfies it; a test can run a screen on any app that does.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from textual.notifications import SeverityLevel
from textual.screen import Screen

if TYPE_CHECKING:
    from tui_combat.engine.actions import Action
    from tui_combat.fight.store import Store


@runtime_checkable
class Host(Protocol):
    data_root: Path
    """Where sessions are saved."""
    seed: int | None
    """The dice seed for new sessions (None: a random one)."""

    @property
    def store(self) -> Store | None:
        """The open session, if any."""

    def dispatch(self, action: Action) -> bool:
        """Apply ``action`` to the open session; a refusal is shown to the GM and gives False."""

    def refusal(self, action: Action) -> str | None:
        """Apply ``action`` to the open session: None when it was applied, else why not (for a form to show,
        which then stays open; nothing is notified)."""

    def undo(self) -> None: ...

    def redo(self) -> None: ...

    @property
    def opening(self) -> bool:
        """A session is being opened."""

    def open_session(self, opener: Callable[[], Store]) -> None:
        """Open the session ``opener`` makes (a :mod:`tui_combat.fight.session` call) and show it; a
        :class:`~tui_combat.fight.session.SessionError` is shown to the GM."""

    def leave_session(self) -> None:
        """Save, close the session and go back to the session list."""

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...


def host_of(screen: Screen[Any]) -> Host:
    """The app running ``screen``, as the screens see it."""
    app = screen.app
    if not isinstance(app, Host):
        raise TypeError(f"{type(app).__name__} does not provide what the screens need (screens.host.Host)")
    return app
