"""A refusal the form's preview line already shows is said once when the GM submits anyway."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.widgets import Static

from tests.ui.steps import SIZE, visible_text
from tests.waiting import until, until_screen
from tui_combat.engine.contract import FieldSpec
from tui_combat.screens.dialogs import FormDialog

REFUSAL = "Not enough CP: Fridgar has 8 left for the broadsword, needs 14."


class OneForm(App[None]):
    def on_mount(self) -> None:
        self.push_screen(
            FormDialog(
                "Attack",
                [FieldSpec(key="cp", label="CP", kind="int", default=14)],
                preview=lambda values: REFUSAL,
                submit=lambda values: REFUSAL,
            )
        )


async def test_the_refusal_is_shown_once() -> None:
    app = OneForm()
    async with app.run_test(size=SIZE) as pilot:
        form: Any = await until_screen(pilot, FormDialog)
        await until(pilot, lambda: REFUSAL in visible_text(form.query_one("#dialog-preview", Static)), "the preview")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: REFUSAL in visible_text(form.query_one("#dialog-error", Static)), "the refusal")
        shown = " ".join(visible_text(widget) for widget in form.query(Static))
        assert " ".join(shown.split()).count(REFUSAL) == 1, shown
