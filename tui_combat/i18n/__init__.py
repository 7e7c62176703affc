"""One translation function for every user-facing string.

Messages are written in English in the code and looked up by their English text in the
active catalog (``ru.toml``, ``uk.toml`` beside this file, added as they are translated).
A missing translation falls back to English, so a half-translated catalog never breaks the app.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

_CATALOG_DIR = Path(__file__).parent
_catalog: dict[str, str] = {}
_language = "en"


def set_language(language: str) -> None:
    """Switch the catalog; unknown languages fall back to English."""
    global _catalog, _language
    _language = language
    path = _CATALOG_DIR / f"{language}.toml"
    if language == "en" or not path.exists():
        _catalog = {}
        return
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    _catalog = {str(key): str(value) for key, value in data.get("messages", {}).items()}


def language() -> str:
    return _language


def use_catalog(language: str, messages: dict[str, str]) -> None:
    """Switch to an in-memory catalog (for tests, and for catalogs loaded from elsewhere)."""
    global _catalog, _language
    _language = language
    _catalog = dict(messages)


def N_(message: str, /) -> str:
    """Mark a message id for extraction without translating it (it is stored, and rendered when shown)."""
    return message


def _(message: str, /, **params: object) -> str:
    """Translate ``message`` and fill ``{name}`` placeholders from ``params``."""
    text = _catalog.get(message, message)
    if params:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return message.format(**params)
    return text


def _init_from_environment() -> None:
    lang = os.environ.get("TUI_COMBAT_LANG", "")
    if lang:
        set_language(lang.split(".")[0].split("_")[0])


_init_from_environment()
