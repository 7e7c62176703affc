"""The fight's difficulty before it starts (5e): the 2014 thresholds and multipliers, the 2024 budget, with the
books' numbers."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import apply
from tui_combat.engine.model import State
from tui_combat.fight.store import new_state
from tui_combat.rulesets.dnd5e.data import data
from tui_combat.rulesets.dnd5e.difficulty import difficulty, difficulty_line, multiplier


def fight(levels: list[int], monsters: list[tuple[int, int]], **options: Any) -> State:
    """A 5e set-up: a party of ``levels``, and groups of (count, XP) monsters."""
    state = apply(new_state(seed=1, ruleset="adnd2e"), a.SetRuleset(ruleset="dnd5e"))
    for key, value in options.items():
        state = apply(state, a.SetOption(key=key, value=value))
    state = apply(state, a.AddSide(name="Party", is_party=True))
    state = apply(state, a.AddSide(name="Monsters"))
    party, foes = state.sides[0].id, state.sides[1].id
    for number, level in enumerate(levels):
        state = apply(state, a.AddCombatants(side=party, name=f"Hero {number}", hp=20, sheet={"level": level}))
    for number, (count, xp) in enumerate(monsters):
        state = apply(state, a.AddCombatants(side=foes, name=f"Foe {number}", hp=7, count=count, sheet={"xp": xp}))
    return state


def test_the_dmg_example_of_a_party_of_four() -> None:
    """DMG 2014: four 3rd-level characters have thresholds easy 300, medium 600, hard 900, deadly 1600;
    a bugbear (200) and three hobgoblins (100 each): 500 XP × 2 (four monsters) = 1000: hard."""
    found = difficulty(fight([3, 3, 3, 3], [(1, 200), (3, 100)]))
    assert found is not None
    assert found.thresholds == (300, 600, 900, 1600)
    assert (found.monsters, found.xp, found.factor, found.adjusted, found.word) == (4, 500, 2.0, 1000, "hard")


def test_multipliers_by_number_and_party_size() -> None:
    rules = data().encounter
    assert [multiplier(rules, n, 4) for n in (1, 2, 3, 6, 7, 10, 11, 14, 15, 30)] == [
        1,
        1.5,
        2,
        2,
        2.5,
        2.5,
        3,
        3,
        4,
        4,
    ]
    assert multiplier(rules, 1, 2) == 1.5 and multiplier(rules, 15, 2) == 5  # fewer than three: one step up
    assert multiplier(rules, 1, 6) == 0.5 and multiplier(rules, 2, 7) == 1  # six or more: one step down


def test_the_line_and_what_counts() -> None:
    state = fight([5, 5, 5, 5], [(4, 50), (1, 200)])
    assert difficulty_line(state) == (
        "Difficulty: trivial — 5 monsters, 400 XP × 2 = 800; party of 4: easy 1000 · "
        "medium 2000 · hard 3000 · deadly 4400"
    )
    assert registry.get("dnd5e").difficulty(state) == difficulty_line(state)
    foe = next(c for c in state.combatants if c.name == "Foe 1")
    assert difficulty(apply(state, a.SetStatus(combatant=foe.id, status="fled"))).xp == 200  # type: ignore[union-attr]
    assert difficulty(fight([], [(3, 50)])) is None  # no level on a character's sheet
    assert difficulty(fight([3], [(3, 0)])) is None  # no XP on a monster's sheet


def test_the_2024_budget() -> None:
    """SRD 5.2: four 5th-level characters have budgets low 2000, moderate 3000, high 4400; XP is not multiplied."""
    found = difficulty(fight([5, 5, 5, 5], [(4, 50), (1, 1800)], difficulty="2024"))
    assert found is not None
    assert (found.thresholds, found.xp, found.adjusted, found.word) == ((2000, 3000, 4400), 2000, 2000, "low")
    assert difficulty_line(fight([1], [(1, 25)], difficulty="2024")) == (
        "Difficulty (2024): below low — 1 monsters, 25 XP; budget of the party of 1: low 50 · moderate 75 · high 100"
    )


def test_other_families_have_no_measure() -> None:
    assert registry.get("ose").difficulty(new_state(seed=1, ruleset="adnd2e")) is None


@given(
    st.lists(st.integers(1, 20), min_size=1, max_size=8),
    st.lists(st.integers(1, 5000), min_size=1, max_size=12),
    st.integers(1, 5000),
)
def test_one_more_monster_never_makes_it_easier(levels: list[int], xps: list[int], extra: int) -> None:
    words = ("", "easy", "medium", "hard", "deadly")
    before = difficulty(fight(levels, [(1, xp) for xp in xps]))
    after = difficulty(fight(levels, [(1, xp) for xp in [*xps, extra]]))
    assert before is not None and after is not None
    assert after.adjusted >= before.adjusted
    assert words.index(after.word) >= words.index(before.word)
