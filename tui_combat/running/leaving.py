"""Closing the open session, leaving it and quitting: nothing the disk refused is lost without asking, and
the app says, once it has given the terminal back, which session it saved and how to resume it
(:attr:`LeavingPart.left_session`, which ``tui-combat`` prints)."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from typing import NamedTuple

from tui_combat.i18n import _
from tui_combat.running.base import AppBase

EXIT_UNSAVED = 3
"""The exit status when the GM left although some actions could not be saved."""


class LeftSession(NamedTuple):
    """The session open when the app quit, as it is on disk now."""

    name: str
    key: str
    """Its folder's name."""
    read_only: bool
    """It was only read (another copy of the app had it, or it is damaged): nothing was written to it."""
    save_problem: str
    """Why its last actions could not be saved; "" when they were."""


class LeavingPart(AppBase):
    left_session: LeftSession | None = None
    """The session the app quit from; None when none was open, or when the one open was left empty and removed."""

    def close_store(self) -> None:
        """Save and close the open session; one started here and left untouched is removed instead (a new
        fight abandoned leaves nothing behind)."""
        from tui_combat.fight import session
        from tui_combat.saves.errors import SaveError

        if self.store is not None and session.discard_if_empty(self.store):
            if self._unsubscribe:
                self._unsubscribe()
        elif self.store is not None:
            try:
                self.store.save_now()
            except SaveError as error:
                self.notify(str(error), severity="error", timeout=10)
            self.store.close()
            if self._unsubscribe:
                self._unsubscribe()
        self.store = None
        self._show_read_only()

    def leave_session(self) -> None:
        """Back to the session list (the session is saved first; when it cannot be, the GM is asked)."""
        if not self._asks_before_losing_actions(self._leave):
            self._leave()

    def _leave(self) -> None:
        from tui_combat.screens.sessions import SessionsScreen

        self.close_store()
        self._phase_shown = ""
        self.pop_screen()
        if isinstance(self.screen, SessionsScreen):
            self.screen.reload()
        self._show_session_list()

    async def action_quit(self) -> None:
        if not self._asks_before_losing_actions(self._quit):
            self._quit()

    def _quit(self) -> None:
        store = self.store
        self.close_store()
        if store is not None and store.unsaved:  # the last save refused as well: the exit status says so
            self.lost_actions = True
        if store is not None and store.folder is not None and store.folder.folder.is_dir():
            self.left_session = LeftSession(
                store.state.name, store.folder.folder.name, store.read_only, store.save_problem if store.unsaved else ""
            )
        self.exit(return_code=EXIT_UNSAVED if self.lost_actions else 0)

    handles_hang_up: bool

    def on_mount(self) -> None:
        # (Textual calls this besides the app's own on_mount: each class's handler of a message runs.)
        if self.handles_hang_up:
            self._leave_on_hang_up()

    def _leave_on_hang_up(self) -> None:
        """A hang-up (the SSH connection dropped, the terminal window closed) or a request to stop (SIGTERM)
        saves the fight and leaves, as q does, without asking: nobody is there to answer. (Every action is on
        disk as it is taken; this compacts the journal and gives the terminal back, where one is left.)"""
        loop = asyncio.get_running_loop()
        for number in (signal.SIGHUP, signal.SIGTERM):
            loop.add_signal_handler(number, self._quit)

    def _asks_before_losing_actions(self, leave: Callable[[], None]) -> bool:
        """When the open session has actions the disk refused (one more save is tried first), ask the GM
        whether to ``leave`` all the same, and return True: ``leave`` runs only if he says so."""
        from tui_combat.saves.errors import SaveError
        from tui_combat.screens.dialogs import ConfirmDialog

        store = self.store
        if store is None or store.read_only or not store.unsaved:
            return False
        try:
            store.save_now()
        except SaveError:
            pass
        if not store.unsaved:
            return False
        if isinstance(self.screen, ConfirmDialog):
            return True  # already asking

        def answered(leave_anyway: bool | None) -> None:
            if leave_anyway:
                self.lost_actions = True
                leave()

        self.push_screen(
            ConfirmDialog(
                _("Some actions are not saved"),
                _(
                    "{problem}\nThe actions since then are only in memory: leaving now loses them.",
                    problem=store.save_problem,
                ),
                confirm=_("Leave without saving them"),
                cancel=_("Stay: the fight stays open"),
            ),
            answered,
        )
        return True
