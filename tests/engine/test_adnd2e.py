"""The AD&D 2e ruleset driven through the engine and the store, replaying the seed's worked examples."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.common import DEMO, d10
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.dice import Roll
from tui_combat.engine.encounter import CombatantSpec, Encounter, SideSpec, load_encounter
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.fight.store import Store, store_from_encounter
from tui_combat.i18n import use_catalog
from tui_combat.rulesets import adnd2e
from tui_combat.rulesets.adnd2e import RULESET, Sheet, attacks_this_round, thac0, weapon_speed

# Ids in the demo encounter (they follow next_id: sides and groups take an id too).
PARTY, MONSTERS = "s1", "s5"
RAF, RUPERT, DELSENORA = "c2", "c3", "c4"
TROLLS = ("c7", "c8", "c9")
ORCS = ("c11", "c12", "c13", "c14", "c15", "c16")


def step_kind(state: State) -> str:
    return RULESET.steps(state)[state.step].kind


def order_of(state: State) -> list[tuple[str, set[str]]]:
    return [(str(slot.label), set(slot.combatants)) for slot in state.order]


def demo_store(folder: Path | None = None) -> Store:
    return store_from_encounter(load_encounter(DEMO), folder=folder, seed=1)


def to_initiative(store: Store) -> None:
    """Step forward (through the rest of this round if need be) to the next initiative step."""
    for _ in range(200):
        if store.state.phase == "round" and step_kind(store.state) == "initiative":
            return
        store.dispatch(a.NextStep())
    raise AssertionError("never reached the initiative step")


def start(store: Store) -> None:
    store.dispatch(a.BeginSurprise())
    store.dispatch(a.StartFight())
    to_initiative(store)


def finish_round(store: Store, totals: dict[str, int] | None = None) -> None:
    """Roll the current round's initiative (default: every request rolls 5) and step to the next round."""
    while step_kind(store.state) == "declare":
        store.dispatch(a.NextStep())
    if step_kind(store.state) == "initiative":
        requests = RULESET.initiative_requests(store.state)
        totals = totals or {}
        store.dispatch(a.RollInitiative(rolls={r.key: d10(totals.get(r.key, 5)) for r in requests}))
    round_number = store.state.round
    while store.state.round == round_number:
        store.dispatch(a.NextStep())


def last_log(state: State, count: int = 1) -> list[str]:
    return [entry.text for entry in state.log_entries()[-count:]]


# -- standard initiative ------------------------------------------------------------------------------
def test_seed_round_1_party_then_monsters() -> None:
    store = demo_store()
    start(store)
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(7), MONSTERS: d10(10)}))
    state = store.state
    assert order_of(state) == [("7", {RAF, RUPERT, DELSENORA}), ("10", {*TROLLS, *ORCS})]
    assert step_kind(state) == "resolve" and state.cursor == 0
    assert state.acting_now() == (RAF, RUPERT, DELSENORA)
    assert any("Order: 7: Raf, Rupert, Delsenora; 10: Troll 1" in text for text in last_log(state))


def test_initiative_needs_every_requested_roll() -> None:
    store = demo_store()
    start(store)
    before = store.state
    with pytest.raises(RuleError, match="Monsters"):
        store.dispatch(a.RollInitiative(rolls={PARTY: d10(7)}))
    assert store.state is before


def test_equal_rolls_make_one_simultaneous_slot() -> None:
    store = demo_store()
    start(store)
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(4), MONSTERS: d10(4)}))
    assert order_of(store.state) == [("4", {RAF, RUPERT, DELSENORA, *TROLLS, *ORCS})]


def test_table_55_side_modifiers() -> None:
    store = demo_store()
    start(store)
    store.dispatch(a.RulesetAction(name="side_situations", args={"side": PARTY, "situations": ["hasted"]}))
    assert [r.modifier for r in RULESET.initiative_requests(store.state)] == [-2, 0]
    # Party 7 − 2 hasted = 5 beats the monsters' 6.
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(7), MONSTERS: d10(6)}))
    assert order_of(store.state) == [
        ("5", {RAF, RUPERT, DELSENORA}),
        ("6", {*TROLLS, *ORCS}),
        ("2nd · 5", {RAF, RUPERT, DELSENORA}),  # haste doubles their attacks
    ]
    assert "Initiative — Party: 1d10: [7] = 7 -2 = 5." in last_log(store.state, 3)


def test_table_55_applies_to_those_it_concerns() -> None:
    """The text after Table 55: only those on higher ground get its −1 (the archer on the hill), not the side."""
    store = demo_store()
    start(store)
    store.dispatch(a.Declare(combatant=RUPERT, declaration={"action": "weapon", "situation_higher_ground": True}))
    store.dispatch(a.Declare(combatant=RAF, declaration={"action": "weapon", "situation_wading": True}))
    assert [r.modifier for r in RULESET.initiative_requests(store.state)] == [0, 0]
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(7), MONSTERS: d10(7)}))
    assert order_of(store.state) == [
        ("6", {RUPERT}),  # 7 − 1 on higher ground: before everyone
        ("7", {DELSENORA, *TROLLS, *ORCS}),  # the rest of the party ties with the monsters
        ("9", {RAF}),  # 7 + 2 wading
    ]


def test_table_55_modifiers_add_up_and_unknown_is_refused() -> None:
    store = demo_store()
    start(store)
    store.dispatch(
        a.RulesetAction(name="side_situations", args={"side": MONSTERS, "situations": ["wading", "slowed", "waiting"]})
    )
    assert [r.modifier for r in RULESET.initiative_requests(store.state)] == [0, 5]
    before = store.state
    with pytest.raises(RuleError, match="Unknown situation: flying"):
        store.dispatch(a.RulesetAction(name="side_situations", args={"side": PARTY, "situations": ["flying"]}))
    with pytest.raises(RuleError, match="No side"):
        store.dispatch(a.RulesetAction(name="side_situations", args={"side": "s99", "situations": ["hasted"]}))
    assert store.state is before


# -- group-modified initiative (seed, round 2) ----------------------------------------------------------
def test_group_initiative_seed_round_2() -> None:
    store = demo_store()
    start(store)
    finish_round(store, {PARTY: 7, MONSTERS: 10})
    store.dispatch(a.SetOption(key="initiative", value="group"))
    assert store.state.round == 2
    to_initiative(store)
    store.dispatch(a.Declare(combatant=RAF, declaration={"action": "item", "item": "misc", "text": "horn of blasting"}))
    store.dispatch(a.Declare(combatant=RUPERT, declaration={"action": "weapon"}))
    store.dispatch(a.Declare(combatant=DELSENORA, declaration={"action": "spell", "spell": "haste", "casting": "3"}))
    # Trolls and orcs declare nothing: trolls fight with natural weapons, orcs with their long swords.
    state = store.state
    assert [(r.key, r.modifier) for r in RULESET.initiative_requests(state)] == [(PARTY, 0), (MONSTERS, 0)]
    modifiers = {
        cid: RULESET.action_modifier(state, state.combatant(cid))
        for cid in (RAF, RUPERT, DELSENORA, TROLLS[0], ORCS[0])
    }
    assert modifiers == {RAF: 3, RUPERT: 7, DELSENORA: 3, TROLLS[0]: 6, ORCS[0]: 5}

    store.dispatch(a.RollInitiative(rolls={PARTY: d10(6), MONSTERS: d10(5)}))
    assert order_of(store.state) == [
        ("9", {RAF, DELSENORA}),
        ("10", set(ORCS)),
        ("11", set(TROLLS)),
        ("13", {RUPERT}),
    ]


# -- individual initiative (seed, round 3) ---------------------------------------------------------------
def three_trolls() -> Encounter:
    demo = load_encounter(DEMO)
    party = demo.sides[0]
    troll = demo.sides[1].combatants[0]
    trolls = [
        CombatantSpec(name=f"Troll on {target}", hp=troll.hp, sheet=troll.sheet, notes=troll.notes)
        for target in ("Raf", "Rupert", "Delsenora")
    ]
    return Encounter(
        name="Round 3",
        ruleset="adnd2e",
        options={"initiative": "individual"},
        sides=[party, SideSpec(name="Trolls", combatants=trolls)],
    )


# Ids in the three-troll encounter.
T_RAF, T_RUPERT, T_DELSENORA = "c6", "c7", "c8"


def round_3_store() -> Store:
    store = store_from_encounter(three_trolls(), seed=3)
    assert [c.name for c in store.state.combatants[3:]] == ["Troll on Raf", "Troll on Rupert", "Troll on Delsenora"]
    assert [c.id for c in store.state.combatants[3:]] == [T_RAF, T_RUPERT, T_DELSENORA]
    start(store)
    finish_round(store)
    finish_round(store)
    assert store.state.round == 3
    to_initiative(store)
    store.dispatch(a.Declare(combatant=RAF, declaration={"action": "weapon", "situations": "hasted"}))
    store.dispatch(a.Declare(combatant=RUPERT, declaration={"action": "weapon", "situations": "hasted"}))
    store.dispatch(
        a.Declare(
            combatant=DELSENORA,
            declaration={"action": "spell", "spell": "acid arrow", "casting": "1", "situations": "hasted"},
        )
    )
    rolls = {RAF: 2, T_RAF: 1, RUPERT: 2, T_RUPERT: 5, DELSENORA: 9, T_DELSENORA: 1}
    assert {r.key for r in RULESET.initiative_requests(store.state)} == set(rolls)
    store.dispatch(a.RollInitiative(rolls={key: d10(total) for key, total in rolls.items()}))
    return store


def test_individual_initiative_seed_round_3() -> None:
    state = round_3_store().state
    assert order_of(state) == [
        ("0", {RAF}),
        ("7", {RUPERT, T_RAF, T_DELSENORA}),
        ("10", {DELSENORA}),
        ("11", {T_RUPERT}),
        # Haste's extra attacks come after every first attack, in the same order; the caster gets none.
        ("2nd · 0", {RAF}),
        ("2nd · 7", {RUPERT}),
    ]


def test_hasted_caster_gets_no_haste_bonus() -> None:
    state = round_3_store().state
    assert RULESET.action_modifier(state, state.combatant(DELSENORA)) == 1
    assert RULESET.action_modifier(state, state.combatant(RAF)) == -2
    assert RULESET.action_modifier(state, state.combatant(RUPERT)) == 5


def test_individual_initiative_gives_every_monster_its_own_roll() -> None:
    store = demo_store()
    store.dispatch(a.SetOption(key="initiative", value="individual"))
    start(store)
    requests = {r.key: r.combatants for r in RULESET.initiative_requests(store.state)}
    assert set(requests) == {RAF, RUPERT, DELSENORA, *TROLLS, *ORCS}
    assert all(len(members) == 1 for members in requests.values())
    labels = [str(r.label) for r in RULESET.initiative_requests(store.state)]
    assert labels[3:5] == ["Troll 1", "Troll 2"]


def test_demo_trolls_share_one_roll_in_the_group_roll_option() -> None:
    store = demo_store()
    store.dispatch(a.SetOption(key="initiative", value="individual_groups"))
    start(store)
    requests = {r.key: r.combatants for r in RULESET.initiative_requests(store.state)}
    assert requests["g6"] == TROLLS and requests["g10"] == ORCS
    assert set(requests) == {RAF, RUPERT, DELSENORA, "g6", "g10"}


# -- losing a spell -------------------------------------------------------------------------------------
def test_caster_hit_before_her_slot_loses_the_spell() -> None:
    store = round_3_store()
    store.dispatch(a.NextStep())  # Raf at 0 → the trolls at 7
    assert set(store.state.acting_now()) == {RUPERT, T_RAF, T_DELSENORA}
    store.dispatch(a.Damage(combatant=DELSENORA, amount=3))
    assert RULESET.spell_lost(store.state, DELSENORA)
    assert "Delsenora is hit before casting: acid arrow is lost." in last_log(store.state)
    assert store.state.log_entries()[-1].facts == {"spell": "acid arrow"}
    store.dispatch(a.NextStep())  # Delsenora's slot
    before = store.state
    with pytest.raises(RuleError, match="spell was lost"):
        store.dispatch(a.RulesetAction(name="main_action", args={"combatant": DELSENORA}))
    assert store.state is before
    assert ("Spell", "LOST") in RULESET.details(store.state, DELSENORA)


def test_caster_hit_in_her_own_slot_keeps_the_spell() -> None:
    store = round_3_store()
    store.dispatch(a.NextStep())
    store.dispatch(a.NextStep())
    assert store.state.acting_now() == (DELSENORA,)
    store.dispatch(a.Damage(combatant=DELSENORA, amount=3))
    assert not RULESET.spell_lost(store.state, DELSENORA)
    assert not any("is lost" in text for text in last_log(store.state, 5))
    store.dispatch(a.RulesetAction(name="main_action", args={"combatant": DELSENORA}))
    assert last_log(store.state) == ["Delsenora: acid arrow."]


def test_hit_before_initiative_loses_a_declared_spell_but_not_a_weapon_attack() -> None:
    store = round_3_store()
    store.undo()  # back to before the initiative roll: declarations made, nobody acted yet
    assert step_kind(store.state) == "initiative"
    store.dispatch(a.Damage(combatant=RUPERT, amount=1))
    store.dispatch(a.Damage(combatant=DELSENORA, amount=1))
    assert not RULESET.spell_lost(store.state, RUPERT)
    assert RULESET.spell_lost(store.state, DELSENORA)


# -- THAC0, weapon speed, attacks ------------------------------------------------------------------------
PRIEST = [20, 20, 20, 18, 18, 18, 16, 16, 16, 14, 14, 14, 12, 12, 12, 10, 10, 10, 8, 8]
ROGUE = [20, 20, 19, 19, 18, 18, 17, 17, 16, 16, 15, 15, 14, 14, 13, 13, 12, 12, 11, 11]
WIZARD = [20, 20, 20, 19, 19, 19, 18, 18, 18, 17, 17, 17, 16, 16, 16, 15, 15, 15, 14, 14]


@pytest.mark.parametrize("level", range(1, 21))
def test_thac0_by_class_and_level(level: int) -> None:
    assert thac0(Sheet(cls="warrior", level=level)) == 21 - level
    assert thac0(Sheet(cls="priest", level=level)) == PRIEST[level - 1]
    assert thac0(Sheet(cls="rogue", level=level)) == ROGUE[level - 1]
    assert thac0(Sheet(cls="wizard", level=level)) == WIZARD[level - 1]


@pytest.mark.parametrize(
    ("hit_dice", "expected"),
    [
        (0, 20),
        (1, 19),
        (2, 19),
        (3, 17),
        (4, 17),
        (5, 15),
        (6, 15),
        (7, 13),
        (8, 13),
        (9, 11),
        (10, 11),
        (11, 9),
        (12, 9),
        (13, 7),
        (14, 7),
        (15, 5),
        (30, 5),
    ],
)
def test_monster_thac0_by_hit_dice(hit_dice: int, expected: int) -> None:
    assert thac0(Sheet(cls="monster", level=hit_dice)) == expected


def test_troll_6_plus_6_entered_as_7_hit_dice() -> None:
    assert thac0(Sheet(cls="monster", level=7)) == 13
    demo = load_encounter(DEMO)
    troll = demo.sides[1].combatants[0]
    assert thac0(Sheet(**troll.sheet)) == 13


def test_explicit_thac0_wins() -> None:
    assert thac0(Sheet(cls="warrior", level=5, thac0=12)) == 12


@pytest.mark.parametrize(
    ("weapon", "magic", "speed"),
    [
        ("bastard sword (two-handed)", 1, 7),  # seed: 8 → 7 with +1
        ("war hammer", 4, 0),  # seed: 4 → 0 with +4
        ("war hammer", 0, 4),
        ("long sword", 0, 5),
        ("dagger", 5, 0),  # never below 0
        ("Long Sword ", 2, 3),  # looked up case- and space-insensitively
    ],
)
def test_weapon_speed_with_magic_bonus(weapon: str, magic: int, speed: int) -> None:
    assert weapon_speed(Sheet(weapon=weapon, magic=magic)) == speed


def test_explicit_speed_is_reduced_by_magic_too() -> None:
    assert weapon_speed(Sheet(weapon="whatever", speed=8, magic=1)) == 7


def test_three_halves_alternate() -> None:
    sheet = Sheet(attacks="3/2")
    assert [attacks_this_round(sheet, n, "even", False) for n in range(1, 7)] == [1, 2, 1, 2, 1, 2]
    assert [attacks_this_round(sheet, n, "odd", False) for n in range(1, 7)] == [2, 1, 2, 1, 2, 1]
    assert [attacks_this_round(sheet, n, "even", True) for n in range(1, 5)] == [2, 4, 2, 4]
    assert attacks_this_round(Sheet(attacks="2/1"), 1, "even", False) == 2
    assert attacks_this_round(Sheet(attacks="1/1"), 2, "even", False) == 1
    assert attacks_this_round(Sheet(attacks="nonsense"), 2, "even", False) == 1


@given(st.integers(1, 5), st.integers(1, 4), st.integers(0, 40), st.sampled_from(("even", "odd")), st.booleans())
def test_attacks_in_a_round_are_the_strikes_due_by_its_end_less_those_due_by_the_last(
    numerator: int, denominator: int, round_number: int, three_halves: str, hasted: bool
) -> None:
    """The rate as a fraction (3/2: three strikes every two rounds): the whole strikes due by the end of the
    round, less those due by the end of the one before, one at least, twice that hasted."""
    rate = Fraction(numerator, denominator)
    at = round_number + (1 if three_halves == "odd" else 0)
    due = int(at * rate) - int((at - 1) * rate)
    sheet = Sheet(attacks=f"{numerator}/{denominator}")
    assert attacks_this_round(sheet, round_number, three_halves, hasted) == max(due, 1) * (2 if hasted else 1)


@given(
    st.sampled_from(("", "long sword", " ")),
    st.sampled_from(("", "claw, claw, bite")),
    st.booleans(),
    st.sampled_from(("", "3/2", "2", "5/2", "nonsense")),
    st.sampled_from(("warrior", "priest", "monster")),
    st.integers(1, 20),
    st.integers(1, 12),
    st.sampled_from(("even", "odd")),
    st.booleans(),
)
def test_the_slots_an_attack_plan_takes_are_its_strikes(
    weapon: str,
    forms: str,
    natural: bool,
    rate: str,
    cls: str,
    level: int,
    round_number: int,
    three_halves: str,
    hasted: bool,
) -> None:
    """The order counts a combatant's slots with attacks_this_round instead of making his plan: the same."""
    from tui_combat.rulesets.adnd2e.sheet import attack_plan

    sheet = Sheet(weapon=weapon, forms=forms, natural=natural, attacks=rate, cls=cls, level=level)
    assert len(attack_plan(sheet, round_number, three_halves, hasted)) == attacks_this_round(
        sheet, round_number, three_halves, hasted
    )


DECLARED = st.fixed_dictionaries(
    {
        "action": st.sampled_from(("weapon", "spell", "move", "natural")),
        "situations": st.sampled_from(("", "hasted", "higher_ground", "hasted, wading")),
    }
)


@given(
    st.sampled_from(("standard", "group", "individual")),
    st.sampled_from(("even", "odd")),
    st.sampled_from(("", "3/2", "2/1", "5/2")),
    st.lists(DECLARED, min_size=3, max_size=3),
    st.booleans(),
    st.integers(1, 10),
    st.integers(1, 10),
)
def test_the_order_has_each_one_in_as_many_slots_as_he_strikes_after_his_own_value(
    method: str,
    three_halves: str,
    rate: str,
    declared: list[dict[str, str]],
    side_hasted: bool,
    party_roll: int,
    monsters_roll: int,
) -> None:
    """However the order is worked out, everyone with a roll is in as many slots as his attack plan has
    strikes (one at least), the first at his roll plus his own modifiers; hasted by his declaration or by
    his side's, with a rate of 3/2 or more, casting or moving."""
    store = demo_store()
    store.dispatch(a.SetOption(key="initiative", value=method))
    store.dispatch(a.SetOption(key="three_halves", value=three_halves))
    store.dispatch(a.EditCombatant(combatant=RUPERT, sheet={"attacks": rate, "level": 7}))
    start(store)
    store.dispatch(
        a.RulesetAction(name="side_situations", args={"side": PARTY, "situations": ["hasted"] if side_hasted else []})
    )
    for combatant, declaration in zip((RAF, RUPERT, DELSENORA), declared):
        extra = {"spell": "magic missile", "casting": "1"} if declaration["action"] == "spell" else {}
        store.dispatch(a.Declare(combatant=combatant, declaration={**declaration, **extra}))
    requests = RULESET.initiative_requests(store.state)
    rolled = {r.key: d10(party_roll if r.key in (PARTY, RAF, RUPERT, DELSENORA) else monsters_roll) for r in requests}
    before = store.state
    store.dispatch(a.RollInitiative(rolls=rolled))
    state = store.state
    for request in requests:
        for combatant_id in request.combatants:
            combatant = before.combatant(combatant_id)
            slots = [slot for slot in state.order if combatant_id in slot.combatants]
            assert len(slots) == max(len(RULESET.attack_plan_of(before, combatant)), 1)
            own = (
                RULESET.own_situations(before, combatant, with_side=False)
                if method == "standard"
                else RULESET.action_modifier(before, combatant)
            )
            assert slots[0].value == RULESET.initiative_value(before, request, rolled[request.key]) + own


def test_three_halves_in_the_round_order_and_budget() -> None:
    store = demo_store()
    store.dispatch(a.EditCombatant(combatant=RUPERT, sheet={"attacks": "3/2", "level": 7}))
    start(store)
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(3), MONSTERS: d10(8)}))
    assert not any(str(slot.label).startswith("2nd") for slot in store.state.order)  # round 1: one attack
    assert store.state.round == 1
    assert RULESET.budget(store.state, RUPERT)[0].total == 1
    finish_round(store)
    to_initiative(store)
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(3), MONSTERS: d10(8)}))
    assert store.state.round == 2
    assert str(store.state.order[-1].label) == "2nd · 3" and store.state.order[-1].combatants == (RUPERT,)
    assert RULESET.budget(store.state, RUPERT)[0].total == 2
    store.dispatch(a.SetOption(key="three_halves", value="odd"))
    assert RULESET.budget(store.state, RUPERT)[0].total == 1


def test_attack_budget_refuses_a_second_attack_at_one_per_round() -> None:
    store = demo_store()
    start(store)
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(3), MONSTERS: d10(8)}))
    store.dispatch(a.RulesetAction(name="attack", args={"combatant": RAF}))
    assert RULESET.budget(store.state, RAF)[0].left == 0
    before = store.state
    with pytest.raises(RuleError, match="Raf has no attacks left this round"):
        store.dispatch(a.RulesetAction(name="attack", args={"combatant": RAF}))
    assert store.state is before
    # His attack was his main action: another (a spell, an item) is refused with the reason.
    assert [line.left for line in RULESET.budget(store.state, RAF)] == [0, 0]
    with pytest.raises(RuleError, match="Raf has attacked this round: his attacks were his main action"):
        store.dispatch(a.RulesetAction(name="main_action", args={"combatant": RAF}))
    # The next round refreshes the budget.
    finish_round(store)
    assert RULESET.budget(store.state, RAF)[0].left == 1


def test_attack_roll_against_thac0() -> None:
    store = demo_store()
    start(store)
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(3), MONSTERS: d10(8)}))
    # Raf: warrior 5 → THAC0 20 − (5 − 1) = 16; against AC 4 he needs 12; his war hammer is +4, so 8 hits.
    roll = {"expr": "1d20", "total": 8, "faces": [8]}
    store.dispatch(a.RulesetAction(name="attack", args={"combatant": RAF, "roll": roll, "target_ac": 4}))
    assert last_log(store.state) == ["Raf attacks AC 4: d20 8 +4 magic vs 12 — hit."]
    # Rupert, warrior 4 (THAC0 17), bastard sword +1: a natural 1 misses whatever the bonus.
    roll = {"expr": "1d20", "total": 1, "faces": [1]}
    store.dispatch(
        a.RulesetAction(name="attack", args={"combatant": RUPERT, "roll": roll, "target_ac": -10, "bonus": 30})
    )
    assert last_log(store.state) == ["Rupert attacks AC -10: d20 1 +1 magic +30 vs 27 — miss."]
    # The results are readable from the entries, not only from their text.
    raf_entry, rupert_entry = store.state.log_entries()[-2:]
    assert raf_entry.facts == {
        "needed": 12,
        "natural": 8,
        "hit": True,
        "magic": 4,
        "bonus": 0,
        "armour_modifier": 0,
        "weapon": "war hammer",
        "attacker": RAF,
        "target": "",
    }
    assert (rupert_entry.facts["needed"], rupert_entry.facts["natural"], rupert_entry.facts["hit"]) == (27, 1, False)
    assert [r.total for r in raf_entry.rolls] == [8]


def test_the_log_is_rendered_in_the_language_shown() -> None:
    store = demo_store()
    start(store)
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(3), MONSTERS: d10(8)}))
    roll = {"expr": "1d20", "total": 15, "faces": [15]}
    store.dispatch(a.RulesetAction(name="attack", args={"combatant": RAF, "roll": roll, "target_ac": 4}))
    entry = store.state.log_entries()[-1]
    use_catalog(
        "ru",
        {
            "{name} attacks AC {ac}: d20 {roll}{bonus} vs {needed} — {result}.": (
                "{name} бьёт КБ {ac}: d20 {roll}{bonus} против {needed} — {result}."
            ),
            " {value} magic": " {value} магия",
            "hit": "попал",
        },
    )
    try:
        assert entry.text == "Raf бьёт КБ 4: d20 15 +4 магия против 12 — попал."
    finally:
        use_catalog("en", {})
    assert entry.text == "Raf attacks AC 4: d20 15 +4 magic vs 12 — hit."


def test_actions_are_offered_by_step() -> None:
    store = demo_store()
    start(store)  # the initiative step
    state = store.state
    assert RULESET.action_available(state, "side_situations", None)
    assert not RULESET.action_available(state, "attack", RAF)
    assert not RULESET.action_available(state, "main_action", RAF)
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(3), MONSTERS: d10(8)}))
    state = store.state
    assert step_kind(state) == "resolve"
    assert RULESET.action_available(state, "attack", RAF) and RULESET.action_available(state, "main_action", RAF)
    assert not RULESET.action_available(state, "attack", None)  # nobody selected
    assert not RULESET.action_available(state, "side_situations", None)
    before = store.state
    with pytest.raises(RuleError, match="cannot be done now"):
        store.dispatch(a.RulesetAction(name="side_situations", args={"side": PARTY, "situations": ["hasted"]}))
    assert store.state is before


def test_declaration_form_shows_what_was_declared() -> None:
    store = demo_store()
    start(store)
    assert RULESET.declaration(store.state, RAF) == {}
    store.dispatch(
        a.Declare(
            combatant=RAF,
            declaration={"action": "item", "item": "wand", "text": "wand of frost", "situation_higher_ground": True},
        )
    )
    values = RULESET.declaration(store.state, RAF)
    assert {k: v for k, v in values.items() if not k.startswith("situation_")} == {
        "action": "item",
        "spell": "",
        "casting": "",
        "item": "wand",
        "text": "wand of frost",
    }
    assert [k for k, v in values.items() if k.startswith("situation_") and v] == ["situation_higher_ground"]
    before = store.state
    with pytest.raises(RuleError, match="Unknown situation: flying"):
        store.dispatch(a.Declare(combatant=RAF, declaration={"action": "weapon", "situations": "flying"}))
    assert store.state is before


# -- surprise and distance --------------------------------------------------------------------------------
def surprise_store() -> Store:
    store = demo_store()
    store.dispatch(a.BeginSurprise())
    return store


@pytest.mark.parametrize(("total", "surprised"), [(1, True), (3, True), (4, False), (10, False)])
def test_surprise_is_1_to_3_on_1d10(total: int, surprised: bool) -> None:
    assert RULESET.surprise_dice() == "1d10"
    store = surprise_store()
    store.dispatch(a.RollSurprise(rolls={PARTY: d10(total)}))
    assert store.state.surprised == ((RAF, RUPERT, DELSENORA) if surprised else ())
    assert RULESET.is_surprised(total) is surprised


def test_surprise_modifiers_apply() -> None:
    store = surprise_store()
    store.dispatch(a.RollSurprise(rolls={PARTY: d10(5), MONSTERS: d10(2)}, modifiers={PARTY: -4, MONSTERS: 2}))
    assert store.state.surprised == (RAF, RUPERT, DELSENORA)
    assert last_log(store.state, 2) == [
        "Surprise — Party: 1d10: [5] = 5 -4 → 1: surprised.",
        "Surprise — Monsters: 1d10: [2] = 2 +2 → 4: not surprised.",
    ]
    assert {m.label: m.value for m in RULESET.surprise_modifiers()}["in darkness"] == -4


def test_both_sides_surprised_cancels() -> None:
    store = surprise_store()
    store.dispatch(a.RollSurprise(rolls={PARTY: d10(2), MONSTERS: d10(3)}))
    assert store.state.surprised == ()
    assert last_log(store.state) == ["Every side is surprised: the effects cancel."]


def test_surprised_side_is_absent_from_round_1_only() -> None:
    store = surprise_store()
    store.dispatch(a.RollSurprise(rolls={PARTY: d10(1), MONSTERS: d10(9)}))
    store.dispatch(a.StartFight())
    assert "Surprised, they lose this round: Raf, Rupert, Delsenora." in last_log(store.state)
    to_initiative(store)
    assert [r.key for r in RULESET.initiative_requests(store.state)] == [MONSTERS]
    store.dispatch(a.RollInitiative(rolls={MONSTERS: d10(6)}))
    assert order_of(store.state) == [("6", {*TROLLS, *ORCS})]
    finish_round(store)
    assert store.state.round == 2 and store.state.surprised == ()
    to_initiative(store)
    assert [r.key for r in RULESET.initiative_requests(store.state)] == [PARTY, MONSTERS]


def test_surprise_only_in_the_surprise_step() -> None:
    store = demo_store()
    before = store.state
    with pytest.raises(RuleError):
        store.dispatch(a.RollSurprise(rolls={PARTY: d10(1)}))
    assert store.state is before


def test_distance_situations() -> None:
    situations = {s.id: s for s in RULESET.distance_situations()}
    assert (situations["both_surprised"].dice, situations["both_surprised"].multiplier) == ("3d6", 1)
    assert (situations["one_surprised"].dice, situations["smoke_fog"].dice) == ("4d6", "6d6")
    assert (situations["jungle"].dice, situations["jungle"].multiplier) == ("1d10", 10)
    assert (situations["light_forest"].dice, situations["scrub"].dice, situations["grassland"].dice) == (
        "2d6",
        "2d12",
        "5d10",
    )
    assert situations["sight"].dice == ""

    store = surprise_store()
    store.dispatch(a.RollDistance(situation="jungle", roll=Roll(expr="1d10", total=4, faces=(4,))))
    assert str(store.state.distance) == "40 ft"
    assert last_log(store.state) == ["Distance (jungle or dense forest): 1d10: [4] = 4 × 10 = 40 ft."]
    store.dispatch(a.RollDistance(situation="sight"))
    assert str(store.state.distance) == "night or dungeon: limit of sight"
    store.dispatch(a.RollSurprise(rolls={PARTY: d10(2), MONSTERS: d10(7)}))  # the party is surprised
    store.dispatch(a.RollDistance(situation="one_surprised", roll=Roll(expr="4d6", total=13, faces=(1, 3, 4, 5))))
    assert str(store.state.distance) == "13 ft"
    before = store.state
    with pytest.raises(RuleError, match="Unknown situation"):
        store.dispatch(a.RollDistance(situation="outer space"))
    assert store.state is before


# -- refused actions, saving --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "action",
    [
        a.NextStep(),  # not in a round yet
        a.Damage(combatant="c999", amount=1),
        a.Damage(combatant=RAF, amount=-1),
        a.Heal(combatant=RAF, amount=-1),
        a.SetOption(key="initiative", value="by charisma"),
        a.SetOption(key="no such option", value="x"),
        a.AddCombatants(side="s99", name="Ghost", hp=1),
        a.AddCombatants(side=PARTY, name="   ", hp=1),
        a.AddCombatants(side=PARTY, name="Horde", hp=1, count=501),
        a.RulesetAction(name="attack", args={"combatant": RAF}),  # not in the resolve step
        a.RulesetAction(name="fly", args={"combatant": RAF}),
        a.Note(text="  "),
        a.PreviousStep(),
        a.RollInitiative(rolls={}),
        a.Declare(combatant=RAF, declaration={"action": "weapon"}),  # declarations belong to a round
    ],
)
def test_refused_action_leaves_state_unchanged(tmp_path: Path, action: a.Action) -> None:
    store = demo_store(tmp_path / "fight")
    before = store.state
    journal = (tmp_path / "fight" / "journal.jsonl").read_bytes()
    history = store.done_actions()
    with pytest.raises(RuleError):
        store.dispatch(action)
    assert store.state is before
    assert store.done_actions() == history
    assert (tmp_path / "fight" / "journal.jsonl").read_bytes() == journal
    with pytest.raises(RuleError):
        apply(before, action)


def test_ruleset_action_on_a_fallen_combatant_is_refused() -> None:
    store = demo_store()
    start(store)
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(3), MONSTERS: d10(8)}))
    store.dispatch(a.Damage(combatant=ORCS[0], amount=9))
    assert store.state.combatant(ORCS[0]).status == "down"
    before = store.state
    # Dead, he has no attack (nor is one offered in the footer); one who fled is told why.
    with pytest.raises(RuleError, match="^Attack cannot be done now.$"):
        store.dispatch(a.RulesetAction(name="attack", args={"combatant": ORCS[0]}))
    assert store.state is before
    store.dispatch(a.SetStatus(combatant=ORCS[1], status="fled"))
    with pytest.raises(RuleError, match="out of the fight"):
        store.dispatch(a.RulesetAction(name="attack", args={"combatant": ORCS[1]}))


def test_unicode_names_survive_save_and_resume(tmp_path: Path) -> None:
    folder = tmp_path / "бой"
    store = demo_store(folder)
    store.dispatch(a.EditCombatant(combatant=DELSENORA, name="Дельсенора"))
    store.dispatch(a.AddCombatants(side=MONSTERS, name="Тролль-людоед 🧌", hp=40, count=2, notes="«регенерирует»"))
    store.dispatch(a.SetName(name="Тролли в туннеле"))
    start(store)
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(7), MONSTERS: d10(10)}))
    store.dispatch(a.Damage(combatant=DELSENORA, amount=2))
    store.close()

    resumed = Store.resume(folder)
    assert resumed.state == store.state
    assert resumed.state.combatant(DELSENORA).name == "Дельсенора"
    assert resumed.state.name == "Тролли в туннеле"
    assert [c.name for c in resumed.state.combatants if c.name.startswith("Тролль")] == [
        "Тролль-людоед 🧌 1",
        "Тролль-людоед 🧌 2",
    ]
    assert "Дельсенора takes 2 damage: 12/14 HP." in [e.text for e in resumed.state.log_entries()]
    # Also from a snapshot (not only from the journal).
    resumed.save_now()
    resumed.close()
    again = Store.resume(folder)
    assert again.state == store.state
    assert "Дельсенора" in (folder / "snapshot.json").read_text(encoding="utf-8")


def test_tables_say_where_each_value_came_from() -> None:
    data = adnd2e.tables()
    assert data.schema == 2
    assert data.initiative.source == "seed"
    assert {s.id: s.value for s in data.initiative.situations} == {
        "hasted": -2,
        "slowed": 2,
        "higher_ground": -1,
        "set_for_charge": -2,
        "wading": 2,
        "deep_water": 4,
        "foreign": 6,
        "hindered": 3,
        "waiting": 1,
    }
    assert data.initiative.natural_by_size == {
        "tiny": 0,
        "small": 3,
        "medium": 3,
        "large": 6,
        "huge": 9,
        "gargantuan": 12,
    }
    assert data.initiative.magic_items == {"misc": 3, "potion": 4, "ring": 3, "rod": 1, "staff": 2, "wand": 3}
    assert data.initiative.actions == {"breath": 1, "innate": 3}
    # Each table of numbers keeps its source note beside it.
    assert (
        data.initiative.natural_by_size_source,
        data.initiative.magic_items_source,
        data.initiative.actions_source,
    ) == (
        "seed",
        "seed",
        "seed",
    )
    assert (data.weapon_speeds_source, data.thac0.rates_source, data.thac0.monsters_source) == (
        "default",
        "seed",
        "default",
    )
    assert data.weapon_speeds["long sword"] == 5 and data.weapon_speeds["staff sling"] == 11
