"""Damage, armour and Body Points: what a hit's damage does once the GM has rolled it.

The damage of a hit goes (:meth:`Wounds.share`) to the target's body less his armour's PV, or — after a
successful parry with a weapon or a shield — onto that item, or, after an unarmed parry of an armed
attack, halved to his body (less PV). What gets through wears the armour; what the item took above its
PV wears the item (:meth:`Wounds.worn`, by the option ``wear``). Body Points are the combatant's HP; the
damage level (lightly damaged … dying) follows from what he has lost and gives the penalty on his actions
and on the next round's initiative.
"""

from __future__ import annotations

from typing import Any, Protocol

import msgspec
from msgspec.structs import replace

from tui_combat.engine.audience import who
from tui_combat.engine.contract import Health, OptionSpec
from tui_combat.engine.dice import with_bonus
from tui_combat.engine.log import Msg, Param, log
from tui_combat.engine.model import Combatant, State
from tui_combat.i18n import N_, _
from tui_combat.rulesets.trudvang.actions import CombatActions
from tui_combat.rulesets.trudvang.budget import find_weapon
from tui_combat.rulesets.trudvang.combat_terms import concat
from tui_combat.rulesets.trudvang.data import SHIELD, UNARMED
from tui_combat.rulesets.trudvang.sheet import TrudvangSheet, sheet_from_fields
from tui_combat.rulesets.trudvang.state import AttackRecord, RoundInfo

__all__ = ["ARMOUR", "LEVEL_WORDS", "WEAR_OPTION", "Share", "Wounds", "damage_level", "pv_of"]

ARMOUR = "armour"
"""The wear key of a combatant's armour (beside ``shield`` and his weapons' names)."""
LEVEL_WORDS = (N_("lightly damaged"), N_("injured"), N_("seriously injured"), N_("critically injured"), N_("dying"))
WEAR_OPTION = OptionSpec(
    key="wear",
    label=N_("Breach Value wear"),
    choices=(
        ("excess", N_("BV loses the damage above PV (revised GMG)")),
        ("one", N_("BV loses 1 a hit (older example; the seed's parry)")),
    ),
)


def pv_of(bv: int) -> int:
    """PV follows the Breach Value: ⌈BV / 10⌉."""
    return -(-bv // 10)


def damage_level(hp: int, max_hp: int) -> int | None:
    """The damage level (0 lightly damaged … 3 critically injured, 4 dying) of ``hp`` Body Points left of
    ``max_hp``; None when he has lost none."""
    if hp <= 0:
        return 4
    lost = max_hp - hp
    if lost <= 0:
        return None
    for level, quarters in enumerate((1, 2, 3)):
        if lost * 4 <= max_hp * quarters:
            return level
    return 3


def _level_fact(level: int | None) -> int:
    return -1 if level is None else level


class _Protecting(Protocol):
    """An armour, a shield or a weapon: what protects, and how much it can take."""

    @property
    def pv(self) -> int: ...

    @property
    def bv(self) -> int: ...


class Share(msgspec.Struct, frozen=True, kw_only=True):
    """Where one Damage goes."""

    body: int
    """What his Body Points lose."""
    absorbed: int = 0
    """What his armour's PV took off."""
    halved: bool = False
    long_range: bool = False
    """Halved first as shot at long range by a weapon that deals half there (a hunting bow)."""
    item: str = ""
    """The item that parried it and takes it instead (a weapon's name or ``shield``), or ""."""
    attack: int = 0
    """The id of the hit it is the damage of (0: none, plain damage)."""


class Wounds(CombatActions):
    options = (WEAR_OPTION,)

    # -- Body Points -----------------------------------------------------------------------------------
    def starting_hp(self, sheet: dict[str, Any], typed: int) -> int:
        """Body Points: the race's base + Constitution + Strength when the sheet names a race; else the HP typed."""
        resolved = sheet_from_fields(sheet, self.data)
        if not resolved.race:
            return typed
        return max(self.data.races[resolved.race].bp + resolved.con_mod + resolved.str_mod, 1)

    def level_of(self, combatant: Combatant) -> int | None:
        return damage_level(combatant.hp, combatant.max_hp)

    def level_penalty(self, combatant: Combatant) -> int:
        level = self.level_of(combatant)
        return 0 if level is None else self.data.rules.level_penalties[level]

    def condition_word(self, state: State, combatant_id: str) -> str | None:
        combatant = state.combatant(combatant_id)
        level = self.level_of(combatant)
        return None if level is None else LEVEL_WORDS[level]

    def level_text(self, combatant: Combatant) -> str:
        """ "injured (−1)" for the card; "" when unhurt."""
        level = self.level_of(combatant)
        if level is None:
            return ""
        penalty = self.data.rules.level_penalties[level]
        return f"{_(LEVEL_WORDS[level])} ({penalty:+d})" if penalty else _(LEVEL_WORDS[level])

    def on_round_start(self, state: State) -> State:
        """The damage level as the round begins gives this round's initiative its penalty."""
        state = super().on_round_start(state)
        penalties = {c.id: self.level_penalty(c) for c in state.combatants}
        return self.with_round(
            state, replace(self.round_of(state), damage_im={k: v for k, v in penalties.items() if v})
        )

    def damage_im(self, state: State, cid: str) -> int:
        info = self.round_of(state)
        if cid in info.damage_im or state.phase == "round":
            return info.damage_im.get(cid, 0)
        return self.level_penalty(state.combatant(cid))

    def action_penalty(self, state: State, cid: str) -> int:
        """The damage level's penalty on his combat actions, as he is now."""
        return self.level_penalty(state.combatant(cid))

    # -- armour and items ------------------------------------------------------------------------------
    def new_values(self, sheet: TrudvangSheet, item: str) -> tuple[int, int]:
        """An item's Protection and Breach Values when new: the armour's, the shield's or a weapon's; 0 and 0
        for none."""
        data = self.data
        if item == ARMOUR:
            found: _Protecting | None = data.armour[sheet.armour] if sheet.armour else None
        elif item == SHIELD:
            found = data.shields[sheet.shield] if sheet.shield else None
        else:
            found = find_weapon(sheet, item, data)
        return (found.pv, found.bv) if found is not None else (0, 0)

    def new_bv(self, sheet: TrudvangSheet, item: str) -> int:
        return self.new_values(sheet, item)[1]

    def new_pv(self, sheet: TrudvangSheet, item: str) -> int:
        return self.new_values(sheet, item)[0]

    def bv_now(self, state: State, cid: str, item: str) -> int:
        worn = self.fight_of(state).wear.get(cid, {})
        return worn.get(item, self.new_bv(self.sheet(state, cid), item))

    def pv_now(self, state: State, cid: str, item: str) -> int:
        """The item's PV now: as new until it is worn, then ⌈BV / 10⌉."""
        worn = self.fight_of(state).wear.get(cid, {})
        if item not in worn:
            return self.new_pv(self.sheet(state, cid), item)
        return pv_of(worn[item])

    def worn(self, state: State, excess: int, bv: int) -> int:
        """The Breach Value left after ``excess`` damage got past the PV (nothing when none did)."""
        if excess <= 0:
            return bv
        return max(bv - (1 if state.options.get("wear", "excess") == "one" else excess), 0)

    # -- where a damage goes ---------------------------------------------------------------------------
    @staticmethod
    def pending_hit(info: RoundInfo, cid: str) -> AttackRecord | None:
        """The last hit on ``cid`` this round whose damage is still to come (not dodged, not stopped)."""
        for record in reversed(info.attacks):
            if record.target != cid or not record.hit or record.damaged or record.kind == "grapple":
                continue
            if record.saved and not record.parried_with:
                continue  # dodged, or a throw stopped
            if record.saved and record.parried_with == UNARMED and record.unarmed:
                continue  # an unarmed parry of an unarmed attack stops it all
            return record
        return None

    def share(self, state: State, cid: str, amount: int) -> Share:
        record = self.pending_hit(self.round_of(state), cid) if state.phase == "round" else None
        attack = record.id if record is not None else 0
        if record is not None and record.saved and record.parried_with not in ("", UNARMED):
            return Share(body=0, item=record.parried_with, attack=attack)
        long_range = record is not None and record.long_range
        amount = amount // 2 if long_range else amount
        halved = record is not None and record.saved and record.parried_with == UNARMED
        amount = amount // 2 if halved else amount
        pv = self.pv_now(state, cid, ARMOUR)
        body = max(amount - pv, 0)
        return Share(body=body, absorbed=amount - body, halved=halved, long_range=long_range, attack=attack)

    def after_damage(self, state: State, combatant: Combatant, amount: int, *, critical: bool = False) -> Health:
        """Body Points lose what gets through (what the fight's report counts); at 0 or less he is dying (out of
        the fight), and may go lower."""
        body = self.share(state, combatant.id, amount).body
        hp = combatant.hp - body
        return Health(hp=hp, status="down" if hp <= 0 and combatant.status == "active" else combatant.status, lost=body)

    def on_damage(self, state: State, combatant_id: str, amount: int, *, critical: bool = False) -> State:
        """The armour (or the parrying item) wears; the hit is marked as dealt; the log says where it went
        (without the BP left: the engine's line before it says them, hidden from the players for a foe). A foe's
        figures (the PV and BV, the BP he lost, his level's penalty) stay behind the GM's screen: the players read
        where the blow went and his damage level's word."""
        share = self.share(state, combatant_id, amount)
        combatant = state.combatant(combatant_id)
        info = self.round_of(state)
        if share.attack:
            attacks = list(info.attacks)
            attacks[share.attack - 1] = replace(attacks[share.attack - 1], damaged=True)
            state = self.with_round(state, replace(info, attacks=tuple(attacks)))
        sheet = self.sheet_of(combatant)
        name = who(state, combatant)
        if share.item:
            pv = self.pv_now(state, combatant_id, share.item)
            what = self.item_name(sheet, share.item)
            state, worn = self.wear(state, combatant_id, share.item, amount - pv)
            public = Msg(
                id=N_("The parry puts the {damage} damage on the {item}: {name}'s body takes none."),
                params={"damage": amount, "item": what, "name": name},
            )
            return log(
                state,
                N_("The parry puts the {damage} damage on the {item} (PV {pv}): {name}'s body takes none.{wear}"),
                facts={"item_damage": amount, "body_damage": 0},
                public=public,
                damage=amount,
                item=what,
                pv=self.figure(state, combatant_id, pv),
                name=name,
                wear=worn,
            )
        wear: Param = ""
        if sheet.armour:
            state, wear = self.wear(state, combatant_id, ARMOUR, share.body)
        notes: list[Param] = []
        seen: list[Param] = []
        if share.long_range:
            far = Msg(id=N_(" Long range: half, {half}."), params={"half": amount // 2})
            notes.append(far)
            seen.append(far)
            amount //= 2
        if share.halved:
            halved = Msg(id=N_(" Unarmed parry of an armed attack: half, {half}."), params={"half": amount // 2})
            notes.append(halved)
            seen.append(halved)
        armour = self.item_name(sheet, ARMOUR)
        if share.absorbed:
            notes.append(
                Msg(
                    id=N_(" {armour} absorbs {pv}."),
                    params={"armour": armour, "pv": self.figure(state, combatant_id, share.absorbed)},
                )
            )
            seen.append(
                Msg(
                    id=N_(" {armour} takes part of the blow.") if share.body else N_(" {armour} takes the whole blow."),
                    params={"armour": armour},
                )
            )
        level = self.level_of(combatant)
        if share.body:
            public = Msg(
                id=N_("{name} loses Body Points{level}.{notes}"),
                params={
                    "name": name,
                    "level": self.level_param(state, combatant, penalty=False),
                    "notes": concat(seen),
                },
            )
        else:
            public = Msg(id=N_("{name} loses no Body Points.{notes}"), params={"name": name, "notes": concat(seen)})
        return log(
            state,
            N_("{name} loses {body} BP{level}.{notes}{wear}"),
            facts={"body_damage": share.body, "absorbed": share.absorbed, "level": _level_fact(level)},
            public=public,
            name=name,
            body=self.figure(state, combatant_id, share.body),
            notes=concat(notes),
            level=self.level_param(state, combatant),
            wear=wear,
        )

    def level_param(self, state: State, combatant: Combatant, *, penalty: bool = True) -> Param:
        """ ", injured (-1)" as a log parameter, the penalty as a figure of his (:meth:`figure`); "" when unhurt."""
        level = self.level_of(combatant)
        if level is None:
            return ""
        word = Msg(id=LEVEL_WORDS[level])
        value = self.data.rules.level_penalties[level]
        if not penalty or not value:
            return Msg(id=", {level}", params={"level": word})
        return Msg(
            id=", {level} ({penalty})",
            params={"level": word, "penalty": self.figure(state, combatant.id, f"{value:+d}")},
        )

    def wear(self, state: State, cid: str, item: str, excess: int) -> tuple[State, Param]:
        """Wear ``item`` by the ``excess`` damage that got past its PV; the log's sentence about it (its values
        figures of the wearer's, :meth:`figure`)."""
        bv = self.bv_now(state, cid, item)
        left = self.worn(state, excess, bv)
        if left == bv:
            return state, ""
        carry = self.fight_of(state)
        state = self.with_fight(
            state, replace(carry, wear={**carry.wear, cid: {**carry.wear.get(cid, {}), item: left}})
        )
        what = self.item_name(self.sheet(state, cid), item)
        return state, Msg(
            id=N_(" {item}: BV {before} → {after}, PV {pv}."),
            params={
                "item": what,
                "before": self.figure(state, cid, bv),
                "after": self.figure(state, cid, left),
                "pv": self.figure(state, cid, pv_of(left)),
            },
        )

    def item_name(self, sheet: TrudvangSheet, item: str) -> Msg:
        if item == ARMOUR:
            return Msg(id=self.data.armour[sheet.armour].name if sheet.armour else N_("armour"))
        if item == SHIELD:
            return Msg(id=self.data.shields[sheet.shield].name if sheet.shield else N_("shield"))
        return Msg(id=item)

    # -- the damage roll -------------------------------------------------------------------------------
    def weapon_damage(self, sheet: TrudvangSheet, item: str) -> str:
        """A weapon's damage: its own dice (a house rule) or the damage die open-ended from its OR, + Strength
        for melee (bows and crossbows add none); a fist 1d6 + Strength; "" for a shield's blow."""
        rules = self.data.rules
        if item == UNARMED:
            return with_bonus(rules.unarmed_damage, sheet.str_mod)
        weapon = find_weapon(sheet, item, self.data) if item != SHIELD else None
        if weapon is None:
            return ""
        dice = weapon.damage or f"{rules.damage_die}!{weapon.open_at}"
        return with_bonus(dice, 0 if weapon.ranged else sheet.str_mod)
