"""Areas, saving throws and the monsters' abilities at 80×24, with real key presses on the 5e demo and an Adult Red
Dragon added from the bestiary (SRD 5.2: Fire Breath 17d6 fire, Dexterity DC 21, half on a success, Recharge 5–6;
immune to fire; Dex +6; Legendary Resistance 3/Day).

Initiative typed: Brenna 19 + 1 = 20, Oswin 2, Lia 3 + 4 = 7, Mirela 1 + 2 = 3, the goblins 15 + 2 = 17, the bugbear
10 + 2 = 12. The demo's characters have no saves on their sheets: Dexterity saves are their Dexterity modifiers,
Brenna +1 (12), Oswin +0 (10), Lia +4 (18).
"""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot
from textual.widgets import DataTable, Select

from tests.ui.steps import (
    SIZE,
    combatant_id,
    log_texts,
    prompt_line,
    select,
    store,
    to_round,
    to_round_from_setup,
    type_initiative,
    until_closed,
    until_form,
    until_prompt,
    until_prompt_closed,
    visible_text,
)
from tests.ui.test_no_internal_ids import internal_ids
from tests.waiting import settled, until, until_screen
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine.encounter import ENCOUNTER_DIR
from tui_combat.screens.area_preview import AreaPreview
from tui_combat.screens.area_targets import TargetPicker
from tui_combat.screens.dialogs import ChoiceDialog, FormDialog
from tui_combat.screens.library import LibraryPicker
from tui_combat.screens.round import RoundScreen

DEMO_5E = ENCOUNTER_DIR / "demo_dnd5e.toml"
CONCENTRATING = 15
"""Where "concentrating" is in the condition list (blinded … unconscious, concentrating)."""
DEXTERITY = 2
"""Where Dexterity is in the area form's saves (no saving throw, Strength, Dexterity …)."""
BREATH = 4
"""Where the breath weapon is in AD&D 2e's (no saving throw, paralyzation …, rod …, petrification …, breath)."""


async def to_the_dragon(pilot: Pilot[None], app: CombatApp) -> RoundScreen:
    """The demo's round 1, initiative typed, and an Adult Red Dragon added from the bestiary to the goblins' side
    (it waits outside the order for the next initiative)."""
    await to_round_from_setup(pilot)
    await pilot.press("t")
    await until_screen(pilot, FormDialog, "the initiative form")
    for typed in ("19", "2", "3", "1", "15", "10"):
        await pilot.press(*typed, "enter")
    screen = await until_screen(pilot, RoundScreen, "the round")
    await select(pilot, combatant_id(app, "Goblin 1"))
    await pilot.press("i")
    form = await until_form(pilot, "the add form")
    await pilot.press("ctrl+l")
    picker = await until_screen(pilot, LibraryPicker, "the library picker")
    await pilot.press(*"adult red dragon")
    await until(pilot, lambda: bool(picker.shown) and picker.shown[0].name == "Adult Red Dragon", "the dragon found")
    await pilot.press("enter")
    await until(pilot, lambda: app.screen is screen and not form.is_open and settled(screen), "the dragon added")
    assert isinstance(screen, RoundScreen)
    return screen


def rows(preview: AreaPreview) -> list[tuple[str, ...]]:
    """The preview's rows as the table shows them."""
    table = preview.query_one(DataTable)
    return [tuple(str(cell) for cell in table.get_row_at(index)) for index in range(table.row_count)]


async def type_in_preview(pilot: Pilot[None], preview: AreaPreview, key: str, typed: str) -> None:
    """``key`` (t: the highlighted one's die, d: the damage) and what the dice showed, Enter."""
    await pilot.press(key)
    await until(pilot, lambda: bool(preview.typing), f"the line for {key}")
    await pilot.press(*typed, "enter")
    await until(
        pilot,
        lambda: not preview.typing and settled(preview),
        f"{typed} taken",
        describe=lambda: visible_text(preview.query_one("#dialog-error")),
    )


async def test_the_dragon_breathes_on_three_with_a_preview_one_undo_and_redo(
    make_app: Callable[..., CombatApp],
) -> None:
    app = make_app(encounter=DEMO_5E)
    async with app.run_test(size=SIZE) as pilot:
        screen = await to_the_dragon(pilot, app)
        dragon = combatant_id(app, "Adult Red Dragon")
        brenna, oswin, lia = (combatant_id(app, name) for name in ("Brenna", "Oswin", "Lia"))
        await select(pilot, dragon)
        assert "B: special abilities, ready or not" in visible_text(screen.card)

        # B lists the dragon's abilities, ready or not; Enter takes the breath.
        await pilot.press("B")
        abilities = await until_screen(pilot, ChoiceDialog, "the dragon's abilities")
        assert abilities.choices == [
            ("Fire Breath", "Fire Breath — 17d6 fire, Dexterity DC 21, half damage · recharge 5–6: ready, cone 60 ft")
        ]
        await pilot.press("enter")

        # The targets: the list starts on the other side; space marks and moves on.
        picker = await until_screen(pilot, TargetPicker, "the targets")
        assert picker.highlighted_combatant() is not None and picker.highlighted_combatant().id == brenna
        await pilot.press("space", "space", "space")
        assert picker.marked == {brenna, oswin, lia}
        assert not internal_ids(visible_text(picker.query_one("#dialog")))
        assert visible_text(picker.query_one("#dialog-title")).startswith("Fire Breath — Adult Red Dragon — 3 marked")
        await pilot.press("enter")

        # The form comes filled in from the stat block.
        form = await until_screen(pilot, FormDialog, "the area form")
        assert form.values["name"] == "Fire Breath" and form.values["dice"] == "17d6" and form.values["kind"] == "fire"
        assert form.values["save"] == "dex" and form.values["dc"] == 21 and form.values["on_save"] == "half"
        await pilot.press("ctrl+s")

        # The preview: the app's dice rolled; the GM types what his dice showed instead.
        preview = await until_screen(pilot, AreaPreview, "the preview")
        await until(pilot, lambda: preview.shown is not None and len(rows(preview)) == 3, "the preview's rows")
        await type_in_preview(pilot, preview, "d", "60")
        await type_in_preview(pilot, preview, "t", "19")  # Brenna: 19 + 1 = 20 against DC 21
        await type_in_preview(pilot, preview, "t", "5")  # Oswin: 5 + 0
        await type_in_preview(pilot, preview, "t", "17")  # Lia: 17 + 4 = 21: saved, half
        assert rows(preview) == [
            ("Brenna", "19+1=20", "5%", "failed", "60 fire", "0/44 ✝"),
            ("Oswin", "5", "0%", "failed", "60 fire", "0/42 ✝"),
            ("Lia", "17+4=21", "20%", "saved", "30 fire", "3/33"),
        ]
        header = visible_text(preview.query_one("#area-header"))
        assert " ".join(header.split()) == (
            "Adult Red Dragon's Fire Breath: 60 damage (fire) (17d6 (typed): 60); "
            "Dexterity save against DC 21, half damage on a success."
        )
        assert store(app).state.combatant(brenna).hp == 44  # nothing applied yet
        assert not internal_ids(visible_text(preview.query_one("#dialog"))), visible_text(preview.query_one("#dialog"))

        # Enter applies it: one action, a line for each target.
        before = len(store(app).done_actions())
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen and settled(screen), "the area applied")
        done = store(app).done_actions()
        assert len(done) == before + 1 and isinstance(done[-1], a.AreaEffect)
        assert [t.combatant for t in done[-1].targets] == [brenna, oswin, lia] and done[-1].ability == "Fire Breath"
        state = store(app).state
        assert [state.combatant(cid).hp for cid in (brenna, oswin, lia)] == [0, 0, 3]
        texts = log_texts(app)
        assert (
            "Lia: Dexterity save: 1d20 (typed): 17, +4 → 21 against DC 21: saved; 30 damage (fire): 3/33 HP." in texts
        )
        assert "Oswin: Dexterity save: 1d20 (typed): 5 against DC 21: failed; 60 damage (fire): 0/42 HP." in texts

        # One undo takes it all back (and the breath is ready again); redo gives it again.
        await pilot.press("u")
        await until(pilot, lambda: store(app).state.combatant(brenna).hp == 44, "the area undone")
        state = store(app).state
        assert [state.combatant(cid).hp for cid in (brenna, oswin, lia)] == [44, 42, 33]
        assert all(ability.ready for ability in state_abilities(app, dragon))
        await pilot.press("U")
        await until(pilot, lambda: store(app).state.combatant(lia).hp == 3, "the area redone")
        assert [store(app).state.combatant(cid).hp for cid in (brenna, oswin, lia)] == [0, 0, 3]

        # Spent, the breath is listed not ready, and choosing it says so.
        await select(pilot, dragon)
        await pilot.press("B")
        abilities = await until_screen(pilot, ChoiceDialog, "the dragon's abilities again")
        assert abilities.choices[0][1].endswith("recharge 5–6: not ready, cone 60 ft")
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, "the list closed")
        assert not isinstance(app.screen, TargetPicker)


def state_abilities(app: CombatApp, combatant: str) -> tuple[object, ...]:
    from tui_combat.engine import registry

    state = store(app).state
    return registry.get(state.ruleset).special_abilities(state, combatant)


async def test_legendary_resistance_is_offered_on_a_failed_save_and_esc_loses_nothing(
    make_app: Callable[..., CombatApp],
) -> None:
    """A fireball on the dragon and a goblin: the dragon's immunity, its failure turned by Legendary Resistance;
    left with Esc, the area key takes it up where it was."""
    app = make_app(encounter=DEMO_5E)
    async with app.run_test(size=SIZE) as pilot:
        screen = await to_the_dragon(pilot, app)
        dragon, goblin = combatant_id(app, "Adult Red Dragon"), combatant_id(app, "Goblin 1")
        await pilot.press("Z")
        picker = await until_screen(pilot, TargetPicker, "the targets")
        await pilot.press(*"adu", "space")  # type-ahead to the dragon
        await pilot.press(*"gob", "space")
        assert picker.marked == {dragon, goblin}
        await pilot.press("enter")
        form = await until_screen(pilot, FormDialog, "the area form")
        await pilot.press(*"Fireball", "enter", *"8d6", "enter", *"fi", "right", "enter")
        await pilot.press("down", *["down"] * DEXTERITY, "enter")
        await until(pilot, lambda: form.query_one("#f-save", Select).value == "dex", "Dexterity chosen")
        await pilot.press("enter", "end", "ctrl+u", *"15", "ctrl+s")
        preview = await until_screen(pilot, AreaPreview, "the preview")
        await until(pilot, lambda: preview.shown is not None and len(rows(preview)) == 2, "the preview's rows")
        assert preview.draft.kind == "fire" and preview.draft.dc == 15

        # Esc leaves it; Z takes it up again, the targets marked and the form filled in.
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the preview left")
        assert store(app).state.combatant(goblin).hp == 7
        await pilot.press("Z")
        picker = await until_screen(pilot, TargetPicker, "the targets again")
        assert picker.marked == {dragon, goblin}
        await pilot.press("enter")
        form = await until_screen(pilot, FormDialog, "the area form again")
        assert form.values["name"] == "Fireball" and form.values["dc"] == 15
        await pilot.press("ctrl+s")
        preview = await until_screen(pilot, AreaPreview, "the preview again")
        await until(pilot, lambda: preview.shown is not None and len(rows(preview)) == 2, "the preview's rows")

        await type_in_preview(pilot, preview, "d", "28")
        await type_in_preview(pilot, preview, "t", "4")  # Goblin 1 (the list's order): 4 + 2 = 6
        await type_in_preview(pilot, preview, "t", "3")  # the dragon: 3 + 6 = 9 against DC 15
        assert rows(preview) == [
            ("Goblin 1", "4+2=6", "40%", "failed", "28 fire", "0/7 ✝"),
            ("Adult Red Dragon", "3+6=9", "60%", "failed", "0", "256/256"),
        ]
        detail = visible_text(preview.query_one("#area-detail"))
        assert "Adult Red Dragon: immune · l: Legendary Resistance (3 left)" in " ".join(detail.split()), detail
        await pilot.press("l")
        await until(pilot, lambda: rows(preview)[1][3] == "saved (Legendary Resistance)", "the failure turned")
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen and settled(screen), "the area applied")
        assert (
            "Adult Red Dragon: Dexterity save: 1d20 (typed): 3, +6 → 9 against DC 15: failed, but succeeds with "
            "Legendary Resistance (2 left); 0 damage (fire: immune): 256/256 HP."
        ) in log_texts(app)


async def test_a_concentration_save_is_asked_after_damage(make_app: Callable[..., CombatApp]) -> None:
    """Mirela concentrates and takes 12 fire damage (typed "12 fi", the type completed): the Constitution save is
    asked on the footer's line at once, DC 10, with its chance; Esc leaves it, owed in the step line; T asks it
    again and a number typed is the die."""
    app = make_app(encounter=DEMO_5E)
    async with app.run_test(size=SIZE) as pilot:
        await to_round_from_setup(pilot)
        await pilot.press("t")
        await until_screen(pilot, FormDialog, "the initiative form")
        for typed in ("19", "2", "3", "1", "15", "10"):
            await pilot.press(*typed, "enter")
        screen = await until_screen(pilot, RoundScreen, "the round")
        mirela = combatant_id(app, "Mirela")
        await select(pilot, mirela)
        await pilot.press("c")
        form = await until_form(pilot, "the condition form")
        await pilot.press("down", *["down"] * CONCENTRATING, "enter")
        await until(pilot, lambda: form.query_one("#f-condition", Select).value == "concentrating", "concentrating")
        await pilot.press("ctrl+s")
        await until_closed(pilot, form, "the round again")

        await pilot.press("d")
        prompt = await until_prompt(pilot, "the damage prompt")
        assert prompt.placeholder == "12 fire"
        await pilot.press(*"12 fi")
        await until(pilot, lambda: prompt_line(app, "field") == "12 fire", "the type completed")
        await pilot.press("right", "enter")
        await until(
            pilot,
            lambda: prompt.is_open and prompt_line(app, "title").startswith("Mirela: Constitution"),
            "the concentration save asked",
            describe=lambda: prompt_line(app, "title"),
        )
        assert "Mirela takes 12 damage (fire): 15/27 HP." in log_texts(app)
        assert prompt_line(app, "title") == "Mirela: Constitution save, DC 10"
        assert " ".join(prompt_line(app, "note").split()).startswith(
            "concentration: 12 damage · Needs 10 or more on the die (DC 10, +0): 55% to save"
        )

        await pilot.press("escape")
        await until_prompt_closed(pilot, "the save left for later")
        assert visible_text(screen.step_hint).strip().startswith("T: saves owed: Mirela (Constitution, DC 10) · ")
        await pilot.press("T")
        await until_prompt(pilot, "the save asked again")
        await pilot.press("1", "5", "enter")
        await until_prompt_closed(pilot, "the save taken")
        assert log_texts(app)[-1] == "Mirela: Constitution save: 1d20 (typed): 15 against DC 10: saved."
        assert not visible_text(screen.step_hint).strip().startswith("T:")
        done = store(app).done_actions()[-1]
        assert isinstance(done, a.SavingThrow) and done.source == "concentration" and done.dc == 10


async def test_a_saving_throw_called_for_shows_its_chance_first(make_app: Callable[..., CombatApp]) -> None:
    """T on Lia with no save owed: the form at the foot, Dexterity DC 15 (+4: needs 11, 50%), the die typed."""
    app = make_app(encounter=DEMO_5E)
    async with app.run_test(size=SIZE) as pilot:
        await to_round_from_setup(pilot)
        await pilot.press("t")
        await until_screen(pilot, FormDialog, "the initiative form")
        for typed in ("19", "2", "3", "1", "15", "10"):
            await pilot.press(*typed, "enter")
        await until_screen(pilot, RoundScreen, "the round")
        await select(pilot, combatant_id(app, "Lia"))
        await pilot.press("T")
        form = await until_form(pilot, "the saving throw form")
        await pilot.press("down", "down", "enter")  # Strength → Dexterity
        await until(pilot, lambda: form.query_one("#f-kind", Select).value == "dex", "Dexterity")
        await pilot.press("enter", "end", "ctrl+u", "1", "5", "enter")
        await until(
            pilot,
            lambda: (
                "Needs 11 or more on the die (DC 15, +4): 50% to save"
                in visible_text(form.query_one("#dialog-preview"))
            ),
            "the chance",
        )
        await pilot.press("9", "enter")
        await until_closed(pilot, form, "the save taken")
        assert log_texts(app)[-1] == "Lia: Dexterity save: 1d20 (typed): 9, +4 → 13 against DC 15: failed."


async def test_an_adnd_breath_on_two_with_one_roll_for_all(make_app: Callable[..., CombatApp]) -> None:
    """AD&D 2e demo, round 1, the party's turn: a breath weapon (4d8, half on a save) on Raf and Rupert, one d20 for
    both. Their numbers are PHB Table 60's, by class group and level: warrior 5 needs 13, warrior 4 needs 16; a 14
    saves Raf (half: 10) and fails Rupert (20)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        await type_initiative(pilot, "7", "10")
        screen = app.screen
        raf, rupert = combatant_id(app, "Raf"), combatant_id(app, "Rupert")
        await select(pilot, raf)
        await pilot.press("Z")
        picker = await until_screen(pilot, TargetPicker, "the targets")
        await pilot.press("space", "space", "enter")
        assert picker.marked == {raf, rupert}
        form = await until_screen(pilot, FormDialog, "the area form")
        assert [field.key for field in form.fields] == ["name", "dice", "save", "on_save", "group_roll", "source"]
        await pilot.press(*"Breath", "enter", *"4d8", "enter")
        await pilot.press("down", *["down"] * BREATH, "enter")
        await until(pilot, lambda: form.query_one("#f-save", Select).value == "breath", "breath weapon chosen")
        await pilot.press("enter", "enter", "space", "ctrl+s")
        preview = await until_screen(pilot, AreaPreview, "the preview")
        await until(pilot, lambda: preview.shown is not None and len(rows(preview)) == 2, "the preview's rows")
        assert preview.draft.group_roll and preview.draft.dc == 0
        await type_in_preview(pilot, preview, "d", "20")
        await type_in_preview(pilot, preview, "t", "14")  # the one d20 for all
        assert rows(preview) == [
            ("Raf", "14", "13", "40%", "saved", "10", "28/38"),
            ("Rupert", "14", "16", "25%", "failed", "20", "10/30"),
        ]
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen and settled(screen), "the area applied")
        state = store(app).state
        assert (state.combatant(raf).hp, state.combatant(rupert).hp) == (28, 10)
        texts = log_texts(app)
        assert "Breath: 20 damage (4d8 (typed): 20); Breath weapon save, half damage on a success." in texts
        assert (
            "Raf: Breath weapon save (warrior 5): 1d20 (typed): [14] = 14 against 13: saved; 10 damage: 28/38 HP."
            in texts
        )
        assert (
            "Rupert: Breath weapon save (warrior 4): 1d20 (typed): [14] = 14 against 16: failed; 20 damage: "
            "10/30 HP." in texts
        )
