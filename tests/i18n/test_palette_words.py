"""The command palette's own words in Russian and Ukrainian: what it says when a search finds nothing, and
the prompt of the theme picker it opens (ctrl+p, then "Theme"). Textual writes both in English."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette
from textual.widgets import Input

from tests.i18n.interface import SIZE, interface_in, make_app, screen_name
from tests.waiting import until

WORDS = {
    "ru": ("Ничего не найдено", "Тема", "Поиск тем…"),
    "uk": ("Нічого не знайдено", "Тема", "Пошук тем…"),
}


def options(palette: CommandPalette) -> list[str]:
    found = palette.query_one(CommandList)
    return [str(getattr(option.prompt, "renderable", option.prompt)) for option in found.options]


@pytest.mark.parametrize("lang", sorted(WORDS))
async def test_the_palette_speaks_the_language(lang: str, data_root: Path) -> None:
    nothing, theme, themes = WORDS[lang]
    with interface_in(lang) as module:
        app = make_app(module, data_root)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: screen_name(pilot) == "SessionsScreen", "the session list")
            await pilot.press("ctrl+p")
            await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
            palette = app.screen
            await pilot.press(*"zzqq")
            await until(
                pilot,
                lambda: nothing in options(palette),
                f"{nothing!r} in the palette's list",
                describe=lambda: repr(options(palette)),
            )
            assert "No matches found" not in options(palette)

            await pilot.press(*["backspace"] * 4, *theme)
            await until(
                pilot,
                lambda: any(option.startswith(theme) for option in options(palette)),
                "the theme command",
                describe=lambda: repr(options(palette)),
            )
            await pilot.press("enter")
            await until(
                pilot, lambda: isinstance(app.screen, CommandPalette) and app.screen is not palette, "the theme picker"
            )
            assert app.screen.query_one(Input).placeholder == themes
