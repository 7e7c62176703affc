"""The D&D 5e data file (``data/dnd5e.toml``): its schema and loading it with the GM's house rules.

Decoded strictly (a misspelt key or ``"5"`` for a number is refused naming the file and the key); what the
types cannot say (a size missing from the speed-factor table) is checked here.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Literal

import msgspec

from tui_combat.engine.errors import RuleError
from tui_combat.i18n import N_, _
from tui_combat.rulesets.data_loading import DATA_DIR, house_rules_path, load_ruleset_data
from tui_combat.rulesets.names import NameTable, made_once, unknown_aliases

__all__ = [
    "NAME",
    "SIZES",
    "AttackRules",
    "BudgetRules",
    "ConcentrationRules",
    "ConditionData",
    "DeathRules",
    "Dnd5eData",
    "Edge",
    "InitiativeRules",
    "SaveRules",
    "SpeedFactorRules",
    "WeaponData",
    "data",
    "find_weapon",
    "norm",
]

NAME = "dnd5e"
Source = Literal["seed", "default"]
Positive = Annotated[int, msgspec.Meta(ge=1)]
NonNegative = Annotated[int, msgspec.Meta(ge=0)]
SIZES = (N_("tiny"), N_("small"), N_("medium"), N_("large"), N_("huge"), N_("gargantuan"))


class _Data(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A part of the data file: a misspelt key in a house-rules file is refused, not ignored."""


class InitiativeRules(_Data, frozen=True, kw_only=True):
    dice: str
    dice_source: Source
    static_base: int
    static_advantage: NonNegative
    static_source: Source
    side_dice: str
    side_source: Source
    lair_count: int
    lair_source: Source


class SpeedFactorRules(_Data, frozen=True, kw_only=True):
    countdown_from: int
    countdown_source: Source
    spell_per_level: int
    heavy_melee: int
    light_or_finesse_melee: int
    two_handed_melee: int
    loading_ranged: int
    modifiers_source: Source
    size: dict[str, int]
    size_source: Source


class BudgetRules(_Data, frozen=True, kw_only=True):
    actions: NonNegative
    bonus_actions: NonNegative
    reactions: NonNegative
    source: Source


class AttackRules(_Data, frozen=True, kw_only=True):
    critical: Annotated[int, msgspec.Meta(ge=2, le=20)]
    automatic_miss: Annotated[int, msgspec.Meta(ge=0, le=19)]
    source: Source


class ConcentrationRules(_Data, frozen=True, kw_only=True):
    minimum_dc: int
    source: Source


class SaveRules(_Data, frozen=True, kw_only=True):
    dice: str
    half_cover: NonNegative
    three_quarters_cover: NonNegative
    """What cover adds to a Dexterity saving throw."""
    source: Source


Edge = Literal["", "advantage", "disadvantage"]


class ConditionData(_Data, frozen=True, kw_only=True):
    incapacitated: bool = False
    """No actions, bonus actions or reactions."""
    speed_zero: bool = False
    concentration: bool = False
    """Damage asks for a concentration saving throw."""
    attacking: Edge = ""
    """What the condition gives the creature's own attack rolls."""
    attacked: Edge = ""
    """What it gives attack rolls against the creature."""
    attacked_beyond_5ft: Edge = ""
    """When set, ``attacked`` is for an attacker within 5 ft and this for one farther away (prone)."""
    critical_within_5ft: bool = False
    """A hit on the creature from within 5 ft is a critical hit (paralyzed, unconscious)."""
    fails_saves: list[str] = []
    """The saving throws it fails automatically ("str", "dex": paralyzed, petrified, stunned, unconscious)."""
    save_edge: dict[str, Edge] = {}
    """Advantage or disadvantage on saving throws, by save ("dex", or "all")."""
    from_level: NonNegative = 0
    """Its saving-throw effects apply from this level of the condition on (exhaustion 3)."""
    resist: list[str] = []
    """Damage types it gives resistance to ("all": petrified)."""
    immune: list[str] = []
    """Damage types it gives immunity to."""


class DeathRules(_Data, frozen=True, kw_only=True):
    dice: str
    success_from: int
    """A death saving throw of this or more is a success."""
    successes: Positive
    """Successes that make a dying character stable."""
    failures: Positive
    """Failures that kill him."""
    regain_on: int
    """A natural roll that wakes him with 1 hit point."""
    double_failure_on: int
    """A natural roll that counts two failures."""
    source: Source


class EncounterRules(_Data, frozen=True, kw_only=True):
    thresholds: list[tuple[int, int, int, int]]
    """Easy, medium, hard, deadly XP for a character of each level (row 0: level 1)."""
    multipliers: list[tuple[int, float]]
    """From this many monsters, their XP × this (ascending by number)."""
    smaller: float
    larger: float
    small_party: int
    large_party: int
    source: Source
    budget_2024: list[tuple[int, int, int]]
    """Low, moderate, high XP for a character of each level (the 2024 rules)."""
    budget_2024_source: Source


class WeaponData(_Data, frozen=True, kw_only=True):
    category: Literal["melee", "ranged"]
    light: bool = False
    finesse: bool = False
    heavy: bool = False
    two_handed: bool = False
    loading: bool = False


class Dnd5eData(_Data, frozen=True, kw_only=True):
    schema: int
    conditions_source: Source
    weapons_source: Source
    initiative: InitiativeRules
    speed_factor: SpeedFactorRules
    budget: BudgetRules
    attack: AttackRules
    concentration: ConcentrationRules
    saves: SaveRules
    death: DeathRules
    encounter: EncounterRules
    conditions: dict[str, ConditionData]
    weapons: dict[str, WeaponData]
    weapon_aliases: dict[str, str] = {}
    """Other names of the weapons (Russian, Ukrainian …): alias → the name in ``weapons``."""


def norm(text: str) -> str:
    """Names are compared in lower case with single spaces ("Hand  Crossbow" is "hand crossbow")."""
    return " ".join(text.lower().replace("_", " ").split())


def _check(tables: Dnd5eData, where: str) -> Dnd5eData:
    missing = [size for size in SIZES if size not in tables.speed_factor.size]
    if missing:
        raise RuleError(_("{path}: speed_factor.size needs a value for {sizes}.", path=where, sizes=", ".join(missing)))
    encounter = tables.encounter
    if len(encounter.thresholds) != 20 or len(encounter.budget_2024) != 20:
        raise RuleError(
            _("{path}: encounter.thresholds and encounter.budget_2024 need a row for each level 1–20.", path=where)
        )
    if not encounter.multipliers or [n for n, _m in encounter.multipliers] != sorted(
        {n for n, _m in encounter.multipliers}
    ):
        raise RuleError(_("{path}: encounter.multipliers need rising numbers of monsters.", path=where))
    if not tables.conditions:
        raise RuleError(_("{path}: [conditions] lists no condition.", path=where))
    saves = {"str", "dex", "con", "int", "wis", "cha"}
    for name, condition in tables.conditions.items():
        wrong = [kind for kind in (*condition.fails_saves, *condition.save_edge) if kind not in saves | {"all"}]
        if wrong:
            raise RuleError(
                _(
                    '{path}: the condition {name} names "{save}", which is no saving throw (str, dex, con, '
                    "int, wis, cha, all).",
                    path=where,
                    name=name,
                    save=wrong[0],
                )
            )
    for alias in unknown_aliases(tables.weapons, tables.weapon_aliases):
        raise RuleError(
            _(
                '{path}: {table} names "{target}" for "{alias}", which is not in the table.',
                path=where,
                table="weapon_aliases",
                target=tables.weapon_aliases[alias],
                alias=alias,
            )
        )
    return tables


@cache
def data() -> Dnd5eData:
    """The 5e tables with the GM's house rules, read once (``data.cache_clear()`` reads them again)."""
    house = house_rules_path(NAME)
    return _check(load_ruleset_data(NAME, Dnd5eData), str(house if house.exists() else DATA_DIR / f"{NAME}.toml"))


def find_weapon(name: str) -> WeaponData | None:
    """The weapon of the table called ``name`` (compared with :func:`norm`); None for one not listed."""
    tables = data()
    names = made_once(tables, "weapons", lambda: NameTable(tables.weapons, tables.weapon_aliases))
    wanted = norm(names.find(name) or name)
    return made_once(tables, "weapons by norm", lambda: _by_norm(tables)).get(wanted) if wanted else None


def _by_norm(tables: Dnd5eData) -> dict[str, WeaponData]:
    """The weapons by their :func:`norm` name (the first one wins, as the table lists them)."""
    found: dict[str, WeaponData] = {}
    for key, weapon in tables.weapons.items():
        found.setdefault(norm(key), weapon)
    return found
