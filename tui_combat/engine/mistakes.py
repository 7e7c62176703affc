"""msgspec's refusals in the GM's words, and a sheet's mistakes all at once.

msgspec says "Expected `int`, got `str` - at `$.ac`" in its own English, with a path of its own. A sheet
checker says it once, through :func:`convert_sheet`: "Sheet, ac: a whole number, not "three"." — the field as
the file or the form writes it, what it takes, and what it holds; an unknown field named, with the known ones.
A field msgspec refuses is set aside and the rest is still read, so that one wrong value does not hide the
sheet's other mistakes (:class:`Mistakes` carries each)."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import msgspec

from tui_combat.engine.errors import RuleError
from tui_combat.i18n import N_, _

__all__ = ["KIND_WORDS", "Mistakes", "convert_sheet", "file_value", "refuse", "unknown_field", "validation_text"]

S = TypeVar("S", bound=msgspec.Struct)

KIND_WORDS: dict[str, str] = {
    "int": N_("a whole number"),
    "str": N_("text"),
    "bool": N_("true or false"),
    "float": N_("a number"),
    "array": N_("a list"),
    "object": N_("a table"),
    "null": N_("nothing"),
}
"""msgspec's names of the kinds of value, as the GM reads them (the encounter file's words for them)."""

ANOTHER_VALUE = N_("another value")
"""What a wrong value is called when it cannot be quoted."""

_EXPECTED = re.compile(r"^Expected `(?P<kinds>[^`]+)`(?:, got `(?P<got>[^`]+)`)?(?P<rest>.*)$")
_BOUND = re.compile(r"^ (?P<op>>=|<=|>|<) (?P<bound>-?[0-9.]+)$")
_UNKNOWN = re.compile(r"^Object contains unknown field `(?P<field>[^`]+)`$")
_MISSING = re.compile(r"^Object missing required field `(?P<field>[^`]+)`$")
_STEP = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]")
_BOUND_MESSAGES: dict[str, str] = {
    ">=": N_("{field}: {expected} of {bound} or more, not {value}."),
    "<=": N_("{field}: {expected} of {bound} at most, not {value}."),
    ">": N_("{field}: {expected} above {bound}, not {value}."),
    "<": N_("{field}: {expected} below {bound}, not {value}."),
}


class Mistakes(RuleError):
    """Several mistakes of one sheet, each a sentence for the GM (``str()`` gives them one after another)."""

    def __init__(self, mistakes: Sequence[str]) -> None:
        super().__init__(" ".join(mistakes))
        self.mistakes = tuple(mistakes)


def refuse(mistakes: Sequence[str]) -> None:
    """Raise :class:`Mistakes` when there are any."""
    if mistakes:
        raise Mistakes(mistakes)


def file_value(value: Any) -> str:
    """A value as a TOML file writes it: text in quotes, true or false, a table, a list."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return _("a table")
    if isinstance(value, (list, tuple)):
        return _("a list")
    return str(value)


def _kinds(text: str) -> str:
    """ "int | str" → "a whole number or text"."""
    words = [_(KIND_WORDS[kind]) if kind in KIND_WORDS else kind for kind in (k.strip() for k in text.split("|"))]
    shown = words[0]
    for word in words[1:]:
        shown = _("{one} or {other}", one=shown, other=word)
    return shown


def _path(error: msgspec.ValidationError) -> tuple[str, str]:
    """msgspec's message and the path it names, without its ``$``: ("Expected …", "weapons[0].im")."""
    text, found, where = str(error).rpartition(" - at `")
    if not found:
        return str(error), ""
    return text, where.removesuffix("`").removeprefix("$").removeprefix(".")


def _at(value: Any, path: str) -> tuple[bool, Any]:
    """The value ``path`` ("weapons[0].im") leads to in ``value``, and whether it is there."""
    for step in _STEP.finditer("." + path if path and not path.startswith("[") else path):
        key, index = step.group(1), step.group(2)
        if key is not None and isinstance(value, Mapping) and key in value:
            value = value[key]
        elif index is not None and isinstance(value, (list, tuple)) and int(index) < len(value):
            value = value[int(index)]
        else:
            return False, None
    return True, value


def validation_text(error: msgspec.ValidationError, value: Any = None, known: Sequence[str] = ()) -> str:
    """``error`` in the GM's language, naming the field where it is ("ac: a whole number, not "three"."):
    ``value`` is what was converted (to quote the wrong value), ``known`` the fields of the table an unknown
    field is in, when it is the outermost."""
    message, path = _path(error)
    field = path or _("the value")
    expected = _EXPECTED.match(message)
    if expected is not None:
        there, wrong = _at(value, path)
        shown = file_value(wrong) if there else _(KIND_WORDS.get(expected["got"] or "", ANOTHER_VALUE))
        kinds, rest = _kinds(expected["kinds"]), expected["rest"]
        if not rest:
            return _("{field}: {expected}, not {value}.", field=field, expected=kinds, value=shown)
        bound = _BOUND.match(rest)
        if bound is not None:
            return _(_BOUND_MESSAGES[bound["op"]], field=field, expected=kinds, bound=bound["bound"], value=shown)
    unknown = _UNKNOWN.match(message)
    if unknown is not None:
        name = unknown["field"]
        if path or not known:
            return _('{field}: unknown field "{unknown}".', field=field, unknown=name)
        return unknown_field(name, known)
    missing = _MISSING.match(message)
    if missing is not None:
        said = _('"{field}" is missing.', field=missing["field"])
        return f"{path}: {said}" if path else said
    return f"{path}: {message}" if path else message  # a refusal msgspec words otherwise: as it says it


def unknown_field(name: str, known: Sequence[str]) -> str:
    """ "unknown field "cls" (did you mean …?); the fields here are: …"."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    if close:
        return _(
            'unknown field "{field}" (did you mean "{close}"?); the fields here are: {known}.',
            field=name,
            close=close[0],
            known=", ".join(known),
        )
    return _('unknown field "{field}"; the fields here are: {known}.', field=name, known=", ".join(known))


def _top_key(error: msgspec.ValidationError) -> str:
    """The outermost field an error is in ("weapons" of "weapons[0].im"); "" when it is the sheet as a whole."""
    _message, path = _path(error)
    step = _STEP.match("." + path) if path and not path.startswith("[") else None
    return step.group(1) if step is not None and step.group(1) is not None else ""


def convert_sheet(
    sheet: Mapping[str, Any], kind: type[S], *, strict: bool = False, forbid_unknown: bool | None = None
) -> tuple[S, list[str]]:
    """``sheet`` as ``kind``, and its mistakes in the GM's words ("Sheet, ac: a whole number, not "three"."):
    every unknown field (``forbid_unknown``; None: when ``kind`` forbids them) and every field msgspec refuses
    is named and set aside, so that the sheet's other checks still run on the rest (its defaults in their
    place). Raises :class:`Mistakes` only when what is wrong cannot be set aside."""
    mistakes: list[str] = []
    rest = dict(sheet)
    fields = kind.__struct_fields__
    if kind.__struct_config__.forbid_unknown_fields if forbid_unknown is None else forbid_unknown:
        for name in sorted(set(rest) - set(fields)):
            mistakes.append(_("Sheet, {mistake}", mistake=unknown_field(name, fields)))
            del rest[name]
    while True:
        try:
            return msgspec.convert(rest, kind, strict=strict), mistakes
        except msgspec.ValidationError as error:
            mistakes.append(_("Sheet, {mistake}", mistake=validation_text(error, rest, fields)))
            key = _top_key(error)
            if key not in rest:
                raise Mistakes(mistakes) from None
            del rest[key]
