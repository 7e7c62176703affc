"""The Trudvang data file: its schema, its checks, and loading it with the GM's house rules.

The packaged ``data/trudvang.toml`` is read with :func:`~tui_combat.rulesets.data_loading.load_ruleset_data`,
so a ``trudvang.toml`` in the house-rules folder overrides it key by key. Both are decoded strictly; a
wrong value is refused naming the file, the key (``weapons["battle_axe"].im``) and what was expected.
What types cannot say (a lock naming a real weapon group, calls going down) is checked here.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from tui_combat.engine.errors import RuleError
from tui_combat.engine.tables import load_table
from tui_combat.i18n import _
from tui_combat.rulesets.data_loading import DATA_DIR, house_rules_path, load_ruleset_data

__all__ = [
    "DATA_PATH",
    "DODGE",
    "FIXED_LOCKS",
    "SHIELD",
    "SHIELD_GROUP",
    "SKILL_FIELDS",
    "UNARMED",
    "WRESTLING",
    "ArmourData",
    "NonNegative",
    "RaceData",
    "Rules",
    "ShieldData",
    "SkillData",
    "SkillField",
    "TrudvangData",
    "WeaponData",
    "canonical_lock",
    "default_data",
    "find_entry",
    "load_data",
    "lock_problem",
    "norm",
]

NonNegative = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]
Source = Literal["seed", "default"]
SkillField = Literal["experienced", "combat_reaction", "body_control", "ambidexter", "shield_bearer"]
SKILL_FIELDS: tuple[SkillField, ...] = ("experienced", "combat_reaction", "body_control", "ambidexter", "shield_bearer")
UNARMED = "unarmed"
SHIELD = "shield"
WRESTLING = "wrestling"
DODGE = "dodge"
SHIELD_GROUP = "shield"
FIXED_LOCKS = ("general", "any_weapon", "ranged", "unarmed", "brawl", "wrestling")
NAME = "trudvang"
DATA_PATH = DATA_DIR / f"{NAME}.toml"


class Rules(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    initiative_dice: str
    action_dice: str
    calls: tuple[int, ...]
    held_penalty: int
    skip_bonus: int
    surprise_penalty: int
    unarmed_attacks: NonNegative
    offhand_penalty: int
    offhand_body_control_per_level: NonNegative
    offhand_ambidexter_per_level: NonNegative
    shield_bearer_removes_offhand: NonNegative
    grapple_weapon_hand: int
    grapple_shield_hand: int
    grapple_ambidexter_per_level: NonNegative
    grapple_cp_per_sv: Positive
    break_free_cp_per_sv: Positive
    glima_cp_per_sv: Positive
    glima_defence_cp_per_sv: Positive
    fear_im: tuple[int, ...]
    damage_die: str = "1d10"
    """Every weapon's damage die, open-ended from the weapon's ``open_at`` (OR)."""
    unarmed_damage: str = "1d6"
    level_penalties: tuple[int, int, int, int, int] = (0, -1, -3, -7, -7)
    """The penalty of each damage level: lightly damaged (up to ¼ of the BP lost), injured (½),
    seriously injured (¾), critically injured (more), dying (BP ≤ 0)."""


class _Entry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What every row of the data file has: a name, other names it answers to, and where it comes from."""

    name: str
    aliases: tuple[str, ...] = ()
    source: Source
    where: str = ""
    note: str = ""


class ArmourData(_Entry, frozen=True, kw_only=True, forbid_unknown_fields=True):
    im: int
    pv: NonNegative = 0
    """Protection Value: absorbed from every hit (armour), or from the damage a parry puts on it."""
    bv: NonNegative = 0
    """Breach Value when new (10 × PV); worn down by hits, PV = ⌈BV / 10⌉."""


class ShieldData(ArmourData, frozen=True, kw_only=True, forbid_unknown_fields=True):
    actions: NonNegative


class WeaponData(ShieldData, frozen=True, kw_only=True, forbid_unknown_fields=True):
    group: str
    hands: Annotated[int, msgspec.Meta(ge=1, le=2)] = 1
    light: bool = False
    ranged: bool = False
    open_at: Annotated[int, msgspec.Meta(ge=2, le=10)] = 10
    """OR: the damage die rolls again on this face or more (one-handed light 10, heavy 9, two-handed 8)."""
    damage: str = ""
    """Damage dice of a house rule ("2d6"); empty: the damage die open-ended from ``open_at``, + Strength
    for melee."""
    half_at_long_range: bool = False
    """Deals half damage (rounded down) at long range: the hunting bow (gaps.md, from the GMG)."""


class RaceData(_Entry, frozen=True, kw_only=True, forbid_unknown_fields=True):
    bp: Positive
    """The race's base Body Points (+ Constitution + Strength)."""


class SkillData(_Entry, frozen=True, kw_only=True, forbid_unknown_fields=True):
    cp_per_level: NonNegative
    im_per_level: int = 0
    lock: str
    field: SkillField | None = None
    """The sheet field the level goes to (its effect is a rule, not only a CP pool)."""


class TrudvangData(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    schema: int = 1
    rules: Rules
    weapons: dict[str, WeaponData] = {}
    shields: dict[str, ShieldData] = {}
    armour: dict[str, ArmourData] = {}
    races: dict[str, RaceData] = {}
    disciplines: dict[str, SkillData] = {}
    specialties: dict[str, SkillData] = {}

    def field_skill(self, field: SkillField) -> SkillData | None:
        for table in (self.disciplines, self.specialties):
            for skill in table.values():
                if skill.field == field:
                    return skill
        return None

    def weapon_groups(self) -> set[str]:
        return {norm(weapon.group) for weapon in self.weapons.values()} | {SHIELD_GROUP}


def norm(text: str) -> str:
    """The form names are compared in: lower case, "ё" → "е", "_" and "-" as spaces, single spaces."""
    return " ".join(text.lower().replace("ё", "е").replace("_", " ").replace("-", " ").split())


def find_entry(table: dict[str, Any], name: str) -> str | None:
    """The key of ``table`` whose id, name or alias is ``name`` (compared with :func:`norm`)."""
    wanted = norm(name)
    for key, entry in table.items():
        if wanted == norm(key) or wanted == norm(entry.name) or wanted in {norm(a) for a in entry.aliases}:
            return key
    return None


def lock_problem(lock: str, groups: set[str], weapons: set[str] | None) -> str:
    """Why ``lock`` is not a valid lock ("" when it is). ``weapons`` None: any weapon name is accepted."""
    kind, sep, target = lock.partition(":")
    kind = kind.strip().lower()
    not_a_lock = _(
        '"{lock}" is not a lock; use one of {known}, weapon:<name> or group:<group>.',
        lock=lock,
        known=", ".join(FIXED_LOCKS),
    )
    if not sep:
        return "" if kind in FIXED_LOCKS else not_a_lock
    if kind == "group":
        if norm(target) in groups:
            return ""
        return _(
            '"{group}" is not a weapon group; known groups: {known}.',
            group=target.strip(),
            known=", ".join(sorted(groups)),
        )
    if kind == "weapon":
        if not norm(target):
            return _('"{lock}" needs a weapon name after "weapon:".', lock=lock)
        if weapons is None or norm(target) in weapons:
            return ""
        return _('"{weapon}" is not a known weapon.', weapon=target.strip())
    return not_a_lock


def canonical_lock(lock: str) -> str:
    kind, sep, target = lock.partition(":")
    kind = kind.strip().lower()
    return f"{kind}:{norm(target)}" if sep else kind


# -- loading --------------------------------------------------------------------------------------------
def _check(data: TrudvangData, path: Path) -> TrudvangData:
    """What the types cannot say: locks name real groups and weapons, the calls go down, fear has a level 0.
    A problem names ``path`` and the key."""

    def bad(key: str, problem: str) -> RuleError:
        return RuleError(_("{path}: {key}: {problem}", path=path, key=key, problem=problem))

    groups = data.weapon_groups()
    weapon_names: set[str] = set()
    for key, weapon in data.weapons.items():
        weapon_names |= {norm(key), norm(weapon.name), *(norm(alias) for alias in weapon.aliases)}
    for table_name, table in (("disciplines", data.disciplines), ("specialties", data.specialties)):
        for key, skill in table.items():
            problem = lock_problem(skill.lock, groups, weapon_names)
            if problem:
                raise bad(f"{table_name}.{key}.lock", problem)
    calls = data.rules.calls
    if not calls or list(calls) != sorted(calls, reverse=True) or min(calls) < 1:
        raise bad("rules.calls", _("list the calls from the highest down, all above 0."))
    if not data.rules.fear_im:
        raise bad("rules.fear_im", _("give at least the value for fear level 0."))
    return data


def load_data(path: Path | None = None) -> TrudvangData:
    """The Trudvang tables: the packaged file with the GM's house rules laid over it (``path`` None), or
    one whole file. Decoded strictly; :class:`RuleError` names the file, the key and what was expected."""
    if path is not None:
        return _check(load_table(path, TrudvangData), path)
    data = load_ruleset_data(NAME, TrudvangData)
    house = house_rules_path(NAME)
    if house.exists():
        _check(load_table(DATA_PATH, TrudvangData), DATA_PATH)  # a problem in the packaged file is ours
        return _check(data, house)
    return _check(data, DATA_PATH)


@cache
def default_data() -> TrudvangData:
    """The tables the built-in ruleset uses, read once (``default_data.cache_clear()`` reads them again)."""
    return load_data()
