"""Shared set-up for the OSE / Dolmenwood tests: the demo fight, small fights, typed dice, walking the order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tests.common import labels, typed
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.dice import Roll
from tui_combat.engine.encounter import ENCOUNTER_DIR, encounter_actions, load_encounter
from tui_combat.engine.log import render
from tui_combat.engine.model import State
from tui_combat.rulesets.ose import RULESET

DEMO = ENCOUNTER_DIR / "demo_ose.toml"
# Ids in the demo (sides and groups take an id too).
PARTY, GOBLIN_SIDE, OGRE_SIDE = "s1", "s6", "s12"
AMBROSE, WENDEL, PIPKIN, THISTLE = "c2", "c3", "c4", "c5"
GOBLINS = ("c8", "c9", "c10", "c11")
OGRE = "c13"


def d6(total: int) -> Roll:
    return typed("1d6", total)


def play(state: State, actions: list[a.Action]) -> State:
    for action in actions:
        state = apply(state, action)
    return state


def demo() -> State:
    """The demo encounter, set up (not started)."""
    state = State(seed=1)
    return play(state, encounter_actions(load_encounter(DEMO), state))


def build(sides: Mapping[str, list[tuple[str, int, dict[str, Any]]]]) -> State:
    """A fight of our own: sides s1, s2 … (a side takes an id, then its combatants theirs)."""
    state = apply(State(seed=1), a.SetRuleset(ruleset="ose"))
    for number, (name, members) in enumerate(sides.items()):
        state = apply(state, a.AddSide(name=name, is_party=number == 0))
        side = state.sides[-1].id
        for member, hp, sheet in members:
            state = apply(state, a.AddCombatants(side=side, name=member, hp=hp, sheet=sheet))
    return state


def started(state: State) -> State:
    return apply(state, a.StartFight()) if state.phase == "setup" else state


def declare(state: State, combatant: str, intent: str, what: str = "") -> State:
    return apply(started(state), a.Declare(combatant=combatant, declaration={"intent": intent, "what": what}))


def roll_initiative(state: State, totals: Mapping[str, int]) -> State:
    """From the declarations (starting the fight if need be): on to initiative, every side's 1d6 typed."""
    state = started(state)
    if RULESET.steps(state)[state.step].kind == "declare":
        state = apply(state, a.NextStep())
    return apply(state, a.RollInitiative(rolls={key: d6(total) for key, total in totals.items()}))


def members(state: State, label: str) -> list[str]:
    names = state.names()
    return [names[c] for c in state.order[labels(state).index(label)].combatants]


def to_slot(state: State, label: str) -> State:
    """Press *next* until the cursor is on the slot ``label``."""
    for _ in range(len(state.order) + 1):
        if RULESET.steps(state)[state.step].kind == "resolve" and render(state.order[state.cursor].label) == label:
            return state
        state = apply(state, a.NextStep())
    raise AssertionError(f"never reached {label}")


def act(state: State, name: str, **args: Any) -> State:
    return apply(state, a.RulesetAction(name=name, args=args))


def last_texts(state: State, count: int) -> list[str]:
    return [entry.text for entry in state.log_entries()[-count:]]


def to_step(state: State, step_id: str) -> State:
    """Press *next* (rolling any initiative asked for, 6, 5, 4 … so that nobody ties) until the step
    ``step_id`` of this round or the next."""
    for _ in range(200):
        step = RULESET.steps(state)[state.step]
        if step.id == step_id:
            return state
        if step.kind == "initiative" and not state.initiative.settled:
            requests = state.initiative.pending or RULESET.initiative_requests(state)
            state = apply(state, a.RollInitiative(rolls={r.key: d6(6 - n) for n, r in enumerate(requests)}))
        else:
            state = apply(state, a.NextStep())
    raise AssertionError(f"never reached the step {step_id}")


def next_round(state: State) -> State:
    this = state.round
    while state.round == this:
        state = to_step(state, "morale")
        state = apply(state, a.NextStep())
    return state
