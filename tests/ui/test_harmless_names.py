"""A fight saved before names with control characters were refused (or written by hand) shows them harmless:
the escape sequences in its names never reach the GM's terminal nor the players', wherever the names are drawn
(the turn list, the card, the log, the damage prompt, the players' view), and what follows an escape is shown
as the plain text it then is."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from textual.app import App
from textual.geometry import Region
from textual.widget import Widget

from tests.ui.fights import opened_round, saved_round
from tests.ui.steps import SIZE, until_prompt
from tests.ui.test_gm_pty import gm_in_a_pty
from tests.ui.test_view_pty import READ_LIMIT_SECONDS, view_in_a_pty
from tests.waiting import until
from tui_combat.app import CombatApp
from tui_combat.engine.text import first_control

RAF = "Raf\x1b]0;owned\x07"
"""A name that retitles the terminal."""
ORC = "Orc\x1b[31m"
"""One that turns everything after it red."""


def saved_with_escapes(data: Path) -> Path:
    """A fight in its round whose names hold escape sequences, saved as older versions saved it."""
    return saved_round(data, "ambush", [RAF], 2, monster_name=ORC)


def drawn(app: App[object]) -> str:
    """Every line every widget of the screen (and the layers over it) draws now, as it goes to the terminal."""
    lines: list[str] = []
    for widget in app.screen.walk_children(Widget, with_self=True):
        if widget.display and widget.size.area:
            lines += [strip.text for strip in widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))]
    return "\n".join(lines)


async def test_the_round_and_the_damage_prompt_show_escaped_names_harmless(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    saved_with_escapes(data_root)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened_round(pilot)
        await until(pilot, lambda: "Raf]0;owned" in drawn(app) and "Orc[31m 1" in drawn(app), "the names drawn")
        assert first_control(drawn(app), lines=True) is None
        await pilot.press("d")
        prompt = await until_prompt(pilot)
        await until(pilot, lambda: "Damage to Raf]0;owned" in drawn(app), "the prompt's title")
        assert first_control(drawn(app), lines=True) is None
        assert prompt.is_open


async def test_looking_back_shows_escaped_names_harmless(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    from tests.ui.test_rewind_screen import look_back

    saved_with_escapes(data_root)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await look_back(pilot, app)
        await until(pilot, lambda: "Raf]0;owned" in drawn(app) and "Orc[31m 1" in drawn(app), "the names drawn")
        assert first_control(drawn(app), lines=True) is None


def test_the_players_view_over_ssh_gets_no_escape_of_a_name(tmp_path: Path) -> None:
    data = tmp_path / "data"
    saved_with_escapes(data)
    with view_in_a_pty(data, tmp_path / "config", SSH_CONNECTION="127.0.0.1 50000 127.0.0.1 22") as terminal:
        terminal.read_until(b"Raf]0;owned", b"Orc[31m 2")
        os.close(terminal.master)
        terminal.process.wait(timeout=READ_LIMIT_SECONDS)
    assert (
        b"\x1b]0;owned" not in terminal.output and b"\x1b[31m" not in terminal.output
    )  # (NO_COLOR: no colour codes of its own)


def test_the_gms_terminal_gets_no_escape_of_a_name(tmp_path: Path) -> None:
    data = tmp_path / "data"
    saved_with_escapes(data)
    with gm_in_a_pty(data, tmp_path / "config", "ambush") as terminal:
        terminal.read_until(b"Raf]0;owned", b"Orc[31m 2")
        os.write(terminal.master, b"q")
        terminal.drain()
        assert terminal.process.wait(timeout=READ_LIMIT_SECONDS) == 0
    assert b"\x1b]0;owned" not in terminal.output and b"\x1b[31m" not in terminal.output
