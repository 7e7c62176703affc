"""Every way in honours "Hidden from the players", and what names a secret is held until the GM shows it, at
80×24: the add form's tick carried into the library picker (``i``, tick, ``ctrl+l``, pick), ``l`` in set-up with
``ctrl+g``; an effect named after a spell the monsters declared in secret is held, marked, and ``S`` shows it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from msgspec.structs import replace
from textual.widgets import Checkbox, Static

from tests.ui.fights import opened
from tests.ui.steps import (
    SIZE,
    combatant_id,
    footer_text,
    log_texts,
    open_demo,
    select,
    store,
    until_closed,
    until_form,
    visible_text,
)
from tests.ui.test_attack_flow import fight
from tests.ui.test_player_view import shown
from tests.waiting import until, until_screen
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.fight.store import Store
from tui_combat.saves.locations import sessions_dir
from tui_combat.screens.library import LibraryPicker
from tui_combat.screens.player_view import PlayerViewApp
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.setup import SetupScreen
from tui_combat.widgets.glyphs import glyph


async def test_a_monster_picked_from_the_library_with_hidden_ticked_stays_hidden(
    make_app: Callable[..., CombatApp], data_root: Path, tmp_path: Path
) -> None:
    Store.create(fight("adnd2e"), sessions_dir(data_root) / "hammer").close()
    app = make_app(resume="hammer")
    viewer = PlayerViewApp(
        data_root, "hammer", settings_path=tmp_path / "none.toml", poll_seconds=0.02, handle_hangup=False
    )
    async with app.run_test(size=SIZE) as pilot, viewer.run_test(size=SIZE) as view:
        await opened(pilot)
        await select(pilot, combatant_id(app, "Orc 1"))
        await pilot.press("i")
        form = await until_form(pilot, "the add form")
        form.query(Checkbox).last().focus()  # "Hidden from the players"
        await pilot.press("space", "ctrl+l")
        picker = await until_screen(pilot, LibraryPicker, "the library picker")
        assert picker.hidden and "Hidden from the players" in str(picker.query_one("#library-hidden", Static).render())
        await pilot.press(*"ogre", "enter")
        await until(pilot, lambda: any(c.name == "Ogre" for c in store(app).state.combatants), "the ogre added")
        assert store(app).state.combatant(combatant_id(app, "Ogre")).hidden
        await select(pilot, combatant_id(app, "Raf"))  # an action after: the view reads a state with the ogre in it
        await pilot.press("d", "1", "enter")
        await until(view, lambda: "Raf  37/38" in shown(viewer), "the players seeing Raf hurt")
        assert "Ogre" not in shown(viewer)


async def test_l_in_set_up_adds_hidden_with_ctrl_g(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("l")
        picker = await until_screen(pilot, LibraryPicker, "the library picker")
        assert not picker.hidden
        await pilot.press("ctrl+g", *"ogre", "enter")
        await until_screen(pilot, SetupScreen, "back in set-up")
        ogre = next(c for c in store(app).state.combatants if c.name.startswith("Ogre"))
        assert ogre.hidden


async def test_an_effect_named_after_a_secret_is_held_and_s_shows_it(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    state = fight("adnd2e")
    orc = next(c.id for c in state.combatants if c.name == "Orc 1")
    state = replace(apply(state, a.AddEffect(combatant=orc, name="Stunned", rounds=1)), secret_words=("Cloudkill",))
    Store.create(state, sessions_dir(data_root) / "hammer").close()
    app = make_app(resume="hammer")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        assert isinstance(app.screen, RoundScreen)
        assert "Show held" not in footer_text(app)
        raf = combatant_id(app, "Raf")
        await select(pilot, raf)
        await pilot.press("E")
        form = await until_form(pilot, "the effect form")
        await pilot.press(*"Cloudkill fog", "enter", "ctrl+u", "2", "ctrl+s")
        await until_closed(pilot, form, "the effect put on")
        await until(pilot, lambda: store(app).state.effects and store(app).state.effects[-1].held, "the effect held")
        assert store(app).state.log_entries()[-1].held and "Raf: Cloudkill fog" in log_texts(app)[-1]
        await until(pilot, lambda: "Raf: Cloudkill fog" in visible_text(app.screen.query_one("#log")), "the line shown")
        assert glyph("🔒") in visible_text(app.screen.query_one("#log"))
        await until(pilot, lambda: "Show held" in footer_text(app), "S in the footer")
        await pilot.press("S")
        await until(pilot, lambda: not store(app).state.effects[-1].held, "the effect shown to the players")
        assert "Show held" not in footer_text(app)
