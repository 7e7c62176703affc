"""Text from outside (what the GM types or pastes, an encounter or library file) on its way to a terminal or
a report.

A control character has no place in a name, a note or an effect: an escape (U+001B) starts the sequences
that retitle, recolour or reprogram a terminal, the GM's and, through the players' view, the players'. Such
text is refused where it comes in (:func:`control_problem`, :func:`action_text_problem`), with a message
that says which character and where; text that holds one from before (a fight saved by an older version, a
file written by hand) is shown harmless wherever it goes out: :func:`harmless` for a report or a line
printed to the shell (each control character shown as its picture, ␛ for an escape), :func:`without_controls`
for a screen's lines, where a character must keep the width it was laid out with (none).

Only the control characters themselves (Unicode's category Cc: U+0000–U+001F, U+007F–U+009F) are dangerous:
the rest of an escape sequence ("[31m") is plain text once its escape is gone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import msgspec

from tui_combat.i18n import N_, _

__all__ = [
    "MULTI_LINE_FIELDS",
    "action_text_problem",
    "control_problem",
    "first_control",
    "harmless",
    "json_harmless",
    "value_problem",
    "without_controls",
]

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_CONTROL_BUT_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters other than a line break and a tab, which a note written over several lines holds."""
_C1_AND_DELETE = re.compile("[\x7f-\x9f]")

_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)} | {0x7F: "\u2421"}
"""Unicode's pictures of the C0 controls (␀ … ␟) and of delete (␡); a C1 control (U+0080–U+009F) has none
and is shown as the replacement character."""
_HARMLESS = {code: _PICTURES.get(code, "\ufffd") for code in (*range(0x20), *range(0x7F, 0xA0))}
_HARMLESS_BUT_LINES = {code: picture for code, picture in _HARMLESS.items() if code not in (0x09, 0x0A)}
_REMOVED = dict.fromkeys(_HARMLESS)

_NAMES: dict[int, str] = {
    0x00: N_("null"),
    0x07: N_("bell"),
    0x08: N_("backspace"),
    0x09: N_("tab"),
    0x0A: N_("line break"),
    0x0D: N_("carriage return"),
    0x1B: N_("escape"),
    0x7F: N_("delete"),
    0x9B: N_("escape"),
    0x9D: N_("escape"),
}
"""What the control characters a GM may meet are called (U+009B and U+009D open escape sequences as U+001B does)."""

MULTI_LINE_FIELDS = frozenset({"notes", "text"})
"""The fields a line break and a tab are allowed in: notes, written over several lines in a file."""

QUOTED = 40
"""How much of a refused text its message quotes."""


def first_control(text: str, *, lines: bool = False) -> int | None:
    """Where the first control character of ``text`` is (from 0), None when it has none; with ``lines``, a
    line break and a tab do not count."""
    match = (_CONTROL_BUT_LINES if lines else _CONTROL).search(text)
    return match.start() if match else None


def character_name(character: str) -> str:
    """A control character as a message names it: "U+001B, escape"."""
    code = ord(character)
    name = _NAMES.get(code)
    return f"U+{code:04X}, {_(name)}" if name else f"U+{code:04X}"


def control_problem(text: str, *, lines: bool = False) -> str | None:
    """The refusal of ``text`` when it holds a control character (with ``lines``: other than a line break or a
    tab), saying which and where; None when it holds none."""
    at = first_control(text, lines=lines)
    if at is None:
        return None
    quoted = harmless(text if len(text) <= QUOTED else text[:QUOTED] + "…")
    return _(
        '"{text}" holds a control character ({character}) at character {position}: names, notes and other '
        "text may hold no control character or escape sequence.",
        text=quoted,
        character=character_name(text[at]),
        position=at + 1,
    )


def harmless(text: str, *, lines: bool = False) -> str:
    """``text`` with each control character shown as its picture (␛ for an escape): for a report, or a line
    printed to the shell. With ``lines``, line breaks and tabs are kept."""
    if text.isprintable():  # the usual case, at C speed
        return text
    return text.translate(_HARMLESS_BUT_LINES if lines else _HARMLESS)


def without_controls(text: str) -> str:
    """``text`` without its control characters: for a line already laid out, where each of them was given no
    width (an escape's picture would push the rest of the line one cell on)."""
    if text.isprintable():
        return text
    return text.translate(_REMOVED)


def json_harmless(text: str) -> str:
    """JSON text with the control characters a JSON encoder leaves as they are (delete and U+0080–U+009F; the
    others it escapes already) written as escapes: the same data, harmless on a terminal."""
    return _C1_AND_DELETE.sub(lambda match: f"\\u{ord(match.group(0)):04x}", text)


def value_problem(value: Any, key: str) -> str | None:
    """The refusal of the first text in ``value`` (a text, or the keys and values of a table or a list, all the
    way down) that holds a control character; ``key``: the field it is, which decides whether it may hold line
    breaks (:data:`MULTI_LINE_FIELDS`). None when none does."""
    if isinstance(value, str):
        return control_problem(value, lines=key in MULTI_LINE_FIELDS)
    if isinstance(value, Mapping):
        for inner_key, inner in value.items():
            problem = value_problem(inner_key, "") if isinstance(inner_key, str) else None
            problem = problem or value_problem(inner, str(inner_key))
            if problem:
                return problem
    elif isinstance(value, (list, tuple)):
        for inner in value:
            problem = value_problem(inner, key)
            if problem:
                return problem
    return None


_TEXT_FIELDS: dict[str, tuple[str, ...]] = {
    "name": ("name",),
    "add_side": ("name",),
    "add": ("name", "sheet", "notes"),
    "edit": ("name", "sheet", "notes"),
    "note": ("text",),
    "effect": ("name",),
    "declare": ("declaration",),
    "rs": ("args",),
}
"""By the action's tag: its fields that hold what the GM typed (the others are ids, numbers and the app's
own rolls, made by the app)."""


def action_text_problem(action: msgspec.Struct) -> str | None:
    """The refusal of an action when some text the GM typed in it holds a control character; None when none
    does. Only the actions that carry typed text are looked through, and only those fields: the check costs
    nothing on the keys of a turn."""
    tag = getattr(type(action), "__struct_config__").tag
    for field in _TEXT_FIELDS.get(tag, ()) if isinstance(tag, str) else ():
        problem = value_problem(getattr(action, field, None), field)
        if problem:
            return problem
    return None
