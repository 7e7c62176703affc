"""Two copies of the app on one session: the second opens it read-only, says so on screen, refuses every
key that would change the fight with the reason, and writes nothing; the first goes on as the writer."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.widgets import Header

from tests.saves.helpers import fingerprint
from tests.ui.fights import messages, newest, opened, saved_round, until
from tests.ui.steps import SIZE, store, visible_text
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.fight.store import Store, new_state
from tui_combat.saves.locations import sessions_dir
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.setup import SetupScreen
from tui_combat.widgets.read_only import ReadOnlyBar

ANOTHER_COPY = "This session is open in another copy of tui-combat"


async def test_a_second_copy_is_read_only_and_says_why(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    folder = saved_round(data_root, "ambush", ["Raf", "Ada"], 3)
    first, second = make_app(resume="ambush"), make_app(resume="ambush")
    async with first.run_test(size=SIZE) as writer:
        await opened(writer)
        assert not store(first).read_only
        assert not first.screen.query_one(ReadOnlyBar).display
        async with second.run_test(size=SIZE) as reader:
            await opened(reader)
            assert isinstance(second.screen, RoundScreen)
            assert store(second).read_only and second.sub_title == "read-only"
            bar = second.screen.query_one(ReadOnlyBar)
            assert bar.display
            assert visible_text(bar).strip() == "Read-only: open in another copy of tui-combat · ctrl+s saves a copy"
            assert any(message.startswith(ANOTHER_COPY) for message in messages(second))

            before, files = store(second).state, fingerprint(folder)
            for key in ("n", "d", "u", "a"):  # next, damage, undo, the ruleset's attack: each refused, and why
                given = newest(second)
                await reader.press(key)
                await until(reader, lambda: newest(second) != given, f"{key} refused")
                assert isinstance(second.screen, RoundScreen)  # no form opened for a change that cannot be made
                assert messages(second)[-1].startswith(ANOTHER_COPY), messages(second)
            assert store(second).state == before
            assert fingerprint(folder) == files

            # Looking around still works: the arrows move the selection.
            selected = second.screen.selected()
            await reader.press("down")
            assert second.screen.selected() != selected

            # The writer goes on, and only its actions reach the files.
            await writer.press("n")
            assert store(first).state.cursor == 1
            assert fingerprint(folder) != files

            # ctrl+s: the reader saves a copy of what it shows, and can change that copy.
            await reader.press("ctrl+s")
            assert isinstance(second.screen, FormDialog)
            await reader.press("ctrl+a", "ctrl+k", *"copy", "enter")
            await until(reader, lambda: not store(second).read_only, "the copy to be writable")
            assert second.sub_title == "" and not second.screen.query_one(ReadOnlyBar).display
            await reader.press("n")
            assert store(second).state.cursor == 1
            await reader.press("q")
        assert second.return_code == 0
        assert store(first).state.cursor == 1 and not store(first).read_only
        await writer.press("q")

    assert (sessions_dir(data_root) / "copy").is_dir()
    assert Store.resume(folder, read_only=True).state.cursor == 1  # the writer's action, saved


async def test_the_header_of_the_set_up_says_read_only(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    folder = sessions_dir(data_root) / "setup"
    writer = Store.create(new_state(seed=1, ruleset="adnd2e"), folder)
    writer.dispatch(a.AddSide(name="Party", is_party=True))
    app = make_app(resume="setup")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        assert isinstance(app.screen, SetupScreen)
        assert "tui-combat — read-only" in visible_text(app.screen.query_one(Header).query_one("HeaderTitle"))
        await pilot.press("a")  # add a combatant: refused before any form opens
        assert isinstance(app.screen, SetupScreen)
        assert messages(app)[-1].startswith(ANOTHER_COPY)
    writer.close()
