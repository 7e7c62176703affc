"""Typing a name in a list at 80×24, as a GM does: "pr" in the condition form's closed list takes "prone" (eleven
↓ before), the same in its open list moves the highlight there and Enter takes it; in the status picker "f" goes
to "fled" and "su" to "surrendered"; in Russian, the Russian names are typed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.widgets import OptionList, Select

from tests.i18n.interface import interface_in
from tests.i18n.interface import make_app as make_app_in
from tests.ui.steps import (
    SIZE,
    combatant_id,
    log_texts,
    select,
    store,
    to_round,
    to_round_from_setup,
    until_closed,
    until_form,
)
from tests.waiting import until, until_screen
from tui_combat.app import CombatApp
from tui_combat.engine.encounter import ENCOUNTER_DIR
from tui_combat.screens.dialogs import ChoiceDialog

DEMO_5E = ENCOUNTER_DIR / "demo_dnd5e.toml"


async def test_a_condition_by_its_first_letters(make_app: Callable[..., CombatApp]) -> None:
    app = make_app(encounter=DEMO_5E)
    async with app.run_test(size=SIZE) as pilot:
        await to_round_from_setup(pilot)
        goblin = combatant_id(app, "Goblin 1")
        await select(pilot, goblin)

        await pilot.press("c")
        form = await until_form(pilot, "the condition form")
        field = form.query_one("#f-condition", Select)
        await pilot.press("p", "r")
        await until(pilot, lambda: field.value == "prone", "prone typed in the closed list")
        assert not field.expanded
        await pilot.press("ctrl+s")
        await until_closed(pilot, form, "the round again")
        assert "Goblin 1 is prone." in log_texts(app)

        # The open list: the highlight goes where the letters lead, Enter takes it.
        await pilot.press("c")
        form = await until_form(pilot, "the condition form again")
        field = form.query_one("#f-condition", Select)
        await pilot.press("down")
        await until(pilot, lambda: field.expanded, "the list open")
        await pilot.press("s", "t", "enter")
        await until(pilot, lambda: field.value == "stunned" and not field.expanded, "stunned taken from the open list")


async def test_the_status_picker_goes_to_what_is_typed(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        chosen = store(app).state.combatants[0]
        await select(pilot, chosen.id)
        await pilot.press("x")
        picker = await until_screen(pilot, ChoiceDialog, "the status picker")
        options = picker.query_one(OptionList)

        def highlighted() -> str:
            option = options.highlighted_option
            return option.id or "" if option is not None else ""

        await pilot.press("f")
        await until(pilot, lambda: highlighted() == "fled", "fled found by its first letter")
        await pilot.press("escape")  # a key that is no letter: what was typed is forgotten
        await until(pilot, lambda: not isinstance(app.screen, ChoiceDialog), "the picker left")
        await pilot.press("x")
        picker = await until_screen(pilot, ChoiceDialog, "the status picker again")
        options = picker.query_one(OptionList)
        await pilot.press("s", "u")
        await until(pilot, lambda: highlighted() == "surrendered", "surrendered found")
        await pilot.press("enter")
        await until_closed(pilot, picker, "the status taken")
        assert store(app).state.combatant(chosen.id).status == "surrendered"


async def test_in_russian_the_russian_names(data_root: Path) -> None:
    with interface_in("ru") as app_module:
        app = make_app_in(app_module, data_root, encounter=DEMO_5E)
        async with app.run_test(size=SIZE) as pilot:
            await to_round_from_setup(pilot)
            state = store(app).state
            await select(pilot, next(c.id for c in state.combatants if not state.side(c.side).is_party))
            await pilot.press("c")
            form = await until_form(pilot, "the condition form")
            field = form.query_one("#f-condition", Select)
            await pilot.press("с", "б")  # «сбитый с ног»
            await until(pilot, lambda: field.value == "prone", "prone typed in Russian")
