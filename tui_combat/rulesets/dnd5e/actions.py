"""The DM's keys: the attack helper, spending the turn's budget, movement, conditions, counters and ties."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msgspec.structs import replace

from tui_combat.engine import actions
from tui_combat.engine.apply import apply
from tui_combat.engine.audience import behind, gm_only, typed, who
from tui_combat.engine.contract import ActionSpec, DamageDue, FieldSpec, new_attack
from tui_combat.engine.dice import Roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, Param, log, render_param, roll_param
from tui_combat.engine.model import Combatant, State
from tui_combat.i18n import N_, _, data_words
from tui_combat.rulesets.dnd5e.attack_dice import critical_dice, critical_roll, doubled_dice, hit_chance, same_dice
from tui_combat.rulesets.dnd5e.base import int_arg, roll_arg
from tui_combat.rulesets.dnd5e.data import data
from tui_combat.rulesets.dnd5e.edge import EDGE_CHOICES, UNCONSCIOUS, Dnd5eEdge, EdgeSources, dice_for
from tui_combat.rulesets.dnd5e.sheet import Attack, Counter, parse_attacks, sheet_of
from tui_combat.rulesets.dnd5e.state import ActiveCondition, Ending
from tui_combat.rulesets.dnd5e.targets import target_choices

__all__ = ["ATTACKS", "CATALOGUE", "Dnd5eActions"]

ATTACKS = {"attack": "none", "attack_advantage": "advantage", "attack_disadvantage": "disadvantage"}
"""Attack action name → the DM's call it starts with (the form may change it)."""
OVERRULE = "overrule"
"""A form's tick box: the speed factor's declaration is set aside, and the log says the book was ignored."""
CATALOGUE: tuple[ActionSpec, ...] = (
    ActionSpec(name="attack", key="a", label=N_("Attack"), in_turn=True),
    ActionSpec(name="attack_advantage", key="A", label=N_("Attack with advantage"), footer=False, in_turn=True),
    ActionSpec(name="attack_disadvantage", key="D", label=N_("Attack with disadvantage"), footer=False, in_turn=True),
    # What applies only now and then comes before what applies every turn: a footer too full for all of them
    # leaves out its last keys.
    ActionSpec(name="death_save", key="v", label=N_("Death save")),
    ActionSpec(name="tie", key="f", label=N_("Decide a tie"), needs_combatant=False),
    ActionSpec(name="use", key="s", label=N_("Use")),
    ActionSpec(name="move", key="m", label=N_("Move")),
    ActionSpec(name="condition", key="c", label=N_("Condition")),
    ActionSpec(name="end_condition", key="C", label=N_("End a condition"), footer=False),
    ActionSpec(name="counter", key="g", label=N_("Add a counter"), footer=False),
)
USES = (
    ("action", N_("the action")),
    ("bonus", N_("the bonus action")),
    ("reaction", N_("the reaction")),
    ("none", N_("nothing more (part of an action already taken)")),
)
ENDINGS = (
    ("removed", N_("until removed")),
    ("end", N_("until the end of that creature's next turn")),
    ("start", N_("until the start of that creature's next turn")),
    ("rounds", N_("for a number of rounds")),
)
ENDING_KINDS: dict[str, Ending] = {"removed": "removed", "end": "end", "start": "start", "rounds": "rounds"}
PLACES = (
    N_("Acts 1st"),
    N_("Acts 2nd"),
    N_("Acts 3rd"),
    N_("Acts 4th"),
    N_("Acts 5th"),
    N_("Acts 6th"),
    N_("Acts 7th"),
    N_("Acts 8th"),
    N_("Acts 9th"),
)
EXHAUSTION = "exhaustion"
"""The condition that comes in levels (1–6)."""
TAKEN = (
    ("attack", N_("an attack")),
    ("other", N_("a Dash")),
    ("action", N_("another action")),
    ("bonus", N_("a bonus action")),
)


class Dnd5eActions(Dnd5eEdge):
    actions = CATALOGUE

    # -- which keys apply now ------------------------------------------------------------------------
    def action_available(self, state: State, name: str, combatant_id: str | None) -> bool:
        if state.phase != "round":
            return False
        if name == "tie":
            return bool(self.undecided_ties(state))
        if combatant_id is None or combatant_id not in state.names():
            return False
        kind = self.step_kind(state)
        # Down (dead, or dying at 0 hit points), he has no action, reaction or movement: his keys are the death
        # save and what the DM keeps for him (conditions, counters). (One incapacitated by a condition is let
        # through, so that the refusal names the condition.)
        unable = state.combatant(combatant_id).status == "down"
        if name == "move":
            return combatant_id in self.acting(state) and not unable
        if name in ATTACKS:
            return kind == "resolve" and not unable
        if name == "death_save":  # a stable one is let through so that the refusal names the reason
            record = self.dying_of(state, combatant_id)
            return record is not None and not record.dead
        if name == "end_condition":
            return bool(self.conditions_of(state, combatant_id))
        if name == "use":  # a reaction, a legendary action: at any moment
            return not unable
        return name in ("condition", "counter")

    # -- forms ---------------------------------------------------------------------------------------
    def action_fields(self, state: State, name: str, combatant_id: str) -> tuple[FieldSpec, ...]:
        if name in ATTACKS:
            return self.attack_fields(state, combatant_id, ATTACKS[name])
        if name == "use":
            return self.use_fields(state, combatant_id)
        if name == "move":
            left, _total = self.movement(state, state.combatant(combatant_id))
            return (FieldSpec(key="feet", label=_("Feet (of {left} left)", left=left), kind="int", default=5),)
        if name == "condition":
            return self.condition_fields(state, combatant_id)
        if name == "end_condition":
            return (
                FieldSpec(
                    key="condition",
                    label=N_("Condition"),
                    kind="choice",
                    choices=tuple(
                        (str(c.id), _(c.name) + str(self.duration_text(state, c)))
                        for c in self.conditions_of(state, combatant_id)
                    ),
                ),
            )
        if name == "counter":
            return (
                FieldSpec(key="name", label=N_("Counter"), help=_("legendary actions")),
                FieldSpec(key="total", label=N_("How many"), kind="int", default=1),
                FieldSpec(
                    key="refresh",
                    label=N_("Refreshed"),
                    kind="choice",
                    default="turn",
                    choices=(("turn", N_("at the start of each of its turns")), ("fight", N_("never: for the fight"))),
                ),
            )
        if name == "tie":
            return self.tie_fields(state)
        if name == "death_save":
            return self.death_save_fields()
        return ()

    def attack_fields(self, state: State, combatant_id: str, call: str) -> tuple[FieldSpec, ...]:
        attacker = state.combatant(combatant_id)
        sheet = sheet_of(attacker)
        weapons = parse_attacks(sheet.attack_list)
        targets = target_choices(self, state, attacker, call, self.weapon_of(attacker, {}).bonus)
        first = targets[0][0] if targets else ""
        uses = "action" if combatant_id in self.acting(state) else "reaction"
        close = self.remembered_close(state, attacker.id, first) if first else True
        edge = self.edge_sources(state, attacker, state.combatant(first), call, close).edge if first else 0
        fields = [FieldSpec(key="target", label=N_("Target"), kind="choice", default=first, choices=targets)]
        if weapons:
            fields.append(
                FieldSpec(
                    key="weapon",
                    label=N_("Attack"),
                    kind="choice",
                    default="0",
                    choices=tuple(
                        (str(i), f"{data_words(w.name)} {w.bonus:+d}, {w.damage}") for i, w in enumerate(weapons)
                    ),
                )
            )
        fields += [
            FieldSpec(key="uses", label=N_("Uses"), kind="choice", default=uses, choices=USES),
            FieldSpec(
                key="edge", label=N_("Advantage (the DM's call)"), kind="choice", default=call, choices=EDGE_CHOICES
            ),
            FieldSpec(key="close", label=N_("Within 5 ft of the target"), kind="bool", default=close),
        ]
        if self.round_of(state).shape == "declare":
            fields.append(self.overrule_field())
        bonuses = {w.bonus for w in weapons} or {sheet.attack}
        label = _("To hit {bonus:+d}", bonus=bonuses.pop()) if len(bonuses) == 1 else _("To hit")
        fields.append(FieldSpec(key="to_hit", label=label, kind="roll", default=dice_for(edge)))
        return tuple(fields)

    @staticmethod
    def weapon_of(attacker: Combatant, values: Mapping[str, Any]) -> Attack:
        """The attack chosen in the form (the sheet's list), or the sheet's attack bonus and damage."""
        sheet = sheet_of(attacker)
        weapons = parse_attacks(sheet.attack_list)
        if not weapons:
            return Attack(name="", bonus=sheet.attack, damage=sheet.damage)
        chosen = str(values.get("weapon", "0") or "0")
        if not chosen.isdigit() or int(chosen) >= len(weapons):
            raise RuleError(_("Choose one of {name}'s attacks.", name=attacker.name))
        return weapons[int(chosen)]

    @staticmethod
    def overrule_field() -> FieldSpec:
        return FieldSpec(key=OVERRULE, label=N_("Not what was declared: ignore the book"), kind="bool", default=False)

    def attack_edge(
        self, state: State, attacker: Combatant, values: Mapping[str, Any], name: str
    ) -> tuple[Combatant, bool, EdgeSources]:
        """The target, whether the attacker is within 5 ft, and the sources of advantage, from the form."""
        try:
            target = state.combatant(str(values.get("target", "")))
        except KeyError:
            raise RuleError(_("Choose a target.")) from None
        call = str(values.get("edge") or ATTACKS.get(name, "none"))
        if call not in dict(EDGE_CHOICES):
            raise RuleError(_("Choose none, advantage or disadvantage."))
        close = values.get("close", True)
        close = close if isinstance(close, bool) else str(close).strip().lower() not in ("", "0", "false", "no")
        return target, close, self.edge_sources(state, attacker, target, call, close)

    def form_dice(self, state: State, name: str, combatant_id: str, values: Mapping[str, Any]) -> Mapping[str, str]:
        if name not in ATTACKS or not combatant_id:
            return {}
        _target, _close, sources = self.attack_edge(state, state.combatant(combatant_id), values, name)
        return {"to_hit": dice_for(sources.edge)}

    def form_preview(self, state: State, name: str, combatant_id: str, values: Mapping[str, Any]) -> str:
        if name not in ATTACKS or not combatant_id:
            return ""
        attacker = state.combatant(combatant_id)
        target, close, sources = self.attack_edge(state, attacker, values, name)
        bonus, armour = self.weapon_of(attacker, values).bonus, sheet_of(target).ac
        rules = data().attack
        least = min(max(armour - bonus, rules.automatic_miss + 1), rules.critical)
        chance = round(100 * hit_chance(bonus, armour, sources.edge))
        line = _(
            "Needs {least} or more on the d20 (AC {ac}, {bonus:+d} to hit){edge}: {chance}% to hit.",
            least=least,
            ac=armour,
            bonus=bonus,
            edge=render_param(self.edge_text(sources)),
            chance=chance,
        )
        critical = self.automatic_critical(state, target, close)
        if critical:
            line += " " + _(
                "A hit is a critical hit ({name}: {condition}, within 5 ft).", name=target.name, condition=_(critical)
            )
        return line

    @staticmethod
    def edge_text(sources: EdgeSources) -> Param:
        """ " with advantage (Goblin 1: prone)", " with disadvantage (…)", or the two cancelling."""
        reasons: list[str | int | Msg] = list(sources.reasons())
        if not reasons:
            return ""
        if sources.edge > 0:
            return Msg(id=N_(" with advantage ({reasons})"), params={"reasons": reasons})
        if sources.edge < 0:
            return Msg(id=N_(" with disadvantage ({reasons})"), params={"reasons": reasons})
        return Msg(id=N_(", advantage and disadvantage cancelling ({reasons})"), params={"reasons": reasons})

    def damage_due(self, before: State, after: State, name: str, args: Mapping[str, Any]) -> DamageDue | None:
        facts = new_attack(before, after, args.get("combatant"))
        if name not in ATTACKS or facts is None or not facts.get("hit") or "damage" in args:
            return None
        dice = self.weapon_of(after.combatant(str(facts["attacker"])), args).damage
        if facts.get("critical"):
            return DamageDue(
                target=str(facts["target"]),
                dice=doubled_dice(dice),
                critical=True,
                what=Msg(id=N_("critical hit: the damage dice twice")),
            )
        return DamageDue(target=str(facts["target"]), dice=dice)

    def use_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        choices: list[tuple[str, str]] = [
            ("action", N_("the action")),
            ("bonus", N_("the bonus action")),
            ("reaction", N_("the reaction")),
            ("dash", N_("Dash (the action: speed added)")),
        ]
        choices += [(f"counter:{c.name}", c.name) for c in self.counters_of(state, combatant_id)]
        default = "action" if combatant_id in self.acting(state) else "reaction"
        return (
            FieldSpec(key="what", label=N_("Uses"), kind="choice", default=default, choices=tuple(choices)),
            FieldSpec(key="amount", label=N_("How many (of a counter)"), kind="int", default=1),
            FieldSpec(key="note", label=N_("What for"), help=_("Dodge, Shield, a legendary action …")),
            *((self.overrule_field(),) if self.round_of(state).shape == "declare" else ()),
        )

    def condition_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        names = tuple((name, name) for name in data().conditions)
        acting = self.acting(state)
        anchor = acting[0] if acting else combatant_id
        return (
            FieldSpec(key="condition", label=N_("Condition"), kind="choice", default=names[0][0], choices=names),
            FieldSpec(key="ends", label=N_("Lasts"), kind="choice", default="removed", choices=ENDINGS),
            FieldSpec(
                key="anchor",
                label=N_("Whose turn"),
                kind="choice",
                default=anchor,
                choices=self.combatant_choices(state, anchor),
            ),
            FieldSpec(key="rounds", label=N_("Rounds"), kind="int", default=1),
        )

    def tie_fields(self, state: State) -> tuple[FieldSpec, ...]:
        ties = self.undecided_ties(state)
        if not ties:
            return ()
        live = self.live_entries(state)
        keys = ties[0]
        fight = self.fight_of(state)
        known = next((k for k in reversed(fight.decided) if set(k) & set(keys)), ())
        suggested = [k for k in known if k in keys] + [k for k in keys if k not in known]
        choices = tuple((key, str(live[key].label)) for key in keys)
        chooser = _("the players choose") if all(live[key].party for key in keys) else _("the DM chooses")
        return tuple(
            FieldSpec(
                key=f"place{i + 1}",
                label=f"{_(PLACES[min(i, len(PLACES) - 1)])} ({chooser})",
                kind="choice",
                default=suggested[i],
                choices=choices,
            )
            for i in range(len(keys) - 1)
        )

    # -- applying ------------------------------------------------------------------------------------
    def apply_action(self, state: State, name: str, args: dict[str, Any]) -> State:
        if name == "tie":
            return self.apply_tie(state, args)
        combatant = (
            self.actor(state, str(args.get("combatant", "")))
            if name not in ("condition", "end_condition", "death_save")
            else self.someone(state, str(args.get("combatant", "")))
        )
        if name == "death_save":
            return self.death_save(state, combatant, args)
        if name in ATTACKS:
            return self.attack(state, combatant, args, name)
        if name == "use":
            return self.use(state, combatant, args)
        if name == "move":
            return self.move(state, combatant, int_arg(args, "feet", 0, N_("Feet")))
        if name == "condition":
            return self.add_condition(state, combatant, args)
        if name == "end_condition":
            return self.remove_condition(state, combatant, str(args.get("condition", "")))
        if name == "counter":
            return self.add_counter(state, combatant, args)
        raise RuleError(_("Unknown action {name}.", name=name))

    @staticmethod
    def someone(state: State, combatant_id: str) -> Combatant:
        try:
            return state.combatant(combatant_id)
        except KeyError:
            raise RuleError(_("Select a combatant first.")) from None

    def apply_tie(self, state: State, args: dict[str, Any]) -> State:
        ties = self.undecided_ties(state)
        if not ties:
            raise RuleError(_("There is no tie to decide."))
        keys = ties[0]
        chosen = [str(args.get(f"place{i + 1}", "")) for i in range(len(keys) - 1)]
        chosen += [key for key in keys if key not in chosen][:1]
        return self.decide_tie(state, chosen)

    def attack(self, state: State, attacker: Combatant, args: dict[str, Any], name: str) -> State:
        target, close, sources = self.attack_edge(state, attacker, args, name)
        if target.status != "active" and not self.unconscious_at_zero(state, target.id):
            raise RuleError(_("{name} is out of the fight.", name=target.name))
        uses = str(args.get("uses") or ("action" if attacker.id in self.acting(state) else "reaction"))
        to_hit = roll_arg(args, "to_hit", N_("To hit"))
        wanted = dice_for(sources.edge)
        if not same_dice(to_hit.expr, wanted):
            raise RuleError(
                _(
                    "This attack is rolled with {dice}, not {rolled}: {why}.",
                    dice=wanted,
                    rolled=to_hit.expr,
                    why=render_param(self.edge_text(sources)).strip(" ,") or _("a plain roll"),
                )
            )
        state = self.pay_for_attack(state, attacker, uses, bool(args.get(OVERRULE, False)))
        rules = data().attack
        weapon = self.weapon_of(attacker, args)
        bonus = weapon.bonus
        armour = sheet_of(target).ac
        natural = to_hit.total
        hit = natural >= rules.critical or (natural > rules.automatic_miss and natural + bonus >= armour)
        automatic = self.automatic_critical(state, target, close) if hit else ""
        critical = natural >= rules.critical or bool(automatic)
        if critical and automatic and natural < rules.critical:
            result = Msg(
                id=N_("critical hit ({name}: {condition}, within 5 ft)"),
                params={"name": who(state, target), "condition": Msg(id=automatic)},
            )
        elif critical:
            result = Msg(id=N_("critical hit"))
        elif hit:
            result = Msg(id=N_("hit"))
        elif natural <= rules.automatic_miss:
            result = Msg(id=N_("miss (natural {natural})"), params={"natural": natural})
        else:
            result = Msg(id=N_("miss"))
        fight = self.fight_of(state)
        state = self.with_fight(state, replace(fight, close={**fight.close, f"{attacker.id}>{target.id}": close}))
        needed = min(max(armour - bonus, rules.automatic_miss + 1), rules.critical)
        facts: dict[str, Any] = {
            "needed": needed,
            "natural": natural,
            "total": natural + bonus,
            "hit": hit,
            "critical": critical,
            "attacker": attacker.id,
            "target": target.id,
            "edge": sources.edge,
            "close": close,
        }
        names: dict[str, Param] = {"attacker": who(state, attacker), "target": who(state, target)}
        params: dict[str, Any] = dict(
            **names,
            edge=self.edge_text(sources),
            roll=roll_param(to_hit),
            bonus=behind(f"{bonus:+d}"),
            total=natural + bonus,
            ac=behind(armour),
            result=result,
        )
        # The players read who hits whom ("X hits Y.", from the facts), and a critical hit as one.
        public = Msg(id=N_("{attacker} hits {target}: a critical hit."), params=names) if critical else None
        if weapon.name:
            state = log(
                state,
                N_(
                    "{attacker} attacks {target} with {weapon}{edge}: {roll}, {bonus} → {total} against AC "
                    "{ac}: {result}."
                ),
                rolls=(to_hit,),
                facts={**facts, "weapon": weapon.name},
                public=public,
                weapon=weapon.name,
                **params,
            )
        else:
            state = log(
                state,
                N_("{attacker} attacks {target}{edge}: {roll}, {bonus} → {total} against AC {ac}: {result}."),
                rolls=(to_hit,),
                facts=facts,
                public=public,
                **params,
            )
        if not hit or "damage" not in args:  # the damage is asked for next (sessions from before rolled it here)
            return state
        damage = roll_arg(args, "damage", N_("Damage"))
        dealt: Roll | None = damage
        amount = damage.total
        if critical and critical_dice(damage.expr):
            extra = roll_arg(args, "critical", N_("Critical dice"))
            amount += extra.total
            dealt = critical_roll(damage, extra)
            # Names no one: the GM's alone when it is about someone the players do not see.
            state = log(
                state,
                N_("Critical hit: the damage dice are rolled twice: {damage} and {extra}."),
                secret=attacker.hidden or target.hidden,
                rolls=(damage, extra),
                facts={"damage": amount},
                damage=roll_param(damage),
                extra=roll_param(extra),
            )
        return apply(state, actions.Damage(combatant=target.id, amount=max(amount, 0), roll=dealt, critical=critical))

    def pay_for_attack(self, state: State, attacker: Combatant, uses: str, overrule: bool = False) -> State:
        """An attack takes the Attack action (its further attacks come free), the bonus action, the
        reaction, or nothing more."""
        if uses == "none":
            return self.keep_part_to_declaration(state, attacker, overrule)
        if uses in ("action", "bonus"):
            state = self.keep_to_declaration(state, attacker, uses, "attack", overrule)
        if uses in ("bonus", "reaction"):
            return self.take(state, attacker, uses)
        if uses != "action":
            raise RuleError(_("Choose what the attack uses."))
        self.require_turn(state, attacker)
        self.require_able(state, attacker)
        spent = self.spent_of(state, attacker.id)
        if spent.attack_action and spent.attacks < sheet_of(attacker).attacks:
            return self.spend(state, attacker.id, replace(spent, attacks=spent.attacks + 1))
        if self.left(state, attacker.id)["action"][0] <= 0:
            raise RuleError(_("{name} has no action left.", name=attacker.name))
        return self.spend(state, attacker.id, replace(spent, action=spent.action + 1, attack_action=True, attacks=1))

    def keep_to_declaration(self, state: State, combatant: Combatant, slot: str, kind: str, overrule: bool) -> State:
        """Speed factor: on his turn a creature takes the action (and bonus action) it declared, or none. ``kind``
        is what is taken now: ``attack``, ``other`` (Dash), or "" for any declared action but an attack (a spell,
        Dodge …). Anything else is refused with the reason, unless the DM ignores the book (and the log says so)."""
        if self.round_of(state).shape != "declare" or combatant.id not in self.acting(state):
            return state
        declaration = self.declaration_of(state, combatant.id)
        declared = "none" if declaration is None else declaration.action if slot == "action" else declaration.bonus
        if kind:
            allowed = declared == kind
        else:
            allowed = declared not in ("none", "attack") if slot == "action" else declared != "none"
        if allowed:
            return state
        if declaration is None:
            declared_text: Param = Msg(id=N_("nothing"))
        elif slot == "action":
            declared_text = self.action_text(declaration.action, declaration.weapon, declaration.spell_level)
        else:
            declared_text = (
                self.action_text(declaration.bonus, declaration.bonus_weapon, declaration.bonus_spell_level)
                if declaration.bonus != "none"
                else Msg(id=N_("no bonus action"))
            )
        taken = Msg(id=dict(TAKEN)[kind or slot])
        name = who(state, combatant)
        if not overrule:
            raise RuleError(
                _(
                    "{name} declared {declared}: on its turn it takes that or nothing (speed factor), not "
                    '{taken}. Tick "ignore the book" to allow it.',
                    name=combatant.name,
                    declared=render_param(declared_text),
                    taken=render_param(taken),
                )
            )
        # What a monster declared is the GM's (it was declared in secret).
        party = state.side(combatant.side).is_party
        return log(
            state,
            N_("{name} ignores the book: {taken} instead of what was declared ({declared})."),
            facts={"overruled": True},
            name=name,
            taken=taken,
            declared=declared_text if party else gm_only(declared_text),
            public=Msg(
                id=N_("{name} ignores the book: {taken} instead of what was declared."),
                params={"name": name, "taken": taken},
            ),
        )

    def keep_part_to_declaration(self, state: State, combatant: Combatant, overrule: bool) -> State:
        """Speed factor: an attack that is "part of an action already taken" is part of the attack or the spell the
        creature declared, and of an action (or bonus action) it has taken this turn: with nothing declared that
        attacks, or nothing taken yet, it would be an attack the declaration never allowed (the book: "it must take
        the chosen action or none at all"). Refused with the reason, unless the DM ignores the book."""
        if self.round_of(state).shape != "declare" or combatant.id not in self.acting(state):
            return state
        declaration = self.declaration_of(state, combatant.id)
        spent = self.spent_of(state, combatant.id)
        attacking = declaration is not None and ({declaration.action, declaration.bonus} & {"attack", "spell"})
        taken = spent.action > 0 or spent.bonus > 0
        if attacking and taken:
            return state
        name = who(state, combatant)
        if not overrule:
            if not attacking:
                declared = (
                    Msg(id=N_("nothing"))
                    if declaration is None
                    else self.action_text(declaration.action, declaration.weapon, declaration.spell_level)
                )
                raise RuleError(
                    _(
                        "{name} declared {declared}: an attack as part of an action is part of a declared "
                        'attack or spell (speed factor). Tick "ignore the book" to allow it.',
                        name=combatant.name,
                        declared=render_param(declared),
                    )
                )
            raise RuleError(
                _(
                    "{name} has taken no action yet this turn: choose the action or the bonus action the attack uses.",
                    name=combatant.name,
                )
            )
        taken_text = Msg(id=N_("an attack as part of an action"))
        return log(
            state,
            N_("{name} ignores the book: {taken} instead of what was declared."),
            facts={"overruled": True},
            name=name,
            taken=taken_text,
        )

    def use(self, state: State, combatant: Combatant, args: dict[str, Any]) -> State:
        what = str(args.get("what", ""))
        note = str(args.get("note", "") or "").strip()
        for_what: Param = Msg(id=N_(": {note}"), params={"note": typed(note)}) if note else ""
        if what in ("action", "bonus", "dash"):
            state = self.keep_to_declaration(
                state,
                combatant,
                "bonus" if what == "bonus" else "action",
                "other" if what == "dash" else "",
                bool(args.get(OVERRULE, False)),
            )
        if what in ("action", "bonus", "reaction"):
            state = self.take(state, combatant, what)
            return log(
                state,
                N_("{name} uses {what}{note}."),
                facts={"uses": what},
                name=who(state, combatant),
                what=Msg(id=dict(USES)[what]),
                note=for_what,
            )
        if what == "dash":
            state = self.take(state, combatant, "action")
            speed = 0 if self.cannot_move(state, combatant.id) else sheet_of(combatant).speed
            spent = self.spent_of(state, combatant.id)
            state = self.spend(state, combatant.id, replace(spent, dash=spent.dash + speed))
            return log(
                state,
                N_("{name} dashes: {feet} ft more movement."),
                facts={"uses": "dash", "feet": speed},
                name=who(state, combatant),
                feet=speed,
            )
        counter = next((c for c in self.counters_of(state, combatant.id) if f"counter:{c.name}" == what), None)
        if counter is None:
            raise RuleError(_("Choose what {name} uses.", name=combatant.name))
        amount = int_arg(args, "amount", 1, N_("How many (of a counter)"))
        left = self.counter_left(state, combatant.id, counter)
        if amount < 1 or amount > left:
            raise RuleError(
                _("{name} has {left} of {counter} left.", name=combatant.name, left=left, counter=counter.name)
            )
        state = self.spend_counter(state, combatant.id, counter, amount)
        return log(
            state,
            N_("{name} uses {amount} of {counter}{note}: {left} left."),
            facts={"uses": counter.name, "left": left - amount},
            name=who(state, combatant),
            amount=amount,
            counter=typed(counter.name),
            note=for_what,
            left=left - amount,
        )

    def spend_counter(self, state: State, combatant_id: str, counter: Counter, amount: int) -> State:
        if counter.per_turn:
            spent = self.spent_of(state, combatant_id)
            counts = {**spent.counters, counter.name: spent.counters.get(counter.name, 0) + amount}
            return self.spend(state, combatant_id, replace(spent, counters=counts))
        fight = self.fight_of(state)
        own = fight.used.get(combatant_id, {})
        used = {**fight.used, combatant_id: {**own, counter.name: own.get(counter.name, 0) + amount}}
        return self.with_fight(state, replace(fight, used=used))

    def move(self, state: State, combatant: Combatant, feet: int) -> State:
        self.require_turn(state, combatant)
        if self.spent_of(state, combatant.id).lost_turn:
            raise RuleError(_("{name} is surprised: this first turn is lost.", name=combatant.name))
        left, _total = self.movement(state, combatant)
        if feet < 1 or feet > left:
            raise RuleError(_("{name} has {left} ft of movement left.", name=combatant.name, left=left))
        spent = self.spent_of(state, combatant.id)
        state = self.spend(state, combatant.id, replace(spent, movement=spent.movement + feet))
        return log(
            state,
            N_("{name} moves {feet} ft ({left} ft left)."),
            facts={"moved": feet},
            name=who(state, combatant),
            feet=feet,
            left=left - feet,
        )

    def add_condition(self, state: State, target: Combatant, args: dict[str, Any]) -> State:
        name = str(args.get("condition", ""))
        if name not in data().conditions:
            raise RuleError(
                _('"{name}" is not a condition; known: {known}.', name=name, known=", ".join(data().conditions))
            )
        ends = ENDING_KINDS.get(str(args.get("ends", "removed")))
        if ends is None:
            raise RuleError(_("Choose how long the condition lasts."))
        anchor = str(args.get("anchor", "")) if ends != "removed" else ""
        if ends != "removed" and anchor not in state.names():
            raise RuleError(_("Choose whose turn ends the condition."))
        rounds = int_arg(args, "rounds", 1, N_("Rounds"))
        if ends == "rounds" and rounds < 1:
            raise RuleError(_("A condition lasts at least one round."))
        level = int_arg(args, "level", 0, N_("Level (exhaustion)")) if name == EXHAUSTION else 0
        if name == EXHAUSTION and not 1 <= level <= 6:
            raise RuleError(_("Exhaustion has a level from 1 to 6."))
        fight = self.fight_of(state)
        condition = ActiveCondition(
            id=fight.next_condition,
            target=target.id,
            name=name,
            ends=ends,
            anchor=anchor,
            until_round=state.round + rounds if ends == "rounds" else 0,
            held_by=str(args.get("held_by", "") or ""),
            level=level,
        )
        state = self.with_fight(
            state, replace(fight, conditions=(*fight.conditions, condition), next_condition=fight.next_condition + 1)
        )
        duration = self.duration_text(state, condition)
        # A duration that names someone the players do not see: they read the condition alone.
        state = log(
            state,
            N_("{name} is {condition}{duration}."),
            facts={"condition": name},
            name=who(state, target),
            condition=Msg(id=name),
            duration=duration,
            public=Msg(
                id=N_("{name} is {condition}{duration}."),
                params={"name": who(state, target), "condition": Msg(id=name), "duration": ""},
            ),
        )
        return self.fall_prone(state, target) if name == UNCONSCIOUS else state

    def remove_condition(self, state: State, target: Combatant, condition_id: str) -> State:
        condition = next((c for c in self.conditions_of(state, target.id) if str(c.id) == condition_id), None)
        if condition is None:
            raise RuleError(_("Choose one of {name}'s conditions.", name=target.name))
        return self.end_conditions(state, [condition])

    def add_counter(self, state: State, combatant: Combatant, args: dict[str, Any]) -> State:
        name = " ".join(str(args.get("name", "")).split())
        total = int_arg(args, "total", 1, N_("How many"))
        if not name or total < 0:
            raise RuleError(_("A counter needs a name and a number that is not negative."))
        if any(c.name == name for c in self.counters_of(state, combatant.id)):
            raise RuleError(_("{name} already has a counter {counter}.", name=combatant.name, counter=name))
        counter = Counter(name=name, total=total, per_turn=args.get("refresh", "turn") == "turn")
        fight = self.fight_of(state)
        counters = {**fight.counters, combatant.id: (*fight.counters.get(combatant.id, ()), counter)}
        state = self.with_fight(state, replace(fight, counters=counters))
        return log(
            state,
            N_("{name}: {counter} {total}, {refresh}."),
            facts={"counter": name},
            name=who(state, combatant),
            counter=typed(name),
            total=total,
            refresh=Msg(
                id=N_("refreshed at the start of each of its turns") if counter.per_turn else N_("for the whole fight")
            ),
        )
