"""Hit points rolled from the Hit Dice at 80×24: "3 orc" in the AD&D 2e add form brings the bestiary's orc and
rolls each of the three's hit points with the app's dice (1d8 each); a figure typed in the form gives them all
the same."""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import Static

from tests.ui.steps import SIZE, dialog_error, open_demo, store
from tui_combat.app import CombatApp
from tui_combat.engine.actions import AddCombatants
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.setup import SetupScreen


async def test_three_orc_in_the_add_form_rolls_each_one_s_hit_points(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)
        before = len(store(app).state.combatants)
        await pilot.press("a", *"3 orc")
        assert isinstance(app.screen, FormDialog)
        preview = str(app.screen.query_one("#dialog-preview", Static).render())
        assert preview.startswith("Orc from the starter bestiary: HP 1d8 (rolled) · Class monster · Level / HD 1"), (
            preview
        )
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SetupScreen), dialog_error(app)

        added = store(app).done_actions()[-1]
        assert isinstance(added, AddCombatants) and added.count == 3 and len(added.hps) == 3
        orcs = store(app).state.combatants[before:]
        assert [c.name for c in orcs] == ["Orc 7", "Orc 8", "Orc 9"]  # the demo has Orc 1 … Orc 6
        assert [(c.hp, c.max_hp) for c in orcs] == [(hp, hp) for hp in added.hps]
        assert all(1 <= hp <= 8 for hp in added.hps)

        # A figure typed in the form: every one of them has it.
        await pilot.press("a", *"2 orc", "tab", "tab", "6", "ctrl+s")
        assert isinstance(app.screen, SetupScreen), dialog_error(app)
        typed = store(app).done_actions()[-1]
        assert isinstance(typed, AddCombatants) and typed.hps == ()
        assert [(c.name, c.max_hp) for c in store(app).state.combatants[-2:]] == [("Orc 10", 6), ("Orc 11", 6)]
