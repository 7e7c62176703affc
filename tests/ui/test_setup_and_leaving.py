"""Taking back and leaving: Delete in the set-up (and the fight's other destructive keys) says how to take it
back and u does, Home and End go to the first and last rows of the set-up, q quits (saving) on the set-up and
surprise screens as on the round and the footer shows it, and leaving tells the shell which session was saved
and the command that resumes it."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from textual.widgets import DataTable

from tests.ui.fights import messages, opened_round, saved_round
from tests.ui.steps import SIZE, choose, footer_now, open_demo, select, store, to_surprise, until_form
from tests.ui.test_gm_pty import gm_in_a_pty
from tests.ui.test_view_pty import READ_LIMIT_SECONDS
from tests.waiting import settled, until
from tui_combat.app import CombatApp

TROLLS = "Trolls and orcs in the tunnel"


def said(app: CombatApp, text: str) -> bool:
    return any(text in message for message in messages(app))


async def test_delete_in_the_set_up_says_how_to_take_it_back_and_u_brings_him_back(
    make_app: Callable[..., CombatApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)
        raf = store(app).state.combatants[0]
        assert raf.name == "Raf" and raf.sheet
        await pilot.press("delete")
        await until(
            pilot,
            lambda: (
                raf.id not in {c.id for c in store(app).state.combatants}
                and said(app, "Raf removed — u brings him back")
            ),
            "Raf removed, and how to take it back",
        )
        await pilot.press("u")
        await until(pilot, lambda: raf.id in {c.id for c in store(app).state.combatants}, "Raf back")
        assert store(app).state.combatant(raf.id) == raf  # his sheet, his notes, his place
        assert store(app).state.combatants[0] == raf


async def test_home_and_end_go_to_the_first_and_last_rows_of_the_set_up(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)
        table = app.screen.query_one(DataTable)
        await pilot.press("end")
        await until(pilot, lambda: table.cursor_row == table.row_count - 1, "the last row")
        assert table.scroll_x == 0
        await pilot.press("home")
        await until(pilot, lambda: table.cursor_row == 0, "the first row")


async def test_q_quits_saving_on_the_set_up_and_the_footer_shows_it(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)
        assert "Quit" in (await footer_now(pilot))
        await pilot.press("end", "delete")  # Orc 6 goes: the fight is the GM's now, and saved
        await until(pilot, lambda: said(app, "Orc 6 removed"), "Orc 6 removed")
        await pilot.press("q")
        await until(pilot, lambda: app.return_code is not None, "the app to quit")
    assert app.return_code == 0 and app.left_session is not None
    assert (app.left_session.name, app.left_session.read_only, app.left_session.save_problem) == (TROLLS, False, "")
    assert "Orc 6" not in {c.name for c in store_of(app.data_root, app.left_session.key)}


async def test_q_quits_saving_on_the_surprise_screen_and_the_footer_shows_it(
    make_app: Callable[..., CombatApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_surprise(pilot)
        assert "Quit" in (await footer_now(pilot))
        await pilot.press("q")
        await until(pilot, lambda: app.return_code is not None, "the app to quit")
    assert app.return_code == 0 and app.left_session is not None and app.left_session.name == TROLLS


def store_of(data_root: Path, key: str) -> list[object]:
    from tui_combat.fight.store import Store

    opened = Store.resume(data_root / "sessions" / key, read_only=True)
    try:
        return list(opened.state.combatants)
    finally:
        opened.close()


async def test_a_status_and_an_effect_ended_in_the_fight_say_how_to_take_them_back(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    saved_round(data_root, "ambush", ["Raf", "Ada"], 3)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened_round(pilot)
        ada = next(c.id for c in store(app).state.combatants if c.name == "Ada")
        await select(pilot, ada)
        await pilot.press("x")
        await choose(pilot, "fled")
        await until(pilot, lambda: said(app, "Ada: fled — u takes it back"), "how to take it back")
        await pilot.press("u")
        await until(pilot, lambda: store(app).state.combatant(ada).status == "active", "Ada back in the fight")
        await pilot.press("E")
        await until_form(pilot, "the effect form")
        await pilot.press(*"blessed", "enter", "3", "enter")
        await until(pilot, lambda: bool(store(app).state.effects) and settled(app.screen), "the effect on")
        await pilot.press("E")
        await until_form(pilot, "the effect form")
        await pilot.press(*"blessed", "enter", "backspace", "0", "enter")
        await until(pilot, lambda: said(app, "Ada: blessed ended — u brings it back"), "how to take it back")
        await pilot.press("u")
        await until(pilot, lambda: bool(store(app).state.effects), "the effect back")


def test_leaving_tells_the_shell_the_session_and_the_command_that_resumes_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    saved_round(data, "ambush", ["Raf"], 2)
    with gm_in_a_pty(data, tmp_path / "config", "ambush") as terminal:
        terminal.read_until(b"Round", b"Orc 2")
        os.write(terminal.master, b"q")
        terminal.drain()
        assert terminal.process.wait(timeout=READ_LIMIT_SECONDS) == 0
    said_after = terminal.output.rsplit(b"\x1b[?1049l", 1)[1]  # once the shell has its screen back
    assert f"Saved as Ambush — resume with: tui-combat --data-dir {data} resume Ambush".encode() in said_after


async def test_a_name_pasted_with_an_escape_is_refused_in_the_add_form(make_app: Callable[..., CombatApp]) -> None:
    from textual import events

    from tests.ui.steps import dialog_error

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)
        before = store(app).state
        await pilot.press("a")
        await until_form(pilot, "the add form")
        app.post_message(events.Paste("Ogre\x1b]0;owned\x07"))  # as the terminal sends a paste
        await until(pilot, lambda: "Ogre" in str(app.focused.value), "the name pasted")  # type: ignore[union-attr]
        await pilot.press("ctrl+s")
        await until(
            pilot,
            lambda: "holds a control character (U+001B, escape) at character 5" in dialog_error(app),
            "the refusal",
        )
        assert store(app).state is before
