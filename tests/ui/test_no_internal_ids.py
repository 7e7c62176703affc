"""No internal id reaches the GM: every binding, help row and palette entry of every screen (each ruleset's
round screen included) is walked, and anything that looks like an id (``round.next``, ``side_situations``,
``c12``, ``g6``, ``s1``) fails the test."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.screen import Screen

from tests.ui.fights import opened, saved_round, until_help
from tests.ui.steps import SIZE
from tui_combat.app import CombatApp
from tui_combat.engine import registry
from tui_combat.screens.dialogs import ChoiceDialog, ConfirmDialog, FormDialog
from tui_combat.screens.help import binding_rows, described_bindings
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.sessions import SessionsScreen
from tui_combat.screens.setup import SetupScreen
from tui_combat.screens.surprise import SurpriseScreen

INTERNAL_ID = re.compile(r"\b[a-z0-9]+\.[a-z_]+\b|\b[a-z]+_[a-z_]+\b|\b[cgs][0-9]+\b")


def internal_ids(text: str) -> list[str]:
    return INTERNAL_ID.findall(text)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("round.heal", ["round.heal"]),
        ("adnd2e.side_situations", ["adnd2e.side_situations"]),
        ("c12 g6 s1", ["c12", "g6", "s1"]),
        ("Next · n, space", []),
        ("ctrl+s", []),
        ("f1", []),
        ("Attack with advantage", []),
    ],
)
def test_the_pattern_finds_ids_and_nothing_else(text: str, found: list[str]) -> None:
    assert internal_ids(text) == found


def every_screen() -> list[Screen[object]]:
    screens: list[Screen[object]] = [
        SessionsScreen(),
        SetupScreen(),
        SurpriseScreen(),
        FormDialog("", []),  # type: ignore[list-item]
        ChoiceDialog("", []),
        ConfirmDialog("", "", confirm="", cancel=""),
    ]
    screens += [RoundScreen(ruleset_id) for ruleset_id in registry.available()]  # type: ignore[misc]
    return screens


async def test_no_binding_help_row_or_palette_entry_shows_an_id(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE):
        seen: list[str] = []
        for screen in every_screen():
            for keys, binding in described_bindings(screen):
                seen.append(f"{type(screen).__name__}: {binding.description} · {keys}")
            for keys, description in binding_rows(screen):
                seen.append(f"{type(screen).__name__}: help {description} · {keys}")
            for command in app.get_system_commands(screen):
                seen.append(f"{type(screen).__name__}: palette {command.title} · {command.help}")
        assert len(seen) > 100
        offending = [line for line in seen if internal_ids(line.split(": ", 1)[1])]
        assert offending == []


async def test_the_help_screen_of_a_round_shows_keys_and_words_only(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    saved_round(data_root, "ambush", ["Raf"], 2)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        await pilot.press("f1")
        rows = [f"{keys} {description}" for keys, description in await until_help(pilot)]
        assert "n, space Next" in rows and "a Attack" in rows, rows
        assert [row for row in rows if internal_ids(row)] == []
