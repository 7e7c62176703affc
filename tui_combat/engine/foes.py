"""The foes a combatant may pick as the target of an attack, as a form lists them: (id, name) of every active
combatant of the other sides, in the fight's order.

Made from every combatant, that list took a few milliseconds of each opening of the attack form in a fight of
10,000. It is kept for the combatants it was made from, and carried to the next state when the combatants that
changed since (:func:`~tui_combat.engine.model.changed_places`: a damage, a healing) kept their side, their
name and whether they are active: only a combatant coming into the fight, leaving it or falling makes it
anew."""

from __future__ import annotations

import threading

from tui_combat.engine.model import Combatant, State, changed_places

__all__ = ["foe_choices"]

_KEPT: dict[str, tuple[tuple[Combatant, ...], tuple[tuple[str, str], ...]]] = {}
"""By side: the combatants the list was made for, and the list."""
_LOCK = threading.Lock()
_SIDES_KEPT = 16


def foe_choices(state: State, side: str) -> tuple[tuple[str, str], ...]:
    """(id, name) of each active combatant who is not of ``side``, in the order of the fight's combatants."""
    combatants = state.combatants
    kept = _KEPT.get(side)
    if kept is not None:
        before, choices = kept
        if before is combatants:
            return choices
        places = changed_places(before, combatants)
        if places is not None and all(_listed_alike(before[place], combatants[place]) for place in places):
            _keep(side, combatants, choices)
            return choices
    choices = tuple((c.id, c.name) for c in combatants if c.side != side and c.status == "active")
    _keep(side, combatants, choices)
    return choices


def _listed_alike(old: Combatant, new: Combatant) -> bool:
    return (
        old.id == new.id
        and old.side == new.side
        and old.name == new.name
        and (old.status == "active") == (new.status == "active")
    )


def _keep(side: str, combatants: tuple[Combatant, ...], choices: tuple[tuple[str, str], ...]) -> None:
    with _LOCK:
        if side not in _KEPT and len(_KEPT) >= _SIDES_KEPT:
            _KEPT.clear()
        _KEPT[side] = (combatants, choices)
