"""Reading TOML within bounds: every TOML file tui-combat reads (encounters, settings, the library, house
rules) goes through :func:`loads`.

:mod:`tomllib` parses nested arrays and inline tables by recursion, so thousands of ``[`` end in a
``RecursionError``; and a file of any size, or a string of any length, is read whole. Before parsing, one
pass over the text refuses what no file of tui-combat's needs: more than :data:`MAX_CHARS` characters,
values nested more than :data:`MAX_DEPTH` deep, a string longer than :data:`MAX_STRING`. The refusal is a
:class:`tomllib.TOMLDecodeError` whose message ends ``(at line N, column M)``, as tomllib's own do, so every
caller reports it the way it reports a mistake in the TOML: with the file and the line.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from typing import Any


def _untranslated(message: str, /, **params: object) -> str:
    return message.format(**params)


translate: Callable[..., str] = _untranslated
"""How this module's messages are translated: :mod:`tui_combat.i18n` sets its ``_`` here when it loads
(config, below it, reads TOML through this module, so this one cannot import it)."""

MAX_CHARS = 4_000_000
MAX_DEPTH = 32
"""Arrays and inline tables inside one another (a sheet in a list in a table is 3)."""
MAX_STRING = 100_000
"""Characters in one string (a name, a note)."""

_TOKENS = re.compile(r'"""|\'\'\'|["\'#\[\]{}\n]')
_BASIC_END = re.compile(r'(?:[^"\\\n]|\\.)*"')
_MULTI_BASIC_END = re.compile(r'(?:[^\\"]|\\.|"(?!""))*"""', re.DOTALL)


def _(message: str, /, **params: object) -> str:
    return translate(message, **params)


def _refused(text: str, position: int, reason: str) -> tomllib.TOMLDecodeError:
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    return tomllib.TOMLDecodeError(f"{reason} (at line {line}, column {column})")


def check_bounds(text: str) -> None:
    """Raise :class:`tomllib.TOMLDecodeError` when ``text`` is beyond the bounds; the pass is rough where
    the text is not TOML (tomllib then says what is wrong), exact where it is."""
    if len(text) > MAX_CHARS:
        raise tomllib.TOMLDecodeError(
            _("the file is longer than {limit:,} characters, more than any file of tui-combat needs", limit=MAX_CHARS)
            + " (at line 1, column 1)")
    depth = 0
    position = 0
    while True:
        token = _TOKENS.search(text, position)
        if token is None:
            return
        kind, start, position = token.group(), token.start(), token.end()
        end = position
        if kind == "#":
            newline = text.find("\n", position)
            position = len(text) if newline < 0 else newline
            continue
        if kind in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise _refused(text, start, _("values are nested more than {limit} deep", limit=MAX_DEPTH))
            continue
        if kind in "]}":
            depth = max(depth - 1, 0)
            continue
        if kind == "\n":
            continue
        if kind == '"':
            found = _BASIC_END.match(text, position)
            end = found.end() if found is not None else _line_end(text, position)
        elif kind == "'":
            close = text.find("'", position, _line_end(text, position))
            end = close + 1 if close >= 0 else _line_end(text, position)
        elif kind == '"""':
            found = _MULTI_BASIC_END.match(text, position)
            end = found.end() if found is not None else len(text)
        else:
            close = text.find("'''", position)
            end = close + 3 if close >= 0 else len(text)
        if end - position > MAX_STRING:
            raise _refused(text, start, _("a string is longer than {limit:,} characters", limit=MAX_STRING))
        position = max(end, position)


def _line_end(text: str, position: int) -> int:
    newline = text.find("\n", position)
    return len(text) if newline < 0 else newline


def loads(text: str) -> dict[str, Any]:
    """:func:`tomllib.loads` within the bounds above. Raises :class:`tomllib.TOMLDecodeError`."""
    check_bounds(text)
    try:
        document = tomllib.loads(text)
    except RecursionError:  # nesting the pass above did not count (it cannot, in text that is not TOML)
        raise tomllib.TOMLDecodeError(_("values are nested more than {limit} deep", limit=MAX_DEPTH)
                                      + " (at line 1, column 1)") from None
    if _depth(document) > MAX_DEPTH:  # dotted keys (a.b.c…) nest tables without a bracket
        line = next((number for number, written in enumerate(text.split("\n"), start=1)
                     if written.count(".") > MAX_DEPTH), 1)
        raise tomllib.TOMLDecodeError(_("values are nested more than {limit} deep", limit=MAX_DEPTH)
                                      + f" (at line {line}, column 1)")
    return document


def _depth(document: dict[str, Any]) -> int:
    """How deep tables and arrays nest in ``document`` (counted without recursion)."""
    deepest = 0
    pending: list[tuple[object, int]] = [(document, 1)]
    while pending:
        value, depth = pending.pop()
        if depth > deepest:
            deepest = depth
            if deepest > MAX_DEPTH:
                return deepest
        if isinstance(value, dict):
            pending.extend((item, depth + 1) for item in value.values() if isinstance(item, (dict, list)))
        elif isinstance(value, list):
            pending.extend((item, depth + 1) for item in value if isinstance(item, (dict, list)))
    return deepest
