"""The chance of a trait roll, before it is rolled: an open-ended die ("aces": a die that shows its highest face is
rolled again and added) reaching a target number, alone or beside the Wild Die (the higher of the two counts)."""

from __future__ import annotations

from tui_combat.engine.dice import Constant, Dice, DiceError, parse


def die_reaches(sides: int, target: int, *, explodes: bool = True) -> float:
    """The chance that one d``sides`` (open-ended unless ``explodes`` is False) totals ``target`` or more: below its
    highest face as read; past it, only through an ace (the highest face, then the rest from a fresh roll)."""
    if target <= 1:
        return 1.0
    if target <= sides:
        return (sides - target + 1) / sides
    if not explodes:
        return 0.0
    return die_reaches(sides, target - sides) / sides


def trait_reaches(expr: str, target: int) -> float | None:
    """The chance that ``expr`` — one die, open-ended or not, and whole numbers added ("1d8!", "1d6!+1") — totals
    ``target`` or more; None for dice it cannot tell (several dice, kept dice)."""
    try:
        terms = parse(expr).terms
    except DiceError:
        return None
    dice = [term for term in terms if isinstance(term, Dice)]
    added = sum(term.value for term in terms if isinstance(term, Constant))
    if len(dice) != 1 or dice[0].count != 1 or dice[0].keep or dice[0].negative or dice[0].threshold != dice[0].sides:
        return None
    return die_reaches(dice[0].sides, target - added, explodes=dice[0].explode)


def wild_card_reaches(trait: str, wild: str, target: int) -> float | None:
    """The chance that the higher of the trait die and the Wild Die reaches ``target``."""
    first, second = trait_reaches(trait, target), trait_reaches(wild, target)
    if first is None or second is None:
        return None
    return 1 - (1 - first) * (1 - second)
