"""Opening a session in a worker thread, and saying so on screen when it takes a while."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual import events
from textual.timer import Timer
from textual.worker import Worker, WorkerState

from tui_combat.i18n import _
from tui_combat.running.base import AppBase

if TYPE_CHECKING:
    from tui_combat.fight.session import SessionError
    from tui_combat.fight.store import Store

LOADING_AFTER = 0.3
"""Seconds a session may take to open before the screen says it is still working on it."""


class OpeningPart(AppBase):
    _opening: Worker[Store | SessionError] | None
    _loading_timer: Timer | None

    @property
    def opening(self) -> bool:
        """A session is being opened (in a worker thread)."""
        return self._opening is not None

    def open_session(self, opener: Callable[[], Store]) -> None:
        """Open the session ``opener`` makes, in a worker thread: a long resume or rebuild never stops the
        screen, and when it takes more than :data:`LOADING_AFTER` seconds the screen says it is working."""
        if self._opening is not None:
            self.notify(_("A session is being opened: one moment."), severity="warning", timeout=4)
            return
        self._opening = self.run_worker(
            partial(_open, opener), name="open-session", group="session", thread=True, exit_on_error=False
        )
        self._loading_timer = self.set_timer(LOADING_AFTER, partial(self._show_opening, True))

    def _show_opening(self, opening: bool) -> None:
        from tui_combat.screens.opening import ShowsOpening

        if opening and self._opening is None:  # the timer fired, but the session opened before it was handled
            return

        for screen in self.screen_stack:
            if isinstance(screen, ShowsOpening):
                screen.show_opening(opening)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        from tui_combat.fight.session import SessionError

        worker = event.worker
        if worker is not self._opening or event.state not in (
            WorkerState.SUCCESS,
            WorkerState.ERROR,
            WorkerState.CANCELLED,
        ):
            return
        self._opening = None
        self.call_after_refresh(self._first_screen_drawn)
        if self._loading_timer is not None:
            self._loading_timer.stop()
        self._show_opening(False)
        result = worker.result
        if event.state == WorkerState.ERROR:  # a bug must not end the app: say what it was
            self.notify(_("Unexpected error: {error}", error=repr(worker.error)), severity="error", timeout=15)
        elif isinstance(result, SessionError):
            self.notify(str(result), title=result.title, severity="error", timeout=15)
        elif result is not None:
            held = self._keys_held_while_opening()
            self._opened(result)
            if held:  # given once the fight's screen is drawn, in the app's turn, as typed
                self.call_after_refresh(self.call_later, self._give_keys, held)
            return
        self._keys_held_while_opening()  # they were for the fight
        self._show_session_list()

    def _keys_held_while_opening(self) -> list[events.Key]:
        from tui_combat.screens.opening import OpeningScreen

        return [key for screen in self.screen_stack if isinstance(screen, OpeningScreen) for key in screen.take_held()]

    async def _give_keys(self, keys: list[events.Key]) -> None:
        for key in keys:
            await self.on_event(key)


def _open(opener: Callable[[], Store]) -> Store | SessionError:
    """Run in the worker thread: the store, or the refusal to show."""
    from tui_combat.engine import registry
    from tui_combat.fight.session import SessionError
    from tui_combat.rulesets import BUILT_IN

    registry.know(BUILT_IN)
    try:
        store = opener()
    except SessionError as error:
        return error
    _screen_module(store.state.phase)  # imported here, not while the main thread draws
    return store


def _screen_module(phase: str) -> None:
    if phase in ("round", "over"):
        import tui_combat.screens.round
    elif phase == "surprise":
        import tui_combat.screens.surprise
    else:
        import tui_combat.screens.setup  # noqa: F401
