"""Helpers for the AD&D 2e family's two-sided fights (AD&D 2e to the letter, Player's Option): a store
built from an encounter of a party and its foes, each combatant with 20 HP, stepped through the store to
the sides' surprise or initiative and their d10s, and short readers of the order and the log."""

from __future__ import annotations

from typing import Any

from tests.common import d10
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.encounter import CombatantSpec, Encounter, SideSpec
from tui_combat.engine.model import State
from tui_combat.fight.store import Store, store_from_encounter

Fighter = tuple[str, dict[str, Any]]
"""(name, sheet)."""


def two_sides(ruleset: str, party: tuple[str, list[Fighter]], foes: tuple[str, list[Fighter]], **options: str) -> Store:
    """A fight in set-up, seed 1: the party's side, then the foes' (each side is its name and its fighters)."""

    def specs(fighters: list[Fighter]) -> list[CombatantSpec]:
        return [CombatantSpec(name=name, hp=20, sheet=sheet) for name, sheet in fighters]

    (party_name, party_fighters), (foes_name, foe_fighters) = party, foes
    encounter = Encounter(
        name="Test",
        ruleset=ruleset,
        options=dict(options),
        sides=[
            SideSpec(name=party_name, party=True, combatants=specs(party_fighters)),
            SideSpec(name=foes_name, combatants=specs(foe_fighters)),
        ],
    )
    return store_from_encounter(encounter, seed=1)


def who(store: Store) -> dict[str, str]:
    return {c.name: c.id for c in store.state.combatants}


def sides(store: Store) -> tuple[str, str]:
    """The ids of the party's side and the foes'."""
    party, foes = (side.id for side in store.state.sides)
    return party, foes


def kind(state: State) -> str:
    """The kind of the step the round is at, by the fight's own ruleset."""
    return registry.get(state.ruleset).steps(state)[state.step].kind


def to_initiative(store: Store) -> None:
    """Start the fight if need be, then step on to the initiative step."""
    if store.state.phase != "round":
        store.dispatch(a.BeginSurprise())
        store.dispatch(a.StartFight())
    while kind(store.state) != "initiative":
        store.dispatch(a.NextStep())


def roll_sides(store: Store, party: int, foes: int) -> None:
    """On to initiative, and each side's d10 showing the number given."""
    to_initiative(store)
    p, f = sides(store)
    store.dispatch(a.RollInitiative(rolls={p: d10(party), f: d10(foes)}))


def roll_surprise(store: Store, party: int, foes: int) -> Store:
    """Into the surprise step, and each side's d10 showing the number given."""
    store.dispatch(a.BeginSurprise())
    p, f = sides(store)
    store.dispatch(a.RollSurprise(rolls={p: d10(party), f: d10(foes)}))
    return store


def order_of(state: State) -> list[tuple[str, set[str]]]:
    """Each slot's label and the names in it."""
    names = state.names()
    return [(str(slot.label), {names[c] for c in slot.combatants}) for slot in state.order]


def texts(state: State) -> list[str]:
    return [entry.text for entry in state.log_entries()]
