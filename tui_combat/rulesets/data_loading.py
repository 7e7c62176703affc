"""Reading a ruleset's TOML tables into typed Structs, with errors that name the file and the key."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import TypeVar

import msgspec

from tui_combat.i18n import _
from tui_combat.rulesets.base import RuleError

DATA_DIR = Path(__file__).parent / "data"
T = TypeVar("T")


def load_table(path: Path, kind: type[T]) -> T:
    """Decode ``path`` into ``kind``; a bad file raises :class:`RuleError` naming the file and the field."""
    try:
        with path.open("rb") as handle:
            raw = tomllib.load(handle)
    except OSError as error:
        raise RuleError(_("Cannot read {path}: {error}", path=path, error=error.strerror or error)) from None
    except tomllib.TOMLDecodeError as error:
        raise RuleError(_("{path} is not valid TOML: {error}", path=path, error=error)) from None
    try:
        return msgspec.convert(raw, kind)
    except msgspec.ValidationError as error:
        raise RuleError(_("{path}: {error}", path=path, error=error)) from None
