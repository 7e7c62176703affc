"""The 5e attack form's targets, read in one pass and kept from state to state, are those worked out for each target
from the whole state (its conditions, whether it lies at 0, whether the attacker stood close, its armour class),
in any state of a fight: after damage, healing, a fall, a condition, the dying, a return to an earlier state, in
another language."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from tests.rulesets.dnd5e_fight import fight
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import Combatant, State
from tui_combat.i18n import _, use_catalog
from tui_combat.rulesets.dnd5e import RULESET
from tui_combat.rulesets.dnd5e.attack_dice import hit_chance
from tui_combat.rulesets.dnd5e.sheet import sheet_of
from tui_combat.rulesets.dnd5e.state import ActiveCondition, Dying
from tui_combat.rulesets.dnd5e.targets import target_choices

CONDITIONS = ("prone", "invisible", "restrained", "paralyzed", "blinded", "dodging", "poisoned")


def worked_out_one_by_one(state: State, attacker: Combatant, call: str, bonus: int) -> tuple[tuple[str, str], ...]:
    """The list as it was made before it was kept: each target from the whole state."""
    others = sorted(
        (
            c
            for c in state.combatants
            if c.id != attacker.id and (c.status == "active" or RULESET.unconscious_at_zero(state, c.id))
        ),
        key=lambda c: c.side == attacker.side,
    )

    def chance(target: Combatant) -> int:
        close = RULESET.remembered_close(state, attacker.id, target.id)
        edge = RULESET.edge_sources(state, attacker, target, call, close).edge
        return round(100 * hit_chance(bonus, sheet_of(target).ac, edge))

    return tuple(
        (c.id, _("{name} — AC {ac}: {chance}% to hit", name=c.name, ac=sheet_of(c).ac, chance=chance(c)))
        for c in others
    )


def a_fight() -> State:
    return fight(
        {
            "Party": [("Brenna", 30, {"ac": 16, "attack": 5, "damage": "1d8+3"}, 3)],
            "Goblins": [("Goblin", 7, {"ac": 15, "attack": 4, "damage": "1d6+2"}, 6), ("Bugbear", 27, {"ac": 16})],
        }
    )


changes = st.lists(
    st.one_of(
        st.tuples(st.just("damage"), st.integers(0, 9), st.integers(1, 40)),
        st.tuples(st.just("heal"), st.integers(0, 9), st.integers(1, 10)),
        st.tuples(st.just("condition"), st.integers(0, 9), st.sampled_from(CONDITIONS)),
        st.tuples(st.just("dying"), st.integers(0, 2), st.booleans()),
        st.tuples(st.just("far"), st.integers(0, 9), st.booleans()),
        st.tuples(st.just("armour"), st.integers(0, 9), st.integers(10, 20)),
        st.tuples(st.just("back"), st.integers(0, 30), st.just(0)),
    ),
    max_size=25,
)


def changed(state: State, change: tuple[str, int, object], attacker: Combatant) -> State:
    kind, number, value = change
    target = state.combatants[number % len(state.combatants)]
    fight_state = RULESET.fight_of(state)
    if kind == "damage":
        return apply(state, a.Damage(combatant=target.id, amount=int(str(value))))
    if kind == "heal":
        try:
            return apply(state, a.Heal(combatant=target.id, amount=int(str(value))))
        except RuleError:  # (the dead are not healed)
            return state
    if kind == "armour":
        return state.with_combatant(replace(target, sheet={**target.sheet, "ac": value}))
    if kind == "condition":
        condition = ActiveCondition(id=len(fight_state.conditions) + 1, target=target.id, name=str(value))
        return RULESET.with_fight(state, replace(fight_state, conditions=(*fight_state.conditions, condition)))
    if kind == "dying":
        dying = {**fight_state.dying, target.id: Dying(dead=bool(value))}
        return RULESET.with_fight(state, replace(fight_state, dying=dying))
    close = {**fight_state.close, f"{attacker.id}>{target.id}": bool(value)}
    return RULESET.with_fight(state, replace(fight_state, close=close))


@settings(max_examples=60, deadline=None)
@given(changes=changes, call=st.sampled_from(["none", "advantage", "disadvantage"]))
def test_the_kept_targets_are_those_worked_out_one_by_one(changes: list[tuple[str, int, object]], call: str) -> None:
    state = a_fight()
    attacker = state.combatants[0]
    states = [state]
    for change in changes:
        if change[0] == "back":
            state = states[change[1] % len(states)]
        else:
            state = changed(state, change, state.combatant(attacker.id))
            states.append(state)
        now = state.combatant(attacker.id)
        assert target_choices(RULESET, state, now, call, 5) == worked_out_one_by_one(state, now, call, 5)


def test_the_targets_are_worked_out_again_in_another_language() -> None:
    state = a_fight()
    attacker = state.combatants[0]
    english = target_choices(RULESET, state, attacker, "none", 5)
    with use_catalog("xx", {"{name} — AC {ac}: {chance}% to hit": "{name}: КД {ac}, {chance}%"}):
        other = target_choices(RULESET, state, attacker, "none", 5)
        assert other == worked_out_one_by_one(state, attacker, "none", 5)
    assert other != english and "КД" in other[0][1]


def test_the_attack_form_lists_them() -> None:
    state = a_fight()
    attacker = state.combatants[0]
    fields = RULESET.attack_fields(state, attacker.id, "none")
    assert fields[0].choices == worked_out_one_by_one(state, attacker, "none", RULESET.weapon_of(attacker, {}).bonus)
