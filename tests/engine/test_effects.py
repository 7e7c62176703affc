"""Conditions and effects lasting some rounds, kept by the engine for every ruleset: put on by name and
rounds, counted down at the round's end (or at the end of the combatant's turn when the ruleset says so),
ended with a log line; a name from the ruleset's list is kept as its message id."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar, Literal

import pytest

from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import apply
from tui_combat.engine.contract import NoState, Ruleset, StepDef
from tui_combat.engine.errors import RuleError
from tui_combat.engine.initiative import settle
from tui_combat.engine.log import Msg
from tui_combat.engine.model import Slot, State
from tui_combat.i18n import N_, use_catalog


class TwoSlots(Ruleset[NoState, NoState]):
    """Each round: Ada's slot, then Orc's; then the round's end."""

    id = "test-effects"
    name = "Effects"
    round_state_type = NoState
    fight_state_type = NoState

    def steps(self, state: State) -> tuple[StepDef, ...]:
        return (
            StepDef(id="resolve", label=N_("Resolve"), kind="resolve"),
            StepDef(id="end", label=N_("End of round"), kind="end"),
        )

    def on_round_start(self, state: State) -> State:
        return settle(state, [Slot(label=Msg(id=c.name), combatants=(c.id,)) for c in state.combatants])

    def effect_names(self) -> tuple[str, ...]:
        return (N_("Blessed"), N_("Stunned"))


class TurnByTurn(TwoSlots):
    id = "test-effects-turns"
    effects_count_down: ClassVar[Literal["round", "turn"]] = "turn"


@pytest.fixture(autouse=True)
def rulesets() -> Iterator[None]:
    registry.register(TwoSlots())
    registry.register(TurnByTurn())
    yield
    registry.forget()


def fight(ruleset_id: str = "test-effects") -> State:
    state = State(seed=1)
    for action in (
        a.SetRuleset(ruleset=ruleset_id),
        a.AddSide(name="Party", is_party=True),
        a.AddSide(name="Orcs"),
        a.AddCombatants(side="s1", name="Ada", hp=10),
        a.AddCombatants(side="s2", name="Orc", hp=6),
        a.StartFight(),
    ):
        state = apply(state, action)
    assert state.phase == "round" and state.round == 1
    return state


def ids(state: State) -> dict[str, str]:
    return {c.name: c.id for c in state.combatants}


def texts(state: State, last: int) -> list[str]:
    return [entry.text for entry in state.log_entries()[-last:]]


def left(state: State) -> list[tuple[str, str, int]]:
    names = state.names()
    return [(names[e.combatant], str(e.label), e.rounds) for e in state.effects]


def test_an_effect_of_two_rounds_runs_out_at_the_end_of_the_second() -> None:
    state = fight()
    state = apply(state, a.AddEffect(combatant=ids(state)["Ada"], name="Held", rounds=2))
    assert texts(state, 1) == ["Ada: Held for 2 rounds."]
    state = apply(apply(state, a.NextStep()), a.NextStep())  # Orc's slot, then the end of round 1
    assert state.step == 1 and left(state) == [("Ada", "Held", 1)]
    state = apply(state, a.NextStep())  # round 2
    assert state.round == 2 and left(state) == [("Ada", "Held", 1)]
    state = apply(apply(state, a.NextStep()), a.NextStep())  # the end of round 2: none left
    assert left(state) == []
    assert texts(state, 2) == ["End of round 2.", "Held on Ada has run out."]


def test_a_ruleset_name_is_kept_as_its_id_and_shown_in_the_gms_language() -> None:
    state = fight()
    russian = {"Blessed": "Благословлён", "{name}: {effect} for {n} rounds.": "{name}: {effect} на {n} раунда."}
    use_catalog("xx", russian)
    try:
        state = apply(state, a.AddEffect(combatant=ids(state)["Orc"], name="благословлён", rounds=3))
        assert texts(state, 1) == ["Orc: Благословлён на 3 раунда."]
    finally:
        use_catalog("en", {})
    assert state.effects[0].label == Msg(id="Blessed")
    assert texts(state, 1) == ["Orc: Blessed for 3 rounds."]
    # The same name again sets its rounds anew, it is not put on twice.
    state = apply(state, a.AddEffect(combatant=ids(state)["Orc"], name="BLESSED", rounds=5))
    assert left(state) == [("Orc", "Blessed", 5)]


def test_counted_turn_by_turn_an_effect_ends_with_its_combatants_turn() -> None:
    state = fight("test-effects-turns")
    state = apply(state, a.AddEffect(combatant=ids(state)["Orc"], name="Stunned", rounds=1))
    state = apply(state, a.AddEffect(combatant=ids(state)["Ada"], name="Stunned", rounds=2))
    state = apply(state, a.NextStep())  # Ada's turn ends: hers counts down, the Orc's does not
    assert left(state) == [("Orc", "Stunned", 1), ("Ada", "Stunned", 1)]
    state = apply(state, a.NextStep())  # the Orc's turn ends: his runs out, before the round's end
    assert left(state) == [("Ada", "Stunned", 1)]
    assert texts(state, 2) == ["Stunned on Orc has run out.", "End of round 1."]


def test_an_effect_ended_early_says_so_and_bad_input_is_refused() -> None:
    state = fight()
    ada = ids(state)["Ada"]
    state = apply(state, a.AddEffect(combatant=ada, name="Held", rounds=4))
    state = apply(state, a.EndEffect(effect=state.effects[0].id))
    assert state.effects == () and texts(state, 1) == ["Held on Ada ends."]
    for name, rounds in (("", 2), ("Held", 0), ("Held", 1001), ("x" * 41, 2)):
        with pytest.raises(RuleError):
            apply(state, a.AddEffect(combatant=ada, name=name, rounds=rounds))
    with pytest.raises(RuleError):
        apply(state, a.EndEffect(effect=99))


def test_one_round_is_one_round() -> None:
    state = apply(fight(), a.AddEffect(combatant=ids(fight())["Ada"], name="Held", rounds=1))
    assert texts(state, 1) == ["Ada: Held for 1 round."]
