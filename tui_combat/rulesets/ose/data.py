"""The OSE / Dolmenwood data file (``rulesets/data/ose.toml``) with the GM's house rules laid over it."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Literal

import msgspec

from tui_combat.engine.dice import Dice, DiceError, parse
from tui_combat.engine.errors import RuleError
from tui_combat.i18n import _
from tui_combat.rulesets.data_loading import load_ruleset_data
from tui_combat.rulesets.names import NameTable, made_once, unknown_aliases

NonNegative = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]


class _Data(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A part of the data file: a misspelt key in a house-rules file is refused, not ignored."""


class Initiative(_Data, frozen=True, kw_only=True):
    dice: str
    source: str
    dex_modifiers: tuple[tuple[int, int], ...]
    """(highest Dexterity score, modifier) rows, lowest first; the first row that reaches the score applies."""
    dex_modifiers_source: str


class Surprise(_Data, frozen=True, kw_only=True):
    dice: str
    surprised_up_to: int
    source: str


class Distance(_Data, frozen=True, kw_only=True):
    id: str
    label: str
    dice: str
    multiplier: Positive
    unit: str
    surprise: Literal["any", "none", "surprised"] = "any"
    """When the row applies: whatever the surprise (``any``), only when nobody is surprised (``none``),
    only when a side is (``surprised``)."""
    source: str


class Morale(_Data, frozen=True, kw_only=True):
    dice: str
    never_checks: int
    passes_to_stop: Positive
    max_modifier: NonNegative
    source: str
    lone_fraction: tuple[Positive, Positive]
    """(numerator, denominator): a lone creature checks when its HP fall to this part of its maximum."""
    lone_fraction_source: str


class Fleeing(_Data, frozen=True, kw_only=True):
    to_hit: int
    source: str


class Missile(_Data, frozen=True, kw_only=True):
    range_modifiers: dict[str, int]
    range_modifiers_source: str
    ranges: dict[str, tuple[NonNegative, NonNegative, NonNegative]]
    ranges_source: str


class SlowWeapons(_Data, frozen=True, kw_only=True):
    weapons: tuple[str, ...]
    source: str


SaveRow = tuple[NonNegative, Positive, Positive, Positive, Positive, Positive]
"""From level, then D, W, P, B, S."""


class Saves(_Data, frozen=True, kw_only=True):
    """Each class's saving throws by level, the letters of "save as", and how a monster saves without a line."""

    classes: dict[str, tuple[SaveRow, ...]]
    letters: dict[str, str]
    """"F" → "fighter", "NH" → "normal human" (upper case)."""
    source: str
    monsters_as: str
    """The class a monster saves as, at a level equal to its Hit Dice, when its sheet says nothing else."""
    below_one_die: str
    """The class a monster of less than one Hit Die saves as (its first row)."""
    monsters_source: str


class OseData(_Data, frozen=True, kw_only=True):
    schema: int
    initiative: Initiative
    surprise: Surprise
    distance: tuple[Distance, ...]
    morale: Morale
    fleeing: Fleeing
    missile: Missile
    slow_weapons: SlowWeapons
    saves: Saves
    weapon_aliases: dict[str, str] = {}
    """Other names of the weapons (Ukrainian, Russian …): alias → the name in the range or slow tables."""


def _check(data: OseData) -> OseData:
    """What the types cannot say: the dice parse."""
    for where, dice in (
        ("initiative.dice", data.initiative.dice),
        ("surprise.dice", data.surprise.dice),
        ("morale.dice", data.morale.dice),
        *((f"distance.{d.id}", d.dice) for d in data.distance),
    ):
        try:
            parse(dice)
        except DiceError as error:
            raise RuleError(_("ose.toml: {where}: {error}", where=where, error=error)) from None
    for alias in unknown_aliases((*data.missile.ranges, *data.slow_weapons.weapons), data.weapon_aliases):
        raise RuleError(
            _(
                'ose.toml: weapon_aliases names "{target}" for "{alias}", which is not a weapon of the tables.',
                target=data.weapon_aliases[alias],
                alias=alias,
            )
        )
    saves = data.saves
    for cls, rows in saves.classes.items():
        levels = [row[0] for row in rows]
        if not levels or levels != sorted(set(levels)):
            raise RuleError(_("ose.toml: saves.classes.{cls}: the rows go up by level, each level once.", cls=cls))
    for letter, cls in (
        *saves.letters.items(),
        ("monsters_as", saves.monsters_as),
        ("below_one_die", saves.below_one_die),
    ):
        if cls not in saves.classes:
            raise RuleError(
                _('ose.toml: saves: "{letter}" names "{cls}", which is not in saves.classes.', letter=letter, cls=cls)
            )
    if any(isinstance(term, Dice) and (term.keep or term.explode) for term in parse(data.morale.dice).terms):
        raise RuleError(_("ose.toml: morale.dice: plain dice only (such as 2d6), to show the chance of breaking."))
    return data


@cache
def tables() -> OseData:
    """The tables with the GM's house rules, read once (``tables.cache_clear()`` reads them again)."""
    return _check(load_ruleset_data("ose", OseData))


def dex_modifier(score: int) -> int:
    """The individual-initiative modifier of a Dexterity score."""
    rows = tables().initiative.dex_modifiers
    for highest, modifier in rows:
        if score <= highest:
            return modifier
    return rows[-1][1] if rows else 0


def weapon_name(weapon: str) -> str:
    """The tables' name of a weapon as the GM wrote it (an alias such as "короткий лук" included), in
    lower case; the name itself when the tables do not know it."""
    data = tables()
    names = made_once(
        data, "weapons", lambda: NameTable((*data.missile.ranges, *data.slow_weapons.weapons), data.weapon_aliases)
    )
    found = names.find(weapon)
    return (found or weapon).strip().lower()


def is_slow(weapon: str) -> bool:
    return weapon_name(weapon) in {w.lower() for w in tables().slow_weapons.weapons}
