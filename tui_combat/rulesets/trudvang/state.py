"""What Trudvang keeps in the fight's state: :class:`RoundInfo` (``State.round_state``, fresh every round)
and :class:`Carry` (``State.fight_state``, kept from round to round). The engine never writes inside them.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from tui_combat.rulesets.trudvang.budget import Budget
from tui_combat.rulesets.trudvang.data import SHIELD, norm
from tui_combat.rulesets.trudvang.sheet import Weapon

__all__ = ["AttackKind", "AttackRecord", "Bonus", "Carry", "Declaration", "Defence", "RoundInfo", "Turn", "Used"]

AttackKind = Literal["attack", "grapple", "glima"]
Defence = Literal["", "parry", "dodge", "glima_defence"]
OnceARound = Literal["grapple", "break_free", "glima", "glima_defence"]


class Declaration(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a combatant said he uses this round (its IMs count on his initiative)."""

    weapon: str = ""
    """A weapon on the sheet, "unarmed", or "" for the first weapon."""
    offhand: str = ""
    shield: bool | None = None
    """None: used if he has one."""
    spell_im: int = 0
    other_im: int = 0
    """Fatigue, damage, stress, drugs …"""


class Used(msgspec.Struct, frozen=True, kw_only=True):
    """A declaration resolved against the sheet."""

    weapon: Weapon | None
    offhand: Weapon | None
    shield: bool
    spell_im: int
    other_im: int

    def items(self) -> set[str]:
        names = {norm(w.name) for w in (self.weapon, self.offhand) if w is not None}
        return names | ({SHIELD} if self.shield else set())


class Turn(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    held: bool = False
    """Holding his action: out of the order until he acts on it."""
    acted_held: bool = False
    skipped: bool = False
    acted: bool = False
    used: dict[OnceARound, int] = {}
    """Once-a-round actions taken: grapple, break_free, glima, glima_defence."""


class AttackRecord(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    id: int
    attacker: str
    target: str
    kind: AttackKind
    item: str
    ranged: bool = False
    unarmed: bool = False
    hit: bool = False
    drop: bool = False
    """A Glima where the thrower drops onto his opponent (who stays held)."""
    defended: Defence = ""
    saved: bool = False
    """The defence succeeded."""
    parried_with: str = ""
    """The item of a successful parry (a weapon's name, ``shield`` or ``unarmed``)."""
    damaged: bool = False
    """Its damage has been dealt (to the target, or to the item that parried it)."""
    long_range: bool = False
    """Shot at long range with a weapon that deals half damage there (a hunting bow): half reaches the target."""


class RoundInfo(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    declarations: dict[str, Declaration] = {}
    budgets: dict[str, Budget] = {}
    """Combatant id → what is left of his budget; absent: untouched (a fresh budget)."""
    turns: dict[str, Turn] = {}
    modifiers: dict[str, int] = {}
    """Initiative roll key → the IMs on that roll (the roll itself is the engine's
    ``State.initiative.rolls``); a change of action changes them."""
    attacks: tuple[AttackRecord, ...] = ()
    """Every attack this round; an attack's id is its place in the round, from 1."""
    damage_im: dict[str, int] = {}
    """Combatant id → the damage level's penalty on his initiative this round (his level as it began)."""


class Bonus(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    value: int


class Carry(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    init_bonus: dict[str, Bonus] = {}
    """Combatant id → the bonus on his initiative in ``Bonus.round`` (a skipped turn)."""
    grappled: dict[str, str] = {}
    """Victim id → grappler id."""
    wear: dict[str, dict[str, int]] = {}
    """Combatant id → item (``armour``, ``shield`` or a weapon's name) → its Breach Value now, once worn."""
