"""Symbols the screens use, with a plain fallback for a terminal that cannot show them.

A Linux text console (``TERM=linux``) has a 256- or 512-glyph font: no padlock, no cross, no hooked
arrow. A terminal whose locale is not UTF-8 cannot receive them at all. There, each symbol is shown as
plain ASCII instead. The choice is made once, from the environment the app was started in.
"""

from __future__ import annotations

import os
from functools import cache

FALLBACK: dict[str, str] = {
    "🔒": "#",
    "⭘": "o",
    "✝": "+",
    "↪": "->",
    "▶": ">",
    "⚐": "!",
    "⚄": "*",
    "✓": "v",
    "⊘": "(h)",
    "♥": "<3",
    "✗": "x",
    "○": "-",
}
"""Each symbol → what a terminal that cannot show it gets."""


def _utf8_locale(environ: dict[str, str]) -> bool:
    """Whether the locale the terminal was started in is UTF-8 (LC_ALL wins over LC_CTYPE over LANG, as in C);
    with none set, Python's own default (UTF-8) is taken."""
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = environ.get(name, "")
        if value:
            normalised = value.lower().replace("-", "")
            return "utf8" in normalised or value in ("C.UTF-8",)
    return True


def plain_terminal(environ: dict[str, str] | None = None) -> bool:
    """True when the terminal cannot be trusted with symbols beyond ASCII: a Linux console, a locale that
    is not UTF-8, or ``TUI_COMBAT_PLAIN=1``."""
    env = dict(os.environ) if environ is None else environ
    if env.get("TUI_COMBAT_PLAIN", "") not in ("", "0"):
        return True
    return env.get("TERM", "") == "linux" or not _utf8_locale(env)


@cache
def _plain() -> bool:
    return plain_terminal()


def glyph(symbol: str) -> str:
    """``symbol``, or its plain fallback on a terminal that cannot show it."""
    return FALLBACK.get(symbol, symbol) if _plain() else symbol


def forget_terminal() -> None:
    """Decide again from the environment (for tests that change it)."""
    _plain.cache_clear()
