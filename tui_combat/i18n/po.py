"""A ``.po`` reader and a ``.mo`` writer: the part of ``msgfmt`` this project needs (``msgctxt``, plural
forms, the header entry whose ``Plural-Forms`` :class:`gettext.GNUTranslations` reads, escapes; fuzzy and
untranslated entries left out). Imported only when a catalog is compiled (a cache miss)."""

from __future__ import annotations

import ast
import struct
from dataclasses import dataclass, field

MO_MAGIC = 0x950412DE


class CatalogError(ValueError):
    """A ``.po`` file that cannot be read (a translator's typo): says the file and the line."""


@dataclass
class PoEntry:
    msgid: str = ""
    msgid_plural: str = ""
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    """Translations by plural index (0 only, for a message without plural)."""
    flags: set[str] = field(default_factory=set)
    line: int = 0

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr.values())


def _unquote(text: str, path: str, line: int) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise CatalogError(f"{path}:{line}: a quoted string was expected, not {text!r}")
    try:
        value = ast.literal_eval(text)  # the C escapes of .po strings are Python's too (\n, \t, \", \\)
    except (SyntaxError, ValueError):
        raise CatalogError(f"{path}:{line}: cannot read the string {text!r}") from None
    if not isinstance(value, str):
        raise CatalogError(f"{path}:{line}: cannot read the string {text!r}")
    return value


def parse_po(text: str, path: str = "<po>") -> list[PoEntry]:
    """Every entry of a ``.po`` text, the header (``msgid ""``) included, obsolete (``#~``) ones left out."""
    entries: list[PoEntry] = []
    entry = PoEntry()
    started = False
    target: tuple[str, int] | None = None  # which string the continuation lines extend

    def finish() -> None:
        nonlocal entry, started, target
        if started:
            entries.append(entry)
        entry, started, target = PoEntry(), False, None

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            finish()
            continue
        if line.startswith("#"):
            if started and target is not None and entry.msgstr:
                finish()  # a comment after a complete entry starts the next one
            if line.startswith("#,"):
                entry.flags.update(flag.strip() for flag in line[2:].split(",") if flag.strip())
            continue
        keyword, _space, rest = line.partition(" ")
        if line.startswith('"'):
            if target is None:
                raise CatalogError(f"{path}:{number}: a string continues nothing")
            name, index = target
            value = _unquote(line, path, number)
            if name == "msgid":
                entry.msgid += value
            elif name == "msgid_plural":
                entry.msgid_plural += value
            elif name == "msgctxt":
                entry.msgctxt = (entry.msgctxt or "") + value
            else:
                entry.msgstr[index] += value
            continue
        if keyword in ("msgctxt", "msgid") and started and (entry.msgstr or keyword == "msgctxt"):
            finish()
        if not started:
            entry.line = number
        started = True
        if keyword == "msgctxt":
            entry.msgctxt, target = _unquote(rest, path, number), ("msgctxt", 0)
        elif keyword == "msgid":
            entry.msgid, target = _unquote(rest, path, number), ("msgid", 0)
        elif keyword == "msgid_plural":
            entry.msgid_plural, target = _unquote(rest, path, number), ("msgid_plural", 0)
        elif keyword == "msgstr":
            entry.msgstr[0], target = _unquote(rest, path, number), ("msgstr", 0)
        elif keyword.startswith("msgstr[") and keyword.endswith("]") and keyword[7:-1].isdigit():
            index = int(keyword[7:-1])
            entry.msgstr[index], target = _unquote(rest, path, number), ("msgstr", index)
        else:
            raise CatalogError(f"{path}:{number}: unknown keyword {keyword!r}")
    finish()
    return entries


def compile_mo(entries: list[PoEntry]) -> bytes:
    """The GNU ``.mo`` data for ``entries``: fuzzy and untranslated entries are left out (as ``msgfmt``
    does), except the header, which carries the charset and the plural formula."""
    pairs: dict[bytes, bytes] = {}
    for entry in entries:
        is_header = entry.msgid == "" and entry.msgctxt is None
        if not is_header and (entry.fuzzy or not entry.translated):
            continue
        original = entry.msgid
        if entry.msgid_plural:
            original += "\0" + entry.msgid_plural
        if entry.msgctxt is not None:
            original = entry.msgctxt + "\x04" + original
        translation = "\0".join(entry.msgstr[index] for index in sorted(entry.msgstr))
        pairs[original.encode("utf-8")] = translation.encode("utf-8")
    keys = sorted(pairs)
    count = len(keys)
    header_size = 7 * 4
    originals_at = header_size
    translations_at = originals_at + count * 8
    data_at = translations_at + count * 8
    data = bytearray()
    originals: list[tuple[int, int]] = []
    translations: list[tuple[int, int]] = []
    for key in keys:
        originals.append((len(key), data_at + len(data)))
        data += key + b"\0"
    for key in keys:
        value = pairs[key]
        translations.append((len(value), data_at + len(data)))
        data += value + b"\0"
    out = bytearray(struct.pack("<7I", MO_MAGIC, 0, count, originals_at, translations_at, 0, data_at))
    for length, offset in originals + translations:
        out += struct.pack("<2I", length, offset)
    return bytes(out + data)
