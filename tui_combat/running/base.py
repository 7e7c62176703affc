"""What the parts of the app share: the GM's folders and settings, and the open session."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App
from textual.driver import Driver

if TYPE_CHECKING:
    from tui_combat.fight.store import Store


class AppBase(App[None]):
    data_root: Path
    seed: int | None
    settings_path: Path
    store: Store | None
    lost_actions: bool
    _unsubscribe: Callable[[], None] | None
    _phase_shown: str

    if TYPE_CHECKING:  # the app's own, and the settings part's

        def _opened(self, store: Store) -> None: ...

        def _show_read_only(self) -> None: ...

        def _first_screen_drawn(self) -> None: ...

        def action_settings(self) -> None: ...

    def get_driver_class(self) -> type[Driver]:
        from tui_combat.textual_ext.terminal_driver import kept_driver

        return kept_driver(super().get_driver_class())

    def _show_session_list(self) -> None:
        """Over the :class:`OpeningScreen` the app started on, once the session list is needed (that screen
        stays under it, never seen again)."""
        from tui_combat.screens.opening import OpeningScreen
        from tui_combat.screens.sessions import SessionsScreen

        if isinstance(self.screen, OpeningScreen):
            self.push_screen(SessionsScreen())
