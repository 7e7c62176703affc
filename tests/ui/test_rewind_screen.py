"""Looking back at a saved fight at 80×24: from the session list (``w``), back to round 1, step by step, and on
as a new fight that opens at that point; the original's files stay as they were."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from msgspec.structs import replace
from textual.pilot import Pilot
from textual.widgets import DataTable

from tests.saves.helpers import fingerprint
from tests.saves.test_rewind import EFFECTIVE, replayed, replayed_to_round, two_rounds
from tests.ui.fights import messages, opened, until
from tests.ui.steps import SIZE, footer_now, store, until_sessions, visible_text
from tests.ui.test_no_internal_ids import internal_ids
from tests.waiting import settled, until_screen
from tui_combat.app import CombatApp
from tui_combat.fight import session
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.help import binding_rows
from tui_combat.screens.rewind import RewindScreen
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.sessions import SessionsScreen
from tui_combat.widgets.footer import KeyFooter, shown_keys
from tui_combat.widgets.lines import TextLines
from tui_combat.widgets.order_list import OrderList
from tui_combat.widgets.redraw import RoundLog


def where_line(app: CombatApp) -> str:
    return app.screen.query_one("#rewind-where", TextLines).text.plain


def footer_keys(app: CombatApp) -> list[str]:
    """The keys the footer shows, in order (those grouped under one word too)."""
    return [key.key for key in shown_keys(app.screen.query_one(KeyFooter)) if not key.palette]


def screen_lines(app: CombatApp) -> list[str]:
    """Every line of the terminal as drawn."""
    return [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]


def log_lines(app: CombatApp) -> list[str]:
    return [strip.text.rstrip() for strip in app.screen.query_one(RoundLog).lines]


async def look_back(pilot: Pilot[None], app: CombatApp) -> RewindScreen:
    """On the session list, ``w`` on the first row, until the fight's history is read."""
    await until_sessions(pilot)
    await pilot.press("w")
    screen = await until_screen(pilot, RewindScreen, "the look-back screen")
    await until(pilot, lambda: screen.timeline is not None and settled(screen), "the history to be read and shown")
    return screen


async def test_rewind_to_round_1_and_go_on_from_there_as_a_new_fight(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    folder = two_rounds(data_root)
    before = fingerprint(folder)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await look_back(pilot, app)
        assert where_line(app) == "Round 2 · action 20 of 20 · Raf takes 4 damage: 16/20 HP."
        assert footer_keys(app) == [
            "left",
            "right",
            "left_square_bracket",
            "right_square_bracket",
            "c",
            "escape",
            "q",
            "f1",
        ]
        footer = screen_lines(app)[-1]
        assert footer.startswith("←→ Action [] Round c Continue here esc Sessions q Quit f1 Help"), footer

        await pilot.press("left_square_bracket")
        assert where_line(app) == "Round 2 · action 16 of 20 · Round 2 begins."
        await pilot.press("left_square_bracket")
        assert where_line(app).startswith("Round 1 · action 8 of 20 · ")
        assert screen.state() == replayed_to_round(EFFECTIVE, 1)
        order = visible_text(app.screen.query_one(OrderList))
        assert "Orc 1  8/8" in order and "Orc 2  8/8" in order and "Raf  20/20" in order, order

        # Step on to the hits of round 1, and back one.
        await pilot.press("full_stop", "full_stop", "full_stop", "full_stop", "full_stop")
        assert where_line(app) == "Round 1 · action 13 of 20 · Orc 2 takes 5 damage: 3/8 HP."
        assert screen.state() == replayed(EFFECTIVE, 13)
        assert "Orc 2 takes 5 damage: 3/8 HP." in log_lines(app)
        await pilot.press("left")
        assert where_line(app) == "Round 1 · action 12 of 20 · Orc 1 takes 3 damage: 5/8 HP."
        assert "Orc 2 takes 5 damage: 3/8 HP." not in log_lines(app)  # the log as it was then
        assert "Orc 2  8/8" in visible_text(app.screen.query_one(OrderList))
        await pilot.press("home")
        assert where_line(app) == "Setting up the fight · before the first action, 20 in all"
        await pilot.press("pagedown", "right_square_bracket")
        assert screen.position == 8

        await pilot.press("c")
        dialog = app.screen
        assert isinstance(dialog, FormDialog)
        assert dialog.values == {"name": "Ambush (branch, round 1)"}
        await pilot.press("enter")
        await opened(pilot)
        assert isinstance(app.screen, RoundScreen)
        assert store(app).state == replace(replayed_to_round(EFFECTIVE, 1), name="Ambush (branch, round 1)")
        assert not store(app).read_only

        await pilot.press("escape")  # back to the list: both fights are there
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen), "the session list")
    assert fingerprint(folder) == before
    assert sorted(info.name for info in session.list_sessions(data_root)) == ["Ambush", "Ambush (branch, round 1)"]


async def test_escape_leaves_the_history_and_a_damaged_session_cannot_be_looked_at(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    folder = two_rounds(data_root)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await look_back(pilot, app)
        assert "read-only" in visible_text(app.screen.query_one("#rewind-head", TextLines))
        await pilot.press("escape")
        assert isinstance(app.screen, SessionsScreen)

        (folder / "snapshot.json").write_bytes(b"{not a snapshot")  # the list shows it damaged
        app.screen.reload()
        await until(
            pilot,
            lambda: "damaged" in " ".join(map(str, app.screen.query_one(DataTable).get_row_at(0))),
            "the row shown damaged",
        )
        assert "Look back" not in (await footer_now(pilot))
        await pilot.press("w")
        assert isinstance(app.screen, SessionsScreen)


async def test_a_history_that_cannot_be_read_is_said_and_the_list_comes_back(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    folder = two_rounds(data_root)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until_sessions(pilot)
        (folder / "journal.jsonl").write_bytes(b"not a journal\n")  # damaged after the list was read
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen), "the session list")
        assert any("damaged" in message for message in messages(app)), messages(app)


async def test_every_key_is_in_help_with_words_not_ids(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    two_rounds(data_root)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await look_back(pilot, app)
        rows = binding_rows(screen)  # type: ignore[arg-type]
        described = {description for _keys, description in rows}
        assert {
            "One action back",
            "One action on",
            "One round back",
            "One round on",
            "The beginning",
            "Where it was left",
            "Continue here",
            "Sessions",
        } <= described, described
        assert [row for row in rows if internal_ids(" ".join(row))] == []
        palette = [f"{command.title} · {command.help}" for command in app.get_system_commands(screen)]
        assert "One round back · [, pgup" in palette, palette
        assert [entry for entry in palette if internal_ids(entry)] == []
