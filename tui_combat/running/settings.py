"""The GM's settings file applied to the app (theme, keymap), and the settings screen opened from it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from tui_combat.i18n import _
from tui_combat.running.base import AppBase


class SettingsPart(AppBase):
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
        from tui_combat.engine import keys
        from tui_combat.settings.config import read_settings

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
        return [
            _(
                '{file}, line {line}: there is no theme called "{theme}". The themes are: {themes}.',
                file=path,
                line=line,
                theme=theme,
                themes=", ".join(sorted(self.available_themes)),
            )
        ]

    def _checked_keymap(
        self, entries: object, path: Path, lines: Mapping[tuple[str | int, ...], int]
    ) -> tuple[dict[str, str], list[str]]:
        """The keymap entries that can be used, and a message (with its line) for each one that cannot."""
        from tui_combat.screens.keymap import check_keymap, collect, defaults_kept

        if not isinstance(entries, dict):
            return {}, [
                _(
                    '{file}, line {line}: [keys] is a table of action = "key" lines, such as "round.next" = "j".',
                    file=path,
                    line=lines.get(("keys",), 0),
                )
            ]
        table = collect(type(self))
        check = check_keymap(entries, table)
        refused = sorted(check.problems, key=lambda problem: lines.get(("keys", problem.binding_id), 0))
        return check.keymap, [
            _(
                "{file}, line {line}: {problem}",
                file=path,
                line=lines.get(("keys", problem.binding_id), 0),
                problem=f"{problem.reason} {defaults_kept(problem.binding_id, table)}".strip(),
            )
            for problem in refused
        ]
