"""Keys typed faster than the screen answers go where the GM meant: digits typed right after Enter land in
the next field, never merged into the one just left ("4", Enter, "1" is 4 and 1, not 41)."""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.widgets import Input

from tests.ui.steps import SIZE, to_surprise
from tests.waiting import until, until_screen
from tui_combat.app import CombatApp
from tui_combat.screens.dialogs import FormDialog


def key(name: str) -> events.Key:
    return events.Key(name, "\r" if name == "enter" else name)


async def test_digits_after_enter_go_to_the_next_field(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_surprise(pilot)
        await pilot.press("t")
        form = await until_screen(pilot, FormDialog)
        inputs = list(form.query(Input))
        assert len(inputs) >= 2
        await until(pilot, lambda: form.focused is inputs[0], "the first field focused")
        for name in ("4", "enter", "1"):  # all queued at once, as from a fast typist on a slow link
            app.post_message(key(name))
        await until(pilot, lambda: inputs[1].value == "1", "the 1 in the second field")
        assert inputs[0].value == "4", (inputs[0].value, inputs[1].value)
