"""The keys the app itself uses on the round screen, by binding id.

The round screen builds its generic bindings from this table, and the registry refuses a ruleset whose
catalogue uses one of these keys (or one key twice), so a collision is an error at load, never a key
that silently does nothing.
"""

from __future__ import annotations

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
    "round.undo": "u",
    "round.redo": "U,ctrl+y",
    "round.leave": "escape",
    "round.save_as": "ctrl+s",
    "round.options": "O",
    "round.quit": "q",
    "round.filter": "slash",
    "round.group": "asterisk",
    "round.effect": "E",
}
APP_KEYS: dict[str, str] = {
    "app.help": "f1,question_mark",
    "app.quit": "ctrl+q",
    "app.palette": "ctrl+p",
    "focus": "tab,shift+tab,up,down,left,right,pageup,pagedown,home,end,enter",
}

KEY_LABELS: dict[str, str] = {
    "round.next": N_("Next"), "round.back": N_("Back"), "round.roll": N_("Roll"), "round.type": N_("Typed"),
    "round.declare": N_("Declare"), "round.damage": N_("Damage"), "round.heal": N_("Heal"), "round.status": N_("Status"),
    "round.add": N_("Add"), "round.undo": N_("Undo"), "round.redo": N_("Redo"), "round.leave": N_("Sessions"),
    "round.save_as": N_("Save as"), "round.options": N_("Options"), "round.quit": N_("Quit"), "round.filter": N_("List"),
    "round.group": N_("Fold or unfold a group"), "round.effect": N_("Condition or effect for some rounds"),
    "app.help": N_("Help"),
    "app.quit": N_("Quit"), "app.palette": N_("Palette"), "focus": N_("moving around the screen"),
}
"""What each reserved binding does, for messages about a key already taken."""


def reserved() -> dict[str, str]:
    """Every key taken by the app → the binding id that takes it."""
    taken: dict[str, str] = {}
    for table in (APP_KEYS, ROUND_KEYS):
        for binding_id, keys in table.items():
            for key in keys.split(","):
                taken[key] = binding_id
    return taken
