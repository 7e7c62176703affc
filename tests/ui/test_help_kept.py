"""Help over the round is a panel of the round screen, drawn from lines made once: opened again it draws none
of them anew (no row goes through Rich), lays out nothing but itself, and its frame asks no widget under it for
its lines. The help of other screens is a screen of its own, kept for the screen it was opened on; opened again
it draws its table from the rows it drew before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.widget import Widget
from textual.widgets import DataTable

from tests.ui.fights import help_closed, until_help
from tests.ui.steps import SIZE, to_round, until_sessions, visible_text
from tests.waiting import settled, until, until_screen
from tui_combat.app import CombatApp
from tui_combat.screens.help import HelpScreen
from tui_combat.screens.help_panel import HelpPanel
from tui_combat.screens.round import RoundScreen


def counted_rich_lines(app: CombatApp) -> list[Any]:
    """Every text drawn through Rich from now on."""
    drawn: list[Any] = []
    console = app.console
    render_lines = console.render_lines

    def counted(*args: Any, **kwargs: Any) -> Any:
        drawn.append(args[0])
        return render_lines(*args, **kwargs)

    console.render_lines = counted  # type: ignore[method-assign]
    return drawn


async def test_the_help_over_the_round_is_a_panel_drawn_from_the_lines_it_made(
    make_app: Callable[..., CombatApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        panel = screen.help_panel
        for _time in range(2):
            await pilot.press("f1")
            await until_help(pilot)
            await until(pilot, lambda: settled(screen), "the help drawn")
            await pilot.press("escape")
            await until(pilot, lambda: help_closed(app) and settled(screen), "the round again")
        assert panel.lines_made == 1

        drawn = counted_rich_lines(app)
        asked: list[str] = []
        render_lines = Widget.render_lines

        def noted(widget: Widget, crop: Any) -> Any:
            asked.append(type(widget).__name__)
            return render_lines(widget, crop)

        Widget.render_lines = noted  # type: ignore[method-assign]
        try:
            await pilot.press("question_mark")
            await until_help(pilot)
            await until(pilot, lambda: settled(screen), "the help drawn")
        finally:
            Widget.render_lines = render_lines  # type: ignore[method-assign]
        assert app.screen is screen and panel.lines_made == 1
        assert drawn == [], [str(text) for text in drawn]
        assert set(asked) == {"HelpPanel"}, asked  # the screen under it, covered whole, is not drawn
        await pilot.press("escape")
        await until(pilot, lambda: help_closed(app), "the help closed")


async def test_the_help_scrolls_and_is_usable_on_a_small_terminal(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await to_round(pilot)
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        await pilot.press("f1")
        rows = await until_help(pilot)
        panel = screen.help_panel
        assert isinstance(panel, HelpPanel)
        await until(pilot, lambda: "Next" in visible_text(panel), "the help's lines")
        lines = visible_text(panel).splitlines()
        assert len(lines) == 20 and "Keys" in lines[0] and "Next" in lines[2]
        assert f"of {len(rows)}" in lines[-1] and "Esc" in lines[-1], lines[-1]  # more rows than fit: it scrolls
        last_keys, last = rows[-1]
        assert last not in visible_text(panel)
        await pilot.press("end")
        await until(pilot, lambda: last in visible_text(panel), "the last row in sight")
        await pilot.press("home")
        await until(pilot, lambda: "Next" in visible_text(panel).splitlines()[2], "the first row again")
        await pilot.press("pagedown", "down", "up")
        assert "Next" not in visible_text(panel).splitlines()[2]
        await pilot.press("question_mark")  # ? closes it, as F1, Esc and q do
        await until(pilot, lambda: help_closed(app), "the help closed")
        assert app.screen is screen and app.is_running


async def test_the_help_of_another_screen_opened_again_draws_no_row_anew(make_app: Callable[..., CombatApp]) -> None:
    """Over the session list, the help screen's table keeps the rows it drew (Textual's table forgot them all
    as its styles were worked out at each opening). Its first two openings settle its look (focused, laid out);
    from then on each opening finds its rows drawn."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        sessions = await until_sessions(pilot)
        await pilot.press("f1")
        await until_screen(pilot, HelpScreen, "the help")
        table = app.screen.query_one(DataTable)
        await until(pilot, lambda: table.row_count > 0 and table.region.height > 0, "the help's rows")
        for _time in range(2):
            await pilot.pause()
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is sessions, "the session list again")
            await pilot.press("f1")
            await until_screen(pilot, HelpScreen, "the help again")
        await pilot.pause()
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is sessions, "the session list again")

        drawn = counted_rich_lines(app)
        await pilot.press("f1")
        await until_screen(pilot, HelpScreen, "the help again")
        await pilot.pause()
        assert app.screen.query_one(DataTable) is table
        cells = {str(cell) for row in range(table.row_count) for cell in table.get_row_at(row)}
        assert not [text for text in drawn if str(text) in cells], [str(text) for text in drawn]
