"""The interface in a language, as ``tui-combat --lang ru`` gets it: the language is switched, and every
screen made from then on shows it (key descriptions are translated when a screen is made, not when its
module is imported: nothing is imported again).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable

from tests.waiting import settled, until
from tui_combat.i18n import language, set_language
from tui_combat.widgets.footer import KeyFooter, shown_keys

SEED = 1
SIZE = (80, 24)


@contextmanager
def interface_in(lang: str) -> Iterator[ModuleType]:
    """``tui_combat.app`` with ``lang`` active; the language before it restored afterwards."""
    before = language()
    set_language(lang)
    try:
        yield importlib.import_module("tui_combat.app")
    finally:
        set_language(before)


def make_app(app_module: ModuleType, data_root: Path, **kwargs: Any) -> Any:
    kwargs.setdefault("seed", SEED)
    return app_module.CombatApp(data_root, **kwargs)


def screen_name(pilot: Pilot[Any]) -> str:
    """The active screen's class name, once its widgets are composed (a screen is active a moment before:
    a test waiting for it by name goes on to read its widgets)."""
    screen = pilot.app.screen
    return type(screen).__name__ if screen.is_mounted else f"(composing) {type(screen).__name__}"


def footer_keys(pilot: Pilot[Any]) -> list[tuple[str, str]]:
    """(key shown, description) of every key in the footer, in the order drawn (a key that came into the row
    in place may be a spare one, after the palette key among the footer's widgets, though drawn before it)."""
    footer = pilot.app.screen.query_one(KeyFooter)
    return [(key.key_display, key.description) for key in sorted(shown_keys(footer), key=lambda key: key.region.x)]


def visible_keys(pilot: Pilot[Any]) -> list[str]:
    """The actions of the footer's keys drawn whole, left of the palette key (a key under it is cut or
    hidden; a compact footer's key ends with its last letter)."""
    footer = pilot.app.screen.query_one(KeyFooter)
    keys = shown_keys(footer)
    palette = [key for key in keys if key.palette]
    right = palette[0].region.x if palette else pilot.app.size.width
    return [key.action for key in keys if not key.palette and key.region.width > 0 and key.region.right <= right]


async def until_named(pilot: Pilot[Any], name: str) -> None:
    """Until the screen is one whose class name starts with ``name`` and it has handled what its showing set
    going."""
    await until(
        pilot,
        lambda: screen_name(pilot).startswith(name) and settled(pilot.app.screen),
        name,
        describe=lambda: f"the screen is {screen_name(pilot)}",
    )


async def settle(pilot: Pilot[Any]) -> None:
    """Until the screen has handled the keys pressed and what they set going."""
    await until(pilot, lambda: settled(pilot.app.screen), "the screen to handle the keys")


async def to_setup(pilot: Pilot[Any]) -> None:
    await until(pilot, lambda: pilot.app.screen.query_one(DataTable).row_count > 0, "the session list's rows")
    await pilot.press("enter")  # the first row of the session list: the AD&D demo
    await until_named(pilot, "SetupScreen")
    await until(pilot, lambda: pilot.app.screen.query_one(DataTable).row_count > 0, "the set-up table's rows")


async def to_surprise(pilot: Pilot[Any]) -> None:
    await to_setup(pilot)
    await pilot.press("c")
    await until_named(pilot, "SurpriseScreen")


async def to_round(pilot: Pilot[Any]) -> None:
    """Surprise typed from real dice (5 and 8 on 1d10: nobody surprised), then the fight starts."""
    await to_surprise(pilot)
    await pilot.press("t")
    await until_named(pilot, "FormDialog")
    await pilot.press("5", "enter", "8", "enter")
    await until_named(pilot, "SurpriseScreen")
    await pilot.press("c")
    await until_named(pilot, "RoundScreen")


async def type_initiative(pilot: Pilot[Any], party: str, monsters: str) -> None:
    await pilot.press("n", "n", "t")
    await until_named(pilot, "FormDialog")
    await pilot.press(*party, "enter", *monsters, "enter")
    await until_named(pilot, "RoundScreen")
