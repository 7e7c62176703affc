"""Morale: the triggers (a side's first death and half the side out; a lone creature's first wound and
a quarter of its HP), the check (2d6 against the score, breaking when higher), the chance of breaking."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from tui_combat.engine.audience import behind, side_ref, who, whos
from tui_combat.engine.dice import Dice, DiceError, Roll, parse
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, log, plural_msg, roll_param
from tui_combat.engine.model import Combatant, State, Status
from tui_combat.i18n import N_, _, ngettext
from tui_combat.rulesets.ose.data import tables
from tui_combat.rulesets.ose.order import OseOrder
from tui_combat.rulesets.ose.state import MoralePrompt

FIRST_DEATH = N_("first death")
HALF_OUT = N_("half the side is out")
FIRST_DAMAGED = N_("first damaged")
QUARTER_HP = N_("a quarter of its HP or less")


def outcomes(expr: str) -> dict[int, int]:
    """Total → the number of ways plain dice (``2d6``, ``1d8+1``) make it."""
    counts = {0: 1}
    for term in parse(expr).terms:
        if isinstance(term, Dice):
            if term.keep or term.explode:
                raise DiceError(_("{expr}: only plain dice can give a chance.", expr=expr))
            faces = range(-term.sides, 0) if term.negative else range(1, term.sides + 1)
            for _die in range(term.count):
                counts = _add(counts, faces)
        else:
            counts = {total + term.value: ways for total, ways in counts.items()}
    return counts


def _add(counts: dict[int, int], faces: range) -> dict[int, int]:
    result: dict[int, int] = {}
    for total, ways in counts.items():
        for face in faces:
            result[total + face] = result.get(total + face, 0) + ways
    return result


def breaking_chance(score: int, modifier: int = 0) -> tuple[int, int]:
    """(ways the morale roll is higher than the score, all ways): 7 → (15, 36)."""
    counts = outcomes(tables().morale.dice)
    return sum(ways for total, ways in counts.items() if total > score + modifier), sum(counts.values())


def chance_text(score: int, modifier: int = 0) -> str:
    """The chance of breaking, for the GM to see before the roll: "breaks on 8+: 15 in 36 (42%)"."""
    ways, every = breaking_chance(score, modifier)
    if ways == 0:
        return _("cannot break")
    if ways == every:
        return _("always breaks")
    return _(
        "breaks on {total}+: {ways} in {every} ({percent}%)",
        total=score + modifier + 1,
        ways=ways,
        every=every,
        percent=round(100 * ways / every),
    )


def signed_int(value: object, what: str) -> int:
    text = str(value if value not in (None, "") else 0).strip().replace("−", "-")
    try:
        return int(text)
    except ValueError:
        raise RuleError(_('{field}: "{value}" is not a whole number.', field=what, value=text)) from None


def roll_arg(args: dict[str, Any], key: str, label: str) -> Roll:
    """A ``roll`` field: a Roll as the form made it, or the same as a mapping read back from a journal."""
    try:
        return msgspec.convert(args[key], Roll)
    except (KeyError, msgspec.ValidationError):
        raise RuleError(_("{field} is missing.", field=_(label))) from None


class OseMorale(OseOrder):
    # -- prompts -------------------------------------------------------------------------------------
    def side_members(self, state: State, side_id: str) -> list[Combatant]:
        return [c for c in state.combatants if c.side == side_id]

    def open_prompts(self, state: State, side_id: str) -> list[MoralePrompt]:
        return [p for p in self.fight_of(state).prompts if p.side == side_id and not p.answered]

    def prompt(self, state: State, side_id: str, reason: str) -> State:
        """Record a trigger (once per fight) and tell the GM, unless nobody on the side would check."""
        fight = self.fight_of(state)
        if any(p.side == side_id and p.reason == reason for p in fight.prompts):
            return state
        if not any(self.checks_morale(state, c.id) for c in self.side_members(state, side_id)):
            return state
        prompt = MoralePrompt(side=side_id, reason=reason, round=state.round)
        state = self.with_fight(state, replace(fight, prompts=(*fight.prompts, prompt)))
        # The monsters' morale is the referee's: the players learn of it when they flee or surrender.
        return log(
            state,
            N_("Morale check due for {side}: {reason}."),
            facts={"morale_due": reason},
            secret=not state.side(side_id).is_party,
            side=side_ref(state, side_id),
            reason=Msg(id=reason),
        )

    def on_status(self, state: State, combatant_id: str, before: Status) -> State:
        if state.phase != "round":
            return state
        combatant = state.combatant(combatant_id)
        members = self.side_members(state, combatant.side)
        if len(members) == 1:
            return state  # a lone creature has triggers of its own (on_damage)
        if combatant.status == "down" and before != "down":
            state = self.prompt(state, combatant.side, FIRST_DEATH)
        if before == "active" and combatant.status != "active":
            out = sum(1 for c in members if c.status != "active")
            if 2 * out >= len(members):
                state = self.prompt(state, combatant.side, HALF_OUT)
        return state

    def lone_creature_hurt(self, state: State, combatant_id: str) -> State:
        combatant = state.combatant(combatant_id)
        if combatant.status != "active" or len(self.side_members(state, combatant.side)) != 1:
            return state
        state = self.prompt(state, combatant.side, FIRST_DAMAGED)
        numerator, denominator = tables().morale.lone_fraction
        if combatant.hp * denominator <= combatant.max_hp * numerator:
            state = self.prompt(state, combatant.side, QUARTER_HP)
        return state

    # -- the check -----------------------------------------------------------------------------------
    def morale_refusal(self, state: State, combatant: Combatant) -> str:
        """Why the combatant cannot take a morale check ("" when he can)."""
        data = tables().morale
        score = self.sheet_of(combatant).morale
        fight = self.fight_of(state)
        if score == 0:
            return _("{name} has no morale score: a player character decides for himself.", name=combatant.name)
        if score >= data.never_checks:
            return _("Morale {score}: {name} fights to the death and never checks.", score=score, name=combatant.name)
        if combatant.id in fight.broken:
            return _("{name}'s nerve has already broken.", name=combatant.name)
        if fight.passes.get(combatant.id, 0) >= data.passes_to_stop:
            return ngettext(
                "{name} passed {n} morale check: he fights to the death.",
                "{name} passed {n} morale checks: he fights to the death.",
                data.passes_to_stop,
                name=combatant.name,
            )
        return ""

    def morale_check(self, state: State, args: dict[str, Any]) -> State:
        actor = self.actor(state, str(args.get("combatant", "")))
        refusal = self.morale_refusal(state, actor)
        if refusal:
            raise RuleError(refusal)
        data = tables().morale
        modifier = signed_int(args.get("modifier", 0), _("Situational modifier"))
        if abs(modifier) > data.max_modifier:
            raise RuleError(_("The situational modifier is from −{max} to +{max}.", max=data.max_modifier))
        rolled = roll_arg(args, "roll", N_("Morale roll"))
        whole_side = bool(args.get("whole_side", True))
        members = (
            [c.id for c in self.side_members(state, actor.side) if self.checks_morale(state, c.id)]
            if whole_side
            else [actor.id]
        )
        score = self.sheet_of(actor).morale
        broken = rolled.total > score + modifier
        checked = side_ref(state, actor.side) if whole_side else who(state, actor)
        # The score and the GM's modifier are behind the screen: the players read whether the nerve holds.
        state = log(
            state,
            N_("Morale — {who}: {roll} against {score}{modifier}: {result}."),
            rolls=(rolled,),
            facts={"morale": score, "modifier": modifier, "total": rolled.total, "broken": broken},
            public=Msg(
                id=N_("{who}: the nerve breaks.") if broken else N_("{who}: the nerve holds."), params={"who": checked}
            ),
            who=checked,
            roll=roll_param(rolled),
            score=behind(score),
            modifier=behind(f" {modifier:+d}") if modifier else "",
            result=Msg(id=N_("the nerve breaks: flight or surrender next round") if broken else N_("the nerve holds")),
        )
        fight = self.fight_of(state)
        prompts = tuple(replace(p, answered=True) if p.side == actor.side else p for p in fight.prompts)
        if broken:
            fight = replace(fight, prompts=prompts, broken={**fight.broken, **{c: state.round for c in members}})
            return self.with_fight(state, fight)
        passes = {**fight.passes, **{c: fight.passes.get(c, 0) + 1 for c in members}}
        state = self.with_fight(state, replace(fight, prompts=prompts, passes=passes))
        done = [c for c in members if passes[c] >= data.passes_to_stop]
        if done:  # the referee's account of their morale, as the trigger's line is
            state = log(
                state,
                plural_msg(
                    "{names} passed {n} morale check: a fight to the death.",
                    "{names} passed {n} morale checks: a fight to the death.",
                    data.passes_to_stop,
                    names=whos(state, done),
                ),
                secret=not state.side(actor.side).is_party,
            )
        return state

    # -- reminders -----------------------------------------------------------------------------------
    def due_reminder(self, state: State) -> State:
        """Remind the GM of the morale checks still due, side by side (his alone)."""
        for side in state.sides:
            due = self.open_prompts(state, side.id)
            if due and any(self.checks_morale(state, c.id) for c in self.side_members(state, side.id)):
                state = log(
                    state,
                    N_("Morale check still due for {side}: {reasons}."),
                    facts={"morale_due": len(due)},
                    secret=True,
                    side=side_ref(state, side.id),
                    reasons=[Msg(id=p.reason) for p in due],
                )
        return state

    def broken_reminder(self, state: State) -> State:
        """At the start of a round: those whose nerve broke in the last round flee or surrender."""
        fight = self.fight_of(state)
        broke = [
            c for c, when in fight.broken.items() if when == state.round - 1 and state.combatant(c).status == "active"
        ]
        if broke:
            state = log(state, N_("Nerve broken: {names} — flight or surrender this round."), names=whos(state, broke))
        return state
