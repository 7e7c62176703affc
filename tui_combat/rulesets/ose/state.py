"""What OSE keeps: a combatant's sheet, his declaration, the round's turns, and morale for the fight."""

from __future__ import annotations

from typing import Literal

import msgspec

from tui_combat.engine.log import Msg

Intent = Literal["none", "spell", "rune", "flee"]
Phase = Literal["morale", "movement", "missile", "magic", "melee", "slow"]


class Sheet(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    ac: int = 10
    """Ascending armour class, the shield's part included."""
    shield: int = 0
    """The shield's part of ``ac`` (lost to attacks from behind and by a creature fleeing melee)."""
    attack: int = 0
    """Attack bonus, Strength or Dexterity modifier included."""
    damage: str = "1d6"
    weapon: str = ""
    dex: int = 10
    """Dexterity score: the individual-initiative modifier."""
    morale: int = 0
    """2–12; 0 for none (player characters: the player decides whether to flee)."""
    cls: str = ""
    """A character's class (the data file's: "fighter", "magic-user" …); "" for a monster."""
    level: int = 1
    """A character's level."""
    hd: str = ""
    """A monster's Hit Dice ("1-1", "4+1"): its hit points are rolled from them, and it saves as a fighter of
    that level when nothing else says how."""
    save_as: str = ""
    """The class and level it saves as, as a stat block writes it: "F1", "MU5", "NH"."""
    saves: str = ""
    """Its own saving throws, as a stat block prints them: "D12 W13 P14 B15 S16"."""


class Declaration(msgspec.Struct, frozen=True, kw_only=True):
    """Declared before initiative: a spell, a fairy rune, fleeing from melee (or nothing)."""

    intent: Intent = "none"
    what: str = ""
    """The spell's or rune's name (optional)."""


class Turn(msgspec.Struct, frozen=True, kw_only=True):
    """One place in the round's initiative: a side (or several tied sides acting at once), or, with
    individual initiative, one combatant or group."""

    key: str
    """The side id, or the roll key; tied sides acting at once: their keys joined by "+"."""
    label: Msg
    value: int
    members: tuple[str, ...]


class Spent(msgspec.Struct, frozen=True, kw_only=True):
    moved: bool = False
    acted: bool = False


class OseRound(msgspec.Struct, frozen=True, kw_only=True):
    """What OSE tracks during one round (a fresh one every round)."""

    declarations: dict[str, Declaration] = msgspec.field(default_factory=dict)
    """By combatant id."""
    turns: tuple[Turn, ...] = ()
    """In initiative order (set when the order is settled)."""
    waiting: tuple[str, ...] = ()
    """Keys of the turns that chose to wait, in the order they did: they act after the others."""
    slot_keys: tuple[str, ...] = ()
    """Beside ``State.order``: "turn key:phase" of each slot."""
    spent: dict[str, Spent] = msgspec.field(default_factory=dict)
    disrupted: tuple[str, ...] = ()
    """Combatant ids whose declared spell or rune was disrupted this round."""


class MoralePrompt(msgspec.Struct, frozen=True, kw_only=True):
    """A trigger that calls for a morale check: raised once per fight, answered by a check."""

    side: str
    reason: str
    """A message id: "first death", "half the side is out", "first damaged", "a quarter of its HP or less"."""
    round: int
    answered: bool = False


class OseFight(msgspec.Struct, frozen=True, kw_only=True):
    """What OSE keeps for the whole fight: morale, and whether both sides were surprised."""

    prompts: tuple[MoralePrompt, ...] = ()
    passes: dict[str, int] = msgspec.field(default_factory=dict)
    """Combatant id → morale checks passed in this encounter."""
    broken: dict[str, int] = msgspec.field(default_factory=dict)
    """Combatant id → the round his nerve broke (he tries to flee or surrender the round after)."""
    both_surprised: bool = False
    """Every side rolled surprised: the effects cancel, but the wilderness distance is still that of a side
    surprised (1d4 × 10 yards: "if either side is surprised")."""
