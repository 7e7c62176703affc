"""A machine of the test's own: empty config, data and cache folders, English, a plain UTC clock and a known
terminal — never the developer's settings, library, saves, language or theme.

:func:`hermetic_environment` says what the environment should be; :func:`app_environment` puts it in place for
the length of a ``with`` block (plain Python, no test runner needed); the pytest fixture ``app_home``
(:mod:`tui_combat.testing.fixtures`) does it for one test.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = [
    "CLEARED_PREFIXES",
    "KEPT",
    "KEPT_PREFIXES",
    "PINNED",
    "SHARED_CACHE",
    "USER_FOLDERS",
    "app_environment",
    "hermetic_environment",
    "pinned_language",
]

PINNED: dict[str, str] = {
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "LANGUAGE": "",
    "LC_MESSAGES": "",
    "LC_CTYPE": "",
    "TZ": "UTC",
    "TERM": "xterm-256color",
    "NO_COLOR": "1",
    "COLORTERM": "",
    "TUI_COMBAT_PLAIN": "",
    "COLUMNS": "80",
    "LINES": "24",
    "FORCE_COLOR": "",
    "TTY_COMPATIBLE": "",
    "TTY_INTERACTIVE": "",
    "ESCDELAY": "",
}
"""Variables every test starts with (an empty value is removed). ``COLUMNS``/``LINES``: the width argparse
and Rich wrap their text to (a user's narrow terminal would wrap the command's help)."""

CLEARED_PREFIXES = ("TEXTUAL", "TUI_COMBAT_")
"""Variables the user may have set that change what the app or Textual does; removed for each test."""
KEPT = {"TUI_COMBAT_BROWSER", "TUI_COMBAT_TEST_DEADLINE"}
"""…except these, which tell the tests where a browser is and how long a busy machine may take…"""
KEPT_PREFIXES = ("TEXTUAL_SNAPSHOT",)
"""…and what pytest-textual-snapshot sets for its own run (its folder for the screenshots it compares)."""

USER_FOLDERS = {
    "HOME": "home",
    "XDG_CONFIG_HOME": "config",
    "XDG_DATA_HOME": "data",
    "XDG_CACHE_HOME": "cache",
    "XDG_STATE_HOME": "state",
    "XDG_RUNTIME_DIR": "runtime",
    "TUI_COMBAT_CONFIG_DIR": "config/tui-combat",
    "TUI_COMBAT_DATA_DIR": "data/tui-combat",
}
"""Each folder variable → where it points inside the test's own machine folder. ``TUI_COMBAT_CONFIG_DIR`` is the
folder of ``settings.toml`` (language, theme, keys) and of the house rules (``rulesets/``);
``TUI_COMBAT_DATA_DIR`` that of the saved sessions and the GM's library."""
SHARED_CACHE = "TUI_COMBAT_CACHE_DIR"
"""Compiled catalogs are the same for every test: one cache, made once (``None`` leaves the user's)."""


def hermetic_environment(machine: Path, cache: Path | None = None) -> dict[str, str | None]:
    """What the environment should be for a test whose private folders live in ``machine`` (None: unset); the
    folders are made. ``cache``: where compiled catalogs are kept (None: the user's cache, which holds nothing of
    his but catalogs compiled before)."""
    wanted: dict[str, str | None] = {
        name: None
        for name in os.environ
        if name.startswith(CLEARED_PREFIXES) and name not in KEPT and not name.startswith(KEPT_PREFIXES)
    }
    for name, value in PINNED.items():
        wanted[name] = value or None
    for name, folder in USER_FOLDERS.items():
        path = machine / folder
        path.mkdir(parents=True, exist_ok=True)
        wanted[name] = str(path)
    wanted[SHARED_CACHE] = str(cache) if cache is not None else os.environ.get(SHARED_CACHE)
    return wanted


def _put(environment: dict[str, str | None]) -> None:
    for name, value in environment.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@contextmanager
def pinned_language() -> Iterator[None]:
    """English and the terminal's symbols decided afresh inside the block; the language of before after it."""
    from tui_combat.i18n import language, set_language
    from tui_combat.widgets.glyphs import forget_terminal

    before = language()
    set_language("en")
    forget_terminal()
    try:
        yield
    finally:
        set_language(before)
        forget_terminal()


@contextmanager
def app_environment(machine: Path, cache: Path | None = None) -> Iterator[Path]:
    """Inside the block, the app runs on a machine of its own in ``machine`` (see :func:`hermetic_environment`),
    in English; the environment and the language of before come back after it."""
    saved = dict(os.environ)
    _put(hermetic_environment(machine, cache))
    if hasattr(time, "tzset"):
        time.tzset()
    try:
        with pinned_language():
            yield machine
    finally:
        os.environ.clear()
        os.environ.update(saved)
        if hasattr(time, "tzset"):
            time.tzset()
