"""One Player's Option round of the demo (wolves and gnolls on the old road), played from the keyboard at
80×24. Every die is typed in "from physical dice", so nothing depends on the app's own dice:

* initiative: the heroes 4, the gnolls 4 — a tie: the screen waits for the gnolls' reroll (7) and the
  critical event's d20 (9: knock down), both typed in one form whose labels show the tied faces;
* the order by phase (no 1 or 10, so no shift; the heroes win 4 against 7): the wolves very fast (small,
  natural weapons); Gerda (long sword +2) and Tam (short sword set fast) fast; Ilse (dagger) average
  before the gnolls and the ogre (battle axes, club; the ogre's load) also average;
* Wolf 1 bites Gerda's AC 3: 2+2 HD → THAC0 19, 16 needed, 15 misses;
* Tam changes his action (``z``) and goes to the end of the round;
* the end of the round: ``k`` four times walks fatigue, retreat, morale, status; ``n`` starts round 2.
"""

from __future__ import annotations

from textual.pilot import Pilot

from tests.ui.steps import (
    SIZE,
    combatant_id,
    field_labels,
    log_texts,
    open_form,
    select,
    store,
    to_round_from_setup,
    until_closed,
    visible_text,
)
from tui_combat.engine.encounter import ENCOUNTER_DIR
from tui_combat.engine.log import render
from tui_combat.screens.round import RoundScreen
from tui_combat.widgets.phase_bar import PhaseBar

DEMO = ENCOUNTER_DIR / "demo_players_option.toml"


def order(app) -> list[tuple[str, list[str]]]:
    state = store(app).state
    names = state.names()
    return [(render(slot.label), [names[c] for c in slot.combatants]) for slot in state.order]


async def type_rolls(pilot: Pilot[None], *typed: str) -> list[str]:
    """``t`` and the rolls typed from real dice (Enter goes to the next field and submits on the last);
    the form's labels as the GM saw them."""
    form = await open_form(pilot, "t")
    labels = field_labels(form)
    for value in typed:
        await pilot.press(*value, "enter")
    await until_closed(pilot, form, "the rolls typed in")
    assert isinstance(pilot.app.screen, RoundScreen)
    return labels


async def test_a_players_option_round_with_a_tie(make_app) -> None:
    app = make_app(encounter=DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await to_round_from_setup(pilot)
        screen = app.screen
        assert "Placing the figures: the DM places everyone, the heroes in their marching order." in log_texts(app)

        # Monster actions → hero declarations → initiative.
        await pilot.press("n", "n")
        assert screen.step_kind() == "initiative"
        labels = await type_rolls(pilot, "4", "4")
        assert labels[:2] == ["Heroes (1d10)", "Gnolls (1d10)"]
        state = store(app).state
        assert not state.initiative.settled
        assert [render(r.label) for r in state.initiative.pending] == [
            "Gnolls: roll again (tie at 4)",
            "Critical event (tie: Heroes 4 = Gnolls 4)",
        ]
        bar = visible_text(screen.query_one(PhaseBar))
        assert "initiative waits for" in bar, bar

        labels = await type_rolls(pilot, "7", "9")
        assert labels[:2] == [
            "Gnolls: roll again (tie at 4) (1d10)",
            "Critical event (tie: Heroes 4 = Gnolls 4) (1d20)",
        ]
        assert "Critical event — 9: knock down. The GM applies it." in log_texts(app)
        assert "Initiative goes to Heroes." in log_texts(app)
        assert order(app) == [
            ("very fast · Gnolls", ["Wolf 1", "Wolf 2"]),
            ("fast · Heroes", ["Gerda", "Tam"]),
            ("average · Heroes", ["Ilse"]),
            ("average · Gnolls", ["Gnoll 1", "Gnoll 2", "Gnoll 3", "Ogre"]),
        ]
        assert screen.step_kind() == "resolve" and store(app).state.cursor == 0
        assert screen.selected() == combatant_id(app, "Wolf 1")

        # Wolf 1 bites Gerda: with (bite), target (by AC), AC 3, other modifiers, the d20 typed: 15.
        form = await open_form(pilot, "a")
        assert [spec.key for spec in form.fields] == ["with", "target", "target_ac", "bonus", "roll"]
        await pilot.press("tab", "tab", "3", "enter", "enter", "1", "5", "enter")
        await until_closed(pilot, form, "the bite")
        assert isinstance(app.screen, RoundScreen)
        assert log_texts(app)[-1] == "Wolf 1 attacks Gerda (AC 3) with bite: d20 15 vs 16 — miss."

        # The heroes' fast phase: Tam changes his action; he acts at the very end of the round.
        await pilot.press("n")
        tam = combatant_id(app, "Tam")
        await select(pilot, tam)
        form = await open_form(pilot, "z")
        await pilot.press(*"hides", "enter")
        await until_closed(pilot, form, "the changed action")
        assert isinstance(app.screen, RoundScreen)
        assert order(app)[1] == ("fast · Heroes", ["Gerda"])
        assert order(app)[-1] == ("end of round (changed action)", ["Tam"])
        assert log_texts(app)[-1] == "Tam changes his action (hides): he acts at the very end of the round."
        assert store(app).state.acting_now() == (combatant_id(app, "Gerda"),)

        # On through Ilse, the gnolls, Tam, to the end of the round.
        await pilot.press("n", "n", "n", "n")
        assert screen.step_kind() == "end"
        assert log_texts(app)[-2:] == ["End of the round: fatigue, retreat, morale, status.", "End of round 1."]
        await pilot.press("k", "k", "k", "k")
        assert [t.split(":")[0] for t in log_texts(app)[-4:]] == [
            "End of round, fatigue (1/4)",
            "End of round, retreat (2/4)",
            "End of round, morale (3/4)",
            "End of round, status (4/4)",
        ]
        await pilot.press("k")  # nothing left to check: the key does nothing
        assert log_texts(app)[-1].startswith("End of round, status (4/4)")

        await pilot.press("n")
        state = store(app).state
        assert (state.round, state.step, state.order) == (2, 0, ())
        assert "Round 2" in visible_text(screen.query_one(PhaseBar))
