"""The ruleset's actions (move, attack, cast, failed save, wait, morale) and the hooks that apply the
rules as damage and statuses are recorded: disruption and morale triggers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from msgspec.structs import replace

from tui_combat.engine import actions
from tui_combat.engine.apply import apply
from tui_combat.engine.audience import typed, who
from tui_combat.engine.contract import ActionSpec, DamageDue, FieldSpec, Health, new_attack
from tui_combat.engine.errors import RuleError
from tui_combat.engine.kept_lists import KeptLists, listed_the_same
from tui_combat.engine.log import Msg, Param, log, roll_param
from tui_combat.engine.model import Combatant, State
from tui_combat.engine.saves import SaveOdds
from tui_combat.i18n import N_, NC_, _, pgettext, words_in_use
from tui_combat.rulesets.hit_dice import read_hit_dice
from tui_combat.rulesets.ose.base import typed_after
from tui_combat.rulesets.ose.data import tables, weapon_name
from tui_combat.rulesets.ose.morale import OseMorale, chance_text, roll_arg, signed_int
from tui_combat.rulesets.ose.saves import save_kinds, save_odds_of
from tui_combat.rulesets.ose.state import Spent

RANGE_LABELS = {"short": NC_("range", "short"), "medium": NC_("range", "medium"), "long": NC_("range", "long")}


_KEPT_TARGETS: KeptLists[tuple[tuple[str, str], ...]] = KeptLists(listed_the_same)
"""The attack form's targets, by the attacker's side and whether he shoots (see :meth:`OseActions.attack_fields`)."""


class Reckoning(NamedTuple):
    """What one attack needs (see :meth:`OseActions.reckon`)."""

    target: Combatant
    missile: bool
    armour: int
    """The target's AC as this attack meets it."""
    bonus: int
    """Everything added to the d20."""
    fleeing: bool
    flee_bonus: int
    shield_off: bool
    """The target has a shield and it does not count."""


class OseActions(OseMorale):
    actions = (
        ActionSpec(name="move", key="g", label=N_("Move")),
        ActionSpec(name="attack", key="a", label=N_("Attack")),
        ActionSpec(name="cast", key="c", label=N_("Cast")),
        ActionSpec(name="failed_save", key="s", label=N_("Failed save"), footer=False),
        ActionSpec(name="wait", key="w", label=N_("Wait"), needs_combatant=False),
        ActionSpec(name="morale", key="m", label=N_("Morale")),
    )

    # -- what a combatant has used of his round --------------------------------------------------------
    def spent(self, state: State, combatant_id: str) -> Spent:
        return self.round_of(state).spent.get(combatant_id, Spent())

    def spend(self, state: State, combatant_id: str, *, moved: bool = False, acted: bool = False) -> State:
        current = self.round_of(state)
        before = current.spent.get(combatant_id, Spent())
        after = Spent(moved=before.moved or moved, acted=before.acted or acted)
        return self.with_round(state, replace(current, spent={**current.spent, combatant_id: after}))

    def disrupted(self, state: State, combatant_id: str) -> bool:
        return combatant_id in self.round_of(state).disrupted

    # -- the hooks -------------------------------------------------------------------------------------
    def on_round_start(self, state: State) -> State:
        state = super().on_round_start(state)
        if state.round > 1 and state.surprised:
            state = replace(state, surprised=())  # surprise costs the first round, nothing more
        return self.broken_reminder(state)

    def on_round_end(self, state: State) -> State:
        return self.due_reminder(state)

    def on_damage(self, state: State, combatant_id: str, amount: int, *, critical: bool = False) -> State:
        state = self.disrupt(state, combatant_id, N_("hit"))
        return self.lone_creature_hurt(state, combatant_id)

    # -- health: 0 hit points is dead ------------------------------------------------------------------
    def after_damage(self, state: State, combatant: Combatant, amount: int, *, critical: bool = False) -> Health:
        """Hit points stop at 0, and a creature at 0 is dead (Dolmenwood and OSE alike)."""
        hp = max(combatant.hp - amount, 0)
        return Health(hp=hp, status="down" if hp == 0 and combatant.status == "active" else combatant.status)

    def after_healing(self, state: State, combatant: Combatant, amount: int) -> Health:
        if self.dead(combatant):
            raise RuleError(_("{name} is dead: healing does not bring the dead back.", name=combatant.name))
        return super().after_healing(state, combatant, amount)

    @staticmethod
    def dead(combatant: Combatant) -> bool:
        return combatant.status == "down" and combatant.hp <= 0

    def condition_word(self, state: State, combatant_id: str) -> str | None:
        try:
            return N_("dead") if self.dead(state.combatant(combatant_id)) else None
        except KeyError:
            return None

    # -- disruption ------------------------------------------------------------------------------------
    def magic_phase_reached(self, state: State, combatant_id: str) -> bool:
        """His side's magic phase has come (a hit in it is simultaneous with the casting, not before)."""
        kind = self.step_kind(state)
        if kind == "end":
            return True
        if kind != "resolve":
            return False
        index = self.phase_index(state, combatant_id, "magic")
        return index is not None and state.cursor >= index

    def tied_turn_spares(self, state: State, combatant_id: str) -> bool:
        """Tied sides acting simultaneously, and the caster's shared turn is under way: with the option
        ``tied_disruption`` at ``simultaneous`` (the seed: a spell fails when its caster *loses* initiative,
        and a tie loses it for nobody) a hit in that turn does not disrupt."""
        turn = self.turn_of(state, combatant_id)
        return (
            "+" in turn
            and self.turn_now(state) == turn
            and state.options.get("tied_disruption", "simultaneous") == "simultaneous"
        )

    def disrupt(self, state: State, combatant_id: str, cause: str) -> State:
        """A declared caster hit (or failing a save) before his side's magic phase loses the spell; a rune
        is used up."""
        declaration = self.declaration_of(state, combatant_id)
        if (
            declaration.intent not in ("spell", "rune")
            or self.disrupted(state, combatant_id)
            or self.spent(state, combatant_id).acted
            or self.magic_phase_reached(state, combatant_id)
            or self.tied_turn_spares(state, combatant_id)
        ):
            return state
        current = self.round_of(state)
        state = self.with_round(state, replace(current, disrupted=(*current.disrupted, combatant_id)))
        message = (
            N_("{name}'s spell{what} is disrupted ({cause} before his side's magic phase): it is lost from memory.")
            if declaration.intent == "spell"
            else N_("{name}'s fairy rune{what} is disrupted ({cause} before his side's magic phase): it is used up.")
        )
        return log(
            state,
            message,
            facts={"disrupted": declaration.intent},
            name=who(state, combatant_id),
            what=typed_after(" ", declaration.what),
            cause=Msg(id=cause),
        )

    # -- saving throws and hit points ------------------------------------------------------------------
    def save_kinds(self, state: State) -> tuple[tuple[str, str], ...]:
        """D W P B S, under Dolmenwood's rules by its names (Doom, Ray, Hold, Blast, Spell)."""
        return save_kinds(self.dolmenwood(state))

    def save_odds(self, state: State, combatant_id: str, kind: str, dc: int, *, cover: int = 0) -> SaveOdds:
        """His number for ``kind`` by his own line, his "save as", his class and level or his Hit Dice (see
        :mod:`.saves`); ``dc`` and ``cover`` are not OSE's."""
        return save_odds_of(self.sheet_of(state.combatant(combatant_id)), kind, self.dolmenwood(state))

    def after_save(self, state: State, combatant_id: str, kind: str, saved: bool, source: str) -> State:
        """A failed save disrupts a declared spell or rune, as a hit does (before his side's magic phase)."""
        if saved or not state.has(combatant_id):
            return state
        return self.disrupt(state, combatant_id, N_("a failed saving throw"))

    def hit_point_dice(self, sheet: Mapping[str, Any]) -> str:
        """A monster's hit points are rolled from its Hit Dice (d8 each, the pluses added; ½: 1d4)."""
        hd = sheet.get("hd", "")
        if sheet.get("cls") or not isinstance(hd, str) or not hd.strip():
            return ""
        try:
            return read_hit_dice(hd).roll_dice()
        except RuleError:
            return ""

    # -- which actions apply now -----------------------------------------------------------------------
    def action_available(self, state: State, name: str, combatant_id: str | None) -> bool:
        if state.phase != "round":
            return False
        if name == "wait":
            return bool(self.can_wait(state))
        if combatant_id is None or combatant_id not in state.names():
            return False
        if state.combatant(combatant_id).status == "down" and name in ("move", "attack", "cast"):
            return False  # dead at 0 hit points: whoever else of his side acts now, not he
        if name == "move":
            return self.acting_in(state, combatant_id, "movement") and not self.spent(state, combatant_id).moved
        if name == "attack":
            return (
                self.acting_in(state, combatant_id, "missile", "melee", "slow")
                and not self.spent(state, combatant_id).acted
            )
        if name == "cast":
            return (
                self.acting_in(state, combatant_id, "magic")
                and self.casting(state, combatant_id)
                and not self.spent(state, combatant_id).acted
            )
        if name == "failed_save":
            return state.combatant(combatant_id).status == "active"
        if name == "morale":
            return state.combatant(combatant_id).status == "active" and not self.morale_refusal(
                state, state.combatant(combatant_id)
            )
        return False

    # -- forms -----------------------------------------------------------------------------------------
    def action_fields(self, state: State, name: str, combatant_id: str) -> tuple[FieldSpec, ...]:
        if name == "attack" and combatant_id:
            return self.attack_fields(state, state.combatant(combatant_id))
        if name == "morale" and combatant_id:
            return self.morale_fields(state, state.combatant(combatant_id))
        if name == "wait":
            turns = self.can_wait(state)
            side = state.combatant(combatant_id).side if combatant_id in state.names() else ""
            default = next(
                (t.key for t in turns if side in t.key.split("+") or combatant_id in t.members),
                turns[0].key if turns else "",
            )
            return (
                FieldSpec(
                    key="turn",
                    label=N_("Who waits"),
                    kind="choice",
                    default=default,
                    choices=tuple((t.key, str(t.label)) for t in turns),
                ),
            )
        return ()

    def attacks_by_missile(self, state: State, attacker: Combatant) -> bool:
        phase = self.phase_now(state)
        if phase == "slow":
            return weapon_name(self.sheet_of(attacker).weapon) in tables().missile.ranges
        return phase == "missile"

    def turn_of(self, state: State, combatant_id: str) -> str:
        """The key of the turn (a side, tied sides, a combatant) the combatant acts in this round."""
        return next((t.key for t in self.round_of(state).turns if combatant_id in t.members), "")

    def turn_now(self, state: State) -> str:
        """The key of the turn the cursor is in ("" outside the resolve step)."""
        keys = self.round_of(state).slot_keys
        if self.step_kind(state) != "resolve" or not 0 <= state.cursor < len(keys):
            return ""
        return keys[state.cursor].rpartition(":")[0]

    def fled_out_of_reach(self, state: State, combatant_id: str) -> bool:
        """He declared fleeing melee and ran in a turn of his side that came before this one: gone."""
        if not self.fleeing(state, combatant_id) or not self.spent(state, combatant_id).moved:
            return False
        return self.turn_now(state) != self.turn_of(state, combatant_id)

    def target_label(self, state: State, target: Combatant, missile: bool) -> str:
        """A target as the attack form lists it: its AC, and what fleeing melee changes."""
        sheet = self.sheet_of(target)
        if not missile and self.fled_out_of_reach(state, target.id):
            return _("{name}: fled from melee, out of reach", name=target.name)
        if not missile and self.fleeing(state, target.id):
            return _(
                "{name}: fleeing melee, +{bonus} to hit, AC {ac} without shield",
                name=target.name,
                bonus=tables().fleeing.to_hit,
                ac=sheet.ac - sheet.shield,
            )
        return _("{name}: AC {ac}", name=target.name, ac=sheet.ac)

    def attack_fields(self, state: State, attacker: Combatant) -> tuple[FieldSpec, ...]:
        missile = self.attacks_by_missile(state, attacker)
        # Kept from state to state while the round's and the fight's own state (declarations, moves, turns), the
        # turn the cursor is in and the language are the same and those who changed kept name, side, sheet and
        # status (a pass over 10,000: some 30 ms).
        targets = _KEPT_TARGETS.get(
            (attacker.side, missile),
            state,
            (state.round_state, state.fight_state, state.step, state.cursor, words_in_use()),
            lambda: tuple(
                (c.id, self.target_label(state, c, missile))
                for c in state.combatants
                if c.side != attacker.side and c.status == "active"
            ),
        )
        sheet = self.sheet_of(attacker)
        fields = [
            FieldSpec(
                key="target",
                label=N_("Target"),
                kind="choice",
                default=targets[0][0] if targets else "",
                choices=targets,
            )
        ]
        if missile:
            data = tables().missile
            bands = data.ranges.get(weapon_name(sheet.weapon))
            choices = []
            for index, (band, modifier) in enumerate(data.range_modifiers.items()):
                feet = _(" (to {feet} ft)", feet=bands[index]) if bands and index < len(bands) else ""
                choices.append((band, f"{pgettext('range', RANGE_LABELS.get(band, band))}{feet} {modifier:+d}"))
            default = "medium" if "medium" in data.range_modifiers else choices[0][0]
            fields.append(
                FieldSpec(key="range", label=N_("Range"), kind="choice", default=default, choices=tuple(choices))
            )
        fields.append(
            FieldSpec(
                key="modifier",
                label=N_("Other modifier"),
                kind="int",
                default=0,
                help=N_("cover −1 to −4, the GM's call"),
            )
        )
        if not missile:
            fields.append(FieldSpec(key="behind", label=N_("From behind (no shield)"), kind="bool", default=False))
        fields.append(FieldSpec(key="to_hit", label=N_("To-hit roll"), kind="roll", default="1d20"))
        return tuple(fields)

    def morale_fields(self, state: State, combatant: Combatant) -> tuple[FieldSpec, ...]:
        data = tables().morale
        score = self.sheet_of(combatant).morale
        modifiers = range(-data.max_modifier, data.max_modifier + 1)
        choices = tuple(
            (f"{m:+d}" if m else "0", f"{m:+d}: {chance_text(score, m)}" if m else f"0: {chance_text(score)}")
            for m in modifiers
        )
        return (
            FieldSpec(key="modifier", label=N_("Situational modifier"), kind="choice", default="0", choices=choices),
            FieldSpec(key="whole_side", label=N_("One check, whole side"), kind="bool", default=True),
            FieldSpec(key="roll", label=N_("Morale roll"), kind="roll", default=data.dice),
        )

    # -- applying --------------------------------------------------------------------------------------
    def apply_action(self, state: State, name: str, args: dict[str, Any]) -> State:
        if name == "wait":
            return self.wait(state, str(args.get("turn", "")))
        if name == "morale":
            return self.morale_check(state, args)
        combatant = self.actor(state, str(args.get("combatant", "")))
        if name == "move":
            return self.move(state, combatant)
        if name == "attack":
            return self.attack(state, combatant, args)
        if name == "cast":
            return self.cast(state, combatant)
        if name == "failed_save":
            state = log(state, N_("{name} fails a saving throw."), facts={"save": False}, name=who(state, combatant))
            return self.disrupt(state, combatant.id, N_("a failed saving throw"))
        raise RuleError(_("Unknown action {name}.", name=name))

    def move(self, state: State, combatant: Combatant) -> State:
        if self.casting(state, combatant.id):
            raise RuleError(_("{name} casts this round and cannot move.", name=combatant.name))
        if self.spent(state, combatant.id).moved:
            raise RuleError(_("{name} has already moved this round.", name=combatant.name))
        state = self.spend(state, combatant.id, moved=True)
        if self.fleeing(state, combatant.id) and "+" in self.turn_of(state, combatant.id):
            return log(
                state,
                N_(
                    "{name} turns and flees from melee: his opponents acting with him this turn get "
                    "+{bonus} to hit and ignore his shield."
                ),
                facts={"fleeing": True},
                name=who(state, combatant),
                bonus=tables().fleeing.to_hit,
            )
        if self.fleeing(state, combatant.id):
            return log(
                state,
                N_(
                    "{name} turns and flees from melee: he is out of reach of the melee attacks still "
                    "to come this round."
                ),
                facts={"fleeing": True},
                name=who(state, combatant),
            )
        return log(state, N_("{name} moves."), name=who(state, combatant))

    def cast(self, state: State, combatant: Combatant) -> State:
        declaration = self.declaration_of(state, combatant.id)
        if self.disrupted(state, combatant.id):
            raise RuleError(
                _("{name}'s spell was disrupted: it is lost.", name=combatant.name)
                if declaration.intent == "spell"
                else _("{name}'s fairy rune was disrupted: it is used up.", name=combatant.name)
            )
        if self.spent(state, combatant.id).acted:
            raise RuleError(_("{name} has already acted this round.", name=combatant.name))
        state = self.spend(state, combatant.id, acted=True)
        what: Param = (
            typed(declaration.what)
            if declaration.what
            else Msg(id=N_("a spell") if declaration.intent == "spell" else N_("a fairy rune"))
        )
        message = N_("{name} casts {what}.") if declaration.intent == "spell" else N_("{name} uses {what}.")
        return log(state, message, facts={"cast": declaration.intent}, name=who(state, combatant), what=what)

    def reckon(self, state: State, attacker: Combatant, args: Mapping[str, Any]) -> Reckoning:
        """What an attack needs, from the form's values: the target's AC (his shield off when he flees melee
        or is struck from behind), the attacker's bonus, range and the GM's other modifier."""
        target = self.opponent(state, attacker, str(args.get("target", "")))
        missile = self.attacks_by_missile(state, attacker)
        modifier = signed_int(args.get("modifier", 0), _("Other modifier"))
        range_bonus = 0
        if missile:
            band = str(args.get("range", "medium") or "medium")
            bands = tables().missile.range_modifiers
            if band not in bands:
                raise RuleError(_('Range "{band}" is not one of {known}.', band=band, known=", ".join(bands)))
            range_bonus = bands[band]
        if not missile and self.fled_out_of_reach(state, target.id):
            raise RuleError(
                _("{name} turned and fled from melee in his side's turn: he is out of reach.", name=target.name)
            )
        fleeing = not missile and self.fleeing(state, target.id)
        shield_off = not missile and (fleeing or bool(args.get("behind", False)))
        flee_bonus = tables().fleeing.to_hit if fleeing else 0
        sheet = self.sheet_of(target)
        armour = sheet.ac - (sheet.shield if shield_off else 0)
        bonus = self.sheet_of(attacker).attack + modifier + range_bonus + flee_bonus
        return Reckoning(
            target=target,
            missile=missile,
            armour=armour,
            bonus=bonus,
            fleeing=fleeing,
            flee_bonus=flee_bonus,
            shield_off=shield_off and bool(sheet.shield),
        )

    def form_preview(self, state: State, name: str, combatant_id: str, values: Mapping[str, Any]) -> str:
        if name != "attack" or not combatant_id:
            return ""
        reckoning = self.reckon(state, state.combatant(combatant_id), values)
        least = reckoning.armour - reckoning.bonus
        hits = sum(1 for face in range(1, 21) if face >= least)
        return _(
            "Needs {least} or more on the d20 (AC {ac}, {bonus:+d} to hit): {chance}% to hit.",
            least=min(max(least, 1), 20),
            ac=reckoning.armour,
            bonus=reckoning.bonus,
            chance=hits * 5,
        )

    def damage_due(self, before: State, after: State, name: str, args: Mapping[str, Any]) -> DamageDue | None:
        facts = new_attack(before, after, args.get("combatant"))
        if name != "attack" or facts is None or not facts.get("hit") or "damage" in args:
            return None
        dice = self.sheet_of(after.combatant(str(facts["attacker"]))).damage
        return DamageDue(target=str(facts["target"]), dice=dice)

    def attack(self, state: State, attacker: Combatant, args: dict[str, Any]) -> State:
        if self.spent(state, attacker.id).acted:
            raise RuleError(_("{name} has already acted this round.", name=attacker.name))
        reckoning = self.reckon(state, attacker, args)
        target, armour, bonus = reckoning.target, reckoning.armour, reckoning.bonus
        to_hit = roll_arg(args, "to_hit", N_("To-hit roll"))
        total = to_hit.total + bonus
        hit = total >= armour
        notes: list[str | int | Msg] = []
        if reckoning.fleeing:
            notes.append(Msg(id=N_("+{bonus}: fleeing melee"), params={"bonus": reckoning.flee_bonus}))
        if reckoning.shield_off:
            notes.append(Msg(id=N_("shield ignored")))
        state = self.spend(state, attacker.id, acted=True)
        state = log(
            state,
            N_("{attacker} attacks {target} ({kind}): {roll} {bonus} = {total} against AC {ac}{notes}: {result}."),
            rolls=(to_hit,),
            facts={
                "needed": armour - bonus,
                "total": total,
                "hit": hit,
                "fleeing": reckoning.fleeing,
                "shield_ignored": not reckoning.missile and (reckoning.fleeing or bool(args.get("behind", False))),
                "attacker": attacker.id,
                "target": target.id,
            },
            attacker=who(state, attacker),
            target=who(state, target),
            kind=Msg(id=N_("missile") if reckoning.missile else N_("melee")),
            roll=roll_param(to_hit),
            bonus=f"{bonus:+d}",
            total=total,
            ac=armour,
            notes=Msg(id=" ({notes})", params={"notes": notes}) if notes else "",
            result=Msg(id=N_("hit") if hit else N_("miss")),
        )
        if not hit or "damage" not in args:  # the damage is asked for next (sessions from before rolled it here)
            return state
        damage = roll_arg(args, "damage", N_("Damage roll"))
        return apply(state, actions.Damage(combatant=target.id, amount=max(damage.total, 0), roll=damage))

    @staticmethod
    def opponent(state: State, attacker: Combatant, target_id: str) -> Combatant:
        try:
            target = state.combatant(target_id)
        except KeyError:
            raise RuleError(_("Choose a target.")) from None
        if target.side == attacker.side:
            raise RuleError(_("{name} is on the same side.", name=target.name))
        if target.status != "active":
            raise RuleError(_("{name} is out of the fight.", name=target.name))
        return target
