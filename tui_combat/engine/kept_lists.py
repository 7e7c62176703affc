"""Lists made from every combatant of a state (the targets an attack form offers), kept from one state to the next.

Made anew at each opening of a form, such a list costs a pass over the whole fight: tens or hundreds of
milliseconds at 10,000 combatants. A list kept here is given again for a later state (or an earlier one: undo)
while what else it was made from is the same (the fight's or the round's own state, the language: compared as
the caller gives them, ``is`` first) and every combatant that changed in between
(:func:`~tui_combat.engine.model.changed_places`: a damage, a healing) is alike for the list's purposes (the
caller says what alike means: the same name, side, status …)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from tui_combat.engine.model import Combatant, State, changed_places

__all__ = ["KeptLists", "listed_the_same"]

T = TypeVar("T")


def listed_the_same(old: Combatant, new: Combatant) -> bool:
    """The same combatant, as a list of targets that reads his name, side, status and sheet shows him."""
    return (
        old.id == new.id
        and old.name == new.name
        and old.side == new.side
        and old.status == new.status
        and old.sheet == new.sheet
    )


class KeptLists(Generic[T]):
    """Lists by key (a side, an attacker and his call …), each with the combatants and the rest it was made from."""

    def __init__(self, alike: Callable[[Combatant, Combatant], bool], limit: int = 16) -> None:
        self._alike = alike
        self._limit = limit
        self._kept: dict[Hashable, tuple[tuple[Combatant, ...], tuple[object, ...], T]] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, state: State, made_from: tuple[object, ...], make: Callable[[], T]) -> T:
        """The list kept for ``key`` if it holds for ``state`` and ``made_from``; else ``make()``, kept."""
        combatants = state.combatants
        kept = self._kept.get(key)
        if kept is not None:
            before, kept_from, value = kept
            if len(kept_from) == len(made_from) and all(
                old is new or old == new for old, new in zip(kept_from, made_from, strict=True)
            ):
                if before is combatants:
                    return value
                places = changed_places(before, combatants)
                if places is not None and all(self._alike(before[place], combatants[place]) for place in places):
                    self._keep(key, (combatants, made_from, value))
                    return value
        value = make()
        self._keep(key, (combatants, made_from, value))
        return value

    def _keep(self, key: Hashable, entry: tuple[tuple[Combatant, ...], tuple[object, ...], T]) -> None:
        with self._lock:
            if key not in self._kept and len(self._kept) >= self._limit:
                self._kept.clear()
            self._kept[key] = entry
