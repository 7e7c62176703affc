"""A new fight's set-up names its options in the GM's language: never the catalog's header, never a row of
empty commas."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from tests.i18n.interface import interface_in, make_app, screen_name
from tests.waiting import until, until_widget

SIZE = (80, 24)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_a_new_fight_names_its_options(data_root: Path, lang: str) -> None:
    with interface_in(lang) as app_module:
        app = make_app(app_module, data_root)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("n")
            await until(pilot, lambda: screen_name(pilot) == "SetupScreen", "the set-up of a new fight")
            summary: Any = await until_widget(pilot, "#setup-summary", Static, "the set-up summary's line")
            await until(pilot, lambda: str(summary.render()).strip(), "the set-up summary")
            text = str(summary.render())
            assert "Project-Id-Version" not in text and "Plural-Forms" not in text, text
            options_line = text.splitlines()[1]
            assert ", ," not in options_line and not options_line.rstrip().endswith(":"), options_line


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_each_option_is_named_beside_its_value_and_nothing_is_cut(data_root: Path, lang: str) -> None:
    from functools import partial

    from tests.i18n.walk import cut_labels
    from tui_combat.engine import registry
    from tui_combat.engine.apply import fight_options
    from tui_combat.fight import session
    from tui_combat.i18n import _

    demo = next(demo for demo in session.DEMOS if demo.ruleset == "players_option")
    with interface_in(lang) as app_module:
        app = make_app(app_module, data_root)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: screen_name(pilot) == "SessionsScreen", "the session list")
            app.open_session(partial(session.open_demo, data_root, demo.file_name, seed=app.seed))
            await until(pilot, lambda: screen_name(pilot) == "SetupScreen", "the set-up")
            summary: Any = await until_widget(pilot, "#setup-summary", Static, "the set-up summary's line")
            await until(pilot, lambda: _("Sides") in str(summary.render()), "the set-up summary")
            text = " ".join(str(summary.render()).split())
            for option in fight_options(registry.get("players_option")):
                label = " ".join(_(option.label).split())
                assert f"{label}: {' '.join(_(option.choices[0][1]).split())}" in text, (label, text)
            assert not [cut for cut in cut_labels(app.screen) if _("Options") in cut], cut_labels(app.screen)
