"""The Textual app: holds the open session's store, shows the screen for its phase, reports problems.

Starting, resuming and saving sessions is :mod:`tui_combat.session`; the screens reach the app only
through :class:`~tui_combat.screens.host.Host`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from tui_combat.i18n import _

if TYPE_CHECKING:  # the engine loads when a session opens, not before the first frame
    from tui_combat.engine.actions import Action
    from tui_combat.engine.model import State
    from tui_combat.store import Store


class CombatApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "tui-combat"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = [
        Binding("f1,question_mark", "help", _("Help"), id="app.help"),
        Binding("ctrl+q", "quit", _("Quit"), id="app.quit", show=False, priority=True),
    ]

    def __init__(self, data_root: Path, *, resume: str | None = None, encounter: Path | None = None,
                 seed: int | None = None) -> None:
        super().__init__()
        self.data_root = data_root
        self.seed = seed
        self.store: Store | None = None
        self._start_resume = resume
        self._start_encounter = encounter
        self._unsubscribe: Callable[[], None] | None = None
        self._phase_shown = ""
        self._reported_problem = ""

    def get_default_screen(self) -> Screen[None]:
        from tui_combat.screens.sessions import SessionsScreen

        return SessionsScreen()

    def on_mount(self) -> None:
        from tui_combat import session

        if self._start_resume:
            self.call_after_refresh(self.open_session, partial(session.resume, self.data_root, self._start_resume))
        elif self._start_encounter:
            self.call_after_refresh(self.open_session, partial(session.new_from_file, self.data_root,
                                                               self._start_encounter, seed=self.seed))

    # -- the session -------------------------------------------------------------------------------
    def open_session(self, opener: Callable[[], Store]) -> None:
        from tui_combat.session import SessionError

        try:
            store = opener()
        except SessionError as error:
            self.notify(str(error), title=error.title, severity="error", timeout=15)
            return
        self.close_store()
        self.store = store
        self._unsubscribe = store.subscribe(self._on_state)
        for warning in store.warnings:
            self.notify(warning, severity="warning", timeout=8)
        self._report_save_problem()
        self._phase_shown = ""
        self._show_phase(store.state, push=True)

    def close_store(self) -> None:
        from tui_combat.saves.errors import SaveError

        if self.store is not None:
            try:
                self.store.save_now()
            except SaveError as error:
                self.notify(str(error), severity="error", timeout=10)
            self.store.close()
            if self._unsubscribe:
                self._unsubscribe()
        self.store = None

    def leave_session(self) -> None:
        """Back to the session list (the session is saved first)."""
        from tui_combat.screens.sessions import SessionsScreen

        self.close_store()
        self._phase_shown = ""
        self.pop_screen()
        if isinstance(self.screen, SessionsScreen):
            self.screen.reload()

    def dispatch(self, action: Action) -> bool:
        """Dispatch and report: a refusal or a save problem is a notification, never a traceback."""
        from tui_combat.engine.dice import DiceError
        from tui_combat.engine.errors import RuleError

        if self.store is None:
            return False
        try:
            self.store.dispatch(action)
        except (RuleError, DiceError) as error:
            self.notify(str(error), severity="warning", timeout=6)
            return False
        except Exception as error:  # a bug must not cost the GM his fight: report it and carry on
            self.notify(_("Unexpected error: {error}", error=repr(error)), severity="error", timeout=15)
            return False
        return True

    def undo(self) -> None:
        self._history_step(undo=True)

    def redo(self) -> None:
        self._history_step(undo=False)

    def _history_step(self, *, undo: bool) -> None:
        from tui_combat.engine.errors import RuleError

        if self.store is None:
            return
        try:
            if undo:
                self.store.undo()
            else:
                self.store.redo()
        except RuleError as error:
            self.notify(str(error), timeout=3)

    def _on_state(self, state: State) -> None:
        self._report_save_problem()
        self._show_phase(state)

    def _report_save_problem(self) -> None:
        store = self.store
        if store is not None and store.save_problem and store.save_problem != self._reported_problem:
            self.notify(_("{problem}\nThe fight goes on in memory; it will be saved when the disk accepts it.",
                          problem=store.save_problem), title=_("Not saved"), severity="error", timeout=15)
        self._reported_problem = store.save_problem if store else ""

    def _show_phase(self, state: State, push: bool = False) -> None:
        phase = "round" if state.phase in ("round", "over") else state.phase
        if phase == self._phase_shown:
            return
        self._phase_shown = phase
        screen = _screen_for(phase, state.ruleset)
        if push:
            self.push_screen(screen)
        else:
            self.switch_screen(screen)

    # -- keys --------------------------------------------------------------------------------------
    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The palette (ctrl+p) offers every key of the current screen, shown in the footer or not."""
        from tui_combat.screens.help import described_bindings

        yield from super().get_system_commands(screen)
        for keys, binding in described_bindings(screen):
            yield SystemCommand(binding.description, f"{keys} · {binding.id or binding.action}", partial(self._run_from_palette, screen, binding.action))

    async def _run_from_palette(self, screen: Screen[object], action: str) -> None:
        """Run a key's action as the key would; one that does not apply now says so instead of nothing."""
        from textual.actions import parse

        _target, name, parameters = parse(action)
        if screen.check_action(name, parameters) is False:
            self.notify(_("That cannot be done now."), severity="warning", timeout=4)
            return
        await screen.run_action(action)

    def action_help(self) -> None:
        from tui_combat.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    async def action_quit(self) -> None:
        self.close_store()
        self.exit()


def _screen_for(phase: str, ruleset_id: str) -> Screen[None]:
    if phase == "setup":
        from tui_combat.screens.setup import SetupScreen

        return SetupScreen()
    if phase == "surprise":
        from tui_combat.screens.surprise import SurpriseScreen

        return SurpriseScreen()
    from tui_combat.screens.round import round_screen

    return round_screen(ruleset_id)


if TYPE_CHECKING:
    from tui_combat.screens.host import Host

    def _gives_the_screens_what_they_need(app: CombatApp) -> Host:
        return app  # mypy checks here that the app satisfies the screens' protocol
