"""A message still on the screen is shown once: a key refused again takes its place (and its time) instead of
stacking one more of the same over the card; other messages stand beside it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.widgets._toast import Toast

from tests.ui.fights import messages, newest, opened_round, saved_round, until
from tests.ui.steps import SIZE, store
from tui_combat.app import CombatApp
from tui_combat.i18n import _


async def test_a_message_given_again_while_shown_is_shown_once_and_others_stand_beside_it(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    saved_round(data_root, "ambush", ["Raf", "Ada"], 4)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE, notifications=True) as pilot:  # (a test shows none unless asked)
        screen = await opened_round(pilot)
        refused, acting = _("Roll initiative first."), _("The list shows those acting now.")

        def toasts() -> int:
            return len(app.screen.query(Toast))

        for _step in range(5):  # to the end of round 1, then round 2's declarations and its initiative step
            before = store(app).state
            await pilot.press("n")
            await until(pilot, lambda: store(app).state is not before, "the step taken")
        assert screen.step_kind() == "initiative"
        await pilot.press("n")  # refused: initiative is not rolled yet
        await until(pilot, lambda: toasts() == 1, "the refusal shown")

        for _time in range(3):  # refused again each time
            given = newest(app)
            await pilot.press("n")
            await until(pilot, lambda: newest(app) != given, "the refusal given again")
            assert messages(app) == [refused]
        await until(pilot, lambda: toasts() == 1, "one toast left")
        await pilot.press("slash", "n")  # another message, then the refusal again: it comes last, once
        await until(pilot, lambda: messages(app) == [acting, refused], "both messages, the refusal last")
        await until(pilot, lambda: toasts() == 2, "two toasts")
        await pilot.press("q")
