"""Adding to a fight: newcomers continue the numbering of their namesakes, and two sides never share a name.

The names are worked out by hand from the AD&D 2e demo: Raf, Rupert and Delsenora (Party, s1); Troll 1–3
(one group) and Orc 1–6 (one group) on the Monsters' side (s5).
"""

from __future__ import annotations

import pytest

from tests.common import DEMO
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply, new_names
from tui_combat.engine.encounter import encounter_actions, load_encounter
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State

PARTY, MONSTERS = "s1", "s5"


def demo() -> State:
    state = State(seed=1)
    for action in encounter_actions(load_encounter(DEMO), state):
        state = apply(state, action)
    return state


def in_the_fight() -> State:
    state = apply(demo(), a.StartFight())
    assert (state.phase, state.round) == ("round", 1)
    return state


def added(state: State, before: State) -> list[str]:
    return [c.name for c in state.combatants[len(before.combatants) :]]


def test_the_demo_is_as_the_names_below_assume() -> None:
    names = [c.name for c in demo().combatants]
    assert names == [
        "Raf",
        "Rupert",
        "Delsenora",
        "Troll 1",
        "Troll 2",
        "Troll 3",
        "Orc 1",
        "Orc 2",
        "Orc 3",
        "Orc 4",
        "Orc 5",
        "Orc 6",
    ]


def test_five_orcs_added_mid_fight_are_orc_7_to_orc_11_in_a_group_of_their_own() -> None:
    before = in_the_fight()
    after = apply(before, a.AddCombatants(side=MONSTERS, name="orc", hp=5, count=5))
    assert added(after, before) == ["Orc 7", "Orc 8", "Orc 9", "Orc 10", "Orc 11"]
    new = after.combatants[len(before.combatants) :]
    old_group = before.combatants[-1].group
    assert len({c.group for c in new}) == 1 and new[0].group not in ("", old_group)
    assert len({c.id for c in after.combatants}) == len(after.combatants) == 17
    assert after.log_entries()[-1].text == "5 × Orc join the fight."


def test_the_numbering_goes_on_from_the_highest_number_whatever_group_or_side() -> None:
    state = demo()
    friends = apply(state, a.AddCombatants(side=PARTY, name="Orc", hp=6, count=2))
    assert added(friends, state) == ["Orc 7", "Orc 8"]  # on the party's side, still after the monsters' orcs
    orc_7 = next(c.id for c in friends.combatants if c.name == "Orc 7")
    without_7 = apply(friends, a.RemoveCombatant(combatant=orc_7))
    more = apply(without_7, a.AddCombatants(side=MONSTERS, name="ORC", hp=5, count=3))
    assert added(more, without_7) == ["Orc 9", "Orc 10", "Orc 11"]  # Orc 8 is the highest left


def test_one_newcomer_keeps_a_free_name_and_is_numbered_when_it_is_taken() -> None:
    state = demo()
    assert new_names(state, "Goblin", 1) == ["Goblin"]
    assert new_names(state, "Goblin 5", 1) == ["Goblin 5"]
    assert new_names(state, "raf", 1) == ["Raf 2"]  # Raf himself stays Raf
    assert new_names(state, "Troll", 1) == ["Troll 4"]
    assert new_names(state, "Orc 3", 1) == ["Orc 7"]  # Orc 3 is there: the next orc
    assert new_names(state, "Ogre", 3) == ["Ogre 1", "Ogre 2", "Ogre 3"]
    assert new_names(state, "Raf", 2) == ["Raf 2", "Raf 3"]
    after = apply(state, a.AddCombatants(side=PARTY, name="Rupert", hp=10))
    assert added(after, state) == ["Rupert 2"]


def test_two_sides_cannot_share_a_name() -> None:
    state = demo()
    with pytest.raises(RuleError, match="already a side called Monsters"):
        apply(state, a.AddSide(name="  monsters "))
    with pytest.raises(RuleError, match="already a side called Party"):
        apply(in_the_fight(), a.AddSide(name="PARTY", is_party=True))
    after = apply(state, a.AddSide(name="Reinforcements"))
    assert [side.name for side in after.sides] == ["Party", "Monsters", "Reinforcements"]
