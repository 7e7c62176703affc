"""At 80×24, the help opened again over the same screen draws its table from the rows it drew before: no row goes
through Rich again (Textual's table forgot them all as its styles were worked out at each opening). Its first two
openings settle its look (focused, laid out); from then on each opening finds its rows drawn."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.widgets import DataTable

from tests.ui.steps import SIZE, to_round
from tests.waiting import until, until_screen
from tui_combat.app import CombatApp
from tui_combat.screens.help import HelpScreen
from tui_combat.screens.round import RoundScreen


async def test_the_help_opened_again_draws_no_row_anew(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        await pilot.press("f1")
        await until_screen(pilot, HelpScreen, "the help")
        table = app.screen.query_one(DataTable)
        await until(pilot, lambda: table.row_count > 0 and table.region.height > 0, "the help's rows")
        for _time in range(2):
            await pilot.pause()
            await pilot.press("escape")
            await until_screen(pilot, RoundScreen, "the round again")
            await pilot.press("f1")
            await until_screen(pilot, HelpScreen, "the help again")
        await pilot.pause()
        await pilot.press("escape")
        await until_screen(pilot, RoundScreen, "the round again")

        drawn: list[Any] = []
        console = app.console
        render_lines = console.render_lines

        def counted(*args: Any, **kwargs: Any) -> Any:
            drawn.append(args[0])
            return render_lines(*args, **kwargs)

        console.render_lines = counted  # type: ignore[method-assign]
        await pilot.press("f1")
        await until_screen(pilot, HelpScreen, "the help again")
        await pilot.pause()
        assert app.screen.query_one(DataTable) is table
        cells = {str(cell) for row in range(table.row_count) for cell in table.get_row_at(row)}
        assert not [text for text in drawn if str(text) in cells], [str(text) for text in drawn]
