"""A round of the demo fight driven by real key presses, at the 80×24 size the app is built for.

The dice of round 1 are the seed's (PHB combat chapter): the party rolls 7, the monsters 10, so the
party acts first. Surprise and initiative are typed in "from physical dice", so nothing depends on
the app's own dice except the one damage roll, whose result is worked out from the same seed.
"""

from __future__ import annotations

import random
from pathlib import Path

from textual.widgets import DataTable

from tests.ui.fights import help_closed, until_help
from tests.ui.steps import (
    MONSTERS,
    PARTY,
    SEED,
    SIZE,
    amount_prompt,
    choose,
    combatant_id,
    dialog_error,
    open_demo,
    open_form_of,
    prompt_error,
    session_folders,
    store,
    to_round,
    type_initiative,
    until_closed,
    until_form,
    visible_text,
)
from tests.waiting import until
from tui_combat.engine.dice import parse, roll
from tui_combat.engine.log import render
from tui_combat.saves.journal import JOURNAL
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.help import HelpScreen
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.setup import SetupScreen
from tui_combat.widgets.footer import KeyFooter
from tui_combat.widgets.order_list import OrderList
from tui_combat.widgets.phase_bar import PhaseBar


def journal_lines(data_root: Path) -> int:
    (folder,) = session_folders(data_root)
    return len((folder / JOURNAL).read_bytes().splitlines())


def names(app, ids) -> list[str]:
    state = store(app).state
    return [state.combatant(cid).name for cid in ids]


async def test_demo_opens_in_setup_with_both_sides(make_app, data_root: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)
        state = store(app).state
        assert state.phase == "setup"
        assert [(side.id, side.name) for side in state.sides] == [(PARTY, "Party"), (MONSTERS, "Monsters")]
        assert [c.name for c in state.combatants] == [
            "Raf",
            "Rupert",
            "Delsenora",
            "Troll 1",
            "Troll 2",
            "Troll 3",
            "Orc 1",
            "Orc 2",
            "Orc 3",
            "Orc 4",
            "Orc 5",
            "Orc 6",
        ]
        assert app.screen.query_one(DataTable).row_count == 12
        assert len(session_folders(data_root)) == 1  # one Enter, one session


async def test_round_one_of_the_seed_and_into_round_two(make_app, data_root: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        state = store(app).state
        assert (state.phase, state.round, state.step, state.surprised) == ("round", 1, 0, ())

        await type_initiative(pilot, "7", "10")
        state = store(app).state
        assert [render(slot.label) for slot in state.order] == ["7", "10"]
        assert names(app, state.order[0].combatants) == ["Raf", "Rupert", "Delsenora"]
        assert names(app, state.order[1].combatants) == [
            "Troll 1",
            "Troll 2",
            "Troll 3",
            "Orc 1",
            "Orc 2",
            "Orc 3",
            "Orc 4",
            "Orc 5",
            "Orc 6",
        ]
        assert {key: (r.total, r.physical) for key, r in state.initiative.rolls.items()} == {
            PARTY: (7, True),
            MONSTERS: (10, True),
        }
        assert state.initiative.settled and state.initiative.pending == ()
        assert state.cursor == 0
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        assert screen.step_kind() == "resolve"
        assert screen.selected() == combatant_id(app, "Raf")  # the acting slot is selected
        bar = visible_text(screen.query_one(PhaseBar))
        assert "▶ 7" in bar and "Resolve" in bar, bar  # the acting slot and the current step, not cut off

        # The monsters' slot: the first troll is selected; 2d6 rolled by the app, then 7 typed.
        await pilot.press("n")
        assert store(app).state.cursor == 1
        troll = combatant_id(app, "Troll 1")
        assert screen.selected() == troll
        await pilot.press("d", *"2d6", "enter")
        assert isinstance(app.screen, RoundScreen)
        rolled = roll(parse("2d6"), random.Random(SEED)).total  # the session's dice: nothing rolled before
        assert store(app).state.combatant(troll).hp == 36 - rolled
        await pilot.press("d", "7", "enter")
        assert store(app).state.combatant(troll).hp == 36 - rolled - 7
        assert any(f"Troll 1 takes {rolled} damage (2d6" in e.text for e in store(app).state.log_entries())

        # Orc 1 runs away: down past Troll 2 and Troll 3, x, "fled".
        orc = combatant_id(app, "Orc 1")
        await pilot.press("down", "down", "down")
        assert screen.selected() == orc
        await pilot.press("x")
        await choose(pilot, "fled")
        assert store(app).state.combatant(orc).status == "fled"
        assert "Orc 1  5/5 ↪" in str(screen.query_one(OrderList).get_option(orc).prompt)

        # Two goblins join the monsters mid-fight: name, Tab over the side, HP, ctrl+s.
        before_add = store(app).state
        await pilot.press("i")
        form = await until_form(pilot, "the add form")
        await pilot.press(*"2 goblin", "tab", "tab", "3", "ctrl+s")
        await until_closed(pilot, form, "the goblins added")
        assert isinstance(app.screen, RoundScreen)
        after_add = store(app).state
        goblins = [c for c in after_add.combatants if c.name.startswith("Goblin")]
        assert [(g.name, g.side, g.hp) for g in goblins] == [("Goblin 1", MONSTERS, 3), ("Goblin 2", MONSTERS, 3)]
        assert goblins[0].group and goblins[0].group == goblins[1].group
        assert after_add.order == before_add.order  # they wait for the next initiative
        option_ids = [
            screen.query_one(OrderList).get_option_at_index(i).id
            for i in range(screen.query_one(OrderList).option_count)
        ]
        assert option_ids[-3:] == ["slot-idle", goblins[0].id, goblins[1].id]

        await pilot.press("u")
        assert store(app).state == before_add
        await pilot.press("U")
        assert store(app).state == after_add

        # n after the last slot ends the round, n again starts round 2.
        await pilot.press("n")
        state = store(app).state
        assert (state.round, screen.step_kind()) == (1, "end")
        await pilot.press("n")
        state = store(app).state
        assert (state.phase, state.round, state.step, state.order) == ("round", 2, 0, ())
        assert "Round 2" in str(screen.query_one(PhaseBar).render())
        assert state.combatant(troll).hp == 36 - rolled - 7  # nothing is reset between rounds
        assert state.combatant(orc).status == "fled"

    # Every step reached the journal: replaying it gives the same fight.
    from tui_combat.fight.store import Store

    (folder,) = session_folders(data_root)
    assert Store.resume(folder).state == state


async def test_equal_typed_rolls_make_one_slot(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        await type_initiative(pilot, "7", "7")
        state = store(app).state
        assert [render(slot.label) for slot in state.order] == ["7"]
        assert len(state.order[0].combatants) == 12  # both sides act simultaneously
        await pilot.press("n")
        assert store(app).state.round == 1
        assert isinstance(app.screen, RoundScreen) and app.screen.step_kind() == "end"


async def test_bad_input_keeps_the_dialog_open_and_changes_nothing(make_app, data_root: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        await pilot.press("n", "n")
        state, lines = store(app).state, journal_lines(data_root)

        # 11 cannot be a d10.
        await pilot.press("t", "1", "1", "enter", "7", "enter")
        assert isinstance(app.screen, FormDialog)
        assert "11" in dialog_error(app)
        await pilot.press("escape")
        assert isinstance(app.screen, RoundScreen)
        assert store(app).state == state and journal_lines(data_root) == lines

        # "abc" is neither a number nor dice.
        await pilot.press("d", *"abc", "enter")
        assert "abc" in prompt_error(app)
        assert amount_prompt(app).value == "abc"  # kept, to be mended
        await pilot.press("backspace", "backspace", "backspace", "enter")  # empty: refused too
        assert "2d6+1" in prompt_error(app)
        await pilot.press("escape")
        assert not app.screen.amount_prompt.is_open and app.screen.query_one(KeyFooter).display
        assert store(app).state == state and journal_lines(data_root) == lines

        # HP "abc" in the add dialog.
        await pilot.press("i", *"orc", "tab", "tab", *"abc", "ctrl+s")
        await until(pilot, lambda: dialog_error(app) != "", "the add form's refusal")
        assert dialog_error(app) == 'HP: "abc" is not a whole number.'
        await pilot.press("escape")
        assert open_form_of(app) is None
        assert store(app).state == state and journal_lines(data_root) == lines

        # No name.
        await pilot.press("i", "ctrl+s")
        await until(pilot, lambda: dialog_error(app) != "", "the add form's refusal")
        assert dialog_error(app) == "A combatant needs a name."
        await pilot.press(*"   ", "ctrl+s")  # blanks are no name either
        assert dialog_error(app) == "A combatant needs a name."
        await pilot.press("escape")
        assert isinstance(app.screen, RoundScreen) and open_form_of(app) is None
        assert store(app).state == state and journal_lines(data_root) == lines


async def test_small_terminal_renders_the_round(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await to_round(pilot)
        await type_initiative(pilot, "7", "10")
        await pilot.press("d")  # the damage prompt fits too
        prompt = amount_prompt(app)
        assert prompt.shown("title") and prompt.shown("field") == prompt.placeholder and prompt.shown("keys")
        await pilot.press("escape")
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        for widget in (
            screen.query_one(PhaseBar),
            screen.query_one(OrderList),
            screen.query_one("#card"),
            screen.query_one("#log"),
            screen.query_one(KeyFooter),
        ):
            assert widget.region.width > 0 and widget.region.height > 0, widget
            assert widget.region.right <= 60 and widget.region.bottom <= 20, widget
        bar = visible_text(screen.query_one(PhaseBar))
        assert "▶ 7" in bar and "Resolve" in bar and "End of round" in bar and "\n" not in bar, bar
        await pilot.resize_terminal(80, 24)
        await until(
            pilot,
            lambda: isinstance(app.screen, RoundScreen) and app.screen.size.width == 80,
            "the screen at 80 columns",
        )


async def test_help_lists_the_round_keys_and_closes_with_escape(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        round_screen, before = app.screen, store(app).state
        assert isinstance(round_screen, RoundScreen)
        await pilot.press("f1")  # over the round: a panel of its own, in the round screen
        rows = await until_help(pilot)
        assert app.screen is round_screen
        described = {description: keys for keys, description in rows}
        for description in ("Next", "Damage", "Status", "Undo", "Redo", "Help"):
            assert description in described, rows
        assert "n" in described["Next"]
        assert "Next" in visible_text(round_screen.help_panel)
        await pilot.press("n")  # the round's keys wait while the help is open
        assert round_screen.help_panel.is_open and store(app).state is before
        await pilot.press("escape")
        assert help_closed(app) and app.screen is round_screen
        # Help over set-up too; there q closes the help, not the app.
        await pilot.press("escape", "d", "down", "enter")  # the demo has a session: start another
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("q")
        assert isinstance(app.screen, SetupScreen)
        assert app.is_running


async def test_selection_stays_on_the_target_until_the_turn_moves(make_app) -> None:
    """Damaging a troll while the party acts keeps the troll selected; Next selects who acts then."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        await type_initiative(pilot, "7", "10")
        order = app.screen.query_one(OrderList)
        troll = combatant_id(app, "Troll 1")
        while order.selected_combatant() != troll:
            await pilot.press("down")
        await pilot.press("d", "3", "enter")
        assert store(app).state.combatant(troll).hp == 33
        assert order.selected_combatant() == troll
        await pilot.press("n")
        assert order.selected_combatant() == troll  # the monsters act now: Troll 1 is first of them
        await pilot.press("b")
        assert order.selected_combatant() == combatant_id(app, "Raf")
