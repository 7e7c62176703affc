"""The keys the app itself uses on the round screen, by binding id, and the GM's own keymap over them.

The round screen builds its generic bindings from this table, and the registry refuses a ruleset whose
catalogue uses one of these keys (or one key twice), so a collision is an error at load, never a key
that silently does nothing.

The GM may move any binding to other keys (``[keys]`` in ``settings.toml``, by binding id, checked when
the app starts): :func:`use_keymap` records the entries in force, and :func:`effective`, :func:`reserved`
and :func:`shown_key` answer with them, so the registry's check and the hint lines that name a key see the
keys the GM actually presses.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from tui_combat.i18n import N_

ROUND_KEYS: dict[str, str] = {
    "round.next": "n,space",
    "round.back": "b",
    "round.roll": "r",
    "round.type": "t",
    "round.declare": "e",
    "round.damage": "d",
    "round.heal": "h",
    "round.status": "x",
    "round.add": "i",
    "round.bring_in": "I",
    "round.undo": "u",
    "round.redo": "U,ctrl+y",
    "round.leave": "escape",
    "round.save_as": "ctrl+s",
    "round.options": "O",
    "round.quit": "q",
    "round.filter": "slash",
    "round.group": "asterisk",
    "round.effect": "E",
    "round.export": "R",
    "round.save_to_library": "L",
    "round.hide": "H",
    "round.show_held": "S",
}
APP_KEYS: dict[str, str] = {
    "app.help": "f1,question_mark",
    "app.settings": "f3",
    "app.quit": "ctrl+q",
    "app.palette": "ctrl+p",
    "focus": "tab,shift+tab,up,down,left,right,pageup,pagedown,home,end,enter",
}
FOCUS_KEYS: tuple[str, ...] = tuple(APP_KEYS["focus"].split(","))
"""Keys that move around a screen's lists and fields: no binding may be moved onto one of them."""

KEY_LABELS: dict[str, str] = {
    "round.next": N_("Next"),
    "round.back": N_("Back"),
    "round.roll": N_("Roll"),
    "round.type": N_("Typed"),
    "round.declare": N_("Declare"),
    "round.damage": N_("Damage"),
    "round.heal": N_("Heal"),
    "round.status": N_("Status"),
    "round.add": N_("Add"),
    "round.bring_in": N_("Bring in one waiting outside the order"),
    "round.undo": N_("Undo"),
    "round.redo": N_("Redo"),
    "round.leave": N_("Sessions"),
    "round.save_as": N_("Save as"),
    "round.options": N_("Options"),
    "round.quit": N_("Quit"),
    "round.filter": N_("List"),
    "round.group": N_("Fold or unfold a group"),
    "round.effect": N_("Condition or effect for some rounds"),
    "round.export": N_("Fight report"),
    "round.save_to_library": N_("Save to the library"),
    "round.hide": N_("Hide from the players, or reveal"),
    "round.show_held": N_("Show the players what was held as it names a secret"),
    "app.help": N_("Help"),
    "app.settings": N_("Settings"),
    "app.quit": N_("Quit"),
    "app.palette": N_("Palette"),
    "focus": N_("moving around the screen"),
}
"""What each reserved binding does, for messages about a key already taken."""

_keymap: dict[str, str] = {}
"""The GM's entries in force: binding id → keys ("j" or "j,ctrl+n"), as Textual's keymap has them."""

_SHOWN: dict[str, str] = {
    "escape": "Esc",
    "enter": "Enter",
    "space": "space",
    "tab": "Tab",
    "backspace": "Backspace",
    "delete": "Del",
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "slash": "/",
    "backslash": "\\",
    "minus": "-",
    "plus": "+",
    "underscore": "_",
    "at": "@",
}


def ruleset_binding_id(ruleset_id: str, action: str) -> str:
    """The binding id of a ruleset's action on its round screen: ``<ruleset id>.attack``."""
    return f"{ruleset_id}.{action}"


def use_keymap(keymap: Mapping[str, str]) -> None:
    """The GM's keymap entries from now on (already checked: known ids, no key used twice)."""
    _keymap.clear()
    _keymap.update(keymap)


def keymap() -> dict[str, str]:
    """A copy of the GM's entries in force."""
    return dict(_keymap)


def default_keys(binding_id: str) -> str | None:
    """The keys the app gives ``binding_id`` (None for one that is not in its tables, a ruleset's action …)."""
    return ROUND_KEYS.get(binding_id) or APP_KEYS.get(binding_id)


def effective(binding_id: str, default: str = "") -> str:
    """The keys that run ``binding_id`` now: the GM's, else the app's, else ``default`` (a ruleset's own)."""
    return _keymap.get(binding_id) or default_keys(binding_id) or default


def shown_key(binding_id: str, default: str = "") -> str:
    """The first key of ``binding_id`` as a hint line names it: "n", "Esc", "/", "ctrl+s"."""
    first = effective(binding_id, default).split(",")[0].strip()
    return key_display(first)


def key_display(key: str) -> str:
    """A key name as the GM reads it: ``escape`` → "Esc", ``question_mark`` → "?", ``ctrl+slash`` → "ctrl+/"."""
    modifiers, _plus, base = key.rpartition("+")
    if not base:  # "ctrl++" or a lone "+"
        modifiers, base = key[:-1].rstrip("+"), "+"
    shown = _SHOWN.get(base)
    if shown is None:
        try:
            character = unicodedata.lookup(base.replace("_", " ").upper()) if len(base) > 1 else base
        except KeyError:
            character = base
        shown = character if len(character) == 1 and character.isprintable() else base
    return f"{modifiers}+{shown}" if modifiers else shown


def reserved() -> dict[str, str]:
    """Every key taken by the app (with the GM's keymap in force) → the binding id that takes it."""
    taken: dict[str, str] = {}
    for table in (APP_KEYS, ROUND_KEYS):
        for binding_id in table:
            for key in effective(binding_id).split(","):
                taken[key] = binding_id
    return taken
