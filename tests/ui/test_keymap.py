"""The GM's keymap at 80×24: ``[keys]`` in ``settings.toml`` moves a binding to other keys (the round goes on
with the new key, not the old one; the footer, the help and the hint line name the new key); a wrong entry is
reported with its file and line, and that binding keeps its own keys."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.ui.fights import help_closed, messages, until_help
from tests.ui.steps import SIZE, store, to_round, until_footer, until_sessions, until_setup
from tests.waiting import until
from tui_combat.app import CombatApp
from tui_combat.engine import keys
from tui_combat.screens.round import RoundScreen
from tui_combat.widgets.footer import KeyFooter, shown_keys
from tui_combat.widgets.lines import TextLines


@pytest.fixture(autouse=True)
def no_keymap_after() -> Iterator[None]:
    yield
    keys.use_keymap({})


def settings_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "settings.toml"
    path.write_text(text, encoding="utf-8")
    return path


def footer_text(app: CombatApp) -> str:
    """The footer's keys as drawn: "y Next d Damage …"."""
    return " ".join(key.label for key in shown_keys(app.screen.query_one(KeyFooter)))


def hint(app: CombatApp) -> str:
    return str(app.screen.query_one("#step-hint", TextLines).render())


def step(app: CombatApp) -> tuple[int, int]:
    state = store(app).state
    return state.round, state.step


async def test_next_moved_to_another_key(make_app: Callable[..., CombatApp], tmp_path: Path) -> None:
    path = settings_file(tmp_path, '[keys]\n"round.next" = "y"\n')
    app = make_app(settings_path=path)
    async with app.run_test(size=SIZE) as pilot:
        assert messages(app) == []  # nothing wrong to report
        await to_round(pilot)
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        assert step(app) == (1, 0)
        assert hint(app).startswith("e on each combatant, y when done · ")  # the hint line names the key in force
        await pilot.press("n", "space")  # the old keys do nothing now
        assert step(app) == (1, 0)
        await pilot.press("y")
        assert step(app) == (1, 1)
        await pilot.press("y")
        assert step(app) == (1, 2)
        # The footer draws "y Next" (and no "n" for it), from the bindings Textual has in force.
        await until_footer(pilot)
        assert "y Next" in footer_text(app)
        assert "n Next" not in footer_text(app)
        active = {binding.binding.id: key for key, binding in screen.active_bindings.items()}
        assert active["round.next"] == "y"
        # The help lists Next under y.
        await pilot.press("f1")
        rows = {description: keys for keys, description in await until_help(pilot)}
        assert rows["Next"] == "y"
        assert rows["Settings"] == "f3"


async def test_wrong_entries_are_reported_and_the_defaults_stay(
    make_app: Callable[..., CombatApp], tmp_path: Path
) -> None:
    path = settings_file(
        tmp_path,
        '# my keys\n[keys]\n"round.nxt" = "y"\n"round.next" = "d"\n"round.damage" = "ctrl+"\n"round.undo" = "ctrl+z"\n',
    )
    app = make_app(settings_path=path)
    async with app.run_test(size=SIZE) as pilot:
        assert messages(app) == [
            f'{path}, line 3: no action is called "round.nxt". Did you mean "round.next"?',
            f"{path}, line 4: d for Next is already the key of Damage "
            f"on the round (AD&D 2nd edition). Next keeps n, space.",
            f'{path}, line 5: "ctrl+" is not a key (keys are written '
            f"like j, J, ctrl+j, f5, space, escape, question_mark). "
            "Damage keeps d.",
        ]
        assert app._keymap == {"round.undo": "ctrl+z"}  # the good entry is used
        await to_round(pilot)
        await pilot.press("n")  # Next keeps its own keys
        assert step(app) == (1, 1)
        await pilot.press("space")
        assert step(app) == (1, 2)
        await pilot.press("ctrl+z")  # the good entry works: ctrl+z undoes
        assert step(app) == (1, 1)


async def test_a_settings_file_that_is_not_toml_is_reported(make_app: Callable[..., CombatApp], tmp_path: Path) -> None:
    path = settings_file(tmp_path, '[keys\n"round.next" = "y"\n')
    app = make_app(settings_path=path)
    async with app.run_test(size=SIZE) as pilot:
        await until_sessions(pilot)
        (message,) = messages(app)
        assert message.startswith(f"{path} is not valid TOML") and "line 1" in message
        assert app._keymap == {}


async def test_the_theme_of_the_settings_and_a_wrong_one(make_app: Callable[..., CombatApp], tmp_path: Path) -> None:
    app = make_app(settings_path=settings_file(tmp_path, 'theme = "nord"\n'))
    async with app.run_test(size=SIZE) as pilot:
        await until_sessions(pilot)
        assert app.theme == "nord" and messages(app) == []
    path = settings_file(tmp_path, 'language = "en"\ntheme = "no such theme"\n')
    app = make_app(settings_path=path)
    async with app.run_test(size=SIZE) as pilot:
        await until_sessions(pilot)
        (message,) = messages(app)
        assert message.startswith(f'{path}, line 2: there is no theme called "no such theme". The themes are: ')
        assert "nord" in message and app.theme == "textual-dark"


async def test_the_session_list_and_set_up_name_the_keys_in_force(
    make_app: Callable[..., CombatApp], tmp_path: Path
) -> None:
    path = settings_file(tmp_path, '[keys]\n"sessions.new" = "N"\n"setup.add" = "A"\n')
    app = make_app(settings_path=path)
    async with app.run_test(size=SIZE) as pilot:
        await until_sessions(pilot)
        assert messages(app) == []
        shown = " ".join(str(app.screen.query_one("#sessions-hint").render()).split())
        assert "or N for a new fight" in shown, shown
        await pilot.press("enter")  # the demo's set-up
        await until_setup(pilot)
        shown = " ".join(str(app.screen.query_one("#setup-hint").render()).split())
        assert shown.startswith("A adds a combatant"), shown


def help_rows(app: CombatApp) -> dict[str, str]:
    screen = app.screen
    assert isinstance(screen, RoundScreen)
    return {description: keys for keys, description in screen.help_panel.rows}


async def test_the_help_opened_again_is_the_same_and_shows_a_key_moved_meanwhile(
    make_app: Callable[..., CombatApp],
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        round_screen = app.screen
        await pilot.press("f1")
        await until_help(pilot)
        await until(pilot, lambda: help_rows(app).get("Next") == "n, space", "the help's rows")
        await pilot.press("escape")
        await until(pilot, lambda: help_closed(app), "the round again")
        keys.use_keymap({"round.next": "y"})  # as the settings screen moves a key
        app.set_keymap({"round.next": "y"})
        await pilot.press("f1")
        await until_help(pilot)
        assert app.screen is round_screen
        await until(
            pilot,
            lambda: help_rows(app).get("Next") == "y",
            "Next under its new key",
            describe=lambda: str(help_rows(app)),
        )
        await pilot.press("escape")
        await until(pilot, lambda: help_closed(app), "the round again")


async def test_a_moved_key_keeps_its_place_in_the_footer(tmp_path: Path) -> None:
    """Next moved to y stays first in the footer, where n was: the keys come in the order they are written,
    not with the moved one last."""

    async def footer_words(settings: Path | None, data: Path) -> list[str]:
        app = CombatApp(data, seed=1, settings_path=settings)
        async with app.run_test(size=SIZE) as pilot:
            await to_round(pilot)
            await until_footer(pilot)
            keys = [key for key in shown_keys(app.screen.query_one(KeyFooter)) if not key.palette]
            return [key.label for key in sorted(keys, key=lambda key: key.region.x)]  # as drawn, left to right

    written = await footer_words(None, tmp_path / "plain")
    moved = await footer_words(settings_file(tmp_path, '[keys]\n"round.next" = "y"\n'), tmp_path / "moved")
    assert written[0] == "n Next" and moved[0] == "y Next", (written, moved)
    assert [word.split(" ", 1)[1] for word in moved] == [word.split(" ", 1)[1] for word in written], (written, moved)
