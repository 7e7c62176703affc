"""Saving throws, damage types, temporary hit points and concentration (SRD 5.1).

* **Saving throws**: d20 + the sheet's bonus for that ability (``saves``: "Dex +6", proficiency included; one not
  written is +0, Dexterity's the score's modifier) against a DC. Paralyzed, petrified, stunned and unconscious
  (a character lying at 0 hit points too) fail Strength and Dexterity saves; restrained has disadvantage on
  Dexterity saves, dodging advantage, exhaustion 3 or more disadvantage on all (the data file's conditions);
  advantage and disadvantage cancel. Half cover adds +2, three-quarters +5 to a Dexterity save. A natural 20 is
  no automatic success. Evasion: a Dexterity save for half damage leaves none on a success, half on a failure.
* **Damage types**: immunity leaves nothing, resistance halves (rounded down), vulnerability doubles, in the book's
  order (resistance before vulnerability), several resistances to a type count once; petrified resists all and
  is immune to poison. Then **temporary hit points** take what they can: they are lost first, and a new pool does
  not add up (the higher stays); the ``temp_hp`` action (``p``) sets them.
* **Concentration**: a concentrating creature (the condition "concentrating") that takes damage owes a Constitution
  save, DC 10 or half the damage taken, whichever is higher, one for each source of damage
  (:meth:`~Dnd5eSaving.saves_due`; the save's action names the source "concentration"). A failure, falling
  unconscious or dead, or an incapacitating condition ends it: the conditions and effects it held on others end
  with it (a condition or an effect put on "held by" the caster).
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from tui_combat.engine import effects
from tui_combat.engine.audience import behind, gm_only, who
from tui_combat.engine.contract import FieldSpec
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, Param, log, plural_msg
from tui_combat.engine.model import Combatant, State, Status
from tui_combat.engine.saves import Incoming, SaveDue, SaveOdds
from tui_combat.i18n import N_, _
from tui_combat.rulesets.dnd5e.actions import Dnd5eActions
from tui_combat.rulesets.dnd5e.base import int_arg, named
from tui_combat.rulesets.dnd5e.data import data
from tui_combat.rulesets.dnd5e.edge import dice_for
from tui_combat.rulesets.dnd5e.kinds import ALL, DAMAGE_TYPES, SAVE_KINDS, parse_saves, parse_types
from tui_combat.rulesets.dnd5e.sheet import DEFENCES, dex_modifier, sheet_of
from tui_combat.rulesets.dnd5e.state import ActiveCondition, ConcentrationDue

__all__ = ["CONCENTRATION", "Dnd5eSaving"]

CONCENTRATION = "concentration"
"""The source a concentration save names (:class:`~tui_combat.engine.actions.SavingThrow`'s ``source``)."""


class Dnd5eSaving(Dnd5eActions):
    # -- saving throws -------------------------------------------------------------------------------------
    def save_kinds(self, state: State) -> tuple[tuple[str, str], ...]:
        return SAVE_KINDS

    @staticmethod
    def save_bonus(combatant: Combatant, kind: str) -> int:
        sheet = sheet_of(combatant)
        saves = parse_saves(sheet.saves)
        if kind in saves:
            return saves[kind]
        return dex_modifier(sheet.dex) if kind == "dex" else 0

    def condition_levels(self, state: State, combatant_id: str) -> list[tuple[str, int]]:
        """His conditions with their level (exhaustion's), a character lying at 0 hit points unconscious."""
        found = [(c.name, c.level) for c in self.conditions_of(state, combatant_id)]
        if self.unconscious_at_zero(state, combatant_id) and all(name != "unconscious" for name, _level in found):
            found.append(("unconscious", 0))
        return found

    def save_odds(self, state: State, combatant_id: str, kind: str, dc: int, *, cover: int = 0) -> SaveOdds:
        if kind not in dict(SAVE_KINDS):
            raise RuleError(
                _(
                    '"{kind}" is not a saving throw of these rules; they have: {known}.',
                    kind=kind,
                    known=", ".join(_(label) for _kind, label in SAVE_KINDS),
                )
            )
        if dc < 1:
            raise RuleError(_("A saving throw needs a DC."))
        rules = data().saves
        covers = {
            0: None,
            rules.half_cover: N_("half cover +{bonus}"),
            rules.three_quarters_cover: N_("three-quarters cover +{bonus}"),
        }
        if cover not in covers:
            raise RuleError(
                _(
                    "Cover adds +{half} (half) or +{most} (three-quarters) to a Dexterity save.",
                    half=rules.half_cover,
                    most=rules.three_quarters_cover,
                )
            )
        combatant = state.combatant(combatant_id)
        bonus = self.save_bonus(combatant, kind)
        table = data().conditions
        fails: list[Msg] = []
        advantage: list[Msg] = []
        disadvantage: list[Msg] = []
        for name, level in self.condition_levels(state, combatant_id):
            condition = table.get(name)
            if condition is None or (condition.from_level and level < condition.from_level):
                continue
            if kind in condition.fails_saves:
                fails.append(Msg(id=name))
            edge = condition.save_edge.get(kind) or condition.save_edge.get(ALL, "")
            if edge == "advantage":
                advantage.append(Msg(id=N_("{condition}: advantage"), params={"condition": Msg(id=name)}))
            elif edge == "disadvantage":
                disadvantage.append(Msg(id=N_("{condition}: disadvantage"), params={"condition": Msg(id=name)}))
        if fails:
            return SaveOdds(kind=kind, needed=dc, dice=rules.dice, modifier=bonus, auto="fail", reasons=tuple(fails))
        reasons = [*advantage, *disadvantage]
        label = covers[cover]
        if label is not None and kind == "dex":
            bonus += cover
            reasons.append(Msg(id=label, params={"bonus": cover}))
        dice = dice_for(int(bool(advantage)) - int(bool(disadvantage))) if rules.dice == "1d20" else rules.dice
        return SaveOdds(kind=kind, needed=dc, dice=dice, modifier=bonus, reasons=tuple(reasons))

    def area_share(self, state: State, combatant_id: str, amount: int, on_save: str, saved: bool, kind: str) -> int:
        if kind == "dex" and on_save == "half" and sheet_of(state.combatant(combatant_id)).evasion:
            return 0 if saved else amount // 2  # Evasion
        return super().area_share(state, combatant_id, amount, on_save, saved, kind)

    # -- Legendary Resistance -------------------------------------------------------------------------------
    def legendary_resistance(self, state: State, combatant_id: str) -> int:
        total = sheet_of(state.combatant(combatant_id)).legendary_resistance
        return max(total - self.fight_of(state).legendary_resistance_used.get(combatant_id, 0), 0)

    def spend_legendary_resistance(self, state: State, combatant_id: str) -> State:
        if self.legendary_resistance(state, combatant_id) < 1:
            raise RuleError(_("{name} has no Legendary Resistance left.", name=state.combatant(combatant_id).name))
        fight = self.fight_of(state)
        used = {
            **fight.legendary_resistance_used,
            combatant_id: fight.legendary_resistance_used.get(combatant_id, 0) + 1,
        }
        return self.with_fight(state, replace(fight, legendary_resistance_used=used))

    # -- damage types and temporary hit points ----------------------------------------------------------------
    def damage_types(self, state: State) -> tuple[tuple[str, str], ...]:
        return DAMAGE_TYPES

    def defences(self, state: State, combatant_id: str) -> dict[str, set[str]]:
        """ "resist", "immune", "vulnerable" → the damage types (or "all"), from the sheet and his conditions."""
        sheet = sheet_of(state.combatant(combatant_id))
        found = {key: set(parse_types(getattr(sheet, key), label)) for key, label in DEFENCES}
        table = data().conditions
        for name, _level in self.condition_levels(state, combatant_id):
            condition = table.get(name)
            if condition is not None:
                found["resist"].update(condition.resist)
                found["immune"].update(condition.immune)
        return found

    def incoming_damage(self, state: State, combatant_id: str, amount: int, kind: str) -> Incoming:
        reasons: list[Msg] = []
        if kind and amount > 0:
            defences = self.defences(state, combatant_id)
            if {kind, ALL} & defences["immune"]:
                reasons.append(Msg(id=N_("immune")))
                amount = 0
            else:
                if {kind, ALL} & defences["resist"]:  # however many resistances: once
                    reasons.append(
                        Msg(id=N_("resistant: {before} → {after}"), params={"before": amount, "after": amount // 2})
                    )
                    amount //= 2
                if {kind, ALL} & defences["vulnerable"]:
                    reasons.append(
                        Msg(id=N_("vulnerable: {before} → {after}"), params={"before": amount, "after": amount * 2})
                    )
                    amount *= 2
        temporary = self.temp_hp(state, combatant_id)
        absorbed = min(temporary, amount)
        if absorbed:
            state = self.with_temp_hp(state, combatant_id, temporary - absorbed)
            reasons.append(
                plural_msg("{n} taken by temporary hit points", "{n} taken by temporary hit points", absorbed)
            )
        return Incoming(amount=amount - absorbed, state=state, reasons=tuple(reasons), absorbed=absorbed)

    def temp_hp(self, state: State, combatant_id: str) -> int:
        return self.fight_of(state).temp_hp.get(combatant_id, 0)

    def with_temp_hp(self, state: State, combatant_id: str, amount: int) -> State:
        fight = self.fight_of(state)
        temp = {key: value for key, value in fight.temp_hp.items() if key != combatant_id}
        if amount > 0:
            temp[combatant_id] = amount
        return self.with_fight(state, replace(fight, temp_hp=temp))

    def temp_hp_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        return (
            FieldSpec(
                key="amount",
                label=N_("Temporary hit points"),
                kind="int",
                default=0,
                minimum=0,
                maximum=10_000,
                help=N_("they do not add up: the higher pool stays; 0 takes them away"),
            ),
        )

    def set_temp_hp(self, state: State, combatant: Combatant, args: dict[str, Any]) -> State:
        """A new pool of temporary hit points: it replaces a smaller one and leaves a larger one (they do not add
        up); 0 takes them away."""
        amount = int_arg(args, "amount", 0, N_("Temporary hit points"))
        if amount < 0:
            raise RuleError(_("Temporary hit points are not negative."))
        before = self.temp_hp(state, combatant.id)
        party = self.in_party(state, combatant)
        name = who(state, combatant)
        if amount == 0:
            if not before:
                raise RuleError(_("{name} has no temporary hit points.", name=combatant.name))
            return log(
                self.with_temp_hp(state, combatant.id, 0),
                N_("{name} has no temporary hit points any more."),
                facts={"temp_hp": 0},
                name=name,
            )
        if before >= amount:
            shown: Param = before if party else gm_only(before)
            return log(
                state,
                N_("{name} keeps {kept} temporary hit points: they do not add up, the higher pool stays."),
                facts={"temp_hp": before},
                name=name,
                kept=shown,
                public=Msg(id=N_("{name} keeps the temporary hit points he has."), params={"name": name}),
            )
        return log(
            self.with_temp_hp(state, combatant.id, amount),
            N_("{name} gains {amount} temporary hit points."),
            facts={"temp_hp": amount},
            name=name,
            amount=amount if party else gm_only(amount),
            public=Msg(id=N_("{name} gains temporary hit points."), params={"name": name}),
        )

    # -- concentration --------------------------------------------------------------------------------------------
    def concentrating(self, state: State, combatant_id: str) -> list[ActiveCondition]:
        table = data().conditions
        return [c for c in self.conditions_of(state, combatant_id) if c.name in table and table[c.name].concentration]

    def on_damage(self, state: State, combatant_id: str, amount: int, *, critical: bool = False) -> State:
        """A concentrating creature that takes damage owes a Constitution save, DC 10 or half the damage; one that
        falls loses its concentration (done when its status changed)."""
        state = super().on_damage(state, combatant_id, amount, critical=critical)
        if not self.concentrating(state, combatant_id):
            return state
        combatant = state.combatant(combatant_id)
        if combatant.status != "active" or self.incapacitated_by(state, combatant_id):
            return self.end_concentration(state, combatant_id, Msg(id=N_("down")))
        dc = max(data().concentration.minimum_dc, amount // 2)
        fight = self.fight_of(state)
        due = ConcentrationDue(combatant=combatant_id, dc=dc, damage=amount)
        state = self.with_fight(state, replace(fight, concentration_due=(*fight.concentration_due, due)))
        name = who(state, combatant)
        return log(
            state,
            N_("{name} is concentrating: a Constitution saving throw against DC {dc}, or the spell ends."),
            facts={"concentration_dc": dc},
            name=name,
            dc=behind(dc),
            public=Msg(
                id=N_("{name} is concentrating: a Constitution saving throw, or the spell ends."), params={"name": name}
            ),
        )

    def saves_due(self, state: State) -> tuple[SaveDue, ...]:
        if state.phase != "round":
            return ()
        return tuple(
            SaveDue(
                combatant=due.combatant,
                kind="con",
                dc=due.dc,
                source=CONCENTRATION,
                why=Msg(id=N_("concentration: {damage} damage"), params={"damage": due.damage}),
            )
            for due in self.fight_of(state).concentration_due
            if state.has(due.combatant)
        )

    def after_save(self, state: State, combatant_id: str, kind: str, saved: bool, source: str) -> State:
        if source != CONCENTRATION:
            return state
        combatant = state.combatant(combatant_id)
        if kind != "con":
            raise RuleError(_("A concentration save is a Constitution saving throw."))
        if not self.concentrating(state, combatant_id):
            raise RuleError(_("{name} is not concentrating.", name=combatant.name))
        fight = self.fight_of(state)
        dues = list(fight.concentration_due)
        first = next((index for index, due in enumerate(dues) if due.combatant == combatant_id), None)
        if first is not None:
            del dues[first]
        state = self.with_fight(state, replace(fight, concentration_due=tuple(dues)))
        if saved:
            return state
        return self.end_concentration(state, combatant_id, Msg(id=N_("the Constitution save failed")))

    def end_concentration(self, state: State, combatant_id: str, why: Msg) -> State:
        """He loses his concentration: the spell ends, and what it held on others."""
        held = self.concentrating(state, combatant_id)
        if not held:
            return state
        state = log(
            state,
            N_("{name} loses concentration: {why}."),
            facts={"concentration_lost": True},
            name=named(state, combatant_id),
            why=why,
        )
        return self.end_conditions(state, held)

    def end_conditions(self, state: State, ending: list[ActiveCondition], already_removed: bool = False) -> State:
        """Conditions ending; a concentration ending ends what it held (conditions and effects) and the saves
        it owed."""
        state = super().end_conditions(state, ending, already_removed)
        table = data().conditions
        for holder in dict.fromkeys(c.target for c in ending if c.name in table and table[c.name].concentration):
            if self.concentrating(state, holder):
                continue  # another concentration of his still stands
            fight = self.fight_of(state)
            state = self.with_fight(
                state,
                replace(
                    fight, concentration_due=tuple(due for due in fight.concentration_due if due.combatant != holder)
                ),
            )
            state = self.end_conditions(state, [c for c in self.fight_of(state).conditions if c.held_by == holder])
            state = effects.end_held(state, holder)
        return state

    def on_status(self, state: State, combatant_id: str, before: Status) -> State:
        state = super().on_status(state, combatant_id, before)
        if state.combatant(combatant_id).status == "down":
            return self.end_concentration(state, combatant_id, Msg(id=N_("down")))
        return state

    def add_condition(self, state: State, target: Combatant, args: dict[str, Any]) -> State:
        """Concentrating on a new spell ends the old one; an incapacitating condition ends concentration."""
        name = str(args.get("condition", ""))
        table = data().conditions
        holder = str(args.get("held_by", "") or "")
        if holder and not self.concentrating(state, holder):
            raise RuleError(
                _("{name} is not concentrating.", name=state.combatant(holder).name if state.has(holder) else "?")
            )
        if name in table and table[name].concentration and self.concentrating(state, target.id):
            state = self.end_concentration(state, target.id, Msg(id=N_("a new spell")))
        state = super().add_condition(state, target, args)
        if name in table and table[name].incapacitated:
            state = self.end_concentration(state, target.id, Msg(id=name))
        return state

    def condition_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        holders = tuple(
            (c.id, c.name) for c in state.combatants if self.concentrating(state, c.id) and c.id != combatant_id
        )
        extra = [FieldSpec(key="level", label=N_("Level (exhaustion)"), kind="int", default=1, minimum=1, maximum=6)]
        if holders:
            extra.insert(
                0,
                FieldSpec(
                    key="held_by",
                    label=N_("Held by the concentration of"),
                    kind="choice",
                    default="",
                    choices=(("", N_("nobody")), *holders),
                ),
            )
        return (*super().condition_fields(state, combatant_id), *extra)
