"""The AD&D family says its budget ignores the turn (``budget_ignores_the_turn``): the turn list then keeps a
combatant's budget until he, the round or fight state, the round, the step, the options or the sides change.
Here, along fights of random actions, the budget is the same whatever the cursor, the order, the effects, the
log and everyone else."""

from __future__ import annotations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.common import d10
from tui_combat.engine import actions as a
from tui_combat.engine.encounter import ENCOUNTER_DIR, load_encounter
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.engine.registry import get
from tui_combat.fight.store import Store, store_from_encounter

DEMOS = {"adnd2e": "demo_adnd2e.toml", "players_option": "demo_players_option.toml"}


def in_the_round(ruleset_id: str) -> Store:
    store = store_from_encounter(load_encounter(ENCOUNTER_DIR / DEMOS[ruleset_id]), seed=1)
    ruleset = get(store.state.ruleset)
    store.dispatch(a.BeginSurprise())
    store.dispatch(a.StartFight())
    while ruleset.step_kind(store.state) != "initiative":
        store.dispatch(a.NextStep())
    requests = ruleset.initiative_requests(store.state)
    store.dispatch(a.RollInitiative(rolls={r.key: d10(index + 3) for index, r in enumerate(requests)}))
    return store


def elsewhere(state: State, combatant_id: str) -> State:
    """``state`` at another turn: the cursor moved, the order reversed, no effects, no log, everyone else hurt."""
    others = tuple(c if c.id == combatant_id else msgspec.structs.replace(c, hp=c.hp - 1) for c in state.combatants)
    return msgspec.structs.replace(
        state,
        cursor=(state.cursor + 1) % max(len(state.order), 1),
        order=state.order[::-1],
        effects=(),
        log=(),
        combatants=others,
    )


def action(draw: st.DrawFn, state: State) -> a.Action:
    who = draw(st.sampled_from([c.id for c in state.combatants]))
    choices: list[a.Action] = [
        a.RulesetAction(name="attack", args={"combatant": who}),
        a.RulesetAction(name="main_action", args={"combatant": who}),
        a.Damage(combatant=who, amount=draw(st.integers(1, 6))),
        a.NextStep(),
        a.PreviousStep(),
    ]
    return draw(st.sampled_from(choices))


@settings(max_examples=25, deadline=None)
@given(ruleset_id=st.sampled_from(sorted(DEMOS)), data=st.data())
def test_the_budget_reads_nothing_of_the_turn(ruleset_id: str, data: st.DataObject) -> None:
    store = in_the_round(ruleset_id)
    ruleset = get(store.state.ruleset)
    assert ruleset.budget_ignores_the_turn
    for _ in range(data.draw(st.integers(1, 12))):
        try:
            store.dispatch(data.draw(st.composite(action)(store.state)))
        except RuleError:
            continue
        state = store.state
        for combatant in state.combatants:
            try:
                budget = ruleset.budget(state, combatant.id)
            except RuleError:
                continue
            assert ruleset.budget(elsewhere(state, combatant.id), combatant.id) == budget, combatant.name
