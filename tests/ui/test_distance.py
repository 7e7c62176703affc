"""The encounter distance on the surprise screen, from the keyboard at 80×24.

The rows offered are those that apply to the surprise result (AD&D 2e, DMG): nobody surprised → the
terrain rows only (smoke or heavy fog 6d6 ft, jungle 1d10 × 10 ft, light forest 2d6 × 10 ft, scrub
2d12 × 10 ft, grassland 5d10 × 10 ft, the limit of sight given by the GM); one side surprised → 4d6 ft
alone. A row without dice asks the GM for his figure. Every die is typed from "physical dice".
"""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from tests.ui.steps import SIZE, dialog_error, store, to_surprise, until_form, until_setup, visible_text
from tests.waiting import until, until_screen
from tui_combat.app import CombatApp
from tui_combat.engine.encounter import ENCOUNTER_DIR
from tui_combat.engine.log import render
from tui_combat.screens.dialogs import ChoiceDialog, FormDialog
from tui_combat.screens.setup import SetupScreen
from tui_combat.screens.surprise import SurpriseScreen

TERRAIN = [
    "smoke or heavy fog — 6d6 ft",
    "jungle or dense forest — 1d10 × 10 ft",
    "light forest — 2d6 × 10 ft",
    "scrub or brush — 2d12 × 10 ft",
    "grassland — 5d10 × 10 ft",
    "night or dungeon: limit of sight — the GM gives the figure",
]


MakeApp = Callable[..., CombatApp]


def last_log(app: CombatApp) -> str:
    return store(app).state.log_entries()[-1].text


def distance(app: CombatApp) -> str:
    rolled = store(app).state.distance
    return "" if rolled is None else render(rolled)


def summary(app: CombatApp) -> str:
    return visible_text(app.screen.query_one("#surprise-summary", Static))


async def nobody_surprised(pilot: Pilot[None], party: str, monsters: str) -> None:
    """``t`` and both sides' surprise d10s typed (4 or more: not surprised)."""
    app = pilot.app
    assert isinstance(app, CombatApp)
    await pilot.press("t")
    assert isinstance(app.screen, FormDialog), type(app.screen).__name__
    await pilot.press(party, "enter", monsters, "enter")
    assert isinstance(app.screen, SurpriseScreen), dialog_error(app)
    assert store(app).state.surprised == ()


async def offered(pilot: Pilot[None]) -> list[str]:
    """``g``: the rows of the choice that opens, as the GM reads them."""
    await pilot.press("g")
    screen = await until_screen(pilot, ChoiceDialog, "the distance choice")
    options = screen.query_one(OptionList)
    await until(pilot, lambda: options.option_count > 0, "the choice's rows")
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def test_adnd_offers_the_terrain_rows_when_nobody_is_surprised(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_surprise(pilot)
        await nobody_surprised(pilot, "5", "8")
        assert "g: 6 situations" in summary(app)

        rows = await offered(pilot)
        assert rows == TERRAIN
        assert app.screen.query_one(OptionList).highlighted == 0  # the first applicable row

        # Light forest, 2d6 × 10 ft: the dice show 7 → 70 ft.
        await pilot.press("down", "down", "enter")
        form = app.screen
        assert isinstance(form, FormDialog), type(form).__name__
        assert form.title_text == "Encounter distance: light forest"
        await pilot.press("7", "enter")
        assert isinstance(app.screen, SurpriseScreen), dialog_error(app)
        assert distance(app) == "70 ft"
        assert last_log(app) == "Distance (light forest): 2d6 (typed): 7 × 10 = 70 ft."
        assert "Distance: 70 ft" in summary(app)

        # The limit of sight: the GM's own figure, refused until it is a whole number from 1 up.
        rows = await offered(pilot)
        await pilot.press(*["down"] * 5, "enter")
        assert isinstance(app.screen, FormDialog), type(app.screen).__name__
        assert app.screen.title_text == "Encounter distance: night or dungeon: limit of sight"
        await pilot.press("enter")
        assert "a whole number from 1 to 9999" in dialog_error(app)
        await pilot.press("s", "i", "x", "enter")
        assert "is not a whole number" in dialog_error(app)
        await pilot.press("backspace", "backspace", "backspace", "0", "enter")
        assert "a whole number from 1 to 9999" in dialog_error(app)
        await pilot.press("backspace", "6", "0", "enter")
        assert isinstance(app.screen, SurpriseScreen), type(app.screen).__name__
        assert distance(app) == "60 ft"
        assert last_log(app) == "Distance (night or dungeon: limit of sight): 60 ft, as the GM gives it."
        assert store(app).state.log_entries()[-1].facts == {"distance": 60}


async def test_adnd_offers_only_the_surprise_row_once_a_side_is_surprised(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_surprise(pilot)
        await nobody_surprised(pilot, "5", "8")
        # The GM rules the party surprised (s on the first row): the offer follows at once.
        await pilot.press("s")
        await until(pilot, lambda: store(app).state.surprised, "the party ruled surprised")
        assert {store(app).state.combatant(c).name for c in store(app).state.surprised} == {
            "Raf",
            "Rupert",
            "Delsenora",
        }
        assert "g: one side surprised" in summary(app)

        # One row applies, 4d6 ft: its form opens without a choice. 25 cannot be a 4d6 total (4 to 24);
        # the dice show 3 + 4 + 5 + 2 = 14 → 14 ft.
        await pilot.press("g")
        await until_form(pilot, "the distance form")
        assert app.screen.title_text == "Encounter distance: one side surprised"
        await pilot.press("2", "5", "enter")
        assert "from 4 to 24" in dialog_error(app)
        await pilot.press("backspace", "backspace", "1", "4", "enter")
        assert isinstance(app.screen, SurpriseScreen), dialog_error(app)
        assert distance(app) == "14 ft"
        assert last_log(app) == "Distance (one side surprised): 4d6 (typed): 14 × 1 = 14 ft."


async def test_players_option_limit_of_vision_takes_the_gms_squares(make_app: MakeApp) -> None:
    app = make_app(encounter=ENCOUNTER_DIR / "demo_players_option.toml")
    async with app.run_test(size=SIZE) as pilot:
        await until_setup(pilot)
        await pilot.press("c")
        await until_screen(pilot, SurpriseScreen, "the surprise screen")
        await nobody_surprised(pilot, "5", "6")

        rows = await offered(pilot)
        assert rows == [
            "smoke or thick fog — 1d8 squares of 5 ft",
            "dense forest or jungle — 2d10 squares of 5 ft",
            "light forest — 4d6 squares of 5 ft",
            "brush or scrub — 4d12 squares of 5 ft",
            "field or plain — 10d6 squares of 5 ft",
            "dungeon or night: limit of vision (the GM's squares) — the GM gives the figure",
            "no cover: long range of the longest missile weapon (the GM's squares) — the GM gives the figure",
        ]
        await pilot.press(*["down"] * 5, "enter")
        assert isinstance(app.screen, FormDialog), type(app.screen).__name__
        await pilot.press("1", "2", "enter")
        assert isinstance(app.screen, SurpriseScreen), dialog_error(app)
        assert distance(app) == "12 squares of 5 ft"
        assert last_log(app) == (
            "Distance (dungeon or night: limit of vision (the GM's squares)): 12 squares of 5 ft, as the GM gives it."
        )


async def test_ose_offers_the_short_wilderness_row_once_a_side_is_surprised(make_app: MakeApp) -> None:
    """OSE: dungeon 2d6 × 10 ft, wilderness 4d6 × 10 yards, or 1d4 × 10 yards when a side is surprised."""
    app = make_app(encounter=ENCOUNTER_DIR / "demo_ose.toml")
    async with app.run_test(size=SIZE) as pilot:
        await until_screen(pilot, SetupScreen, "the set-up of the OSE demo")
        await pilot.press("c")
        await until_screen(pilot, SurpriseScreen, "the surprise screen")
        assert await offered(pilot) == ["dungeon — 2d6 × 10 ft", "wilderness — 4d6 × 10 yards"]
        await pilot.press("escape")
        await until_screen(pilot, SurpriseScreen, "the surprise screen again")
        await pilot.press("s")  # the party (the first row's side) is surprised
        await until(pilot, lambda: bool(store(app).state.surprised), "the party surprised")
        assert await offered(pilot) == ["dungeon — 2d6 × 10 ft", "wilderness, a side surprised — 1d4 × 10 yards"]
        await pilot.press("down", "enter")
        form = await until_screen(pilot, FormDialog, "the distance form")
        assert form.title_text == "Encounter distance: wilderness, a side surprised"
        await pilot.press("5", "enter")
        await until(pilot, lambda: "from 1 to 4" in dialog_error(app), "5 refused for 1d4")
        await pilot.press("backspace", "3", "enter")
        await until_screen(pilot, SurpriseScreen, "the surprise screen after the distance")
        assert distance(app) == "30 yards"
        assert last_log(app) == "Distance (wilderness, a side surprised): 1d4 (typed): 3 × 10 = 30 yards."
