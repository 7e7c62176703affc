"""What 5e keeps in the fight's state: :class:`DndRound` (``State.round_state``, fresh every round) and
:class:`DndFight` (``State.fight_state``, kept from round to round). The engine never writes inside them.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from tui_combat.engine.log import Msg
from tui_combat.engine.model import RollRequest
from tui_combat.rulesets.dnd5e.sheet import Counter

__all__ = [
    "ActiveCondition",
    "ConcentrationDue",
    "Declaration",
    "DndFight",
    "DndRound",
    "Dying",
    "Ending",
    "Entry",
    "RoundShape",
    "Spent",
]

RoundShape = Literal["roll", "declare", "kept"]
Ending = Literal["removed", "end", "start", "rounds"]


class Declaration(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Speed factor: what a creature (or a group of identical creatures) will do this round."""

    action: str = "attack"
    """attack, spell, other."""
    weapon: str = ""
    spell_level: int = 0
    bonus: str = "none"
    """none, attack, spell, other."""
    bonus_weapon: str = ""
    bonus_spell_level: int = 0
    adjust: int = 0
    """The DM's ±2 / ±5 for another quick or slow action."""
    text: str = ""


class DndRound(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    shape: RoundShape = "roll"
    """Set when the round starts: the order is rolled (``roll``), declared and rolled (``declare``, speed
    factor) or kept (``kept``). The round's steps follow it, so an option changed mid-round waits for the next."""
    declarations: dict[str, Declaration] = {}
    """By unit: a group's id for a group of identical creatures, else the combatant's id."""


class Entry(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One place in the initiative: a creature, a group of identical creatures, or a side."""

    label: Msg
    combatants: tuple[str, ...]
    value: int
    rank: tuple[int, ...]
    """Sorted highest first: the value, then what breaks a tie (side rerolls; speed factor's Dexterity and
    roll-offs). Equal ranks are a tie for the DM (or the players) to decide."""
    party: bool = False
    free: bool = False
    """Members act in the order the DM picks (a group, a side)."""


class Spent(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a creature has used since its own turn last started."""

    action: int = 0
    bonus: int = 0
    reaction: int = 0
    movement: int = 0
    """Feet."""
    dash: int = 0
    """Feet added by Dash."""
    attack_action: bool = False
    """The action went to the Attack action (its further attacks come without another action)."""
    attacks: int = 0
    """Attacks made with that Attack action."""
    counters: dict[str, int] = {}
    """Per-turn counters used (legendary actions)."""
    legendary: int = 0
    """Legendary actions taken since its turn started (the sheet's ``legendary`` a round)."""
    lost_turn: bool = False
    """2014 surprise: this first turn is lost."""


class ActiveCondition(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    id: int
    target: str
    name: str
    ends: Ending = "removed"
    anchor: str = ""
    """Whose turn ends it (``end`` / ``start``), or starts the count (``rounds``)."""
    until_round: int = 0
    """``rounds``: it ends when the anchor's turn starts in this round."""
    armed: bool = False
    """``end``: the anchor's next turn has started (it ends when that turn ends)."""
    held_by: str = ""
    """The creature whose concentration holds it (a spell's): it ends when that concentration ends."""
    level: int = 0
    """Exhaustion's level (its saving-throw disadvantage comes at 3)."""


class ConcentrationDue(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A concentration saving throw owed for one source of damage."""

    combatant: str
    dc: int
    damage: int


class Dying(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A character of the party at 0 hit points: his death saving throws."""

    successes: int = 0
    failures: int = 0
    stable: bool = False
    dead: bool = False
    due: bool = False
    """His turn has started and the saving throw is not yet made."""


class DndFight(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    method: str = ""
    """The initiative method the order was settled with."""
    entries: dict[str, Entry] = {}
    """Roll key (or unit id for static initiative) → its place."""
    asked: tuple[RollRequest, ...] = ()
    """Rolls asked for newcomers after the first ones."""
    decided: tuple[tuple[str, ...], ...] = ()
    """Ties decided: entry keys in the order the DM (or the players) chose."""
    spent: dict[str, Spent] = {}
    used: dict[str, dict[str, int]] = {}
    """Combatant → counters for the whole fight → how many used."""
    counters: dict[str, tuple[Counter, ...]] = {}
    """Counters the DM added during the fight, by combatant."""
    conditions: tuple[ActiveCondition, ...] = ()
    next_condition: int = 1
    first_turn_over: tuple[str, ...] = ()
    """2014 surprise: surprised creatures whose first turn has ended."""
    dying: dict[str, Dying] = {}
    """Characters of the party at 0 hit points (dying, stable or dead), by combatant."""
    close: dict[str, bool] = {}
    """"attacker>target" → whether the last attack was made from within 5 ft (the form remembers it)."""
    temp_hp: dict[str, int] = {}
    """Temporary hit points, by combatant (lost first; not cumulative)."""
    concentration_due: tuple[ConcentrationDue, ...] = ()
    """Concentration saves owed, oldest first."""
    legendary_resistance_used: dict[str, int] = {}
    """Legendary Resistances used today, by combatant."""
    spent_abilities: dict[str, tuple[str, ...]] = {}
    """Special abilities waiting to recharge, by combatant (names as the sheet writes them)."""
    recharge_due: tuple[str, ...] = ()
    """Combatants whose turn started with an ability to recharge: the d6 is rolled next."""
