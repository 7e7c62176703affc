"""The round screen redraws what an action changed, not the screen: the turn list replaces the rows that
changed and moves its highlight, the footer's keys are worked out again only when the keys that apply
change, the log appends, and the phase bar and the card redraw only the cells that differ."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.ui.fights import opened, saved_round
from tests.ui.steps import SIZE, store, visible_text
from tui_combat.app import CombatApp
from tui_combat.screens.round import RoundScreen
from tui_combat.widgets.lines import TextLines
from tui_combat.widgets.order_list import OrderList
from tui_combat.widgets.phase_bar import PhaseBar
from tui_combat.widgets.redraw import LogView, RoundLog

ORCS = 200


async def test_a_turn_moving_on_touches_two_rows_of_two_hundred(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved_round(data_root, "horde", ["Raf", "Ada"], ORCS)
    app = make_app(resume="horde")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        order = screen.query_one(OrderList)
        assert order.option_count == 2 + 2 + 1  # two slot headers, the party, the orcs folded into one row
        await pilot.press("end", "asterisk")  # unfolded: one row per orc
        assert order.option_count == 2 + 2 + ORCS
        await pilot.press("home")
        rebuilds, redrawn = order.rebuilds, order.rows_redrawn
        set_options = 0  # every row made anew (the list's rebuild)
        real_rebuild = order._rebuild

        def counted(spots: object, rows: object) -> object:
            nonlocal set_options
            set_options += 1
            return real_rebuild(spots, rows)  # type: ignore[arg-type]

        monkeypatch.setattr(order, "_rebuild", counted)
        bar = screen.query_one(PhaseBar)
        bar_cells = bar.cells_redrawn
        assert "▶ 3" in visible_text(bar)

        await pilot.press("n")  # the orcs' slot
        assert store(app).state.cursor == 1
        assert (order.rebuilds, set_options) == (rebuilds, 0)
        assert order.rows_redrawn - redrawn == 2  # the two slot headers: "▶─ 3" → "── 3", "── 7" → "▶─ 7"
        assert str(order.get_option_at_index(0).prompt) == "── 3 acted "
        assert str(order.get_option_at_index(3).prompt) == "▶─ 7 now "
        assert order.highlighted == 4 and screen.selected() == store(app).state.order[1].combatants[0]
        assert bar.cells_redrawn - bar_cells == 1  # "▶ 3" → "▶ 7": one cell of the phase bar

        orc = screen.selected()
        redrawn = order.rows_redrawn
        await pilot.press("d", "3", "enter")  # one orc's hit points: its row alone
        assert store(app).state.combatant(orc).hp == 5
        assert order.rows_redrawn - redrawn == 1 and order.rebuilds == rebuilds
        assert "Orc 1  5/8" in str(order.get_option_at_index(4).prompt)

        await pilot.press("i", *"Bo", "ctrl+s")  # a combatant joins: now every row is built again
        assert order.rebuilds == rebuilds + 1 and set_options == 1
        await pilot.press("q")


async def test_keys_and_log_are_refreshed_only_when_they_change(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved_round(data_root, "ambush", ["Raf", "Ada"], 3)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        log = screen.query_one(RoundLog)
        clears = 0
        real_clear, real_write_anew = log.clear, log.write_anew

        def counted_clear() -> LogView:
            nonlocal clears
            clears += 1
            return real_clear()

        def counted_write_anew(texts: list[str]) -> None:
            nonlocal clears
            clears += 1
            real_write_anew(texts)

        monkeypatch.setattr(log, "clear", counted_clear)
        monkeypatch.setattr(log, "write_anew", counted_write_anew)

        refreshed = screen.keys_refreshed
        assert not store(app).can_undo
        await pilot.press("d", "2", "enter")  # the first action: undo becomes possible, the footer changes
        assert screen.keys_refreshed == refreshed + 1
        lines = len(log.lines)
        await pilot.press("d", "2", "enter")  # the same keys apply: the footer is left alone
        assert screen.keys_refreshed == refreshed + 1
        assert len(log.lines) > lines and clears == 0  # appended, not redrawn
        await pilot.press("d", "escape")  # a form opened and closed: nothing changed
        assert screen.keys_refreshed == refreshed + 1

        card = screen.query_one("#card-head", TextLines)
        cells = card.cells_redrawn
        await pilot.press("d", "1", "enter")  # HP 16/20 → 15/20: one cell of the card's head
        assert card.cells_redrawn - cells == 1, visible_text(card)

        await pilot.press("u")  # undo takes a log entry away: then, and only then, the log is redrawn
        assert clears == 1
        await pilot.press("q")
