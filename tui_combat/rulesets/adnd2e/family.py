"""What the AD&D rulesets share (AD&D 2e and Player's Option: Combat & Tactics): the sheet, surprise and
the encounter distance by the surprise result, the attack helper, the round's budget, spells lost to a
hit, and effects with a duration counted down at the end of every round.

A ruleset of the family subclasses :class:`AdndFamily` with its own round state (a :class:`RoundBase`)
and says what each combatant declared (:meth:`AdndFamily.declared_action` and friends) and what he
strikes with (:meth:`AdndFamily.attack_plan_of`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

import msgspec
from msgspec.structs import replace

from tui_combat.engine.audience import behind, typed, who
from tui_combat.engine.contract import (
    ActionSpec,
    BudgetLine,
    DamageDue,
    FieldSpec,
    Health,
    Ruleset,
    Situation,
    SurpriseModifier,
    new_attack,
)
from tui_combat.engine.dice import Roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.foes import foe_choices
from tui_combat.engine.log import Fact, Msg, Param, log, plural_msg
from tui_combat.engine.mistakes import validation_text
from tui_combat.engine.model import Combatant, State, Status
from tui_combat.engine.saves import SaveOdds
from tui_combat.i18n import N_, _, english_word
from tui_combat.rulesets.adnd2e.data import Distance, SurpriseResult, tables
from tui_combat.rulesets.adnd2e.death import bind, bleed, condition, fallen, health_after, hit_while_dying, note_damage
from tui_combat.rulesets.adnd2e.family_terms import AttackReckoning, int_arg, ordinal, signed, spell_param
from tui_combat.rulesets.adnd2e.measure import hit_dice_against_levels
from tui_combat.rulesets.adnd2e.saves import SAVE_KINDS, save_odds_of
from tui_combat.rulesets.adnd2e.sheet import (
    CLASSES,
    Sheet,
    armour_modifier,
    canonical_sheet,
    check_sheet_values,
    damage_of,
    first_forms,
    is_large,
    magic_of,
    sheet_form,
    sheet_of,
    table_damage,
    thac0,
    weapon_key,
)
from tui_combat.rulesets.adnd2e.state import AdndFight, Effect, RoundBase, Spent, duration
from tui_combat.rulesets.hit_dice import read_hit_dice

__all__ = ["ANYWAY", "EFFECT_ACTION", "AdndFamily"]

RB = TypeVar("RB", bound=RoundBase)
Plan = tuple[tuple[str, ...], ...]

ANYWAY = "anyway"
"""A form's box: take an action the book refuses (a second main action), the log saying so."""
ANYWAY_LABEL = N_("Ignore the book (the log says so)")

EFFECT_ACTION = ActionSpec(name="effect", key="f", label=N_("Duration"), footer=False)
"""Start counting down a spell or effect on the selected combatant (rounds or turns)."""


class AdndFamily(Ruleset[RB, AdndFight]):
    """The parts AD&D 2e and Player's Option share; the round state ``RB`` is each one's own."""

    fight_state_type = AdndFight
    sheet_type: ClassVar[type[Sheet]] = Sheet

    def prepare(self) -> None:
        tables()

    # -- the sheet -------------------------------------------------------------------------------------
    def base_sheet_fields(self) -> tuple[FieldSpec, ...]:
        return sheet_form(tables().armour_types)

    @property
    def sheet_fields(self) -> tuple[FieldSpec, ...]:  # type: ignore[override]  # the armour list comes from the data
        return self.base_sheet_fields()

    def effect_names(self) -> tuple[str, ...]:
        """The states the seed's initiative modifiers name (hasted, slowed, hindered), and sleep."""
        return (N_("hasted"), N_("slowed"), N_("hindered (tied, climbing, held)"), N_("asleep"))

    def summary_columns(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return ((N_("Class and level"), ("cls", "level")), (N_("AC"), ("ac",)), (N_("Weapon"), ("weapon", "magic")))

    def summary(self, state: State, combatant_id: str) -> tuple[str, ...]:
        """As the contract's, with the weapon's bonus signed ("war hammer +4") and a bonus of 0 left out."""
        sheet = state.combatant(combatant_id).sheet
        klass, ac, _weapon = super().summary(state, combatant_id)
        weapon = _(str(sheet.get("weapon", ""))) if sheet.get("weapon") else ""
        magic = int(sheet.get("magic", 0) or 0)
        return klass, ac, f"{weapon} {magic:+d}".strip() if magic else weapon

    def difficulty(self, state: State) -> str | None:
        """The monsters' Hit Dice against the party's levels (the book has no formula: see
        :mod:`tui_combat.rulesets.adnd2e.measure`)."""
        return hit_dice_against_levels(state)

    def check_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        sheet = canonical_sheet(sheet)
        check_sheet_values(sheet, self.sheet_type)
        return sheet

    def sheet(self, combatant: Combatant) -> Sheet:
        return sheet_of(combatant)

    # -- saving throws (PHB Table 60) and hit points (the Hit Dice) -------------------------------------
    def save_kinds(self, state: State) -> tuple[tuple[str, str], ...]:
        return SAVE_KINDS

    def save_odds(self, state: State, combatant_id: str, kind: str, dc: int, *, cover: int = 0) -> SaveOdds:
        """Table 60's number for his class group and level (a monster's by its Hit Dice, or its own), his bonus
        added to the d20; ``dc`` and ``cover`` are not AD&D's."""
        return save_odds_of(self.sheet(state.combatant(combatant_id)), kind)

    def hit_point_dice(self, sheet: Mapping[str, Any]) -> str:
        """A monster's hit points are rolled from its Hit Dice, d8 each with the pluses ("6+6" → 6d8+6; "½" → 1d4);
        a character's are the GM's figure."""
        cls = sheet.get("cls", "warrior")
        if not isinstance(cls, str) or english_word(cls, CLASSES) != "monster":
            return ""
        level = sheet.get("level", 1)
        try:
            return read_hit_dice(level).roll_dice() if isinstance(level, (int, str)) else ""
        except RuleError:
            return ""

    # -- what a combatant declared (each ruleset its own) -----------------------------------------------
    def declared_action(self, state: State, combatant_id: str) -> str:
        """ "weapon", "natural", "spell", "item", "move" …"""
        return "weapon"

    def declared_spell(self, state: State, combatant_id: str) -> str:
        """The spell he declared ("" when he casts none; a spell without a name is "spell")."""
        return ""

    def declared_in_secret(self, state: State, combatant_id: str) -> bool:
        """Whether his declaration is the GM's secret: the monsters' and NPCs' intentions are decided in the
        secret step, so what they declared (and the effects named after it) stays off the players' screen
        even when it comes up later."""
        combatant = state.combatant(combatant_id)
        return not state.side(combatant.side).is_party

    def refuse_party_in_secret_step(self, state: State, combatant_id: str) -> None:
        """The secret step is for the monsters' intentions: the players declare in their own step."""
        steps = self.steps(state)
        combatant = state.combatant(combatant_id)
        if 0 <= state.step < len(steps) and steps[state.step].secret and state.side(combatant.side).is_party:
            raise RuleError(_("{name} declares in the players' step.", name=combatant.name))

    def declared_what(self, state: State, combatant_id: str) -> Param:
        return Msg(id=self.declared_action(state, combatant_id))

    def attack_plan_of(self, state: State, combatant: Combatant) -> Plan:
        """What he strikes with in each of his slots this round (empty when he declared no attack)."""
        return (first_forms(self.sheet(combatant)),)

    def declares_attack(self, state: State, combatant_id: str) -> bool:
        return self.declared_action(state, combatant_id) in ("weapon", "natural")

    # -- surprise and distance ------------------------------------------------------------------------
    def surprise_dice(self) -> str:
        return tables().surprise.dice

    def surprise_modifiers(self) -> tuple[SurpriseModifier, ...]:
        return tuple(SurpriseModifier(label=m.label, value=m.value) for m in tables().surprise.modifiers)

    def is_surprised(self, total: int) -> bool:
        return total <= tables().surprise.surprised_up_to

    def surprise_effect(self) -> str:
        return N_("Surprised, they lose this round: {names}.")

    def settle_surprise(self, state: State, rolls: Mapping[str, Roll], modifiers: Mapping[str, int]) -> State:
        state = super().settle_surprise(state, rolls, modifiers)
        rolled = [r for r in self.surprise_requests(state) if r.key in rolls]
        both = len(rolled) > 1 and all(self.is_surprised(rolls[r.key].total + modifiers.get(r.key, 0)) for r in rolled)
        return self.with_fight(state, replace(self.fight_of(state), both_surprised=both))

    def surprise_result(self, state: State) -> SurpriseResult:
        if state.surprised:
            return "one"
        return "both" if self.fight_of(state).both_surprised else "none"

    def distance_rows(self) -> tuple[Distance, ...]:
        return tables().distance

    def distance_situations(self) -> tuple[Situation, ...]:
        return tuple(
            Situation(id=d.id, label=d.label, dice=d.dice, multiplier=d.multiplier, unit=d.unit)
            for d in self.distance_rows()
        )

    def encounter_distances(self, state: State) -> tuple[Situation, ...]:
        """The rows of the surprise result: both sides surprised, one side, or (nobody) the terrain's."""
        result = self.surprise_result(state)
        wanted = {d.id for d in self.distance_rows() if d.surprise == result}
        return tuple(s for s in self.distance_situations() if s.id in wanted)

    def on_round_start(self, state: State) -> State:
        state = super().on_round_start(state)
        if state.round > 1 and state.surprised:
            state = replace(state, surprised=())  # surprise costs the first round, nothing more
        return state

    def free_round(self, state: State) -> bool:
        """Round 1 after one side was surprised: the other side's free round (both surprised: none)."""
        return state.round == 1 and bool(state.surprised)

    def surprised_now(self, state: State, combatant_id: str) -> bool:
        return self.free_round(state) and combatant_id in state.surprised

    def refuse_spell_in_free_round(self, state: State, combatant_id: str, casting: bool) -> None:
        """The free round allows melee, missiles and magic items, no spells."""
        if casting and self.free_round(state):
            raise RuleError(
                _(
                    "{name} cannot cast a spell in the surprise round: melee, missiles and magic items only.",
                    name=state.combatant(combatant_id).name,
                )
            )

    def acting(self, state: State) -> list[Combatant]:
        """Who takes part in this round's order: the active, less the surprised in round 1."""
        skip = set(state.surprised) if state.round == 1 else set()
        return [c for c in state.combatants if c.status == "active" and c.id not in skip]

    def step_kind(self, state: State) -> str:
        """As the contract's, but after the fight too: its last step stays ("end": everyone has acted, so a
        hit after the fight disturbs no spell)."""
        steps = self.steps(state)
        return steps[state.step].kind if 0 <= state.step < len(steps) else ""

    # -- the round's budget ---------------------------------------------------------------------------
    def spent(self, state: State, combatant_id: str) -> Spent:
        return self.round_of(state).spent.get(combatant_id, Spent())

    def spend(self, state: State, combatant_id: str, *, attacks: int = 0, main: int = 0) -> State:
        current = self.round_of(state)
        spent = current.spent.get(combatant_id, Spent())
        spent = Spent(attacks=spent.attacks + attacks, main=spent.main + main)
        return self.with_round(state, replace(current, spent={**current.spent, combatant_id: spent}))

    def main_refusal(self, state: State, combatant: Combatant, attacking: bool) -> str:
        """Why the book refuses him another main action this round ("" when it does not): one main action
        a round, his attacks (however many) being one, a spell or anything else another."""
        spent = self.spent(state, combatant.id)
        if spent.main:
            return _("{name} has already taken his main action this round: one a round.", name=combatant.name)
        if spent.attacks and not attacking:
            return _("{name} has attacked this round: his attacks were his main action.", name=combatant.name)
        return ""

    def against_the_book(self, state: State, combatant: Combatant, attacking: bool, args: Mapping[str, Any]) -> State:
        """Refuse a second main action with the reason, or, the GM having ticked "ignore the book", log it."""
        reason = self.main_refusal(state, combatant, attacking)
        if not reason:
            return state
        if args.get(ANYWAY) is not True:
            raise RuleError(reason + " " + _('Tick "{box}" to allow it.', box=_(ANYWAY_LABEL)))
        return log(
            state,
            N_("{name} takes a second main action this round, against the book."),
            facts={"anyway": True},
            name=who(state, combatant),
            secret=self.declared_in_secret(state, combatant.id),
        )

    def anyway_fields(self, state: State, combatant_id: str, attacking: bool) -> tuple[FieldSpec, ...]:
        """The "ignore the book" box, only when the book would refuse the action."""
        if not self.main_refusal(state, state.combatant(combatant_id), attacking):
            return ()
        return (FieldSpec(key=ANYWAY, label=ANYWAY_LABEL, kind="bool", default=False),)

    def attack_total(self, state: State, combatant: Combatant) -> int:
        return sum(len(routine) for routine in self.attack_plan_of(state, combatant))

    budget_ignores_the_turn = True
    """The budget is his attacks and main action this round: his sheet, his declaration and what he spent
    (the round state), spells of several rounds (the fight state), the round number, the options."""

    def budget(self, state: State, combatant_id: str) -> tuple[BudgetLine, ...]:
        combatant = state.combatant(combatant_id)
        spent = self.spent(state, combatant_id)
        attacks = self.attack_total(state, combatant)
        lines = []
        if attacks:
            lines.append(BudgetLine(label=_("Attacks"), left=max(attacks - spent.attacks, 0), total=attacks))
        lines.append(BudgetLine(label=_("Main action"), left=0 if spent.main or spent.attacks else 1, total=1))
        return tuple(lines)

    def slots_of(self, state: State, combatant_id: str) -> list[int]:
        return [index for index, slot in enumerate(state.order) if combatant_id in slot.combatants]

    def attacks_due(self, state: State, combatant: Combatant, plan: Plan) -> int:
        """Attacks he may have made by now: his own slot's forms whenever the GM likes; each repeated use
        only once the order has reached its slot, after everyone's first attack."""
        positions = self.slots_of(state, combatant.id)
        if len(positions) < len(plan):
            return sum(len(routine) for routine in plan)  # not (yet) in the order: the GM keeps count
        due = len(plan[0]) if plan else 0
        in_resolve = self.step_kind(state) == "resolve"
        for index in range(1, len(plan)):
            if not in_resolve or positions[index] <= state.cursor:
                due += len(plan[index])
        return due

    # -- spells lost to a hit ---------------------------------------------------------------------------
    def spell_lost(self, state: State, combatant_id: str) -> bool:
        return combatant_id in self.round_of(state).spells_lost

    def has_acted(self, state: State, combatant_id: str) -> bool:
        """Whether his (first) slot has come up: a hit from then on no longer disturbs what he did."""
        kind = self.step_kind(state)
        if kind == "end":
            return True
        if kind != "resolve":
            return False
        positions = self.slots_of(state, combatant_id)
        return bool(positions) and positions[0] <= state.cursor

    def lose_spell(self, state: State, combatant_id: str, spell: str) -> State:
        current = self.round_of(state)
        state = self.with_round(state, replace(current, spells_lost=(*current.spells_lost, combatant_id)))
        return log(
            state,
            N_("{name} is hit before casting: {spell} is lost."),
            facts={"spell": spell},
            secret=self.declared_in_secret(state, combatant_id),
            name=who(state, combatant_id),
            spell=spell_param(spell),
        )

    def on_damage(self, state: State, combatant_id: str, amount: int, *, critical: bool = False) -> State:
        state = hit_while_dying(state, self.fight_of(state), combatant_id)
        state = self.with_fight(state, note_damage(state, self.fight_of(state), combatant_id))
        return self.disturb_spell(state, combatant_id)

    def on_status(self, state: State, combatant_id: str, before: Status) -> State:
        """Gone down at 0 hit points: dead, or (the option) bleeding; the log says which as it happens."""
        return fallen(state, combatant_id) if before != "down" else state

    def disturb_spell(self, state: State, combatant_id: str) -> State:
        """A hit on a caster: his spell is lost if his slot has not come up."""
        spell = self.declared_spell(state, combatant_id)
        if not spell or self.spell_lost(state, combatant_id) or self.has_acted(state, combatant_id):
            return state
        return self.lose_spell(state, combatant_id, spell)

    # -- death ------------------------------------------------------------------------------------------
    def after_damage(self, state: State, combatant: Combatant, amount: int, *, critical: bool = False) -> Health:
        return health_after(state, combatant, amount)

    public_reads = frozenset({"fight_state", "options", "sides"})
    """His word for his health (the public conditions are that word, his health his hit points): the dying and
    bound (the fight state), whether he may lie dying (the option, and his side)."""

    def condition_word(self, state: State, combatant_id: str) -> str | None:
        return condition(state, self.fight_of(state), combatant_id)

    @staticmethod
    def anyone(state: State, combatant_id: str) -> Combatant:
        """The combatant an action names, standing or not (binding the wounds of the fallen)."""
        try:
            return state.combatant(combatant_id)
        except KeyError:
            raise RuleError(_("Select a combatant first.")) from None

    def bind_wounds(self, state: State, combatant: Combatant) -> State:
        fight, state = bind(state, self.fight_of(state), combatant)
        return self.with_fight(state, fight)

    def bleed(self, state: State) -> State:
        fight, state = bleed(state, self.fight_of(state))
        return self.with_fight(state, fight)

    # -- the attack helper -------------------------------------------------------------------------------
    def attack_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        combatant = state.combatant(combatant_id)
        plan = self.attack_plan_of(state, combatant)
        pool = [form for routine in plan for form in routine] or list(first_forms(self.sheet(combatant)))
        used = self.spent(state, combatant_id).attacks
        forms = tuple(dict.fromkeys(pool))
        foes = foe_choices(state, combatant.side)
        fields = [
            FieldSpec(
                key="with",
                label=N_("With"),
                kind="choice",
                default=pool[min(used, len(pool) - 1)],
                choices=tuple((form, form) for form in forms),
            ),
            FieldSpec(
                key="target",
                label=N_("Target"),
                kind="choice",
                default=foes[0][0] if foes else "",
                choices=(("", N_("— (the AC below)")), *foes),
            ),
            FieldSpec(key="target_ac", label=N_("Target AC"), kind="str", default="", help=N_("empty: the target's")),
        ]
        if state.options.get("weapon_vs_armour") == "on":
            armour = (
                ("", N_("as on the target's sheet")),
                ("none", N_("none or not known")),
                *((name, name) for name in tables().armour_types),
            )
            fields.append(
                FieldSpec(key="armour", label=N_("Target's armour"), kind="choice", default="", choices=armour)
            )
        fields += [
            FieldSpec(key="bonus", label=N_("Other modifiers"), kind="int", default=0),
            FieldSpec(key="roll", label=N_("Attack roll"), kind="roll", default="1d20"),
            *self.anyway_fields(state, combatant_id, True),
        ]
        return tuple(fields)

    def reckon(self, state: State, combatant: Combatant, args: Mapping[str, Any]) -> AttackReckoning:
        """What an attack needs, from the form's values: the weapon, the target and his AC (the sheet's,
        or the one typed), weapon type vs armour type, the weapon's bonus and the other modifiers."""
        plan = self.attack_plan_of(state, combatant)
        used = self.spent(state, combatant.id).attacks
        pool = [form for routine in plan for form in routine] or list(first_forms(self.sheet(combatant)))
        form = str(args.get("with") or pool[min(used, len(pool) - 1)])
        if weapon_key(form) not in {weapon_key(f) for f in pool}:
            raise RuleError(
                _(
                    "{name} does not attack with {weapon} this round (he has: {forms}).",
                    name=combatant.name,
                    weapon=form,
                    forms=", ".join(_(f) for f in dict.fromkeys(pool)),
                )
            )
        sheet = self.sheet(combatant)
        target = self._target(state, str(args.get("target") or ""))
        target_sheet = self.sheet(target) if target is not None else None
        surprised = target is not None and self.surprised_now(state, target.id)
        # Surprised, he loses his Dex bonus (a penalty stays); an AC the GM types is taken as it is.
        dex_lost = -target_sheet.dex_ac if surprised and target_sheet is not None and target_sheet.dex_ac < 0 else 0
        typed = args.get("target_ac") not in (None, "")
        if typed:
            dex_lost = 0
        ac = int_arg(args, "target_ac", target_sheet.ac + dex_lost if target_sheet is not None else 10)
        armour = str(args.get("armour") or (target_sheet.armour if target_sheet is not None else ""))
        modifier, kind = (0, None)
        if state.options.get("weapon_vs_armour") == "on" and armour != "none":
            modifier, kind = armour_modifier(form, armour)
        return AttackReckoning(
            form=form,
            one_weapon=len(set(pool)) == 1,
            target=target,
            ac=ac,
            armour=armour,
            modifier=modifier,
            kind=kind,
            magic=magic_of(sheet, form),
            bonus=int_arg(args, "bonus", 0),
            surprised=1 if surprised else 0,
            dex_lost=dex_lost,
            needed=thac0(sheet) - ac + modifier,
        )

    def form_preview(self, state: State, name: str, combatant_id: str, values: Mapping[str, Any]) -> str:
        if name == "main_action" and combatant_id:
            return self.main_refusal(state, state.combatant(combatant_id), False)
        if name != "attack" or not combatant_id:
            return ""
        reckoning = self.reckon(state, state.combatant(combatant_id), values)
        least = reckoning.needed - reckoning.magic - reckoning.bonus - reckoning.surprised
        hits = sum(1 for face in range(1, 21) if face == 20 or (face != 1 and face >= least))
        return _(
            "Needs {least} or more on the d20 (THAC0 {thac0} − AC {ac}{modifiers}): {chance}% to hit.",
            least=max(min(least, 20), 2),
            thac0=thac0(self.sheet(state.combatant(combatant_id))),
            ac=reckoning.ac,
            modifiers=reckoning.modifiers_text(),
            chance=hits * 5,
        )

    def damage_due(self, before: State, after: State, name: str, args: Mapping[str, Any]) -> DamageDue | None:
        facts = new_attack(before, after, args.get("combatant"))
        if name != "attack" or facts is None or not facts.get("hit") or not facts.get("target"):
            return None
        attacker = after.combatant(str(facts["attacker"]))
        form = str(facts.get("weapon", ""))
        target = after.combatant(str(facts["target"]))
        large = is_large(self.sheet(target))
        dice = damage_of(self.sheet(attacker), form, large=large)
        note: str | Msg = ""
        if large and table_damage(form) is not None and dice != damage_of(self.sheet(attacker), form):
            note = Msg(id=N_("Against a large target: the weapon's large column."))
        return DamageDue(target=target.id, dice=dice, what=form, note=note)

    def attack(self, state: State, combatant: Combatant, args: Mapping[str, Any]) -> State:
        plan = self.attack_plan_of(state, combatant)
        total = sum(len(routine) for routine in plan)
        used = self.spent(state, combatant.id).attacks
        if not total:
            raise RuleError(
                _(
                    "{name} declared {what}, not an attack.",
                    name=combatant.name,
                    what=_describe(self.declared_what(state, combatant.id)),
                )
            )
        if used >= total:
            raise RuleError(_("{name} has no attacks left this round.", name=combatant.name))
        state = self.against_the_book(state, combatant, True, args)
        if used >= self.attacks_due(state, combatant, plan):
            nth = self.slots_of(state, combatant.id)[len(_routines_used(plan, used))]
            raise RuleError(
                _(
                    "{name}'s next attack comes after everyone's first attack ({slot}).",
                    name=combatant.name,
                    slot=str(state.order[nth].label),
                )
            )
        raw_roll = args.get("roll")
        if raw_roll in (None, ""):
            return log(self.spend(state, combatant.id, attacks=1), N_("{name} attacks."), name=who(state, combatant))
        try:
            roll = msgspec.convert(raw_roll, Roll, strict=False)
        except msgspec.ValidationError as error:
            raise RuleError(_("Attack roll: {error}", error=validation_text(error, raw_roll))) from None
        reckoning = self.reckon(state, combatant, args)
        form, target, ac, magic = reckoning.form, reckoning.target, reckoning.ac, reckoning.magic
        bonus = reckoning.bonus + reckoning.surprised
        natural = roll.total
        needed = reckoning.needed
        hit = natural == 20 or (natural != 1 and natural + magic + bonus >= needed)
        state = self.spend(state, combatant.id, attacks=1)
        bonus_param = Msg(
            id="{magic}{other}{surprised}",
            params={
                "magic": Msg(id=N_(" {value} magic"), params={"value": signed(magic)}) if magic else "",
                "other": f" {signed(reckoning.bonus)}" if reckoning.bonus else "",
                "surprised": Msg(id=N_(" {value} surprised"), params={"value": signed(reckoning.surprised)})
                if reckoning.surprised
                else "",
            },
        )
        needed_param: Param = needed
        if reckoning.kind is not None:
            needed_param = Msg(
                id=N_("{needed} ({armour} vs {kind} {modifier})"),
                params={
                    "needed": needed,
                    "armour": Msg(id=weapon_key(reckoning.armour)),
                    "kind": Msg(id=reckoning.kind),
                    "modifier": signed(reckoning.modifier),
                },
            )
        facts: dict[str, Fact] = {
            "needed": needed,
            "natural": natural,
            "hit": hit,
            "magic": magic,
            "bonus": bonus,
            "armour_modifier": reckoning.modifier,
            "weapon": form,
            "attacker": combatant.id,
            "target": target.id if target is not None else "",
        }
        if reckoning.surprised:
            facts["surprised"] = True
        result = Msg(id=N_("hit") if hit else N_("miss"))
        # The players read who hits whom (the engine's outcome of a line of dice); the AC and the number needed
        # are behind the screen.
        name, armour_class, needed_value = who(state, combatant), behind(ac), behind(needed_param)
        if target is None and reckoning.one_weapon:  # one weapon and no named target: the short line
            return log(
                state,
                N_("{name} attacks AC {ac}: d20 {roll}{bonus} vs {needed} — {result}."),
                rolls=(roll,),
                facts=facts,
                name=name,
                ac=armour_class,
                roll=natural,
                bonus=bonus_param,
                needed=needed_value,
                result=result,
            )
        target_param = (
            Msg(id=N_("{name} (AC {ac})"), params={"name": who(state, target), "ac": armour_class})
            if target is not None
            else Msg(id=N_("AC {ac}"), params={"ac": armour_class})
        )
        return log(
            state,
            N_("{name} attacks {target} with {weapon}: d20 {roll}{bonus} vs {needed} — {result}."),
            rolls=(roll,),
            facts=facts,
            name=name,
            target=target_param,
            weapon=Msg(id=form),
            roll=natural,
            bonus=bonus_param,
            needed=needed_value,
            result=result,
        )

    @staticmethod
    def _target(state: State, target_id: str) -> Combatant | None:
        if not target_id:
            return None
        try:
            return state.combatant(target_id)
        except KeyError:
            raise RuleError(_("The target is not in this fight.")) from None

    def main_action(self, state: State, combatant: Combatant, args: Mapping[str, Any] | None = None) -> State:
        if self.declared_spell(state, combatant.id) and self.spell_lost(state, combatant.id):
            raise RuleError(_("{name}'s spell was lost this round.", name=combatant.name))
        state = self.against_the_book(state, combatant, False, args or {})
        state = self.spend(state, combatant.id, main=1)
        action = self.declared_action(state, combatant.id)
        return log(
            state,
            N_("{name}: {what}."),
            facts={"action": action},
            name=who(state, combatant),
            secret=self.declared_in_secret(state, combatant.id),
            what=self.declared_what(state, combatant.id),
        )

    # -- effects with a duration ------------------------------------------------------------------------
    def effect_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        spell = self.declared_spell(state, combatant_id)
        return (
            FieldSpec(key="name", label=N_("Spell or effect"), kind="str", default=spell if spell != "spell" else ""),
            FieldSpec(key="amount", label=N_("Duration"), kind="int", default=1),
            FieldSpec(
                key="unit",
                label=N_("In"),
                kind="choice",
                default="rounds",
                choices=(("rounds", N_("rounds")), ("turns", N_("turns (10 rounds)"))),
            ),
        )

    def start_effect(self, state: State, combatant: Combatant, args: Mapping[str, Any]) -> State:
        name = str(args.get("name") or "").strip()
        if not name:
            raise RuleError(_("Name the spell or effect."))
        amount = int_arg(args, "amount", 1)
        if amount < 1:
            raise RuleError(_("A duration is at least 1."))
        per_turn = tables().time.rounds_per_turn
        unit = str(args.get("unit") or "rounds")
        if unit not in ("rounds", "turns"):
            raise RuleError(_('"{unit}" is neither rounds nor turns.', unit=unit))
        rounds = amount * (per_turn if unit == "turns" else 1)
        fight = self.fight_of(state)
        effect = Effect(combatant=combatant.id, name=name, rounds_left=rounds)
        state = self.with_fight(state, replace(fight, effects=(*fight.effects, effect)))
        return log(
            state,
            N_("{effect} on {name}: {duration}."),
            facts={"rounds": rounds},
            effect=typed(name),
            secret=self.declared_in_secret(state, combatant.id),
            name=who(state, combatant),
            duration=duration(rounds, per_turn),
        )

    def tick_effects(self, state: State) -> State:
        """The end of a round: every effect has one round less; those at 0 end. Every tenth round a turn
        has passed."""
        per_turn = tables().time.rounds_per_turn
        fight = self.fight_of(state)
        kept = []
        for effect in fight.effects:
            left = effect.rounds_left - 1
            if left <= 0:
                there = state.has(effect.combatant)
                outside = not there or self.declared_in_secret(state, effect.combatant)
                state = log(
                    state,
                    N_("{effect} on {name} ends."),
                    secret=outside,
                    effect=typed(effect.name),
                    name=who(state, effect.combatant) if there else "?",
                )
            else:
                kept.append(replace(effect, rounds_left=left))
        state = self.with_fight(state, replace(self.fight_of(state), effects=tuple(kept)))
        if state.round % per_turn == 0:
            state = log(
                state,
                plural_msg(
                    "Turn {turn} is over ({n} round).",
                    "Turn {turn} is over ({n} rounds).",
                    per_turn,
                    turn=state.round // per_turn,
                ),
            )
        return state

    def effects_on(self, state: State, combatant_id: str) -> list[Msg]:
        """The effects on a combatant with the time they have left, as messages ("haste 4 rounds")."""
        per_turn = tables().time.rounds_per_turn
        return [
            Msg(
                id="{effect} {duration}",
                params={"effect": typed(e.name), "duration": duration(e.rounds_left, per_turn)},
            )
            for e in self.fight_of(state).effects
            if e.combatant == combatant_id
        ]

    # -- what the screens show ----------------------------------------------------------------------------
    def plan_text(self, plan: Plan) -> str:
        parts = [", ".join(_(form) for form in routine) for routine in plan]
        if not parts:
            return ""
        text = parts[0]
        for number, routine in enumerate(parts[1:], start=2):
            text += "; " + _(ordinal(number), n=number, value=routine)
        return text


def _routines_used(plan: Plan, used: int) -> list[int]:
    """The routines whose every attack is used up (``used`` attacks, taken in order)."""
    full, count = [], 0
    for index, routine in enumerate(plan):
        count += len(routine)
        if count > used:
            break
        full.append(index)
    return full


def _describe(what: Param) -> str:
    if isinstance(what, Msg):
        return str(what)
    return str(what) if what is not None else ""
