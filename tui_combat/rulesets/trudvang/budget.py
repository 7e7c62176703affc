"""Combat points: the pools a sheet gives, which pools pay for what, and spending them.

A round's budget is every CP pool (general, and each lock: a weapon, a weapon group, any weapon,
ranged, unarmed, brawling, wrestling) with what is left of it, the weapon actions left for each weapon
and the shield, and the unarmed attacks left. Spending draws the most specific pool first.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg
from tui_combat.i18n import N_, _, ngettext
from tui_combat.rulesets.trudvang.data import (
    DODGE,
    SHIELD,
    SHIELD_GROUP,
    SKILL_FIELDS,
    UNARMED,
    WRESTLING,
    TrudvangData,
    canonical_lock,
    default_data,
    find_entry,
    norm,
)
from tui_combat.rulesets.trudvang.sheet import TrudvangSheet, Weapon

__all__ = [
    "Budget",
    "Meter",
    "cp_available",
    "cp_left",
    "cp_pools",
    "describe_item",
    "find_weapon",
    "fresh_budget",
    "pay",
    "use_unarmed_attack",
    "usable_pools",
]


class Meter(msgspec.Struct, frozen=True, kw_only=True):
    left: int
    total: int


class Budget(msgspec.Struct, frozen=True, kw_only=True):
    pools: dict[str, Meter] = {}
    """Pool id (``general``, ``any_weapon``, ``weapon:seax``, ``group:one handed light`` …) → CP."""
    actions: dict[str, Meter] = {}
    """Weapon actions: a weapon's name, or "shield"."""
    unarmed: Meter = Meter(left=0, total=0)


def cp_pools(sheet: TrudvangSheet, data: TrudvangData | None = None) -> dict[str, int]:
    """Combat points by lock: ``general`` (Combat SV and general CP) always, the others when above 0."""
    data = data or default_data()
    pools: dict[str, int] = {"general": sheet.sv}
    for field in SKILL_FIELDS:
        skill = data.field_skill(field)
        level = getattr(sheet, field)
        if skill is not None and level and skill.cp_per_level:
            lock = canonical_lock(skill.lock)
            pools[lock] = pools.get(lock, 0) + level * skill.cp_per_level
    for own in (*sheet.disciplines, *sheet.specialties):
        cp = own.level * own.cp_per_level
        if cp:
            lock = canonical_lock(own.lock)
            pools[lock] = pools.get(lock, 0) + cp
    return pools


def find_weapon(sheet: TrudvangSheet, name: str, data: TrudvangData | None = None) -> Weapon | None:
    """The sheet's weapon called ``name``, or the one copied from the data weapon of that name or alias."""
    weapon = sheet.weapon(name)
    if weapon is not None:
        return weapon
    key = find_entry((data or default_data()).weapons, name)
    return next((w for w in sheet.weapons if key is not None and w.base == key), None)


def _weapon_locks(weapon: Weapon) -> list[str]:
    names = [norm(weapon.name)]
    if weapon.base and norm(weapon.base) not in names:
        names.append(norm(weapon.base))
    return [f"weapon:{name}" for name in names]


def usable_pools(
    sheet: TrudvangSheet, what: str, *, parry: bool = False, data: TrudvangData | None = None
) -> list[str]:
    """Pool ids that may pay for an action with ``what``, most specific first.

    ``what``: a weapon on the sheet, ``"shield"``, ``"unarmed"`` (strikes and unarmed parries),
    ``"wrestling"`` (grapple, break free, Glima) or ``"dodge"``.
    """
    data = data or default_data()
    if what == DODGE:
        return ["general"]
    if what == UNARMED:
        return ["brawl", "unarmed", "general"]
    if what == WRESTLING:
        return ["wrestling", "unarmed", "general"]
    if what == SHIELD:
        weapon_locks: list[str] = []
        if sheet.shield:
            weapon_locks = [f"weapon:{norm(sheet.shield)}", f"weapon:{norm(data.shields[sheet.shield].name)}"]
        return [*dict.fromkeys([*weapon_locks, f"group:{SHIELD_GROUP}", "any_weapon", "general"])]
    weapon = find_weapon(sheet, what, data)
    if weapon is None:
        raise RuleError(_('"{weapon}" is not on the sheet.', weapon=what))
    if parry and weapon.ranged:
        return ["general"]  # the seed: CP locked to ranged weapons cannot parry, only general CP
    pools = [*_weapon_locks(weapon)]
    if weapon.base:
        base = data.weapons.get(weapon.base)
        if base is not None:
            pools += [f"weapon:{norm(alias)}" for alias in (base.name, *base.aliases)]
    pools.append(f"group:{norm(weapon.group)}")
    if weapon.ranged:
        pools.append("ranged")
    pools += ["any_weapon", "general"]
    return [*dict.fromkeys(pools)]


def cp_available(sheet: TrudvangSheet, weapon_or_unarmed: str, data: TrudvangData | None = None) -> int:
    """All the CP the sheet can put into actions with one weapon (or ``"unarmed"``, ``"shield"``,
    ``"wrestling"``, ``"dodge"``) in a fresh round."""
    pools = cp_pools(sheet, data)
    return sum(pools.get(pool, 0) for pool in usable_pools(sheet, weapon_or_unarmed, data=data))


def fresh_budget(sheet: TrudvangSheet, data: TrudvangData) -> Budget:
    """The budget a round starts with: every CP pool full, every weapon action unused."""
    pools = {pool: Meter(left=cp, total=cp) for pool, cp in cp_pools(sheet, data).items()}
    actions = {weapon.name: Meter(left=weapon.actions, total=weapon.actions) for weapon in sheet.weapons}
    if sheet.shield:
        count = data.shields[sheet.shield].actions
        actions[SHIELD] = Meter(left=count, total=count)
    unarmed = data.rules.unarmed_attacks
    return Budget(pools=pools, actions=actions, unarmed=Meter(left=unarmed, total=unarmed))


def cp_left(budget: Budget, pools: list[str]) -> int:
    return sum(budget.pools[pool].left for pool in pools if pool in budget.pools)


def describe_item(item: str, sheet: TrudvangSheet, data: TrudvangData) -> Msg:
    """What an action is made with, for the log and for refusals: "the seax", "unarmed combat" …"""
    if item == UNARMED:
        return Msg(id=N_("unarmed combat"))
    if item == WRESTLING:
        return Msg(id=N_("wrestling"))
    if item == DODGE:
        return Msg(id=N_("a dodge"))
    if item == SHIELD:
        if not sheet.shield:
            return Msg(id=N_("the shield"))
        return Msg(id=N_("the {item}"), params={"item": Msg(id=data.shields[sheet.shield].name.lower())})
    return Msg(id=N_("the {item}"), params={"item": Msg(id=item.lower())})


def pay(
    budget: Budget,
    sheet: TrudvangSheet,
    data: TrudvangData,
    *,
    who: str,
    item: str,
    cp: int,
    parry: bool = False,
    weapon_action: str | None = None,
) -> Budget:
    """``budget`` less ``cp`` from the pools that pay for ``item`` (locked first) and one weapon action
    of ``weapon_action``; :class:`RuleError` when there is not enough of either."""
    pools = [pool for pool in usable_pools(sheet, item, parry=parry, data=data) if pool in budget.pools]
    left = cp_left(budget, pools)
    if cp > left:
        raise RuleError(
            _(
                "Not enough CP: {name} has {left} left for {what}, needs {needed}.",
                name=who,
                left=left,
                what=describe_item(item, sheet, data),
                needed=cp,
            )
        )
    actions = dict(budget.actions)
    if weapon_action is not None:
        meter = actions.get(weapon_action)
        if meter is None:
            raise RuleError(_("{name} has no {item}.", name=who, item=weapon_action))
        if meter.left <= 0:
            what = str(describe_item(weapon_action, sheet, data)).capitalize()
            raise RuleError(
                ngettext(
                    "{what} allows {n} weapon action a round; {name} has used it.",
                    "{what} allows {n} weapon actions a round; {name} has used them all.",
                    meter.total,
                    what=what,
                    name=who,
                )
            )
        actions[weapon_action] = Meter(left=meter.left - 1, total=meter.total)
    new_pools = dict(budget.pools)
    rest = cp
    for pool in pools:
        meter = new_pools[pool]
        take = min(meter.left, rest)
        new_pools[pool] = Meter(left=meter.left - take, total=meter.total)
        rest -= take
    return replace(budget, pools=new_pools, actions=actions)


def use_unarmed_attack(budget: Budget, *, who: str) -> Budget:
    if budget.unarmed.left <= 0:
        raise RuleError(
            ngettext(
                "{name} has made his {n} unarmed attack this round.",
                "{name} has made all {n} unarmed attacks this round.",
                budget.unarmed.total,
                name=who,
            )
        )
    return replace(budget, unarmed=Meter(left=budget.unarmed.left - 1, total=budget.unarmed.total))
