"""What changed between two states' combatants is known without comparing them all when one was made from the
other by replacing combatants (an action, or undo going back over it); whatever the states went through, the
answer is the one a comparison of every combatant gives, or "not known" (None), never another. The foes an
attack form lists, kept from state to state that way, are always those a pass over every combatant finds."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from tui_combat.engine import model
from tui_combat.engine.foes import foe_choices
from tui_combat.engine.model import Combatant, State, changed_places

IDS = [f"c{n}" for n in range(1, 9)]


def compared(before: tuple[Combatant, ...], after: tuple[Combatant, ...]) -> list[int]:
    return [place for place, (old, new) in enumerate(zip(before, after, strict=True)) if old is not new]


def start_state(sides: list[str]) -> State:
    return State(
        combatants=tuple(
            Combatant(id=cid, name=cid.upper(), side=side, hp=5, max_hp=10) for cid, side in zip(IDS, sides)
        )
    )


steps = st.one_of(
    st.tuples(st.just("hp"), st.sampled_from(IDS), st.integers(-5, 10)),
    st.tuples(st.just("status"), st.sampled_from(IDS), st.sampled_from(["active", "dead", "fled"])),
    st.tuples(st.just("rename"), st.sampled_from(IDS), st.sampled_from(["Raf", "Ada", "Orc 1", "Тролль"])),
    st.tuples(st.just("side"), st.sampled_from(IDS), st.sampled_from(["s1", "s2"])),
    st.tuples(st.just("same"), st.sampled_from(IDS), st.just(0)),
    st.tuples(st.just("copy"), st.just(""), st.just(0)),
    st.tuples(st.just("back"), st.just(""), st.integers(0, 30)),
)


def walk(state: State, script: list[tuple[str, str, object]], forget: bool) -> list[State]:
    seen = [state]
    for kind, cid, value in script:
        if forget:
            model._INDEXES.clear()
        if kind == "back":  # an undo: an earlier state again
            state = seen[int(str(value)) % len(seen)]
        elif kind == "copy":  # a new tuple of the same combatants (a state decoded, a rule rebuilding them)
            state = replace(state, combatants=tuple(list(state.combatants)))
        elif state.has(cid):
            old = state.combatant(cid)
            changes = {"hp": {"hp": value}, "status": {"status": value}, "rename": {"name": value}}
            new = old if kind == "same" else replace(old, **changes.get(kind, {"side": value}))  # type: ignore[arg-type]
            state = state.with_combatant(new)
        seen.append(state)
    return seen


@settings(max_examples=200, deadline=None)
@given(
    sides=st.lists(st.sampled_from(["s1", "s2"]), min_size=1, max_size=8),
    script=st.lists(steps, max_size=30),
    forget=st.booleans(),
)
def test_the_places_found_are_those_a_comparison_finds(
    sides: list[str], script: list[tuple[str, str, object]], forget: bool
) -> None:
    seen = walk(start_state(sides), script, forget)
    for before in seen:
        for after in seen:
            places = changed_places(before.combatants, after.combatants)
            if places is not None:
                assert places == compared(before.combatants, after.combatants)


@settings(max_examples=100, deadline=None)
@given(sides=st.lists(st.sampled_from(["s1", "s2"]), min_size=1, max_size=8), data=st.data())
def test_a_chain_of_replacements_is_followed_both_ways(sides: list[str], data: st.DataObject) -> None:
    script = data.draw(st.lists(steps.filter(lambda step: step[0] not in ("copy", "back")), max_size=20))
    seen = walk(start_state(sides), script, forget=False)
    for before, after in pairwise(seen):  # each action; undo is the way back
        assert changed_places(before.combatants, after.combatants) == compared(before.combatants, after.combatants)
        assert changed_places(after.combatants, before.combatants) == compared(before.combatants, after.combatants)
    first, last = seen[0], seen[-1]
    assert changed_places(first.combatants, last.combatants) == compared(first.combatants, last.combatants)


def test_a_long_chain_is_not_followed_past_its_limit_and_then_is_compared() -> None:
    state = start_state(["s1", "s2"])
    first = state
    for hp in range(model.CHANGES_FOLLOWED + 1):
        state = state.with_combatant(replace(state.combatants[hp % 2], hp=hp))
    assert changed_places(first.combatants, state.combatants) is None


@settings(max_examples=200, deadline=None)
@given(
    sides=st.lists(st.sampled_from(["s1", "s2"]), min_size=1, max_size=8),
    script=st.lists(steps, max_size=30),
    forget=st.booleans(),
    asked=st.lists(st.sampled_from(["s1", "s2", "s3"]), min_size=1, max_size=31),
)
def test_the_foes_listed_are_those_of_a_pass_over_every_combatant(
    sides: list[str], script: list[tuple[str, str, object]], forget: bool, asked: list[str]
) -> None:
    for position, state in enumerate(walk(start_state(sides), script, forget)):
        side = asked[position % len(asked)]
        expected = tuple((c.id, c.name) for c in state.combatants if c.side != side and c.status == "active")
        assert foe_choices(state, side) == expected
