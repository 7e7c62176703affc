"""The contract as a popcorn-initiative game and an initiative deck need it: an initiative step without dice (the GM
picks who opens), *next* refused until the one acting hands the turn on, boxes of stress ticked by a hit and cleared
by a heal in the ruleset's own state, health shown as the book counts it, and a step of the ruleset's own after
initiative entered once the order stands."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from tests.common import ids, registered
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply, initiative_asked
from tui_combat.engine.audience import who
from tui_combat.engine.contract import ActionSpec, Health, NoState, Ruleset, StepDef
from tui_combat.engine.dice import physical
from tui_combat.engine.errors import RuleError
from tui_combat.engine.initiative import settle
from tui_combat.engine.log import Msg, log
from tui_combat.engine.model import RollRequest, Slot, State
from tui_combat.engine.public import public_view
from tui_combat.i18n import N_, _

BOXES = 2


class Turns(msgspec.Struct, frozen=True, kw_only=True):
    passed: bool = False
    """The one acting has handed the turn on."""


class Stress(msgspec.Struct, frozen=True, kw_only=True):
    ticked: dict[str, int] = msgspec.field(default_factory=dict)
    """Combatant id → boxes of stress ticked."""


class Popcorn(Ruleset[Turns, Stress]):
    """The GM picks who opens; whoever acts hands the turn on (key p) before *next*; a hit ticks a box of stress,
    two ticked take him out; a heal clears them all."""

    id = "popcorn"
    name = "Popcorn"
    round_state_type = Turns
    fight_state_type = Stress
    health_label = N_("Stress")
    actions = (ActionSpec(name="open", key="o", label=N_("Opens")), ActionSpec(name="pass", key="p", label=N_("Pass")))

    def steps(self, state: State) -> tuple[StepDef, ...]:
        return (
            StepDef(id="open", label=N_("Who opens"), kind="initiative", dice=False, help=N_("o on the one who opens")),
            StepDef(id="turns", label=N_("Turns"), kind="resolve"),
            StepDef(id="end", label=N_("End of round"), kind="end"),
        )

    def action_available(self, state: State, name: str, combatant_id: str | None) -> bool:
        kind = self.step_kind(state)
        return (kind == "initiative") if name == "open" else (kind == "resolve" and combatant_id in state.acting_now())

    def apply_action(self, state: State, name: str, args: dict[str, Any]) -> State:
        actor = self.actor(state, str(args.get("combatant", "")))
        if name == "open":
            others = [c.id for c in state.combatants if c.id != actor.id and c.status == "active"]
            return settle(
                state,
                [
                    Slot(label=Msg(id="{name}", params={"name": actor.name}), combatants=(actor.id,)),
                    *(
                        Slot(label=Msg(id="{name}", params={"name": state.combatant(c).name}), combatants=(c,))
                        for c in others
                    ),
                ],
            )
        return self.with_round(state, Turns(passed=True))

    def on_turn_start(self, state: State, slot: int) -> State:
        return self.with_round(state, Turns())

    def may_end_turn(self, state: State, slot: int) -> str | None:
        if self.round_of(state).passed:
            return None
        return _("{name} hands the turn on first: key p.", name=state.combatant(state.order[slot].combatants[0]).name)

    def after_damage(self, state: State, combatant: Any, amount: int, *, critical: bool = False) -> Health:
        stress = self.fight_of(state)
        ticked = min(stress.ticked.get(combatant.id, 0) + 1, BOXES)
        return Health(
            hp=combatant.hp,
            status="down" if ticked >= BOXES else combatant.status,
            fight_state=replace(stress, ticked={**stress.ticked, combatant.id: ticked}),
        )

    def after_healing(self, state: State, combatant: Any, amount: int) -> Health:
        return Health(hp=combatant.hp, status="active")

    def on_healing(self, state: State, combatant_id: str, amount: int) -> State:
        stress = self.fight_of(state)
        cleared = {cid: boxes for cid, boxes in stress.ticked.items() if cid != combatant_id}
        return log(
            self.with_fight(state, Stress(ticked=cleared)), N_("{name}: stress cleared."), name=who(state, combatant_id)
        )

    def health_shown(self, state: State, combatant_id: str, *, brief: bool = False) -> str:
        return f"{self.fight_of(state).ticked.get(combatant_id, 0)}/{BOXES}"


def fight() -> State:
    state = State(seed=1)
    for action in (
        a.SetRuleset(ruleset="popcorn"),
        a.AddSide(name="Crew", is_party=True),
        a.AddSide(name="Thugs"),
        a.AddCombatants(side="s1", name="Ada", hp=1),
        a.AddCombatants(side="s2", name="Thug", hp=1),
        a.StartFight(),
    ):
        state = apply(state, action)
    return state


def test_an_initiative_step_without_dice_asks_no_roll_and_waits_for_the_opener() -> None:
    with registered(Popcorn()):
        state = fight()
        assert initiative_asked(Popcorn(), state) == ((), False)
        with pytest.raises(RuleError, match="^No dice are rolled for Who opens: o on the one who opens$"):
            apply(state, a.RollInitiative(rolls={}))
        with pytest.raises(RuleError, match="^The order does not stand yet: o on the one who opens$"):
            apply(state, a.NextStep())
        thug = ids(state)["Thug"]
        state = apply(state, a.RulesetAction(name="open", args={"combatant": thug}))
        state = apply(state, a.NextStep())
        assert state.acting_now() == (thug,)


def test_next_is_refused_until_the_one_acting_hands_the_turn_on() -> None:
    with registered(Popcorn()):
        state = fight()
        ada, thug = ids(state)["Ada"], ids(state)["Thug"]
        state = apply(apply(state, a.RulesetAction(name="open", args={"combatant": ada})), a.NextStep())
        with pytest.raises(RuleError, match="^Ada hands the turn on first: key p.$"):
            apply(state, a.NextStep())
        state = apply(apply(state, a.RulesetAction(name="pass", args={"combatant": ada})), a.NextStep())
        assert state.acting_now() == (thug,)
        with pytest.raises(RuleError, match="^Thug hands the turn on first"):
            apply(state, a.NextStep())  # the last turn of the round too


def test_a_hit_ticks_stress_in_the_ruleset_s_state_and_a_heal_clears_it() -> None:
    rules = Popcorn()
    with registered(rules):
        state = fight()
        thug = ids(state)["Thug"]
        state = apply(state, a.Damage(combatant=thug, amount=3))
        assert rules.fight_of(state).ticked == {thug: 1} and state.combatant(thug).status == "active"
        state = apply(state, a.Damage(combatant=thug, amount=3))
        assert rules.fight_of(state).ticked == {thug: 2} and state.combatant(thug).status == "down"
        state = apply(state, a.Heal(combatant=thug, amount=1))
        assert rules.fight_of(state).ticked == {} and state.combatant(thug).status == "active"
        assert state.log_entries()[-1].text == "Thug: stress cleared."


def test_the_players_see_health_as_the_book_counts_it() -> None:
    with registered(Popcorn()):
        state = fight()
        ada = ids(state)["Ada"]
        state = apply(state, a.Damage(combatant=ada, amount=3))
        crew = [c for group in public_view(state).groups for c in group.combatants if c.name == "Ada"]
        assert [c.figure for c in crew] == ["Stress 1/2"]


class Deck(Ruleset[NoState, NoState]):
    """One card each (typed as a number), highest first; the swaps of cards are a step of their own after it."""

    id = "deck"
    name = "Deck"
    round_state_type = NoState
    fight_state_type = NoState

    def steps(self, state: State) -> tuple[StepDef, ...]:
        return (
            StepDef(id="deal", label=N_("Deal"), kind="initiative"),
            StepDef(id="swaps", label=N_("Swaps"), kind="other"),
            StepDef(id="turns", label=N_("Turns"), kind="resolve"),
            StepDef(id="end", label=N_("End of round"), kind="end"),
        )

    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        return tuple(
            RollRequest(key=c.id, label=Msg(id="{name}", params={"name": c.name}), dice="1d10", combatants=(c.id,))
            for c in state.combatants
        )


def test_the_step_of_the_ruleset_s_own_after_initiative_is_entered_once_the_order_stands() -> None:
    with registered(Deck()):
        state = State(seed=1)
        for action in (
            a.SetRuleset(ruleset="deck"),
            a.AddSide(name="A"),
            a.AddSide(name="B"),
            a.AddCombatants(side="s1", name="Ada", hp=3),
            a.AddCombatants(side="s2", name="Bo", hp=3),
            a.StartFight(),
        ):
            state = apply(state, action)
        who = ids(state)
        state = apply(
            state, a.RollInitiative(rolls={who["Ada"]: physical("1d10", "4"), who["Bo"]: physical("1d10", "9")})
        )
        assert Deck().steps(state)[state.step].id == "swaps"
        state = apply(state, a.NextStep())
        assert Deck().steps(state)[state.step].id == "turns" and state.acting_now() == (who["Bo"],)


class Nobody(Ruleset[NoState, NoState]):
    """Asks no initiative roll, and the default order of no rolls is empty."""

    id = "nobody"
    name = "Nobody"
    round_state_type = NoState
    fight_state_type = NoState


def test_a_roll_where_none_is_asked_never_settles_an_empty_order_in_silence() -> None:
    with registered(Nobody()):
        state = State(seed=1)
        for action in (
            a.SetRuleset(ruleset="nobody"),
            a.AddSide(name="A"),
            a.AddSide(name="B"),
            a.AddCombatants(side="s1", name="Ada", hp=3),
            a.AddCombatants(side="s2", name="Bo", hp=3),
            a.StartFight(),
        ):
            state = apply(state, action)
        with pytest.raises(RuleError, match="^No initiative roll is asked for now, and nobody would act"):
            apply(state, a.RollInitiative(rolls={}))
