"""A step of the round that changes the height of the step's help moves the turn list and the side, and their
frame redraws them once: Textual lays a screen out a second time when a widget's size changed, and each widget
whose size changed asked to be drawn again with it (the whole screen, twice, 11 KB over SSH)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual._compositor import ChopsUpdate, LayoutUpdate

from tests.ui.fights import opened_round, saved_round
from tests.ui.steps import SIZE
from tests.waiting import settled, until
from tui_combat.app import CombatApp


def cells_written(app: CombatApp) -> list[int]:
    """From now on, the cells each update sends to the terminal."""
    written: list[int] = []
    display = app._display

    def counted(screen: Any, renderable: Any) -> None:
        if isinstance(renderable, LayoutUpdate):
            written.append(renderable.region.area)
        elif isinstance(renderable, ChopsUpdate):
            written.append(
                sum(strip.cell_length for chops in renderable.chops for strip in chops.values() if strip is not None)
            )
        display(screen, renderable)

    app._display = counted  # type: ignore[method-assign]
    return written


async def test_each_step_of_the_round_draws_the_screen_at_most_once(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    saved_round(data_root, "ambush", ["Ada", "Bo"], 3)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        await pilot.press("n")  # the monsters' slot: the last of the round
        await until(pilot, lambda: settled(screen), "the last slot")
        seen: set[str] = set()
        hint_heights: set[int] = set()
        for _ in range(4):  # the end of the round, round 2's declarations (the monsters', the players'), initiative
            written = cells_written(app)
            before = (screen.state.round, screen.state.step)
            await pilot.press("n")
            await until(pilot, lambda: (screen.state.round, screen.state.step) != before, "the next step")
            await until(pilot, lambda: settled(screen), "the step drawn")
            seen.add(screen.step_kind())
            hint_heights.add(screen.step_hint.region.height)
            width, height = SIZE
            assert sum(written) <= width * height, f"{screen.step_kind()}: {written}"
        assert len(hint_heights) > 1, "no step changed the height of the step's help: the test tests nothing"
