"""The OSE attack form's targets, kept from state to state, are those worked out from the whole state, in any state
of the demo fight: the declarations made (a fleer), the turns gone by (a fleer out of reach), damage, healing, a
fall, a return to an earlier state."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.rulesets.ose_fight import (
    AMBROSE,
    GOBLIN_SIDE,
    GOBLINS,
    OGRE_SIDE,
    PARTY,
    act,
    declare,
    demo,
    roll_initiative,
)
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.rulesets.ose import RULESET


def worked_out(state: State, attacker_id: str) -> tuple[tuple[str, str], ...]:
    attacker = state.combatant(attacker_id)
    missile = RULESET.attacks_by_missile(state, attacker)
    return tuple(
        (c.id, RULESET.target_label(state, c, missile))
        for c in state.combatants
        if c.side != attacker.side and c.status == "active"
    )


def the_fight() -> State:
    return roll_initiative(declare(demo(), AMBROSE, "flee"), {PARTY: 5, GOBLIN_SIDE: 2, OGRE_SIDE: 1})


steps = st.lists(
    st.one_of(
        st.just(("next", 0, 0)),
        st.tuples(st.just("damage"), st.integers(0, 20), st.integers(1, 12)),
        st.tuples(st.just("heal"), st.integers(0, 20), st.integers(1, 5)),
        st.just(("move", 0, 0)),
        st.tuples(st.just("back"), st.integers(0, 40), st.just(0)),
    ),
    max_size=20,
)


def stepped(state: State, step: tuple[str, int, int]) -> State:
    kind, number, amount = step
    target = state.combatants[number % len(state.combatants)].id
    action: a.Action = a.NextStep()
    if kind == "damage":
        action = a.Damage(combatant=target, amount=amount)
    elif kind == "heal":
        action = a.Heal(combatant=target, amount=amount)
    elif kind == "move":
        return act(state, "move", combatant=AMBROSE)
    return apply(state, action)


@settings(max_examples=80, deadline=None)
@given(steps=steps)
@example(steps=[("move", 0, 0)] + [("next", 0, 0)] * 4)  # (the fleer out of reach once the cursor moves on)
def test_the_kept_targets_are_those_worked_out(steps: list[tuple[str, int, int]]) -> None:
    state = the_fight()
    states = [state]
    for step in steps:
        if step[0] == "back":
            state = states[step[1] % len(states)]
        else:
            try:
                state = stepped(state, step)
            except RuleError:  # (a move out of turn, the dead healed)
                continue
            states.append(state)
        for attacker in (GOBLINS[0], AMBROSE):
            if state.phase == "round" and state.combatant(attacker).status == "active":
                assert RULESET.attack_fields(state, state.combatant(attacker))[0].choices == worked_out(state, attacker)


def test_a_fleer_is_listed_as_fleeing_then_out_of_reach() -> None:
    state = the_fight()
    before = dict(RULESET.attack_fields(state, state.combatant(GOBLINS[0]))[0].choices)[AMBROSE]
    state = act(state, "move", combatant=AMBROSE)
    while state.combatant(GOBLINS[0]).id not in state.acting_now():
        state = apply(state, a.NextStep())
    after = dict(RULESET.attack_fields(state, state.combatant(GOBLINS[0]))[0].choices)[AMBROSE]
    assert before == "Sir Ambrose: fleeing melee, +2 to hit, AC 15 without shield"
    assert after == "Sir Ambrose: fled from melee, out of reach" == dict(worked_out(state, GOBLINS[0]))[AMBROSE]
