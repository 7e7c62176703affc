"""Reading TOML within bounds: every TOML file tui-combat reads (encounters, settings, the library, house
rules) goes through :func:`loads`.

:mod:`tomllib` parses nested arrays and inline tables by recursion, so thousands of ``[`` end in a
``RecursionError``; and a file of any size, or a string of any length, is read whole. Before parsing, one
pass over the text refuses what no file of tui-combat's needs: more than :data:`MAX_CHARS` characters,
values nested more than :data:`MAX_DEPTH` deep, a string longer than :data:`MAX_STRING`. The refusal is a
:class:`TomlError` (a :class:`tomllib.TOMLDecodeError`), as is a mistake tomllib finds, so every caller
reports both the same way: with the file and the line.

tomllib says what is wrong in English; :class:`TomlError` says it in the GM's language (tomllib's messages
are read into translated ones, its line and column kept), and keeps the line for the callers.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

import tui_combat

MAX_CHARS = 4_000_000
MAX_DEPTH = 32
"""Arrays and inline tables inside one another (a sheet in a list in a table is 3)."""
MAX_STRING = 100_000
"""Characters in one string (a name, a note)."""

_TOKENS = re.compile(r'"""|\'\'\'|["\'#\[\]{}\n]')
_BASIC_END = re.compile(r'(?:[^"\\\n]|\\.)*"')
_MULTI_BASIC_END = re.compile(r'(?:[^\\"]|\\.|"(?!""))*"""', re.DOTALL)


def _(message: str, /, **params: object) -> str:
    return tui_combat.translate(message, **params)


def N_(message: str) -> str:
    """A message marked for the catalogs, translated where it is shown."""
    return message


class TomlError(tomllib.TOMLDecodeError):
    """What is wrong in a TOML text, in the GM's language: ``reason``, and where (``line`` and ``column``
    from 1; None at the end of the text)."""

    def __init__(self, reason: str, line: int | None, column: int | None = None) -> None:
        self.reason = reason
        self.line = line
        self.column = column
        if line is None:
            where = _("at the end of the text")
        else:
            where = _("line {line}, column {column}", line=line, column=column or 1)
        super().__init__(f"{reason} ({where})")


_POSITION = re.compile(r"\s*\((?:at line (\d+), column (\d+)|at end of document)\)$")
_TOMLLIB_MESSAGES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), message)
    for pattern, message in (
        (r"Expected newline or end of document after a statement", N_("the line goes on after its value")),
        (r"Cannot overwrite a value", N_("this key has a value already")),
        (r"Escaped character is not a Unicode scalar value", N_("an escape sequence names no character")),
        (r"Expected '=' after a key in a key/value pair", N_('"=" is missing after the key')),
        (r"Expected '\]' at the end of a table declaration", N_('"]" is missing at the end of the table\'s name')),
        (r"Expected '\]\]' at the end of an array declaration", N_('"]]" is missing at the end of the table\'s name')),
        (r"Invalid date or datetime", N_("not a date or time")),
        (r"Invalid hex value", N_("not a hexadecimal number")),
        (r"Invalid initial character for a key part", N_("a key cannot begin with this character")),
        (r"Invalid statement", N_("this line is neither a key = value nor a [table]")),
        (r"Invalid value", N_("not a value (a text needs quotes around it)")),
        (r"Unclosed array", N_('a list is not closed with "]"')),
        (r"Unclosed inline table", N_('a table is not closed with "}}"')),
        (r"Unescaped '\\' in a string", N_('a "\\" in a text is not followed by a known escape')),
        (r"Unterminated string", N_("a text is not closed with its quote")),
        (r"Cannot declare (?P<key>.+) twice", N_("{key} is declared twice")),
        (
            r"Cannot mutate immutable namespace (?P<key>.+)",
            N_("{key} was written whole already: it cannot be added to"),
        ),
        (r"Cannot redefine namespace (?P<key>.+)", N_("{key} is declared twice")),
        (r"Duplicate inline table key (?P<key>.+)", N_("{key} is twice in one table")),
        (r"Found invalid character (?P<char>.+)", N_("the character {char} is not allowed here")),
        (r"Illegal character '\\n'", N_("a text is not closed with its quote on its line")),
        (r"Illegal character (?P<char>.+)", N_("the character {char} is not allowed here")),
        (r"Expected (?P<char>.+)", N_("{char} is missing here")),
    )
)


def reason_of(message: str) -> str:
    """One of tomllib's messages (without where) in the GM's language; one this does not know, as it is."""
    for pattern, wanted in _TOMLLIB_MESSAGES:
        found = pattern.fullmatch(message.strip())
        if found is not None:
            return _(wanted, **{name: _key_text(value) for name, value in found.groupdict().items()})
    return message


def _key_text(written: str) -> str:
    """A key as tomllib quotes it ("('sides', 'name')") as the file writes it: ``sides.name``."""
    parts = re.findall(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"", written)
    if written.startswith("(") and parts:
        return ".".join(single or double for single, double in parts)
    return written


def translated(error: tomllib.TOMLDecodeError) -> TomlError:
    """tomllib's error as a :class:`TomlError`: its message translated, its line and column kept."""
    if isinstance(error, TomlError):
        return error
    message = str(error)
    position = _POSITION.search(message)
    reason = reason_of(message[: position.start()] if position is not None else message)
    if position is None or position.group(1) is None:
        return TomlError(reason, None)
    return TomlError(reason, int(position.group(1)), int(position.group(2)))


def _refused(text: str, position: int, reason: str) -> TomlError:
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    return TomlError(reason, line, column)


def check_bounds(text: str) -> None:
    """Raise :class:`tomllib.TOMLDecodeError` when ``text`` is beyond the bounds; the pass is rough where
    the text is not TOML (tomllib then says what is wrong), exact where it is."""
    if len(text) > MAX_CHARS:
        raise TomlError(
            _("the file is longer than {limit:,} characters, more than any file of tui-combat needs", limit=MAX_CHARS),
            1,
            1,
        )
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
    """:func:`tomllib.loads` within the bounds above. Raises :class:`TomlError`."""
    check_bounds(text)
    try:
        document = tomllib.loads(text)
    except RecursionError:  # nesting the pass above did not count (it cannot, in text that is not TOML)
        raise TomlError(_("values are nested more than {limit} deep", limit=MAX_DEPTH), 1, 1) from None
    except tomllib.TOMLDecodeError as error:
        raise translated(error) from None
    if _depth(document) > MAX_DEPTH:  # dotted keys (a.b.c…) nest tables without a bracket
        line = next(
            (number for number, written in enumerate(text.split("\n"), start=1) if written.count(".") > MAX_DEPTH), 1
        )
        raise TomlError(_("values are nested more than {limit} deep", limit=MAX_DEPTH), line, 1)
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
