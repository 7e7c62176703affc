"""Conditions and effects on the shared round screen at 80×24: typed with a name and a number of rounds,
shown beside the combatant in the turn list and on his card, counted down at the round's end and gone
with a log line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.ui.fights import opened, saved_round
from tests.ui.steps import SIZE, dialog_error, log_texts, visible_text
from tui_combat.app import CombatApp
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.round import RoundScreen
from tui_combat.widgets.order_list import OrderList


def row(app: CombatApp, index: int) -> str:
    return str(app.screen.query_one(OrderList).get_option_at_index(index).prompt).rstrip()


async def test_an_effect_is_shown_counted_down_and_runs_out_with_a_log_line(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    saved_round(data_root, "ambush", ["Raf"], 2)  # AD&D 2e, round 1: the party's slot, the orcs', the round's end
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        assert row(app, 1) == "  Raf  20/20"
        await pilot.press("E", *"Held", "enter", "ctrl+s")  # one round: the present one
        assert isinstance(app.screen, RoundScreen), dialog_error(app)
        await pilot.press("E", *"Blessed", "enter", "backspace", "3", "ctrl+s")
        assert isinstance(app.screen, RoundScreen), dialog_error(app)
        assert row(app, 1) == "  Raf  20/20  Held 1, Blessed 3"
        assert "Blessed: 3 rounds left" in visible_text(app.screen.query_one("#card"))
        # A refused form keeps its input: no rounds outside 0–1000.
        await pilot.press("E", *"Slowed", "enter", "backspace", *"5000", "ctrl+s")
        assert isinstance(app.screen, FormDialog) and "1000" in dialog_error(app)
        await pilot.press("escape")
        await pilot.press("n", "n")  # the orcs' slot, then the end of round 1
        assert log_texts(app)[-2:] == ["End of round 1.", "Held on Raf has run out."], log_texts(app)[-3:]
        assert row(app, 1) == "  Raf  20/20  Blessed 2"
        # 0 rounds ends an effect by its name.
        await pilot.press("home", "E", *"blessed", "enter", "backspace", "0", "ctrl+s")
        assert isinstance(app.screen, RoundScreen), dialog_error(app)
        assert log_texts(app)[-1] == "Blessed on Raf ends." and row(app, 1) == "  Raf  20/20"
        await pilot.press("q")
