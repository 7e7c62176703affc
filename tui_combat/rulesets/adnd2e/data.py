"""The AD&D 2e data file (``data/adnd2e.toml``): its schema, the checks types cannot make, and loading it
with the GM's house rules laid over it."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Literal

import msgspec

from tui_combat.engine.dice import DiceError, parse
from tui_combat.engine.errors import RuleError
from tui_combat.i18n import _
from tui_combat.rulesets.data_loading import house_rules_path, load_ruleset_data
from tui_combat.rulesets.names import unknown_aliases

__all__ = [
    "ATTACK_KINDS",
    "AttackKind",
    "NonNegative",
    "Positive",
    "SaveRow",
    "Source",
    "SurpriseResult",
    "Tables",
    "check_tables",
    "tables",
]

NonNegative = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]
Source = Literal["seed", "default"]
"""Where a figure comes from: the seed text itself, or a public reference for a figure the seed names but
does not give (a default the GM can correct in a house-rules file)."""
SurpriseResult = Literal["both", "one", "none"]
AttackKind = Literal["slashing", "piercing", "bludgeoning"]
ATTACK_KINDS: tuple[AttackKind, ...] = ("slashing", "piercing", "bludgeoning")


class _Data(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A part of the data file: a misspelt key in a house-rules file is refused, not ignored."""


class _Modifier(_Data, frozen=True, kw_only=True):
    label: str
    value: int
    source: Source


class _Situation(_Data, frozen=True, kw_only=True):
    id: str
    label: str
    value: int
    source: Source


class Distance(_Data, frozen=True, kw_only=True):
    id: str
    label: str
    dice: str
    """Empty: the GM gives the figure (the limit of sight)."""
    multiplier: Positive
    unit: str
    surprise: SurpriseResult
    """The surprise result the row belongs to: both sides surprised, one side, or nobody (then by terrain)."""
    source: Source


class _Surprise(_Data, frozen=True, kw_only=True):
    dice: str
    surprised_up_to: int
    source: Source
    modifiers: tuple[_Modifier, ...]


class _Initiative(_Data, frozen=True, kw_only=True):
    dice: str
    source: Source
    situations: tuple[_Situation, ...]
    """Table 55."""
    actions: dict[str, NonNegative]
    """Table 56: breath weapon, innate ability."""
    actions_source: Source
    natural_by_size: dict[str, NonNegative]
    natural_by_size_source: Source
    magic_items: dict[str, NonNegative]
    magic_items_source: Source


class _Thac0(_Data, frozen=True, kw_only=True):
    rates: dict[str, tuple[NonNegative, Positive]]
    """Class → (points, levels): THAC0 improves by ``points`` every ``levels`` levels."""
    rates_source: Source
    monsters: tuple[tuple[float, int], ...]
    """(max Hit Dice, THAC0) rows; the first row whose max ≥ the monster's Hit Dice applies."""
    monsters_source: Source
    extra_hit_points_count_as_die: Positive
    """This many extra hit points on the Hit Dice (6+6, 4+3) count as one more die."""
    extra_hit_points_source: Source


class _Time(_Data, frozen=True, kw_only=True):
    rounds_per_turn: Positive
    source: Source


SaveRow = tuple[NonNegative, Positive, Positive, Positive, Positive, Positive]
"""From level, then the five numbers of PHB Table 60 in its order (paralyzation … spell)."""


class _Saves(_Data, frozen=True, kw_only=True):
    """PHB Table 60 by class group, and how a monster finds its row (DM's Guide, chapter 9)."""

    warrior: tuple[SaveRow, ...]
    priest: tuple[SaveRow, ...]
    rogue: tuple[SaveRow, ...]
    wizard: tuple[SaveRow, ...]
    source: Source
    monsters_as: str
    """The class group whose rows a monster saves on (the warrior's)."""
    extra_hit_points_per_die: Positive
    """A monster's pluses count one more level for every this many points or fraction (DMG: 4)."""
    below_one_die_level: NonNegative
    """The level of a monster of less than one full Hit Die (1-1, ½)."""
    monsters_source: Source

    def rows(self, group: str) -> tuple[SaveRow, ...]:
        """The rows of a class group ("warrior" …); () for one the table does not have."""
        return {"warrior": self.warrior, "priest": self.priest, "rogue": self.rogue, "wizard": self.wizard}.get(
            group, ()
        )


class ArmourRow(_Data, frozen=True, kw_only=True):
    """How much better an armour is against each kind of weapon: added to the number the attacker needs."""

    slashing: int = 0
    piercing: int = 0
    bludgeoning: int = 0
    seed_name: str = ""


class Tables(_Data, frozen=True, kw_only=True):
    schema: int
    surprise: _Surprise
    distance: tuple[Distance, ...]
    initiative: _Initiative
    weapon_speeds: dict[str, NonNegative]
    weapon_speeds_source: Source
    weapon_types: dict[str, tuple[AttackKind, ...]]
    """Weapon → its kinds (a weapon of two kinds uses the better one for the attacker)."""
    weapon_types_source: Source
    armour_types: dict[str, ArmourRow]
    armour_types_source: Source
    thac0: _Thac0
    attacks: dict[str, tuple[tuple[int, str], ...]]
    """Class → (from level, rate) rows."""
    attacks_source: Source
    attacks_specialist: dict[str, tuple[tuple[int, str], ...]]
    """Class → (from level, rate) rows for a weapon specialist (melee)."""
    attacks_specialist_source: Source
    time: _Time
    saves: _Saves
    weapon_damage: dict[str, tuple[str, str]] = {}
    """PHB Table 44: weapon → (damage against small or man-sized, against large)."""
    weapon_damage_source: Source = "default"
    weapon_aliases: dict[str, str] = {}
    """Other names of the weapons (Russian, Ukrainian …): alias → the name in ``weapon_speeds``."""
    armour_aliases: dict[str, str] = {}
    """Other names of the armours: alias → the name in ``armour_types``."""


def _rate_problem(rate: str) -> bool:
    number, sep, per = rate.partition("/")
    return not (sep and number.isdigit() and per.isdigit() and int(number) > 0 and int(per) > 0)


def check_tables(data: Tables, where: str) -> Tables:
    """What the types cannot say: the weapon types name weapons of the speed table, rates read "3/2"."""
    speeds = {name.strip().lower() for name in data.weapon_speeds}
    for weapon in data.weapon_types:
        if weapon.strip().lower() not in speeds:
            raise RuleError(
                _('{path}: weapon_types names "{weapon}", which is not in weapon_speeds.', path=where, weapon=weapon)
            )
    for weapon, dice in data.weapon_damage.items():
        if weapon.strip().lower() not in speeds:
            raise RuleError(
                _('{path}: weapon_damage names "{weapon}", which is not in weapon_speeds.', path=where, weapon=weapon)
            )
        for each in dice:
            try:
                parse(each)
            except DiceError as error:
                raise RuleError(
                    _(
                        '{path}: weapon_damage.{weapon}: "{dice}": {error}',
                        path=where,
                        weapon=weapon,
                        dice=each,
                        error=error,
                    )
                ) from None
    for table_name, aliases, known in (
        ("weapon_aliases", data.weapon_aliases, data.weapon_speeds),
        ("armour_aliases", data.armour_aliases, data.armour_types),
    ):
        for alias in unknown_aliases(known, aliases):
            raise RuleError(
                _(
                    '{path}: {table} names "{target}" for "{alias}", which is not in the table.',
                    path=where,
                    table=table_name,
                    target=aliases[alias],
                    alias=alias,
                )
            )
    for table_name, table in (("attacks", data.attacks), ("attacks_specialist", data.attacks_specialist)):
        for cls, rows in table.items():
            for _level, rate in rows:
                if _rate_problem(rate):
                    raise RuleError(
                        _(
                            '{path}: {table}.{cls}: "{rate}" is not a rate such as 3/2.',
                            path=where,
                            table=table_name,
                            cls=cls,
                            rate=rate,
                        )
                    )
    for group in ("warrior", "priest", "rogue", "wizard"):
        levels = [row[0] for row in data.saves.rows(group)]
        if not levels or levels != sorted(set(levels)):
            raise RuleError(
                _("{path}: saves.{group}: the rows go up by level, each level once.", path=where, group=group)
            )
    if not data.saves.rows(data.saves.monsters_as):
        raise RuleError(
            _(
                '{path}: saves.monsters_as: "{group}" is not warrior, priest, rogue or wizard.',
                path=where,
                group=data.saves.monsters_as,
            )
        )
    return data


@cache
def tables() -> Tables:
    """The AD&D tables with the GM's house rules, read once (``tables.cache_clear()`` reads them again)."""
    override = house_rules_path("adnd2e")
    where = str(override) if override.exists() else "adnd2e.toml"
    return check_tables(load_ruleset_data("adnd2e", Tables), where)
