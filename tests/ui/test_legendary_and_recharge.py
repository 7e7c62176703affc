"""D&D 5e on the round screen at 80×24, keys pressed: temporary hit points (key p) on the card and in the list; the
dragon's legendary actions offered in the step line at the end of others' turns, their key acting for the dragon
whoever is selected; its spent Fire Breath's recharge die asked by itself at the start of its turn; Legendary Resistance
asked after a failed save; a damage type typed after the amount.

The 5e demo with an Adult Red Dragon from the bestiary (SRD 5.2: Legendary Actions 3, Fire Breath Recharge 5–6),
initiative typed as in :mod:`tests.ui.test_area_effects`; the dragon's own rolled with seed 1 (5: after Lia).
"""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import Select

from tests.ui.steps import (
    SIZE,
    combatant_id,
    log_texts,
    select,
    store,
    until_closed,
    until_form,
    visible_text,
)
from tests.ui.test_area_effects import rows, to_the_dragon
from tests.waiting import settled, until, until_screen
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine.encounter import ENCOUNTER_DIR
from tui_combat.screens.area_preview import AreaPreview
from tui_combat.screens.area_targets import TargetPicker
from tui_combat.screens.dialogs import ChoiceDialog, ConfirmDialog, FormDialog
from tui_combat.screens.form_panel import FormPanel
from tui_combat.testing.pilot import turn_list_text

DEMO_5E = ENCOUNTER_DIR / "demo_dnd5e.toml"


async def test_temporary_hit_points_show_on_the_card_and_in_the_list_and_go_first(
    make_app: Callable[..., CombatApp],
) -> None:
    app = make_app(encounter=DEMO_5E)
    async with app.run_test(size=SIZE) as pilot:
        screen = await to_the_dragon(pilot, app)
        brenna = combatant_id(app, "Brenna")
        await select(pilot, brenna)
        await pilot.press("p")
        form = await until_form(pilot, "the temporary hit points form")
        await pilot.press("ctrl+u", "5", "ctrl+s")
        await until_closed(pilot, form, "the temporary hit points given")
        assert "HP 44/44 +5" in visible_text(screen.card_head)
        assert "Brenna  44/44 +5" in turn_list_text(app)

        await pilot.press("d")
        await pilot.press(*"8 fire", "enter")
        await until(pilot, lambda: store(app).state.combatant(brenna).hp == 41, "the damage taken")
        assert "HP 41/44  " in visible_text(screen.card_head), "the temporary ones are gone"
        assert "Brenna  41/44" in turn_list_text(app) and "+5" not in turn_list_text(app)
        assert any("5 taken by temporary hit points" in line for line in log_texts(app)[-3:]), log_texts(app)[-3:]


async def test_legendary_actions_are_offered_and_a_spent_breath_is_rolled_for_at_its_turn(
    make_app: Callable[..., CombatApp],
) -> None:
    app = make_app(encounter=DEMO_5E)
    async with app.run_test(size=SIZE) as pilot:
        screen = await to_the_dragon(pilot, app)
        dragon = combatant_id(app, "Adult Red Dragon")
        await pilot.press("r")  # the dragon's initiative: 5, after Lia
        await until(
            pilot,
            lambda: dragon in store(app).state.order[4].combatants,
            "the dragon in the order",
            describe=lambda: log_texts(app)[-1],
        )

        # The breath on Brenna, from the dragon's abilities (B): spent, it waits for its recharge.
        await select(pilot, dragon)
        await pilot.press("B")
        await until_screen(pilot, ChoiceDialog, "the dragon's abilities")
        await pilot.press("enter")
        await until_screen(pilot, TargetPicker, "the targets")
        await pilot.press("space", "enter")
        await until_screen(pilot, FormDialog, "the area form")
        await pilot.press("ctrl+s")
        preview = await until_screen(pilot, AreaPreview, "the preview")
        await until(pilot, lambda: preview.shown is not None and len(rows(preview)) == 1, "the preview's row")
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen and settled(screen), "the breath applied")
        assert isinstance(store(app).done_actions()[-1], a.AreaEffect)

        # The end of Brenna's turn offers the dragon's legendary actions; l acts for it, whoever is selected.
        await pilot.press("n")
        await until(
            pilot,
            lambda: visible_text(screen.step_hint).strip().startswith("Adult Red Dragon: legendary action (3/3) — l"),
            "the offer",
            describe=lambda: visible_text(screen.step_hint),
        )
        await select(pilot, combatant_id(app, "Goblin 1"))
        await pilot.press("l")
        form = await until_form(pilot, "the legendary action form")
        assert isinstance(form, FormPanel) and form.title_text == "Legendary action — Adult Red Dragon"
        await pilot.press("ctrl+s")
        await until_closed(pilot, form, "the legendary action taken")
        assert log_texts(app)[-1] == "Adult Red Dragon takes a legendary action: 2 of 3 left."
        await until(pilot, lambda: "legendary action (2/3) — l" in visible_text(screen.step_hint), "2 left shown")

        # Bugbear, Lia, then the dragon's turn: its recharge die is asked at once; 6 makes the breath ready.
        await pilot.press("n", "n", "n")
        form = await until_form(pilot, "the recharge form")
        assert store(app).state.acting_now() == (dragon,)
        assert isinstance(form, FormPanel) and form.title_text == "Recharge roll — Adult Red Dragon"
        assert [str(field.label) for field in form.fields] == ["Fire Breath: recharges on 5–6"]
        await pilot.press("ctrl+u", "6", "ctrl+s")
        await until_closed(pilot, form, "the recharge rolled")
        assert log_texts(app)[-1] == "Adult Red Dragon: Fire Breath recharge 1d6 (typed): 6: ready."
        await select(pilot, dragon)
        await pilot.press("B")
        abilities = await until_screen(pilot, ChoiceDialog, "the dragon's abilities again")
        assert ": ready" in abilities.choices[0][1]


async def test_legendary_resistance_is_offered_when_a_save_called_for_fails(make_app: Callable[..., CombatApp]) -> None:
    """T on the dragon, Dexterity DC 15, a 3 typed (3 + 6 = 9): it fails, and the GM is asked whether the dragon uses
    one of its three Legendary Resistances; it does, and the line says so."""
    app = make_app(encounter=DEMO_5E)
    async with app.run_test(size=SIZE) as pilot:
        await to_the_dragon(pilot, app)
        await select(pilot, combatant_id(app, "Adult Red Dragon"))
        await pilot.press("T")
        form = await until_form(pilot, "the saving throw form")
        await pilot.press("down", "down", "enter")  # Strength → Dexterity
        await until(pilot, lambda: form.query_one("#f-kind", Select).value == "dex", "Dexterity")
        await pilot.press("enter", "end", "ctrl+u", "1", "5", "enter", "3", "enter")
        question = await until_screen(pilot, ConfirmDialog, "Legendary Resistance offered")
        assert "Use a Legendary Resistance (3 left) to succeed instead?" in question.message
        await pilot.press("down", "enter")
        await until(
            pilot,
            lambda: log_texts(app)[-1].startswith("Adult Red Dragon: Dexterity save"),
            "the save",
            describe=lambda: log_texts(app)[-1],
        )
        assert log_texts(app)[-1] == (
            "Adult Red Dragon: Dexterity save: 1d20 (typed): 3, +6 → 9 against DC 15: "
            "failed, but succeeds with Legendary Resistance (2 left)."
        )


async def test_the_damage_prompt_takes_a_type_and_the_line_says_what_it_did(make_app: Callable[..., CombatApp]) -> None:
    """ "12 fire" on the dragon, immune to fire: nothing reaches it, and the line says why."""
    app = make_app(encounter=DEMO_5E)
    async with app.run_test(size=SIZE) as pilot:
        await to_the_dragon(pilot, app)
        dragon = combatant_id(app, "Adult Red Dragon")
        await select(pilot, dragon)
        await pilot.press("d", *"12 fire", "enter")
        await until(
            pilot,
            lambda: log_texts(app)[-1].startswith("Adult Red Dragon takes"),
            "the damage line",
            describe=lambda: log_texts(app)[-1],
        )
        assert "fire: immune" in log_texts(app)[-1], log_texts(app)[-1]
        assert store(app).state.combatant(dragon).hp == 256
        await pilot.press("d", *"12 cold", "enter")
        await until(pilot, lambda: store(app).state.combatant(dragon).hp == 244, "cold damage taken")
