"""Babel extractors: the TOML data files' shown labels, and Python with the calls inside f-strings.

:func:`extract_python` is Babel's own Python extractor plus the translation calls written inside an
f-string (``f"{_('speed')} {value}"``), which Babel's tokenizer does not look into before Python 3.12.

:func:`extract_toml` takes the labels a ruleset's tables and the demo encounters show.

Babel calls :func:`extract_toml` with options saying what in the file is text to translate:

* ``values``: keys whose string values are shown (``label``, ``question``, ``name`` …), wherever they are;
* ``keys_of``: dotted paths of tables whose keys are shown (``weapon_speeds``: the weapons' names);
* ``lists``: dotted paths of lists of strings that are shown (``slow_weapons.weapons``);
* ``lowercase``: tables (dotted paths) whose entries' ``name`` is also shown in lower case, inside a
  sentence ("attacks with the seax"): the lower-case name is a message of its own.

``comment`` is passed on to translators (``#.`` in the catalog) to say where the words are used.
Only :func:`extract_python` needs Babel (from the test extras); nothing here runs in the app.
"""

from __future__ import annotations

import ast
import io
import tomllib
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any, cast

Extracted = tuple[int, str | None, str | tuple[str | None, ...], list[str]]


def _calls_in_fstrings(source: bytes, keywords: Collection[str]) -> Iterator[Extracted]:
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if not isinstance(node, ast.JoinedStr):
            continue
        for inner in ast.walk(node):
            if not isinstance(inner, ast.Call):
                continue
            func = inner.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in keywords:
                args = tuple(
                    arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
                    for arg in inner.args
                )
                if args and args[0] is not None:
                    yield inner.lineno, name, args, []


def extract_python(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, str]
) -> Iterator[Extracted]:
    from babel.messages.extract import extract_python as babel_python

    source = fileobj.read()
    found: Iterator[Any] = babel_python(io.BytesIO(source), cast(Any, keywords), comment_tags, cast(Any, options))
    for item in found:
        yield cast(Extracted, item)
    yield from _calls_in_fstrings(source, keywords)


def _words(option: str | None) -> list[str]:
    return option.split() if option else []


def _at(data: Any, path: str) -> Any:
    for step in path.split("."):
        if not isinstance(data, dict):
            return None
        data = data.get(step)
    return data


def _values(data: Any, keys: Collection[str]) -> Iterator[str]:
    if isinstance(data, dict):
        for key, value in data.items():
            if key in keys and isinstance(value, str) and value:
                yield value
            elif key in keys and isinstance(value, list):
                yield from (item for item in value if isinstance(item, str) and item)
            else:
                yield from _values(value, keys)
    elif isinstance(data, list):
        for item in data:
            yield from _values(item, keys)


def messages_of(data: Mapping[str, Any], options: Mapping[str, str]) -> list[str]:
    """The texts of a decoded TOML file that ``options`` say are shown, each once, in file order."""
    found: list[str] = list(_values(dict(data), set(_words(options.get("values")))))
    for path in _words(options.get("keys_of")):
        table = _at(data, path)
        if isinstance(table, dict):
            found += [key for key in table if not key.endswith("_source")]
    for path in _words(options.get("lists")):
        items = _at(data, path)
        if isinstance(items, list):
            found += [item for item in items if isinstance(item, str)]
    for path in _words(options.get("lowercase")):
        table = _at(data, path)
        if isinstance(table, dict):
            found += [
                entry["name"].lower()
                for entry in table.values()
                if isinstance(entry, dict) and isinstance(entry.get("name"), str)
            ]
    return list(dict.fromkeys(found))


def extract_toml(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, str]
) -> Iterator[Extracted]:
    text = fileobj.read().decode("utf-8")
    data = tomllib.loads(text)
    lines = text.splitlines()
    comment = [options["comment"]] if options.get("comment") else []
    for message in messages_of(data, options):
        quoted = f'"{message}"'.lower()
        line = next((number for number, content in enumerate(lines, start=1) if quoted in content.lower()), 0)
        yield line, None, message, comment
