"""Where the user's own files live: house-rule data, settings (``~/.config/tui-combat`` on Linux).

``TUI_COMBAT_CONFIG_DIR`` overrides the platform's folder (tests, portable installs).
"""

from __future__ import annotations

import os
from pathlib import Path

CONFIG_ENV_VAR = "TUI_COMBAT_CONFIG_DIR"
APP_NAME = "tui-combat"


def config_dir() -> Path:
    from_env = os.environ.get(CONFIG_ENV_VAR)
    if from_env:
        return Path(from_env).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def house_rules_dir() -> Path:
    """Ruleset data files placed here (``adnd2e.toml`` …) override the built-in tables, key by key."""
    return config_dir() / "rulesets"
