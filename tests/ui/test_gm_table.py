"""The GM's table at 80×24: the session list (names, rulesets, where each fight stands, rename, delete, a demo
opened twice, an untouched new fight leaving nothing), forms that keep what was typed when refused, and turn
order enforced with a way out."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.widgets import DataTable, Input

from tests.ui.fights import messages, opened, saved_round, until
from tests.ui.steps import (
    SIZE,
    amount_prompt,
    dialog_error,
    leave_damage,
    log_texts,
    prompt_error,
    select,
    session_folders,
    store,
    until_form,
    until_sessions,
    visible_text,
)
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.fight import session
from tui_combat.screens.dialogs import ChoiceDialog, ConfirmDialog, FormDialog, TickBox
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.sessions import SessionsScreen
from tui_combat.screens.setup import SetupScreen


def table_text(app: CombatApp) -> str:
    table = app.screen.query_one(DataTable)
    return "\n".join(" | ".join(str(cell) for cell in table.get_row_at(row)) for row in range(table.row_count))


# -- the session list ---------------------------------------------------------------------------------
async def test_the_list_shows_name_ruleset_step_and_time_never_a_folder(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    saved_round(data_root, "folder-x17", ["Raf"], 2)  # named "Ambush", in round 1's resolve step
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until_sessions(pilot)
        await until(pilot, lambda: app.screen.query_one(DataTable).get_row("folder-x17"), "the saved fight's row")
        first = table_text(app).splitlines()[0]
        assert first.startswith("Ambush | AD&D 2e | round 1 · Resolve | today "), first
        assert "folder-x17" not in visible_text(app.screen)


async def test_rename_then_delete_with_confirmation(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    saved_round(data_root, "ambush", ["Raf"], 2)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until_sessions(pilot)
        await until(pilot, lambda: app.screen.query_one(DataTable).get_row("ambush"), "the saved fight's row")
        await pilot.press("e")
        assert isinstance(app.screen, FormDialog)
        await pilot.press("ctrl+u", *"Tunnel fight", "enter")
        assert isinstance(app.screen, SessionsScreen), dialog_error(app)
        assert table_text(app).splitlines()[0].startswith("Tunnel fight | ")
        info = session.find_session(data_root, "Tunnel fight")
        assert info is not None and info.name == "Tunnel fight"

        await pilot.press("x")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("enter")  # "Keep it" is highlighted first
        assert isinstance(app.screen, SessionsScreen)
        assert len(session_folders(data_root)) == 1
        await pilot.press("x", "down", "enter")
        assert isinstance(app.screen, SessionsScreen)
        assert session_folders(data_root) == []
        assert "Tunnel fight" not in table_text(app)
        assert "Tunnel fight is deleted." in messages(app)


async def test_a_rename_refused_keeps_the_form_open_with_the_reason(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    saved_round(data_root, "one", ["Raf"], 1)
    saved_round(data_root, "two", ["Bo"], 1)
    session.rename(data_root, "two", "Second")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until_sessions(pilot)
        await select_row(pilot, "one")
        await pilot.press("e", "ctrl+u", *"second", "enter")
        assert isinstance(app.screen, FormDialog)
        assert "There is already a session called Second." in dialog_error(app)
        assert app.screen.query_one(Input).value == "second"


async def select_row(pilot, key: str) -> None:  # type: ignore[no-untyped-def]
    table = pilot.app.screen.query_one(DataTable)
    await until(pilot, lambda: key in table.rows, f"the row {key} in the set-up table")
    table.move_cursor(row=table.get_row_index(key))
    await until(pilot, lambda: table.cursor_row == table.get_row_index(key), f"the cursor on the row {key}")


async def test_an_untouched_new_fight_leaves_nothing(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "set-up")
        assert len(session_folders(data_root)) == 1
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen), "the session list")
        assert session_folders(data_root) == []
        await pilot.press("d")  # the demo, left untouched with the quit key
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "set-up")
        await pilot.press("ctrl+q")
    assert session_folders(data_root) == []


async def test_a_demo_opened_again_asks_resume_or_another(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    played = session.open_demo(data_root, "demo_adnd2e.toml", seed=1)
    played.dispatch(a.BeginSurprise())
    key = played.folder.folder.name if played.folder else ""
    played.close()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until_sessions(pilot)
        await until(pilot, lambda: app.screen.query_one(DataTable).get_row(key), "the played demo's row")
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ChoiceDialog), "resume or another")
        assert isinstance(app.screen, ChoiceDialog)
        assert [value for value, _label in app.screen.choices] == ["resume", "new"]
        await pilot.press("enter")  # resume is highlighted first
        await until(pilot, lambda: app.store is not None and not app.opening, "the session")
        assert store(app).folder is not None and store(app).folder.folder.name == key  # type: ignore[union-attr]
        assert store(app).state.phase == "surprise"
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen), "the session list")
        await pilot.press("d", "down", "enter")  # start another
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "a new set-up")
        assert store(app).state.name == "Trolls and orcs in the tunnel 2"


# -- forms ---------------------------------------------------------------------------------------------
async def test_negative_or_huge_damage_is_refused_in_the_prompt(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    saved_round(data_root, "ambush", ["Raf"], 2)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        before = store(app).state
        await pilot.press("d", "-", "5", "enter")
        assert prompt_error(app) == "Damage cannot be negative."
        assert amount_prompt(app).value == "-5"
        await pilot.press("ctrl+u", *"123456", "enter")
        assert prompt_error(app) == "Damage: a number from 0 to 9999."
        await pilot.press("ctrl+u", "7", "enter")
        assert isinstance(app.screen, RoundScreen) and not app.screen.amount_prompt.is_open
        raf = store(app).state.order[0].combatants[0]
        assert store(app).state.combatant(raf).hp == before.combatant(raf).hp - 7 == 13


# -- turn order ------------------------------------------------------------------------------------------
async def test_acting_out_of_turn_asks_and_is_logged(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    saved_round(data_root, "ambush", ["Raf"], 2)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        state = store(app).state
        orc = state.order[1].combatants[0]  # the monsters act second: the party's slot is acting
        await select(pilot, orc)
        await pilot.press("a")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("enter")  # "No" first
        assert isinstance(app.screen, RoundScreen) and store(app).state is state
        await pilot.press("a", "down", "enter")
        form = await until_form(pilot, "the attack form, out of turn")
        await pilot.press("ctrl+s")
        await leave_damage(pilot)
        assert not form.is_open, dialog_error(app)
        assert "Orc 1 acts out of turn: Attack." in log_texts(app)


async def test_rolling_initiative_again_asks_first(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    saved_round(data_root, "ambush", ["Raf"], 2)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        await pilot.press("b")  # back to the initiative step, the order settled
        state = store(app).state
        await pilot.press("r")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("enter")  # keep the order
        assert store(app).state is state
        await pilot.press("r", "down", "enter")
        assert store(app).state is not state
        assert sum("Initiative — " in text for text in log_texts(app)) == 4  # two before, two again


async def test_editing_a_raider_keeps_what_was_not_changed(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    from tests.ui.test_trudvang_round import ENCOUNTER

    app = make_app(encounter=ENCOUNTER)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "set-up")
        raider = next(c for c in store(app).state.combatants if c.name == "Raider 1")
        await select_row(pilot, raider.id)
        await pilot.press("e")
        form = app.screen
        assert isinstance(form, FormDialog)
        await pilot.press("tab", "ctrl+u", "9", "ctrl+s")  # the HP only
        assert isinstance(app.screen, SetupScreen), dialog_error(app)
        after = store(app).state.combatant(raider.id)
        assert after.sheet == raider.sheet and after.sheet["armour"] == "Fur / leather"
        assert (after.hp, after.max_hp) == (9, 9)


async def test_a_tick_box_reads_without_colour(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, SetupScreen), "set-up")
        await pilot.press("s")
        assert isinstance(app.screen, FormDialog)
        assert str(app.screen.query_one(TickBox).render()).startswith("[ ] yes")
        await pilot.press(*"Wolves", "enter", "space")
        assert str(app.screen.query_one(TickBox).render()).startswith("[x] yes")
        await pilot.press("enter")  # Enter on the last field: OK
        assert isinstance(app.screen, SetupScreen)
        assert store(app).state.sides[-1].name == "Wolves" and store(app).state.sides[-1].is_party
