"""Advantage and disadvantage on an attack roll (SRD 5.1): from the attacker's and the target's conditions
(the data file's ``attacking`` / ``attacked`` / ``attacked_beyond_5ft``), and from the DM's own call in the
attack form. Any number of sources of each cancel to a plain roll. Also the hits that are critical because
the target is paralyzed or unconscious and the attacker within 5 ft.

A character of the party lying at 0 hit points (dying or stable) counts as unconscious.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from tui_combat.engine.audience import who
from tui_combat.engine.log import Msg
from tui_combat.engine.model import Combatant, State
from tui_combat.i18n import N_
from tui_combat.rulesets.dnd5e.data import data
from tui_combat.rulesets.dnd5e.health import Dnd5eHealth, lying_at_zero
from tui_combat.rulesets.dnd5e.state import DndFight

__all__ = ["EDGE_CHOICES", "EdgeSources", "Dnd5eEdge", "dice_for"]

EDGE_CHOICES = (("none", N_("none")), ("advantage", N_("advantage")), ("disadvantage", N_("disadvantage")))
"""The DM's own call in the attack form."""
UNCONSCIOUS = "unconscious"


class EdgeSources(NamedTuple):
    advantage: tuple[Msg, ...]
    disadvantage: tuple[Msg, ...]

    @property
    def edge(self) -> int:
        """+1 advantage, −1 disadvantage, 0 neither or both (however many of each)."""
        return int(bool(self.advantage)) - int(bool(self.disadvantage))

    def reasons(self) -> tuple[Msg, ...]:
        return (*self.advantage, *self.disadvantage)


def close_to(fight: DndFight, attacker_id: str, target_id: str) -> bool:
    """Whether the attacker was within 5 ft of the target the last time he attacked him (at first: yes)."""
    return fight.close.get(f"{attacker_id}>{target_id}", True)


def with_lying(names: list[str], lying: bool) -> list[str]:
    """A combatant's conditions, each once, and unconscious for one lying at 0 hit points."""
    if lying and UNCONSCIOUS not in names:
        names = [*names, UNCONSCIOUS]
    return list(dict.fromkeys(names))


def dice_for(edge: int) -> str:
    return {1: "d20adv", -1: "d20dis"}.get(edge, "1d20")


class Dnd5eEdge(Dnd5eHealth):
    def condition_names(self, state: State, combatant_id: str) -> list[str]:
        names = [c.name for c in self.conditions_of(state, combatant_id)]
        return with_lying(names, self.unconscious_at_zero(state, combatant_id))

    def condition_names_of_all(self, state: State) -> Callable[[str], list[str]]:
        """:meth:`condition_names` of any combatant, the fight's conditions read once for all of them (a list of
        10,000 targets asks for each one's)."""
        fight = self.fight_of(state)
        named: dict[str, list[str]] = {}
        for condition in fight.conditions:
            named.setdefault(condition.target, []).append(condition.name)

        def names(combatant_id: str) -> list[str]:
            return with_lying(named.get(combatant_id, []), lying_at_zero(fight.dying.get(combatant_id)))

        return names

    def edge_sources(self, state: State, attacker: Combatant, target: Combatant, call: str, close: bool) -> EdgeSources:
        table = data().conditions
        advantage: list[Msg] = []
        disadvantage: list[Msg] = []

        def add(edge: str, whose: Combatant, name: str) -> None:
            reason = Msg(id=N_("{name}: {condition}"), params={"name": who(state, whose), "condition": Msg(id=name)})
            if edge == "advantage":
                advantage.append(reason)
            elif edge == "disadvantage":
                disadvantage.append(reason)

        for name in self.condition_names(state, attacker.id):
            if name in table:
                add(table[name].attacking, attacker, name)
        for name in self.condition_names(state, target.id):
            if name not in table:
                continue
            condition = table[name]
            add(
                condition.attacked_beyond_5ft if condition.attacked_beyond_5ft and not close else condition.attacked,
                target,
                name,
            )
        if call == "advantage":
            advantage.append(Msg(id=N_("the DM's call")))
        elif call == "disadvantage":
            disadvantage.append(Msg(id=N_("the DM's call")))
        return EdgeSources(tuple(advantage), tuple(disadvantage))

    def automatic_critical(self, state: State, target: Combatant, close: bool) -> str:
        """The condition that makes a hit from within 5 ft critical ("" when none does, or from farther)."""
        if not close:
            return ""
        table = data().conditions
        return next(
            (
                name
                for name in self.condition_names(state, target.id)
                if name in table and table[name].critical_within_5ft
            ),
            "",
        )

    def remembered_close(self, state: State, attacker_id: str, target_id: str) -> bool:
        """Whether the attacker was within 5 ft of the target the last time he attacked him (at first: yes)."""
        return close_to(self.fight_of(state), attacker_id, target_id)
