"""Where each key of a TOML file is written, for messages that point at a line (tomllib keeps no positions).

:func:`key_lines` scans a text that :mod:`tomllib` has already read without error, so it only has to follow
valid TOML: table headers, arrays of tables, dotted and quoted keys, inline tables and arrays (an element
of an array is found by its index), and values that span lines (multi-line strings and arrays), which are
skipped over without looking for keys in them.
"""

from __future__ import annotations

import bisect
import tomllib
from collections.abc import Mapping

KeyPath = tuple[str | int, ...]
"""Keys and array indexes from the top of the document: ``("sides", 1, "combatants", 0, "hp")``."""

_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_SCALAR_ENDS = frozenset(",]}\n#")


def key_lines(text: str) -> dict[KeyPath, int]:
    """The line (from 1) where each key, table and array element of ``text`` begins."""
    return _Scanner(text).run()


def line_of(lines: Mapping[KeyPath, int], path: KeyPath) -> int | None:
    """The line of ``path``, or of the nearest enclosing key that has one (a key inside an inline table
    written over several lines, a key that is missing and belongs in a table); None when none has."""
    for end in range(len(path), 0, -1):
        line = lines.get(path[:end])
        if line is not None:
            return line
    return None


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.newlines = [index for index, char in enumerate(text) if char == "\n"]
        self.lines: dict[KeyPath, int] = {}
        self.table: KeyPath = ()
        self.last_element: dict[KeyPath, int] = {}
        """Index of the last ``[[…]]`` element of each array of tables."""

    def line(self) -> int:
        return bisect.bisect_left(self.newlines, self.pos) + 1

    def peek(self, count: int = 1) -> str:
        return self.text[self.pos : self.pos + count]

    def note(self, path: KeyPath) -> None:
        self.lines.setdefault(path, self.line())

    def run(self) -> dict[KeyPath, int]:
        while True:
            self.skip_blank(newlines=True)
            if self.pos >= len(self.text):
                return self.lines
            if self.peek() == "[":
                self.header()
            else:
                self.key_value(self.table)

    def skip_blank(self, *, newlines: bool) -> None:
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char in " \t\r" or (newlines and char == "\n"):
                self.pos += 1
            elif char == "#":
                end = text.find("\n", self.pos)
                self.pos = len(text) if end < 0 else end
            else:
                return

    def header(self) -> None:
        many = self.peek(2) == "[["
        self.pos += 2 if many else 1
        parts = self.key()
        self.skip_blank(newlines=False)
        self.pos += 2 if many else 1
        path: KeyPath = ()
        for part in parts[:-1]:
            path = self.within_arrays((*path, part))
        path = (*path, parts[-1])
        if many:
            self.note(path)
            index = self.last_element.get(path, -1) + 1
            self.last_element[path] = index
            path = (*path, index)
            self.lines[path] = self.line()
        else:
            self.note(path)
        self.table = path

    def within_arrays(self, path: KeyPath) -> KeyPath:
        """``path``, into the last element when it names an array of tables."""
        index = self.last_element.get(path)
        return path if index is None else (*path, index)

    def key(self) -> list[str]:
        parts: list[str] = []
        while True:
            self.skip_blank(newlines=False)
            char = self.peek()
            if char == '"':
                end = self.string_end(self.pos, '"')
                parts.append(str(tomllib.loads("k = " + self.text[self.pos : end])["k"]))
                self.pos = end
            elif char == "'":
                end = self.text.index("'", self.pos + 1) + 1
                parts.append(self.text[self.pos + 1 : end - 1])
                self.pos = end
            else:
                start = self.pos
                while self.pos < len(self.text) and self.text[self.pos] in _BARE:
                    self.pos += 1
                parts.append(self.text[start : self.pos])
            self.skip_blank(newlines=False)
            if self.peek() != ".":
                return parts
            self.pos += 1

    def key_value(self, table: KeyPath) -> None:
        line = self.line()
        parts = self.key()
        path = table
        for part in parts:
            path = (*path, part)
            self.lines.setdefault(path, line)
        self.skip_blank(newlines=False)
        self.pos += 1  # "="
        self.skip_blank(newlines=False)
        self.value(path)

    def value(self, path: KeyPath) -> None:
        text = self.text
        if text.startswith(('"""', "'''"), self.pos):
            quote = text[self.pos]
            start = self.pos + 3
            end = self.string_end(start, quote * 3, multiline=True) if quote == '"' else text.index("'''", start) + 3
            while end < len(text) and text[end] == quote:  # the content may end with one or two quotes
                end += 1
            self.pos = end
        elif self.peek() in ('"', "'"):
            quote = self.peek()
            self.pos = self.string_end(self.pos, '"') if quote == '"' else text.index("'", self.pos + 1) + 1
        elif self.peek() == "[":
            self.array(path)
        elif self.peek() == "{":
            self.inline_table(path)
        else:
            while self.pos < len(text) and text[self.pos] not in _SCALAR_ENDS:
                self.pos += 1

    def string_end(self, start: int, quote: str, *, multiline: bool = False) -> int:
        """The position just after the basic string that opens at ``start`` (or whose content begins
        there, for a multi-line one) and is closed by ``quote``."""
        position = start if multiline else start + 1
        text = self.text
        while True:
            char = text[position]
            if char == "\\":
                position += 2
            elif text.startswith(quote, position):
                return position + len(quote)
            else:
                position += 1

    def array(self, path: KeyPath) -> None:
        self.pos += 1
        index = 0
        while True:
            self.skip_blank(newlines=True)
            if self.peek() == "]":
                self.pos += 1
                return
            element = (*path, index)
            self.note(element)
            self.value(element)
            index += 1
            self.skip_blank(newlines=True)
            if self.peek() == ",":
                self.pos += 1

    def inline_table(self, path: KeyPath) -> None:
        self.pos += 1
        while True:
            self.skip_blank(newlines=True)
            if self.peek() == "}":
                self.pos += 1
                return
            self.key_value(path)
            self.skip_blank(newlines=True)
            if self.peek() == ",":
                self.pos += 1
