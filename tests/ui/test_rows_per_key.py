"""A key costs the turn list the rows it changed, whatever the size of the fight: next, back, damage, heal and
undo work out again only the rows on the screen (the others when they are next drawn) and redraw the rows
that changed, as many with 2,000 combatants as with 20; the list is laid out again only when its rows change."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytest import MonkeyPatch
from textual.strip import Strip

from tests.ui.fights import opened, opened_round
from tests.ui.steps import SIZE, leave_damage, store
from tests.waiting import settled, until
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.contract import BudgetLine
from tui_combat.engine.dice import Roll
from tui_combat.engine.model import RollRequest, State
from tui_combat.fight.store import Store, new_state
from tui_combat.rulesets.adnd2e.ruleset import ADnD2e
from tui_combat.saves.locations import sessions_dir
from tui_combat.screens.round import RoundScreen
from tui_combat.widgets import order_list
from tui_combat.widgets.footer import shown_keys
from tui_combat.widgets.order_list import OrderList
from tui_combat.widgets.order_rows import FILTER_ACTING

GROUP = 10
"""Orcs per group: not folded (see ``FOLD_OVER``), so each orc has a row of his own."""
ROWS_ON_SCREEN = 24 + 1
"""What the list may work out per key at most: a screen's worth of rows and the selected one."""


def mass_battle(orcs: int) -> State:
    """Round 1 of AD&D 2e, resolve step: Raf and Ada (initiative 3), then ``orcs`` in groups of ten (7)."""
    state = new_state(seed=1, ruleset="adnd2e")
    steps: list[a.Action] = [
        a.SetName(name="Mass battle"),
        a.SetRuleset(ruleset="adnd2e"),
        a.AddSide(name="Party", is_party=True),
        a.AddSide(name="Orcs"),
    ]
    steps += [
        a.AddCombatants(side="s1", name=hero, hp=20, sheet={"cls": "warrior", "level": 3}) for hero in ("Raf", "Ada")
    ]
    steps += [a.AddCombatants(side="s2", name="Orc", hp=8, count=GROUP, sheet={"cls": "monster", "level": 1})] * (
        orcs // GROUP
    )
    steps += [
        a.BeginSurprise(),
        a.StartFight(),
        a.NextStep(),
        a.NextStep(),
        a.RollInitiative(
            rolls={"s1": Roll(expr="1d10", total=3, faces=(3,)), "s2": Roll(expr="1d10", total=7, faces=(7,))}
        ),
    ]
    for action in steps:
        state = apply(state, action)
    assert state.phase == "round" and len(state.order) == 2
    return state


async def costs(make_app: Callable[..., CombatApp], data_root: Path, orcs: int) -> dict[str, tuple[int, int, int]]:
    """For each key in turn: (rows worked out, rows redrawn, times the list was laid out anew)."""
    key = f"battle-{orcs}"
    Store.create(mass_battle(orcs), sessions_dir(data_root) / key).close()
    app = make_app(resume=key)
    found: dict[str, tuple[int, int, int]] = {}
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        order = screen.query_one(OrderList)
        assert order.option_count == 2 + 2 + orcs  # two slot headers, the party, one row per orc

        async def press(name: str, keys: tuple[str, ...], done: Callable[[State], bool]) -> None:
            looked, redrawn, rebuilds = order.rows_looked, order.rows_redrawn, order.rebuilds
            await pilot.press(*keys)
            await until(pilot, lambda: done(store(app).state), f"{name} to be done")
            await until(pilot, lambda: settled(order) and settled(app.screen), f"{name} drawn")
            found[name] = (order.rows_looked - looked, order.rows_redrawn - redrawn, order.rebuilds - rebuilds)

        await press("n", ("n",), lambda state: state.cursor == 1)
        orc = screen.selected()
        assert orc is not None
        await press("d", ("d", "3", "enter"), lambda state: state.combatant(orc).hp == 5)
        await press("h", ("h", "2", "enter"), lambda state: state.combatant(orc).hp == 7)
        await press("u", ("u",), lambda state: state.combatant(orc).hp == 5)
        await press("b", ("b",), lambda state: state.cursor == 0)
        await pilot.press("q")
    return found


async def test_each_key_costs_as_many_rows_at_two_thousand_combatants_as_at_twenty(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    small = await costs(make_app, data_root, 20)
    large = await costs(make_app, data_root, 2_000)
    for key, (looked, redrawn, rebuilds) in large.items():
        assert rebuilds == 0 and small[key][2] == 0, (key, small, large)
        assert redrawn == small[key][1], (key, small, large)  # the same rows changed, so the same rows redrawn
        assert looked <= ROWS_ON_SCREEN, (key, looked)  # the screen's rows, not the fight's
    # What changed: the two slot headers on n and b, the orc's row on damage, heal and undo.
    assert {key: counts[1] for key, counts in large.items()} == {"n": 2, "d": 1, "h": 1, "u": 1, "b": 2}


async def test_a_row_changed_out_of_sight_shows_the_change_when_scrolled_back(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    Store.create(mass_battle(200), sessions_dir(data_root) / "battle").close()
    app = make_app(resume="battle")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        order = screen.query_one(OrderList)

        def last_row() -> str:
            return str(order.get_option_at_index(order.option_count - 1).prompt)

        await pilot.press("end", "d", "3", "enter")  # the last orc, at the bottom of the list
        last = screen.selected()
        assert last is not None
        await until(pilot, lambda: store(app).state.combatant(last).hp == 5, "the damage")
        await until(pilot, lambda: "5/8" in last_row(), "the last row to show the damage")
        await pilot.press("home", "u")  # undone while the row is out of sight: it is not worked out now
        await until(pilot, lambda: store(app).state.combatant(last).hp == 8, "the undo")
        await until(pilot, lambda: settled(order) and settled(app.screen), "the undo handled")
        assert "5/8" in last_row()
        await pilot.press("end")  # back in sight: as the fight stands
        await until(pilot, lambda: "8/8" in last_row(), "the last row to show the undo")
        await pilot.press("q")


async def test_the_rounds_steps_ask_the_rules_for_initiative_once_per_state_whatever_the_keys_shown(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: MonkeyPatch
) -> None:
    """In the steps before initiative, whether Roll and Typed apply depends on the rolls initiative asks for,
    which the rules work out from every combatant: the footer asks about each of its keys, the screen about
    each binding, so asking the rules each time made a step's key cost the fight's size many times over."""
    Store.create(mass_battle(20), sessions_dir(data_root) / "battle").close()
    asked: list[int] = []
    original = ADnD2e.initiative_requests

    def counted(self: ADnD2e, state: State) -> tuple[RollRequest, ...]:
        asked.append(state.step)
        return original(self, state)

    monkeypatch.setattr(ADnD2e, "initiative_requests", counted)
    app = make_app(resume="battle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        applies = []
        for _ in range(4):  # resolve → end of round → round 2: the monsters' declarations → the players'
            before = store(app).state
            await pilot.press("n")
            await until(pilot, lambda: store(app).state is not before, "the step taken")
            await until(pilot, lambda: settled(app.screen), "the step drawn")
            for _ in range(3):  # the footer and the screen asking again about every key
                screen.refresh_keys()
                assert screen.active_bindings
            applies.append(screen.initiative_applies())
        assert screen.step_kind() == "declare"
        assert asked == []  # the keys were worked out without the rolls
        assert "r" in [key.key for key in shown_keys(screen)]  # Roll applies in a step of declarations
        assert applies == [False, False, True, True]  # not in the resolve step (the order stands) nor at its end
        assert screen.initiative_requests() is not None  # as Roll says
        assert len(asked) == 1
        assert screen.initiative_requests() is not None
        assert len(asked) == 1  # once for each state
        await pilot.press("q")


async def test_leaving_the_resolve_step_keeps_the_rows_where_they_stand_unless_only_those_acting_are_listed(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: MonkeyPatch
) -> None:
    """Out of the resolve step the rows are those of the same order: they are not laid out again (at 10,000
    combatants that took some 10 ms of the key), only drawn as the step shows them. Listing only those
    acting now, the rows do change: there they are laid out again."""
    Store.create(mass_battle(20), sessions_dir(data_root) / "battle").close()
    laid_out: list[bool] = []
    original = order_list.layout

    def counted(state: State, in_resolve: bool, *args: object, **kwargs: object) -> list[order_list.Spot]:
        laid_out.append(in_resolve)
        return original(state, in_resolve, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(order_list, "layout", counted)
    app = make_app(resume="battle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        order = screen.query_one(OrderList)

        def headers() -> list[str]:
            return [
                str(order.get_option_at_index(index).prompt).strip()
                for index in range(order.option_count)
                if order.get_option_at_index(index).disabled
            ]

        async def step(key: str, cursor: int, step_kind: str) -> None:
            await pilot.press(key)
            await until(pilot, lambda: store(app).state.cursor == cursor and screen.step_kind() == step_kind, key)
            await until(pilot, lambda: settled(order) and settled(app.screen), f"{key} drawn")

        await step("n", 1, "resolve")
        assert headers() == ["── 3 acted", "▶─ 7 now"]
        laid_out.clear()
        await step("n", 0, "end")  # out of the resolve step, everyone listed
        assert laid_out == []
        assert headers() == ["── 3", "── 7"]
        await step("b", 1, "resolve")
        assert laid_out == [] and headers() == ["── 3 acted", "▶─ 7 now"]
        await pilot.press("F")  # only those acting now: the orcs
        await until(pilot, lambda: order.filter == FILTER_ACTING, "only those acting listed")
        await until(pilot, lambda: settled(order), "the list drawn")
        assert order.option_count == 1 + 20
        laid_out.clear()
        await step("n", 0, "end")
        assert laid_out == [False]  # nobody acts at the end of the round: the rows change
        await pilot.press("q")


async def test_a_turn_moving_on_asks_the_rules_only_for_the_selected_combatants_budget(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: MonkeyPatch
) -> None:
    """AD&D's budget ignores the turn: the rows on the screen keep theirs while the turn moves on (only the card
    asks, about whoever is selected); an attack, changing what was spent this round, has them asked again."""
    Store.create(mass_battle(200), sessions_dir(data_root) / "battle").close()
    asked: list[str] = []
    original = ADnD2e.budget

    def counted(self: ADnD2e, state: State, combatant_id: str) -> tuple[BudgetLine, ...]:
        asked.append(combatant_id)
        return original(self, state, combatant_id)

    monkeypatch.setattr(ADnD2e, "budget", counted)
    app = make_app(resume="battle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        order = screen.query_one(OrderList)

        async def press(key: str, done: Callable[[State], bool]) -> set[str]:
            await until(pilot, lambda: settled(order) and settled(app.screen), "the list drawn")
            asked.clear()
            await pilot.press(key)
            await until(pilot, lambda: done(store(app).state), key)
            await until(pilot, lambda: settled(order) and settled(app.screen), f"{key} drawn")
            return set(asked)

        assert await press("n", lambda state: state.cursor == 1) <= {screen.selected()}
        assert await press("b", lambda state: state.cursor == 0) <= {screen.selected()}
        asked.clear()
        await pilot.press("a", "ctrl+s")  # Raf attacks, the roll left empty
        await leave_damage(pilot)
        await until(pilot, lambda: settled(order) and settled(app.screen), "the attack drawn")
        assert len(set(asked)) > 10, asked  # every row on the screen
        await pilot.press("q")


async def test_the_highlighted_and_dimmed_rows_look_as_the_lists_styles_say_as_the_focus_and_theme_change(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """The style of a highlighted row (and of a dimmed one) is kept between frames: the lines drawn with it are
    those drawn with styles worked out anew, focused or not, after a next turn, and in another theme."""
    Store.create(mass_battle(200), sessions_dir(data_root) / "battle").close()
    app = make_app(resume="battle")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        order = screen.query_one(OrderList)

        def lines() -> list[Strip]:
            return [order.render_line(y) for y in range(order.scrollable_content_region.height)]

        async def check(what: str) -> list[Strip]:
            await until(pilot, lambda: settled(order) and settled(app.screen), what)
            kept = lines()
            order._row_styles.clear()
            order._lines.clear()
            assert kept == lines(), what
            return kept

        focused = await check("the list focused")
        await pilot.press("n")
        await until(pilot, lambda: store(app).state.cursor == 1, "the next turn")
        await check("after a next turn")
        screen.set_focus(None)
        blurred = await check("the focus gone")
        assert blurred != focused  # (the test sees the focus: the highlighted row looks different without it)
        screen.set_focus(order)
        await check("the focus back")
        app.theme = next(name for name in app.available_themes if name != app.theme)
        themed = await check("another theme")
        assert themed != focused
        await pilot.press("q")
