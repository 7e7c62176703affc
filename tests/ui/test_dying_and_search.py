"""At 80×24, the turn list and the players' view tell the dying from the dead: ♥ for one who lies alive (in D&D 5e
with his death saves, in AD&D 2e under the −10 option while he bleeds), ✝ for the dead. ``/`` searches the turn
list: a name typed, Enter selects the next row that shows it, Esc leaves; the letters typed fire no command.
The list's filter (everyone, acting now, a side) has its own key, ``F``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.ui.fights import opened, saved_round
from tests.ui.steps import (
    SIZE,
    combatant_id,
    open_demo,
    prompt_error,
    select,
    store,
    to_round_from_setup,
    type_initiative,
    until_form,
    until_prompt,
    until_prompt_closed,
    until_round,
)
from tests.waiting import until, until_screen
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine.encounter import ENCOUNTER_DIR
from tui_combat.engine.public import public_view
from tui_combat.screens.player_view import order_text
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.surprise import SurpriseScreen
from tui_combat.testing.pilot import turn_list_text
from tui_combat.widgets.order_list import OrderList


async def damage(pilot: object, amount: str) -> None:
    await pilot.press("d")  # type: ignore[attr-defined]
    await until_prompt(pilot, "the damage prompt")  # type: ignore[arg-type]
    await pilot.press(*amount, "enter")  # type: ignore[attr-defined]
    await until_prompt_closed(pilot, "the damage taken")  # type: ignore[arg-type]


def row_of(app: CombatApp, name: str) -> str:
    """The turn list's row of ``name`` as the terminal shows it."""
    return next(line for line in turn_list_text(app).splitlines() if f" {name} " in f"{line} ")


def players_row(app: CombatApp, name: str) -> str:
    text = order_text(public_view(store(app).state))
    return next(line for line in text.plain.splitlines() if name in line)


async def test_5e_dying_with_death_saves_and_dead(make_app: Callable[..., CombatApp]) -> None:
    app = make_app(encounter=ENCOUNTER_DIR / "demo_dnd5e.toml")
    async with app.run_test(size=SIZE) as pilot:
        await to_round_from_setup(pilot)
        await pilot.press("t")
        await until_form(pilot, "the initiative form")
        for typed in ("19", "2", "3", "1", "15", "10"):
            await pilot.press(*typed, "enter")
        await until_screen(pilot, RoundScreen, "the round")
        mirela = combatant_id(app, "Mirela")
        await select(pilot, mirela)
        await damage(pilot, "30")  # 27 HP: unconscious, making death saves
        await until(pilot, lambda: "♥" in row_of(app, "Mirela"), "Mirela marked dying")
        assert "✝" not in row_of(app, "Mirela")
        mirela_row = row_of(app, "Mirela")
        assert mirela_row.split("0/27")[1].split()[:3] == ["♥", "○○○", "○○○"], mirela_row
        assert "♥" in players_row(app, "Mirela") and "✝" not in players_row(app, "Mirela")

        goblin = next(c.id for c in store(app).state.combatants if c.name.startswith("Goblin"))
        name = store(app).state.combatant(goblin).name
        await select(pilot, goblin)
        await damage(pilot, "9")  # a monster at 0 is dead
        await until(pilot, lambda: "✝" in row_of(app, name), "the goblin marked dead")
        assert "♥" not in row_of(app, name)
        assert "✝" in players_row(app, name) and "♥" not in players_row(app, name)


async def test_adnd_bleeding_under_the_minus_10_option_then_dead(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)
        store(app).dispatch(a.SetOption(key="death", value="minus_10"))
        await pilot.press("c")
        await until_screen(pilot, SurpriseScreen, "the surprise screen")
        await pilot.press("t")
        await until_form(pilot, "the surprise dice")
        await pilot.press("5", "enter", "8", "enter", "c")
        await until_round(pilot)
        await type_initiative(pilot, "7", "10")
        raf = combatant_id(app, "Raf")
        await select(pilot, raf)
        await damage(pilot, "41")  # 38 HP → −3: dying, losing 1 a round
        await until(pilot, lambda: "♥" in row_of(app, "Raf"), "Raf marked dying")
        assert "✝" not in row_of(app, "Raf") and "♥" in players_row(app, "Raf")
        await damage(pilot, "7")  # −10: dead
        await until(pilot, lambda: "✝" in row_of(app, "Raf"), "Raf marked dead")
        assert "♥" not in row_of(app, "Raf") and "✝" in players_row(app, "Raf")


async def test_slash_finds_a_name_and_letters_fire_no_command(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    saved_round(data_root, "ambush", ["Raf", "Bob"], 30)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        state = store(app).state
        await pilot.press("slash")
        prompt = await until_prompt(pilot, "the search")
        await pilot.press(*"orc 2", "5")  # n, b, r, d…: typed, not keys of the round
        assert store(app).state is state
        assert prompt.value == "orc 25"
        await pilot.press("enter")
        await until_prompt_closed(pilot, "the search closed")
        assert store(app).state.combatant(app.screen.query_one(OrderList).selected_combatant() or "").name == "Orc 25"
        await until(pilot, lambda: "Orc 25" in turn_list_text(app), "Orc 25 scrolled into sight")
        assert store(app).state is state

        await pilot.press("slash")
        await until_prompt(pilot, "the search again")
        await pilot.press(*"bo", "enter")
        await until_prompt_closed(pilot, "the search closed")
        assert store(app).state.combatant(app.screen.query_one(OrderList).selected_combatant() or "").name == "Bob"

        await pilot.press("slash")
        await until_prompt(pilot, "the search, for nobody")
        await pilot.press(*"zed", "enter")
        await until(pilot, lambda: "Zed" not in prompt_error(app) and "zed" in prompt_error(app), "the refusal")
        await pilot.press("escape")
        await until_prompt_closed(pilot, "the search left")
        assert store(app).state.combatant(app.screen.query_one(OrderList).selected_combatant() or "").name == "Bob"
        assert store(app).state is state
        await pilot.press("n")  # the round's keys are back
        await until(pilot, lambda: store(app).state is not state, "next turn")


async def test_the_filter_has_its_own_key(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    saved_round(data_root, "ambush", ["Raf"], 2)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        order = app.screen.query_one(OrderList)
        count = order.option_count
        await pilot.press("F")
        await until(pilot, lambda: order.option_count == 2, "only those acting now")
        await pilot.press("F", "F", "F")
        await until(pilot, lambda: order.option_count == count, "everyone again")
