"""The command palette lists each command once: the screen's keys and Textual's own commands together."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from tests.ui.steps import SIZE
from tests.waiting import until_screen
from tui_combat.app import CombatApp
from tui_combat.screens.sessions import SessionsScreen


async def test_no_command_is_listed_twice(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await until_screen(pilot, SessionsScreen)
        titles = Counter(command.title for command in app.get_system_commands(screen))
        assert titles["Quit"] == 1, titles
        assert not [title for title, count in titles.items() if count > 1], titles
