"""The session list at 80 columns: every fight's name, ruleset, where it stands and when it was saved are on
screen, whatever the length of the demos' titles; a name too long for what is left is cut with "…"."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import DataTable

from tests.ui.fights import round_state, saved_round
from tests.ui.steps import SIZE, visible_text
from tests.waiting import until, until_screen
from tui_combat.app import CombatApp
from tui_combat.fight.store import Store
from tui_combat.saves.locations import sessions_dir
from tui_combat.screens.sessions import SessionsScreen, column_widths

LONG = "The very long name of a fight in the old tunnels under the hill"


@pytest.mark.parametrize("size", [SIZE, (60, 20), (120, 30)])
async def test_every_column_is_on_screen(
    make_app: Callable[..., CombatApp], data_root: Path, size: tuple[int, int]
) -> None:
    saved_round(data_root, "ambush", ["Raf"], 2)
    Store.create(round_state(["Bo"], 1, name=LONG), sessions_dir(data_root) / "long").close()
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = await until_screen(pilot, SessionsScreen)
        table = screen.query_one(DataTable)
        await until(pilot, lambda: table.row_count >= 3, "the saved sessions in the list")
        text = visible_text(table)
        lines = [line for line in text.splitlines() if "round 1" in line]
        assert len(lines) == 2, text
        for line in lines:
            assert "AD&D 2e" in line and "today" in line, line
        assert "The very lo" in text, text
        if size[0] <= 80:
            assert "…" in text, text
        assert all(len(line) <= size[0] for line in text.splitlines())


def test_the_columns_fill_the_width_and_give_way_in_turn() -> None:
    headers = ("Name", "Ruleset", "Where", "Saved")
    rows = [(60, 16, 20, 16)]
    widths = column_widths(80, headers, rows)
    assert sum(widths) + 2 * 4 + 2 == 80 and widths[1:] == [16, 20, 16]
    narrow = column_widths(40, headers, rows)
    assert narrow[0] == 12 and all(w >= len(h) for w, h in zip(narrow, headers))
