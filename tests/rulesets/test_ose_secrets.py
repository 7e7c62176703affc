"""What the players read of OSE / Dolmenwood's lines, under each setting for rolls set before the fight: the
monsters' morale is the referee's (the reminders of a check still due are his alone, the score stays behind
the screen, the players read whether the nerve holds); a side of hidden combatants rolls nothing the players
read; a tie names no hidden side."""

from __future__ import annotations

import pytest

from tests.common import typed
from tests.rulesets.ose_fight import (
    GOBLIN_SIDE,
    GOBLINS,
    OGRE,
    OGRE_SIDE,
    PARTY,
    act,
    d6,
    demo,
    next_round,
    started,
    to_step,
)
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.model import ROLLS_OPTION, ROLLS_SHOWN, State
from tui_combat.engine.public import public_entries, public_view
from tui_combat.rulesets.ose import RULESET
from tui_combat.screens.player_view import view_text


def demo_with(rolls_shown: str, *hidden: str, **options: str) -> State:
    """The demo in set-up, the players' setting for rolls and the GM's options set, ``hidden`` hidden."""
    state = apply(demo(), a.SetOption(key=ROLLS_OPTION, value=rolls_shown))
    for key, value in options.items():
        state = apply(state, a.SetOption(key=key, value=value))
    for combatant in hidden:
        state = apply(state, a.SetHidden(combatant=combatant, hidden=True))
    return state


def players(state: State) -> list[str]:
    """What the players read of the log, on their screen and in the public report (the same lines)."""
    on_screen = [line.text for line in public_view(state, log_lines=1000).log]
    reported = [entry.text for entry in public_entries(state)]
    assert on_screen == reported
    return reported


def texts(state: State) -> list[str]:
    return [entry.text for entry in state.log_entries()]


@pytest.mark.parametrize("rolls_shown", ROLLS_SHOWN)
def test_a_morale_check_still_due_is_the_referees_reminder(rolls_shown: str) -> None:
    state = started(demo_with(rolls_shown))
    state = apply(state, a.Damage(combatant=OGRE, amount=3))  # a lone creature's first damage
    state = apply(state, a.SetStatus(combatant=GOBLINS[0], status="down"))  # the goblins' first death
    state = to_step(state, "morale")
    assert "Morale check still due for Goblins: first death." in texts(state)
    assert "Morale check still due for Ogre: first damaged." in texts(state)
    read = players(state)
    assert not [line for line in read if "Morale check" in line], read
    assert "Goblin 1 is down." in read


@pytest.mark.parametrize("rolls_shown", ROLLS_SHOWN)
@pytest.mark.parametrize(
    ("total", "said", "outcome"),
    [
        (
            11,
            "Morale — Goblins: 2d6 (typed): 11 against 7: the nerve breaks: flight or surrender next round.",
            "Goblins: the nerve breaks.",
        ),
        (7, "Morale — Goblins: 2d6 (typed): 7 against 7: the nerve holds.", "Goblins: the nerve holds."),
    ],
)
def test_the_morale_score_stays_behind_the_screen_and_the_players_read_the_outcome(
    rolls_shown: str, total: int, said: str, outcome: str
) -> None:
    state = started(demo_with(rolls_shown))
    state = apply(state, a.SetStatus(combatant=GOBLINS[0], status="down"))
    state = act(state, "morale", combatant=GOBLINS[1], modifier="0", whole_side=True, roll=typed("2d6", total))
    assert texts(state)[-1] == said
    read = players(state)
    if rolls_shown == "everything":
        assert said in read and outcome not in read
    elif rolls_shown == "outcomes":
        assert outcome in read
    else:
        assert outcome not in read
    if rolls_shown != "everything":
        assert not [line for line in read if "against" in line or "Morale" in line], read


def test_one_creatures_morale_is_read_by_his_name() -> None:
    state = started(demo_with("outcomes"))
    state = apply(state, a.Damage(combatant=OGRE, amount=3))
    state = act(state, "morale", combatant=OGRE, modifier="-1", whole_side=False, roll=typed("2d6", 12))
    assert texts(state)[-1] == (
        "Morale — Ogre: 2d6 (typed): 12 against 10 -1: the nerve breaks: flight or surrender next round."
    )
    assert players(state)[-1] == "Ogre: the nerve breaks."
    # Next round, one creature's reminder agrees with one name (it said "Ogre try to flee or surrender").
    state = next_round(state)
    assert "Nerve broken: Ogre — flight or surrender this round." in texts(state)


@pytest.mark.parametrize("rolls_shown", ROLLS_SHOWN)
def test_a_hidden_goblins_death_tells_the_players_nothing(rolls_shown: str) -> None:
    state = started(demo_with(rolls_shown, GOBLINS[0]))
    state = apply(state, a.SetStatus(combatant=GOBLINS[0], status="down"))
    state = to_step(state, "morale")
    assert "Morale check still due for Goblins: first death." in texts(state)
    read = players(state)
    assert not [line for line in read if "Goblin 1" in line or "death" in line or "Morale check" in line], read


@pytest.mark.parametrize("rolls_shown", ROLLS_SHOWN)
def test_a_side_of_hidden_ones_rolls_nothing_the_players_read(rolls_shown: str) -> None:
    """The demo's Ogre, hidden, is alone on his side: its surprise and initiative rolls are the GM's."""
    state = apply(demo_with(rolls_shown, OGRE), a.BeginSurprise())
    state = apply(state, a.RollSurprise(rolls={r.key: typed(r.dice, 4) for r in RULESET.surprise_requests(state)}))
    state = to_step(apply(state, a.StartFight()), "resolve")
    assert "Surprise — Ogre: 1d6 (typed): 4: not surprised." in texts(state)
    assert any(text.startswith("Initiative — Ogre: ") for text in texts(state))
    read = players(state)
    assert not [line for line in read if "Ogre" in line], read
    assert "Ogre" not in view_text(public_view(state))
    if rolls_shown == "everything":
        assert "Surprise — Goblins: 1d6 (typed): 4: not surprised." in read
    assert not [entry.text for entry in state.log_entries() if entry.held]


@pytest.mark.parametrize("rolls_shown", ROLLS_SHOWN)
def test_a_tie_names_no_hidden_side(rolls_shown: str) -> None:
    state = started(demo_with(rolls_shown, OGRE, ties="simultaneous"))
    state = apply(state, a.NextStep())
    state = apply(state, a.RollInitiative(rolls={PARTY: d6(4), GOBLIN_SIDE: d6(4), OGRE_SIDE: d6(4)}))
    assert "Tied at 4: Party + Goblins + Ogre act simultaneously." in texts(state)
    read = players(state)
    assert "Tied at 4: Party + Goblins act simultaneously." in read
    assert not [line for line in read if "Ogre" in line], read
    view = view_text(public_view(state))  # the shared turn's slots name the sides the players see
    assert "Party + Goblins · movement" in view and "Ogre" not in view
    # Two sides only, one of them hidden: the players read no tie at all.
    state = started(demo_with(rolls_shown, OGRE, ties="simultaneous"))
    state = apply(state, a.NextStep())
    state = apply(state, a.RollInitiative(rolls={PARTY: d6(4), GOBLIN_SIDE: d6(2), OGRE_SIDE: d6(4)}))
    assert "Tied at 4: Party + Ogre act simultaneously." in texts(state)
    assert not [line for line in players(state) if "Tied at" in line or "Ogre" in line]


def test_a_hidden_newcomer_is_not_named_by_the_line_that_says_he_acts_next_round() -> None:
    state = to_step(started(demo_with("outcomes")), "resolve")
    state = apply(state, a.AddSide(name="Trolls"))
    state = apply(state, a.AddCombatants(side=state.sides[-1].id, name="Troll", hp=20, hidden=True))
    assert "Troll act from the next round." in texts(state)
    assert not [line for line in players(state) if "Troll" in line]
    assert not [entry.text for entry in state.log_entries() if entry.held]


def test_the_end_of_the_monsters_checks_is_the_referees_and_their_flight_is_named_for_the_players() -> None:
    state = started(demo_with("outcomes", GOBLINS[3]))
    state = act(state, "morale", combatant=GOBLINS[0], modifier="0", whole_side=True, roll=typed("2d6", 6))
    state = act(state, "morale", combatant=GOBLINS[0], modifier="0", whole_side=True, roll=typed("2d6", 7))
    said = "Goblin 1, Goblin 2, Goblin 3, Goblin 4 passed 2 morale checks: a fight to the death."
    assert texts(state)[-1] == said and state.log_entries()[-1].secret
    assert players(state)[-2:] == ["Goblins: the nerve holds.", "Goblins: the nerve holds."]
    state = started(demo_with("outcomes", GOBLINS[3]))
    state = act(state, "morale", combatant=GOBLINS[0], modifier="0", whole_side=True, roll=typed("2d6", 12))
    state = to_step(apply(to_step(state, "morale"), a.NextStep()), "declare")  # the next round
    assert "Nerve broken: Goblin 1, Goblin 2, Goblin 3, Goblin 4 — flight or surrender this round." in texts(state)
    assert "Nerve broken: Goblin 1, Goblin 2, Goblin 3 — flight or surrender this round." in players(state)
