"""Hit Dice as the old books write them ("4", "4+1", "6+6", "1-1", "½", "1/2", OSE's "4+1*"), read once for
what AD&D 2e, Player's Option and OSE / Dolmenwood do with them: roll a monster's hit points (d8 a die, the
pluses added; less than one die, that part of a d8: "½" is 1d4) and count its level for a saving throw."""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from tui_combat.engine.errors import RuleError
from tui_combat.i18n import _

__all__ = ["DIE", "HitDice", "read_hit_dice"]

DIE = 8
"""Hit Dice are eight-sided unless the entry says otherwise (Monstrous Manual; OSE)."""


class HitDice(NamedTuple):
    dice: int
    """Whole dice (0 for less than one)."""
    plus: int = 0
    """Hit points added to the roll (negative for "1-1")."""
    part: Fraction = Fraction(0)
    """Less than one die ("½", "1/2"): that part of a die; 0 otherwise."""

    def below_one(self) -> bool:
        """Less than one full die: a part of a die, or one die with a minus ("1-1")."""
        return self.dice == 0 or (self.dice == 1 and self.plus < 0)

    def roll_dice(self, die: int = DIE) -> str:
        """The dice of one creature's hit points: "4d8+1", "1d8-1", "½" → "1d4" (each roll counts at least 1)."""
        if not self.dice:
            return f"1d{max(round(die * self.part), 1)}"
        extra = f"{self.plus:+d}" if self.plus else ""
        return f"{self.dice}d{die}{extra}"


def read_hit_dice(value: int | str) -> HitDice:
    """``"6+6"`` → 6 dice +6; ``"1-1"`` → 1 die −1; ``"½"``/``"1/2"`` → half a die; OSE's stars (special abilities,
    "4+1*") are left out. Raises :class:`RuleError` for anything else."""
    if isinstance(value, bool):
        raise RuleError(_('Hit Dice "{value}" are not like 4, 4+1 or 1-1.', value=value))
    if isinstance(value, int):
        if value < 0:
            raise RuleError(_('Hit Dice "{value}" are not like 4, 4+1 or 1-1.', value=value))
        return HitDice(dice=value)
    text = value.strip().replace("−", "-").replace("–", "-").replace(" ", "").rstrip("*").lower()
    text = text.removesuffix("hd").replace("½", "1/2").replace("¼", "1/4")
    try:
        if "/" in text:
            number, _sep, per = text.partition("/")
            part = Fraction(int(number), int(per))
            if not 0 < part < 1:
                raise ValueError
            return HitDice(dice=0, part=part)
        sign = 1
        dice_text, plus_text = text, ""
        for mark in ("+", "-"):
            if mark in text[1:]:
                dice_text, _sep, plus_text = text.partition(mark)
                sign = 1 if mark == "+" else -1
                break
        dice = int(dice_text)
        plus = sign * int(plus_text) if plus_text else 0
        if dice < 0 or (dice == 0 and plus):
            raise ValueError
        return HitDice(dice=dice, plus=plus)
    except (ValueError, ZeroDivisionError):
        raise RuleError(_('Hit Dice "{value}" are not like 4, 4+1 or 1-1.', value=value)) from None
