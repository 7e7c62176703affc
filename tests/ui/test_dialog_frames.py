"""A dialog costs the terminal one whole frame when it appears, not four: the screen behind it keeps its
footer as it was while covered (and works it out again once shown), and the dialog's own widgets being
mounted redraw what moved, not every cell. Over SSH each whole frame is some 17 KB."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual._compositor import LayoutUpdate

from tests.ui.fights import opened, saved_round
from tests.ui.steps import SIZE, footer_now, store, until_closed, until_form
from tests.waiting import settled, until
from tui_combat.app import CombatApp
from tui_combat.screens.round import RoundScreen


def count_whole_frames(app: CombatApp) -> list[str]:
    """Every update that redraws the whole screen from now on: the name of the screen drawn."""
    whole: list[str] = []
    display = app._display

    def counted(screen: Any, renderable: Any) -> None:
        if isinstance(renderable, LayoutUpdate):
            whole.append(type(screen).__name__)
        display(screen, renderable)

    app._display = counted  # type: ignore[method-assign]
    return whole


async def test_the_damage_form_is_drawn_whole_once(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    saved_round(data_root, "ambush", ["Ada", "Bo"], 3)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        round_screen = app.screen
        assert isinstance(round_screen, RoundScreen)
        await until(pilot, lambda: settled(round_screen), "the round screen drawn")
        whole = count_whole_frames(app)
        await pilot.press("d")
        form = await until_form(pilot, "the damage form")
        await until(pilot, lambda: form.query_one("#dialog-help").region.height > 0, "the form laid out")
        await until(pilot, lambda: settled(form) and settled(round_screen), "the form drawn")
        assert whole == ["FormDialog"]

        # Closed: the footer under it is as the keys stand, the damage done.
        target = round_screen.selected()
        assert target is not None
        await pilot.press("3", "enter")
        await until_closed(pilot, form)
        await until(pilot, lambda: store(app).state.combatant(target).hp == store(app).state.combatant(target).max_hp - 3,
                    "the damage done")
        assert "Damage" in await footer_now(pilot)
