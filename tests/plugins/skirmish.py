"""Skirmish: a small ruleset, the worked example of ``docs/writing-a-ruleset.md``.

* Initiative: every side rolls 1d6 and the highest acts first. Sides that tie roll again (only they,
  until one wins). A side's members act in whatever order the GM picks (a free slot).
* On its turn each combatant may attack once: a d20 plus its attack bonus hits when it reaches the
  target's armour class, and then the damage dice of its sheet are taken off the target's HP.
* For the whole fight the ruleset counts the hits each combatant has landed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec
from msgspec.structs import asdict, replace

from tui_combat.engine import actions
from tui_combat.engine.apply import apply
from tui_combat.engine.audience import side_ref, who
from tui_combat.engine.contract import ActionSpec, BudgetLine, FieldSpec, RuleError, Ruleset
from tui_combat.engine.dice import DiceError, Roll, parse
from tui_combat.engine.initiative import ask, fresh_key, settle
from tui_combat.engine.log import Msg, log, roll_param
from tui_combat.engine.mistakes import convert_sheet, refuse
from tui_combat.engine.model import Combatant, RollRequest, Slot, State
from tui_combat.i18n import N_, _


class Sheet(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What a combatant's sheet holds in this ruleset."""

    attack: int = 0
    """Added to the d20 of an attack."""
    ac: int = 10
    """An attack hits when it reaches this."""
    damage: str = "1d6"


class SkirmishRound(msgspec.Struct, frozen=True, kw_only=True):
    """What the ruleset tracks during one round."""

    attacks_left: dict[str, int] = msgspec.field(default_factory=dict)
    """Combatant id → attacks left this turn; set when his turn starts."""


class SkirmishFight(msgspec.Struct, frozen=True, kw_only=True):
    """What the ruleset keeps for the whole fight."""

    hits: dict[str, int] = msgspec.field(default_factory=dict)
    """Combatant id → hits landed so far."""


def roll_field(args: Mapping[str, Any], key: str, label: str) -> Roll:
    """A ``roll`` field of a form: a Roll as the app made it, or the same as a mapping read back from a journal."""
    try:
        return msgspec.convert(args[key], Roll)
    except (KeyError, msgspec.ValidationError):
        raise RuleError(_("{field} is missing.", field=_(label))) from None


class Skirmish(Ruleset[SkirmishRound, SkirmishFight]):
    id = "skirmish"
    name = "Skirmish"
    sheet_fields = (
        FieldSpec(key="attack", label=N_("Attack bonus"), kind="int", default=0),
        FieldSpec(key="ac", label=N_("Armour class"), kind="int", default=10),
        FieldSpec(key="damage", label=N_("Damage dice"), default="1d6"),
    )
    actions = (ActionSpec(name="attack", key="a", label=N_("Attack")),)
    round_state_type = SkirmishRound
    fight_state_type = SkirmishFight

    # -- set-up ------------------------------------------------------------------------------------
    def check_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        # Every field of the wrong kind or unknown, in the GM's words; the rest is still checked.
        checked, mistakes = convert_sheet(sheet, Sheet, strict=True)
        try:
            parse(checked.damage)
        except DiceError as error:
            mistakes.append(_("Sheet, {field}: {error}", field="damage", error=error))
        refuse(mistakes)
        return asdict(checked)

    @staticmethod
    def sheet(combatant: Combatant) -> Sheet:
        return msgspec.convert(combatant.sheet, Sheet)

    # -- initiative --------------------------------------------------------------------------------
    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        requests = []
        for side in state.sides:
            members = tuple(c.id for c in state.combatants if c.side == side.id and c.status == "active")
            if members:
                # A side by reference: the players read nothing of a side whose members are all hidden from them.
                requests.append(
                    RollRequest(key=side.id, label=side_ref(state, side.id), dice="1d6", combatants=members)
                )
        return tuple(requests)

    def settle_initiative(self, state: State, rolls: Mapping[str, Roll]) -> State:
        # Every roll of a side in the order taken: its first ("s1"), then its rerolls ("s1#2", "s1#3" …).
        # Compared as sequences, a reroll only ever decides between the sides that tied.
        totals: dict[str, tuple[int, ...]] = {}
        for key, roll in rolls.items():
            side_id = key.partition("#")[0]
            totals[side_id] = (*totals.get(side_id, ()), roll.total)
        sequences = list(totals.values())
        tied = [side_id for side_id, sequence in totals.items() if sequences.count(sequence) > 1]
        if tied:
            return ask(
                state,
                [
                    RollRequest(
                        key=fresh_key(state, side_id),
                        dice="1d6",
                        label=Msg(id=N_("{name}, tie reroll"), params={"name": side_ref(state, side_id)}),
                    )
                    for side_id in tied
                ],
            )
        order = []
        for side_id in sorted(totals, key=totals.__getitem__, reverse=True):
            members = tuple(c.id for c in state.combatants if c.side == side_id and c.status == "active")
            order.append(Slot(label=side_ref(state, side_id), combatants=members, value=totals[side_id][0], free=True))
        return settle(state, order)

    # -- the per-turn budget -----------------------------------------------------------------------
    def on_turn_start(self, state: State, slot: int) -> State:
        round_state = self.round_of(state)
        refreshed = {**round_state.attacks_left, **{cid: 1 for cid in state.order[slot].combatants}}
        return self.with_round(state, replace(round_state, attacks_left=refreshed))

    def budget(self, state: State, combatant_id: str) -> tuple[BudgetLine, ...]:
        left = self.round_of(state).attacks_left.get(combatant_id, 0)
        return (BudgetLine(label=_("Attack"), left=left, total=1),)

    def details(self, state: State, combatant_id: str) -> tuple[tuple[str, str], ...]:
        return ((_("Hits landed"), str(self.fight_of(state).hits.get(combatant_id, 0))),)

    # -- the attack --------------------------------------------------------------------------------
    def action_available(self, state: State, name: str, combatant_id: str | None) -> bool:
        if state.phase != "round" or combatant_id is None or self.steps(state)[state.step].kind != "resolve":
            return False
        return combatant_id in state.acting_now() and self.round_of(state).attacks_left.get(combatant_id, 0) > 0

    def action_fields(self, state: State, name: str, combatant_id: str) -> tuple[FieldSpec, ...]:
        attacker = state.combatant(combatant_id)
        targets = tuple((c.id, c.name) for c in state.combatants if c.side != attacker.side and c.status == "active")
        return (
            FieldSpec(key="target", label=N_("Target"), kind="choice", choices=targets),
            FieldSpec(key="to_hit", label=N_("To-hit roll"), kind="roll", default="1d20"),
            FieldSpec(
                key="damage",
                label=N_("Damage roll"),
                kind="roll",
                default=self.sheet(attacker).damage,
                help=N_("Used only on a hit."),
            ),
        )

    def apply_action(self, state: State, name: str, args: dict[str, Any]) -> State:
        attacker = self.actor(state, str(args.get("combatant", "")))
        target = self.target(state, attacker, str(args.get("target", "")))
        to_hit = roll_field(args, "to_hit", N_("To-hit roll"))
        bonus, armour = self.sheet(attacker).attack, self.sheet(target).ac
        total = to_hit.total + bonus
        hit = total >= armour

        round_state = self.round_of(state)
        left = {**round_state.attacks_left, attacker.id: round_state.attacks_left[attacker.id] - 1}
        state = self.with_round(state, replace(round_state, attacks_left=left))
        # Combatants by reference (who): the players never read a line naming someone hidden from them. A line
        # with dice is read by the players as its outcome ("Ada hits Goblin 1.", from the fact "hit").
        state = log(
            state,
            N_("{attacker} attacks {target}: {roll}, {bonus} → {total} against AC {ac}: {result}."),
            rolls=(to_hit,),
            facts={"needed": armour - bonus, "total": total, "hit": hit},
            attacker=who(state, attacker),
            target=who(state, target),
            roll=roll_param(to_hit),
            bonus=f"{bonus:+d}",
            total=total,
            ac=armour,
            result=Msg(id=N_("hit") if hit else N_("miss")),
        )
        if not hit:
            return state

        fight = self.fight_of(state)
        state = self.with_fight(
            state, replace(fight, hits={**fight.hits, attacker.id: fight.hits.get(attacker.id, 0) + 1})
        )
        damage = roll_field(args, "damage", N_("Damage roll"))
        # The engine's own Damage action: HP, the "down" status and the on_status/on_damage hooks follow.
        return apply(state, actions.Damage(combatant=target.id, amount=max(damage.total, 0), roll=damage))

    @staticmethod
    def target(state: State, attacker: Combatant, target_id: str) -> Combatant:
        try:
            target = state.combatant(target_id)
        except KeyError:
            raise RuleError(_("Choose a target.")) from None
        if target.side == attacker.side:
            raise RuleError(_("{name} is on the same side.", name=target.name))
        if target.status != "active":
            raise RuleError(_("{name} is out of the fight.", name=target.name))
        return target


RULESET = Skirmish()
