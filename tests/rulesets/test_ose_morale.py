"""OSE / Dolmenwood morale: 2d6 against the score, breaking when higher; the triggers that prompt a check;
two passed checks and morale 12 end the checks; the chance of breaking shown before the roll."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.common import config_folder, house_rules_file, typed
from tests.rulesets.ose_fight import (
    AMBROSE,
    GOBLIN_SIDE,
    GOBLINS,
    OGRE,
    OGRE_SIDE,
    act,
    build,
    demo,
    last_texts,
    next_round,
    started,
    to_step,
)
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.fight.store import Store
from tui_combat.rulesets.ose import RULESET, MoralePrompt, breaking_chance, chance_text, tables


def morale(state: State, who: str, total: int, modifier: str = "0", whole_side: bool = True) -> State:
    return act(state, "morale", combatant=who, modifier=modifier, whole_side=whole_side, roll=typed("2d6", total))


def due(state: State) -> list[tuple[str, str]]:
    return [(p.side, p.reason) for p in RULESET.fight_of(state).prompts if not p.answered]


# -- the roll ---------------------------------------------------------------------------------------------------
def test_a_roll_of_8_against_morale_7_breaks() -> None:
    state = morale(started(demo()), GOBLINS[0], 8)
    entry = state.log_entries()[-1]
    assert entry.text == (
        "Morale — Goblins: 2d6 (typed): 8 against 7: the nerve breaks: flight or surrender next round."
    )
    assert entry.facts == {"morale": 7, "modifier": 0, "total": 8, "broken": True}
    assert RULESET.fight_of(state).broken == {g: 1 for g in GOBLINS}
    assert ("Morale", "7: broken in round 1, flees or surrenders") in RULESET.details(state, GOBLINS[2])
    # Next round the GM is reminded; no more checks for them.
    state = next_round(state)
    assert "Nerve broken: Goblin 1, Goblin 2, Goblin 3, Goblin 4 — flight or surrender this round." in last_texts(
        state, 2
    )
    assert not RULESET.action_available(state, "morale", GOBLINS[0])


def test_a_roll_of_7_against_morale_7_holds() -> None:
    state = morale(started(demo()), GOBLINS[0], 7)
    assert state.log_entries()[-1].text == "Morale — Goblins: 2d6 (typed): 7 against 7: the nerve holds."
    assert RULESET.fight_of(state).broken == {}
    assert RULESET.fight_of(state).passes == {g: 1 for g in GOBLINS}


def test_the_situational_modifier_is_added_to_the_score_up_to_two() -> None:
    state = morale(started(demo()), GOBLINS[0], 9, modifier="+2")  # 9 against 7 + 2: holds
    assert state.log_entries()[-1].text == "Morale — Goblins: 2d6 (typed): 9 against 7 +2: the nerve holds."
    state = morale(state, GOBLINS[0], 6, modifier="-2")  # 6 against 7 − 2 = 5: breaks
    assert state.log_entries()[-1].facts["broken"] is True
    with pytest.raises(RuleError, match="^The situational modifier is from −2 to \\+2.$"):
        morale(started(demo()), GOBLINS[0], 6, modifier="+3")


def test_the_chance_of_breaking_is_shown_before_the_roll() -> None:
    # 2d6 higher than 7: 8 (5 ways), 9 (4), 10 (3), 11 (2), 12 (1) = 15 of 36.
    assert breaking_chance(7) == (15, 36)
    assert chance_text(7) == "breaks on 8+: 15 in 36 (42%)"
    assert chance_text(12) == "cannot break" and chance_text(2, -2) == "always breaks"
    state = started(demo())
    fields = RULESET.action_fields(state, "morale", GOBLINS[0])
    assert [(f.key, f.kind, f.default) for f in fields] == [
        ("modifier", "choice", "0"),
        ("whole_side", "bool", True),
        ("roll", "roll", "2d6"),
    ]
    assert [label for _value, label in fields[0].choices] == [
        "-2: breaks on 6+: 26 in 36 (72%)",  # higher than 5: 36 − (1 + 2 + 3 + 4) = 26
        "-1: breaks on 7+: 21 in 36 (58%)",  # higher than 6: 6 + 15
        "0: breaks on 8+: 15 in 36 (42%)",
        "+1: breaks on 9+: 10 in 36 (28%)",  # higher than 8: 4 + 3 + 2 + 1
        "+2: breaks on 10+: 6 in 36 (17%)",
    ]  # higher than 9: 3 + 2 + 1
    assert ("Morale", "7 — breaks on 8+: 15 in 36 (42%)") in RULESET.details(state, GOBLINS[0])
    # The ogre: higher than 10 is 11 or 12, 3 of 36.
    assert ("Morale", "10 — breaks on 11+: 3 in 36 (8%)") in RULESET.details(state, OGRE)


def test_one_creature_may_check_alone() -> None:
    state = morale(started(demo()), GOBLINS[1], 3, whole_side=False)
    assert state.log_entries()[-1].text == "Morale — Goblin 2: 2d6 (typed): 3 against 7: the nerve holds."
    assert RULESET.fight_of(state).passes == {GOBLINS[1]: 1}


# -- the triggers -----------------------------------------------------------------------------------------------
def test_a_sides_first_death_and_half_the_side_out_prompt_a_check() -> None:
    state = started(demo())
    state = apply(state, a.Damage(combatant=GOBLINS[0], amount=3))  # 3 → 0: down
    assert last_texts(state, 1) == ["Morale check due for Goblins: first death."]
    assert due(state) == [(GOBLIN_SIDE, "first death")]
    state = apply(state, a.Damage(combatant=GOBLINS[1], amount=1))  # hurt, still up: nothing
    state = apply(state, a.SetStatus(combatant=GOBLINS[2], status="fled"))  # 2 of 4 out
    assert last_texts(state, 1) == ["Morale check due for Goblins: half the side is out."]
    assert ("Morale check due", "first death, half the side is out") in RULESET.details(state, GOBLINS[3])
    # The morale step reminds the GM; one check answers both.
    state = to_step(state, "morale")
    assert "Morale check still due for Goblins: first death, half the side is out." in last_texts(state, 2)
    state = morale(state, GOBLINS[1], 5)
    assert due(state) == []
    # Only those still up checked: Goblin 2 and Goblin 4.
    assert RULESET.fight_of(state).passes == {GOBLINS[1]: 1, GOBLINS[3]: 1}


def test_player_characters_are_never_prompted() -> None:
    state = started(demo())
    state = apply(state, a.Damage(combatant=AMBROSE, amount=9))
    assert RULESET.fight_of(state).prompts == ()
    assert not RULESET.action_available(state, "morale", "c3")
    with pytest.raises(RuleError, match="^Morale cannot be done now.$"):
        morale(state, "c3", 7)
    assert (
        RULESET.morale_refusal(state, state.combatant("c3"))
        == "Wendel has no morale score: a player character decides for himself."
    )


def test_after_two_passed_checks_no_prompt_and_no_check() -> None:
    state = morale(started(demo()), GOBLINS[0], 6)
    state = morale(state, GOBLINS[0], 7)
    assert last_texts(state, 1) == [
        "Goblin 1, Goblin 2, Goblin 3, Goblin 4 passed 2 morale checks: a fight to the death."
    ]
    state = apply(state, a.Damage(combatant=GOBLINS[0], amount=3))  # the first death
    state = apply(state, a.Damage(combatant=GOBLINS[1], amount=3))  # half the side
    assert RULESET.fight_of(state).prompts == ()
    assert not any("morale_due" in e.facts for e in state.log_entries())
    assert not RULESET.action_available(state, "morale", GOBLINS[2])
    assert (
        RULESET.morale_refusal(state, state.combatant(GOBLINS[2]))
        == "Goblin 3 passed 2 morale checks: he fights to the death."
    )
    assert ("Morale", "7: 2 checks passed, fights to the death") in RULESET.details(state, GOBLINS[2])


def test_morale_12_never_prompts_and_never_checks() -> None:
    state = started(
        build(
            {
                "Party": [("Ada", 10, {})],
                "Skeletons": [("Skeleton A", 4, {"morale": 12}), ("Skeleton B", 4, {"morale": 12})],
                "Wight": [("Wight", 12, {"morale": 12})],
            }
        )
    )
    skeleton_a, skeleton_b, wight = "c4", "c5", "c7"
    state = apply(state, a.Damage(combatant=skeleton_a, amount=4))  # first death
    state = apply(state, a.Damage(combatant=skeleton_b, amount=4))  # the whole side
    state = apply(state, a.Damage(combatant=wight, amount=1))  # a lone creature's first wound
    state = apply(state, a.Damage(combatant=wight, amount=8))  # 3 of 12: a quarter
    assert RULESET.fight_of(state).prompts == ()
    assert not RULESET.action_available(state, "morale", wight)
    assert (
        RULESET.morale_refusal(state, state.combatant(wight))
        == "Morale 12: Wight fights to the death and never checks."
    )
    assert ("Morale", "12: fights to the death, never checks") in RULESET.details(state, wight)


def test_a_lone_creature_prompts_at_its_first_damage_and_at_a_quarter_of_its_hp() -> None:
    state = started(demo())
    state = apply(state, a.Damage(combatant=OGRE, amount=5))  # 19 → 14
    assert last_texts(state, 1) == ["Morale check due for Ogre: first damaged."]
    state = morale(state, OGRE, 6)  # 6 against 10: holds, and answers the prompt
    state = apply(state, a.Damage(combatant=OGRE, amount=9))  # 14 → 5: 5 × 4 = 20 > 19, above a quarter
    assert due(state) == []
    state = apply(state, a.Damage(combatant=OGRE, amount=1))  # 5 → 4: 4 × 4 = 16 ≤ 19
    assert last_texts(state, 1) == ["Morale check due for Ogre: a quarter of its HP or less."]
    assert RULESET.fight_of(state).prompts == (
        MoralePrompt(side=OGRE_SIDE, reason="first damaged", round=1, answered=True),
        MoralePrompt(side=OGRE_SIDE, reason="a quarter of its HP or less", round=1),
    )
    state = apply(state, a.Damage(combatant=OGRE, amount=1))  # each trigger once
    assert sum(1 for e in state.log_entries() if "morale_due" in e.facts) == 2


def test_no_prompt_outside_a_round_or_for_a_lone_creatures_death() -> None:
    state = apply(demo(), a.Damage(combatant=OGRE, amount=3))  # before the fight
    state = apply(state, a.SetStatus(combatant=GOBLINS[0], status="down"))
    assert RULESET.fight_of(state).prompts == ()
    state = started(state)
    assert RULESET.fight_of(state).prompts == ()
    state = apply(state, a.Damage(combatant=OGRE, amount=30))  # killed outright: nothing to check
    assert RULESET.fight_of(state).prompts == ()


def test_a_morale_check_from_a_journal_reads_its_roll_back() -> None:
    store = Store(started(demo()))
    store.dispatch(
        a.RulesetAction(
            name="morale",
            args={
                "combatant": GOBLINS[0],
                "modifier": "-1",
                "whole_side": True,
                "roll": {"expr": "2d6", "total": 7, "faces": [3, 4], "physical": False},
            },
        )
    )
    assert store.state.log_entries()[-1].facts == {"morale": 7, "modifier": -1, "total": 7, "broken": True}
    assert store.state.log_entries()[-1].rolls[0].faces == (3, 4)


# -- house rules --------------------------------------------------------------------------------------------
def test_house_rules_change_the_modifier_range(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with config_folder(tmp_path, monkeypatch, tables):
        house_rules_file(tmp_path, "ose", "[morale]\nmax_modifier = 3\n", tables)
        assert tables().morale.max_modifier == 3
        state = morale(started(demo()), GOBLINS[0], 10, modifier="+3")  # 10 against 10: holds
        assert state.log_entries()[-1].facts["broken"] is False
        house_rules_file(tmp_path, "ose", '[morale]\nmax_modifier = "3"\n', tables)
        with pytest.raises(RuleError, match="ose.toml"):
            RULESET.prepare()
