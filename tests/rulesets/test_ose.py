"""Old-School Essentials / Dolmenwood through the engine: initiative by sides and phases, declarations,
disruption, fleeing melee, surprise and distance. Morale is in ``test_ose_morale.py``.

The fights are the packaged demo (Party: Sir Ambrose, Wendel, Pipkin, Thistle; Goblins 1–4; a lone
Ogre) or small ones built here; every die is typed, and the expected numbers are worked out by hand.
"""

from __future__ import annotations

import msgspec
import pytest

from tests.common import labels, typed
from tests.rulesets.ose_fight import (
    AMBROSE,
    GOBLIN_SIDE,
    GOBLINS,
    OGRE,
    OGRE_SIDE,
    PARTY,
    PIPKIN,
    THISTLE,
    WENDEL,
    act,
    build,
    d6,
    declare,
    demo,
    last_texts,
    members,
    roll_initiative,
    to_slot,
)
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import render
from tui_combat.engine.model import State
from tui_combat.i18n import use_catalog
from tui_combat.rulesets.ose import RULESET, Spent

PHASES = ("movement", "missiles", "magic", "melee")


def phases_of(side: str) -> list[str]:
    return [f"{side} · {phase}" for phase in PHASES]


# -- side initiative ----------------------------------------------------------------------------------------
def test_a_side_tie_is_rolled_again_by_the_tied_sides_only() -> None:
    state = roll_initiative(demo(), {PARTY: 4, GOBLIN_SIDE: 4, OGRE_SIDE: 2})
    assert not state.initiative.settled and state.order == ()
    assert [(r.key, render(r.label), r.dice) for r in state.initiative.pending] == [
        ("s1#2", "Party, tie reroll", "1d6"),
        ("s6#2", "Goblins, tie reroll", "1d6"),
    ]

    state = apply(state, a.RollInitiative(rolls={"s1#2": d6(3), "s6#2": d6(5)}))  # the goblins win the reroll
    assert state.initiative.settled
    # The ogre's 2 is below both 4s: it acts last, whatever the reroll said.
    assert labels(state) == phases_of("Goblins") + phases_of("Party") + phases_of("Ogre")
    assert RULESET.steps(state)[state.step].id == "resolve" and state.cursor == 0


def test_with_the_option_tied_sides_act_simultaneously() -> None:
    state = apply(demo(), a.SetOption(key="ties", value="simultaneous"))
    state = roll_initiative(state, {PARTY: 4, GOBLIN_SIDE: 4, OGRE_SIDE: 6})
    assert state.initiative.settled and state.initiative.pending == ()
    assert labels(state) == phases_of("Ogre") + phases_of("Party + Goblins")
    assert members(state, "Party + Goblins · melee") == [
        "Sir Ambrose",
        "Wendel",
        "Pipkin",
        "Thistle",
        "Goblin 1",
        "Goblin 2",
        "Goblin 3",
        "Goblin 4",
    ]
    assert "Tied at 4: Party + Goblins act simultaneously." in last_texts(state, 3)


def test_the_four_phases_come_in_order_within_each_side_and_follow_the_declarations() -> None:
    state = declare(demo(), WENDEL, "spell", "sleep")
    state = declare(state, THISTLE, "rune", "rune of vanishing")
    state = declare(state, AMBROSE, "flee")
    state = roll_initiative(state, {PARTY: 5, GOBLIN_SIDE: 2, OGRE_SIDE: 3})
    assert labels(state) == phases_of("Party") + phases_of("Ogre") + phases_of("Goblins")
    # Casters neither move nor attack; the fleeing only move.
    assert members(state, "Party · movement") == ["Sir Ambrose", "Pipkin"]
    assert members(state, "Party · missiles") == ["Pipkin"]
    assert members(state, "Party · magic") == ["Wendel", "Pipkin", "Thistle"]
    assert members(state, "Party · melee") == ["Pipkin"]
    assert all(slot.free for slot in state.order)  # within a phase the GM picks who goes first

    # The cursor walks them in that order.
    walked = []
    for _ in range(len(state.order)):
        walked.append(render(state.order[state.cursor].label))
        state = apply(state, a.NextStep())
    assert walked == labels(state)
    assert RULESET.steps(state)[state.step].id == "morale"


def test_a_side_may_wait_to_act_after_the_others() -> None:
    state = roll_initiative(demo(), {PARTY: 5, GOBLIN_SIDE: 3, OGRE_SIDE: 1})
    assert RULESET.action_available(state, "wait", None)
    fields = RULESET.action_fields(state, "wait", AMBROSE)
    assert fields[0].default == PARTY and [label for _key, label in fields[0].choices] == ["Party", "Goblins"]
    state = act(state, "wait", turn=PARTY)
    assert labels(state) == phases_of("Goblins") + phases_of("Ogre") + phases_of("Party")
    assert state.cursor == 0 and render(state.order[0].label) == "Goblins · movement"
    assert last_texts(state, 1) == ["Party waits, to act after the others."]

    # Once the goblins' turn is under way they cannot wait; the ogre still may.
    state = apply(state, a.NextStep())
    assert [t.key for t in RULESET.can_wait(state)] == [OGRE_SIDE]
    with pytest.raises(RuleError, match="^That side cannot wait now"):
        act(state, "wait", turn=GOBLIN_SIDE)


# -- options: individual initiative, slow weapons, the OSE text ------------------------------------------------
def test_individual_initiative_adds_the_dexterity_modifier() -> None:
    state = apply(demo(), a.SetOption(key="initiative", value="individual"))
    state = apply(state, a.StartFight())
    requests = RULESET.initiative_requests(state)
    goblins = state.combatant(GOBLINS[0]).group
    # Dex 10 → +0, 13 → +1, 16 → +1, 14 → +1; the goblins (a group, no Dex given: 10) and the ogre +0.
    assert [(r.key, render(r.label), r.dice, r.modifier) for r in requests] == [
        (AMBROSE, "Sir Ambrose", "1d6", 0),
        (WENDEL, "Wendel", "1d6", 1),
        (PIPKIN, "Pipkin", "1d6", 1),
        (THISTLE, "Thistle", "1d6", 1),
        (goblins, "Goblin", "1d6", 0),
        (OGRE, "Ogre", "1d6", 0),
    ]
    state = apply(state, a.NextStep())
    state = apply(
        state,
        a.RollInitiative(
            rolls={AMBROSE: d6(6), WENDEL: d6(1), PIPKIN: d6(4), THISTLE: d6(2), goblins: d6(4), OGRE: d6(1)}
        ),
    )
    # Totals: Ambrose 6, Pipkin 5, goblins 4, Thistle 3, Wendel 2, ogre 1.
    assert [(t.label.params["name"], t.value) for t in RULESET.round_of(state).turns] == [
        ("Sir Ambrose", 6),
        ("Pipkin", 5),
        ("Goblin", 4),
        ("Thistle", 3),
        ("Wendel", 2),
        ("Ogre", 1),
    ]
    assert labels(state)[:5] == [
        "Sir Ambrose · movement",
        "Sir Ambrose · missiles",
        "Sir Ambrose · magic",
        "Sir Ambrose · melee",
        "Pipkin · movement",
    ]


def slow_fight() -> State:
    state = build(
        {
            "Party": [
                ("Brunhild", 8, {"weapon": "two-handed sword", "damage": "1d10"}),
                ("Cob", 6, {"weapon": "sword"}),
            ],
            "Goblins": [("Goblin", 3, {"weapon": "spear", "morale": 7})],
        }
    )
    return apply(state, a.SetOption(key="slow_weapons", value="on"))


def test_with_the_option_slow_weapons_attack_last_in_the_round() -> None:
    state = roll_initiative(slow_fight(), {"s1": 5, "s4": 2})
    assert labels(state) == phases_of("Party") + phases_of("Goblins") + ["slow weapons"]
    assert members(state, "Party · movement") == ["Brunhild", "Cob"]
    assert members(state, "Party · melee") == ["Cob"]
    assert members(state, "slow weapons") == ["Brunhild"]
    brunhild = "c2"
    state = to_slot(state, "Party · melee")
    assert not RULESET.action_available(state, "attack", brunhild)
    state = to_slot(state, "slow weapons")
    assert RULESET.action_available(state, "attack", brunhild)
    assert ("Weapon", "two-handed sword, 1d10 — slow: acts last") in RULESET.details(state, brunhild)


def test_without_the_option_slow_weapons_act_with_their_side() -> None:
    state = roll_initiative(apply(slow_fight(), a.SetOption(key="slow_weapons", value="off")), {"s1": 5, "s4": 2})
    assert labels(state) == phases_of("Party") + phases_of("Goblins")
    assert members(state, "Party · melee") == ["Brunhild", "Cob"]


def test_the_ose_text_has_a_morale_phase_first_in_each_turn_and_no_fairy_runes() -> None:
    state = apply(demo(), a.SetOption(key="rules", value="ose"))
    assert RULESET.steps(state)[-1].label == "End of round"
    state = apply(state, a.StartFight())
    assert [value for value, _label in RULESET.declaration_fields(state, THISTLE)[0].choices] == [
        "none",
        "spell",
        "flee",
    ]
    with pytest.raises(RuleError, match="^Fairy runes are Dolmenwood's"):
        declare(state, THISTLE, "rune")
    state = roll_initiative(state, {PARTY: 5, GOBLIN_SIDE: 3, OGRE_SIDE: 1})
    # The player characters have no morale score: the party's turn has no morale phase.
    assert labels(state) == (
        phases_of("Party") + ["Goblins · morale"] + phases_of("Goblins") + ["Ogre · morale"] + phases_of("Ogre")
    )


# -- declarations, casting and disruption ---------------------------------------------------------------------
def test_declarations_are_recorded_and_fixed_once_initiative_is_rolled() -> None:
    state = declare(demo(), WENDEL, "spell", "sleep")
    assert RULESET.declaration(state, WENDEL) == {"intent": "spell", "what": "sleep"}
    assert last_texts(state, 1) == ["Wendel declares a spell: sleep."]
    state = apply(state, a.NextStep())
    state = apply(state, a.RollInitiative(rolls={PARTY: d6(5), GOBLIN_SIDE: d6(2), OGRE_SIDE: d6(1)}))
    with pytest.raises(RuleError, match="^Declarations are made before initiative is rolled.$"):
        declare(state, THISTLE, "rune")


def test_casters_do_not_move_the_round_they_cast() -> None:
    state = declare(demo(), WENDEL, "spell", "sleep")
    budget = {line.label: (line.left, line.total) for line in RULESET.budget(state, WENDEL)}
    assert budget == {"No move: casting": (0, 0), "Spell": (1, 1)}
    state = roll_initiative(state, {PARTY: 5, GOBLIN_SIDE: 2, OGRE_SIDE: 1})
    assert "Wendel" not in members(state, "Party · movement")
    assert not RULESET.action_available(state, "move", WENDEL)
    state = to_slot(state, "Party · magic")
    state = act(state, "cast", combatant=WENDEL)
    assert last_texts(state, 1) == ["Wendel casts sleep."]
    assert {line.label: line.left for line in RULESET.budget(state, WENDEL)}["Spell"] == 0


def hit(state: State, target: str, amount: int) -> State:
    return apply(state, a.Damage(combatant=target, amount=amount))


def test_a_caster_on_the_losing_side_hit_in_the_other_sides_melee_loses_the_spell() -> None:
    state = declare(demo(), WENDEL, "spell", "sleep")
    state = roll_initiative(state, {PARTY: 2, GOBLIN_SIDE: 5, OGRE_SIDE: 1})
    state = to_slot(state, "Goblins · melee")
    # Goblin 1 (attack +0) against Wendel (AC 10): 12 hits; the spear does 2 (Wendel 4 → 2).
    state = act(state, "attack", combatant=GOBLINS[0], target=WENDEL, to_hit=typed("1d20", 12), damage=typed("1d6", 2))
    assert state.combatant(WENDEL).hp == 2
    assert last_texts(state, 2) == [
        "Wendel takes 2 damage (1d6 (typed): 2): 2/4 HP.",
        "Wendel's spell sleep is disrupted (hit before his side's magic phase): it is lost from memory.",
    ]
    assert state.log_entries()[-1].facts == {"disrupted": "spell"}
    assert ("Disrupted", "the spell is lost") in RULESET.details(state, WENDEL)
    state = to_slot(state, "Party · magic")
    with pytest.raises(RuleError, match="^Wendel's spell was disrupted: it is lost.$"):
        act(state, "cast", combatant=WENDEL)
    assert {line.label: line.left for line in RULESET.budget(state, WENDEL)}["Spell"] == 0


def test_no_disruption_once_his_sides_magic_phase_has_come() -> None:
    state = declare(demo(), WENDEL, "spell", "sleep")
    state = roll_initiative(state, {PARTY: 5, GOBLIN_SIDE: 2, OGRE_SIDE: 1})
    state = to_slot(state, "Party · magic")
    state = hit(state, WENDEL, 1)  # in the magic phase itself: simultaneous with the casting
    state = to_slot(state, "Goblins · melee")
    state = hit(state, WENDEL, 1)  # after it
    assert RULESET.round_of(state).disrupted == ()
    assert not any("disrupted" in entry.facts for entry in state.log_entries())


def test_a_hit_before_initiative_or_a_failed_save_disrupts_and_a_rune_is_used_up() -> None:
    state = declare(demo(), WENDEL, "spell", "sleep")
    state = declare(state, THISTLE, "rune", "rune of vanishing")
    state = hit(state, WENDEL, 1)  # during the declarations
    assert last_texts(state, 1) == [
        "Wendel's spell sleep is disrupted (hit before his side's magic phase): it is lost from memory."
    ]
    state = roll_initiative(state, {PARTY: 2, GOBLIN_SIDE: 5, OGRE_SIDE: 1})
    state = act(state, "failed_save", combatant=THISTLE)
    assert last_texts(state, 2) == [
        "Thistle fails a saving throw.",
        "Thistle's fairy rune rune of vanishing is disrupted (a failed saving throw before his side's magic phase): "
        "it is used up.",
    ]
    assert RULESET.round_of(state).disrupted == (WENDEL, THISTLE)
    state = hit(state, THISTLE, 1)  # already lost: said once
    assert sum(1 for e in state.log_entries() if "disrupted" in e.facts) == 2


def test_a_fresh_round_forgets_the_declarations() -> None:
    state = declare(demo(), WENDEL, "spell", "sleep")
    state = roll_initiative(state, {PARTY: 5, GOBLIN_SIDE: 2, OGRE_SIDE: 1})
    while state.round == 1:
        state = apply(state, a.NextStep())
    assert RULESET.round_of(state).declarations == {} and state.order == ()
    assert RULESET.steps(state)[state.step].id == "declare"


# -- fleeing melee ---------------------------------------------------------------------------------------------
def test_a_fleeing_fighters_opponents_get_plus_two_and_ignore_his_shield() -> None:
    state = declare(demo(), AMBROSE, "flee")
    budget = {line.label: (line.left, line.total) for line in RULESET.budget(state, AMBROSE)}
    assert budget == {"Move (fleeing)": (1, 1), "No attack: fleeing": (0, 0)}
    state = roll_initiative(state, {PARTY: 2, GOBLIN_SIDE: 5, OGRE_SIDE: 1})

    # A missile at him: no bonus, his shield counts (AC 16): a 13 misses.
    state = to_slot(state, "Goblins · missiles")
    fields = RULESET.action_fields(state, "attack", GOBLINS[0])
    assert dict(fields[0].choices)[AMBROSE] == "Sir Ambrose: AC 16"
    state = act(
        state,
        "attack",
        combatant=GOBLINS[0],
        target=AMBROSE,
        range="medium",
        to_hit=typed("1d20", 13),
        damage=typed("1d6", 4),
    )
    assert (
        state.log_entries()[-1].text
        == "Goblin 1 attacks Sir Ambrose (missile): 1d20 (typed): 13 +0 = 13 against AC 16: miss."
    )

    # In melee: +2 to hit, and AC 16 − shield 1 = 15; the same 13 now hits (13 + 2 = 15).
    state = to_slot(state, "Goblins · melee")
    fields = RULESET.action_fields(state, "attack", GOBLINS[1])
    assert dict(fields[0].choices)[AMBROSE] == "Sir Ambrose: fleeing melee, +2 to hit, AC 15 without shield"
    state = act(state, "attack", combatant=GOBLINS[1], target=AMBROSE, to_hit=typed("1d20", 13), damage=typed("1d6", 4))
    attack = next(e for e in reversed(state.log_entries()) if "hit" in e.facts)
    assert attack.text == (
        "Goblin 2 attacks Sir Ambrose (melee): 1d20 (typed): 13 +2 = 15 against AC 15 "
        "(+2: fleeing melee, shield ignored): hit."
    )
    assert (attack.facts["needed"], attack.facts["total"], attack.facts["hit"]) == (13, 15, True)
    assert state.combatant(AMBROSE).hp == 9 - 4


def test_not_fleeing_the_same_roll_misses() -> None:
    state = roll_initiative(demo(), {PARTY: 2, GOBLIN_SIDE: 5, OGRE_SIDE: 1})
    state = to_slot(state, "Goblins · melee")
    state = act(state, "attack", combatant=GOBLINS[1], target=AMBROSE, to_hit=typed("1d20", 13), damage=typed("1d6", 4))
    assert (
        state.log_entries()[-1].text
        == "Goblin 2 attacks Sir Ambrose (melee): 1d20 (typed): 13 +0 = 13 against AC 16: miss."
    )
    # From behind his shield does not count either, without the +2: 13 against 15 misses, 15 hits.
    state = act(
        state,
        "attack",
        combatant=GOBLINS[2],
        target=AMBROSE,
        behind=True,
        to_hit=typed("1d20", 15),
        damage=typed("1d6", 1),
    )
    attack = next(e for e in reversed(state.log_entries()) if "hit" in e.facts)
    assert (
        attack.text
        == "Goblin 3 attacks Sir Ambrose (melee): 1d20 (typed): 15 +0 = 15 against AC 15 (shield ignored): hit."
    )


def test_the_fleeing_only_move_and_the_log_says_what_it_costs() -> None:
    state = declare(demo(), AMBROSE, "flee")
    state = roll_initiative(state, {PARTY: 5, GOBLIN_SIDE: 2, OGRE_SIDE: 1})
    assert [render(slot.label) for slot in state.order if AMBROSE in slot.combatants] == ["Party · movement"]
    state = act(state, "move", combatant=AMBROSE)
    assert last_texts(state, 1) == [
        "Sir Ambrose turns and flees from melee: he is out of reach of the melee attacks still to come this round."
    ]
    assert RULESET.round_of(state).spent[AMBROSE] == Spent(moved=True)
    assert not RULESET.action_available(state, "move", AMBROSE)


def test_an_attack_is_one_action_a_round() -> None:
    state = roll_initiative(demo(), {PARTY: 5, GOBLIN_SIDE: 2, OGRE_SIDE: 1})
    state = to_slot(state, "Party · missiles")
    # Pipkin (long bow, +1) at short range (+1): 11 + 2 = 13 hits Goblin 1 (AC 13); 3 damage drops it.
    fields = RULESET.action_fields(state, "attack", PIPKIN)
    assert [f.key for f in fields] == ["target", "range", "modifier", "to_hit"]
    assert [label for _key, label in fields[1].choices] == [
        "short (to 70 ft) +1",
        "medium (to 140 ft) +0",
        "long (to 210 ft) -1",
    ]
    # Before the roll: 13 − 2 = 11 or more, 10 faces of 20; at long range (−1 → +0) 13 or more, 40 %.
    assert (
        RULESET.form_preview(state, "attack", PIPKIN, {"target": GOBLINS[0], "range": "short"})
        == "Needs 11 or more on the d20 (AC 13, +2 to hit): 50% to hit."
    )
    assert (
        RULESET.form_preview(state, "attack", PIPKIN, {"target": GOBLINS[0], "range": "long"})
        == "Needs 13 or more on the d20 (AC 13, +0 to hit): 40% to hit."
    )
    # The hit asks for the bow's damage next, for the goblin it struck.
    before = state
    hit = act(state, "attack", combatant=PIPKIN, target=GOBLINS[0], range="short", to_hit=typed("1d20", 11))
    assert hit.combatant(GOBLINS[0]).status == "active"
    due = RULESET.damage_due(before, hit, "attack", {"combatant": PIPKIN, "target": GOBLINS[0]})
    assert due is not None and (due.target, due.dice) == (GOBLINS[0], "1d6")
    state = act(
        state,
        "attack",
        combatant=PIPKIN,
        target=GOBLINS[0],
        range="short",
        to_hit=typed("1d20", 11),
        damage=typed("1d6", 3),
    )
    assert state.combatant(GOBLINS[0]).status == "down"
    assert not RULESET.action_available(state, "attack", PIPKIN)
    state = to_slot(state, "Party · melee")
    with pytest.raises(RuleError, match="^Attack cannot be done now.$"):
        act(state, "attack", combatant=PIPKIN, target=GOBLINS[1], to_hit=typed("1d20", 11), damage=typed("1d6", 3))


# -- surprise and distance ----------------------------------------------------------------------------------
def test_surprise_is_1_or_2_on_1d6_and_the_surprised_side_loses_the_first_round() -> None:
    state = apply(demo(), a.BeginSurprise())
    state = apply(state, a.RollSurprise(rolls={PARTY: d6(2), GOBLIN_SIDE: d6(3), OGRE_SIDE: d6(6)}))
    assert state.surprised == (AMBROSE, WENDEL, PIPKIN, THISTLE)
    state = apply(state, a.StartFight())
    assert "Surprised, they lose this round: Sir Ambrose, Wendel, Pipkin, Thistle." in last_texts(state, 3)
    assert [r.key for r in RULESET.initiative_requests(state)] == [GOBLIN_SIDE, OGRE_SIDE]
    with pytest.raises(RuleError, match="^Wendel is surprised and loses this round.$"):
        declare(state, WENDEL, "spell")
    state = apply(state, a.NextStep())
    state = apply(state, a.RollInitiative(rolls={GOBLIN_SIDE: d6(4), OGRE_SIDE: d6(3)}))
    assert labels(state) == phases_of("Goblins") + phases_of("Ogre")
    while state.round == 1:
        state = apply(state, a.NextStep())
    assert state.surprised == ()
    assert [r.key for r in RULESET.initiative_requests(state)] == [PARTY, GOBLIN_SIDE, OGRE_SIDE]


@pytest.mark.parametrize(
    ("situation", "dice", "rolled", "text", "amount"),
    [
        ("dungeon", "2d6", 7, "70 ft", 70),
        ("wilderness", "4d6", 14, "140 yards", 140),
        ("wilderness_surprised", "1d4", 3, "30 yards", 30),
    ],
)
def test_encounter_distance(situation: str, dice: str, rolled: int, text: str, amount: int) -> None:
    assert {s.id: (s.dice, s.multiplier, s.unit) for s in RULESET.distance_situations()}[situation][0] == dice
    state = apply(demo(), a.BeginSurprise())
    if situation == "wilderness_surprised":  # offered only when a side is surprised
        state = apply(state, a.SetSurprised(sides=(OGRE_SIDE,)))
    state = apply(state, a.RollDistance(situation=situation, roll=typed(dice, rolled)))
    assert state.distance is not None and render(state.distance) == text
    assert state.log_entries()[-1].facts == {"distance": amount}


# -- newcomers, restarts, languages ---------------------------------------------------------------------------
def test_a_newcomer_joins_his_sides_turn_and_the_cursor_stays() -> None:
    state = roll_initiative(demo(), {PARTY: 5, GOBLIN_SIDE: 2, OGRE_SIDE: 1})
    state = to_slot(state, "Party · missiles")
    state = apply(state, a.AddCombatants(side=GOBLIN_SIDE, name="Goblin chief", hp=6, sheet={"morale": 8}))
    chief = state.combatants[-1].id
    assert chief in state.order[labels(state).index("Goblins · melee")].combatants
    assert render(state.order[state.cursor].label) == "Party · missiles"


def test_the_round_and_fight_state_survive_a_save() -> None:
    state = declare(demo(), WENDEL, "spell", "sleep")
    state = roll_initiative(state, {PARTY: 2, GOBLIN_SIDE: 5, OGRE_SIDE: 1})
    state = hit(state, OGRE, 3)
    decoded = msgspec.json.decode(msgspec.json.encode(state), type=State)
    assert isinstance(decoded.round_state, dict)
    assert RULESET.restore(decoded) == state


def test_the_state_is_the_same_in_every_language() -> None:
    def play(melee: str) -> State:
        state = declare(demo(), WENDEL, "spell", "sleep")
        state = roll_initiative(state, {PARTY: 2, GOBLIN_SIDE: 5, OGRE_SIDE: 1})
        state = to_slot(state, melee)
        return act(
            state, "attack", combatant=GOBLINS[0], target=WENDEL, to_hit=typed("1d20", 12), damage=typed("1d6", 2)
        )

    english = play("Goblins · melee")
    try:
        use_catalog(
            "xx",
            {
                "hit": "влучання",
                "movement": "рух",
                "Party": "Гурт",
                "{who} · {phase}": "{phase} — {who}",
                "a spell": "закляття",
            },
        )
        other = play("melee — Goblins")
        assert render(other.order[0].label) == "рух — Goblins"
    finally:
        use_catalog("en", {})
    assert other == english
