"""The set-up's edit form shows a sheet's text in the GM's language, as the set-up table and the card do, and
saves only what he changed: a value left as it was stays as it was stored (in English), and what he types in
his language is read as the ruleset reads his words anywhere else."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from tests.i18n.interface import interface_in, make_app, to_setup, until_named
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import apply
from tui_combat.engine.encounter import ENCOUNTER_DIR, built, load_encounter
from tui_combat.engine.model import State
from tui_combat.i18n import set_language
from tui_combat.rulesets.trudvang import RULESET as TRUDVANG
from tui_combat.screens.setup import combatant_fields, edit_action, edit_values

DEMOS = sorted(ENCOUNTER_DIR.glob("demo_*.toml"))
SHOWN_IN_ENGLISH = {  # the hand replay's finds: each shown in the GM's language now
    "Rupert": ("weapon", "bastard sword (two-handed)"),
    "Raf": ("weapon", "war hammer"),
    "Brenna": ("counters", "action surge 1"),
    "Sir Ambrose": ("weapon", "sword"),
    "Fridgar": ("disciplines", "Armed combat 1; Unarmed combat 1"),
}


def demo_state(path: Path) -> State:
    return built(load_encounter(path), path)


def what_the_gm_reads(state: State, cid: str) -> tuple[Any, ...]:
    ruleset = registry.get(state.ruleset)
    return ruleset.summary(state, cid), ruleset.details(state, cid), ruleset.budget(state, cid)


@pytest.mark.parametrize("lang", ["ru", "uk"])
@pytest.mark.parametrize("demo", DEMOS, ids=lambda path: path.stem)
def test_the_form_shows_the_sheets_words_in_the_gms_language_and_they_read_back_the_same(demo: Path, lang: str) -> None:
    set_language(lang)
    try:
        state = demo_state(demo)
        for combatant in state.combatants:
            fields = combatant_fields(state, with_side=False)
            shown = edit_values(combatant, fields)
            if combatant.name in SHOWN_IN_ENGLISH:
                key, english = SHOWN_IN_ENGLISH[combatant.name]
                assert combatant.sheet[key] == english and shown[key] != english, (key, shown[key])
            # Left as shown, the form changes nothing …
            assert edit_action(combatant, fields, shown).sheet is None, combatant.name
            # … and the words it shows are read as the ruleset reads the stored ones: typed back, the same fight.
            typed = {key: value for key, value in shown.items() if key in combatant.sheet}
            edited = apply(state, a.EditCombatant(combatant=combatant.id, sheet=typed))
            assert what_the_gm_reads(edited, combatant.id) == what_the_gm_reads(state, combatant.id), combatant.name
    finally:
        set_language("en")


def test_only_a_changed_field_is_saved_and_as_the_gm_typed_it() -> None:
    set_language("ru")
    try:
        state = demo_state(ENCOUNTER_DIR / "demo_trudvang.toml")
        fridgar = next(c for c in state.combatants if c.name == "Fridgar")
        fields = combatant_fields(state, with_side=False)
        shown = edit_values(fridgar, fields)
        assert (shown["weapons"], shown["specialties"]) == ("сакс, палаш", "Одноручное лёгкое оружие 2; Бузотёр 1")
        action = edit_action(fridgar, fields, {**shown, "specialties": "Одноручное лёгкое оружие 3; Бузотёр 1"})
        assert action.sheet == {"specialties": "Одноручное лёгкое оружие 3; Бузотёр 1"}  # the weapons untouched
        edited = apply(state, action)
        assert edited.combatant(fridgar.id).sheet["weapons"] == "seax, broadsword"
        read = TRUDVANG.sheet(edited, fridgar.id)
        assert [(skill.name, skill.level) for skill in read.specialties] == [
            ("One-handed light weapons", 3),
            ("Brawler", 1),
        ]
        assert read.specialties[0].cp_per_level and read.weapons[0].name == "Seax"
    finally:
        set_language("en")


async def test_the_edit_form_shows_rupert_s_weapon_in_russian_and_keeps_it_in_english(data_root: Path) -> None:
    with interface_in("ru") as app_module:
        app = make_app(app_module, data_root)
        async with app.run_test(size=(80, 24)) as pilot:
            await to_setup(pilot)  # the AD&D demo
            store = app.screen.host.store
            rupert = next(c for c in store.state.combatants if c.sheet.get("weapon") == "bastard sword (two-handed)")
            while app.screen.selected_row() != rupert.id:
                await pilot.press("down")
            await pilot.press("e")
            await until_named(pilot, "FormDialog")
            weapon = app.screen.query_one("#f-weapon", Input)
            assert weapon.value == "полуторный меч (двумя руками)"
            await pilot.press("ctrl+s")
            await until_named(pilot, "SetupScreen")
            assert store.state.combatant(rupert.id).sheet == rupert.sheet
