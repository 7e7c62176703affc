"""Bad input never crashes: odd digits and endless numbers in the amount fields, names full of markup
shown as they are wherever they appear, and encounter files that are not UTF-8."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from textual import events
from textual.widgets import DataTable

from tests.ui.fights import messages, opened, saved_round, until
from tests.ui.steps import (
    SIZE,
    amount_prompt,
    prompt_error,
    prompt_line,
    store,
    until_sessions,
    until_setup,
    visible_text,
)
from tui_combat import __main__ as cli
from tui_combat.app import CombatApp
from tui_combat.engine.contract import FieldSpec
from tui_combat.screens.dialogs import MAX_DIGITS, convert_fields
from tui_combat.screens.round import RoundScreen, read_amount
from tui_combat.screens.sessions import SessionsScreen
from tui_combat.screens.setup import SetupScreen, split_group
from tui_combat.widgets.order_list import OrderList
from tui_combat.widgets.phase_bar import PhaseBar
from tui_combat.widgets.redraw import LogView

ENDLESS = "9" * 5000
RAF = "Raf [/]"
BOLD = "[b]Bold[/b]"


class Faces(random.Random):
    """Dice that show the faces we choose."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


# -- the amount of damage or healing, and every whole-number field ------------------------------------------
@pytest.mark.parametrize("typed", ["²", "①", "٣", "3²", "+", "1e3", "0x10", ENDLESS, "1" * (MAX_DIGITS + 1)])
def test_an_amount_that_is_no_number_is_a_message(typed: str) -> None:
    result = read_amount(typed, random.Random(1))
    assert isinstance(result, str) and result, result
    assert len(result) < 300  # the message quotes the input cut short, never 5,000 digits


def test_an_amount_is_a_number_or_dice() -> None:
    assert read_amount(" +7 ", random.Random(1)) == {"amount": 7, "roll": None}
    assert read_amount("9999", random.Random(1)) == {"amount": 9999, "roll": None}
    assert read_amount("10000", random.Random(1)) == "Amount: a number from 0 to 9999."
    assert read_amount("-3", random.Random(1), "Damage") == "Damage cannot be negative."
    rolled = read_amount("2d6+1", Faces(3, 4))
    assert isinstance(rolled, dict) and rolled["amount"] == 8 and rolled["roll"].faces == (3, 4)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("12", 12),
        ("-3", -3),
        ("−3", -3),
        ("+4", 4),
        ("", 2),
        ("-", 2),
        ("  5 ", 5),
        ("9999", 9999),
        ("-999", -999),
    ],
)
def test_a_whole_number_field_reads_ascii_digits(typed: str, expected: int) -> None:
    assert convert_fields([FieldSpec(key="n", label="N", kind="int", default=2)], {"n": typed}) == {"n": expected}


@pytest.mark.parametrize(
    "typed", ["²", "①", "٣", "1.5", "x", ENDLESS, "-" + ENDLESS, "1" * (MAX_DIGITS + 1), "10000", "-1000"]
)
def test_a_whole_number_field_refuses_the_rest_with_a_message(typed: str) -> None:
    result = convert_fields([FieldSpec(key="n", label="N", kind="int", default=2)], {"n": typed})
    assert isinstance(result, str) and result.startswith("N: "), result
    assert len(result) < 120


def test_a_group_count_of_endless_digits_is_part_of_the_name() -> None:
    assert split_group("12 orc") == (12, "Orc")
    assert split_group(ENDLESS + " orc") == (1, ENDLESS + " orc")


async def test_odd_digits_in_the_damage_field(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    saved_round(data_root, "ambush", ["Raf", "Ada"], 3)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        raf = app.screen.selected()
        assert raf is not None and store(app).state.combatant(raf).name == "Raf"
        for typed in ("²", "①"):
            await pilot.press("d", typed, "enter")
            assert f'Cannot read "{typed}"' in prompt_error(app), prompt_error(app)
            await pilot.press("escape")
        await pilot.press("h")
        app.post_message(events.Paste(ENDLESS))  # as the terminal hands on a paste
        await until(pilot, lambda: amount_prompt(app).value == ENDLESS, "the pasted digits in the prompt")
        await pilot.press("enter")
        assert prompt_error(app) == f"Healing: a whole number of at most {MAX_DIGITS} digits."
        await pilot.press("escape", "d", "7", "enter")
        assert isinstance(app.screen, RoundScreen) and not app.screen.amount_prompt.is_open
        assert store(app).state.combatant(raf).hp == 13
        await pilot.press("q")
    assert app.return_code == 0


# -- names are text, never markup -------------------------------------------------------------------------
async def test_names_with_markup_are_shown_as_they_are(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    saved_round(data_root, "markup", [RAF, BOLD], 2, monster_name="[red]Orc")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until_sessions(pilot)
        table = app.screen.query_one(DataTable)
        await until(pilot, lambda: table.get_row("markup"), "the saved fight's row")
        assert str(table.get_row("markup")[0]) == "Ambush"
        await pilot.press("enter")
        await opened(pilot)
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        order = visible_text(screen.query_one(OrderList))
        assert f"  {RAF}  20/20" in order and f"  {BOLD}  20/20" in order and "  [red]Orc 1  8/8" in order, order
        assert visible_text(screen.query_one("#card-head")).strip().startswith(f"{RAF}  Party  HP 20/20"), visible_text(
            screen.query_one("#card-head")
        )

        await pilot.press("d")
        assert prompt_line(app, "title") == f"Damage to {RAF}"
        await pilot.press("3", "enter")
        log = visible_text(screen.query_one(LogView))
        assert RAF in log, log

        await pilot.press("down")  # Bold, whose name would turn bold as markup
        assert visible_text(screen.query_one("#card-head")).strip().startswith(BOLD)
        await pilot.press("n")  # the monsters' turn: the phase bar names the slot, the card the first orc
        assert "▶ 7" in visible_text(screen.query_one(PhaseBar))
        assert visible_text(screen.query_one("#card-head")).strip().startswith("[red]Orc 1")

        await pilot.press("ctrl+s", "ctrl+a", "ctrl+k", *"[/]x", "enter")  # save as a name that is bad markup
        await until(pilot, lambda: store(app).state.name == "[/]x", "the new name")
        assert messages(app)[-1] == "Saved as [/]x."
        await pilot.press("escape")
        await until_sessions(pilot)
        await until(pilot, lambda: app.screen.query_one(DataTable).get_row("x"), "the row of the fight saved as [/]x")
        assert str(app.screen.query_one(DataTable).get_row("x")[0]) == "[/]x"
        await pilot.press("q")
    assert app.return_code == 0


async def test_a_group_named_with_markup_in_the_set_up(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")  # a new, empty fight
        await until_setup(pilot, empty=True)
        await pilot.press("a", *f"2 {RAF}", "ctrl+s")
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, SetupScreen) and f"{RAF} ×2" in visible_text(app.screen.query_one(DataTable))
            ),
            "the group's rows",
        )
        shown = visible_text(app.screen.query_one(DataTable))
        assert f"{RAF} 1" in shown and f"{RAF} 2" in shown and f"{RAF} ×2" in shown, shown
        await pilot.press("ctrl+q")
    assert app.return_code == 0


# -- encounter files that are not UTF-8 ---------------------------------------------------------------------
@pytest.fixture
def latin1(tmp_path: Path) -> Path:
    path = tmp_path / "ford.toml"
    path.write_bytes('name = "Gué de la rivière"\nruleset = "adnd2e"\n'.encode("latin-1"))
    return path


@pytest.mark.parametrize("command", ["new", "check"])
def test_the_command_line_says_the_file_is_not_utf8(
    command: str, latin1: Path, data_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["--data-dir", str(data_root), command, str(latin1)]) == 2
    assert capsys.readouterr().err.strip() == f"{latin1} is not UTF-8 text."
    assert not (data_root / "sessions").exists()


async def test_the_app_says_the_file_is_not_utf8(make_app: Callable[..., CombatApp], latin1: Path) -> None:
    app = make_app(encounter=latin1)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: bool(messages(app)), "the message")
        assert messages(app) == [f"{latin1} is not UTF-8 text."]
        assert app.store is None and isinstance(app.screen, SessionsScreen)
