"""Looking a combatant up by id does not search the list: the state keeps an index beside it (not saved).
Whatever the state went through, the index answers what a search from the start would, the saved bytes
are those of the state's fields alone, and undo, redo and resuming give back the states they gave before."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from tui_combat.engine import actions as a
from tui_combat.engine import model
from tui_combat.engine.apply import apply
from tui_combat.engine.model import Combatant, State
from tui_combat.fight.store import Store, new_state

IDS = [f"c{n}" for n in range(1, 9)]


def linear(state: State, combatant_id: str) -> Combatant | None:
    return next((c for c in state.combatants if c.id == combatant_id), None)


def combatant(cid: str, name: str, hp: int) -> Combatant:
    return Combatant(id=cid, name=name, side="s1", hp=hp, max_hp=10)


# A step: replace one combatant (hp, or name too), add one, take one away, or rebuild the tuple (same ids).
steps = st.one_of(
    st.tuples(st.just("hp"), st.sampled_from(IDS), st.integers(-5, 10)),
    st.tuples(st.just("rename"), st.sampled_from(IDS), st.sampled_from(["Raf", "Ada", "Orc 1", "Тролль"])),
    st.tuples(st.just("add"), st.sampled_from(IDS), st.integers(0, 10)),
    st.tuples(st.just("remove"), st.sampled_from(IDS), st.just(0)),
    st.tuples(st.just("copy"), st.just(""), st.just(0)),
)


@settings(max_examples=150, deadline=None)
@given(start=st.lists(st.sampled_from(IDS), max_size=8), script=st.lists(steps, max_size=25), forget=st.booleans())
def test_lookups_agree_with_a_search_through_the_list(
    start: list[str], script: list[tuple[str, str, int]], forget: bool
) -> None:
    # Ids may repeat here (the engine never makes such a state): the first one is found, as a search finds it.
    state = State(combatants=tuple(combatant(cid, cid.upper(), 5) for cid in start))
    seen = [state]
    for kind, cid, value in script:
        if forget:
            model._INDEXES.clear()  # as if the index had been dropped: made again from the list
        else:
            state.names()  # made before the change: what the changed state shares must still hold
        if kind in ("hp", "rename") and state.has(cid):
            old = state.combatant(cid)
            new = replace(old, hp=value) if kind == "hp" else replace(old, name=str(value or cid))
            after = state.with_combatant(new)
            position = state.combatants.index(old)
            expected = (*state.combatants[:position], new, *state.combatants[position + 1 :])
            assert after.combatants == expected
            state = after
        elif kind == "add":
            state = replace(state, combatants=(*state.combatants, combatant(cid, f"New {cid}", value)))
        elif kind == "remove":
            state = replace(state, combatants=tuple(c for c in state.combatants if c.id != cid))
        elif kind == "copy":
            state = replace(state, combatants=tuple(list(state.combatants)))
        seen.append(state)
    for each in seen:  # every state along the way still answers for its own combatants
        for cid in IDS:
            found = linear(each, cid)
            assert each.has(cid) == (found is not None)
            if found is None:
                with pytest.raises(KeyError):
                    each.combatant(cid)
            else:
                assert each.combatant(cid) is found
                assert each.combatants[each.position(cid)] is found
        assert dict(each.names()) == {c.id: c.name for c in each.combatants}  # as the one pass always gave


def test_the_index_is_not_saved_and_an_old_state_decodes_the_same() -> None:
    state = State(combatants=(combatant("c1", "Raf", 5), combatant("c2", "Ada", 7)))
    before = msgspec.json.encode(state)
    state.combatant("c2")
    state.names()
    changed = state.with_combatant(replace(state.combatant("c2"), hp=3))
    assert msgspec.json.encode(state) == before
    decoded = msgspec.json.decode(msgspec.json.encode(changed), type=State)
    assert decoded == changed and msgspec.json.encode(decoded) == msgspec.json.encode(changed)
    assert decoded.combatant("c2").hp == 3 and decoded.names() == {"c1": "Raf", "c2": "Ada"}


def test_names_cannot_be_changed_through_the_answer() -> None:
    state = State(combatants=(combatant("c1", "Raf", 5),))
    with pytest.raises(TypeError):
        state.names()["c1"] = "Someone else"  # type: ignore[index]


def fight(folder: Path) -> Store:
    store = Store.create(new_state(seed=3, ruleset="adnd2e"), folder)
    store.dispatch(a.AddSide(name="Отряд", is_party=True))
    store.dispatch(a.AddSide(name="Orcs"))
    store.dispatch(a.AddCombatants(side="s1", name="Raf", hp=14))
    store.dispatch(a.AddCombatants(side="s2", name="Orc", hp=8, count=30))
    return store


def test_damage_heal_undo_redo_and_resume_give_the_same_states_and_bytes(tmp_path: Path) -> None:
    store = fight(tmp_path / "fight")
    states = [store.state]
    for n, target in enumerate(["c5", "c7", "c5", "c34", "c3"]):
        store.dispatch(a.Damage(combatant=target, amount=n + 2))
        states.append(store.state)
        store.dispatch(a.Heal(combatant=target, amount=1))
        states.append(store.state)
    assert store.state.names()["c7"] == "Orc 3"
    store.dispatch(a.EditCombatant(combatant="c7", name="Grishnak"))
    states.append(store.state)
    assert store.state.combatant("c7").name == "Grishnak" and store.state.names()["c7"] == "Grishnak"

    # The same actions on a state whose index was dropped before each one: the same states, byte for byte.
    model._INDEXES.clear()
    replayed = states[0]
    for action in store.done_actions()[-len(states) + 1 :]:
        model._INDEXES.clear()
        replayed = apply(replayed, action)
    assert msgspec.json.encode(replayed) == msgspec.json.encode(store.state)

    for expected in reversed(states[:-1]):
        store.undo()
        assert store.state == expected
        assert all(store.state.combatant(c.id) is c for c in store.state.combatants)
    for expected in states[1:]:
        store.redo()
        assert store.state == expected
        assert store.state.combatant("c5") == linear(expected, "c5")
    store.close()
    resumed = Store.resume(tmp_path / "fight")
    assert msgspec.json.encode(resumed.state) == msgspec.json.encode(states[-1])
    assert resumed.state.combatant("c7").name == "Grishnak"
    resumed.close()
