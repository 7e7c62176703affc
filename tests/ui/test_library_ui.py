"""The combatant library at 80×24: added from mid-fight with incremental search (the add form's ctrl+l), "5 orc"
in the add form taking the GM's own orc over the bestiary's, and the set-up's keys that save a combatant into
the library (L), open the picker (l) and write the set-up as an encounter file (w)."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

from textual.widgets import Input, OptionList, Static

from tests.ui.fights import messages
from tests.ui.steps import (
    SIZE,
    combatant_id,
    dialog_error,
    open_demo,
    select,
    store,
    to_round,
    until_closed,
    until_form,
)
from tui_combat.app import CombatApp
from tui_combat.engine.actions import AddCombatants
from tui_combat.fight import session
from tui_combat.fight.library import Entry, save_entry
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.form_panel import FormPanel
from tui_combat.screens.library import LibraryPicker
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.setup import SetupScreen


def listed(app: CombatApp) -> list[str]:
    """The picker's rows as shown: name, HP and where the entry is kept."""
    options = app.screen.query_one("#library-entries", OptionList)
    return [" ".join(str(options.get_option_at_index(i).prompt).split()) for i in range(options.option_count)]


def detail(app: CombatApp) -> str:
    return str(app.screen.query_one("#library-detail", Static).render())


async def test_adding_from_the_library_mid_fight_with_incremental_search(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    save_entry(data_root, "adnd2e", Entry(name="Ogre chief", hp=30, sheet={"cls": "monster", "level": "5+2", "ac": 3}))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        await select(pilot, combatant_id(app, "Troll 1"))  # a monster: newcomers join his side
        before = store(app).state

        await pilot.press("i")
        form = await until_form(pilot, "the add form")
        assert isinstance(form, FormPanel)  # at the foot of the round screen
        assert "ctrl+l: from the library" in str(form.query_one("#dialog-help", Static).render())
        await pilot.press("ctrl+l")
        assert isinstance(app.screen, LibraryPicker)
        # The bestiary's monsters have their hit points rolled from the Hit Dice: the row shows the dice.
        assert listed(app)[:3] == ["Ogre chief HP 30 your library", "Troll HP 6d8+6 bestiary", "Orc HP 1d8 bestiary"]

        # Each letter narrows the list: names that begin with it first, then names that hold it.
        await pilot.press("o")
        assert listed(app) == [
            "Ogre chief HP 30 your library",
            "Orc HP 1d8 bestiary",
            "Ogre HP 4d8+1 bestiary",
            "Troll HP 6d8+6 bestiary",
            "Goblin HP 1d8-1 bestiary",
            "Hobgoblin HP 1d8+1 bestiary",
        ]
        await pilot.press("g")
        assert listed(app) == ["Ogre chief HP 30 your library", "Ogre HP 4d8+1 bestiary"]
        await pilot.press("down")  # the bestiary's ogre
        await pilot.press("home", "2", "space")  # "2 og": two of them
        assert app.screen.query_one("#library-query", Input).value == "2 og"
        assert "Enter adds 2 × Ogre to Monsters." in detail(app)
        assert "HP 4d8+1 (rolled) · Class monster · Level / HD 4+1 · AC 5 · Weapon club" in detail(app)

        await pilot.press("enter")
        assert isinstance(app.screen, RoundScreen), type(app.screen).__name__  # the picker and the form both closed
        assert not form.is_open
        state = store(app).state
        ogres = [c for c in state.combatants if c.name.startswith("Ogre")]
        assert [(c.name, c.side, c.sheet["level"], c.sheet["ac"]) for c in ogres] == [
            ("Ogre 1", "s5", "4+1", 5),
            ("Ogre 2", "s5", "4+1", 5),
        ]
        added = store(app).done_actions()[-1]
        assert isinstance(added, AddCombatants) and len(added.hps) == 2  # each one's rolled with the app's dice
        assert [(c.hp, c.max_hp) for c in ogres] == [(hp, hp) for hp in added.hps]
        assert all(5 <= hp <= 33 for hp in added.hps)  # 4d8+1
        assert ogres[0].group and ogres[0].group == ogres[1].group
        assert state.order == before.order  # they wait for the next initiative
        assert "Hits for 1d10, or by weapon +6 (Strength)." == ogres[0].notes

        # Escape in the picker goes back to the form, with what was typed.
        await pilot.press("i", *"wolf", "ctrl+l")
        assert isinstance(app.screen, LibraryPicker)
        assert 'Nothing in the library or the bestiary is called "wolf".' in detail(app)
        await pilot.press("enter")  # nothing to add: the picker says so and stays
        assert isinstance(app.screen, LibraryPicker)
        await pilot.press("escape")
        assert isinstance(app.screen, RoundScreen) and form.is_open
        assert form.raw_values()["name"] == "wolf"
        assert form.rows_made == 1  # the same rows, filled in anew
        await pilot.press("escape")
        await until_closed(pilot, form)
        assert len(store(app).state.combatants) == len(state.combatants)


async def test_five_orc_in_the_add_form_takes_the_gm_s_own_orc(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    save_entry(
        data_root,
        "adnd2e",
        Entry(
            name="Orc",
            hp=9,
            sheet={"cls": "monster", "level": 2, "ac": 5, "weapon": "spear"},
            notes="From my campaign.",
        ),
    )
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)
        await pilot.press("a", *"5 orc")
        assert isinstance(app.screen, FormDialog)
        preview = str(app.screen.query_one("#dialog-preview", Static).render())
        assert preview.startswith("Orc from your library: HP 9 · Class monster · Level / HD 2 · AC 5 · Weapon spear.")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SetupScreen), dialog_error(app)
        new = store(app).state.combatants[-5:]
        assert [(c.name, c.hp, c.sheet["level"], c.sheet["weapon"], c.notes) for c in new] == [
            (f"Orc {n}", 9, 2, "spear", "From my campaign.") for n in range(7, 12)
        ]  # the demo has Orc 1 … Orc 6

        # What the GM types in the form wins over the entry.
        await pilot.press("a", *"orc", "tab", "tab", "4", "ctrl+s")
        assert isinstance(app.screen, SetupScreen), dialog_error(app)
        last = store(app).state.combatants[-1]
        assert (last.name, last.hp, last.sheet["level"]) == ("Orc 12", 4, 2)


async def test_the_set_up_saves_into_the_library_and_as_an_encounter(
    make_app: Callable[..., CombatApp], data_root: Path, tmp_path: Path
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        # The cursor on Troll 1 (the fourth row): L keeps the whole group of trolls, under the name typed.
        await pilot.press("down", "down", "down", "L")
        assert isinstance(app.screen, FormDialog)
        assert app.screen.raw_values() == {"name": "Troll", "group": True}
        await pilot.press("end", *" king", "ctrl+s")
        assert isinstance(app.screen, SetupScreen), dialog_error(app)
        library = tomllib.loads((data_root / "library" / "adnd2e.toml").read_text(encoding="utf-8"))
        assert [(e["name"], e["hp"], e["count"], e["sheet"]["level"]) for e in library["combatants"]] == [
            ("Troll king", 36, 3, "6+6")
        ]
        assert messages(app)[-1].startswith("Troll king ×3 is in your library: ")

        # l: the picker, in set-up; the GM's troll king first.
        await pilot.press("l", *"troll")
        assert isinstance(app.screen, LibraryPicker)
        assert [row.split(" HP")[0] for row in listed(app)] == ["Troll king ×3", "Troll"]
        await pilot.press("escape")
        assert isinstance(app.screen, SetupScreen)

        # w: the set-up as an encounter file, which tui-combat new reads back as the same fight.
        target = tmp_path / "tunnel.toml"
        await pilot.press("w")
        assert isinstance(app.screen, FormDialog)
        assert app.screen.raw_values()["path"] == str(data_root / "encounters" / "trolls-and-orcs-in-the-tunnel.toml")
        await pilot.press("ctrl+u", *str(target), "ctrl+s")
        assert isinstance(app.screen, SetupScreen), dialog_error(app)
        assert messages(app)[-1].startswith(f"Saved in {target}. Start it again with: tui-combat new {target}")
        state = store(app).state
        again = session.check_encounter(target)
        assert [(c.name, c.max_hp, c.sheet, again.side(c.side).name) for c in again.combatants] == [
            (c.name, c.max_hp, c.sheet, state.side(c.side).name) for c in state.combatants
        ]
        assert again.options == state.options

        # The file exists now: saved again only when the GM ticks "replace".
        await pilot.press("w", "ctrl+u", *str(target), "ctrl+s")
        assert isinstance(app.screen, FormDialog)
        assert "exists already" in dialog_error(app)
        await pilot.press("escape")


async def test_the_library_opened_on_a_party_row_adds_to_the_monsters(make_app: Callable[..., CombatApp]) -> None:
    from tests.waiting import until_screen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)
        state = store(app).state
        assert state.side(state.combatants[0].side).is_party  # the cursor is on Raf, of the party
        await pilot.press("l")
        picker = await until_screen(pilot, LibraryPicker)
        assert not state.side(picker.selected_side()).is_party, picker.selected_side()
        await pilot.press("escape")
        await until_screen(pilot, SetupScreen)
        await pilot.press("down", "down", "down", "l")  # on Troll 1: the trolls' side
        picker = await until_screen(pilot, LibraryPicker)
        assert picker.selected_side() == state.combatants[3].side
