"""An installed plugin's demo fight (its ruleset's ``demo``) is offered in the session list beside the app's, and
opens like them: the Savage Worlds example's "Shoot-out at the ford"."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable

from tui_combat.engine.contract import AnyRuleset
from tui_combat.fight import session
from tui_combat.testing import SIZE, make_app, store, until, until_sessions, until_setup, visible_text


def test_the_installed_plugin_s_demo_is_listed_after_the_app_s(savage_worlds: AnyRuleset) -> None:
    (demo,) = session.plugin_demos()
    assert (demo.file_name, demo.ruleset, demo.shown()) == (
        "savage_worlds/demo.toml",
        "savage_worlds",
        "Demo: Shoot-out at the ford",
    )
    assert demo.file == savage_worlds.demo


async def test_the_session_list_opens_the_plugin_s_demo(savage_worlds: AnyRuleset, tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        table = (await until_sessions(pilot)).query_one(DataTable)
        await until(
            pilot,
            lambda: "Shoot-out at the ford" in visible_text(table),
            "the plugin's demo listed",
            describe=lambda: visible_text(table),
        )
        rows = visible_text(table).splitlines()
        ours = [index for index, row in enumerate(rows) if "Demo:" in row]
        assert "Shoot-out at the ford" in rows[ours[-1]] and "Savage Worlds" in rows[ours[-1]], rows
        await pilot.press("end", "enter")
        await until_setup(pilot)
        assert store(app).state.ruleset == "savage_worlds" and store(app).state.name == "Shoot-out at the ford"
