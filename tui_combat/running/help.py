"""Help (F1): the keys of the screen it is opened over, kept made for that screen."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ScreenStackError

from tui_combat.running.base import AppBase

if TYPE_CHECKING:
    from tui_combat.screens.help import HelpScreen


class HelpPart(AppBase):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._help: HelpScreen | None = None
        """The help last opened, kept for the screen it is about (see :meth:`action_help`)."""

    def action_help(self) -> None:
        from tui_combat.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        show_help = getattr(self.screen, "show_help", None)
        if show_help is not None:  # a help of the screen's own (the round's, a panel over it)
            show_help()
            return
        kept = self._help if self._help is not None and self._help.target is self.screen else None
        if kept is None:
            if self._help is not None:
                try:
                    self.uninstall_screen(self._help)
                except ScreenStackError:  # still open under another screen: it goes when that closes
                    pass
            # Kept installed once made: made and laid out anew, the help took some 70 ms to open.
            kept = self._help = HelpScreen(self.screen)
            self.install_screen(kept, name=f"help-{id(kept)}")
        self.push_screen(kept)
