"""One Old-School Essentials / Dolmenwood round of the demo, from the session list, with real key presses
at 80×24. Every die is typed "from physical dice":

* surprise 3, 4, 5: nobody is surprised;
* Wendel declares *sleep* before initiative;
* initiative: Party 2, Goblins 5, Ogre 1 — the goblins act first, then the party, then the ogre, each
  through movement, missiles, magic and melee;
* in the goblins' melee Goblin 1 stabs Wendel (12 against AC 10, 2 damage): the spell is disrupted
  before the party's magic phase, and in that phase casting it is refused;
* in the party's missile phase Pipkin (+1) shoots Goblin 1 (12 + 1 = 13 against AC 13, 3 damage):
  the goblins' first death calls for a morale check;
* at the morale step the GM checks the goblins' morale: the form shows the chance of breaking
  (higher than 7 on 2d6: 15 in 36), the roll typed is 8 — the nerve breaks.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import DataTable, Select

from tests.ui.steps import (
    SIZE,
    combatant_id,
    dialog_error,
    footer_now,
    log_texts,
    open_form,
    prompt_line,
    select,
    selected,
    store,
    until_closed,
    until_prompt,
    until_prompt_closed,
    until_sessions,
    until_setup,
    visible_text,
)
from tests.waiting import until
from tui_combat.engine.log import render
from tui_combat.rulesets.ose import RULESET
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.surprise import SurpriseScreen
from tui_combat.widgets.phase_bar import PhaseBar

DEMO_ROW = "▶ Demo: goblins at the mossy bridge"


def phase_bar(app: App[Any]) -> str:
    return visible_text(app.screen.query_one(PhaseBar))


async def pick(pilot: Pilot[None], form: FormDialog, key: str, value: str) -> None:
    """In the focused Select of field ``key``, open the list and move to ``value`` with the arrows."""
    widget = form.query_one(f"#f-{key}", Select)
    assert widget.has_focus, key
    values = [choice for choice, _label in next(f for f in form.fields if f.key == key).choices]
    steps = values.index(value) - values.index(str(widget.value))
    await pilot.press("down", *(["down"] * steps), "enter")
    await until(pilot, lambda: widget.value == value, f"{key} set to {value}", describe=lambda: f"it is {widget.value}")


async def next_slot(pilot: Pilot[None], expected: str) -> None:
    await pilot.press("n")
    await until(
        pilot,
        lambda: f"▶ {expected}" in phase_bar(pilot.app),
        f"{expected} on the phase bar",
        describe=lambda: phase_bar(pilot.app),
    )


async def test_one_ose_round_with_its_four_phases_and_a_morale_check(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        # -- the demo is offered on the session list beside the others -------------------------------------
        await until_sessions(pilot)
        table = app.screen.query_one(DataTable)
        rows = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        assert DEMO_ROW in rows, rows
        await pilot.press(*["down"] * rows.index(DEMO_ROW), "enter")
        await until_setup(pilot)
        assert store(app).state.ruleset == "ose"

        # -- surprise typed: 3, 4, 5 — nobody surprised ------------------------------------------------------
        await pilot.press("c")
        assert isinstance(app.screen, SurpriseScreen)
        await pilot.press("t")
        assert isinstance(app.screen, FormDialog)
        await pilot.press("3", "enter", "4", "enter", "5", "enter")
        assert isinstance(app.screen, SurpriseScreen), dialog_error(app)
        assert store(app).state.surprised == ()
        await pilot.press("c")
        assert isinstance(app.screen, RoundScreen), type(app.screen).__name__
        wendel, pipkin = combatant_id(app, "Wendel"), combatant_id(app, "Pipkin")
        goblin1, goblin2 = combatant_id(app, "Goblin 1"), combatant_id(app, "Goblin 2")

        # -- declarations: Wendel will cast sleep ------------------------------------------------------------
        assert RULESET.steps(store(app).state)[store(app).state.step].id == "declare"
        await select(pilot, wendel)
        form = await open_form(pilot, "e")
        assert [f.key for f in form.fields] == ["intent", "what"]
        await pick(pilot, form, "intent", "spell")
        await pilot.press("tab", *"sleep", "enter")
        assert isinstance(app.screen, RoundScreen), dialog_error(app)
        assert log_texts(app)[-1] == "Wendel declares a spell: sleep."
        budget = str(app.screen.query_one("#budget").render())
        assert "No move: casting" in budget and "0/0" in budget

        # -- initiative: Party 2, Goblins 5, Ogre 1 -----------------------------------------------------------
        await pilot.press("n", "t")
        form = app.screen
        assert isinstance(form, FormDialog), type(form).__name__
        assert [f.default for f in form.fields] == ["1d6", "1d6", "1d6"]
        await pilot.press("2", "enter", "5", "enter", "1", "enter")
        await until_closed(pilot, form, "the initiative typed in")
        assert isinstance(app.screen, RoundScreen)
        state = store(app).state
        assert [render(slot.label) for slot in state.order] == [
            f"{side} · {phase}"
            for side in ("Goblins", "Party", "Ogre")
            for phase in ("movement", "missiles", "magic", "melee")
        ]
        await until(
            pilot,
            lambda: "▶ Goblins · movement" in phase_bar(app),
            "the goblins' movement on the phase bar",
            describe=lambda: phase_bar(app),
        )

        # -- the goblins' turn: movement, missiles, magic, melee ----------------------------------------------
        assert selected(app) == goblin1
        assert "Move" in (await footer_now(pilot))
        await pilot.press("g")
        assert log_texts(app)[-1] == "Goblin 1 moves."
        await next_slot(pilot, "Goblins · missiles")
        await next_slot(pilot, "Goblins · magic")
        await next_slot(pilot, "Goblins · melee")
        assert selected(app) == goblin1 and "Attack" in (await footer_now(pilot))
        form = await open_form(pilot, "a")
        assert [f.key for f in form.fields] == ["target", "modifier", "behind", "to_hit"]
        await pick(pilot, form, "target", wendel)
        await pilot.press("tab", "tab", "tab", "1", "2", "enter")
        await until_prompt(pilot, "the damage the hit calls for")
        assert prompt_line(app, "title") == "Damage to Wendel"
        await pilot.press("2", "enter")
        await until_prompt_closed(pilot)
        assert store(app).state.combatant(wendel).hp == 2
        assert (
            log_texts(app)[-1]
            == "Wendel's spell sleep is disrupted (hit before his side's magic phase): it is lost from memory."
        )

        # -- the party's turn ---------------------------------------------------------------------------------
        await next_slot(pilot, "Party · movement")
        await next_slot(pilot, "Party · missiles")
        await select(pilot, pipkin)
        form = await open_form(pilot, "a")
        assert [f.key for f in form.fields] == ["target", "range", "modifier", "to_hit"]
        assert form.query_one("#f-target", Select).value == goblin1
        await pilot.press("tab", "tab", "tab", "1", "2", "enter")
        await until_prompt(pilot, "the damage the hit calls for")
        assert prompt_line(app, "title") == "Damage to Goblin 1"
        await pilot.press("3", "enter")
        await until_prompt_closed(pilot)
        assert store(app).state.combatant(goblin1).status == "down"
        assert "Morale check due for Goblins: first death." in log_texts(app)[-3:]

        await next_slot(pilot, "Party · magic")
        await select(pilot, wendel)
        assert "Disrupted: the spell is lost" in visible_text(app.screen.query_one("#card"))
        await pilot.press("c")
        await until(
            pilot,
            lambda: any("Wendel's spell was disrupted: it is lost." in str(n.message) for n in app._notifications),
            "the disrupted spell's notice",
        )
        assert not any(e.facts.get("cast") for e in store(app).state.log_entries())

        await next_slot(pilot, "Party · melee")
        for phase in ("movement", "missiles", "magic", "melee"):
            await next_slot(pilot, f"Ogre · {phase}")

        # -- the morale step: the goblins' check, the chance shown before the roll ----------------------------
        await pilot.press("n")
        await until(
            pilot, lambda: RULESET.steps(store(app).state)[store(app).state.step].id == "morale", "the morale step"
        )
        state = store(app).state
        assert "Morale check still due for Goblins: first death." in log_texts(app)[-2:]
        await select(pilot, goblin2)
        card = visible_text(app.screen.query_one("#card"))
        assert "Morale: 7 — breaks on 8+: 15 in 36 (42%)" in card, card
        assert "Morale check due: first death" in card
        assert "Morale" in (await footer_now(pilot))
        form = await open_form(pilot, "m")
        shown = visible_text(form.query_one("#f-modifier"))  # the choice the list field shows, as cut at 80×24
        assert shown.removesuffix("▼").rstrip() == "0: breaks on 8+: 15 in 36 (42%)", shown
        await pilot.press("tab", "tab", "8", "enter")
        assert isinstance(app.screen, RoundScreen), dialog_error(app)
        assert log_texts(app)[-1] == (
            "Morale — Goblins: 2d6 (typed): 8 against 7: the nerve breaks: flight or surrender next round."
        )
        assert set(RULESET.fight_of(store(app).state).broken) == {
            goblin2,
            combatant_id(app, "Goblin 3"),
            combatant_id(app, "Goblin 4"),
        }

        # -- into round 2 ------------------------------------------------------------------------------------
        await pilot.press("n")
        state = store(app).state
        assert state.round == 2 and RULESET.steps(state)[state.step].id == "declare"
        assert "Nerve broken: Goblin 2, Goblin 3, Goblin 4 — flight or surrender this round." in log_texts(app)
