"""tui-combat: a keyboard-driven combat manager for tabletop game masters."""

from collections.abc import Callable

__version__ = "0.1.0"


def _untranslated(message: str, /, **params: object) -> str:
    return message.format(**params)


translate: Callable[..., str] = _untranslated
"""How the modules that :mod:`tui_combat.i18n` imports, or that need not load it (its choice of language, the
TOML reader), translate their messages: i18n puts its ``_`` here when it loads."""
