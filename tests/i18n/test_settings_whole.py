"""The settings screen at 80×24 shows every health word whole, as its label and as the hint of its empty
field, in every language (Ukrainian "тяжко поранений" is the longest)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from tests.i18n.interface import SIZE, interface_in, make_app, screen_name
from tests.i18n.walk import cut_labels
from tests.waiting import settled, until


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_every_health_word_is_whole(
    data_root: Path, lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.common import CONFIG_ENV_VAR

    monkeypatch.setenv(CONFIG_ENV_VAR, str(tmp_path / "config"))
    with interface_in(lang) as app_module:
        app = make_app(app_module, data_root)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: screen_name(pilot) == "SessionsScreen", "the session list")
            await pilot.press("f3")
            await until(pilot, lambda: screen_name(pilot) == "SettingsScreen", "the settings")
            screen: Any = app.screen
            words = [field for field in screen.query(Input) if field.id and field.id.startswith("word-")]
            assert len(words) == 6
            for field in words:
                field.focus()
                await until(pilot, lambda: field.has_focus and settled(screen), "the field focused")
                assert cut_labels(screen, "focused") == [], (field.id, cut_labels(screen, "focused"))


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_the_thresholds_labels_stand_apart_from_their_values(
    data_root: Path, lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "Тяжёлые ранения: от, % хитов  50": each threshold's label whole, with a blank before its value."""
    from textual.widgets import Label

    from tests.common import CONFIG_ENV_VAR
    from tests.i18n.walk import drawn

    monkeypatch.setenv(CONFIG_ENV_VAR, str(tmp_path / "config"))
    with interface_in(lang) as app_module:
        app = make_app(app_module, data_root)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: screen_name(pilot) == "SessionsScreen", "the session list")
            await pilot.press("f3")
            await until(pilot, lambda: screen_name(pilot) == "SettingsScreen", "the settings")
            screen: Any = app.screen
            await until(pilot, lambda: settled(screen), "the settings drawn")
            cells = list(screen.query(".settings-number"))
            assert len(cells) == 2
            for cell in cells:
                label, field = cell.query_one(Label), cell.query_one(Input)
                shown = drawn(label).rstrip()
                assert shown == str(label.render()).strip(), shown  # whole
                assert label.region.x + len(shown) < field.region.x, shown  # a blank between it and the value
