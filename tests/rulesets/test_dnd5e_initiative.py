"""D&D 5e initiative, the four methods, played through the engine with dice we choose.

Every expected number is worked out by hand from the seed (002) and the data file: Dex modifier =
(score − 10) // 2; speed-factor modifiers: spell −level, heavy melee −2, light or finesse melee +2,
two-handed melee −2, ranged loading −5; size tiny +5, small +2, large −2 …
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.common import ids, labels, order_names, rolled
from tests.rulesets.dnd5e_fight import Member, d20, entry, fight, play, step, texts, values
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply, initiative_asked
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import render
from tui_combat.rulesets.dnd5e import RULESET

PARTY = {"Ada": ("Ada", 20, {"dex": 14}), "Bram": ("Bram", 20, {"dex": 10})}


# -- standard ---------------------------------------------------------------------------------------------
def test_a_group_of_goblins_shares_one_roll_and_one_value() -> None:
    state = fight({"Party": [PARTY["Ada"], PARTY["Bram"]], "Goblins": [("Goblin", 7, {"dex": 14, "size": "small"}, 3)]})
    state = apply(state, a.StartFight())
    who = ids(state)
    asked, _fresh = initiative_asked(RULESET, state)
    goblins = (who["Goblin 1"], who["Goblin 2"], who["Goblin 3"])
    assert [(render(r.label), r.dice, r.modifier, r.combatants) for r in asked] == [
        ("Ada", "1d20", 2, (who["Ada"],)),
        ("Bram", "1d20", 0, (who["Bram"],)),
        ("Goblin", "1d20", 2, goblins),
    ]
    group_key = asked[2].key
    # Ada 12 + 2 = 14, Bram 9, the goblins 15 + 2 = 17, all three.
    state = apply(state, a.RollInitiative(rolls={who["Ada"]: d20(12), who["Bram"]: d20(9), group_key: d20(15)}))
    assert order_names(state) == [["Goblin 1", "Goblin 2", "Goblin 3"], ["Ada"], ["Bram"]]
    assert values(state) == [17, 14, 9] and labels(state) == ["17", "14", "9"]
    assert state.order[0].free  # the DM runs the goblins in the order he likes
    assert step(state) == "resolve" and state.acting_now() == goblins


def test_the_order_is_kept_for_the_whole_fight() -> None:
    state = fight({"Party": [PARTY["Ada"]], "Orcs": [("Orc", 15, {"dex": 12})]})
    state = apply(state, a.StartFight())
    who = ids(state)
    state = apply(state, a.RollInitiative(rolls={who["Ada"]: d20(3), who["Orc"]: d20(18)}))  # Ada 5, orc 19
    first = state.order
    for _next in range(3):  # orc → Ada → end of round → round 2
        state = apply(state, a.NextStep())
    assert state.round == 2 and state.order == first and step(state) == "resolve"
    assert [s.id for s in RULESET.steps(state)] == ["resolve", "end"]
    assert initiative_asked(RULESET, state) == ((), False)
    with pytest.raises(RuleError, match="Initiative is rolled in the initiative step"):
        apply(state, a.RollInitiative(rolls={}))


def test_a_surprised_creature_rolls_two_dice_and_keeps_the_lower() -> None:
    state = fight(
        {
            "Party": [PARTY["Ada"], PARTY["Bram"]],
            "Goblins": [("Goblin", 7, {"dex": 14}, 2), ("Scout", 9, {"dex": 16, "init_advantage": "advantage"})],
        }
    )
    who = ids(state)
    state = play(
        state,
        a.BeginSurprise(),
        a.SetSurprised(combatants=(who["Bram"], who["Goblin 2"], who["Scout"])),
        a.StartFight(),
    )
    assert "Surprised, they roll initiative with disadvantage: Bram, Goblin 2, Scout." in texts(state)
    asked, _fresh = initiative_asked(RULESET, state)
    # Bram rolls with disadvantage; the goblins split: Goblin 1 rolls alone, Goblin 2 (surprised) apart;
    # the scout's advantage and his surprise cancel: one d20.
    assert [(render(r.label), r.dice, r.modifier) for r in asked] == [
        ("Ada", "1d20", 2),
        ("Bram", "d20dis", 0),
        ("Goblin", "1d20", 2),
        ("Goblin (surprised)", "d20dis", 2),
        ("Scout", "1d20", 3),
    ]
    rolls = {
        r.key: roll_
        for r, roll_ in zip(asked, (d20(10), rolled("d20dis", 17, 6), d20(11), rolled("d20dis", 3, 19), d20(4)))
    }
    state = apply(state, a.RollInitiative(rolls=rolls))
    bram = entry(state, "Initiative — Bram")
    assert bram.text == "Initiative — Bram: d20dis: [(17), 6] = 6."  # both dice shown, the lower kept
    assert bram.rolls[0].faces == (17, 6) and bram.facts == {"total": 6}
    assert (
        entry(state, "Initiative — Goblin (surprised)").text
        == "Initiative — Goblin (surprised): d20dis: [3, (19)] = 3 +2 = 5."
    )
    # Ada 12, Goblin 1 13, Bram 6, Goblin 2 5, Scout 4 + 3 = 7.
    assert order_names(state) == [["Goblin 1"], ["Ada"], ["Scout"], ["Bram"], ["Goblin 2"]]
    assert values(state) == [13, 12, 7, 6, 5]


def test_a_newcomer_rolls_and_is_placed_while_the_turn_goes_on() -> None:
    state = fight({"Party": [PARTY["Ada"], PARTY["Bram"]], "Orcs": [("Orc", 15, {"dex": 12})]})
    state = apply(state, a.StartFight())
    who = ids(state)
    state = apply(state, a.RollInitiative(rolls={who["Ada"]: d20(13), who["Bram"]: d20(8), who["Orc"]: d20(10)}))
    assert order_names(state) == [["Ada"], ["Orc"], ["Bram"]]  # 15, 11, 8
    state = apply(state, a.NextStep())  # the orc's turn
    state = apply(state, a.AddCombatants(side="s2", name="Wolf", hp=11, sheet={"dex": 15}, count=2))
    wolves = (ids(state)["Wolf 1"], ids(state)["Wolf 2"])
    pending = state.initiative.pending
    assert [(render(r.label), r.dice, r.modifier, r.combatants) for r in pending] == [("Wolf", "1d20", 2, wolves)]
    state = apply(state, a.RollInitiative(rolls={pending[0].key: d20(10)}))  # 12: between Ada and the orc
    assert order_names(state) == [["Ada"], ["Wolf 1", "Wolf 2"], ["Orc"], ["Bram"]] and values(state) == [15, 12, 11, 8]
    assert state.acting_now() == (who["Orc"],)  # the orc's turn goes on
    state = play(state, a.NextStep(), a.NextStep(), a.NextStep())  # Bram → end → round 2
    assert state.round == 2 and order_names(state)[1] == ["Wolf 1", "Wolf 2"]


def test_a_tie_waits_for_the_dms_choice_which_is_remembered() -> None:
    state = fight(
        {"Party": [PARTY["Ada"], PARTY["Bram"]], "Orcs": [("Orc", 15, {"dex": 12}), ("Ogre", 59, {"dex": 8})]}
    )
    state = apply(state, a.StartFight())
    who = ids(state)
    # Ada 13 + 2 = 15, the orc 14 + 1 = 15, Bram 9, the ogre 10 − 1 = 9.
    state = apply(
        state,
        a.RollInitiative(rolls={who["Ada"]: d20(13), who["Bram"]: d20(9), who["Orc"]: d20(14), who["Ogre"]: d20(10)}),
    )
    assert labels(state) == ["15, tie", "9, tie"] and order_names(state) == [["Ada", "Orc"], ["Bram", "Ogre"]]
    assert all(slot.free for slot in state.order)
    assert [t for t in texts(state) if t.startswith("Tie")] == [
        "Tie at 15: Ada, Orc. The DM decides who goes first (key f).",
        "Tie at 9: Bram, Ogre. The DM decides who goes first (key f).",
    ]
    assert RULESET.action_available(state, "tie", None)
    fields = RULESET.action_fields(state, "tie", "")
    assert [(f.label, f.choices) for f in fields] == [
        ("Acts 1st (the DM chooses)", ((who["Ada"], "Ada"), (who["Orc"], "Orc")))
    ]

    # During Ada's turn (the tie slot acts first), the DM decides: the orc, then Ada. The turn starts with the orc.
    state = apply(state, a.RulesetAction(name="tie", args={"place1": who["Orc"]}))
    assert labels(state) == ["15", "15", "9, tie"] and order_names(state)[:2] == [["Orc"], ["Ada"]]
    assert state.cursor == 0 and state.acting_now() == (who["Orc"],)
    assert texts(state)[-1] == "Tie at 15 decided: Orc, Ada."
    state = apply(state, a.RulesetAction(name="tie", args={"place1": who["Bram"]}))
    assert order_names(state) == [["Orc"], ["Ada"], ["Bram"], ["Ogre"]]
    assert not RULESET.action_available(state, "tie", None)

    # A newcomer at 5 rebuilds the order: the decisions hold.
    state = apply(state, a.AddCombatants(side="s2", name="Rat", hp=1, sheet={"dex": 10}))
    state = apply(state, a.RollInitiative(rolls={state.initiative.pending[0].key: d20(5)}))
    assert order_names(state) == [["Orc"], ["Ada"], ["Bram"], ["Ogre"], ["Rat"]]


def test_a_tie_between_player_characters_is_the_players_choice() -> None:
    state = fight({"Party": [PARTY["Ada"], ("Cleo", 20, {"dex": 14})], "Orcs": [("Orc", 15, {"dex": 12})]})
    state = apply(state, a.StartFight())
    who = ids(state)
    state = apply(state, a.RollInitiative(rolls={who["Ada"]: d20(11), who["Cleo"]: d20(11), who["Orc"]: d20(2)}))
    assert texts(state)[-2] == "Tie at 13: Ada, Cleo. The players decide who goes first (key f)."
    assert RULESET.action_fields(state, "tie", "")[0].label == "Acts 1st (the players choose)"
    with pytest.raises(RuleError, match="Choose each of the tied creatures once"):
        apply(state, a.RulesetAction(name="tie", args={"place1": who["Orc"]}))


# -- static -----------------------------------------------------------------------------------------------
def test_static_initiative_with_advantage_and_with_disadvantage() -> None:
    state = fight(
        {
            "Party": [
                ("Ada", 20, {"dex": 14, "init_advantage": "advantage"}),
                ("Bram", 20, {"dex": 12}),
                ("Cleo", 20, {"dex": 8, "init_advantage": "disadvantage"}),
            ],
            "Orcs": [
                ("Orc", 15, {"dex": 12, "init_advantage": "advantage"}),
                ("Ogre", 59, {"dex": 8, "init_bonus": 3}),
            ],
        },
        initiative="static",
    )
    who = ids(state)
    state = play(state, a.BeginSurprise(), a.SetSurprised(combatants=(who["Bram"], who["Orc"])), a.StartFight())
    # Ada 10 + 2 + 5 = 17; Bram 10 + 1 − 5 (surprised) = 6; Cleo 10 − 1 − 5 = 4; the orc 10 + 1 + 5 − 5 = 11;
    # the ogre 10 − 1 + 3 = 12. No roll: the order stands at once and Ada's turn has started.
    assert order_names(state) == [["Ada"], ["Ogre"], ["Orc"], ["Bram"], ["Cleo"]] and values(state) == [
        17,
        12,
        11,
        6,
        4,
    ]
    assert initiative_asked(RULESET, state) == ((), False)
    assert step(state) == "resolve" and state.acting_now() == (who["Ada"],)
    assert "Static initiative: Ada 17, Bram 6, Cleo 4, Orc 11, Ogre 12." in texts(state)
    # A newcomer is placed at once (10 + 2 = 12 ties with the ogre: a tie for the DM).
    state = apply(state, a.AddCombatants(side="s2", name="Wolf", hp=11, sheet={"dex": 15}))
    assert state.initiative.pending == () and labels(state) == ["17", "12, tie", "11", "6", "4"]
    assert state.acting_now() == (who["Ada"],)


# -- side -------------------------------------------------------------------------------------------------
def test_tied_sides_reroll_until_one_wins() -> None:
    state = fight(
        {
            "Party": [PARTY["Ada"], PARTY["Bram"]],
            "Goblins": [("Goblin", 7, {"dex": 14}, 2)],
            "Wolves": [("Wolf", 11, {"dex": 15})],
        },
        initiative="side",
    )
    state = apply(state, a.StartFight())
    asked, _fresh = initiative_asked(RULESET, state)
    assert [(r.key, render(r.label), r.dice, r.modifier) for r in asked] == [
        ("s1", "Party", "1d20", 0),
        ("s2", "Goblins", "1d20", 0),
        ("s3", "Wolves", "1d20", 0),
    ]
    state = apply(state, a.RollInitiative(rolls={"s1": d20(12), "s2": d20(12), "s3": d20(4)}))
    assert [(r.key, render(r.label)) for r in state.initiative.pending] == [
        ("s1#2", "Party, tie reroll"),
        ("s2#2", "Goblins, tie reroll"),
    ]
    state = apply(state, a.RollInitiative(rolls={"s1#2": d20(7), "s2#2": d20(7)}))  # tied again
    assert [r.key for r in state.initiative.pending] == ["s1#3", "s2#3"]
    state = apply(state, a.RollInitiative(rolls={"s1#3": d20(3), "s2#3": d20(17)}))
    assert labels(state) == ["Goblins", "Party", "Wolves"] and all(slot.free for slot in state.order)
    assert order_names(state) == [["Goblin 1", "Goblin 2"], ["Ada", "Bram"], ["Wolf"]]
    # A newcomer of a side already in the order joins its slot; no roll.
    state = apply(state, a.AddCombatants(side="s1", name="Cleo", hp=20, sheet={"dex": 12}))
    assert state.initiative.pending == () and order_names(state)[1] == ["Ada", "Bram", "Cleo"]


# -- speed factor -------------------------------------------------------------------------------------------
SPEED: dict[str, list[Member]] = {
    "Party": [
        ("Oswin", 40, {"dex": 10, "weapons": "shortsword"}),
        ("Lia", 30, {"dex": 14, "weapons": "shortsword, dagger"}),
        ("Grum", 50, {"dex": 14, "weapons": "greatsword"}),
    ],
    "Monsters": [
        ("Goblin", 7, {"dex": 14, "size": "small", "weapons": "scimitar"}),
        ("Mage", 40, {"dex": 10}),
        ("Crossbowman", 16, {"dex": 12, "weapons": "heavy crossbow"}),
        ("Ogre", 59, {"dex": 8, "size": "large"}),
    ],
}
DECLARED: dict[str, tuple[dict[str, Any], int, int]] = {
    # The seed's paladin: a 2nd-level spell as a bonus action (−2), then a shortsword (+2): +0.
    "Oswin": ({"action": "attack", "weapon": "shortsword", "bonus": "spell", "bonus_spell_level": 2}, 0, 0),
    # Two light weapons: +2 once. Dex +2.
    "Lia": ({"action": "attack", "weapon": "shortsword", "bonus": "attack", "bonus_weapon": "dagger"}, 2, 4),
    # A greatsword is heavy (−2) and two-handed (−2).
    "Grum": ({"action": "attack", "weapon": "greatsword"}, -4, -2),
    # Small (+2), a scimitar is light and finesse (+2 once).
    "Goblin": ({"action": "attack", "weapon": "scimitar"}, 4, 6),
    # A 3rd-level spell and a 2nd-level one as a bonus action: only the highest counts, −3.
    "Mage": ({"action": "spell", "spell_level": 3, "bonus": "spell", "bonus_spell_level": 2}, -3, -3),
    # A heavy crossbow is a ranged weapon with loading (−5); heavy and two-handed count for melee weapons only.
    "Crossbowman": ({"action": "attack", "weapon": "heavy crossbow"}, -5, -4),
    # Large (−2), a greatclub is two-handed (−2), and the DM's −5 for cranking a winch.
    "Ogre": ({"action": "attack", "weapon": "greatclub", "adjust": -5}, -9, -10),
}


def test_speed_factor_modifiers_of_declared_actions() -> None:
    state = apply(fight(SPEED, initiative="speed_factor"), a.StartFight())
    assert [s.id for s in RULESET.steps(state)] == ["declare", "initiative", "resolve", "end"]
    who = ids(state)
    for name, (declaration, _speed, _modifier) in DECLARED.items():
        state = apply(state, a.Declare(combatant=who[name], declaration=declaration))
        assert entry(state, f"{name} declares").facts == {"speed_factor": DECLARED[name][1]}, name
    assert entry(state, "Oswin declares").text == (
        "Oswin declares an attack with shortsword, and as a bonus action a spell of level 2: speed factor +0 "
        "(spell of level 2 -2, light or finesse melee weapon +2)."
    )
    assert entry(state, "Ogre declares").secret and not entry(state, "Oswin declares").secret
    asked = {render(r.label): r for r in initiative_asked(RULESET, state)[0]}
    assert {name: request.modifier for name, request in asked.items()} == {n: m for n, (_d, _s, m) in DECLARED.items()}
    assert all(request.secret for request in asked.values())


def test_speed_factor_ties_go_to_dexterity_then_to_roll_offs() -> None:
    state = apply(
        fight({"Party": SPEED["Party"], "Monsters": SPEED["Monsters"][:1]}, initiative="speed_factor"), a.StartFight()
    )
    who = ids(state)
    for name in ("Oswin", "Lia", "Grum", "Goblin"):
        state = apply(state, a.Declare(combatant=who[name], declaration=DECLARED[name][0]))
    state = apply(state, a.NextStep())
    assert step(state) == "initiative"
    # Every total is 15: Oswin 15 + 0, Lia 11 + 4, Grum 17 − 2, the goblin 9 + 6. Oswin's Dexterity (10) is
    # the lowest: he goes last with no roll; the other three (Dex 14) roll off.
    state = apply(
        state,
        a.RollInitiative(
            rolls={who["Oswin"]: d20(15), who["Lia"]: d20(11), who["Grum"]: d20(17), who["Goblin"]: d20(9)}
        ),
    )
    pending = state.initiative.pending
    assert [(render(r.label), r.secret) for r in pending] == [
        ("Lia, roll-off", True),
        ("Grum, roll-off", True),
        ("Goblin, roll-off", True),
    ]
    # The goblin wins the roll-off (13); Lia and Grum tie again (8) and roll off once more: Grum 19, Lia 5.
    state = apply(
        state, a.RollInitiative(rolls={pending[0].key: d20(8), pending[1].key: d20(8), pending[2].key: d20(13)})
    )
    again = state.initiative.pending
    assert [render(r.label) for r in again] == ["Lia, roll-off", "Grum, roll-off"]
    state = apply(state, a.RollInitiative(rolls={again[0].key: d20(5), again[1].key: d20(19)}))
    assert order_names(state) == [["Goblin"], ["Grum"], ["Lia"], ["Oswin"]] and values(state) == [15, 15, 15, 15]
    assert entry(state, "Order:").secret  # the speed-factor rolls and order are the DM's
    assert step(state) == "resolve" and state.acting_now() == (who["Goblin"],)

    # Round 2: choose again, roll again, a new order.
    state = play(state, a.NextStep(), a.NextStep(), a.NextStep(), a.NextStep(), a.NextStep())
    assert state.round == 2 and step(state) == "declare" and state.order == () and not state.initiative.settled
    assert RULESET.round_of(state).declarations == {}
    state = apply(
        state,
        a.RollInitiative(rolls={who["Oswin"]: d20(20), who["Lia"]: d20(2), who["Grum"]: d20(4), who["Goblin"]: d20(1)}),
    )
    # Nothing declared: only the goblin's size (+2) counts. Oswin 20, Lia 2 + 2, Grum 4 + 2, goblin 1 + 2 + 2.
    assert order_names(state) == [["Oswin"], ["Grum"], ["Goblin"], ["Lia"]] and values(state) == [20, 6, 5, 4]
    with pytest.raises(RuleError, match="fixed once initiative is rolled"):
        apply(state, a.Declare(combatant=who["Lia"], declaration={"action": "other"}))


def test_the_countdown_starts_at_30() -> None:
    state = fight(
        {"Party": [("Swift", 20, {"dex": 20, "init_bonus": 8})], "Orcs": [("Orc", 15, {"dex": 12})]},
        initiative="speed_factor",
    )
    state = apply(state, a.StartFight())
    who = ids(state)
    state = apply(state, a.RollInitiative(rolls={who["Swift"]: d20(19), who["Orc"]: d20(7)}))
    assert labels(state) == ["30", "8"] and values(state) == [32, 8]  # 19 + 5 + 8 = 32 acts at the call of 30


# -- lair actions -------------------------------------------------------------------------------------------
def test_the_lair_action_comes_at_20_after_a_creature_that_rolled_20() -> None:
    state = fight(
        {"Party": [PARTY["Ada"], PARTY["Bram"]], "Dragon": [("Dragon", 200, {"dex": 10, "size": "huge"})]}, lair="on"
    )
    state = apply(state, a.StartFight())
    who = ids(state)
    # Ada 18 + 2 = 20, Bram 19, the dragon 12.
    state = apply(state, a.RollInitiative(rolls={who["Ada"]: d20(18), who["Bram"]: d20(19), who["Dragon"]: d20(12)}))
    assert labels(state) == ["20", "lair action", "19", "12"] and order_names(state) == [
        ["Ada"],
        [],
        ["Bram"],
        ["Dragon"],
    ]
    assert texts(state)[-1] == "Order: 20: Ada; lair action; 19: Bram; 12: Dragon."
    state = apply(state, a.NextStep())
    assert (
        state.cursor == 1
        and texts(state)[-1] == "Lair action: the lair acts (initiative count 20, after the creatures at 20)."
    )
    # A newcomer rolling 20 + 3 goes first; the lair keeps its place after everyone at 20 or more.
    state = apply(state, a.AddCombatants(side="s2", name="Kobold", hp=5, sheet={"dex": 16}))
    state = apply(state, a.RollInitiative(rolls={state.initiative.pending[0].key: d20(20)}))
    assert labels(state) == ["23", "20", "lair action", "19", "12"] and state.cursor == 2
    state = play(state, a.NextStep(), a.NextStep(), a.NextStep(), a.NextStep())  # Bram, dragon, end, round 2
    assert state.round == 2 and labels(state) == ["23", "20", "lair action", "19", "12"]

    # Speed factor, rolled anew: the lair slot is placed again.
    state = apply(state, a.SetOption(key="initiative", value="speed_factor"))
    state = play(state, *[a.NextStep()] * 6)  # the rest of round 2 → round 3
    assert state.round == 3 and step(state) == "declare" and state.order == ()
    state = apply(
        state,
        a.RollInitiative(
            rolls={r.key: d20(total) for r, total in zip(initiative_asked(RULESET, state)[0], (18, 3, 20, 4))}
        ),
    )
    # Ada 20, Bram 3, the dragon 20 − 5 (huge) = 15, the kobold 4 + 3 = 7.
    assert labels(state) == ["20", "lair action", "15", "7", "3"]


def test_lair_with_side_initiative() -> None:
    state = fight({"Party": [PARTY["Ada"]], "Dragon": [("Dragon", 200, {"dex": 10})]}, initiative="side", lair="on")
    state = play(state, a.StartFight(), a.RollInitiative(rolls={"s1": d20(5), "s2": d20(20)}))
    assert labels(state) == ["Dragon", "lair action", "Party"]


# -- changing the method between rounds -----------------------------------------------------------------------
def test_a_new_method_takes_effect_when_the_next_round_starts() -> None:
    state = fight({"Party": [PARTY["Ada"]], "Orcs": [("Orc", 15, {"dex": 12})]})
    state = apply(state, a.StartFight())
    who = ids(state)
    state = apply(state, a.RollInitiative(rolls={who["Ada"]: d20(3), who["Orc"]: d20(18)}))
    state = apply(state, a.SetOption(key="initiative", value="static"))
    assert [s.id for s in RULESET.steps(state)] == ["initiative", "resolve", "end"]  # this round keeps its shape
    state = play(state, a.NextStep(), a.NextStep(), a.NextStep())  # Ada → end → round 2
    # Static: Ada 10 + 2 = 12, the orc 10 + 1 = 11.
    assert state.round == 2 and order_names(state) == [["Ada"], ["Orc"]] and values(state) == [12, 11]
    assert [s.id for s in RULESET.steps(state)] == ["resolve", "end"] and state.acting_now() == (who["Ada"],)


def test_declarations_belong_to_the_speed_factor() -> None:
    state = play(fight({"Party": [PARTY["Ada"]], "Orcs": [("Orc", 15, {"dex": 12})]}), a.StartFight())
    with pytest.raises(RuleError, match="Only the speed-factor initiative"):
        apply(state, a.Declare(combatant=ids(state)["Ada"], declaration={"action": "attack"}))


def test_a_roll_off_asked_for_survives_a_restart(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tui_combat.fight.store import Store

    store = Store.create(
        fight({"Party": [PARTY["Ada"]], "Orcs": [("Orc", 15, {"dex": 14})]}, initiative="speed_factor"), tmp_path / "s"
    )
    store.dispatch(a.StartFight())
    who = ids(store.state)
    store.dispatch(a.Declare(combatant=who["Orc"], declaration={"action": "other", "adjust": 2}))
    store.dispatch(a.RollInitiative(rolls={who["Ada"]: d20(12), who["Orc"]: d20(10)}))  # 14 and 10 + 2 + 2
    before = store.state
    assert [render(r.label) for r in before.initiative.pending] == ["Ada, roll-off", "Orc, roll-off"]
    store.close()
    store = Store.resume(tmp_path / "s")
    assert store.state == before
    store.dispatch(a.RollInitiative(rolls={r.key: d20(total) for r, total in zip(before.initiative.pending, (4, 9))}))
    assert order_names(store.state) == [["Orc"], ["Ada"]]
    store.close()


def test_a_roll_pending_at_the_end_of_a_round_does_not_reset_the_order() -> None:
    state = fight({"Party": [PARTY["Ada"], PARTY["Bram"]], "Orcs": [("Orc", 15, {"dex": 12})]})
    state = apply(state, a.StartFight())
    who = ids(state)
    state = apply(state, a.RollInitiative(rolls={who["Ada"]: d20(13), who["Bram"]: d20(8), who["Orc"]: d20(10)}))
    state = play(state, a.NextStep(), a.NextStep(), a.NextStep())  # the end of round 1
    state = apply(state, a.AddCombatants(side="s2", name="Wolf", hp=11, sheet={"dex": 15}))
    state = apply(state, a.NextStep())  # round 2 begins with the wolf's roll still asked for
    assert (
        state.round == 2 and order_names(state) == [["Ada"], ["Orc"], ["Bram"]] and state.acting_now() == (who["Ada"],)
    )
    assert [render(r.label) for r in state.initiative.pending] == ["Wolf"]
    state = apply(state, a.RollInitiative(rolls={state.initiative.pending[0].key: d20(20)}))  # 22
    assert order_names(state) == [["Wolf"], ["Ada"], ["Orc"], ["Bram"]] and state.acting_now() == (who["Ada"],)


def test_a_creature_down_when_the_order_was_rolled_gets_a_place_when_it_is_back() -> None:
    state = fight({"Party": [PARTY["Ada"], PARTY["Bram"]], "Orcs": [("Orc", 15, {"dex": 12})]})
    who = ids(state)
    state = play(state, a.SetStatus(combatant=who["Bram"], status="down"), a.StartFight())
    assert [render(r.label) for r in initiative_asked(RULESET, state)[0]] == ["Ada", "Orc"]
    state = apply(state, a.RollInitiative(rolls={who["Ada"]: d20(13), who["Orc"]: d20(10)}))
    state = apply(state, a.Heal(combatant=who["Bram"], amount=5))
    assert [render(r.label) for r in state.initiative.pending] == ["Bram"]
    state = apply(state, a.RollInitiative(rolls={state.initiative.pending[0].key: d20(12)}))
    assert order_names(state) == [["Ada"], ["Bram"], ["Orc"]]
