"""Testing rules through the engine: dice that show the faces a test chooses, rolls built by hand, short readers of a
state, and a ruleset registered for one test (no entry point needed)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

from tui_combat.engine import registry
from tui_combat.engine.contract import AnyRuleset
from tui_combat.engine.dice import Roll, physical, roll
from tui_combat.engine.log import render
from tui_combat.engine.model import State

__all__ = ["Faces", "die", "ids", "labels", "order_names", "registered", "rolled", "typed"]


class Faces(random.Random):
    """Dice that show the faces we choose, in order: ``roll("2d6", Faces(3, 4))`` is 7, and the app's draws
    (``draw_initiative(state, requests, Faces(…))``) take them too."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def typed(expr: str, total: int) -> Roll:
    """A roll typed from real dice: the total, no faces."""
    return physical(expr, str(total))


def rolled(expr: str, *faces: int) -> Roll:
    """``expr`` rolled with dice that show ``faces``."""
    return roll(expr, Faces(*faces))


def die(expr: str, total: int) -> Roll:
    """One die that showed ``total``."""
    return Roll(expr=expr, total=total, faces=(total,))


def ids(state: State) -> dict[str, str]:
    """Combatant name → id."""
    return {c.name: c.id for c in state.combatants}


def order_names(state: State) -> list[list[str]]:
    """The names in each slot of the order."""
    names = state.names()
    return [[names[c] for c in slot.combatants] for slot in state.order]


def labels(state: State) -> list[str]:
    """The label of each slot of the order, rendered."""
    return [render(slot.label) for slot in state.order]


@contextmanager
def registered(ruleset: AnyRuleset) -> Iterator[AnyRuleset]:
    """``ruleset`` registered without an entry point (checked and prepared as one found by it would be); the
    registry forgets it (and everything it loaded) after."""
    registry.register(ruleset)
    try:
        yield ruleset
    finally:
        registry.forget()
