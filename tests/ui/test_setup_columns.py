"""The set-up table at 80×24 shows the columns a GM reads for the fight's ruleset (class and level, AC and
weapon for AD&D; SV, CP and armour for Trudvang), and groups as "Orc ×6", never a sheet's own keys."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.widgets import DataTable

from tests.ui.steps import SIZE, open_demo, until_setup, visible_text
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.fight.store import Store, new_state
from tui_combat.saves.locations import sessions_dir


def columns(app: CombatApp) -> list[str]:
    return [str(column.label) for column in app.screen.query_one(DataTable).columns.values()]


def cells(app: CombatApp) -> list[list[str]]:
    table = app.screen.query_one(DataTable)
    return [[str(cell) for cell in table.get_row_at(row)] for row in range(table.row_count)]


async def test_the_demo_shows_class_level_ac_and_weapon(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)
        assert columns(app) == ["Side", "Name", "HP", "Group", "Class and level", "AC", "Weapon"]
        rows = cells(app)
        # The demo's sheets: Raf, a 5th-level warrior in AC 3 with a war hammer +4; trolls with natural weapons.
        assert rows[0] == ["Party", "Raf", "38", "", "warrior 5", "3", "war hammer +4"]
        assert rows[3] == ["Monsters", "Troll 1", "36", "Troll ×3", "monster 6+6", "4", ""]
        assert rows[-1] == ["Monsters", "Orc 6", "5", "Orc ×6", "monster 1", "6", "long sword"]
        shown = visible_text(app.screen)
        assert "cls=" not in shown and "thac0" not in shown and "g6" not in shown


async def test_trudvang_shows_sv_cp_and_armour(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    state = new_state(seed=1, ruleset="adnd2e")
    for action in (
        a.SetName(name="Raid"),
        a.SetRuleset(ruleset="trudvang"),
        a.AddSide(name="Raiders"),
        a.AddCombatants(
            side="s1", name="Ulf", hp=20, sheet={"sv": 8, "armour": "chain", "disciplines": "Armed combat 3"}
        ),
    ):
        state = apply(state, action)
    Store.create(state, sessions_dir(data_root) / "raid").close()
    app = make_app(resume="raid")
    async with app.run_test(size=SIZE) as pilot:
        await until_setup(pilot)
        assert columns(app) == ["Side", "Name", "BP", "Group", "Combat SV", "CP", "Armour"]
        # CP of a fresh round: SV 8 (general) + Armed combat 3 × 1 CP per level = 11.
        assert cells(app) == [["Raiders", "Ulf", "20", "", "8", "11", "Chain mail"]]
