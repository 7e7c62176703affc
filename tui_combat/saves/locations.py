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
    text = re.sub(r"[^\w\-]+", "-", text, flags=re.UNICODE).strip("-_")
    return text[:60] or "session"
