"""The Textual app: holds the open session's store, shows the screen for its phase, reports problems.

Starting, resuming and saving sessions is :mod:`tui_combat.session`; the screens reach the app only
through :class:`~tui_combat.screens.host.Host`.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.actions import ActionParseResult, parse
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.dom import DOMNode
from textual.filter import Monochrome, NoColor
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import Worker, WorkerState

from tui_combat.engine.keys import APP_KEYS
from tui_combat.i18n import _
from tui_combat.i18n.textual_words import PALETTE_KEY, PALETTE_PLACEHOLDER, PALETTE_TOOLTIP

if TYPE_CHECKING:  # the engine loads when a session opens, not before the first frame
    from tui_combat.engine.actions import Action
    from tui_combat.engine.model import State
    from tui_combat.session import SessionError
    from tui_combat.store import Store

LOADING_AFTER = 0.3
"""Seconds a session may take to open before the screen says it is still working on it."""
EXIT_UNSAVED = 3
"""The exit status when the GM left although some actions could not be saved."""
READ_ONLY_KEYS = frozenset({"leave", "save_as", "export", "save_to_library", "save_encounter"})
"""What a session screen still does on a read-only session (besides the app's own keys)."""


class CombatApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "tui-combat"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = [
        Binding(APP_KEYS["app.help"], "help", _("Help"), id="app.help"),
        Binding(APP_KEYS["app.settings"], "settings", _("Settings"), id="app.settings", show=False),
        Binding("ctrl+q", "quit", _("Quit"), id="app.quit", show=False, priority=True),
        Binding("ctrl+p", "command_palette", _(PALETTE_KEY), show=False, priority=True,
                tooltip=_(PALETTE_TOOLTIP)),  # Textual's own palette key (no id: help lists it apart), in the GM's language
    ]

    def __init__(self, data_root: Path, *, resume: str | None = None, encounter: Path | None = None,
                 seed: int | None = None, settings_path: Path | None = None) -> None:
        super().__init__()
        from tui_combat.config import settings_path as default_settings_path

        self.settings_path = settings_path or default_settings_path()
        """The GM's ``settings.toml``: theme and keymap applied at start, written by the settings screen."""
        if self.no_color:
            # NO_COLOR: no colour code at all (Textual's own answer is a grey scale, still in colour codes);
            # bold, reverse and underline stay, and the stylesheet marks highlights with them.
            self._filters = [f for f in self._filters if not isinstance(f, Monochrome)] + [NoColor()]
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
        from tui_combat.screens.sessions import OpeningScreen, SessionsScreen

        return OpeningScreen() if self._start_resume or self._start_encounter else SessionsScreen()

    def _show_session_list(self) -> None:
        """Over the :class:`OpeningScreen` the app started on, once the session list is needed (that screen
        stays under it, never seen again)."""
        from tui_combat.screens.sessions import OpeningScreen, SessionsScreen

        if isinstance(self.screen, OpeningScreen):
            self.push_screen(SessionsScreen())

    def on_mount(self) -> None:
        from tui_combat import session

        self.apply_settings()
        if self._start_resume:
            self.open_session(partial(session.resume, self.data_root, self._start_resume))
        elif self._start_encounter:
            self.open_session(partial(session.new_from_file, self.data_root, self._start_encounter, seed=self.seed))
        else:
            self.call_after_refresh(gc.enable)  # the first screen is drawn (``__main__`` turned it off)

    # -- the session -------------------------------------------------------------------------------
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
        self._opening = self.run_worker(partial(_open, opener), name="open-session", group="session", thread=True,
                                        exit_on_error=False)
        self._loading_timer = self.set_timer(LOADING_AFTER, partial(self._show_opening, True))

    def _show_opening(self, opening: bool) -> None:
        from tui_combat.screens.sessions import OpeningScreen, SessionsScreen

        if opening and self._opening is None:  # the timer fired, but the session opened before it was handled
            return

        for screen in self.screen_stack:
            if isinstance(screen, (SessionsScreen, OpeningScreen)):
                screen.show_opening(opening)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        from tui_combat.session import SessionError

        worker = event.worker
        if worker is not self._opening or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
            return
        self._opening = None
        self.call_after_refresh(gc.enable)  # once the session's first screen is drawn (``__main__`` turned it off)
        if self._loading_timer is not None:
            self._loading_timer.stop()
        self._show_opening(False)
        result = worker.result
        if event.state == WorkerState.ERROR:  # a bug must not end the app: say what it was
            self.notify(_("Unexpected error: {error}", error=repr(worker.error)), severity="error", timeout=15)
        elif isinstance(result, SessionError):
            self.notify(str(result), title=result.title, severity="error", timeout=15)
        elif result is not None:
            self._opened(result)
            return
        self._show_session_list()

    def _opened(self, store: Store) -> None:
        self.close_store()
        self.store = store
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

    def close_store(self) -> None:
        """Save and close the open session; one started here and left untouched is removed instead (a new
        fight abandoned leaves nothing behind)."""
        from tui_combat import session
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

    def refusal(self, action: Action) -> str | None:
        """Dispatch for a form: None when applied, else the reason (the form shows it and stays open). A bug
        is reported as an unexpected error, and its text handed back too."""
        from tui_combat.engine.dice import DiceError
        from tui_combat.engine.errors import RuleError

        if self.store is None:
            return _("No session is open.")
        try:
            self.store.dispatch(action)
        except (RuleError, DiceError) as error:
            return str(error)
        except Exception as error:  # a bug must not cost the GM his fight: report it and carry on
            message = _("Unexpected error: {error}", error=repr(error))
            self.notify(message, severity="error", timeout=15)
            return message
        return None

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
        self._show_read_only()
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

        titles: set[str] = set()
        for command in super().get_system_commands(screen):  # Textual's words, through the catalog
            titles.add(_(command.title))
            yield command._replace(title=_(command.title), help=_(command.help))
        for keys, binding in described_bindings(screen):
            if binding.description not in titles:  # "Quit" is Textual's already
                yield SystemCommand(binding.description, keys, partial(self._run_from_palette, screen, binding.action))
        yield SystemCommand(_("Settings"), _("Theme, language, the players' screen's words for health, keys"),
                            self.action_settings)

    def action_command_palette(self) -> None:
        from textual.command import CommandPalette

        if self.use_command_palette and not any(isinstance(screen, CommandPalette) for screen in self.screen_stack):
            self.push_screen(CommandPalette(id="--command-palette", placeholder=_(PALETTE_PLACEHOLDER)))

    async def _run_from_palette(self, screen: Screen[object], action: str) -> None:
        """Run a key's action as the key would; one that does not apply now says so instead of nothing."""
        _target, name, parameters = parse(action)
        if screen.check_action(name, parameters) is False:
            self.notify(_("That cannot be done now."), severity="warning", timeout=4)
            return
        await screen.run_action(action)

    def action_settings(self) -> None:
        from tui_combat.screens.settings import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen(self.settings_path), self._after_settings)

    def _after_settings(self, _result: None) -> None:
        """The screen underneath shows the keys now in force (its hint line names them)."""
        from tui_combat.screens.session_screen import SessionScreen

        screen = self.screen
        if isinstance(screen, SessionScreen) and self.store is not None:
            screen.show(self.store.state)
        screen.refresh_bindings()

    def apply_settings(self) -> None:
        """The theme and the keymap of the GM's settings file. Whatever in it is wrong is reported with its
        line, and the defaults stay for it (the language was read before the app started)."""
        from tui_combat.config import read_settings
        from tui_combat.engine import keys

        settings = read_settings(self.settings_path)
        problems: list[str] = []
        if settings.problem is not None:
            problems.append(_(settings.problem.message, **settings.problem.params))
        keymap: dict[str, str] = {}
        if settings.text and ("theme" in settings.document or "keys" in settings.document):
            from tui_combat.engine.toml_lines import key_lines

            lines = key_lines(settings.text)
            problems += self._apply_theme(settings.theme, settings.path, lines.get(("theme",), 0))
            if "keys" in settings.document:
                keymap, found = self._checked_keymap(settings.document["keys"], settings.path, lines)
                problems += found
        keys.use_keymap(keymap)
        self.set_keymap(keymap)
        for problem in problems:
            self.notify(problem, title=_("Settings"), severity="warning", timeout=20)

    def _apply_theme(self, theme: object, path: Path, line: int) -> list[str]:
        if theme is None:
            return []
        if isinstance(theme, str) and theme in self.available_themes:
            self.theme = theme
            return []
        return [_("{file}, line {line}: there is no theme called \"{theme}\". The themes are: {themes}.", file=path,
                  line=line, theme=theme, themes=", ".join(sorted(self.available_themes)))]

    def _checked_keymap(self, entries: object, path: Path,
                        lines: Mapping[tuple[str | int, ...], int]) -> tuple[dict[str, str], list[str]]:
        """The keymap entries that can be used, and a message (with its line) for each one that cannot."""
        from tui_combat.screens.keymap import check_keymap, collect, defaults_kept

        if not isinstance(entries, dict):
            return {}, [_("{file}, line {line}: [keys] is a table of action = \"key\" lines, such as \"round.next\" = \"j\".",
                          file=path, line=lines.get(("keys",), 0))]
        table = collect(type(self))
        check = check_keymap(entries, table)
        refused = sorted(check.problems, key=lambda problem: lines.get(("keys", problem.binding_id), 0))
        return check.keymap, [
            _("{file}, line {line}: {problem}", file=path, line=lines.get(("keys", problem.binding_id), 0),
              problem=f"{problem.reason} {defaults_kept(problem.binding_id, table)}".strip())
            for problem in refused
        ]

    def action_help(self) -> None:
        from tui_combat.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    async def action_quit(self) -> None:
        if not self._asks_before_losing_actions(self._quit):
            self._quit()

    def _quit(self) -> None:
        self.close_store()
        self.exit(return_code=EXIT_UNSAVED if self.lost_actions else 0)

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

        self.push_screen(ConfirmDialog(
            _("Some actions are not saved"),
            _("{problem}\nThe actions since then are only in memory: leaving now loses them.", problem=store.save_problem),
            confirm=_("Leave without saving them"), cancel=_("Stay: the fight stays open"),
        ), answered)
        return True

    # -- messages and refusals ------------------------------------------------------------------------
    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Every notification is plain text: a name such as ``Raf [/]`` in a message is shown as it is,
        never read as markup (no message of the app uses markup)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def action_help_quit(self) -> None:
        """Textual's ctrl+c hint, without its markup."""
        self.notify(_("Press ctrl+q to quit."), title=_("Do you want to quit?"))

    async def run_action(self, action: str | ActionParseResult, default_namespace: DOMNode | None = None,
                         namespaces: Mapping[str, DOMNode] | None = None) -> bool:
        """On a read-only session, a key that would change the fight says why it does nothing."""
        if self._refused_as_read_only(action, default_namespace):
            return True
        return await super().run_action(action, default_namespace, namespaces)

    def _refused_as_read_only(self, action: str | ActionParseResult, namespace: DOMNode | None) -> bool:
        from tui_combat.screens.session_screen import SessionScreen

        store = self.store
        if store is None or not store.read_only or not isinstance(namespace, SessionScreen):
            return False
        target, name, _parameters = parse(action) if isinstance(action, str) else action
        if target or name in READ_ONLY_KEYS:
            return False
        self.notify(store.read_only_reason, title=_("Read-only"), severity="warning", timeout=6)
        return True


def _open(opener: Callable[[], Store]) -> Store | SessionError:
    """Run in the worker thread: the store, or the refusal to show."""
    from tui_combat.session import SessionError

    try:
        store = opener()
    except SessionError as error:
        return error
    _screen_module(store.state.phase)  # imported here, not while the main thread draws
    return store


def _screen_module(phase: str) -> None:
    if phase in ("round", "over"):
        import tui_combat.screens.round  # noqa: F401
    elif phase == "surprise":
        import tui_combat.screens.surprise  # noqa: F401
    else:
        import tui_combat.screens.setup  # noqa: F401


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
