"""The Textual app: holds the open session's store, shows the screen for its phase, reports problems.

Starting, resuming and saving sessions is :mod:`tui_combat.fight.session`; opening one in a worker, leaving it,
dispatching to it, the settings and the palette are the app's parts in :mod:`tui_combat.running`. The
screens reach the app only through :class:`~tui_combat.screens.host.Host`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events
from textual.binding import Binding
from textual.filter import LineFilter, Monochrome, NoColor
from textual.screen import Screen
from textual.scrollbar import ScrollBar
from textual.timer import Timer
from textual.worker import Worker

from tui_combat.engine.keys import APP_KEYS
from tui_combat.i18n import N_, _
from tui_combat.i18n.textual_words import PALETTE_KEY, PALETTE_TOOLTIP
from tui_combat.running.collecting import CollectingPart
from tui_combat.running.dispatching import READ_ONLY_KEYS, DispatchPart
from tui_combat.running.help import HelpPart
from tui_combat.running.leaving import EXIT_UNSAVED, LeavingPart
from tui_combat.running.notices import NoticesPart
from tui_combat.running.opening import LOADING_AFTER, OpeningPart
from tui_combat.running.palette import PalettePart
from tui_combat.running.settings import SettingsPart
from tui_combat.screens import screen_for_phase
from tui_combat.widgets.harmless import with_harmless
from tui_combat.widgets.scroll_thumb import BarStrips

if TYPE_CHECKING:  # the engine loads when a session opens, not before the first frame
    from tui_combat.engine.model import State
    from tui_combat.fight.session import SessionError
    from tui_combat.fight.store import Store

__all__ = ["EXIT_UNSAVED", "LOADING_AFTER", "READ_ONLY_KEYS", "CombatApp"]


class CombatApp(
    OpeningPart, LeavingPart, DispatchPart, SettingsPart, PalettePart, NoticesPart, HelpPart, CollectingPart
):
    CSS_PATH = ["app.tcss", "screens/sessions.tcss"]  # (the first screen's: Textual reads a screen's when pushed)
    TITLE = "tui-combat"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = [
        Binding(APP_KEYS["app.help"], "help", N_("Help"), id="app.help"),
        Binding(APP_KEYS["app.settings"], "settings", N_("Settings"), id="app.settings", show=False),
        Binding("ctrl+q", "quit", N_("Quit"), id="app.quit", show=False, priority=True),
        Binding(
            "ctrl+p", "command_palette", PALETTE_KEY, show=False, priority=True, tooltip=PALETTE_TOOLTIP
        ),  # Textual's own palette key (no id: help lists it apart), in the GM's language
    ]

    def __init__(
        self,
        data_root: Path,
        *,
        resume: str | None = None,
        encounter: Path | None = None,
        seed: int | None = None,
        settings_path: Path | None = None,
        collects_between_keys: bool = False,
        handles_hang_up: bool = False,
    ) -> None:
        super().__init__()
        ScrollBar.renderer = BarStrips  # every scroll bar's cells made without Rich's console (Textual's own hook)
        self.collects_between_keys = collects_between_keys
        self.handles_hang_up = handles_hang_up
        from tui_combat.settings.config import settings_path as default_settings_path

        self.settings_path = settings_path or default_settings_path()
        """The GM's ``settings.toml``: theme and keymap applied at start, written by the settings screen."""
        self._no_color_filter = NoColor()
        self.data_root = data_root
        self.seed = seed
        self.store: Store | None = None
        self._start_resume = resume
        self._start_encounter = encounter
        self._unsubscribe: Callable[[], None] | None = None
        self._phase_shown = ""
        self._reported_problem = ""
        self._opening: Worker[Store | SessionError] | None = None
        self._loading_timer: Timer | None = None
        self.lost_actions = False
        """The GM left a session although some of its actions could not be saved: the exit status says so."""

    def get_default_screen(self) -> Screen[None]:
        if self._start_resume or self._start_encounter:
            from tui_combat.screens.opening import OpeningScreen

            return OpeningScreen()
        from tui_combat.screens.sessions import SessionsScreen

        return SessionsScreen()

    def get_line_filters(self) -> Sequence[LineFilter]:
        """NO_COLOR: no colour code at all (Textual's own answer is a grey scale, still in colour codes); bold,
        reverse and underline stay, and the stylesheet marks highlights with them. Last, no control character of
        a name saved before such names were refused reaches the terminal (:mod:`tui_combat.widgets.harmless`)."""
        filters = super().get_line_filters()
        if self.no_color:
            filters = [*(each for each in filters if not isinstance(each, Monochrome)), self._no_color_filter]
        return with_harmless(filters)

    def on_mount(self) -> None:
        from tui_combat.fight import session

        self.apply_settings()
        if self._start_resume:
            self.open_session(partial(session.resume, self.data_root, self._start_resume))
        elif self._start_encounter:
            self.open_session(partial(session.new_from_file, self.data_root, self._start_encounter, seed=self.seed))
        else:
            self.call_after_refresh(self._first_screen_drawn)

    def _opened(self, store: Store) -> None:
        self.close_store()
        self.store = store
        self._ruleset_in_play(store.state)
        store.sync_later = True  # fsynced once the frame of each action is drawn (:meth:`_sync_store`)
        self._unsubscribe = store.subscribe(self._on_state)
        for warning in store.warnings:
            self.notify(warning, severity="warning", timeout=8)
        self._report_save_problem()
        self._show_read_only()
        self._phase_shown = ""
        self._show_phase(store.state, push=True)

    def _show_read_only(self) -> None:
        """The header of every screen says when the session is read-only (the round screen has its own bar)."""
        self.sub_title = _("read-only") if self.store is not None and self.store.read_only else ""

    def _on_state(self, state: State) -> None:
        # Asked for at each state, not once until done: Textual runs it after the current screen's next
        # frame, and a screen that goes first may never draw one. The first to run syncs the journal; those
        # after it find nothing to do.
        self.call_after_refresh(self._sync_store)
        self._report_save_problem()
        self._show_read_only()
        self._ruleset_in_play(state)
        self._show_phase(state)

    _in_play: str | None = None

    def _ruleset_in_play(self, state: State) -> None:
        """The fight's ruleset speaks its own words first (a plugin's translation of a word the app has too)."""
        if state.ruleset != self._in_play:
            from tui_combat.engine.registry import in_play

            self._in_play = state.ruleset
            in_play(state.ruleset)

    def _show_phase(self, state: State, push: bool = False) -> None:
        phase = "round" if state.phase in ("round", "over") else state.phase
        if phase == self._phase_shown:
            return
        self._phase_shown = phase
        screen = screen_for_phase(phase, state.ruleset)
        if push:
            self.push_screen(screen)
        else:
            self.switch_screen(screen)

    async def on_event(self, event: events.Event) -> None:
        """A key that arrives while the screen on top is still opening (a form the key before it opened) is
        held for that screen, which takes it once it can (:meth:`FormDialog.hold_key`): never lost."""
        if isinstance(event, events.Key) and not event.is_forwarded:
            self.key_came()
            hold = getattr(self.screen, "hold_key", None)
            if hold is not None and hold(event):
                return
        if isinstance(event, events.Paste):
            take_paste = getattr(self.screen, "take_paste", None)
            if take_paste is not None and take_paste(event.text):
                return
        await super().on_event(event)


if TYPE_CHECKING:
    from tui_combat.screens.host import Host

    def _gives_the_screens_what_they_need(app: CombatApp) -> Host:
        return app  # mypy checks here that the app satisfies the screens' protocol
