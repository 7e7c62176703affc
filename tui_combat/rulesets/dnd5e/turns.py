"""Turns: the per-turn budget (action, bonus action, reaction, movement, counters), the 2014 surprise's
lost turn, and conditions that end on their own at the start or end of someone's turn or after N rounds.

Everything a creature spends lives in the fight state (:class:`~.state.Spent`) and is refreshed when its
own turn starts, so a reaction used during another creature's turn stays spent until then.
"""

from __future__ import annotations

from msgspec.structs import replace

from tui_combat.engine.audience import whos
from tui_combat.engine.contract import BudgetLine
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, log
from tui_combat.engine.model import Combatant, State
from tui_combat.i18n import N_, _, after_name, data_word
from tui_combat.rulesets.dnd5e.base import is_lair, named
from tui_combat.rulesets.dnd5e.data import data
from tui_combat.rulesets.dnd5e.initiative import Dnd5eInitiative
from tui_combat.rulesets.dnd5e.sheet import Counter, parse_counters, sheet_of
from tui_combat.rulesets.dnd5e.state import ActiveCondition, Spent

__all__ = ["Dnd5eTurns"]


class Dnd5eTurns(Dnd5eInitiative):
    # -- reading the budget ----------------------------------------------------------------------------
    def spent_of(self, state: State, combatant_id: str) -> Spent:
        return self.fight_of(state).spent.get(combatant_id, Spent())

    def counters_of(self, state: State, combatant_id: str) -> tuple[Counter, ...]:
        """The counters on the sheet, then those the DM added during the fight."""
        sheet = sheet_of(state.combatant(combatant_id))
        return (*parse_counters(sheet.counters), *self.fight_of(state).counters.get(combatant_id, ()))

    def counter_left(self, state: State, combatant_id: str, counter: Counter) -> int:
        if counter.per_turn:
            used = self.spent_of(state, combatant_id).counters.get(counter.name, 0)
        else:
            used = self.fight_of(state).used.get(combatant_id, {}).get(counter.name, 0)
        return max(counter.total - used, 0)

    def conditions_of(self, state: State, combatant_id: str) -> list[ActiveCondition]:
        return [c for c in self.fight_of(state).conditions if c.target == combatant_id]

    def incapacitated_by(self, state: State, combatant_id: str) -> str:
        """The condition that takes away his actions and reactions ("" when none does)."""
        table = data().conditions
        return next(
            (
                c.name
                for c in self.conditions_of(state, combatant_id)
                if c.name in table and table[c.name].incapacitated
            ),
            "",
        )

    def cannot_move(self, state: State, combatant_id: str) -> bool:
        table = data().conditions
        return any(c.name in table and table[c.name].speed_zero for c in self.conditions_of(state, combatant_id))

    def waits_for_first_turn(self, state: State, combatant_id: str) -> bool:
        """2014 surprise: no reaction until the end of his first turn."""
        return (
            self.surprise_rule(state) == "2014"
            and combatant_id in state.surprised
            and combatant_id not in self.fight_of(state).first_turn_over
        )

    def movement(self, state: State, combatant: Combatant) -> tuple[int, int]:
        """Feet of movement (left, total) this turn."""
        spent = self.spent_of(state, combatant.id)
        total = 0 if self.cannot_move(state, combatant.id) else sheet_of(combatant).speed + spent.dash
        left = 0 if spent.lost_turn else max(total - spent.movement, 0)
        return left, total

    def left(self, state: State, combatant_id: str) -> dict[str, tuple[int, int]]:
        """What he may still do: "action", "attacks", "bonus", "reaction", "movement" → (left, total)."""
        combatant = state.combatant(combatant_id)
        rules = data().budget
        spent = self.spent_of(state, combatant_id)
        unable = bool(self.incapacitated_by(state, combatant_id)) or spent.lost_turn
        action = 0 if unable else max(rules.actions - spent.action, 0)
        bonus = 0 if unable else max(rules.bonus_actions - spent.bonus, 0)
        blocked = bool(self.incapacitated_by(state, combatant_id)) or self.waits_for_first_turn(state, combatant_id)
        reaction = 0 if blocked else max(rules.reactions - spent.reaction, 0)
        attacks_total = sheet_of(combatant).attacks
        if spent.attack_action and not unable:
            attacks = max(attacks_total - spent.attacks, 0)
        else:
            attacks = attacks_total if action else 0
        return {
            "action": (action, rules.actions),
            "attacks": (attacks, attacks_total),
            "bonus": (bonus, rules.bonus_actions),
            "reaction": (reaction, rules.reactions),
            "movement": self.movement(state, combatant),
        }

    def budget(self, state: State, combatant_id: str) -> tuple[BudgetLine, ...]:
        left = self.left(state, combatant_id)
        lines = [BudgetLine(label=_("Action"), left=left["action"][0], total=left["action"][1])]
        if left["attacks"][1] > 1:
            lines.append(BudgetLine(label=_("Attacks"), left=left["attacks"][0], total=left["attacks"][1]))
        lines += [
            BudgetLine(label=_("Bonus action"), left=left["bonus"][0], total=left["bonus"][1]),
            BudgetLine(label=_("Reaction"), left=left["reaction"][0], total=left["reaction"][1]),
            BudgetLine(label=_("Movement (ft)"), left=left["movement"][0], total=left["movement"][1]),
        ]
        lines += [
            BudgetLine(
                label=data_word(counter.name), left=self.counter_left(state, combatant_id, counter), total=counter.total
            )
            for counter in self.counters_of(state, combatant_id)
        ]
        return tuple(lines)

    # -- spending --------------------------------------------------------------------------------------
    def spend(self, state: State, combatant_id: str, spent: Spent) -> State:
        fight = self.fight_of(state)
        return self.with_fight(state, replace(fight, spent={**fight.spent, combatant_id: spent}))

    def require_turn(self, state: State, combatant: Combatant) -> None:
        if combatant.id not in self.acting(state):
            raise RuleError(_("It is not {name}'s turn.", name=combatant.name))

    def require_able(self, state: State, combatant: Combatant) -> None:
        cause = self.incapacitated_by(state, combatant.id)
        if cause:
            raise RuleError(
                _("{name} is {condition}: no actions or reactions.", name=combatant.name, condition=after_name(cause))
            )
        if self.spent_of(state, combatant.id).lost_turn and self.waits_for_first_turn(state, combatant.id):
            raise RuleError(_("{name} is surprised: this first turn is lost.", name=combatant.name))

    def take(self, state: State, combatant: Combatant, what: str) -> State:
        """Spend his action, bonus action or reaction, or refuse saying why."""
        if what in ("action", "bonus"):
            self.require_turn(state, combatant)
        self.require_able(state, combatant)
        left = self.left(state, combatant.id)[what][0]
        if left <= 0:
            if what == "reaction" and self.waits_for_first_turn(state, combatant.id):
                raise RuleError(
                    _("{name} is surprised: no reaction until the end of his first turn.", name=combatant.name)
                )
            raise RuleError(_("{name} has no {what} left.", name=combatant.name, what=_(SPENDABLE[what])))
        spent = self.spent_of(state, combatant.id)
        return self.spend(state, combatant.id, replace(spent, **{what: getattr(spent, what) + 1}))

    # -- turn hooks ------------------------------------------------------------------------------------
    def on_turn_start(self, state: State, slot: int) -> State:
        current = state.order[slot]
        if is_lair(current):
            return log(
                state,
                N_("Lair action: the lair acts (initiative count {count}, after the creatures at {count})."),
                facts={"lair": True},
                count=current.value,
            )
        fight = self.fight_of(state)
        spent = dict(fight.spent)
        lost: list[str] = []
        for combatant_id in current.combatants:
            lost_turn = self.waits_for_first_turn(state, combatant_id)
            spent[combatant_id] = Spent(lost_turn=lost_turn)
            if lost_turn:
                lost.append(combatant_id)
        state = self.with_fight(state, replace(fight, spent=spent))
        if lost:
            state = log(
                state,
                N_("Surprised, {names} can neither move nor act this turn."),
                facts={"lost_turn": True},
                names=whos(state, lost),
            )
        return self.expire(state, current.combatants, "start")

    def on_turn_end(self, state: State, slot: int) -> State:
        current = state.order[slot]
        fight = self.fight_of(state)
        over = [c for c in current.combatants if self.waits_for_first_turn(state, c)]
        if over:
            state = self.with_fight(state, replace(fight, first_turn_over=(*fight.first_turn_over, *over)))
        return self.expire(state, current.combatants, "end")

    def on_round_start(self, state: State) -> State:
        state = super().on_round_start(state)
        # A duration whose creature has left the fight, or whose count ran out without his turn, ends now.
        names = state.names()
        return self.end_conditions(
            state,
            [
                c
                for c in self.fight_of(state).conditions
                if (c.ends != "removed" and c.anchor not in names)
                or (c.ends == "rounds" and c.until_round < state.round)
            ],
        )

    # -- conditions ------------------------------------------------------------------------------------
    def expire(self, state: State, anchors: tuple[str, ...], moment: str) -> State:
        """At the start of an anchor's turn: "start" durations end, "end" durations arm, counts may run out;
        at its end, armed "end" durations end."""
        fight = self.fight_of(state)
        ending: list[ActiveCondition] = []
        kept: list[ActiveCondition] = []
        for condition in fight.conditions:
            if condition.anchor not in anchors or condition.ends == "removed":
                kept.append(condition)
            elif moment == "start" and (
                condition.ends == "start" or (condition.ends == "rounds" and state.round >= condition.until_round)
            ):
                ending.append(condition)
            elif moment == "start" and condition.ends == "end":
                kept.append(replace(condition, armed=True))
            elif moment == "end" and condition.ends == "end" and condition.armed:
                ending.append(condition)
            else:
                kept.append(condition)
        state = self.with_fight(state, replace(fight, conditions=tuple(kept)))
        return self.end_conditions(state, ending, already_removed=True)

    def end_conditions(self, state: State, ending: list[ActiveCondition], already_removed: bool = False) -> State:
        if not ending:
            return state
        if not already_removed:
            fight = self.fight_of(state)
            gone = {c.id for c in ending}
            state = self.with_fight(
                state, replace(fight, conditions=tuple(c for c in fight.conditions if c.id not in gone))
            )
        for condition in ending:
            state = log(
                state,
                N_("{name} is no longer {condition}."),
                facts={"condition": condition.name, "ended": True},
                name=named(state, condition.target),
                condition=Msg(id=condition.name),
            )
        return state

    def duration_text(self, state: State, condition: ActiveCondition) -> Msg | str:
        anchor = named(state, condition.anchor)
        if condition.ends == "end":
            return Msg(id=N_(" until the end of {anchor}'s next turn"), params={"anchor": anchor})
        if condition.ends == "start":
            return Msg(id=N_(" until the start of {anchor}'s next turn"), params={"anchor": anchor})
        if condition.ends == "rounds":
            return Msg(
                id=N_(" until the start of {anchor}'s turn in round {round}"),
                params={"anchor": anchor, "round": condition.until_round},
            )
        return ""


SPENDABLE = {"action": N_("action"), "bonus": N_("bonus action"), "reaction": N_("reaction")}
