"""The foes a combatant may pick as the target of an attack, as a form lists them: (id, name) of every active
combatant of the other sides, in the fight's order.

Made from every combatant, that list took a few milliseconds of each opening of the attack form in a fight of
10,000. It is kept (:class:`~tui_combat.engine.kept_lists.KeptLists`) while the combatants that changed kept
their side, their name and whether they are active: only a combatant coming into the fight, leaving it or
falling makes it anew."""

from __future__ import annotations

from tui_combat.engine.kept_lists import KeptLists
from tui_combat.engine.model import Combatant, State

__all__ = ["foe_choices"]


def _listed_alike(old: Combatant, new: Combatant) -> bool:
    return (
        old.id == new.id
        and old.side == new.side
        and old.name == new.name
        and (old.status == "active") == (new.status == "active")
    )


_KEPT: KeptLists[tuple[tuple[str, str], ...]] = KeptLists(_listed_alike)
"""By side."""


def foe_choices(state: State, side: str) -> tuple[tuple[str, str], ...]:
    """(id, name) of each active combatant who is not of ``side``, in the order of the fight's combatants."""
    return _KEPT.get(
        side,
        state,
        (),
        lambda: tuple((c.id, c.name) for c in state.combatants if c.side != side and c.status == "active"),
    )
