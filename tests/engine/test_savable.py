"""The engine refuses, as an action is applied, what it could not save: a plugin that logs a list as a fact, or
keeps in its round state what does not read back into its type, gets a refusal naming the ruleset, the action and
the value, and the session saved before stays whole and writable (before, the fight played on and the snapshot
written at quit could not be read: the session opened read-only, as damaged)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.common import registered
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.contract import ActionSpec, NoState, Ruleset
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import log
from tui_combat.engine.model import State
from tui_combat.engine.savable import entry_problem
from tui_combat.fight.store import Store
from tui_combat.i18n import N_


class Tally(msgspec.Struct, frozen=True, kw_only=True):
    boxes: dict[int, int] = msgspec.field(default_factory=dict)
    """By box number: read back from JSON as text keys, which an ``int`` key refuses."""


class Careless(Ruleset[Tally, NoState]):
    """Logs what the GM marks as a list fact, and counts boxes by number in its round state."""

    id = "careless"
    name = "Careless"
    actions = (
        ActionSpec(name="mark", key="m", label=N_("Mark"), needs_combatant=False),
        ActionSpec(name="box", key="k", label=N_("Box"), needs_combatant=False),
        ActionSpec(name="fine", key="f", label=N_("Fine"), needs_combatant=False),
    )
    round_state_type = Tally
    fight_state_type = NoState

    def apply_action(self, state: State, name: str, args: dict[str, Any]) -> State:
        if name == "mark":
            return log(state, N_("Marked."), facts={"marked": [c.id for c in state.combatants]})  # type: ignore[dict-item]
        if name == "box":
            return self.with_round(state, Tally(boxes={1: 2}))
        return log(state, N_("Marked."), facts={"marked": len(state.combatants)})


def fight() -> State:
    state = State(seed=1)
    for action in (
        a.SetRuleset(ruleset="careless"),
        a.AddSide(name="Heroes", is_party=True),
        a.AddSide(name="Foes"),
        a.AddCombatants(side="s1", name="Ada", hp=5),
        a.AddCombatants(side="s2", name="Thug", hp=2),
        a.StartFight(),
    ):
        state = apply(state, action)
    return state


def test_a_list_fact_is_refused_naming_the_ruleset_the_action_and_the_fact() -> None:
    with registered(Careless()):
        state = fight()
        with pytest.raises(RuleError) as refused:
            apply(state, a.RulesetAction(name="mark"))
    assert str(refused.value) == (
        "Ruleset Careless: Mark is refused, as the fight could not be saved with it: "
        "the log fact marked is a list: a fact is an int, a str or a bool."
    )


def test_a_round_state_that_does_not_read_back_is_refused() -> None:
    with registered(Careless()):
        with pytest.raises(
            RuleError,
            match=r"^Ruleset Careless: Box is refused, .*round state does not read back "
            r"as Tally: Expected `int`, got `str` - at `key` in `\$.boxes`$",
        ):
            apply(fight(), a.RulesetAction(name="box"))


def test_the_session_saved_before_the_refusal_resumes_writable(tmp_path: Path) -> None:
    folder = tmp_path / "session"
    with registered(Careless()):
        store = Store.create(State(seed=1), folder)
        for action in (
            a.SetRuleset(ruleset="careless"),
            a.AddSide(name="Heroes", is_party=True),
            a.AddSide(name="Foes"),
            a.AddCombatants(side="s1", name="Ada", hp=5),
            a.AddCombatants(side="s2", name="Thug", hp=2),
            a.StartFight(),
        ):
            store.dispatch(action)
        saved = store.state
        with pytest.raises(RuleError, match="the log fact marked is a list"):
            store.dispatch(a.RulesetAction(name="mark"))
        assert store.state is saved
        store.save_now()  # what quitting writes
        store.close()

        resumed = Store.resume(folder)
        try:
            assert not resumed.read_only and not resumed.damaged
            assert resumed.state == saved
            resumed.dispatch(a.RulesetAction(name="fine"))
            assert resumed.state.log_entries()[-1].facts == {"marked": 2}
        finally:
            resumed.close()


@pytest.mark.parametrize(
    "facts, params, problem",
    [
        ({"n": 1.5}, {}, "the log fact n is a float"),
        ({"n": None}, {}, "the log fact n is a NoneType"),
        ({}, {"names": [["Ada"]]}, "the log line's parameter names[0] holds a list"),
        ({}, {"when": {"round": 1}}, "the log line's parameter when is a dict"),
        ({}, {"n": 1, "ok": True, "x": 0.5, "none": None, "names": ["Ada", 2]}, None),
    ],
)
def test_what_a_log_line_may_hold(facts: dict[str, Any], params: dict[str, Any], problem: str | None) -> None:
    entry = log(State(), N_("Marked."), facts=facts, **params).log_entries()[-1]
    found = entry_problem(entry)
    assert (found is None) if problem is None else (found is not None and found.startswith(problem)), found
