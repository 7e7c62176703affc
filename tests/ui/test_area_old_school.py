"""The area flow where saves are the combatant's own number (OSE) and where there are none (Trudvang), at 80×24, keys
pressed: the targets marked a side (``*``) or a group (``+``) at a time, found by typing their names; the form asks no
DC where the rules use none, and no save where they have none; one action, a line for each target, one undo."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot
from textual.widgets import Select

from tests.ui.steps import (
    SIZE,
    log_texts,
    store,
    to_round_from_setup,
    until_closed,
    until_form,
    until_round,
    until_setup,
    visible_text,
)
from tests.ui.test_area_effects import rows
from tests.waiting import settled, until, until_screen
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine.encounter import ENCOUNTER_DIR
from tui_combat.screens.area_preview import AreaPreview
from tui_combat.screens.area_targets import TargetPicker
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.round import RoundScreen

BLAST = 4
"""Where OSE's Blast (breath) save is in the area form's list (no saving throw, Doom, Ray, Hold, Blast, Spell)."""


async def to_the_goblins_turn(pilot: Pilot[None], app: CombatApp) -> RoundScreen:
    """The OSE demo's round 1: declarations passed, initiative rolled (seed 1: the goblins first)."""
    await to_round_from_setup(pilot)
    screen = app.screen
    assert isinstance(screen, RoundScreen)
    await pilot.press("n")
    await until(pilot, lambda: screen.step_kind() == "initiative", "the initiative step")
    await pilot.press("r")
    await until(pilot, lambda: screen.step_kind() == "resolve", "the sides' turns")
    return screen


async def test_an_ose_breath_on_the_party_marked_as_a_side(make_app: Callable[..., CombatApp]) -> None:
    app = make_app(encounter=ENCOUNTER_DIR / "demo_ose.toml")
    async with app.run_test(size=SIZE) as pilot:
        screen = await to_the_goblins_turn(pilot, app)
        await pilot.press("Z")
        picker = await until_screen(pilot, TargetPicker, "the targets")
        await pilot.press(*"gob", "plus")  # the goblins' group, found by typing
        assert len(picker.marked) == 4
        assert {store(app).state.combatant(cid).group for cid in picker.marked} != {""}
        await pilot.press("minus")
        assert picker.marked == set()
        await pilot.press(*"sir", "asterisk")  # Sir Ambrose's whole side
        party = {
            c.id
            for c in store(app).state.combatants
            if c.side == store(app).state.combatant(next(iter(picker.marked))).side
        }
        assert picker.marked == party and len(party) == 4
        await pilot.press("enter")

        form = await until_screen(pilot, FormDialog, "the area form")
        assert [field.key for field in form.fields] == ["name", "dice", "save", "on_save", "group_roll", "source"]
        await pilot.press(*"Breath", "enter", *"2d8", "enter", "down", *["down"] * BLAST, "enter")
        await until(pilot, lambda: form.query_one("#f-save", Select).value == "breath", "Blast chosen")
        await pilot.press("ctrl+s")
        preview = await until_screen(pilot, AreaPreview, "the preview")
        await until(pilot, lambda: preview.shown is not None and len(rows(preview)) == 4, "the preview's rows")
        shown = rows(preview)
        assert all(len(row) == 7 for row in shown), shown  # with the number each one needs: no DC in OSE
        assert all(row[2].isdigit() for row in shown), shown

        before = len(store(app).done_actions())
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen and settled(screen), "the breath applied")
        done = store(app).done_actions()
        assert len(done) == before + 1 and isinstance(done[-1], a.AreaEffect)
        assert done[-1].save == "breath" and done[-1].dc == 0 and len(done[-1].targets) == 4
        texts = log_texts(app)
        header = next(line for line in texts if line.startswith("Breath: "))
        assert "Blast (breath) save" in header, header
        for name, _save, needs, _chance, result, _takes, health in shown:
            line = next(line for line in texts if line.startswith(f"{name}: Blast"))
            assert f"against {needs}: {result}" in line and health.split()[0] in line, (line, needs, result, health)

        await pilot.press("u")
        await until(pilot, lambda: len(store(app).done_actions()) == before, "the breath undone")
        assert all(c.hp == c.max_hp for c in store(app).state.combatants)


async def test_a_trudvang_area_deals_its_damage_to_each_without_a_save(make_app: Callable[..., CombatApp]) -> None:
    app = make_app(encounter=ENCOUNTER_DIR / "demo_trudvang.toml")
    async with app.run_test(size=SIZE) as pilot:
        await until_setup(pilot)
        await pilot.press("c", "c")  # set-up → surprise → round
        screen = await until_round(pilot)
        await pilot.press("n", "t")  # actions → initiative, typed from real dice
        form = await until_form(pilot, "the initiative form")
        await pilot.press("9", "tab", "8", "tab", "8", "tab", "1", "0", "space", "1", "enter")
        await until_closed(pilot, form, "the initiative typed in")
        await pilot.press("Z")
        picker = await until_screen(pilot, TargetPicker, "the targets")
        await pilot.press(*"rai", "plus")  # the raiders' group
        raiders = set(picker.marked)
        assert len(raiders) == 3
        await pilot.press("enter")
        form = await until_screen(pilot, FormDialog, "the area form")
        assert "save" not in [field.key for field in form.fields] and "dc" not in [field.key for field in form.fields]
        await pilot.press(*"Rockfall", "enter", *"5", "ctrl+s")
        preview = await until_screen(pilot, AreaPreview, "the preview")
        await until(pilot, lambda: preview.shown is not None and len(rows(preview)) == 3, "the preview's rows")
        assert [row[1].split()[0] for row in rows(preview)] == ["5", "5", "5"]  # what armour keeps: "5 → −3"
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen and settled(screen), "the area applied")
        state = store(app).state
        assert all(state.combatant(cid).hp < state.combatant(cid).max_hp for cid in raiders), [
            (state.combatant(cid).name, state.combatant(cid).hp) for cid in raiders
        ]
        assert isinstance(store(app).done_actions()[-1], a.AreaEffect)
        assert any(line.startswith("Fridgar's Rockfall: 5 damage") for line in log_texts(app)), log_texts(app)[-8:]
        assert visible_text(screen.step_hint)
