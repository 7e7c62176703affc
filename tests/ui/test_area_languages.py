"""An area in Russian and in Ukrainian, keys pressed on the 5e demo with an Adult Red Dragon from the bestiary: the
dragon's Fire Breath is named in the GM's language in its list of abilities (B), the targets' title, the form, the
preview and the log, whose line keeps the English name and shows it in the language it is read in.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from tests.i18n.interface import interface_in
from tests.i18n.interface import make_app as make_app_in
from tests.ui.steps import (
    SIZE,
    combatant_id,
    log_texts,
    select,
    store,
    to_round_from_setup,
    until_form,
    visible_text,
)
from tests.ui.test_area_effects import rows, type_in_preview
from tests.waiting import settled, until, until_screen
from tui_combat.engine import actions as a
from tui_combat.engine.encounter import ENCOUNTER_DIR
from tui_combat.i18n import set_language
from tui_combat.screens.area_preview import AreaPreview
from tui_combat.screens.area_targets import TargetPicker
from tui_combat.screens.dialogs import ChoiceDialog, FormDialog
from tui_combat.screens.library import LibraryPicker
from tui_combat.screens.round import RoundScreen

DEMO_5E = ENCOUNTER_DIR / "demo_dnd5e.toml"
BREATH = {"ru": "Огненное дыхание", "uk": "Вогняний подих"}
DRAGON = {"ru": "Взрослый красный дракон", "uk": "Дорослий червоний дракон"}


async def to_the_dragon_in(pilot: Pilot[None], lang: str) -> RoundScreen:
    """The demo's round 1, initiative typed, an Adult Red Dragon added from the bestiary by its English name (found
    in every language) to the goblins' side; the dragon selected."""
    app = pilot.app
    await to_round_from_setup(pilot)
    await pilot.press("t")
    await until_screen(pilot, FormDialog, "the initiative form")
    for typed in ("19", "2", "3", "1", "15", "10"):
        await pilot.press(*typed, "enter")
    screen = await until_screen(pilot, RoundScreen, "the round")
    state = store(app).state
    await select(pilot, next(c.id for c in state.combatants if not state.side(c.side).is_party))
    await pilot.press("i")
    form = await until_form(pilot, "the add form")
    await pilot.press("ctrl+l")
    picker = await until_screen(pilot, LibraryPicker, "the library picker")
    await pilot.press(*"adult red dragon")
    await until(
        pilot,
        lambda: bool(picker.shown) and picker.shown[0].name == "Adult Red Dragon",
        "the dragon found",
        describe=lambda: str([entry.name for entry in picker.shown[:3]]),
    )
    await pilot.press("enter")
    await until(pilot, lambda: app.screen is screen and not form.is_open and settled(screen), "the dragon added")
    await select(pilot, combatant_id(app, DRAGON[lang]))
    assert isinstance(screen, RoundScreen)
    return screen


@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_the_dragons_breath_is_named_in_the_gms_language_and_the_log_keeps_it_english(
    data_root: Path, lang: str
) -> None:
    breath, dragon = BREATH[lang], DRAGON[lang]
    with interface_in(lang) as app_module:
        app = make_app_in(app_module, data_root, encounter=DEMO_5E)
        async with app.run_test(size=SIZE) as pilot:
            screen = await to_the_dragon_in(pilot, lang)
            await pilot.press("B")
            abilities = await until_screen(pilot, ChoiceDialog, "the dragon's abilities")
            assert [value for value, _label in abilities.choices] == ["Fire Breath"]
            assert abilities.choices[0][1].startswith(f"{breath} — 17d6 "), abilities.choices
            await pilot.press("enter")

            picker = await until_screen(pilot, TargetPicker, "the targets")
            assert visible_text(picker.query_one("#dialog-title")).startswith(f"{breath} — {dragon}")
            await pilot.press("space", "enter")
            form = await until_screen(pilot, FormDialog, "the area form")
            assert form.values["name"] == breath
            await pilot.press("ctrl+s")

            preview = await until_screen(pilot, AreaPreview, "the preview")
            await until(pilot, lambda: preview.shown is not None and len(rows(preview)) == 1, "the preview's row")
            header = " ".join(visible_text(preview.query_one("#area-header")).split())
            assert breath in header and "Fire Breath" not in header, header
            await pilot.press("enter")
            await until(pilot, lambda: app.screen is screen and settled(screen), "the breath applied")

            done = store(app).done_actions()[-1]
            assert isinstance(done, a.AreaEffect) and done.name == done.ability == "Fire Breath"
            line = next(text for text in log_texts(app) if breath in text)
            assert dragon in line and "Fire Breath" not in line, line
            count = log_texts(app).index(line)

            set_language("en")  # the same line read in English
            assert log_texts(app)[count].startswith(f"{dragon}'s Fire Breath: "), log_texts(app)[count]
            assert not [text for text in log_texts(app) if breath in text]  # its recharge's line too
            set_language(lang)


@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_a_name_typed_for_the_breath_stays_as_typed(data_root: Path, lang: str) -> None:
    with interface_in(lang) as app_module:
        app = make_app_in(app_module, data_root, encounter=DEMO_5E)
        async with app.run_test(size=SIZE) as pilot:
            screen = await to_the_dragon_in(pilot, lang)
            await pilot.press("B")
            await until_screen(pilot, ChoiceDialog, "the dragon's abilities")
            await pilot.press("enter")
            await until_screen(pilot, TargetPicker, "the targets")
            await pilot.press("space", "enter")
            await until_screen(pilot, FormDialog, "the area form")
            await pilot.press("ctrl+u", *"Inferno", "ctrl+s")
            preview = await until_screen(pilot, AreaPreview, "the preview")
            await until(pilot, lambda: preview.shown is not None and len(rows(preview)) == 1, "the preview's row")
            await pilot.press("enter")
            await until(pilot, lambda: app.screen is screen and settled(screen), "the breath applied")
            done = store(app).done_actions()[-1]
            assert isinstance(done, a.AreaEffect) and done.name == "Inferno" and done.ability == "Fire Breath"
            assert any("Inferno" in text for text in log_texts(app))


@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_the_preview_at_60_by_20_shows_every_cell_whole(data_root: Path, lang: str) -> None:
    """The breath on three, all down after it: the health column ("0/44" and the mark for down) is whole."""
    with interface_in(lang) as app_module:
        app = make_app_in(app_module, data_root, encounter=DEMO_5E)
        async with app.run_test(size=(60, 20)) as pilot:
            await to_the_dragon_in(pilot, lang)
            await pilot.press("B")
            await until_screen(pilot, ChoiceDialog, "the dragon's abilities")
            await pilot.press("enter")
            await until_screen(pilot, TargetPicker, "the targets")
            await pilot.press("space", "space", "space", "enter")
            await until_screen(pilot, FormDialog, "the area form")
            await pilot.press("ctrl+s")
            preview = await until_screen(pilot, AreaPreview, "the preview")
            await until(pilot, lambda: preview.shown is not None and len(rows(preview)) == 3, "the preview's rows")
            await type_in_preview(pilot, preview, "d", "60")
            for _target in range(3):
                await type_in_preview(pilot, preview, "t", "1")  # each fails: all three down
            table = preview.query_one(DataTable)
            await until(pilot, lambda: settled(preview), "the preview drawn")
            shown = visible_text(table).splitlines()
            assert "…" not in "\n".join(shown), "\n".join(shown)
            for row in rows(preview):
                line = next((text for text in shown if text.lstrip().startswith(row[0])), "")
                assert all(cell in line for cell in row), (row, shown)
            assert [row[-1] for row in rows(preview)] == ["0/44 ✝", "0/42 ✝", "0/33 ✝"]  # down: the turn list's mark


@pytest.mark.parametrize(("lang", "word"), [("ru", "кр"), ("uk", "чер")])
async def test_the_target_list_finds_a_name_by_a_word_in_the_gms_language(
    data_root: Path, lang: str, word: str
) -> None:
    """The dragon's second word ("красный", "червоний") typed in the target list goes to it, as in every list."""
    with interface_in(lang) as app_module:
        app = make_app_in(app_module, data_root, encounter=DEMO_5E)
        async with app.run_test(size=SIZE) as pilot:
            await to_the_dragon_in(pilot, lang)
            await select(pilot, combatant_id(app, "Brenna"))  # the list starts on him, not on the dragon
            await pilot.press("Z")
            picker = await until_screen(pilot, TargetPicker, "the target list")

            def highlighted() -> str:
                combatant = picker.highlighted_combatant()
                return combatant.name if combatant is not None else ""

            await pilot.press(*word)
            await until(pilot, lambda: highlighted() == DRAGON[lang], "the dragon found", describe=highlighted)
