"""At 80×24, in a fight of individual initiative (AD&D 2e, ten slots of twenty, a turn list taller than the screen),
next turn and back scroll the list by a page: the rows that come back into sight are those drawn before (nothing of
them is worked out into a new line), and only the slot headers whose word changed are redrawn."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.style import Style
from textual.dom import DOMNode
from textual.geometry import Region
from textual.scrollbar import ScrollBar

from tests.test_fewer_codes import same_on_the_terminal
from tests.ui.fights import opened
from tests.ui.frames_written import FramesWritten
from tests.ui.steps import SIZE, store
from tests.ui.test_rows_per_key import mass_battle
from tests.waiting import settled, until
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.dice import Roll
from tui_combat.engine.registry import get
from tui_combat.fight.store import Store, new_state
from tui_combat.saves.locations import sessions_dir
from tui_combat.textual_ext.runs_by_look import with_fewest_codes
from tui_combat.widgets.order_list import OrderList


def ten_slots(data_root: Path, key: str, orcs: int = 194) -> None:
    """Six heroes and ``orcs`` orcs, each rolling his own initiative, 1 to 10 in turn: ten slots."""
    state = new_state(seed=1, ruleset="adnd2e")
    steps: list[a.Action] = [
        a.SetName(name="Ten slots"),
        a.SetRuleset(ruleset="adnd2e"),
        a.SetOption(key="initiative", value="individual"),
        a.AddSide(name="Party", is_party=True),
        a.AddSide(name="Monsters"),
    ]
    steps += [
        a.AddCombatants(side="s1", name=f"Hero {n}", hp=40, sheet={"cls": "warrior", "level": 5}) for n in range(6)
    ]
    steps += [
        a.AddCombatants(side="s2", name=f"Orc {n}", hp=8, sheet={"cls": "monster", "level": 1}) for n in range(orcs)
    ]
    steps += [a.BeginSurprise(), a.StartFight(), a.NextStep(), a.NextStep()]
    for action in steps:
        state = apply(state, action)
    requests = get("adnd2e").initiative_requests(state)
    rolls = {
        request.key: Roll(expr="1d10", total=index % 10 + 1, faces=(index % 10 + 1,))
        for index, request in enumerate(requests)
    }
    state = apply(state, a.RollInitiative(rolls=rolls))
    assert len(state.order) == 10
    Store.create(state, sessions_dir(data_root) / key).close()


async def test_next_and_back_bring_back_the_rows_drawn_before(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    ten_slots(data_root, "big")
    app = make_app(resume="big")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        order = app.screen.query_one(OrderList)
        height = order.scrollable_content_region.height
        assert order.option_count > 2 * height  # a list taller than the screen
        start = order.scroll_offset.y
        await pilot.press("n")
        await until(pilot, lambda: order.scroll_offset.y > start, "the list scrolled to the next slot")
        await pilot.press("b")
        await until(pilot, lambda: order.scroll_offset.y < start + height, "the list scrolled back")
        first = order.scroll_offset.y
        before = store(app).state
        rows = [order._rows[index] for index in range(first, first + height)]
        redrawn = order.rows_redrawn
        for _turn in range(3):
            await pilot.press("n")
            await until(pilot, lambda: order.scroll_offset.y > first, "the list scrolled to the next slot")
            await pilot.press("b")
            await until(pilot, lambda: order.scroll_offset.y == first, "the list scrolled back")
        assert store(app).state.cursor == before.cursor
        # Each next and back redraws the two slot headers whose word changed ("now", "acted", "to come"): no row
        # of a combatant scrolled back into sight is made anew.
        assert order.rows_redrawn - redrawn <= 3 * 2 * 2, order.rows_redrawn - redrawn
        assert all(
            order._rows[index] is row
            for index, row in zip(range(first, first + height), rows, strict=True)
            if not row.disabled
        )


def in_sight(order: OrderList) -> list[str]:
    """The rows on the screen, top first, as the GM reads them."""
    top, height = order.scroll_offset.y, order.scrollable_content_region.height
    return [
        str(order.get_option_at_index(index).prompt).strip()
        for index in range(top, min(top + height, order.option_count))
    ]


def acting_slot_on_top(app: CombatApp, order: OrderList) -> bool:
    """The slot acting now begins the list on the screen: its header, "now", is the first row, and the one
    highlighted (who acts) is in sight."""
    cursor = store(app).state.cursor
    top, height = order.scroll_offset.y, order.scrollable_content_region.height
    first = order.get_option_at_index(top)
    highlighted = order.highlighted
    return (
        first.id == f"slot-{cursor}"
        and str(first.prompt).strip().endswith("now")
        and highlighted is not None
        and top < highlighted < top + height
    )


async def test_next_and_back_bring_the_acting_slot_to_the_top_of_the_list(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """Each slot of twenty-odd is taller than the list: next turn shows the new slot from its header down, as
    many of those acting as fit, and back does the same for the slot before (the new slot's header left at the
    foot of the list, one of its members in sight, was how it was before)."""
    ten_slots(data_root, "big")
    app = make_app(resume="big")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        order = app.screen.query_one(OrderList)
        await until(pilot, lambda: order.option_count > 0 and acting_slot_on_top(app, order), "the first slot on top")
        for key, cursor in (("n", 1), ("n", 2), ("n", 3), ("b", 2), ("b", 1)):
            await pilot.press(key)
            await until(pilot, lambda: store(app).state.cursor == cursor, f"{key}: slot {cursor + 1} acting")
            await until(pilot, lambda: settled(order), "the list drawn")
            assert acting_slot_on_top(app, order), (key, in_sight(order))
            rows = in_sight(order)
            assert rows[0].endswith("now") and not any(row.endswith(("acted", "to come")) for row in rows), rows


async def test_a_slot_wholly_in_sight_scrolls_nothing(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    """Slots of three or four: next turn and back scroll the list only when the acting slot is not wholly on the
    screen, and then bring it to the top."""
    ten_slots(data_root, "small slots", orcs=24)
    app = make_app(resume="small slots")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        order = app.screen.query_one(OrderList)
        await until(pilot, lambda: order.option_count > 0 and acting_slot_on_top(app, order), "the first slot on top")
        assert order.option_count > order.scrollable_content_region.height  # a list taller than the screen
        moves: list[tuple[int, int]] = []
        expected: list[int] = []
        for cursor in range(1, 10):
            top = order.scroll_offset.y
            height = order.scrollable_content_region.height
            ids = [order.get_option_at_index(i).id for i in range(order.option_count)]
            start = ids.index(f"slot-{cursor}")
            end = ids.index(f"slot-{cursor + 1}") if f"slot-{cursor + 1}" in ids else len(ids)
            wholly = top <= start and end <= top + height
            high_and_filling = top <= start < top + height // 2 and end >= top + height
            if not (wholly or high_and_filling):
                expected.append(cursor)
            await pilot.press("n")
            await until(pilot, lambda: store(app).state.cursor == cursor, f"slot {cursor + 1} acting")
            await until(pilot, lambda: settled(order), "the list drawn")
            header = next(i for i in range(order.option_count) if order.get_option_at_index(i).id == f"slot-{cursor}")
            if order.scroll_offset.y != top:
                moves.append((cursor, order.scroll_offset.y))
                assert acting_slot_on_top(app, order) or order.scroll_offset.y == order.max_scroll_y
            assert top <= header or order.scroll_offset.y != top
            assert order.scroll_offset.y <= header < order.scroll_offset.y + order.scrollable_content_region.height
        # The list moved only when the slot coming up was not in sight before the key: not at each turn.
        assert [cursor for cursor, _top in moves] == expected, (moves, expected)
        assert 0 < len(moves) < 9, moves
        top = order.scroll_offset.y
        await pilot.press("b")
        await until(pilot, lambda: store(app).state.cursor == 8, "slot 9 acting again")
        await until(pilot, lambda: settled(order), "the list drawn")
        assert order.scroll_offset.y == top  # slot 9 is in sight: back scrolls nothing


async def test_a_fight_resumed_shows_the_slot_acting_on_top(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """Resumed, the list is laid out after the fight is shown: the slot acting then, far down the list, is
    brought to the top, the one acting selected in sight (it opened at the top, the slot out of sight)."""
    ten_slots(data_root, "big")
    app = make_app(resume="big")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        for cursor in (1, 2, 3):
            await pilot.press("n")
            await until(pilot, lambda: store(app).state.cursor == cursor, f"slot {cursor + 1} acting")
    again = make_app(resume="big")
    async with again.run_test(size=SIZE) as pilot:
        await opened(pilot)
        order = again.screen.query_one(OrderList)
        assert store(again).state.cursor == 3
        await until(pilot, lambda: settled(order) and acting_slot_on_top(again, order), "the acting slot on top")


async def test_at_sixty_by_twenty_the_acting_slot_is_on_top_too(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    ten_slots(data_root, "big")
    app = make_app(resume="big")
    async with app.run_test(size=(60, 20)) as pilot:
        await opened(pilot)
        order = app.screen.query_one(OrderList)
        for key, cursor in (("n", 1), ("n", 2), ("b", 1)):
            await pilot.press(key)
            await until(pilot, lambda: store(app).state.cursor == cursor, f"{key}: slot {cursor + 1} acting")
            await until(pilot, lambda: settled(order) and acting_slot_on_top(app, order), "the acting slot on top")


async def test_the_scroll_bar_redraws_only_the_rows_its_thumb_moved_over(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """A page down moves the thumb by two rows of the bar's 21: the rows it left and those it came to are redrawn,
    not the whole bar (some 44 bytes a row); what the bar then shows is what it shows drawn whole."""
    ten_slots(data_root, "big")
    app = make_app(resume="big")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        order = app.screen.query_one(OrderList)
        await until(pilot, lambda: settled(order) and order.show_vertical_scrollbar, "the list and its bar drawn")
        bar = order.vertical_scrollbar
        height = bar.size.height
        refreshed: list[tuple[Region, ...]] = []
        refresh = bar.refresh

        def noted(*regions: Region, **options: bool) -> ScrollBar:
            refreshed.append(regions)
            return refresh(*regions, **options)

        bar.refresh = noted  # type: ignore[method-assign]
        for key, cursor in (("n", 1), ("n", 2), ("b", 1)):
            refreshed.clear()
            top = order.scroll_offset.y
            await pilot.press(key)
            await until(pilot, lambda: store(app).state.cursor == cursor, f"{key}: slot {cursor + 1} acting")
            await until(pilot, lambda: settled(order) and settled(bar), "the list drawn")
            assert order.scroll_offset.y != top
            assert refreshed and all(regions for regions in refreshed), refreshed  # never the whole bar
            rows = {y for regions in refreshed for region in regions for y in range(region.y, region.bottom)}
            assert 0 < len(rows) <= height // 3, rows
            as_kept = bar.render_lines(Region(0, 0, bar.size.width, height))
            refresh()
            assert bar.render_lines(Region(0, 0, bar.size.width, height)) == as_kept


async def test_a_page_of_the_turn_list_shows_the_same_in_a_third_fewer_bytes(
    make_app: Callable[..., CombatApp], data_root: Path, in_colour: None
) -> None:
    """The frames of next turn and back in ten slots of twenty, each a new page of the list, as Textual writes
    them and as the app writes them (the fewest codes): the same screen, some 30 % fewer bytes."""
    ten_slots(data_root, "big")
    app = make_app(resume="big")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        await until(pilot, lambda: settled(app.screen), "the round drawn")
        update = app.screen._compositor.render_update(full=True)
        assert update is not None
        frames = [update.render_segments(app.console)]
        display = app._display

        def shown(on: Any, renderable: Any) -> None:
            if renderable is not None:
                frames.append(renderable.render_segments(app.console))
            display(on, renderable)

        app._display = shown  # type: ignore[method-assign]
        for key, cursor in (("n", 1), ("n", 2), ("b", 1)):
            await pilot.press(key)
            await until(pilot, lambda: store(app).state.cursor == cursor, f"{key} done")
            await until(pilot, lambda: settled(app.screen), f"{key} drawn")
        assert len(frames) >= 4
        pages = frames[1:]
        saved = same_on_the_terminal(*frames, made_over=with_fewest_codes)
        assert saved > 0.25 * sum(len(frame.encode()) for frame in pages), saved


async def test_a_page_of_the_list_works_its_style_out_once_not_for_each_row(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Textual works a widget's style out from every widget above it each time it is asked: the 21 rows of a
    new page ask it once between them."""
    ten_slots(data_root, "big")
    app = make_app(resume="big")
    asked: list[int] = []
    style = DOMNode.rich_style

    def counted(node: DOMNode) -> Style:
        if isinstance(node, OrderList):
            asked.append(node.scroll_offset.y)
        return style.fget(node)  # type: ignore[attr-defined,no-any-return]

    monkeypatch.setattr(DOMNode, "rich_style", property(counted))
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        order = app.screen.query_one(OrderList)
        await until(pilot, lambda: settled(order), "the list drawn")
        asked.clear()
        await pilot.press("n")
        await until(pilot, lambda: store(app).state.cursor == 1, "slot 2 acting")
        await until(pilot, lambda: settled(order) and settled(app.screen), "the new page drawn")
        assert 0 < len(asked) <= 3, len(asked)


async def test_a_tall_slot_whose_header_is_high_on_the_screen_scrolls_nothing(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """Two slots, the party's and that of 200 orcs under it: the orcs' header is the fourth row and they fill the
    rest of the list, which is in sight enough: next turn and back move no row (a new page is some 2 KB)."""
    Store.create(mass_battle(200), sessions_dir(data_root) / "two slots").close()
    app = make_app(resume="two slots")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        order = app.screen.query_one(OrderList)
        await until(pilot, lambda: settled(order) and order.option_count > 200, "the list drawn")
        for key, cursor in (("n", 1), ("b", 0), ("n", 1)):
            await pilot.press(key)
            await until(pilot, lambda: store(app).state.cursor == cursor, f"{key}: slot {cursor + 1} acting")
            await until(pilot, lambda: settled(order), "the list drawn")
            assert order.scroll_offset.y == 0, key
            rows = in_sight(order)
            assert rows[0].endswith("now" if cursor == 0 else "acted") and rows[3].endswith("now" if cursor else "come")


async def test_a_new_page_drawn_cell_by_cell_shows_what_the_whole_screen_does(
    make_app: Callable[..., CombatApp], data_root: Path, in_colour: None
) -> None:
    """Next turn and back turn a page of the list: each line is redrawn only where it differs from the line the
    terminal shows there, and the terminal then shows, cell for cell and colour for colour, the screen drawn
    whole (each frame written as the app writes it: with fewer codes)."""
    ten_slots(data_root, "big")
    app = make_app(resume="big")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        await until(pilot, lambda: settled(app.screen), "the round drawn")

        order = app.screen.query_one(OrderList)

        written = FramesWritten(app, order)
        for key, cursor in (("n", 1), ("n", 2), ("b", 1), ("down", 1), ("n", 2), ("b", 1), ("b", 0)):
            top = order.scroll_offset.y
            await pilot.press(key)
            await until(pilot, lambda: store(app).state.cursor == cursor, f"{key}: slot {cursor + 1} acting")
            await until(pilot, lambda: settled(app.screen), f"{key} drawn")
            assert key == "down" or order.scroll_offset.y != top
            assert written.shows_the_whole(), key
            await until(pilot, lambda: settled(app.screen), "the list drawn whole again")  # (for the next key)
        assert len(written.frames) >= 7
