"""What the app needs of Textual that its public API does not give yet, kept in one place.

Each module names the behaviour of Textual it works around, and each piece falls back to stock Textual when
``TUI_COMBAT_STOCK_TEXTUAL`` is set (to anything but "" or "0"): the app then runs as Textual draws and drives
it, slower over SSH but with nothing of Textual's internals relied on. ``tests/test_textual_ext.py`` fails
loudly when a name or a behaviour relied on here changes in a new Textual; ``tests/test_private_names.py``
lists the private names used, and allows them only here.
"""

from __future__ import annotations

import os

STOCK_SWITCH = "TUI_COMBAT_STOCK_TEXTUAL"


def stock_textual() -> bool:
    """Whether the app runs on stock Textual, none of this package's pieces in place."""
    return os.environ.get(STOCK_SWITCH, "") not in ("", "0")
