"""D&D 5e's attack arithmetic: the chance of a hit, and a critical hit's dice (the damage dice rolled twice)."""

from __future__ import annotations

from tui_combat.engine.dice import Constant, Dice, DiceError, Roll, parse
from tui_combat.rulesets.dnd5e.data import data


def same_dice(expr: str, wanted: str) -> bool:
    try:
        return parse(expr).text == parse(wanted).text
    except DiceError:
        return False


def hit_chance(bonus: int, armour_class: int, edge: int) -> float:
    """The chance to hit: a natural 20 always hits, a natural 1 always misses; advantage rolls twice and
    keeps the higher (1 − (1 − p)²), disadvantage the lower (p²)."""
    rules = data().attack
    hits = sum(
        1
        for face in range(1, 21)
        if face >= rules.critical or (face > rules.automatic_miss and face + bonus >= armour_class)
    )
    chance = hits / 20
    if edge > 0:
        return 1 - (1 - chance) ** 2
    if edge < 0:
        return chance * chance
    return chance


def critical_dice(expr: str) -> str:
    """The dice of a damage expression without its constants: what a critical hit rolls again ("" if none)."""
    try:
        parsed = parse(expr)
    except DiceError:
        return ""
    text = ""
    for term in parsed.terms:
        if isinstance(term, Dice):
            text += ("-" if term.negative else ("+" if text else "")) + term.notation()
    return text


def doubled_dice(expr: str) -> str:
    """A damage expression with its dice rolled twice, as a critical hit deals it ("1d8+3" → "2d8+3");
    as it is when it is not plain dice and numbers."""
    try:
        parsed = parse(expr)
    except DiceError:
        return expr
    if any(isinstance(t, Dice) and (t.keep or t.explode or t.advantage) for t in parsed.terms):
        return expr
    return str(
        parse(
            "".join(
                f"{term.value:+d}"
                if isinstance(term, Constant)
                else f"{'-' if term.negative else '+'}{2 * term.count}d{term.sides}"
                for term in parsed.terms
            ).lstrip("+")
        )
    )


def critical_roll(damage: Roll, extra: Roll) -> Roll | None:
    """The damage and its critical dice as one roll with the dice doubled ("1d8+3" and "1d8" → "2d8+3"),
    faces in order; None when the expression is not plain dice and numbers (the two rolls stay apart)."""
    try:
        parsed = parse(damage.expr)
    except DiceError:
        return None
    if any(isinstance(t, Dice) and (t.keep or t.explode or t.advantage) for t in parsed.terms):
        return None
    parts: list[str] = []
    faces: list[int] = []
    own, more = list(damage.faces), list(extra.faces)
    for term in parsed.terms:
        if isinstance(term, Constant):
            parts.append(f"{term.value:+d}" if parts else str(term.value))
            continue
        sign = "-" if term.negative else ("+" if parts else "")
        parts.append(f"{sign}{2 * term.count}d{term.sides}")
        faces += own[: term.count] + more[: term.count]
        own, more = own[term.count :], more[term.count :]
    physical = damage.physical or extra.physical
    return Roll(
        expr="".join(parts), total=damage.total + extra.total, faces=() if physical else tuple(faces), physical=physical
    )
