"""TOML files decoded into typed Structs, with errors that name the file, the key and what was expected."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from tui_combat.engine.errors import RuleError
from tui_combat.i18n import _
from tui_combat.i18n.os_words import os_error_text
from tui_combat.settings import toml_read

T = TypeVar("T")


def read_toml(path: Path) -> dict[str, Any]:
    try:
        return toml_read.loads(path.read_bytes().decode("utf-8"))
    except OSError as error:
        raise RuleError(_("Cannot read {path}: {error}", path=path, error=os_error_text(error))) from None
    except UnicodeDecodeError:
        raise RuleError(_("{path} is not UTF-8 text.", path=path)) from None
    except tomllib.TOMLDecodeError as error:
        raise RuleError(_("{path} is not valid TOML: {error}", path=path, error=error)) from None


def convert(raw: dict[str, Any], kind: type[T], path: Path) -> T:
    """``raw`` as ``kind``, strictly (a string is not a number); the error names ``path`` and the key."""
    try:
        return msgspec.convert(raw, kind, strict=True)
    except msgspec.ValidationError as error:
        raise RuleError(_("{path}: {error}", path=path, error=_name_keys(raw, kind, str(error)))) from None


_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+|\.\.\.)\]")


def _name_keys(raw: Any, kind: type[Any], message: str) -> str:
    """msgspec writes a mapping's key as ``[...]`` in an error's path (``$.weapon_speeds[...]``): find
    which key it is, by converting the mapping narrowed to one key at a time, and write it out
    (``$.weapon_speeds["long sword"]``). Only runs when a file is already refused."""
    text, found, where = message.rpartition(" - at `")
    if not found or not where.startswith("$") or "[...]" not in where:
        return message
    where = where.removesuffix("`")
    shown, trail, position = "$", [], 1
    for step in _STEP.finditer(where, 1):
        if step.start() != position:
            return message
        position = step.end()
        field, index = step.group(1), step.group(2)
        if field is not None:
            trail.append(field)
            shown += "." + field
        elif index != "...":
            trail.append(int(index))
            shown += f"[{index}]"
        else:
            mapping = _at(raw, trail)
            if not isinstance(mapping, dict):
                return message
            for key, value in mapping.items():
                narrowed = _replaced(raw, trail, {key: value})
                try:
                    msgspec.convert(narrowed, kind, strict=True)
                except msgspec.ValidationError as error:
                    if str(error) == message:
                        raw = narrowed
                        trail.append(key)
                        import json  # only when a file is refused

                        shown += f"[{json.dumps(key, ensure_ascii=False)}]"
                        break
            else:
                return message
    if position != len(where):
        return message
    return f"{text} - at `{shown}`"


def _at(raw: Any, trail: list[Any]) -> Any:
    for step in trail:
        try:
            raw = raw[step]
        except (KeyError, IndexError, TypeError):
            return None
    return raw


def _replaced(raw: Any, trail: list[Any], value: Any) -> Any:
    """A copy of ``raw`` with ``value`` at ``trail`` (the rest shared, not copied)."""
    if not trail:
        return value
    step, rest = trail[0], trail[1:]
    if isinstance(raw, dict):
        return {**raw, step: _replaced(raw[step], rest, value)}
    copy = list(raw)
    copy[step] = _replaced(raw[step], rest, value)
    return copy


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
