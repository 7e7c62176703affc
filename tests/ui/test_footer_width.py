"""The footer at 60 and 80 columns: the palette key (^p) at the right edge, drawn once; no key cut or hidden
under it; help (F1) always shown whole; and at 80 columns, in English, Russian and Ukrainian, every key that
applies on the session list, the set-up and the Player's Option resolve step (the others are in help and the
palette, and a row too full for all its keys leaves out the last ones, never help).

The footer composes its keys a refresh after the screen's bindings are known (a busy machine shows an empty
or a stale footer for a while): each screen's footer is read once it shows that screen's keys, laid out."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from tests.i18n.interface import interface_in
from tests.i18n.interface import make_app as make_app_in
from tests.ui.fights import saved_round
from tests.ui.steps import (
    footer_text,
    to_round_from_setup,
    until_closed,
    until_footer,
    until_form,
    until_round,
    until_setup,
    visible_text,
)
from tests.ui.test_damaged_list import damaged_session
from tests.waiting import settled, until, until_screen
from tui_combat.app import CombatApp
from tui_combat.engine.encounter import ENCOUNTER_DIR
from tui_combat.engine.keys import shown_key
from tui_combat.fight.session import DEMOS
from tui_combat.i18n.catalog import CACHE_ENV_VAR
from tui_combat.screens.sessions import DEMO_PREFIX, SessionsScreen
from tui_combat.widgets.footer import KeyFooter, shown_keys

LANGUAGES = ("en", "ru", "uk")
WIDE = (80, 24)


@pytest.fixture(autouse=True)
def private_catalog_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV_VAR, str(tmp_path_factory.getbasetemp() / "catalog-cache"))


def palette_fits(app: CombatApp, width: int) -> bool:
    keys = [key for key in shown_keys(app.screen.query_one(KeyFooter)) if key.key == "ctrl+p"]
    return len(keys) == 1 and keys[0].region.right <= width and keys[0].region.width > 0


def bottom_line(app: Any) -> str:
    """The footer's row as the terminal shows it, every widget drawn over the others."""
    return str(app.screen._compositor.render_strips()[-1].text)


def footer_faults(app: Any) -> list[str]:
    """What is wrong with the footer as drawn: a key under the palette key, the palette key not at the
    right edge or not drawn as itself there, help missing or cut."""
    width = app.size.width
    keys = shown_keys(app.screen.query_one(KeyFooter))
    palette = [key for key in keys if key.palette]
    if len(palette) != 1:
        return ["no palette key"]
    edge = palette[0].region.x
    found = [
        f"{key.key_display} {key.description} under the palette key"
        for key in keys
        if key is not palette[0] and key.region.right > edge
    ]
    line = bottom_line(app)
    drawn = f"{palette[0].key_display} {palette[0].description}"
    if not line.rstrip().endswith(drawn) or palette[0].region.right != width:
        found.append(f"the palette key is not drawn whole at the edge: {line!r}")
    helps = [key for key in keys if key.action in ("help", "app.help")]
    if (
        len(helps) != 1
        or helps[0].region.width == 0
        or helps[0].region.right > edge
        or f"{helps[0].key_display} {helps[0].description}" not in line
    ):
        found.append(f"help is not shown whole: {line!r}")
    return found


def left_out(app: Any) -> tuple[str, ...]:
    return app.screen.query_one(KeyFooter).left_out


async def footer_whole(pilot: Pilot[Any], *, every_key: bool = True) -> None:
    """The footer of this moment is drawn whole (and, with ``every_key``, leaves out no key)."""
    await until_footer(pilot)
    app = pilot.app
    screen = app.screen
    footer = screen.query_one(KeyFooter)
    # The keys may show the keys of now before their new widths are laid out (a key that takes on another
    # asks for a layout): the row is judged once nothing of it is left to lay out or draw.
    await until(
        pilot,
        lambda: (
            all(settled(node) for node in (screen, footer, *footer.children))
            and not screen._layout_required
            and not screen._dirty_widgets
        ),
        "the footer laid out",
    )
    assert not footer_faults(app), (footer_faults(app), bottom_line(app))
    if every_key:
        assert not left_out(app), (left_out(app), bottom_line(app))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", [(60, 20), WIDE])
@pytest.mark.parametrize("demo", DEMOS, ids=[demo.ruleset for demo in DEMOS])
async def test_the_palette_key_stays_on_screen(demo: object, size: tuple[int, int], lang: str, data_root: Path) -> None:
    """In every ruleset and language, at 60 and 80 columns: help is drawn whole beside the palette key, in the
    set-up and in the round (the footer measures the keys as it draws them)."""
    with interface_in(lang) as module:
        app = make_app_in(module, data_root, encounter=ENCOUNTER_DIR / demo.file_name)  # type: ignore[attr-defined]
        async with app.run_test(size=size) as pilot:
            await until_setup(pilot)
            await footer_whole(pilot, every_key=size == WIDE and lang == "en")
            assert palette_fits(app, size[0]), footer_text(app)
            await pilot.press("c", "c")
            await until_round(pilot)
            await footer_whole(pilot, every_key=False)
            assert palette_fits(app, size[0]), footer_text(app)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_session_list_footer_on_every_kind_of_row(lang: str, data_root: Path) -> None:
    """A saved fight (rename, delete, look back), a damaged one that can be rebuilt (recover) and a demo row."""
    saved_round(data_root, "sound", ["Bo"], 1)
    damaged_session(data_root)  # "ambush", the newest: the first row
    with interface_in(lang) as module:
        app = make_app_in(module, data_root)
        async with app.run_test(size=WIDE) as pilot:
            screen = await until_screen(pilot, SessionsScreen)
            table = screen.query_one(DataTable)
            await until(pilot, lambda: table.row_count == 2 + len(DEMOS), "the session list's rows")
            for row, actions in ((0, {"recover", "delete"}), (1, {"rewind", "rename", "delete"}), (2, {"new"})):
                table.move_cursor(row=row)
                await footer_whole(pilot)
                assert actions <= {key.action for key in shown_keys(app.screen)}, (row, bottom_line(app))
            assert screen.selected_key() == DEMO_PREFIX + DEMOS[0].file_name


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_setup_footer_has_help(lang: str, data_root: Path) -> None:
    with interface_in(lang) as module:
        app = make_app_in(module, data_root, encounter=ENCOUNTER_DIR / "demo_adnd2e.toml")
        async with app.run_test(size=WIDE) as pilot:
            await until_setup(pilot)
            await footer_whole(pilot, every_key=False)
            assert {"add", "begin", "help"} <= {key.action for key in shown_keys(app.screen)}
            # Quit, last before help, is the one key a row too full for the longer words may leave out (Russian,
            # Ukrainian): the line above the footer names it in every language.
            assert set(left_out(app)) <= {"app.quit"}, (left_out(app), bottom_line(app))
            assert f"{shown_key('setup.quit', 'q')} " in visible_text(app.screen.query_one("#setup-hint"))


async def to_resolve(pilot: Pilot[Any]) -> None:
    """The Player's Option demo from set-up to round 1's resolve step, initiative typed (heroes 3, gnolls 7:
    no tie)."""
    app = pilot.app
    await to_round_from_setup(pilot)
    screen = app.screen
    await pilot.press("n", "n")
    await until(pilot, lambda: screen.step_kind() == "initiative", "the initiative step")
    await pilot.press("t")
    form = await until_form(pilot, "the initiative form")
    await pilot.press("3", "enter", "7", "enter")
    await until_closed(pilot, form, "the initiative typed in")
    await until(pilot, lambda: screen.step_kind() == "resolve", "the resolve step")


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_players_option_resolve_step(lang: str, data_root: Path) -> None:
    """Where attack and main action apply (change action is in help and the palette)."""
    with interface_in(lang) as module:
        app = make_app_in(module, data_root, encounter=ENCOUNTER_DIR / "demo_players_option.toml")
        async with app.run_test(size=WIDE) as pilot:
            await to_resolve(pilot)
            await footer_whole(pilot)
            actions = {key.action for key in shown_keys(app.screen)}
            assert {"ruleset('attack')", "ruleset('main_action')", "help"} <= actions, bottom_line(app)


async def test_a_row_too_full_leaves_out_its_last_keys_never_help(make_app: Callable[..., CombatApp]) -> None:
    """The terminal narrowed to 60 columns: the resolve step's keys no longer all fit, the last ones leave the
    row, whole, and help stays; widened again, they are back."""
    app = make_app(encounter=ENCOUNTER_DIR / "demo_players_option.toml")
    async with app.run_test(size=WIDE) as pilot:
        await to_resolve(pilot)
        await footer_whole(pilot)
        everything = [key.action for key in shown_keys(app.screen) if not key.palette]
        await pilot.resize_terminal(60, 20)
        await until(
            pilot, lambda: bool(left_out(app)), "keys left out at 60 columns", describe=lambda: bottom_line(app)
        )
        await footer_whole(pilot, every_key=False)
        shown = [key.action for key in shown_keys(app.screen) if not key.palette]
        assert shown[-1] == "help" and shown[:-1] == everything[: len(shown) - 1], (shown, everything)
        await pilot.resize_terminal(*WIDE)
        await until(pilot, lambda: not left_out(app), "every key back at 80 columns", describe=lambda: bottom_line(app))
        await footer_whole(pilot)
