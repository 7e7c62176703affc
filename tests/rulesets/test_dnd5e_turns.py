"""D&D 5e turns: the per-turn budget refreshed at the start of the creature's own turn, the 2014 surprise's
lost turn, counters, and conditions that end on their own. Numbers worked out by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.common import ids
from tests.rulesets.dnd5e_fight import Member, act, budget, d20, entry, fight, next_until, play, texts
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply, initiative_asked
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.fight.store import Store
from tui_combat.rulesets.dnd5e import RULESET

SIDES: dict[str, list[Member]] = {
    "Party": [("Ada", 20, {"dex": 14, "speed": 30}), ("Bram", 20, {"dex": 10, "speed": 25})],
    "Orcs": [("Orc", 15, {"dex": 12, "attack": 3, "ac": 13})],
}


def started(**options: str) -> State:
    """Ada 13 + 2 = 15, the orc 10 + 1 = 11, Bram 8: Ada's turn has started."""
    state = play(fight(SIDES, **options), a.StartFight())
    who = ids(state)
    return apply(state, a.RollInitiative(rolls={who["Ada"]: d20(13), who["Bram"]: d20(8), who["Orc"]: d20(10)}))


def test_a_reaction_spent_comes_back_only_at_its_owners_next_turn() -> None:
    state = started()
    state = next_until(state, "Bram")  # the orc's turn is over; Bram moves away and the orc strikes
    state = act(state, "attack", "Orc", target=ids(state)["Bram"], uses="reaction", to_hit=d20(5), damage=d20(1))
    assert entry(state, "Orc attacks").text == "Orc attacks Bram: 1d20 (typed): 5, +3 → 8 against AC 10: miss."
    assert budget(state, "Orc")["Reaction"] == (0, 1)
    with pytest.raises(RuleError, match="^Orc has no reaction left.$"):
        act(state, "use", "Orc", what="reaction")
    state = play(state, a.NextStep(), a.NextStep())  # end of round 1 → round 2, Ada's turn
    assert state.round == 2 and state.acting_now() == (ids(state)["Ada"],)
    assert budget(state, "Orc")["Reaction"] == (0, 1)  # not at the round's start
    state = apply(state, a.NextStep())  # the orc's own turn
    assert budget(state, "Orc")["Reaction"] == (1, 1)


def test_action_bonus_action_and_movement_refresh_at_the_start_of_the_turn() -> None:
    state = started()
    assert budget(state, "Ada") == {
        "Action": (1, 1),
        "Bonus action": (1, 1),
        "Reaction": (1, 1),
        "Movement (ft)": (30, 30),
    }
    state = act(state, "move", "Ada", feet=20)
    assert texts(state)[-1] == "Ada moves 20 ft (10 ft left)."
    with pytest.raises(RuleError, match="^Ada has 10 ft of movement left.$"):
        act(state, "move", "Ada", feet=15)
    state = act(state, "use", "Ada", what="dash")  # the action: 30 ft more
    assert budget(state, "Ada")["Movement (ft)"] == (40, 60) and budget(state, "Ada")["Action"] == (0, 1)
    state = act(state, "use", "Ada", what="bonus", note="Cunning Action: Hide")
    assert texts(state)[-1] == "Ada uses the bonus action: Cunning Action: Hide."
    with pytest.raises(RuleError, match="^Ada has no action left.$"):
        act(state, "use", "Ada", what="action")
    with pytest.raises(RuleError, match="^Move cannot be done now.$"):  # not Bram's turn
        act(state, "move", "Bram", feet=5)
    state = next_until(state, "Bram")
    assert budget(state, "Ada")["Movement (ft)"] == (40, 60)  # what she left stays until her turn comes again
    assert budget(state, "Bram")["Movement (ft)"] == (25, 25)
    state = play(state, a.NextStep(), a.NextStep())  # round 2: Ada's turn
    assert budget(state, "Ada") == {
        "Action": (1, 1),
        "Bonus action": (1, 1),
        "Reaction": (1, 1),
        "Movement (ft)": (30, 30),
    }


def test_the_2014_surprise_costs_the_first_turn_and_the_reaction_until_it_ends() -> None:
    state = fight(SIDES, surprise="2014")
    who = ids(state)
    state = play(state, a.BeginSurprise(), a.SetSurprised(combatants=(who["Bram"],)), a.StartFight())
    assert (
        "Surprised, they can neither move nor act on their first turn, and take no reaction until it ends: Bram."
        in texts(state)
    )
    assert {r.dice for r in initiative_asked(RULESET, state)[0]} == {"1d20"}  # no disadvantage under the 2014 rule
    state = apply(state, a.RollInitiative(rolls={who["Ada"]: d20(13), who["Bram"]: d20(8), who["Orc"]: d20(10)}))
    assert budget(state, "Bram")["Reaction"] == (0, 1)
    with pytest.raises(RuleError, match="^Bram is surprised: no reaction until the end of his first turn.$"):
        act(state, "use", "Bram", what="reaction")
    state = next_until(state, "Bram")
    assert texts(state)[-1] == "Surprised, Bram can neither move nor act this turn."
    assert budget(state, "Bram") == {
        "Action": (0, 1),
        "Bonus action": (0, 1),
        "Reaction": (0, 1),
        "Movement (ft)": (0, 25),
    }
    with pytest.raises(RuleError, match="^Bram is surprised: this first turn is lost.$"):
        act(state, "attack", "Bram", target=who["Orc"], uses="action", to_hit=d20(20), damage=d20(3))
    state = apply(state, a.NextStep())  # his turn ends: the reaction is back
    assert budget(state, "Bram")["Reaction"] == (1, 1)
    state = act(state, "use", "Bram", what="reaction")
    state = next_until(apply(state, a.NextStep()), "Bram")  # round 2: a turn like any other
    assert (
        state.round == 2
        and budget(state, "Bram")["Action"] == (1, 1)
        and budget(state, "Bram")["Movement (ft)"] == (25, 25)
    )


def test_counters_refresh_at_the_turn_or_last_the_fight() -> None:
    sides: dict[str, list[Member]] = {
        "Party": [("Ada", 20, {"dex": 14})],
        "Dragon": [("Dragon", 200, {"dex": 10, "counters": "legendary actions 3/turn, frightful presence 1"})],
    }
    state = play(fight(sides), a.StartFight())
    who = ids(state)
    state = apply(state, a.RollInitiative(rolls={who["Ada"]: d20(15), who["Dragon"]: d20(5)}))  # Ada 17, dragon 5
    assert budget(state, "Dragon")["legendary actions"] == (3, 3)
    state = act(state, "use", "Dragon", what="counter:legendary actions", amount=2, note="wing attack")
    assert texts(state)[-1] == "Dragon uses 2 of legendary actions: wing attack: 1 left."
    with pytest.raises(RuleError, match="^Dragon has 1 of legendary actions left.$"):
        act(state, "use", "Dragon", what="counter:legendary actions", amount=2)
    state = act(state, "use", "Dragon", what="counter:frightful presence")
    state = act(state, "counter", "Ada", name="lay on hands", total=25, refresh="fight")
    assert texts(state)[-1] == "Ada: lay on hands 25, for the whole fight."
    state = act(state, "use", "Ada", what="counter:lay on hands", amount=10)
    state = apply(state, a.NextStep())  # the dragon's turn
    assert budget(state, "Dragon")["legendary actions"] == (3, 3)
    assert budget(state, "Dragon")["frightful presence"] == (0, 1)
    state = play(state, a.NextStep(), a.NextStep())  # round 2, Ada's turn
    assert budget(state, "Ada")["lay on hands"] == (15, 25)


def test_conditions_end_on_their_own() -> None:
    state = started()
    who = ids(state)
    ada, orc = who["Ada"], who["Orc"]
    # Round 1, Ada's turn.
    state = act(state, "condition", "Bram", condition="frightened", ends="end", anchor=ada)
    state = act(state, "condition", "Orc", condition="stunned", ends="start", anchor=ada)
    state = act(state, "condition", "Orc", condition="prone", ends="removed")
    state = act(state, "condition", "Bram", condition="restrained", ends="rounds", anchor=orc, rounds=2)
    assert texts(state)[-4:] == [
        "Bram is frightened until the end of Ada's next turn.",
        "Orc is stunned until the start of Ada's next turn.",
        "Orc is prone.",
        "Bram is restrained until the start of Orc's turn in round 3.",
    ]
    state = apply(state, a.NextStep())  # Ada's turn ends: "her next turn" is still to come
    assert [c.name for c in RULESET.conditions_of(state, who["Bram"])] == ["frightened", "restrained"]
    # The stunned orc's turn: no action, no reaction, no movement.
    assert budget(state, "Orc") == {
        "Action": (0, 1),
        "Bonus action": (0, 1),
        "Reaction": (0, 1),
        "Movement (ft)": (0, 0),
    }
    with pytest.raises(RuleError, match="^Orc is stunned: no actions or reactions.$"):
        act(state, "use", "Orc", what="action")
    assert budget(state, "Bram")["Movement (ft)"] == (0, 0)  # restrained: speed 0
    state = play(state, a.NextStep(), a.NextStep(), a.NextStep())  # Bram → end → round 2: Ada's turn starts
    assert "Orc is no longer stunned." in texts(state, 2)
    assert "Bram is no longer frightened." not in texts(state)
    state = apply(state, a.NextStep())  # Ada's turn ends
    assert texts(state)[-1] == "Bram is no longer frightened."
    state = play(state, a.NextStep(), a.NextStep(), a.NextStep())  # orc → Bram → end → round 3, Ada
    assert "Bram is no longer restrained." not in texts(state, 3)
    state = apply(state, a.NextStep())  # the orc's turn in round 3 starts
    assert texts(state)[-1] == "Bram is no longer restrained."
    state = act(state, "end_condition", "Orc", condition=str(RULESET.conditions_of(state, orc)[0].id))
    assert texts(state)[-1] == "Orc is no longer prone." and RULESET.conditions_of(state, orc) == []


def test_a_condition_whose_creature_leaves_ends_at_the_next_round() -> None:
    state = started()
    who = ids(state)
    state = act(state, "condition", "Ada", condition="charmed", ends="end", anchor=who["Orc"])
    state = apply(state, a.RemoveCombatant(combatant=who["Orc"]))
    state = next_until(state, "Bram")
    state = play(state, a.NextStep(), a.NextStep())
    assert "Ada is no longer charmed." in texts(state, 2)


@pytest.mark.parametrize("compact", [False, True], ids=["journal", "snapshot"])
def test_budgets_and_conditions_survive_a_restart(tmp_path: Path, compact: bool) -> None:
    store = Store.create(started(), tmp_path / "s")
    who = ids(store.state)
    store.dispatch(a.RulesetAction(name="move", args={"combatant": who["Ada"], "feet": 10}))
    store.dispatch(
        a.RulesetAction(
            name="condition", args={"combatant": who["Orc"], "condition": "prone", "ends": "end", "anchor": who["Ada"]}
        )
    )
    before = store.state
    if compact:
        store.save_now()
    store.close()
    store = Store.resume(tmp_path / "s")
    assert store.state == before
    assert RULESET.fight_of(store.state).spent[who["Ada"]].movement == 10
    store.close()


def test_damage_to_a_concentrating_caster_asks_for_a_saving_throw() -> None:
    sides: dict[str, list[Member]] = {"Party": [("Ada", 20, {"dex": 14})], "Hags": [("Hag", 59, {"dex": 12})]}
    state = play(fight(sides), a.StartFight())
    who = ids(state)
    state = apply(state, a.RollInitiative(rolls={who["Ada"]: d20(13), who["Hag"]: d20(10)}))
    state = act(state, "condition", "Hag", condition="concentrating", ends="removed")
    state = apply(state, a.Damage(combatant=who["Hag"], amount=7))  # half of 7 is 3: DC 10
    assert texts(state)[-1] == "Hag is concentrating: a Constitution saving throw against DC 10, or the spell ends."
    state = apply(state, a.Damage(combatant=who["Hag"], amount=25))  # half of 25 is 12: DC 12
    assert entry(state, "Hag is concentrating").facts == {"concentration_dc": 12}
    state = apply(state, a.Damage(combatant=who["Ada"], amount=5))  # Ada is not concentrating
    assert texts(state)[-1] == "Ada takes 5 damage: 15/20 HP."
    state = apply(state, a.Damage(combatant=who["Hag"], amount=27))  # 59 − 7 − 25 − 27 = 0: down, nothing to save
    assert texts(state)[-3:] == ["Hag is down.", "Hag loses concentration: down.", "Hag is no longer concentrating."]
