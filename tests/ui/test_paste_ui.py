"""A stat block pasted at 80×24: p in the set-up (ctrl+t in the library picker) opens the paste field, what was
read and what was not understood show under it, ctrl+s fills the add form, and the form adds the creature
(and keeps it in the library when ticked). The three layouts: a 5e block, an OSE line and an AD&D line."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from textual import events
from textual.widgets import Checkbox, OptionList, Static, TextArea

from tests.test_statblock import BUGBEAR_OSE, TROLL_5E, TROLL_ADND
from tests.ui.steps import SIZE, dialog_error, open_demo, store, visible_text
from tests.waiting import settled, until, until_screen
from tui_combat.app import CombatApp
from tui_combat.engine.encounter import ENCOUNTER_DIR
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.library import LibraryPicker
from tui_combat.screens.paste import PasteDialog
from tui_combat.screens.setup import SetupScreen


def shown(app: CombatApp, widget_id: str) -> str:
    return " ".join(visible_text(app.screen.query_one(widget_id, Static)).split())


async def paste(pilot: object, app: CombatApp, text: str) -> PasteDialog:
    """The terminal's paste into the open paste field, and the reading shown under it."""
    dialog = await until_screen(pilot, PasteDialog, "the paste field")  # type: ignore[arg-type]
    app.post_message(events.Paste(text))  # as the terminal sends it
    # (the reading laid out too: the line is read as drawn, and its lines wrap once its new height is laid out)
    await until(
        pilot,  # type: ignore[arg-type]
        lambda: shown(app, "#paste-read").startswith("Read: Name") and settled(app.screen),
        "the reading, laid out",
    )
    return dialog


async def test_a_5e_block_pasted_in_the_set_up(make_app: Callable[..., CombatApp]) -> None:
    app = make_app(encounter=ENCOUNTER_DIR / "demo_dnd5e.toml")
    async with app.run_test(size=SIZE) as pilot:
        await until_screen(pilot, SetupScreen, "the 5e set-up")
        before = len(store(app).state.combatants)
        await pilot.press("down", "down", "down", "down", "p")  # on a goblin: the newcomer joins his side
        await paste(pilot, app, TROLL_5E.replace("\n", "\r\n"))  # a web page's line ends
        read = shown(app, "#paste-read")
        assert "Name Troll · HP 84 (8d10+40) · Armour class 15 · Dexterity 13" in read
        assert shown(app, "#paste-unread") == ""
        await pilot.press("ctrl+s")
        form = await until_screen(pilot, FormDialog, "the add form, filled in")
        assert form.raw_values()["name"] == "Troll" and form.raw_values()["hp"] == "84"
        assert store(app).state.side(form.raw_values()["side"]).name == "Goblins"
        assert "Everything in the block was read" in visible_text(form.query_one("#dialog-note"))
        await pilot.press("ctrl+s")
        await until_screen(pilot, SetupScreen, "the set-up again")
        state = store(app).state
        assert len(state.combatants) == before + 1, dialog_error(app)
        troll = state.combatants[-1]
        assert (troll.name, troll.hp, state.side(troll.side).name) == ("Troll", 84, "Goblins")
        assert (
            troll.sheet["ac"],
            troll.sheet["dex"],
            troll.sheet["attack"],
            troll.sheet["attacks"],
            troll.sheet["damage"],
            troll.sheet["size"],
        ) == (15, 13, 7, 3, "1d6+4", "large")
        assert troll.sheet["attack_list"] == "Bite +7 1d6+4, Claw +7 2d6+4"
        assert "Regeneration" in troll.notes


async def test_an_ose_line_pasted_from_the_library_picker_and_kept(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    app = make_app(encounter=ENCOUNTER_DIR / "demo_ose.toml")
    async with app.run_test(size=SIZE) as pilot:
        await until_screen(pilot, SetupScreen, "the OSE set-up")
        await pilot.press("l")
        await until_screen(pilot, LibraryPicker, "the library picker")
        await pilot.press("ctrl+t")
        await paste(pilot, app, BUGBEAR_OSE.replace("ML 9", "ML 9, sings"))
        assert "HP 14 · Armour class 14 · Attack bonus +3" in shown(app, "#paste-read")
        assert shown(app, "#paste-unread") == "Not understood: sings"
        await pilot.press("ctrl+s")
        form = await until_screen(pilot, FormDialog, "the add form, filled in")
        assert "Not understood: sings. Fix it here." in visible_text(form.query_one("#dialog-note"))
        await pilot.press("tab", "tab", "3")  # name, side, how many: three of them
        for _ in range(len(form.fields)):
            if isinstance(app.focused, Checkbox):
                break
            await pilot.press("tab")
        await pilot.press("space")  # also keep it in the library
        await until(pilot, lambda: form.query_one(Checkbox).value, "the tick")
        await pilot.press("ctrl+s")
        await until_screen(pilot, SetupScreen, "the set-up, the picker closed too")
        bugbears = [c for c in store(app).state.combatants if c.name.startswith("Bugbear")]
        assert [(c.name, c.sheet["ac"], c.sheet["attack"], c.sheet["morale"], c.sheet["hd"]) for c in bugbears] == [
            (f"Bugbear {n}", 14, 3, 9, "3+1") for n in (1, 2, 3)
        ]
        hps = [c.hp for c in bugbears]  # the 14 beside the Hit Dice is their average: each one's rolled, 3d8+1
        assert all(4 <= hp <= 25 for hp in hps) and hps != [14, 14, 14], hps
        library = tomllib.loads((data_root / "library" / "ose.toml").read_text(encoding="utf-8"))
        assert [(e["name"], "hp" in e, e["sheet"]["damage"], e["sheet"]["hd"]) for e in library["combatants"]] == [
            ("Bugbear", False, "2d4", "3+1")
        ]


async def test_an_adnd_line_and_what_is_not_a_stat_block(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)  # the AD&D 2e demo
        await pilot.press("p")
        dialog = await until_screen(pilot, PasteDialog, "the paste field")
        app.post_message(events.Paste("a fearsome beast of the marshes"))
        await until(pilot, lambda: "no stat block layout" in shown(app, "#paste-unread"), "nothing read")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "Nothing here reads as a stat block" in shown(app, "#dialog-error"), "the refusal")
        assert isinstance(app.screen, PasteDialog)
        dialog.query_one(TextArea).text = ""
        await paste(pilot, app, TROLL_ADND)
        assert "HP 33 ← HD 6+6" in shown(app, "#paste-read")
        await pilot.press("ctrl+s")
        await until_screen(pilot, FormDialog, "the add form, filled in")
        await pilot.press("ctrl+s")
        await until_screen(pilot, SetupScreen, "the set-up again")
        troll = store(app).state.combatants[-1]
        assert (
            troll.name,
            troll.sheet["level"],
            troll.sheet["ac"],
            troll.sheet["thac0"],
            troll.sheet["damage"],
            troll.sheet["size"],
        ) == ("Troll 4", "6+6", 4, 13, "1d4+4, 1d4+4, 2d6", "large")  # beside the demo's three
        assert 12 <= troll.hp <= 54  # rolled from the Hit Dice, 6d8+6


async def test_the_5e_demo_shows_its_difficulty_and_it_follows_a_newcomer(make_app: Callable[..., CombatApp]) -> None:
    """Four 5th-level adventurers (easy 1000 … deadly 4400) against four goblins (50) and a bugbear (200):
    400 XP × 2 = 800, trivial; an ogre from the bestiary (450) makes it 850 × 2 = 1700, easy."""
    app = make_app(encounter=ENCOUNTER_DIR / "demo_dnd5e.toml")
    async with app.run_test(size=SIZE) as pilot:
        await until_screen(pilot, SetupScreen, "the 5e set-up")
        await until(
            pilot,
            lambda: (
                "Difficulty: trivial — 5 monsters, 400 XP × 2 = 800; party of 4: easy 1000"
                in shown(app, "#setup-summary")
            ),
            "the demo's difficulty",
        )
        await pilot.press("down", "down", "down", "down", "l")
        picker = await until_screen(pilot, LibraryPicker, "the library picker")
        await pilot.press(*"ogre")
        await until(pilot, lambda: [e.name for e in picker.shown][:1] == ["Ogre"], "the ogre found")
        await pilot.press("enter")
        await until(
            pilot,
            lambda: "Difficulty: easy — 6 monsters, 850 XP × 2 = 1700" in shown(app, "#setup-summary"),
            "the difficulty with the ogre",
        )


async def test_the_srd_monsters_in_the_picker_and_five_by_name(make_app: Callable[..., CombatApp]) -> None:
    """The 5e picker lists 50 rows of the 340-odd and counts the rest; a few letters find an SRD monster;
    "5 goblin warrior" in the add form adds five with their own HP."""
    app = make_app(encounter=ENCOUNTER_DIR / "demo_dnd5e.toml")
    async with app.run_test(size=SIZE) as pilot:
        await until_screen(pilot, SetupScreen, "the 5e set-up")
        await pilot.press("down", "down", "down", "down", "l")
        picker = await until_screen(pilot, LibraryPicker, "the library picker")
        options = picker.query_one("#library-entries", OptionList)
        await until(pilot, lambda: options.option_count == 51, "50 rows and the count of the rest")
        assert "more: type more of the name" in str(options.get_option_at_index(50).prompt)
        await pilot.press(*"adult red")
        await until(pilot, lambda: [e.name for e in picker.shown] == ["Adult Red Dragon"], "the dragon")
        await pilot.press("escape")
        await until_screen(pilot, SetupScreen, "the set-up again")
        await pilot.press("a")
        await until_screen(pilot, FormDialog, "the add form")
        await pilot.press(*"5 goblin warrior", "ctrl+s")
        await until_screen(pilot, SetupScreen, "the set-up with the newcomers")
        warriors = [c for c in store(app).state.combatants if c.name.startswith("Goblin Warrior")]
        assert [(c.name, c.hp, c.sheet["ac"], c.sheet["xp"]) for c in warriors] == [  # named as the bestiary names it
            (f"Goblin Warrior {n}", 10, 15, 50) for n in range(1, 6)
        ]
        assert len({c.id for c in warriors}) == 5


async def test_a_paste_is_read_in_a_worker_once_it_stays_as_it_is(
    make_app: Callable[..., CombatApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A paste that arrives in pieces is read once, after the last one, and never on the screen's own thread:
    a long paste used to be read whole at every change, freezing the screen."""
    import threading

    from tui_combat.screens import paste as paste_module

    on_the_screen_thread: list[bool] = []
    read_for = paste_module.read_for

    def watched(text: str, ruleset_id: str) -> object:
        on_the_screen_thread.append(threading.current_thread() is threading.main_thread())
        return read_for(text, ruleset_id)

    monkeypatch.setattr(paste_module, "read_for", watched)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)
        await pilot.press("p")
        dialog = await until_screen(pilot, PasteDialog, "the paste field")
        pieces = [TROLL_ADND[at : at + 12] for at in range(0, len(TROLL_ADND), 12)]
        for piece in pieces:
            app.post_message(events.Paste(piece))
        await until(pilot, lambda: "HP 33 ← HD 6+6" in shown(app, "#paste-read"), "the whole line read")
        assert on_the_screen_thread and not any(on_the_screen_thread)
        assert dialog.readings == len(on_the_screen_thread) < len(pieces) / 2, (dialog.readings, len(pieces))


async def test_a_megabyte_paste_is_cut_and_one_with_an_escape_refused(make_app: Callable[..., CombatApp]) -> None:
    from tui_combat.fight.statblock import MAX_CHARS

    app = make_app(encounter=ENCOUNTER_DIR / "demo_ose.toml")
    async with app.run_test(size=SIZE) as pilot:
        await until_screen(pilot, SetupScreen, "the OSE set-up")
        await pilot.press("p")
        dialog = await until_screen(pilot, PasteDialog, "the paste field")
        await paste(pilot, app, BUGBEAR_OSE + ", " + "7" * 1_000_000)
        assert len(dialog.query_one(TextArea).text) == MAX_CHARS
        assert "HP 14" in shown(app, "#paste-read")
        assert f"only the first {MAX_CHARS} characters were read" in shown(app, "#paste-unread")
        dialog.query_one(TextArea).text = ""
        app.post_message(events.Paste("Bugbear\x1b]0;owned\x07\nAC 5 [14], HD 3+1 (14hp)"))
        await until(
            pilot,
            lambda: shown(app, "#dialog-error").startswith("Line 1, character 8: a control character (U+001B, escape)"),
            "the refusal",
        )
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, PasteDialog) and "U+001B" in shown(app, "#dialog-error")


async def test_adnd_lines_give_how_many_and_each_ones_hit_points(make_app: Callable[..., CombatApp]) -> None:
    """ "2 ogres" fills in how many; their hit points are rolled from the Hit Dice unless the GM types a figure;
    "Ogres (3) … hp 30, 25, 21" gives each his own."""
    from tests.test_statblock_whole_fight import OGRES_ADND, OGRES_LISTED

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)  # the AD&D 2e demo
        await pilot.press("p")
        await paste(pilot, app, OGRES_ADND)
        await pilot.press("ctrl+s")
        form = await until_screen(pilot, FormDialog, "the add form, filled in")
        assert (form.raw_values()["name"], form.raw_values()["count"], form.raw_values()["hp"]) == ("Ogre", "2", "19")
        assert "Leave 19 to roll each one's hit points (4d8+1" in " ".join(
            visible_text(form.query_one("#dialog-note")).split()
        )
        await pilot.press("ctrl+s")
        await until_screen(pilot, SetupScreen, "the set-up again")
        ogres = [c for c in store(app).state.combatants if c.name.startswith("Ogre")]
        assert [c.name for c in ogres] == ["Ogre 1", "Ogre 2"]
        assert all(5 <= c.hp <= 33 for c in ogres) and [c.hp for c in ogres] != [19, 19], [c.hp for c in ogres]
        await pilot.press("p")
        await paste(pilot, app, OGRES_LISTED.replace("Ogres", "Hill ogres"))
        await pilot.press("ctrl+s")
        form = await until_screen(pilot, FormDialog, "the add form, filled in")
        assert form.raw_values()["count"] == "3"
        await pilot.press("ctrl+s")
        await until_screen(pilot, SetupScreen, "the set-up again")
        listed = [c for c in store(app).state.combatants if c.name.startswith("Hill ogre")]
        assert [(c.name, c.hp) for c in listed] == [("Hill ogre 1", 30), ("Hill ogre 2", 25), ("Hill ogre 3", 21)]


async def test_the_dragons_block_brings_its_saves_and_breath(make_app: Callable[..., CombatApp]) -> None:
    from tests.test_statblock_whole_fight import FIRE_BREATH_2014, RED_2014

    app = make_app(encounter=ENCOUNTER_DIR / "demo_dnd5e.toml")
    async with app.run_test(size=SIZE) as pilot:
        await until_screen(pilot, SetupScreen, "the 5e set-up")
        await pilot.press("p")
        await paste(pilot, app, RED_2014)
        assert shown(app, "#paste-unread") == ""
        await pilot.press("ctrl+s")
        form = await until_screen(pilot, FormDialog, "the add form, filled in")
        assert form.raw_values()["saves"] == "Str +8, Dex +6, Con +13, Int +3, Wis +7, Cha +11"
        await pilot.press("ctrl+s")
        await until_screen(pilot, SetupScreen, "the set-up again")
        dragon = store(app).state.combatants[-1]
        assert (
            dragon.name,
            dragon.hp,
            dragon.sheet["immune"],
            dragon.sheet["legendary"],
            dragon.sheet["legendary_resistance"],
        ) == ("Adult Red Dragon", 256, "fire", 3, 3)
        assert FIRE_BREATH_2014 in dragon.sheet["abilities"], dragon.sheet["abilities"]
