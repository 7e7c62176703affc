"""The keys the app itself uses on the round screen, by binding id.

The round screen builds its generic bindings from this table, and the registry refuses a ruleset whose
catalogue uses one of these keys (or one key twice), so a collision is an error at load, never a key
that silently does nothing.
"""

from __future__ import annotations

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
}
APP_KEYS: dict[str, str] = {
    "app.help": "f1,question_mark",
    "app.quit": "ctrl+q",
    "app.palette": "ctrl+p",
    "focus": "tab,shift+tab,up,down,left,right,pageup,pagedown,home,end,enter",
}


def reserved() -> dict[str, str]:
    """Every key taken by the app → the binding id that takes it."""
    taken: dict[str, str] = {}
    for table in (APP_KEYS, ROUND_KEYS):
        for binding_id, keys in table.items():
            for key in keys.split(","):
                taken[key] = binding_id
    return taken
