"""What AD&D keeps: the round's declarations and spending (:class:`AdndRound`, fresh every round) and what
carries over from round to round (:class:`AdndFight`: spells still being cast, effects counting down)."""

from __future__ import annotations

import msgspec

from tui_combat.engine.log import Msg, plural_msg
from tui_combat.i18n import N_

__all__ = [
    "AdndFight",
    "AdndRound",
    "Casting",
    "Declaration",
    "Effect",
    "FightBase",
    "RoundBase",
    "Spent",
    "casting_modifier",
    "casting_rounds",
    "duration",
    "parse_spells",
]


class Declaration(msgspec.Struct, frozen=True, kw_only=True):
    action: str = "weapon"
    text: str = ""
    spell: str = ""
    casting: str = ""
    """A number (added to initiative) or "1 round", "2 rounds", "1 turn" …; empty: from the caster's spell list."""
    item: str = "misc"
    situations: str = ""
    """Table 55 situation ids, comma-separated."""


class Spent(msgspec.Struct, frozen=True, kw_only=True):
    """What a combatant has used of his round."""

    attacks: int = 0
    main: int = 0


class RoundBase(msgspec.Struct, frozen=True, kw_only=True):
    """What every ruleset of the AD&D family tracks during a round."""

    spent: dict[str, Spent] = msgspec.field(default_factory=dict)
    """By combatant id."""
    spells_lost: tuple[str, ...] = ()
    """Combatant ids whose declared spell was disrupted this round."""


class FightBase(msgspec.Struct, frozen=True, kw_only=True):
    """What every ruleset of the AD&D family keeps for the whole fight."""

    both_surprised: bool = False
    """The surprise roll found every side surprised (the effects cancel; the encounter distance does not)."""
    bleeding: dict[str, int] = msgspec.field(default_factory=dict)
    """Option ``death`` = ``minus_10``: the dying (unconscious at 0 to −9) by combatant id, with their hit
    points when last seen; each loses 1 a round until bound or healed."""
    bound: tuple[str, ...] = ()
    """The dying whose wounds were bound (or who were healed): they no longer lose hit points."""


class AdndRound(RoundBase, frozen=True, kw_only=True):
    """What AD&D tracks during one round (a fresh one every round)."""

    declarations: dict[str, Declaration] = msgspec.field(default_factory=dict)
    """By combatant id."""
    side_situations: dict[str, tuple[str, ...]] = msgspec.field(default_factory=dict)
    """Table 55 situation ids by side id (standard initiative: the side's modifier)."""


class Casting(msgspec.Struct, frozen=True, kw_only=True):
    """A spell of several rounds being cast: it goes off at the very end of its last round."""

    spell: str
    rounds_left: int
    """Rounds still to cast, the current one included."""


class Effect(msgspec.Struct, frozen=True, kw_only=True):
    """A spell or effect with a duration on a combatant, counted down at the end of every round."""

    combatant: str
    name: str
    rounds_left: int


class AdndFight(FightBase, frozen=True, kw_only=True):
    castings: dict[str, Casting] = msgspec.field(default_factory=dict)
    """By caster id."""
    effects: tuple[Effect, ...] = ()


def parse_spells(text: str) -> dict[str, str]:
    """ "acid arrow 2, haste 3, fireball 2r" → {"acid arrow": "2", "haste": "3", "fireball": "2r"}; a spell
    without a casting time takes 1."""
    spells: dict[str, str] = {}
    for part in text.split(","):
        words = part.strip().split()
        if not words:
            continue
        last = words[-1]
        if len(words) > 1 and (last.isdigit() or _unit_rounds(last.lstrip("0123456789")) and last[:1].isdigit()):
            spells[" ".join(words[:-1])] = last
        elif len(words) > 2 and words[-2].isdigit() and _unit_rounds(last):
            spells[" ".join(words[:-2])] = f"{words[-2]} {last}"
        else:
            spells[" ".join(words)] = "1"
    return spells


_ROUND_WORDS = ("r", "rd", "rds", "round", "rounds", "р", "раунд", "раунда", "раундов", "раунди", "раундів")
_TURN_WORDS = ("t", "turn", "turns", "об", "оборот", "оборота", "оборотов", "обороти", "оборотів")


def _unit_rounds(word: str) -> int:
    """Rounds in one of the unit: 1 for a round, 10 for a turn; 0 for no known unit."""
    word = word.strip().lower().rstrip(".")
    if word in _ROUND_WORDS:
        return 1
    if word in _TURN_WORDS:
        return 10
    return 0


def casting_rounds(casting: str, rounds_per_turn: int = 10) -> int:
    """Rounds of a casting time given in rounds or turns ("1 round", "2r", "1 turn" = 10 rounds); 0 for a
    bare number (which is added to initiative instead)."""
    text = casting.strip().lower()
    digits = "".join(ch for ch in text if ch.isdigit())
    if not digits or text.isdigit():
        return 0
    unit = _unit_rounds(text.lstrip("0123456789").strip())
    if unit == 10:
        unit = rounds_per_turn
    return int(digits) * (unit or 1)


def casting_modifier(casting: str) -> int:
    text = casting.strip()
    return int(text) if text.isdigit() else 0


def duration(rounds: int, rounds_per_turn: int = 10) -> Msg:
    """A count of rounds as the GM reads it: "4 rounds", "1 turn", "2 turns 3 rounds"."""
    turns, rest = divmod(max(rounds, 0), rounds_per_turn)
    rounds_text = plural_msg("{n} round", "{n} rounds", rest)
    turns_text = plural_msg("{n} turn", "{n} turns", turns)
    if not turns:
        return rounds_text
    if not rest:
        return turns_text
    # Translators: a duration: "2 turns" then "3 rounds".
    return Msg(id=N_("{turns} {rounds}"), params={"turns": turns_text, "rounds": rounds_text})
