"""The keys of a damage (``d`` opens the prompt, Enter applies it, ``u`` undoes it) do no more than what they
change: an undo lays nothing out, and no frame of theirs has Textual arrange the whole screen a second time."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.ui.fights import opened_round, saved_round
from tests.ui.steps import SIZE, log_texts, store
from tests.waiting import settled, until
from tui_combat.app import CombatApp
from tui_combat.screens.round import RoundScreen
from tui_combat.textual_ext import stock_textual


def counting(screen: RoundScreen, *names: str) -> list[str]:
    """The calls of the screen's compositor's methods ``names`` from now on, by name."""
    compositor = screen._compositor
    calls: list[str] = []
    for name in names:
        method = getattr(compositor, name)

        def noted(*args: Any, _method: Any = method, _name: str = name, **kwargs: Any) -> Any:
            calls.append(_name)
            return _method(*args, **kwargs)

        setattr(compositor, name, noted)
    return calls


async def test_an_undo_lays_nothing_out_nor_arranges_the_screen(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """``u`` changes a row of the list, the card and the log, which scrolls back a line: none of them moves
    or resizes a widget. The log asked Textual for a layout of the whole screen (its virtual size changed),
    and the log's scroll bar, kept hidden, redrawn at each scroll, had the compositor take it for a new
    widget and arrange the whole screen again as the frame was drawn."""
    saved_round(data_root, "ambush", ["Raf", "Ada"], 200)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        target = screen.selected()
        assert target is not None
        hp = store(app).state.combatant(target).hp
        for _time in range(2):
            await pilot.press("d", "3", "enter")
            await until(pilot, lambda: store(app).state.combatant(target).hp == hp - 3, "the damage")
            await until(pilot, lambda: settled(screen) and not screen.amount_prompt.is_open, "the damage drawn")
            calls = counting(screen, "reflow", "reflow_visible", "_arrange_root")
            lines = len(log_texts(app))
            await pilot.press("u")
            await until(pilot, lambda: store(app).state.combatant(target).hp == hp, "the undo")
            await until(pilot, lambda: settled(screen) and len(log_texts(app)) == lines - 1, "the undo drawn")
            if not stock_textual():
                assert "reflow" not in calls and calls.count("_arrange_root") == calls.count("reflow_visible"), calls
        await pilot.press("q")
