"""Terminals that cannot show colour or symbols: ``NO_COLOR`` gives a screen without a colour code, and a
Linux console or a locale that is not UTF-8 gets plain fallbacks for the symbols it has no glyph for."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.ui.fights import opened, saved_round
from tests.ui.steps import SIZE
from tui_combat.app import CombatApp
from tui_combat.widgets import glyphs

COLOUR_CODE = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")
"""An SGR sequence that sets a foreground or background colour (39 and 49, the terminal's default, are not)."""


def screen_output(app: CombatApp) -> str:
    """What the app sends to draw its whole screen now."""
    update = app.screen._compositor.render_update(full=True)
    assert update is not None
    return update.render_segments(app.console)


async def test_no_color_sends_no_colour_code(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved_round(data_root, "ambush", ["Raf"], 2)
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        output = screen_output(app)
        assert "Raf" in output and "\x1b[" in output
        assert COLOUR_CODE.findall(output) == []


async def test_with_colour_the_same_screen_has_colour_codes(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved_round(data_root, "ambush", ["Raf"], 2)
    monkeypatch.delenv("NO_COLOR", raising=False)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        assert COLOUR_CODE.findall(screen_output(app)) != []  # the pattern does find colour codes


@pytest.mark.parametrize(
    ("environ", "plain"),
    [
        ({"TERM": "linux", "LANG": "en_US.UTF-8"}, True),
        ({"TERM": "xterm-256color", "LANG": "en_US.ISO-8859-1"}, True),
        ({"TERM": "xterm-256color", "LC_ALL": "C", "LANG": "en_US.UTF-8"}, True),
        ({"TERM": "xterm-256color", "LANG": "en_US.UTF-8"}, False),
        ({"TERM": "xterm-256color", "LC_CTYPE": "ru_RU.utf8"}, False),
        ({"TERM": "xterm-256color", "LANG": "en_US.UTF-8", "TUI_COMBAT_PLAIN": "1"}, True),
    ],
)
def test_the_terminal_chooses_plain_symbols(environ: dict[str, str], plain: bool) -> None:
    assert glyphs.plain_terminal(environ) is plain


def test_on_a_linux_console_every_symbol_has_a_plain_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "linux")
    glyphs.forget_terminal()
    try:
        assert [glyphs.glyph(symbol) for symbol in "🔒⭘✝↪▶"] == ["#", "o", "+", "->", ">"]
        assert all(glyphs.glyph(symbol).isascii() for symbol in glyphs.FALLBACK)
    finally:
        monkeypatch.undo()
        glyphs.forget_terminal()
