"""Hit points at 0 (SRD 5.1): monsters die; characters of the party fall unconscious and make death saving
throws at the start of their turns, until three successes make them stable, three failures kill them, or
healing wakes them. Damage at 0 hit points is a failure (a critical hit two); damage that leaves at least
the maximum hit points over kills outright. Hit points never go below 0.

What a character's saves stand at lives in the fight state (:class:`~.state.Dying`): the hooks that see
the damage (``on_damage``) and the change of status (``on_status``) keep it; ``after_damage`` and
``after_healing`` only say what the hit points and the status become.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from tui_combat.engine import actions
from tui_combat.engine.apply import apply
from tui_combat.engine.audience import hint, who
from tui_combat.engine.contract import FieldSpec, Health
from tui_combat.engine.dice import Roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, log, roll_param
from tui_combat.engine.model import Combatant, State, Status
from tui_combat.i18n import N_, _
from tui_combat.rulesets.dnd5e.base import named, roll_arg
from tui_combat.rulesets.dnd5e.data import data
from tui_combat.rulesets.dnd5e.state import ActiveCondition, Dying
from tui_combat.rulesets.dnd5e.turns import Dnd5eTurns

__all__ = ["Dnd5eHealth", "lying_at_zero", "save_marks"]

DEATH_SAVE_KEY = Msg(id=N_(" (key {key})"), params={"key": "v"})
"""Where the GM makes the death saving throw: a hint the players' line leaves out."""
PRONE = "prone"
"""The condition an unconscious creature falls into (SRD 5.1, "Unconscious": it "falls prone")."""
END_CONDITION_KEY = Msg(id=N_(" (key {key})"), params={"key": "C"})
"""Where the GM ends a condition (standing up ends prone): a hint the players' line leaves out."""


def lying_at_zero(record: Dying | None) -> bool:
    """A character of the party at 0 hit points, dying or stable, by his record (None: not at 0)."""
    return record is not None and not record.dead


def save_marks(dying: Dying) -> tuple[str, str]:
    """The saves as the card shows them: successes ●●○, failures ✕○○."""
    rules = data().death
    successes = "●" * min(dying.successes, rules.successes) + "○" * max(rules.successes - dying.successes, 0)
    failures = "✕" * min(dying.failures, rules.failures) + "○" * max(rules.failures - dying.failures, 0)
    return successes, failures


class Dnd5eHealth(Dnd5eTurns):
    # -- reading -------------------------------------------------------------------------------------
    @staticmethod
    def in_party(state: State, combatant: Combatant) -> bool:
        try:
            return state.side(combatant.side).is_party
        except KeyError:
            return False

    def dying_of(self, state: State, combatant_id: str) -> Dying | None:
        return self.fight_of(state).dying.get(combatant_id)

    def is_dead(self, state: State, combatant: Combatant) -> bool:
        """A monster at 0 that is down, or a character whose saves (or a massive blow) killed him."""
        record = self.dying_of(state, combatant.id)
        if record is not None:
            return record.dead
        return combatant.status == "down" and combatant.hp <= 0 and not self.in_party(state, combatant)

    def unconscious_at_zero(self, state: State, combatant_id: str) -> bool:
        """A character lying at 0 hit points, dying or stable (attacks on him are as on the unconscious)."""
        return lying_at_zero(self.dying_of(state, combatant_id))

    def incapacitated_by(self, state: State, combatant_id: str) -> str:
        """A character lying at 0 hit points is unconscious: no actions, no reactions, no movement."""
        return (
            N_("unconscious")
            if self.unconscious_at_zero(state, combatant_id)
            else super().incapacitated_by(state, combatant_id)
        )

    def cannot_move(self, state: State, combatant_id: str) -> bool:
        return self.unconscious_at_zero(state, combatant_id) or super().cannot_move(state, combatant_id)

    def condition_word(self, state: State, combatant_id: str) -> str | None:
        try:
            combatant = state.combatant(combatant_id)
        except KeyError:
            return None
        record = self.dying_of(state, combatant_id)
        if record is not None:
            return N_("dead") if record.dead else N_("stable") if record.stable else N_("dying")
        return N_("dead") if self.is_dead(state, combatant) else None

    def death_saves(self, state: State, combatant_id: str) -> tuple[int, int] | None:
        record = self.dying_of(state, combatant_id)
        if record is None or record.dead or record.stable:
            return None
        return record.successes, record.failures

    # -- what a hit or a heal leaves -----------------------------------------------------------------
    def after_damage(self, state: State, combatant: Combatant, amount: int, *, critical: bool = False) -> Health:
        hp = max(combatant.hp - amount, 0)
        return Health(hp=hp, status="down" if hp == 0 and combatant.status == "active" else combatant.status)

    def after_healing(self, state: State, combatant: Combatant, amount: int) -> Health:
        if self.is_dead(state, combatant):
            raise RuleError(_("{name} is dead: healing does not bring the dead back.", name=combatant.name))
        return super().after_healing(state, combatant, amount)

    def set_dying(self, state: State, combatant_id: str, record: Dying | None) -> State:
        fight = self.fight_of(state)
        dying = {key: value for key, value in fight.dying.items() if key != combatant_id}
        if record is not None:
            dying[combatant_id] = record
        return self.with_fight(state, replace(fight, dying=dying))

    def on_damage(self, state: State, combatant_id: str, amount: int, *, critical: bool = False) -> State:
        state = super().on_damage(state, combatant_id, amount, critical=critical)
        combatant = state.combatant(combatant_id)
        if combatant.hp > 0 or not self.in_party(state, combatant):
            return state
        before, amount = self.last_hit(state, combatant, amount)
        if amount <= 0:  # temporary hit points took it all
            return state
        record = self.dying_of(state, combatant_id)
        if record is not None and record.dead:
            return state
        if before > 0 or record is None:  # he drops to 0 now
            if amount - before >= combatant.max_hp:
                state = self.set_dying(state, combatant_id, Dying(dead=True))
                return log(
                    state,
                    N_("{name} is killed outright: {left} damage left over after 0 hit points, the maximum is {max}."),
                    facts={"dead": True},
                    name=who(state, combatant),
                    left=amount - before,
                    max=combatant.max_hp,
                )
            state = self.set_dying(state, combatant_id, Dying())
            state = log(
                state,
                N_(
                    "{name} falls unconscious at 0 hit points and is dying: a death saving throw at the "
                    "start of each turn{key}."
                ),
                facts={"dying": True},
                name=who(state, combatant),
                key=hint(DEATH_SAVE_KEY),
            )
            return self.fall_prone(state, combatant)
        if amount >= combatant.max_hp:
            state = self.set_dying(state, combatant_id, Dying(dead=True))
            return log(
                state,
                N_("{name} is killed outright: {amount} damage at 0 hit points, the maximum is {max}."),
                facts={"dead": True},
                name=who(state, combatant),
                amount=amount,
                max=combatant.max_hp,
            )
        failures = record.failures + (2 if critical else 1)
        return self.saves_now(
            state,
            combatant,
            replace(record, failures=failures, stable=False),
            Msg(
                id=N_("a critical hit at 0 hit points: two failures")
                if critical
                else N_("damage at 0 hit points: a failure")
            ),
        )

    @staticmethod
    def last_hit(state: State, combatant: Combatant, taken: int) -> tuple[int, int]:
        """His hit points before the damage just logged, and what of the ``taken`` damage reached them (not what
        temporary hit points took): the engine's damage entry says."""
        for chunk in reversed(state.log):
            for entry in reversed(chunk):
                named = entry.msg.params.get("name")
                if "hp_before" in entry.facts and isinstance(named, Msg) and named.ref == combatant.id:
                    return int(entry.facts["hp_before"]), int(entry.facts.get("lost", taken))
        return combatant.hp, taken

    def saves_now(self, state: State, combatant: Combatant, record: Dying, why: Msg) -> State:
        """Record the saves and say where they stand: stable at three successes, dead at three failures."""
        rules = data().death
        if record.failures >= rules.failures:
            record = replace(record, failures=rules.failures, dead=True, due=False)
            state = self.set_dying(state, combatant.id, record)
            return log(
                state,
                N_("{name}: {why}; three failures: dead."),
                facts={"dead": True},
                name=who(state, combatant),
                why=why,
            )
        if record.successes >= rules.successes:
            record = replace(record, successes=rules.successes, stable=True, due=False)
            state = self.set_dying(state, combatant.id, record)
            return log(
                state,
                N_("{name}: {why}; three successes: stable."),
                facts={"stable": True},
                name=who(state, combatant),
                why=why,
            )
        state = self.set_dying(state, combatant.id, record)
        successes, failures = save_marks(record)
        return log(
            state,
            N_("{name}: {why}; successes {successes}, failures {failures}."),
            facts={"successes": record.successes, "failures": record.failures},
            name=who(state, combatant),
            why=why,
            successes=successes,
            failures=failures,
        )

    def fall_prone(self, state: State, combatant: Combatant) -> State:
        """Falling unconscious, he falls prone (SRD 5.1, "Unconscious"); standing up again is the GM's to say (it
        costs half his movement), by ending the condition."""
        if PRONE not in data().conditions or any(c.name == PRONE for c in self.conditions_of(state, combatant.id)):
            return state
        fight = self.fight_of(state)
        prone = ActiveCondition(id=fight.next_condition, target=combatant.id, name=PRONE)
        state = self.with_fight(
            state, replace(fight, conditions=(*fight.conditions, prone), next_condition=fight.next_condition + 1)
        )
        return log(
            state,
            N_("{name} is {condition}{duration}."),
            facts={"condition": PRONE},
            name=who(state, combatant),
            condition=Msg(id=PRONE),
            duration="",
        )

    def on_status(self, state: State, combatant_id: str, before: Status) -> State:
        """Healed (or put back in the fight by the GM), a character at 0 wakes and his saves are cleared; he
        still lies prone until the GM says he stands up."""
        combatant = state.combatant(combatant_id)
        if before == "down" and combatant.status == "active" and self.dying_of(state, combatant_id) is not None:
            state = self.set_dying(state, combatant_id, None)
            state = log(
                state,
                N_("{name} wakes: the death saving throws are cleared."),
                facts={"woke": True},
                name=who(state, combatant),
            )
            if any(c.name == PRONE for c in self.conditions_of(state, combatant_id)):
                state = log(
                    state,
                    N_("{name} still lies prone: standing up costs half the movement{key}."),
                    name=who(state, combatant),
                    key=hint(END_CONDITION_KEY),
                )
        return super().on_status(state, combatant_id, before)

    # -- the death saving throw ----------------------------------------------------------------------
    def on_turn_start(self, state: State, slot: int) -> State:
        state = super().on_turn_start(state, slot)
        if not 0 <= slot < len(state.order):
            return state
        for combatant_id in state.order[slot].combatants:
            record = self.dying_of(state, combatant_id)
            if record is None or record.dead or record.stable:
                continue
            state = self.set_dying(state, combatant_id, replace(record, due=True))
            state = log(
                state,
                N_("{name} is dying: a death saving throw now{key}."),
                facts={"death_save_due": True},
                name=named(state, combatant_id),
                key=hint(DEATH_SAVE_KEY),
            )
        return state

    def death_save_fields(self) -> tuple[FieldSpec, ...]:
        return (FieldSpec(key="roll", label=N_("Death saving throw"), kind="roll", default=data().death.dice),)

    def death_save(self, state: State, combatant: Combatant, args: dict[str, Any]) -> State:
        record = self.dying_of(state, combatant.id)
        if record is None or record.dead:
            raise RuleError(_("{name} is not dying.", name=combatant.name))
        if record.stable:
            raise RuleError(_("{name} is stable: no more death saving throws.", name=combatant.name))
        if not record.due:
            raise RuleError(_("{name}'s death saving throw comes at the start of the next turn.", name=combatant.name))
        rolled: Roll = roll_arg(args, "roll", N_("Death saving throw"))
        rules = data().death
        natural = rolled.total
        record = replace(record, due=False)
        state = log(
            state,
            N_("{name} makes a death saving throw: {roll}."),
            rolls=(rolled,),
            facts={"death_save": natural},
            name=who(state, combatant),
            roll=roll_param(rolled),
        )
        if natural >= rules.regain_on:
            state = self.set_dying(state, combatant.id, None)
            state = log(
                state,
                N_("{name} rolls a natural {natural}: 1 hit point regained, awake."),
                facts={"woke": True},
                name=who(state, combatant),
                natural=natural,
            )
            # The engine's own healing keeps the hit points, the status and the log in one place.
            return apply(state, actions.Heal(combatant=combatant.id, amount=1))
        if natural <= rules.double_failure_on:
            return self.saves_now(
                state, combatant, replace(record, failures=record.failures + 2), Msg(id=N_("a natural 1: two failures"))
            )
        if natural >= rules.success_from:
            return self.saves_now(
                state, combatant, replace(record, successes=record.successes + 1), Msg(id=N_("a success"))
            )
        return self.saves_now(state, combatant, replace(record, failures=record.failures + 1), Msg(id=N_("a failure")))
