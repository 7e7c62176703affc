"""The app's notifications: plain text, and one of each shown at a time."""

from __future__ import annotations

import time
from typing import Any

from textual.notifications import SeverityLevel

from tui_combat.i18n import _
from tui_combat.running.base import AppBase


class NoticesPart(AppBase):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown_notes: dict[tuple[str, str, SeverityLevel], tuple[float, float]] = {}
        """The notifications shown lately: (message, title, severity) → (when it goes, its timeout)."""

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notification is plain text: a name such as ``Raf [/]`` in a message is shown as it is,
        never read as markup (no message of the app uses markup). A message still shown is shown once: a key
        refused again (Next before initiative is rolled) takes its place and time, where Textual would stack
        one more of it over the screen each time (the others shown are shown again for the time they had
        left)."""
        now = time.monotonic()
        timeout = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        shown = {key: kept for key, kept in self._shown_notes.items() if kept[0] > now}
        key = (message, title, severity)
        if key in shown:
            del shown[key]
            self.clear_notifications()
            for (again, again_title, again_severity), (until, _timeout) in shown.items():
                super().notify(again, title=again_title, severity=again_severity, timeout=until - now, markup=False)
        shown[key] = (now + timeout, timeout)
        self._shown_notes = shown
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def action_help_quit(self) -> None:
        """Textual's ctrl+c hint, without its markup."""
        self.notify(_("Press ctrl+q to quit."), title=_("Do you want to quit?"))
