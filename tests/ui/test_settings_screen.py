"""The settings screen (f3) at 80×24, driven by keys: the theme changes at once, a key is changed by Enter then
the new key (one already used where the action runs is refused with the reason), the players' screen's words
are kept; every change is written to settings.toml at once, keeping what the screen does not show."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, Select, Static

from tests.ui.steps import SIZE, store, to_round
from tests.waiting import until
from tui_combat.app import CombatApp
from tui_combat.engine import keys
from tui_combat.engine.public import HealthScale
from tui_combat.screens.player_view import load_settings
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.sessions import SessionsScreen
from tui_combat.screens.settings import SettingsScreen
from tui_combat.widgets.footer import KeyFooter, shown_keys
from tui_combat.widgets.lines import TextLines


@pytest.fixture(autouse=True)
def no_keymap_after() -> Iterator[None]:
    yield
    keys.use_keymap({})


def message(app: CombatApp) -> str:
    return str(app.screen.query_one("#settings-message", Static).render())


def key_cell(app: CombatApp, binding_id: str) -> str:
    table = app.screen.query_one("#settings-keys", DataTable)
    return str(table.get_row(binding_id)[0])


async def to_row(pilot: object, app: CombatApp, binding_id: str) -> None:
    """Focus the keys' list and move its cursor to ``binding_id``'s row."""
    table = app.screen.query_one("#settings-keys", DataTable)
    table.focus()
    await until(pilot, lambda: table.has_focus and table.row_count > 0, "the keys' list focused")  # type: ignore[arg-type]
    target = table.get_row_index(binding_id)
    key = "down" if target > table.cursor_row else "up"
    await pilot.press(*[key] * abs(target - table.cursor_row))  # type: ignore[attr-defined]
    assert table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value == binding_id


async def test_theme_and_key_changed_and_saved(make_app: Callable[..., CombatApp], tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('language = "en"\nmy_own_note = "kept"\n[keys]\n"sessions.demo" = "D"\n', encoding="utf-8")
    app = make_app(settings_path=path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3")
        assert isinstance(app.screen, SettingsScreen)
        assert app.focused is app.screen.query_one("#settings-theme", Select)
        assert app.theme == "textual-dark"
        await pilot.press("enter", "down", "enter")  # the next theme of the list
        assert app.theme == "textual-light"
        assert tomllib.loads(path.read_text(encoding="utf-8"))["theme"] == "textual-light"

        await to_row(pilot, app, "round.next")
        assert key_cell(app, "round.next") == "n, space"
        await pilot.press("enter", "d")  # d is Damage's
        assert message(app) == (
            "d for Next is already the key of Damage on the round (AD&D 2nd edition). Press another key, or Esc."
        )
        assert key_cell(app, "round.next") == "n, space"
        await pilot.press("y")
        assert key_cell(app, "round.next") == "y"
        assert message(app) == "Next: y, saved."
        assert app._keymap == {"sessions.demo": "D", "round.next": "y"}
        assert tomllib.loads(path.read_text(encoding="utf-8")) == {
            "language": "en",
            "my_own_note": "kept",
            "theme": "textual-light",
            "keys": {"sessions.demo": "D", "round.next": "y"},
        }
        # Delete gives Demo its own key back.
        await to_row(pilot, app, "sessions.demo")
        await pilot.press("delete")
        assert key_cell(app, "sessions.demo") == "d"
        assert tomllib.loads(path.read_text(encoding="utf-8"))["keys"] == {"round.next": "y"}

        await pilot.press("escape")
        assert isinstance(app.screen, SessionsScreen)
        await to_round(pilot)
        assert (store(app).state.round, store(app).state.step) == (1, 0)
        await pilot.press("n")
        assert store(app).state.step == 0
        await pilot.press("y")
        assert store(app).state.step == 1


async def test_the_gm_s_comments_and_key_order_survive_the_settings_screen(
    make_app: Callable[..., CombatApp], tmp_path: Path
) -> None:
    path = tmp_path / "settings.toml"
    written = (
        '# Our table\nlanguage = "en"  # the players read English\ntheme = "textual-dark"  # for the evening\n'
        'my_own_note = "kept"\n\n# keys I moved\n[keys]\n"sessions.demo" = "D"  # D for demo\n'
    )
    path.write_text(written, encoding="utf-8")
    app = make_app(settings_path=path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3")
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press("enter", "down", "enter")  # the next theme of the list
        await to_row(pilot, app, "round.next")
        await pilot.press("enter", "y")
        assert message(app) == "Next: y, saved."
    assert (
        path.read_text(encoding="utf-8")
        == written.replace('"textual-dark"', '"textual-light"') + '"round.next" = "y"\n'
    )


async def test_escape_while_waiting_for_a_key_leaves_it(make_app: Callable[..., CombatApp], tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    app = make_app(settings_path=path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3")
        await to_row(pilot, app, "round.next")
        await pilot.press("enter")
        assert message(app) == "Press the new key for Next (Esc: leave it as it is)."
        await pilot.press("escape")
        assert isinstance(app.screen, SettingsScreen)  # Esc gave up the key, it did not close the screen
        assert message(app) == "The key stays as it was."
        assert key_cell(app, "round.next") == "n, space"
        assert not path.exists()  # nothing changed, nothing written
        await pilot.press("escape")
        assert isinstance(app.screen, SessionsScreen)


async def test_the_players_screens_words(make_app: Callable[..., CombatApp], tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    app = make_app(settings_path=path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3")
        app.screen.query_one("#word-bloodied", Input).focus()
        await pilot.press(*"reeling", "enter")
        assert tomllib.loads(path.read_text(encoding="utf-8")) == {"health": {"words": {"bloodied": "reeling"}}}
        assert load_settings(path) == (HealthScale(words={"bloodied": "reeling"}), "")
        number = app.screen.query_one("#number-bloodied_at", Input)
        number.focus()
        await pilot.press("end", "backspace", "backspace", "7", "0", "enter")  # 50 → 70
        assert load_settings(path) == (HealthScale(bloodied_at=70, words={"bloodied": "reeling"}), "")
        wounded = app.screen.query_one("#number-wounded_below", Input)
        wounded.focus()
        await pilot.press("end", "backspace", "backspace", "backspace", "6", "0", "enter")
        assert message(app) == "Bloodied at cannot be above wounded below."
        assert load_settings(path) == (HealthScale(bloodied_at=70, words={"bloodied": "reeling"}), "")


async def test_settings_are_in_help(make_app: Callable[..., CombatApp], tmp_path: Path) -> None:
    app = make_app(settings_path=tmp_path / "settings.toml")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        table = app.screen.query_one(DataTable)
        rows = [tuple(str(cell) for cell in table.get_row_at(index)) for index in range(table.row_count)]
        assert ("f3", "Settings") in rows


async def test_a_key_changed_over_the_round_shows_when_back(make_app: Callable[..., CombatApp], tmp_path: Path) -> None:
    app = make_app(settings_path=tmp_path / "settings.toml")
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        await pilot.press("f3")
        await to_row(pilot, app, "round.next")
        await pilot.press("enter", "y", "escape")
        assert isinstance(app.screen, RoundScreen)
        footer = " ".join(key.label for key in shown_keys(app.screen.query_one(KeyFooter)))
        assert "y Next" in footer and "n Next" not in footer
        assert str(app.screen.query_one("#step-hint", TextLines).render()).startswith(
            "e on each combatant, y when done"
        )
        await pilot.press("y")
        assert store(app).state.step == 1


async def test_a_file_that_is_not_toml_is_not_overwritten(make_app: Callable[..., CombatApp], tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('theme = "nord\n', encoding="utf-8")
    app = make_app(settings_path=path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3")
        await pilot.press("enter", "down", "enter")
        assert app.theme == "textual-light"  # in force for this run
        assert message(app).startswith(f"Not saved: {path} is not valid TOML")
        assert path.read_text(encoding="utf-8") == 'theme = "nord\n'
