"""Initiative in stages: what a ruleset calls from :meth:`Ruleset.settle_initiative`.

The engine keeps every roll taken this round (``State.initiative.rolls``, faces included) and the rolls
the ruleset still asks for (``State.initiative.pending``). A ruleset answers each batch of rolls with
:func:`settle` (the order stands) or :func:`ask` (roll these too: a tie reroll, a roll-off, a critical
event). Pending requests are part of the state, so they survive a restart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from msgspec.structs import replace

from tui_combat.engine.dice import Roll
from tui_combat.engine.log import Msg
from tui_combat.engine.model import Initiative, RollRequest, Slot, State


def totals(requests: Iterable[RollRequest], rolls: Mapping[str, Roll]) -> dict[str, int]:
    """Request key → roll total plus the request's modifier, for the requests that were rolled."""
    return {r.key: rolls[r.key].total + r.modifier for r in requests if r.key in rolls}


def settle(state: State, order: tuple[Slot, ...] | list[Slot]) -> State:
    """The order stands."""
    return replace(state, order=tuple(order), cursor=0, initiative=replace(state.initiative, pending=(), settled=True))


def ask(state: State, requests: tuple[RollRequest, ...] | list[RollRequest]) -> State:
    """The order needs these rolls too; keys must differ from the rolls already taken."""
    taken = state.initiative.rolls
    clash = [r.key for r in requests if r.key in taken]
    if clash:
        raise ValueError(f"roll keys already used this round: {clash}")
    return replace(state, initiative=replace(state.initiative, pending=tuple(requests), settled=False))


def reset(state: State) -> State:
    """A new round of rolling (the order is rolled again)."""
    return replace(state, order=(), cursor=0, initiative=Initiative())


def fresh_key(state: State, base: str) -> str:
    """``base``, or ``base#2``, ``base#3`` … so that a follow-up roll gets a key of its own."""
    key, number = base, 1
    while key in state.initiative.rolls or any(r.key == key for r in state.initiative.pending):
        number += 1
        key = f"{base}#{number}"
    return key


def group_slots(values: Mapping[str, int], *, descending: bool, prefix: str = "", free: bool = False) -> list[Slot]:
    """Combatant id → initiative value, as slots: equal values share one slot."""
    by_value: dict[int, list[str]] = {}
    for combatant_id, value in values.items():
        by_value.setdefault(value, []).append(combatant_id)
    return [
        Slot(
            label=Msg(id=prefix + "{value}", params={"value": value})
            if prefix
            else Msg(id="{value}", params={"value": value}),
            combatants=tuple(ids),
            value=value,
            free=free,
        )
        for value, ids in sorted(by_value.items(), reverse=descending)
    ]
