"""The turn list frames its rows' lines itself (the border, the padding, the blank under the scroll bar taken once
from Textual for each look): every line it draws is the one Textual's own styling of the widget draws, focused
or not, scrolled, under another theme, at another width."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.geometry import Region
from textual.widget import Widget

from tests.ui.fights import opened_round, saved_round
from tests.ui.steps import SIZE
from tests.waiting import settled, until
from tui_combat.app import CombatApp
from tui_combat.screens.round import RoundScreen


def drawn_both_ways(screen: RoundScreen) -> tuple[list[str], list[str]]:
    """Each line of the list (the whole widget, and a crop of its middle), as it draws it and as Textual's styling
    of a widget draws it; segments and their styles, as text."""
    order = screen.order_list
    whole = Region(0, 0, order.size.width, order.size.height)
    middle = Region(2, 1, max(order.size.width - 4, 1), max(order.size.height - 2, 1))
    ours = [repr(list(line)) for crop in (whole, middle) for line in order.render_lines(crop)]
    order._styles_cache.clear()
    textual = [repr(list(line)) for crop in (whole, middle) for line in Widget.render_lines(order, crop)]
    return ours, textual


async def test_the_list_draws_the_lines_textual_draws(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    saved_round(data_root, "horde", [f"Hero {number}" for number in range(40)], 3)
    app = make_app(resume="horde")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        order = screen.order_list
        for step in ("focused", "pagedown", "n", "blurred", "theme", "narrow"):
            if step == "pagedown":
                await pilot.press("pagedown", "pagedown")
            elif step == "n":
                await pilot.press("n")
            elif step == "blurred":
                screen.set_focus(None)
            elif step == "theme":
                app.theme = "gruvbox"
            elif step == "narrow":
                await pilot.resize_terminal(70, 22)
            await until(pilot, lambda: settled(screen), f"the list {step}")
            ours, textual = drawn_both_ways(screen)
            assert ours == textual, step
        assert order.scroll_offset.y > 0
        await pilot.press("q")
