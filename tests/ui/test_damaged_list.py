"""A damaged session in the session list: shown as damaged, and ``r`` rebuilds it into a new session
beside it (never over it) and opens that, while the damaged folder stays exactly as it was."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.widgets import DataTable

from tests.saves.helpers import fingerprint
from tests.ui.fights import messages, opened, saved_round, until
from tests.ui.steps import SIZE, footer_now, store, until_sessions, visible_text
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.fight.store import Store
from tui_combat.saves.locations import sessions_dir
from tui_combat.saves.schema import JOURNAL
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.sessions import SessionsScreen


def damaged_session(data_root: Path) -> tuple[Path, Store]:
    """A fight with one damage journalled after its snapshot, then a complete line that cannot be read.
    Returns its folder and the store as it was before the damage."""
    folder = saved_round(data_root, "ambush", ["Raf", "Ada"], 3)
    writer = Store.resume(folder)
    writer.dispatch(a.Damage(combatant=writer.state.order[1].combatants[0], amount=5))
    writer.close()
    with (folder / JOURNAL).open("ab") as journal:
        journal.write(b"this line is no journal entry\n")
    return folder, writer


def row_text(app: CombatApp, key: str) -> str:
    table = app.screen.query_one(DataTable)
    return " | ".join(str(cell) for cell in table.get_row(key))


async def test_r_rebuilds_a_damaged_session_beside_it_and_opens_it(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    saved_round(data_root, "sound", ["Bo"], 1)  # a session without damage, saved first
    folder, before_damage = damaged_session(data_root)
    files = fingerprint(folder)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until_sessions(pilot)
        await until(pilot, lambda: row_text(app, "ambush") and row_text(app, "sound"), "the two sessions' rows")
        assert row_text(app, "ambush").startswith("Ambush | AD&D 2e | damaged, can be recovered |"), row_text(
            app, "ambush"
        )
        assert "damaged" not in row_text(app, "sound")
        assert "r rebuilds it into a new session beside it" in visible_text(app.screen.query_one("#sessions-hint"))

        table = app.screen.query_one(DataTable)
        assert (table.get_row_index("ambush"), table.get_row_index("sound")) == (0, 1)  # newest first
        assert "Recover" in (await footer_now(pilot))
        await pilot.press("down")
        assert "Recover" not in (await footer_now(pilot))  # not on a sound session
        await pilot.press("r")
        assert app.store is None and not app.opening
        await pilot.press("up")
        assert "Recover" in (await footer_now(pilot))
        await pilot.press("enter")  # opening it as it is: read-only, with what is wrong and what can be done
        await until(
            pilot, lambda: isinstance(app.screen, RoundScreen) and not app.opening, "the damaged session, read-only"
        )
        assert store(app).read_only and store(app).damaged
        assert store(app).state == before_damage.state  # as far as it reads
        assert any("is damaged, so it is open read-only" in message for message in messages(app))
        await pilot.press("n")  # refused: nothing is written
        assert fingerprint(folder) == files
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen), "the session list")
        assert fingerprint(folder) == files
        table = app.screen.query_one(DataTable)
        await until(pilot, lambda: table.cursor_row == table.get_row_index("ambush"), "the damaged session selected")

        await pilot.press("r")
        await opened(pilot)
        assert isinstance(app.screen, RoundScreen)
        recovered = store(app)
        assert recovered.folder is not None and recovered.folder.folder == sessions_dir(data_root) / "ambush-recovered"
        assert recovered.state == before_damage.state  # the damage was journalled: it is kept
        assert not recovered.read_only
        assert any("Rebuilt from" in message for message in messages(app))
        await pilot.press("n")  # the new session takes actions
        assert store(app).state.cursor == 1
        await pilot.press("escape")
        await until_sessions(pilot)
        await until(pilot, lambda: row_text(app, "ambush-recovered"), "the rebuilt session's row")
        assert "damaged" not in row_text(app, "ambush-recovered")
        assert "damaged" in row_text(app, "ambush")
        await pilot.press("q")

    assert fingerprint(folder) == files  # the damaged session was only read
    assert Store.resume(sessions_dir(data_root) / "ambush-recovered", read_only=True).state.cursor == 1


async def test_a_session_unreadable_from_its_first_action_is_refused_with_a_message(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """Saved through the engine (its first snapshot names no rules) and damaged from its first action: it was
    opened as an empty fight, and the set-up screen raised Unknown ruleset ""."""
    from tests.saves.test_opening_cases import engine_api_session

    folder = engine_api_session(data_root)
    (folder / JOURNAL).write_bytes(b"")
    files = fingerprint(folder)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until_sessions(pilot)
        await until(pilot, lambda: row_text(app, "ambush").startswith("ambush |  | damaged |"), "the damaged row")
        await pilot.press("enter")
        await until(
            pilot,
            lambda: any("cannot be rebuilt automatically" in message for message in messages(app)) and not app.opening,
            "the refusal",
        )
        assert isinstance(app.screen, SessionsScreen) and app.store is None
        assert "Recover" not in (await footer_now(pilot))  # nothing to rebuild it from
    assert fingerprint(folder) == files
