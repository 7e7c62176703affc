"""TOML files decoded into typed Structs, with errors that name the file, the key and what was expected."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from tui_combat.engine.errors import RuleError
from tui_combat.i18n import _

T = TypeVar("T")


def read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except OSError as error:
        raise RuleError(_("Cannot read {path}: {error}", path=path, error=error.strerror or error)) from None
    except UnicodeDecodeError:
        raise RuleError(_("{path} is not UTF-8 text.", path=path)) from None
    except tomllib.TOMLDecodeError as error:
        raise RuleError(_("{path} is not valid TOML: {error}", path=path, error=error)) from None


def convert(raw: dict[str, Any], kind: type[T], path: Path) -> T:
    """``raw`` as ``kind``, strictly (a string is not a number); the error names ``path`` and the key."""
    try:
        return msgspec.convert(raw, kind, strict=True)
    except msgspec.ValidationError as error:
        raise RuleError(_("{path}: {error}", path=path, error=error)) from None


def load_table(path: Path, kind: type[T]) -> T:
    """Decode ``path`` into ``kind``; a bad file raises :class:`RuleError` naming the file and the field."""
    return convert(read_toml(path), kind, path)


def merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """``override`` laid over ``base``: tables merge key by key; anything else (numbers, lists) replaces."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = value
    return merged
