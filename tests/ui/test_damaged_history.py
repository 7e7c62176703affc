"""A session with a flipped byte in a history block opens read-only in the app, says which file and what to do,
and quitting leaves every file exactly as it was."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import tui_combat.fight.store as store_module
from tests.saves.helpers import fingerprint
from tests.ui.fights import messages, opened, until
from tests.ui.steps import SIZE, store, visible_text
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.fight.store import Store, new_state
from tui_combat.saves.locations import sessions_dir
from tui_combat.saves.schema import HISTORY
from tui_combat.screens.round import RoundScreen
from tui_combat.widgets.read_only import ReadOnlyBar


def fight_with_history(folder: Path) -> None:
    writer = Store.create(new_state(seed=4, ruleset="adnd2e"), folder)
    for action in (
        a.AddSide(name="Party", is_party=True),
        a.AddSide(name="Foes"),
        a.AddCombatants(side="s1", name="Raf", hp=12),
        a.AddCombatants(side="s2", name="Orc", hp=20),
        a.StartFight(),
    ):
        writer.dispatch(action)
    writer.save_now()
    writer.close()


async def test_a_flipped_history_block_opens_read_only_and_quitting_changes_nothing(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "BLOCK_SIZE", 2)
    folder = sessions_dir(data_root) / "ambush"
    fight_with_history(folder)
    block = sorted((folder / HISTORY).iterdir())[0]
    data = bytearray(block.read_bytes())
    data[len(data) // 2] ^= 0x04
    block.write_bytes(bytes(data))
    files = fingerprint(folder)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        assert isinstance(app.screen, RoundScreen)
        assert store(app).read_only and store(app).damaged
        bar = app.screen.query_one(ReadOnlyBar)
        assert "part of this session is damaged" in visible_text(bar)
        assert any(block.name in message and "tui-combat recover ambush" in message for message in messages(app))
        await pilot.press("n", "u")
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.store is None, "the app to quit")
    assert fingerprint(folder) == files


async def test_a_symlinked_sessions_folder_is_refused_on_the_session_list_too(
    make_app: Callable[..., CombatApp], data_root: Path, tmp_path: Path
) -> None:
    from tui_combat.screens.sessions import SessionsScreen

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    data_root.mkdir(parents=True, exist_ok=True)
    sessions_dir(data_root).symlink_to(elsewhere)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen), "the session list")
        hint = app.screen.query_one("#sessions-hint")
        assert "is a symbolic link" in str(hint.render())
        # Shown: a long path folds at any letter (its length is the machine's), the words after it stay whole.
        assert "symbolic link: tui-combat does not follow links" in " ".join(visible_text(hint).split())
        await pilot.press("n")  # a new fight: refused with the same words, nothing made through the link
        await until(pilot, lambda: any("symbolic link" in message for message in messages(app)), "the refusal")
        assert list(elsewhere.iterdir()) == []


async def test_a_deeply_nested_settings_file_starts_the_app_on_the_defaults_and_says_why(
    make_app: Callable[..., CombatApp], tmp_path: Path
) -> None:
    from tui_combat.screens.sessions import SessionsScreen

    settings = tmp_path / "settings.toml"
    settings.write_text('theme = "nord"\nx = ' + "[" * 5000 + "\n", encoding="utf-8")
    app = make_app(settings_path=settings)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen), "the session list")
        await until(
            pilot,
            lambda: any(
                str(settings) in message and "line 2" in message and "nested" in message for message in messages(app)
            ),
            "the settings problem",
        )
        assert app.theme != "nord"  # the defaults: nothing of the broken file is used
