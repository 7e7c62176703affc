"""The targets the attack form lists, each with its armour class and the chance to hit it ("Orc 5 — AC 13: 60% to
hit"): every other combatant up, or lying at 0 hit points, the attacker's foes first.

Worked out for each target from the whole fight's state, that list took some 300 ms of each opening of the form
in a fight of 10,000. Here the conditions are read once for all targets, the edge (advantage, disadvantage) is
worked out once for each set of the target's conditions and closeness, the chance once for each armour class and
edge; and the list is kept from one state to the next while the attacker, the call, the fight's own state
(conditions, the dying, who stood close to whom) and the language are the same, and the combatants that changed
since (:func:`~tui_combat.engine.model.changed_places`: a damage, a healing) kept their name, side, sheet and
status."""

from __future__ import annotations

from tui_combat.engine.kept_lists import KeptLists, listed_the_same
from tui_combat.engine.model import Combatant, State
from tui_combat.i18n import _, words_in_use
from tui_combat.rulesets.dnd5e.attack_dice import hit_chance
from tui_combat.rulesets.dnd5e.edge import Dnd5eEdge, close_to
from tui_combat.rulesets.dnd5e.health import lying_at_zero
from tui_combat.rulesets.dnd5e.sheet import sheet_of

__all__ = ["target_choices"]

Choices = tuple[tuple[str, str], ...]


_KEPT: KeptLists[Choices] = KeptLists(listed_the_same)
"""By attacker, call and attack bonus."""


def target_choices(rules: Dnd5eEdge, state: State, attacker: Combatant, call: str, bonus: int) -> Choices:
    """(id, label) of each combatant ``attacker`` may attack, as the form lists them (see the module)."""
    return _KEPT.get(
        (attacker.id, call, bonus),
        state,
        (state.fight_state, words_in_use(), attacker),
        lambda: _made(rules, state, attacker, call, bonus),
    )


def _made(rules: Dnd5eEdge, state: State, attacker: Combatant, call: str, bonus: int) -> Choices:
    fight = rules.fight_of(state)
    names_of = rules.condition_names_of_all(state)
    others = sorted(
        (
            c
            for c in state.combatants
            if c.id != attacker.id and (c.status == "active" or lying_at_zero(fight.dying.get(c.id)))
        ),
        key=lambda c: c.side == attacker.side,
    )
    edges: dict[tuple[tuple[str, ...], bool], int] = {}
    chances: dict[tuple[int, int], int] = {}
    choices = []
    for target in others:
        close = close_to(fight, attacker.id, target.id)
        signature = (tuple(names_of(target.id)), close)
        edge = edges.get(signature)
        if edge is None:
            edge = edges[signature] = rules.edge_sources(state, attacker, target, call, close).edge
        armour_class = sheet_of(target).ac
        chance = chances.get((armour_class, edge))
        if chance is None:
            chance = chances[armour_class, edge] = round(100 * hit_chance(bonus, armour_class, edge))
        choices.append(
            (target.id, _("{name} — AC {ac}: {chance}% to hit", name=target.name, ac=armour_class, chance=chance))
        )
    return tuple(choices)
