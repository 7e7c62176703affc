"""Helpers for the D&D 5e tests: build a fight from sides of (name, hp, sheet[, count]), a d20 typed from
real dice, and short readers of the order, the log and the budget. Dice that show the faces we choose, and
the readers other rulesets share, are in ``tests.common``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tests.common import ids, typed
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.dice import Roll
from tui_combat.engine.log import LogEntry
from tui_combat.engine.model import State
from tui_combat.rulesets.dnd5e import RULESET

Member = tuple[Any, ...]
"""(name, hp, sheet) or (name, hp, sheet, count)."""


def d20(total: int) -> Roll:
    return typed("1d20", total)


def fight(sides: Mapping[str, Sequence[Member]], **options: str) -> State:
    """A fight in set-up: sides s1, s2 … in order (the first is the party), then their combatants, then options."""
    actions: list[a.Action] = [a.SetRuleset(ruleset="dnd5e")]
    actions += [a.AddSide(name=name, is_party=number == 0) for number, name in enumerate(sides)]
    for number, members in enumerate(sides.values()):
        for member in members:
            count = member[3] if len(member) == 4 else 1
            actions.append(
                a.AddCombatants(side=f"s{number + 1}", name=member[0], hp=member[1], sheet=member[2], count=count)
            )
    actions += [a.SetOption(key=key, value=value) for key, value in options.items()]
    return play(State(seed=1), *actions)


def play(state: State, *actions: a.Action) -> State:
    for action in actions:
        state = apply(state, action)
    return state


def values(state: State) -> list[int]:
    return [slot.value for slot in state.order]


def texts(state: State, round_number: int | None = None) -> list[str]:
    return [e.text for e in state.log_entries() if round_number is None or e.round == round_number]


def entry(state: State, start: str) -> LogEntry:
    return next(e for e in reversed(state.log_entries()) if e.text.startswith(start))


def step(state: State) -> str:
    return RULESET.steps(state)[state.step].id


def budget(state: State, name: str) -> dict[str, tuple[int, int]]:
    return {line.label: (line.left, line.total) for line in RULESET.budget(state, ids(state)[name])}


def act(state: State, action: str, who: str, /, **args: Any) -> State:
    return apply(state, a.RulesetAction(name=action, args={"combatant": ids(state)[who], **args}))


def next_until(state: State, name: str) -> State:
    """Next, until ``name``'s turn (at most 20 steps)."""
    for _step in range(20):
        if name in [state.names()[c] for c in state.acting_now()] and RULESET.step_kind(state) == "resolve":
            return state
        state = apply(state, a.NextStep())
    raise AssertionError(f"{name}'s turn never came")
