"""What the players read of Player's Option's lines about a side of hidden combatants only (its initiative, its
1 or 10, a tie with it, its placement: none of it), of the side's die face behind its shift, of the DM's
end-of-round checklist and the monsters' effects it lists, and of a monster's changed action. Each under the
three settings for rolls, set before the lines are written."""

from __future__ import annotations

import pytest

from tests.common import d10, die
from tests.rulesets.test_adnd_secrets import cid, gm_texts, players_lines, players_read
from tui_combat.engine import actions as a
from tui_combat.engine.encounter import CombatantSpec, Encounter, SideSpec
from tui_combat.engine.model import ROLLS_OPTION, ROLLS_SHOWN, State
from tui_combat.fight.store import Store, store_from_encounter
from tui_combat.rulesets.players_option import RULESET

GERDA = {"cls": "warrior", "level": 5, "ac": 3, "weapon": "long sword", "magic": 2, "damage": "1d8"}
GNOLL = {"cls": "monster", "level": 2, "ac": 5, "weapon": "battle axe", "damage": "1d8", "size": "large"}
OGRE = {"cls": "monster", "level": "4+1", "ac": 5, "weapon": "club", "damage": "1d10", "size": "large"}


def fight(shown: str) -> Store:
    """Gerda against a gnoll, and reinforcements the players do not see (an ogre), in set-up."""
    encounter = Encounter(
        name="Test",
        ruleset="players_option",
        sides=[
            SideSpec(name="Heroes", party=True, combatants=[CombatantSpec(name="Gerda", hp=40, sheet=GERDA)]),
            SideSpec(name="Gnolls", combatants=[CombatantSpec(name="Gnoll", hp=9, sheet=GNOLL)]),
            SideSpec(name="Reinforcements", combatants=[CombatantSpec(name="Ogre", hp=25, sheet=OGRE, hidden=True)]),
        ],
    )
    store = store_from_encounter(encounter, seed=1)
    store.dispatch(a.SetOption(key=ROLLS_OPTION, value=shown))
    return store


def side_ids(state: State) -> dict[str, str]:
    return {side.name: side.id for side in state.sides}


def kind(state: State) -> str:
    return RULESET.steps(state)[state.step].kind


def roll_sides(store: Store, heroes: int, gnolls: int, reinforcements: int) -> None:
    if store.state.phase != "round":
        store.dispatch(a.StartFight())
    while kind(store.state) != "initiative":
        store.dispatch(a.NextStep())
    sides = side_ids(store.state)
    store.dispatch(
        a.RollInitiative(
            rolls={
                sides["Heroes"]: d10(heroes),
                sides["Gnolls"]: d10(gnolls),
                sides["Reinforcements"]: d10(reinforcements),
            }
        )
    )


def unseen(read: str) -> bool:
    return "Reinforcements" not in read and "Ogre" not in read


def test_a_side_of_hidden_combatants_only_wins_initiative_out_of_the_players_sight() -> None:
    for shown in ROLLS_SHOWN:
        store = fight(shown)
        roll_sides(store, 10, 7, 1)
        state = store.state
        gm = gm_texts(state)
        assert "Reinforcements rolled 1: every phase of the side one faster." in gm
        assert "Heroes rolled 10: every phase of the side one slower." in gm
        assert "Initiative goes to Reinforcements." in gm
        assert "Order: fast · Reinforcements: Ogre; average · Gnolls: Gnoll; average · Heroes: Gerda." in gm
        read = players_read(state)
        assert unseen(read), (shown, read)
        # The face of the die follows the setting for rolls; what it does is the players' under every one.
        heroes = (
            "Heroes rolled 10: every phase of the side one slower."
            if shown == "everything"
            else "Every phase of Heroes is one slower this round."
        )
        assert heroes in players_lines(state), shown
        assert "Order: average · Gnolls: Gnoll; average · Heroes: Gerda." in players_lines(state), shown


def test_a_tie_with_a_side_the_players_do_not_see_is_not_theirs() -> None:
    for shown in ROLLS_SHOWN:
        store = fight(shown)
        roll_sides(store, 5, 7, 5)
        assert gm_texts(store.state)[-1] == (
            "Initiative needs more rolls: Reinforcements: roll again (tie at 5), "
            "Critical event (tie: Heroes 5 = Reinforcements 5)."
        )
        asked = {str(request.label): request.key for request in store.state.initiative.pending}
        store.dispatch(
            a.RollInitiative(
                rolls={
                    asked["Reinforcements: roll again (tie at 5)"]: d10(2),
                    asked["Critical event (tie: Heroes 5 = Reinforcements 5)"]: die("1d20", 9),
                }
            )
        )
        state = store.state
        event = next(entry for entry in state.log_entries() if entry.text.startswith("Critical event — 9"))
        assert event.secret
        read = players_read(state)
        assert unseen(read) and "tie" not in read and "Critical event" not in read, (shown, read)
        assert players_lines(state)[-1] == "Order: fast · Heroes: Gerda; average · Gnolls: Gnoll."


def test_a_tie_between_sides_the_players_see_stays_theirs() -> None:
    store = fight("outcomes")
    roll_sides(store, 5, 5, 8)
    needs = "Initiative needs more rolls: Gnolls: roll again (tie at 5), Critical event (tie: Heroes 5 = Gnolls 5)."
    assert gm_texts(store.state)[-1] == needs
    assert players_lines(store.state)[-1] == needs


@pytest.mark.parametrize("shown", ROLLS_SHOWN)
def test_a_side_of_hidden_combatants_only_is_not_named_in_the_placement(shown: str) -> None:
    store = fight(shown)
    sides = side_ids(store.state)
    store.dispatch(a.BeginSurprise())
    store.dispatch(
        a.RollSurprise(rolls={sides["Heroes"]: d10(5), sides["Gnolls"]: d10(6), sides["Reinforcements"]: d10(2)})
    )
    store.dispatch(a.StartFight())
    state = store.state
    assert (
        "Placing the figures: Reinforcements first (surprised), then Heroes, Gnolls, at the rolled range."
        in gm_texts(state)
    )
    assert not any(text.startswith("Placing the figures") for text in players_lines(state))
    assert unseen(players_read(state))

    store = fight(shown)
    store.dispatch(a.BeginSurprise())
    store.dispatch(
        a.RollSurprise(rolls={sides["Heroes"]: d10(2), sides["Gnolls"]: d10(6), sides["Reinforcements"]: d10(7)})
    )
    store.dispatch(a.StartFight())
    state = store.state
    assert (
        "Placing the figures: Heroes first (surprised), then Gnolls, Reinforcements, at the rolled range."
        in gm_texts(state)
    )
    assert "Placing the figures: Heroes first (surprised), then Gnolls, at the rolled range." in players_lines(state)
    assert unseen(players_read(state))


def test_the_dms_checklist_and_the_monsters_effects_it_lists_are_his() -> None:
    for shown in ROLLS_SHOWN:
        store = fight(shown)
        roll_sides(store, 3, 7, 8)
        for name, effect in (("Gerda", "bless"), ("Gnoll", "haste"), ("Ogre", "invisibility")):
            store.dispatch(
                a.RulesetAction(name="effect", args={"combatant": cid(store.state, name), "name": effect, "amount": 3})
            )
        while kind(store.state) != "end":
            store.dispatch(a.NextStep())
        for _part in range(4):
            store.dispatch(a.RulesetAction(name="check", args={}))
        state = store.state
        gm = gm_texts(state)
        assert gm[-4:] == [
            "End of round, status (4/4): spells, poison and special critical effects take their toll.",
            "Gerda: bless 2 rounds.",
            "Gnoll: haste 2 rounds.",
            "Ogre: invisibility 2 rounds.",
        ]
        read = players_lines(state)
        assert read[-1] == "Gerda: bless 2 rounds.", shown
        assert not any(text.startswith("End of round, ") for text in read)
        assert "haste" not in players_read(state) and unseen(players_read(state))


def test_what_a_monster_does_instead_is_the_dms() -> None:
    for shown in ROLLS_SHOWN:
        store = fight(shown)
        roll_sides(store, 3, 7, 8)
        for name, text in (("Gnoll", "runs for the wagon"), ("Gerda", "guards the wagon")):
            store.dispatch(a.RulesetAction(name="abandon", args={"combatant": cid(store.state, name), "text": text}))
        state = store.state
        assert gm_texts(state)[-2:] == [
            "Gnoll changes his action (runs for the wagon): he acts at the very end of the round.",
            "Gerda changes his action (guards the wagon): he acts at the very end of the round.",
        ]
        assert players_lines(state)[-2:] == [
            "Gnoll changes his action: he acts at the very end of the round.",
            "Gerda changes his action (guards the wagon): he acts at the very end of the round.",
        ], shown
