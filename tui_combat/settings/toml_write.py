"""Writing TOML (:mod:`tomllib` only reads it): the settings file, an encounter, a library entry, written so
that :mod:`tomllib` reads back exactly what was written.

Text, whole numbers, true/false, decimals, lists and tables; a table inside an entry is written inline on
one line (``sheet = { cls = "monster", level = 1 }``), as a GM writes one by hand. ``None`` has no TOML form:
a table leaves such a key out.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from datetime import date, datetime, time
from typing import Any

__all__ = ["TomlWriteError", "key", "table_lines", "toml_text", "value"]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


class TomlWriteError(ValueError):
    """A value TOML cannot hold (an object of another type)."""


def key(name: str) -> str:
    """A key as TOML writes it: bare when it can be, else quoted."""
    return name if _BARE_KEY.fullmatch(name) else text(name)


def text(string: str) -> str:
    """A basic string: JSON's escapes are TOML's, except that DEL must be escaped too."""
    return json.dumps(string, ensure_ascii=False).replace("\x7f", "\\u007f")


def value(item: Any) -> str:
    """One value, on one line."""
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, float):
        if math.isnan(item):
            return "nan"
        if math.isinf(item):
            return "inf" if item > 0 else "-inf"
        return repr(item)
    if isinstance(item, str):
        return text(item)
    if isinstance(item, (datetime, date, time)):
        return item.isoformat()
    if isinstance(item, Mapping):
        pairs = [f"{key(str(name))} = {value(inner)}" for name, inner in item.items() if inner is not None]
        return "{ " + ", ".join(pairs) + " }" if pairs else "{}"
    if isinstance(item, (list, tuple)):
        return "[" + ", ".join(value(inner) for inner in item if inner is not None) + "]"
    raise TomlWriteError(f"TOML cannot hold {type(item).__name__}")


def table_lines(items: Iterable[tuple[str, Any]]) -> list[str]:
    """``key = value`` lines for the pairs whose value is not None."""
    return [f"{key(name)} = {value(item)}" for name, item in items if item is not None]


def toml_text(document: Mapping[str, Any]) -> str:
    """``document`` as TOML text that :mod:`tomllib` reads back equal: plain keys first, then tables and
    arrays of tables (nested ones under dotted headers)."""
    lines: list[str] = []
    _write_table(lines, (), document)
    return "\n".join(lines).lstrip("\n") + "\n" if lines else ""


def _is_table_array(item: object) -> bool:
    return isinstance(item, list) and bool(item) and all(isinstance(inner, dict) for inner in item)


def _write_table(lines: list[str], trail: tuple[str, ...], table: Mapping[str, Any]) -> None:
    lines += table_lines(
        (name, item) for name, item in table.items() if not isinstance(item, dict) and not _is_table_array(item)
    )
    for name, item in table.items():
        inner = (*trail, name)
        if isinstance(item, dict):
            if not item or any(not isinstance(v, dict) and not _is_table_array(v) for v in item.values()):
                lines += ["", f"[{'.'.join(map(key, inner))}]"]
            _write_table(lines, inner, item)
        elif _is_table_array(item):
            for entry in item:
                lines += ["", f"[[{'.'.join(map(key, inner))}]]"]
                _write_table(lines, inner, entry)
