"""The GM's actions to the open session: refusals reported, never a traceback; a read-only session says why
a key does nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from textual.actions import ActionParseResult, parse
from textual.dom import DOMNode

from tui_combat.i18n import _
from tui_combat.running.base import AppBase

if TYPE_CHECKING:
    from tui_combat.engine.actions import Action

READ_ONLY_KEYS = frozenset({"leave", "save_as", "export", "save_to_library", "save_encounter"})
"""What a session screen still does on a read-only session (besides the app's own keys)."""


class DispatchPart(AppBase):
    _reported_problem: str

    def _sync_store(self) -> None:
        """The journal's entries fsynced (the app asks once an action's frame is drawn); a failure reported."""
        if self.store is not None:
            self.store.sync()
            self._report_save_problem()

    def _report_save_problem(self) -> None:
        store = self.store
        if store is not None and store.save_problem and store.save_problem != self._reported_problem:
            self.notify(
                _(
                    "{problem}\nThe fight goes on in memory; it will be saved when the disk accepts it.",
                    problem=store.save_problem,
                ),
                title=_("Not saved"),
                severity="error",
                timeout=15,
            )
        self._reported_problem = store.save_problem if store else ""

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

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
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
