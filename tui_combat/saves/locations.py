"""Where saves and configuration live.

Order of precedence: ``--data-dir`` on the command line, then the ``TUI_COMBAT_DATA_DIR`` environment
variable, then the platform's user data folder (``~/.local/share/tui-combat`` on Linux).
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

ENV_VAR = "TUI_COMBAT_DATA_DIR"
APP_NAME = "tui-combat"
SLUG_BYTES = 120
"""The longest folder name a session's name gives, in bytes (file systems count bytes, 255 at most)."""


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    if override:
        return Path(override).expanduser()
    from_env = os.environ.get(ENV_VAR)
    if from_env:
        return Path(from_env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def sessions_dir(root: Path) -> Path:
    return root / "sessions"


def slug(name: str) -> str:
    """A folder name for a session: keeps letters of any script, drops what file systems dislike."""
    text = unicodedata.normalize("NFC", name).strip().lower()
    text = re.sub(r"[^\w\-]+", "-", text, flags=re.UNICODE).strip("-_")[:60]
    # At most SLUG_BYTES bytes, cut between characters: with "-recovered-12" after it, still a file name.
    text = text.encode("utf-8", "surrogateescape")[:SLUG_BYTES].decode("utf-8", "ignore").strip("-_")
    return text or "session"
