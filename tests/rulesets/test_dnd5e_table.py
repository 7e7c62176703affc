"""D&D 5e at the table (SRD 5.1 figures, gaps.md): advantage and disadvantage from conditions and the DM's
call, cancelling; both d20s in the log, typed as a total or as two faces; critical hits (a natural 20, a
paralyzed or unconscious target from within 5 ft) and their doubled dice; 0 hit points, death saving
throws, massive damage and healing; the speed factor's declared action binding; side initiative and surprise.

Ada (+4 to hit, 1d8+2) against goblins of AC 15 needs 11: 50 % plain, 75 % with advantage, 25 % with
disadvantage.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.common import ids, rolled
from tests.rulesets.dnd5e_fight import act, d20, entry, fight, next_until, play, texts
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply, initiative_asked
from tui_combat.engine.dice import DiceError, format_roll, physical
from tui_combat.engine.encounter import ENCOUNTER_DIR, encounter_actions, load_encounter
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.engine.public import public_view
from tui_combat.i18n import set_language
from tui_combat.rulesets.dnd5e import RULESET

SIDES = {
    "Party": [
        ("Ada", 20, {"dex": 14, "attack": 4, "damage": "1d8+2", "ac": 15}),
        ("Bram", 12, {"dex": 10, "attack": 3, "damage": "1d6+1", "ac": 16}),
    ],
    "Goblins": [("Goblin", 7, {"dex": 8, "ac": 15, "attack": 4, "damage": "1d6+2", "size": "small"}, 2)],
}


def adas_turn() -> State:
    """Ada 18 + 2 = 20, Bram 2 + 0 = 2, the goblins 10 − 1 = 9: Ada's turn."""
    state = play(fight(SIDES), a.StartFight())
    who = ids(state)
    goblins = next(r.key for r in initiative_asked(RULESET, state)[0] if r.key not in (who["Ada"], who["Bram"]))
    return apply(state, a.RollInitiative(rolls={who["Ada"]: d20(18), who["Bram"]: d20(2), goblins: d20(10)}))


def condition(state: State, who: str, name: str) -> State:
    return act(state, "condition", who, condition=name, ends="removed")


def preview(state: State, target: str, **values: object) -> str:
    who = ids(state)
    return RULESET.form_preview(state, "attack", who["Ada"], {"target": who[target], **values})


# -- advantage and disadvantage ---------------------------------------------------------------------------------
def test_the_chance_shown_is_the_real_one_needing_11() -> None:
    state = adas_turn()
    assert preview(state, "Goblin 1") == "Needs 11 or more on the d20 (AC 15, +4 to hit): 50% to hit."
    assert (
        preview(state, "Goblin 1", edge="advantage")
        == "Needs 11 or more on the d20 (AC 15, +4 to hit) with advantage (the DM's call): 75% to hit."
    )
    assert (
        preview(state, "Goblin 1", edge="disadvantage")
        == "Needs 11 or more on the d20 (AC 15, +4 to hit) with disadvantage (the DM's call): 25% to hit."
    )


def test_a_prone_target_gives_advantage_within_5_ft_and_disadvantage_beyond() -> None:
    state = condition(adas_turn(), "Goblin 1", "prone")
    who = ids(state)
    assert (
        preview(state, "Goblin 1", close=True)
        == "Needs 11 or more on the d20 (AC 15, +4 to hit) with advantage (Goblin 1: prone): 75% to hit."
    )
    assert (
        preview(state, "Goblin 1", close=False)
        == "Needs 11 or more on the d20 (AC 15, +4 to hit) with disadvantage (Goblin 1: prone): 25% to hit."
    )
    assert RULESET.form_dice(state, "attack", who["Ada"], {"target": who["Goblin 1"], "close": True}) == {
        "to_hit": "d20adv"
    }
    assert RULESET.form_dice(state, "attack", who["Ada"], {"target": who["Goblin 1"], "close": False}) == {
        "to_hit": "d20dis"
    }
    # The form's list and its dice start from the target's state (within 5 ft until said otherwise).
    fields = {f.key: f for f in RULESET.action_fields(state, "attack", who["Ada"])}
    assert dict(fields["target"].choices)[who["Goblin 1"]] == "Goblin 1 — AC 15: 75% to hit"
    assert fields["to_hit"].default == "d20adv" and fields["close"].default is True
    # Attacked from beyond 5 ft once, the form remembers it for the next attack on him.
    state = act(
        state, "attack", "Ada", target=who["Goblin 1"], uses="action", close=False, to_hit=rolled("d20dis", 14, 9)
    )
    assert entry(state, "Ada attacks").text == (
        "Ada attacks Goblin 1 with disadvantage (Goblin 1: prone): d20dis: [(14), 9] = 9, +4 → 13 against AC 15: miss."
    )
    fields = {f.key: f for f in RULESET.action_fields(state, "attack", who["Ada"])}
    assert (
        fields["close"].default is False
        and dict(fields["target"].choices)[who["Goblin 1"]] == "Goblin 1 — AC 15: 25% to hit"
    )


@pytest.mark.parametrize(
    ("attacker", "target", "expected"),
    [
        (["poisoned"], [], -1),
        (["blinded"], [], -1),
        (["frightened"], [], -1),
        (["prone"], [], -1),
        (["restrained"], [], -1),
        (["invisible"], [], 1),
        ([], ["blinded"], 1),
        ([], ["paralyzed"], 1),
        ([], ["petrified"], 1),
        ([], ["restrained"], 1),
        ([], ["stunned"], 1),
        ([], ["unconscious"], 1),
        ([], ["invisible"], -1),
        ([], ["charmed"], 0),
        # Any number of each cancel to a plain roll.
        (["invisible"], ["invisible"], 0),
        (["poisoned", "blinded"], ["stunned"], 0),
        (["poisoned"], ["stunned", "prone"], 0),
    ],
)
def test_the_sources_of_the_srd(attacker: list[str], target: list[str], expected: int) -> None:
    state = adas_turn()
    for name in attacker:
        state = condition(state, "Ada", name)
    for name in target:
        state = condition(state, "Goblin 1", name)
    who = ids(state)
    sources = RULESET.edge_sources(state, state.combatant(who["Ada"]), state.combatant(who["Goblin 1"]), "none", True)
    assert sources.edge == expected
    # (An unconscious creature falls prone as well, which adds a reason of the same kind within 5 ft.)
    assert len(sources.reasons()) == len(attacker) + len([t for t in target if t != "charmed"]) + target.count(
        "unconscious"
    )


def test_advantage_and_disadvantage_cancel_and_the_log_says_why() -> None:
    state = condition(condition(adas_turn(), "Ada", "poisoned"), "Goblin 1", "prone")
    who = ids(state)
    assert preview(state, "Goblin 1", edge="advantage") == (
        "Needs 11 or more on the d20 (AC 15, +4 to hit), advantage and disadvantage cancelling (Goblin 1: prone, "
        "the DM's call, Ada: poisoned): 50% to hit."
    )
    with pytest.raises(RuleError, match="^This attack is rolled with 1d20, not d20adv"):
        act(
            state,
            "attack",
            "Ada",
            target=who["Goblin 1"],
            uses="action",
            edge="advantage",
            to_hit=rolled("d20adv", 3, 12),
        )
    state = act(state, "attack", "Ada", target=who["Goblin 1"], uses="action", edge="advantage", to_hit=d20(12))
    assert entry(state, "Ada attacks").facts["edge"] == 0


def test_a_typed_attack_with_advantage_takes_the_total_or_both_faces() -> None:
    both = physical("d20adv", "15 7")
    assert (both.total, both.faces, both.physical) == (15, (15, 7), True)
    assert format_roll(both) == "d20adv (typed): [15, (7)] = 15"
    assert physical("d20dis", "15, 7").total == 7 and physical("d20adv", "12").total == 12
    with pytest.raises(DiceError):
        physical("d20adv", "21 3")
    state = condition(adas_turn(), "Goblin 1", "prone")
    who = ids(state)
    state = act(state, "attack", "Ada", target=who["Goblin 1"], uses="action", to_hit=both)
    assert entry(state, "Ada attacks").text == (
        "Ada attacks Goblin 1 with advantage (Goblin 1: prone): d20adv (typed): "
        "[15, (7)] = 15, +4 → 19 against AC 15: hit."
    )


# -- critical hits ----------------------------------------------------------------------------------------------
def test_a_natural_20_is_critical_and_its_dice_are_doubled_in_the_damage_form() -> None:
    state = adas_turn()
    who = ids(state)
    args = {"combatant": who["Ada"], "target": who["Goblin 1"]}
    hit = act(state, "attack", "Ada", target=who["Goblin 1"], uses="action", to_hit=d20(20))
    due = RULESET.damage_due(state, hit, "attack", args)
    assert due is not None and (due.dice, due.critical) == ("2d8+2", True)
    plain = act(state, "attack", "Ada", target=who["Goblin 1"], uses="action", to_hit=d20(19))
    due = RULESET.damage_due(state, plain, "attack", args)
    assert due is not None and (due.dice, due.critical) == ("1d8+2", False)
    # A natural 1 misses (+4 against a prone Bram's AC 16 … any AC).
    miss = act(state, "attack", "Ada", target=who["Goblin 1"], uses="action", to_hit=d20(1))
    assert entry(miss, "Ada attacks").text.endswith("miss (natural 1).")


def test_a_hit_on_a_paralyzed_target_from_within_5_ft_is_critical() -> None:
    state = condition(adas_turn(), "Goblin 1", "paralyzed")
    who = ids(state)
    args = {"combatant": who["Ada"], "target": who["Goblin 1"]}
    assert preview(state, "Goblin 1") == (
        "Needs 11 or more on the d20 (AC 15, +4 to hit) with advantage (Goblin 1: "
        "paralyzed): 75% to hit. A hit is a critical hit (Goblin 1: paralyzed, within 5 ft)."
    )
    close = act(state, "attack", "Ada", target=who["Goblin 1"], uses="action", to_hit=rolled("d20adv", 12, 4))
    assert entry(close, "Ada attacks").text == (
        "Ada attacks Goblin 1 with advantage (Goblin 1: paralyzed): d20adv: "
        "[12, (4)] = 12, +4 → 16 against AC 15: critical hit (Goblin 1: paralyzed, "
        "within 5 ft)."
    )
    due = RULESET.damage_due(state, close, "attack", args)
    assert due is not None and (due.dice, due.critical) == ("2d8+2", True)
    far = act(
        state, "attack", "Ada", target=who["Goblin 1"], uses="action", close=False, to_hit=rolled("d20adv", 12, 4)
    )
    assert entry(far, "Ada attacks").facts["critical"] is False
    # A miss stays a miss: 5 + 4 = 9.
    missed = act(state, "attack", "Ada", target=who["Goblin 1"], uses="action", to_hit=rolled("d20adv", 5, 2))
    assert entry(missed, "Ada attacks").facts["hit"] is False


# -- 0 hit points -----------------------------------------------------------------------------------------------
def test_a_monster_dies_at_0_and_hit_points_stop_there() -> None:
    state = adas_turn()
    who = ids(state)
    state = apply(state, a.Damage(combatant=who["Goblin 1"], amount=11))
    goblin = state.combatant(who["Goblin 1"])
    assert (goblin.hp, goblin.status, RULESET.condition_word(state, goblin.id)) == (0, "down", "dead")
    with pytest.raises(RuleError, match="^Goblin 1 is dead: healing does not bring the dead back.$"):
        apply(state, a.Heal(combatant=goblin.id, amount=3))


def test_the_players_see_a_dead_goblin_as_dead_once_not_as_a_condition_too() -> None:
    state = adas_turn()
    state = apply(state, a.Damage(combatant=ids(state)["Goblin 1"], amount=11))
    goblin = next(c for g in public_view(state).groups for c in g.combatants if c.name == "Goblin 1")
    assert goblin.health == "dead"
    assert "dead" not in goblin.conditions


def bram_down() -> State:
    """Bram (12 HP) takes 15 from Goblin 1: 0 HP, 3 left over (less than 12): unconscious, dying."""
    state = adas_turn()
    return apply(state, a.Damage(combatant=ids(state)["Bram"], amount=15))


def public_word(state: State, name: str) -> str:
    return next(c.health for g in public_view(state).groups for c in g.combatants if c.name == name)


def test_a_character_at_0_falls_unconscious_and_saves_at_the_start_of_his_turns() -> None:
    state = bram_down()
    bram = ids(state)["Bram"]
    assert (state.combatant(bram).hp, state.combatant(bram).status) == (0, "down")
    assert texts(state)[-2:] == [
        "Bram falls unconscious at 0 hit points and is dying: a death saving throw at the start of each turn (key v).",
        "Bram is prone.",
    ]
    assert RULESET.condition_word(state, bram) == "dying" and public_word(state, "Bram") == "dying"
    assert ("Death saves", "dying: successes ○○○, failures ○○○") in RULESET.details(state, bram)
    with pytest.raises(RuleError, match="^Bram's death saving throw comes at the start of the next turn.$"):
        act(state, "death_save", "Bram", roll=d20(12))  # not his turn yet
    state = next_until(state, "Bram")
    assert texts(state)[-1] == "Bram is dying: a death saving throw now (key v)."
    # Unconscious: his budget is empty (no action, no reaction, no movement).
    assert {line.label: line.left for line in RULESET.budget(state, bram)} == {
        "Action": 0,
        "Bonus action": 0,
        "Reaction": 0,
        "Movement (ft)": 0,
    }
    assert RULESET.action_available(state, "death_save", bram)
    state = act(state, "death_save", "Bram", roll=d20(12))
    assert texts(state)[-1] == "Bram: a success; successes ●○○, failures ○○○."
    with pytest.raises(RuleError, match="^Bram's death saving throw comes at the start of the next turn.$"):
        act(state, "death_save", "Bram", roll=d20(12))
    # Damage at 0 is a failure; a critical hit two: ✕✕✕ is death.
    state = apply(state, a.Damage(combatant=bram, amount=3))
    assert texts(state)[-1] == "Bram: damage at 0 hit points: a failure; successes ●○○, failures ✕○○."
    assert state.combatant(bram).hp == 0
    state = apply(state, a.Damage(combatant=bram, amount=4, critical=True))
    assert texts(state)[-1] == "Bram: a critical hit at 0 hit points: two failures; three failures: dead."
    assert RULESET.condition_word(state, bram) == "dead" and public_word(state, "Bram") == "dead"


def test_three_successes_make_him_stable_and_healing_wakes_him() -> None:
    state = bram_down()
    bram = ids(state)["Bram"]
    for face, line in (
        (10, "Bram: a success; successes ●○○, failures ○○○."),
        (9, "Bram: a failure; successes ●○○, failures ✕○○."),
        (15, "Bram: a success; successes ●●○, failures ✕○○."),
        (19, "Bram: a success; three successes: stable."),
    ):
        state = next_until(apply(state, a.NextStep()), "Bram")
        state = act(state, "death_save", "Bram", roll=d20(face))
        assert texts(state)[-1] == line
    assert RULESET.condition_word(state, bram) == "stable" and public_word(state, "Bram") == "stable"
    with pytest.raises(RuleError, match="^Bram is stable: no more death saving throws.$"):
        act(next_until(apply(state, a.NextStep()), "Bram"), "death_save", "Bram", roll=d20(12))
    state = apply(state, a.Heal(combatant=bram, amount=5))
    assert (state.combatant(bram).hp, state.combatant(bram).status) == (5, "active")
    assert texts(state)[-2:] == [
        "Bram wakes: the death saving throws are cleared.",
        "Bram still lies prone: standing up costs half the movement (key C).",
    ]
    assert RULESET.dying_of(state, bram) is None and RULESET.condition_word(state, bram) is None


def test_a_natural_20_wakes_him_with_1_hit_point_and_a_natural_1_counts_two_failures() -> None:
    state = next_until(bram_down(), "Bram")
    bram = ids(state)["Bram"]
    one = act(state, "death_save", "Bram", roll=d20(1))
    assert texts(one)[-1] == "Bram: a natural 1: two failures; successes ○○○, failures ✕✕○."
    twenty = act(state, "death_save", "Bram", roll=d20(20))
    assert "Bram rolls a natural 20: 1 hit point regained, awake." in texts(twenty)
    assert (twenty.combatant(bram).hp, twenty.combatant(bram).status) == (1, "active")
    assert RULESET.dying_of(twenty, bram) is None


def test_massive_damage_kills_outright() -> None:
    state = adas_turn()
    bram = ids(state)["Bram"]
    # 12 HP, 24 damage: 12 left over after 0, his maximum is 12: dead.
    dead = apply(state, a.Damage(combatant=bram, amount=24))
    assert texts(dead)[-1] == "Bram is killed outright: 12 damage left over after 0 hit points, the maximum is 12."
    assert RULESET.condition_word(dead, bram) == "dead"
    # 23: 11 left over, dying. Then 12 at 0 (his maximum): dead.
    dying = apply(state, a.Damage(combatant=bram, amount=23))
    assert RULESET.condition_word(dying, bram) == "dying"
    dying = apply(dying, a.Damage(combatant=bram, amount=12))
    assert texts(dying)[-1] == "Bram is killed outright: 12 damage at 0 hit points, the maximum is 12."


def test_an_unconscious_character_is_hit_with_advantage_and_critically_from_within_5_ft() -> None:
    state = bram_down()
    who = ids(state)
    state = next_until(state, "Goblin 1")
    assert RULESET.form_preview(state, "attack", who["Goblin 1"], {"target": who["Bram"]}) == (
        "Needs 12 or more on the d20 (AC 16, +4 to hit) with advantage (Bram: prone, Bram: unconscious): 70% to hit. "
        "A hit is a critical hit (Bram: unconscious, within 5 ft)."
    )
    state = act(state, "attack", "Goblin 1", target=who["Bram"], uses="action", to_hit=rolled("d20adv", 13, 2))
    assert entry(state, "Goblin 1 attacks").facts["critical"] is True


def test_falling_unconscious_he_falls_prone_and_standing_up_is_the_dm_s() -> None:
    """SRD 5.1, "Unconscious": the creature "falls prone". Waking does not stand him up: the DM ends prone when he
    stands (half his movement)."""
    state = bram_down()
    bram = ids(state)["Bram"]
    assert [c.name for c in RULESET.conditions_of(state, bram)] == ["prone"]
    assert "prone" in next(c for g in public_view(state).groups for c in g.combatants if c.name == "Bram").conditions
    # From beyond 5 ft, prone's disadvantage and unconscious's advantage cancel, as the book has it.
    state = next_until(state, "Goblin 1")
    who = ids(state)
    far = RULESET.edge_sources(state, state.combatant(who["Goblin 1"]), state.combatant(bram), "none", False)
    assert far.edge == 0
    state = apply(state, a.Heal(combatant=bram, amount=5))
    assert [c.name for c in RULESET.conditions_of(state, bram)] == ["prone"]
    condition_id = str(RULESET.conditions_of(state, bram)[0].id)
    state = act(state, "end_condition", "Bram", condition=condition_id)
    assert RULESET.conditions_of(state, bram) == []


def test_the_unconscious_condition_brings_prone_with_it_once() -> None:
    state = adas_turn()
    state = condition(state, "Goblin 1", "prone")
    state = condition(state, "Goblin 1", "unconscious")
    state = condition(state, "Ada", "unconscious")
    assert texts(state)[-2:] == ["Ada is unconscious.", "Ada is prone."]
    who = ids(state)
    assert [c.name for c in RULESET.conditions_of(state, who["Goblin 1"])] == ["prone", "unconscious"]
    assert [c.name for c in RULESET.conditions_of(state, who["Ada"])] == ["unconscious", "prone"]


# -- speed factor: the declared action binds --------------------------------------------------------------------
def speed_round(**more: dict[str, object]) -> State:
    """Ada declares a spell, Bram an attack (and ``more``, by name); Ada 18 + 2, Bram 2, the goblins (small +2, Dex
    −1) 5 + 1."""
    state = play(fight(SIDES, initiative="speed_factor"), a.StartFight())
    who = ids(state)
    state = apply(state, a.Declare(combatant=who["Ada"], declaration={"action": "spell", "spell_level": 1}))
    state = apply(state, a.Declare(combatant=who["Bram"], declaration={"action": "attack"}))
    for name, declaration in more.items():
        state = apply(state, a.Declare(combatant=who[name.replace("_", " ")], declaration=declaration))
    state = apply(state, a.NextStep())
    rolls = {r.key: d20({who["Ada"]: 18, who["Bram"]: 2}.get(r.key, 5)) for r in initiative_asked(RULESET, state)[0]}
    return apply(state, a.RollInitiative(rolls=rolls))


def test_on_its_turn_a_creature_takes_what_it_declared_or_nothing() -> None:
    state = speed_round()
    who = ids(state)
    assert state.acting_now() == (who["Ada"],)
    with pytest.raises(
        RuleError,
        match="^Ada declared a spell of level 1: on its turn it takes that or nothing "
        '\\(speed factor\\), not an attack. Tick "ignore the book" to allow it.$',
    ):
        act(state, "attack", "Ada", target=who["Goblin 1"], uses="action", to_hit=d20(12))
    assert "overrule" in {f.key for f in RULESET.action_fields(state, "attack", who["Ada"])}
    ignored = act(state, "attack", "Ada", target=who["Goblin 1"], uses="action", overrule=True, to_hit=d20(12))
    assert "Ada ignores the book: an attack instead of what was declared (a spell of level 1)." in texts(ignored)
    # What she declared is allowed: her action for the spell.
    cast = act(state, "use", "Ada", what="action", note="magic missile")
    assert texts(cast)[-1] == "Ada uses the action: magic missile."
    # A bonus action nobody declared is refused too.
    with pytest.raises(RuleError, match="^Ada declared no bonus action"):
        act(state, "use", "Ada", what="bonus")
    # Bram declared an attack: Dash is not it, the attack is.
    state = next_until(state, "Bram")
    with pytest.raises(RuleError, match="^Bram declared an attack: .* not a Dash"):
        act(state, "use", "Bram", what="dash")
    state = act(state, "attack", "Bram", target=who["Goblin 1"], uses="action", to_hit=d20(12))
    assert entry(state, "Bram attacks").facts["hit"] is True


def test_an_attack_as_part_of_an_action_is_part_of_what_was_declared_and_taken() -> None:
    """Speed factor: "part of an action already taken" is no way round the declaration (it used to be accepted
    whatever the creature declared, before it had taken anything)."""
    state = speed_round()
    who = ids(state)
    with pytest.raises(
        RuleError,
        match="^Ada has taken no action yet this turn: choose the action or the bonus action the attack uses.$",
    ):
        act(state, "attack", "Ada", target=who["Goblin 1"], uses="none", to_hit=d20(12))
    cast = act(state, "use", "Ada", what="action", note="scorching ray")
    ray = act(cast, "attack", "Ada", target=who["Goblin 1"], uses="none", to_hit=d20(12))  # a ray of the spell she cast
    assert entry(ray, "Ada attacks").facts["hit"] is True
    # Bram declared an attack and has attacked: a further attack as part of it is his.
    state = next_until(state, "Bram")
    state = act(state, "attack", "Bram", target=who["Goblin 1"], uses="action", to_hit=d20(3))
    state = act(state, "attack", "Bram", target=who["Goblin 1"], uses="none", to_hit=d20(12))
    # A goblin declared something else (the default is an attack: this one takes the Dodge).
    goblin = next_until(speed_round(Goblin_2={"action": "other"}), "Goblin 2")
    goblin = act(goblin, "use", "Goblin 2", what="action", note="Dodge")
    with pytest.raises(
        RuleError,
        match="^Goblin 2 declared another action: an attack as part of an action is part of "
        "a declared attack or spell \\(speed factor\\)",
    ):
        act(goblin, "attack", "Goblin 2", target=who["Bram"], uses="none", to_hit=d20(12))
    ignored = act(goblin, "attack", "Goblin 2", target=who["Bram"], uses="none", overrule=True, to_hit=d20(12))
    assert "Goblin 2 ignores the book: an attack as part of an action instead of what was declared." in texts(ignored)


# -- side initiative and surprise -------------------------------------------------------------------------------
def test_side_initiative_takes_no_modifiers_unless_the_option_says_so() -> None:
    def asked(**options: str) -> list[str]:
        state = fight(SIDES, initiative="side", **options)
        state = play(state, a.BeginSurprise(), a.SetSurprised(sides=("s2",)), a.StartFight())
        return [r.dice for r in initiative_asked(RULESET, state)[0]]

    assert asked() == ["1d20", "1d20"]
    assert asked(side_surprise="disadvantage") == ["1d20", "d20dis"]
    state = play(fight(SIDES, initiative="side"), a.BeginSurprise(), a.SetSurprised(sides=("s2",)), a.StartFight())
    assert (
        "Surprised: Goblin 1, Goblin 2. Side initiative takes no modifiers: their side's d20 is rolled as any other."
        in texts(state)
    )
    assert next(o.choices[0][0] for o in RULESET.options if o.key == "side_surprise") == "plain"  # the default


# -- invariants -------------------------------------------------------------------------------------------------
BLOWS = st.lists(
    st.tuples(st.sampled_from(["damage", "critical", "heal"]), st.integers(min_value=1, max_value=30)), max_size=12
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(blows=BLOWS)
def test_hit_points_stay_between_0_and_the_maximum_and_the_word_follows(blows: list[tuple[str, int]]) -> None:
    state = adas_turn()
    who = ids(state)
    for target in ("Bram", "Goblin 1"):
        for kind, amount in blows:
            try:
                if kind == "heal":
                    state = apply(state, a.Heal(combatant=who[target], amount=amount))
                else:
                    state = apply(state, a.Damage(combatant=who[target], amount=amount, critical=kind == "critical"))
            except RuleError as error:  # only the dead are refused healing
                assert "is dead" in str(error) and RULESET.condition_word(state, who[target]) == "dead"
            combatant = state.combatant(who[target])
            assert 0 <= combatant.hp <= combatant.max_hp
            word = RULESET.condition_word(state, combatant.id)
            if combatant.hp > 0:
                assert combatant.status == "active" and word is None
            else:
                assert combatant.status == "down" and word in (
                    ("dying", "stable", "dead") if target == "Bram" else ("dead",)
                )
            record = RULESET.dying_of(state, combatant.id)
            if record is not None:
                assert 0 <= record.successes <= 3 and 0 <= record.failures <= 3


# -- the stat block's attacks -----------------------------------------------------------------------------------
def test_the_bugbear_throws_his_javelin() -> None:
    state = play(State(seed=1), *encounter_actions(load_encounter(ENCOUNTER_DIR / "demo_dnd5e.toml"), State(seed=1)))
    state = apply(state, a.StartFight())
    who = ids(state)
    rolls = {r.key: d20(20 if r.key == who["Bugbear"] else 1) for r in initiative_asked(RULESET, state)[0]}
    state = apply(state, a.RollInitiative(rolls=rolls))
    assert state.acting_now() == (who["Bugbear"],)
    fields = {f.key: f for f in RULESET.action_fields(state, "attack", who["Bugbear"])}
    assert fields["weapon"].choices == (
        ("0", "morningstar +4, 2d8+2"),
        ("1", "javelin +4, 2d6+2"),
        ("2", "javelin (thrown) +4, 1d6+2"),
    )
    assert fields["to_hit"].label == "To hit +4"
    # +4 against Mirela's AC 12: 8 or more, 65 %.
    assert (
        RULESET.form_preview(state, "attack", who["Bugbear"], {"target": who["Mirela"], "weapon": "2"})
        == "Needs 8 or more on the d20 (AC 12, +4 to hit): 65% to hit."
    )
    after = act(state, "attack", "Bugbear", target=who["Mirela"], weapon="2", uses="action", to_hit=d20(9))
    assert (
        entry(after, "Bugbear attacks").text
        == "Bugbear attacks Mirela with javelin (thrown): 1d20 (typed): 9, +4 → 13 against AC 12: hit."
    )
    due = RULESET.damage_due(state, after, "attack", {"combatant": who["Bugbear"], "weapon": "2"})
    assert due is not None and due.dice == "1d6+2"
    set_language("ru")
    try:
        fields = {f.key: f for f in RULESET.action_fields(state, "attack", who["Bugbear"])}
    finally:
        set_language("en")
    assert [label for _value, label in fields["weapon"].choices] == [
        "моргенштерн +4, 2d8+2",
        "метательное копьё +4, 2d6+2",
        "метательное копьё (бросок) +4, 1d6+2",
    ]
    with pytest.raises(RuleError, match="^Choose one of Bugbear's attacks.$"):
        act(state, "attack", "Bugbear", target=who["Mirela"], weapon="7", uses="action", to_hit=d20(9))
    with pytest.raises(RuleError, match='^Attack "javelin 1d6": write a name, the attack bonus and the damage dice'):
        RULESET.check_sheet({"attack_list": "javelin 1d6"})
