"""The combat actions and the catalogue of every Trudvang action.

Attack, grapple and Glima share ONE attack pipeline: checks on the attacker (his turn, not held, a
target) → what he buys (CP into a weapon, shield or fist; or SV bought for wrestling) → he pays for it
(once-a-round counters, unarmed attacks, CP pools, weapon actions) → SV = what he bought ± modifiers →
the d20 → the result → the attack is recorded (so that it can be defended against) and logged.

Parry, dodge and Glima defence share ONE defence pipeline: checks on the defender (the countdown is on,
which attack, can it be defended this way) → what he buys → he pays → SV → d20 → result → the attack is
marked as defended and what the defence undoes (a grapple that does not hold, a throw stopped) is undone.

Break free pays and rolls the same way (:meth:`CombatActions.resolve`).
"""

from __future__ import annotations

from typing import Any, Literal

from msgspec.structs import replace

from tui_combat.engine.audience import who
from tui_combat.engine.contract import ActionSpec
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Fact, Msg, Param, log, plural_msg, roll_param
from tui_combat.engine.model import Combatant, State
from tui_combat.i18n import N_, _
from tui_combat.rulesets.trudvang.base import convert_args
from tui_combat.rulesets.trudvang.budget import describe_item, find_weapon, pay, use_unarmed_attack
from tui_combat.rulesets.trudvang.combat_terms import (
    SUCCESS,
    CombatArgs,
    Outcome,
    Purchase,
    Result,
    cp_text,
    notes_param,
    sv_param,
)
from tui_combat.rulesets.trudvang.data import DODGE, SHIELD, UNARMED, WRESTLING, find_entry, norm
from tui_combat.rulesets.trudvang.sheet import TrudvangSheet
from tui_combat.rulesets.trudvang.state import AttackKind, AttackRecord, Defence, OnceARound, RoundInfo, Turn, Used
from tui_combat.rulesets.trudvang.turns import TurnActions

__all__ = ["CATALOGUE", "CombatActions", "Result"]

Defending = Literal["parry", "dodge", "glima_defence"]

CATALOGUE = (  # in the order a round uses them: before the countdown, then at a call, then out of turn
    ActionSpec(name="change_action", key="c", label=N_("Change action"), footer=False),
    ActionSpec(name="skip", key="k", label=N_("Skip")),
    ActionSpec(name="attack", key="a", label=N_("Attack")),
    ActionSpec(name="parry", key="p", label=N_("Parry")),
    ActionSpec(name="dodge", key="o", label=N_("Dodge"), footer=False),
    ActionSpec(name="grapple", key="g", label=N_("Grapple"), footer=False),
    ActionSpec(name="break_free", key="f", label=N_("Break free"), footer=False),
    ActionSpec(name="glima", key="w", label=N_("Glima (throw)"), footer=False),
    ActionSpec(name="glima_defence", key="v", label=N_("Resist Glima"), footer=False),
    ActionSpec(name="hold", key="l", label=N_("Hold")),
    ActionSpec(name="act_held", key="j", label=N_("Act held"), footer=False),
    ActionSpec(name="release", key="z", label=N_("Release hold"), footer=False),
)
BEFORE_THE_COUNTDOWN = frozenset({"change_action", "skip"})
ATTACKS: tuple[AttackKind, ...] = ("attack", "grapple", "glima")
DEFENCES: tuple[Defending, ...] = ("parry", "dodge", "glima_defence")
WEAPON_HANDS = ("", "main", "off")
GRIPS = ("", "both", "weapon", "shield")

ATTACK_TEXT: dict[AttackKind, str] = {
    "attack": N_("#{id} {name} attacks {target} with {what}: {sv}; {roll} → {result}.{notes}"),
    "grapple": N_("#{id} {name} tries to grapple {target}: {sv}; {roll} → {result}.{notes}"),
    "glima": N_("#{id} {name} throws {target} (Glima): {sv}; {roll} → {result}.{notes}"),
}
DEFENCE_TEXT: dict[Defending, str] = {
    "parry": N_("{name} parries attack #{id} with {what}: {sv}; {roll} → {result}.{notes}"),
    "dodge": N_("{name} dodges attack #{id}: {sv}; {roll} → {result}.{notes}"),
    "glima_defence": N_("{name} resists the Glima #{id}: {sv}; {roll} → {result}.{notes}"),
}
DEFENCE_OUTCOMES: dict[Defending, str] = {  # what the players read of a defence while its dice are the GM's
    "parry": N_("{name} parries with {what}: {result}."),
    "dodge": N_("{name} dodges: {result}."),
    "glima_defence": N_("{name} resists the Glima: {result}."),
}
DEFENCE_NAMES: dict[Defence, str] = {
    "": "",
    "parry": N_("parry"),
    "dodge": N_("dodge"),
    "glima_defence": N_("Glima defence"),
}
DEFENCE_VERBS: dict[Defending, str] = {
    "parry": N_("parry"),
    "dodge": N_("dodge"),
    "glima_defence": N_("defend against"),
}
RESULT_WORDS: dict[str, dict[Result, str]] = {
    "attack": {"critical": N_("critical hit"), "success": N_("hit"), "failure": N_("miss"), "fumble": N_("fumble")},
    "grapple": {
        "critical": N_("critical: a hold"),
        "success": N_("a hold"),
        "failure": N_("miss"),
        "fumble": N_("fumble"),
    },
    "glima": {
        "critical": N_("critical: thrown"),
        "success": N_("thrown"),
        "failure": N_("miss"),
        "fumble": N_("fumble"),
    },
    "parry": {
        "critical": N_("critical parry"),
        "success": N_("parried"),
        "failure": N_("failed"),
        "fumble": N_("fumble"),
    },
    "dodge": {
        "critical": N_("critical dodge"),
        "success": N_("dodged"),
        "failure": N_("failed"),
        "fumble": N_("fumble"),
    },
    "glima_defence": {
        "critical": N_("critical: throw stopped"),
        "success": N_("throw stopped"),
        "failure": N_("failed"),
        "fumble": N_("fumble"),
    },
    "break_free": {
        "critical": N_("critical: free"),
        "success": N_("free"),
        "failure": N_("still held"),
        "fumble": N_("fumble: still held"),
    },
}


class CombatActions(TurnActions):
    actions = CATALOGUE

    # -- the catalogue ---------------------------------------------------------------------------------
    def action_available(self, state: State, name: str, combatant_id: str | None) -> bool:
        """Before the countdown: change of action and skip; during it: every action (each refuses with
        its reason when it does not apply to the combatant now). Nothing for one who is down (dying at 0 Body
        Points or less): he neither acts nor defends."""
        if combatant_id is not None and state.has(combatant_id) and state.combatant(combatant_id).status == "down":
            return False
        kind = self.step_kind(state)
        if kind in ("declare", "initiative"):
            return name in BEFORE_THE_COUNTDOWN
        return kind == "resolve" and any(spec.name == name for spec in CATALOGUE)

    def apply_action(self, state: State, name: str, args: dict[str, Any]) -> State:
        """Apply one of the catalogue's actions; :class:`RuleError` says why not."""
        if name in ATTACKS:
            return self.attack(state, args, next(kind for kind in ATTACKS if kind == name))
        if name in DEFENCES:
            return self.defend(state, args, next(how for how in DEFENCES if how == name))
        handlers = {
            "break_free": self.break_free,
            "hold": self.hold,
            "act_held": self.act_held,
            "skip": self.skip,
            "change_action": self.change_action,
            "release": self.release,
        }
        handler = handlers.get(name)
        if handler is None:
            raise RuleError(
                _(
                    "Unknown Trudvang action {name}; known: {known}.",
                    name=name,
                    known=", ".join(spec.name for spec in CATALOGUE),
                )
            )
        return handler(state, args)

    # -- the attack pipeline ---------------------------------------------------------------------------
    def attack(self, state: State, raw: dict[str, Any], kind: AttackKind) -> State:
        args = convert_args(raw, CombatArgs, kind)
        combatant = self.acting(state, args.combatant)
        info = self.round_of(state)
        turn = self.own_turn(state, combatant, info)
        self.not_grappled(state, combatant)
        target = self.target_of(state, args.target, combatant)
        if kind == "glima" and self.holders(state).get(target.id) != combatant.id:
            raise RuleError(
                _(
                    "{name} does not hold {target}: Glima throws a grappled opponent.",
                    name=combatant.name,
                    target=target.name,
                )
            )
        purchase, item, ranged = self.buy_attack(state, combatant, kind, args)
        info, outcome = self.resolve(state, info, combatant, purchase, args, held_turn=True)
        record = AttackRecord(
            id=len(info.attacks) + 1,
            attacker=combatant.id,
            target=target.id,
            kind=kind,
            item=item,
            ranged=ranged,
            unarmed=item == UNARMED,
            hit=outcome.success,
            drop=kind == "glima" and args.drop,
            long_range=args.long_range and self.halves_at_long_range(combatant, item),
        )
        info = replace(info, attacks=(*info.attacks, record))
        info = self.with_turn(info, combatant.id, replace(info.turns.get(combatant.id, turn), acted=True))
        state = self.after_attack(self.with_round(state, info), record)
        sheet = self.sheet_of(combatant)
        return log(
            state,
            ATTACK_TEXT[kind],
            rolls=(args.roll,),
            facts={
                **outcome.facts,
                "attack": record.id,
                "hit": record.hit,
                "attacker": combatant.id,
                "target": target.id,
            },
            id=record.id,
            name=who(state, combatant),
            target=who(state, target),
            what=describe_item(item, sheet, self.data),
            sv=outcome.sv_text,
            roll=roll_param(args.roll),
            result=Msg(id=RESULT_WORDS[kind][outcome.result]),
            notes=notes_param(self.attack_notes(state, record, combatant, target)),
        )

    def buy_attack(
        self, state: State, combatant: Combatant, kind: AttackKind, args: CombatArgs
    ) -> tuple[Purchase, str, bool]:
        """What the attack buys, the item it is made with, and whether it is a ranged attack."""
        sheet = self.sheet_of(combatant)
        rules = self.data.rules
        if kind != "attack":
            rate = rules.grapple_cp_per_sv if kind == "grapple" else rules.glima_cp_per_sv
            what = Msg(id=N_("a grapple") if kind == "grapple" else N_("a Glima"))
            self.check_hand(args.hand, GRIPS, kind)
            grip = ([(N_("Strength"), sheet.str_mod)] if sheet.str_mod else []) + self.grip(sheet, args.hand)
            purchase = self.buy_wrestling(
                combatant, sheet, args, rate=rate, what=what, once=kind, mods=grip, capped=True, unarmed_attack=True
            )
            return purchase, UNARMED, False
        self.check_hand(args.hand, WEAPON_HANDS, kind)
        cp = args.cp or 0
        if cp < 1:
            raise RuleError(_("Put at least 1 CP into the attack."))
        used = self.used(state, combatant.id)
        item = self.item_for(combatant, sheet, used, args.weapon, attack=True)
        mods = tuple(self.offhand(sheet, item, used, args.hand))
        if item == UNARMED:
            return Purchase(pays=UNARMED, cp=cp, sv=cp, base=cp_text(cp), unarmed_attack=True, mods=mods), item, False
        weapon = find_weapon(sheet, item, self.data) if item != SHIELD else None
        ranged = weapon.ranged if weapon is not None else False
        return Purchase(pays=item, cp=cp, sv=cp, base=cp_text(cp), weapon_action=item, mods=mods), item, ranged

    def halves_at_long_range(self, combatant: Combatant, item: str) -> bool:
        """Whether ``item`` (his weapon's name) deals half damage at long range (the data's hunting bow)."""
        if item in (UNARMED, SHIELD):
            return False
        weapon = find_weapon(self.sheet_of(combatant), item, self.data)
        base = self.data.weapons.get(weapon.base) if weapon is not None and weapon.base else None
        return base is not None and base.half_at_long_range

    def after_attack(self, state: State, record: AttackRecord) -> State:
        """A grapple that hits holds at once; a Glima that hits releases the thrown opponent, unless the
        thrower dropped onto him."""
        if not record.hit:
            return state
        grappled = self.holders(state)
        if record.kind == "grapple":
            return self.with_holders(state, {**grappled, record.target: record.attacker})
        if record.kind == "glima" and not record.drop:
            return self.with_holders(state, {k: v for k, v in grappled.items() if k != record.target})
        return state

    def attack_notes(self, state: State, record: AttackRecord, attacker: Combatant, target: Combatant) -> list[Msg]:
        if not record.hit:
            return []
        named: dict[str, Param] = {"name": who(state, attacker), "target": who(state, target)}
        if record.kind == "grapple":
            return [
                Msg(
                    id=N_("{target} is held unless he parries or dodges; held, he can only try to break free."),
                    params=named,
                )
            ]
        if record.kind == "glima":
            if record.drop:
                return [
                    Msg(
                        id=N_(
                            "{name} drops onto him: 1d6 damage, and {target} "
                            "stays held (unless his Glima defence succeeds)."
                        ),
                        params=named,
                    )
                ]
            return [
                Msg(
                    id=N_("{target} falls: 1d4 damage, and he is released (unless his Glima defence succeeds)."),
                    params=named,
                )
            ]
        notes = [Msg(id=N_("Damage 1d6 (medium creature)."))] if record.unarmed else []
        if record.ranged:
            notes.append(Msg(id=N_("{target} may dodge (a ranged attack cannot be parried)."), params=named))
        else:
            notes.append(Msg(id=N_("{target} may parry or dodge."), params=named))
        return notes

    # -- the defence pipeline --------------------------------------------------------------------------
    def defend(self, state: State, raw: dict[str, Any], how: Defending) -> State:
        args = convert_args(raw, CombatArgs, how)
        combatant = self.acting(state, args.combatant)
        if self.step_kind(state) != "resolve":
            raise RuleError(_("Defences are made during the countdown."))
        info = self.round_of(state)
        record = self.find_attack(
            info, combatant, args.attack, ("glima",) if how == "glima_defence" else ("attack", "grapple")
        )
        if how == "glima_defence":
            if record.kind != "glima":
                raise RuleError(_("Attack #{id} is not a Glima.", id=record.id))
        else:
            if not (record.kind == "grapple" and self.holders(state).get(combatant.id) == record.attacker):
                self.not_grappled(state, combatant)  # a grapple can be parried or dodged: it holds only if not
            if record.kind == "glima":
                raise RuleError(
                    _("A Glima is stopped with a Glima defence, not a parry.")
                    if how == "parry"
                    else _("A Glima is stopped with a Glima defence, not a dodge.")
                )
        self.check_defence(state, record, combatant, how)
        if how == "parry" and record.ranged:
            raise RuleError(_("A ranged attack cannot be parried; {name} may dodge.", name=combatant.name))
        purchase, item, state, info = self.buy_defence(state, info, combatant, how, args)
        info, outcome = self.resolve(state, info, combatant, purchase, args, held_turn=False)
        attacks = list(info.attacks)
        attacks[record.id - 1] = replace(
            record, defended=how, saved=outcome.success, parried_with=item if how == "parry" and outcome.success else ""
        )
        state = self.with_round(state, replace(info, attacks=tuple(attacks)))
        state = self.after_defence(state, record, combatant, how, outcome.success)
        sheet = self.sheet_of(combatant)
        name, what = who(state, combatant), describe_item(item, sheet, self.data)
        result = Msg(id=RESULT_WORDS[how][outcome.result])
        return log(
            state,
            DEFENCE_TEXT[how],
            rolls=(args.roll,),
            facts={
                **outcome.facts,
                "attack": record.id,
                "defence": how,
                "saved": outcome.success,
                "defender": combatant.id,
            },
            public=Msg(id=DEFENCE_OUTCOMES[how], params={"name": name, "what": what, "result": result}),
            id=record.id,
            name=name,
            what=what,
            sv=outcome.sv_text,
            roll=roll_param(args.roll),
            result=result,
            notes=notes_param(self.defence_notes(record, how, item, sheet, outcome.success)),
        )

    def buy_defence(
        self, state: State, info: RoundInfo, combatant: Combatant, how: Defending, args: CombatArgs
    ) -> tuple[Purchase, str, State, RoundInfo]:
        """What the defence buys and the item it is made with; a parry with an item whose IM was not
        counted adds it to his declaration first (so the state may change)."""
        sheet = self.sheet_of(combatant)
        if how == "glima_defence":
            trait = max(sheet.str_mod, sheet.agi_mod)
            mods = [(N_("Strength") if trait == sheet.str_mod else N_("Agility"), trait)] if trait else []
            purchase = self.buy_wrestling(
                combatant,
                sheet,
                args,
                rate=self.data.rules.glima_defence_cp_per_sv,
                what=Msg(id=N_("a Glima defence")),
                once="glima_defence",
                mods=mods,
                capped=True,
                unarmed_attack=False,
            )
            return purchase, UNARMED, state, info
        cp = args.cp or 0
        if how == "dodge":
            if cp < 1:
                raise RuleError(_("Put at least 1 CP into the dodge."))
            return Purchase(pays=DODGE, cp=cp, sv=cp, base=cp_text(cp)), DODGE, state, info
        self.check_hand(args.hand, WEAPON_HANDS, how)
        if cp < 1:
            raise RuleError(_("Put at least 1 CP into the parry."))
        used = self.used(state, combatant.id)
        item = self.item_for(combatant, sheet, used, args.weapon, attack=False)
        declared = item == UNARMED or (SHIELD in used.items() if item == SHIELD else norm(item) in used.items())
        if not declared:
            if self.called(state, combatant.id, info):
                raise RuleError(
                    _(
                        "{name} did not count the IM of {what} on his turn, so he cannot parry with it now.",
                        name=combatant.name,
                        what=describe_item(item, sheet, self.data),
                    )
                )
            state, info = self.add_to_declaration(state, combatant, item, used)
            used = self.used(state, combatant.id)
        purchase = Purchase(
            pays=item,
            cp=cp,
            sv=cp,
            base=cp_text(cp),
            parry=True,
            weapon_action=None if item == UNARMED else item,
            mods=tuple(self.offhand(sheet, item, used, args.hand)),
        )
        return purchase, item, state, info

    def after_defence(
        self, state: State, record: AttackRecord, defender: Combatant, how: Defending, saved: bool
    ) -> State:
        """A grapple parried or dodged does not hold; a stopped throw leaves the defender held."""
        if not saved:
            return state
        grappled = self.holders(state)
        if how == "glima_defence":
            return self.with_holders(state, {**grappled, defender.id: record.attacker})
        if record.kind == "grapple" and grappled.get(record.target) == record.attacker:
            return self.with_holders(state, {k: v for k, v in grappled.items() if k != record.target})
        return state

    def defence_notes(
        self, record: AttackRecord, how: Defending, item: str, sheet: TrudvangSheet, saved: bool
    ) -> list[Msg]:
        if not saved:
            return []
        if how == "glima_defence":
            return [Msg(id=N_("No fall, no damage; he is still held."))]
        if how == "parry" and item == UNARMED and not record.unarmed:
            return [Msg(id=N_("An unarmed parry of an armed attack: he still takes half damage."))]
        if how == "parry" and item != UNARMED:
            return [
                Msg(
                    id=N_("The damage goes onto {what}: what is above its PV wears its BV."),
                    params={"what": describe_item(item, sheet, self.data)},
                )
            ]
        return []

    def find_attack(
        self, info: RoundInfo, defender: Combatant, attack_id: int | None, kinds: tuple[AttackKind, ...]
    ) -> AttackRecord:
        if attack_id is not None:
            if not 1 <= attack_id <= len(info.attacks):
                raise RuleError(_("There is no attack #{id} this round.", id=attack_id))
            record = info.attacks[attack_id - 1]
            if record.target != defender.id:
                raise RuleError(_("Attack #{id} was not against {name}.", id=attack_id, name=defender.name))
            return record
        for record in reversed(info.attacks):
            if record.target == defender.id and record.kind in kinds and record.hit and not record.defended:
                return record
        raise RuleError(_("No hit on {name} to defend against.", name=defender.name))

    def check_defence(self, state: State, record: AttackRecord, defender: Combatant, how: Defending) -> None:
        if not record.hit:
            raise RuleError(
                _(
                    "{attacker}'s attack #{id} missed: there is nothing to {how}.",
                    attacker=self.name_of(state, record.attacker),
                    id=record.id,
                    how=_(DEFENCE_VERBS[how]),
                )
            )
        if record.defended:
            raise RuleError(
                _(
                    "{name} has already tried to defend against attack #{id} ({defence}): one attempt per attack.",
                    name=defender.name,
                    id=record.id,
                    defence=_(DEFENCE_NAMES[record.defended]),
                )
            )
        if record.damaged:
            raise RuleError(
                _(
                    "The damage of attack #{id} has been dealt: it is too late to {how}.",
                    id=record.id,
                    how=_(DEFENCE_VERBS[how]),
                )
            )

    # -- break free ------------------------------------------------------------------------------------
    def break_free(self, state: State, raw: dict[str, Any]) -> State:
        args = convert_args(raw, CombatArgs, "break_free")
        combatant = self.acting(state, args.combatant)
        info = self.round_of(state)
        if self.step_kind(state) != "resolve":
            raise RuleError(_("The countdown has not started: roll initiative first."))
        grappler = self.holders(state).get(combatant.id)
        if grappler is None:
            raise RuleError(_("{name} is not held by anyone.", name=combatant.name))
        own_turn = combatant.id in state.acting_now()
        if not own_turn and not self.called(state, combatant.id, info):
            index = self.slot_index(state, combatant.id)
            call = str(state.order[index].label) if index is not None else "?"
            raise RuleError(
                _(
                    "{name} can try to break free at his call ({call}), or as a reaction once it has passed.",
                    name=combatant.name,
                    call=call,
                )
            )
        sheet = self.sheet_of(combatant)
        mods = [
            (label, value)
            for label, value in ((N_("Strength"), sheet.str_mod), (N_("Agility"), sheet.agi_mod))
            if value
        ]
        purchase = self.buy_wrestling(
            combatant,
            sheet,
            args,
            rate=self.data.rules.break_free_cp_per_sv,
            what=Msg(id=N_("to break free")),
            once="break_free",
            mods=mods,
            capped=False,
            unarmed_attack=False,
        )
        info, outcome = self.resolve(state, info, combatant, purchase, args, held_turn=own_turn)
        if own_turn:
            info = self.with_turn(info, combatant.id, replace(info.turns.get(combatant.id, Turn()), acted=True))
        state = self.with_round(state, info)
        if outcome.success:
            state = self.with_holders(state, {k: v for k, v in self.holders(state).items() if k != combatant.id})
        name, holder = who(state, combatant), self.named(state, grappler)
        result = Msg(id=RESULT_WORDS["break_free"][outcome.result])
        return log(
            state,
            N_("{name} tries to break free of {holder}: {sv}; {roll} → {result}."),
            rolls=(args.roll,),
            facts={**outcome.facts, "free": outcome.success},
            public=Msg(
                id=N_("{name} tries to break free of {holder}: {result}."),
                params={"name": name, "holder": holder, "result": result},
            ),
            name=name,
            holder=holder,
            sv=outcome.sv_text,
            roll=roll_param(args.roll),
            result=result,
        )

    # -- what every combat action shares: buy, pay, roll ------------------------------------------------
    def buy_wrestling(
        self,
        combatant: Combatant,
        sheet: TrudvangSheet,
        args: CombatArgs,
        *,
        rate: int,
        what: Msg,
        once: OnceARound,
        mods: list[tuple[str, int]],
        capped: bool,
        unarmed_attack: bool,
    ) -> Purchase:
        """SV bought at ``rate`` CP each (``sv``, or ``cp`` a whole multiple of the rate), capped by the
        Wrestling SV when ``capped``; once a round; paid from the wrestling CP first."""
        if args.sv is None and args.cp is None:
            raise RuleError(
                _("Say what SV {name} buys for {what} ({rate} CP per SV).", name=combatant.name, what=what, rate=rate)
            )
        if args.sv is not None:
            bought = args.sv
        else:
            cp = args.cp or 0
            if cp % rate:
                raise RuleError(
                    _(
                        "{what} costs {rate} CP per SV: {cp} CP is not a whole number of SV.",
                        what=str(what).capitalize(),
                        rate=rate,
                        cp=cp,
                    )
                )
            bought = cp // rate
        if bought < 1:
            raise RuleError(_("Buy at least SV 1 for {what}.", what=what))
        if capped:
            if sheet.wrestling <= 0:
                raise RuleError(_("{name} has no Wrestling SV: he cannot try {what}.", name=combatant.name, what=what))
            if bought > sheet.wrestling:
                raise RuleError(
                    _(
                        "{name} cannot buy SV {sv} for {what}: his Wrestling SV is {cap}.",
                        name=combatant.name,
                        sv=bought,
                        what=what,
                        cap=sheet.wrestling,
                    )
                )
        base = plural_msg("SV {sv} ({n} CP)", "SV {sv} ({n} CP)", bought * rate, sv=bought)
        return Purchase(
            pays=WRESTLING,
            cp=bought * rate,
            sv=bought,
            base=base,
            bought=True,
            once=once,
            once_label=what,
            unarmed_attack=unarmed_attack,
            mods=tuple(mods),
        )

    def resolve(
        self,
        state: State,
        info: RoundInfo,
        combatant: Combatant,
        purchase: Purchase,
        args: CombatArgs,
        *,
        held_turn: bool,
    ) -> tuple[RoundInfo, Outcome]:
        """Pay for ``purchase``, work out the SV and read the d20 against it."""
        total = args.roll.total
        if not 1 <= total <= 20:
            raise RuleError(_("That roll is 1d20 (1 to 20), not {total}.", total=total))
        if purchase.once is not None:
            turn = info.turns.get(combatant.id, Turn())
            if turn.used.get(purchase.once, 0) >= 1:
                raise RuleError(
                    _("{name} has already tried {what} this round.", name=combatant.name, what=purchase.once_label)
                )
            info = self.with_turn(
                info,
                combatant.id,
                replace(turn, used={**turn.used, purchase.once: turn.used.get(purchase.once, 0) + 1}),
            )
        budget = self.budget_of(state, info, combatant.id)
        if purchase.unarmed_attack:
            budget = use_unarmed_attack(budget, who=combatant.name)
        budget = pay(
            budget,
            self.sheet_of(combatant),
            self.data,
            who=combatant.name,
            item=purchase.pays,
            cp=purchase.cp,
            parry=purchase.parry,
            weapon_action=purchase.weapon_action,
        )
        info = self.with_budget(info, combatant.id, budget)
        mods = [*purchase.mods, *self.common_mods(state, info, combatant.id, held=held_turn, extra=args.modifier)]
        sv = purchase.sv + sum(value for _label, value in mods)
        result: Result = (
            "critical" if total == 1 else "fumble" if total == 20 else "success" if total <= sv else "failure"
        )
        facts: dict[str, Fact] = {
            "cp": purchase.cp,
            "sv": sv,
            "needed": sv,
            "roll": total,
            "result": result,
            "success": result in SUCCESS,
        }
        if purchase.bought:
            facts["sv_bought"] = purchase.sv
        return info, Outcome(sv=sv, sv_text=sv_param(purchase.base, mods, sv), result=result, facts=facts)

    def common_mods(self, state: State, info: RoundInfo, cid: str, *, held: bool, extra: int) -> list[tuple[str, int]]:
        """Surprise (round 1), a held turn (his own actions on it, not his parries while waiting), his
        damage level, the GM's situational modifier."""
        turn = info.turns.get(cid, Turn())
        mods: list[tuple[str, int]] = []
        if self.surprised_now(state, cid):
            mods.append((N_("surprised"), self.data.rules.surprise_penalty))
        if held and turn.acted_held:
            mods.append((N_("held"), self.data.rules.held_penalty))
        wounds = self.action_penalty(state, cid)
        if wounds:
            mods.append((N_("damage"), wounds))
        if extra:
            mods.append((N_("modifier"), extra))
        return mods

    def offhand(self, sheet: TrudvangSheet, item: str, used: Used, hand: str) -> list[tuple[str, int]]:
        rules = self.data.rules
        off = hand == "off" or (
            hand == "" and (item == SHIELD or (used.offhand is not None and norm(used.offhand.name) == norm(item)))
        )
        if not off or item == UNARMED:
            return []
        if item == SHIELD and sheet.shield_bearer >= rules.shield_bearer_removes_offhand > 0:
            return []
        penalty = (
            rules.offhand_penalty
            + sheet.body_control * rules.offhand_body_control_per_level
            + sheet.ambidexter * rules.offhand_ambidexter_per_level
        )
        penalty = min(penalty, 0)
        return [(N_("off hand"), penalty)] if penalty else []

    def grip(self, sheet: TrudvangSheet, hand: str) -> list[tuple[str, int]]:
        rules = self.data.rules
        if hand == "weapon":
            return [(N_("weapon hand only"), rules.grapple_weapon_hand)]
        if hand == "shield":
            penalty = min(rules.grapple_shield_hand + sheet.ambidexter * rules.grapple_ambidexter_per_level, 0)
            return [(N_("shield hand only"), penalty)] if penalty else []
        return []

    @staticmethod
    def check_hand(hand: str, allowed: tuple[str, ...], action: str) -> None:
        if hand not in allowed:
            raise RuleError(
                _(
                    '{action}: "{hand}" is not a hand; use one of {known}.',
                    action=action,
                    hand=hand,
                    known=", ".join(h for h in allowed if h),
                )
            )

    def item_for(self, combatant: Combatant, sheet: TrudvangSheet, used: Used, wanted: str, *, attack: bool) -> str:
        """The item an attack or parry uses: a weapon name, "shield" or "unarmed"; an attack with an item
        he did not declare is refused."""
        text = wanted.strip()
        if not text:
            return used.weapon.name if used.weapon is not None else UNARMED
        if norm(text) == UNARMED:
            return UNARMED
        if norm(text) == SHIELD or (sheet.shield and find_entry(self.data.shields, text) == sheet.shield):
            if not sheet.shield:
                raise RuleError(_("{name} has no shield.", name=combatant.name))
            if attack and not used.shield:
                raise RuleError(
                    _("{name} did not declare his shield this round: change the action first.", name=combatant.name)
                )
            return SHIELD
        weapon = find_weapon(sheet, text, self.data)
        if weapon is None:
            known = ", ".join(w.name for w in sheet.weapons) or _("none")
            raise RuleError(
                _(
                    '{name} has no "{weapon}" on his sheet (his weapons: {known}).',
                    name=combatant.name,
                    weapon=text,
                    known=known,
                )
            )
        if attack and norm(weapon.name) not in used.items():
            declared = ", ".join(w.name.lower() for w in (used.weapon, used.offhand) if w is not None) or _("no weapon")
            raise RuleError(
                _(
                    "{name} declared {declared} this round: change the action first to use the {weapon}.",
                    name=combatant.name,
                    declared=declared,
                    weapon=weapon.name.lower(),
                )
            )
        return weapon.name
