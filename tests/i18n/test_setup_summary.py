"""A new fight's set-up names its options in the GM's language: never the catalog's header, never a row of
empty commas."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from tests.i18n.interface import interface_in, make_app, screen_name
from tests.waiting import until

SIZE = (80, 24)


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_a_new_fight_names_its_options(data_root: Path, lang: str) -> None:
    with interface_in(lang) as app_module:
        app = make_app(app_module, data_root)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("n")
            await until(pilot, lambda: screen_name(pilot) == "SetupScreen", "the set-up of a new fight")
            summary: Any = app.screen.query_one("#setup-summary", Static)
            await until(pilot, lambda: str(summary.render()).strip(), "the set-up summary")
            text = str(summary.render())
            assert "Project-Id-Version" not in text and "Plural-Forms" not in text, text
            options_line = text.splitlines()[1]
            assert ", ," not in options_line and not options_line.rstrip().endswith(":"), options_line
