"""The players' view of a big fight after each of the GM's actions: the public view and the order's lines made
again only where the fight changed, only the lines in sight drawn, and the order scrolled only when the slot
acting now is out of sight."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.engine.test_public import physical
from tests.test_fewer_codes import Terminal
from tests.ui.steps import SIZE
from tests.waiting import settled, until
from tui_combat.engine import actions as a
from tui_combat.fight import session
from tui_combat.fight.store import Store
from tui_combat.screens.player_view import PlayerViewApp, PlayerViewScreen
from tui_combat.textual_ext.fewer_codes import with_fewer_codes
from tui_combat.widgets.many_lines import ManyLines

ORCS = 300


def big_fight(data_root: Path, party: int = 7, monsters: int = 10) -> Store:
    """The AD&D 2e demo with 300 more orcs, in the turns of round 1: the party (7) acts before the monsters (10)
    (low goes first)."""
    store = session.open_demo(data_root, "demo_adnd2e.toml", seed=1)
    outside = next(side for side in store.state.sides if not side.is_party)
    store.dispatch(a.AddCombatants(side=outside.id, name="Orc", hp=5, count=ORCS))
    for action in (a.StartFight(), a.NextStep(), a.NextStep()):
        store.dispatch(action)
    store.dispatch(a.RollInitiative(rolls={"s1": physical(party, "1d10"), "s5": physical(monsters, "1d10")}))
    return store


def order_text(screen: PlayerViewScreen) -> str:
    """The order's rows in sight (drawing no other)."""
    lines = screen.query_one("#view-order", ManyLines)
    top, height = lines.scroll_offset.y, lines.scrollable_content_region.height
    strips = [lines._row(index) for index in range(top, min(top + height, len(lines._rows)))]
    return "\n".join(strip.text.rstrip() for strip in strips)


async def test_a_turn_moving_on_to_a_slot_in_sight_scrolls_nothing_and_draws_only_the_lines_in_sight(
    tmp_path: Path,
) -> None:
    gm = big_fight(tmp_path)
    assert gm.folder is not None
    viewer = PlayerViewApp(
        tmp_path, gm.folder.folder.name, settings_path=tmp_path / "none.toml", poll_seconds=0.02, handle_hangup=False
    )
    try:
        async with viewer.run_test(size=SIZE) as pilot:
            screen = viewer.screen
            assert isinstance(screen, PlayerViewScreen)
            await until(pilot, lambda: "▶ Raf" in order_text(screen) and settled(screen), "Raf acting")
            lines = screen.query_one("#view-order", ManyLines)
            assert len(lines.lines) > ORCS
            drawn, looked_at = lines.lines_drawn, lines.lines_looked_at
            rows = lines.scrollable_content_region.height

            gm.dispatch(a.NextStep())  # the monsters' turn: every orc acting now, their slot's title in sight
            await until(pilot, lambda: "▶ Orc 1" in order_text(screen) and settled(screen), "the orcs acting")
            assert lines.scroll_offset.y == 0, "the slot acting now was in sight: nothing scrolled"
            assert "✓ Raf" in order_text(screen)
            assert lines.lines_drawn - drawn <= rows, "only the lines in sight drawn"
            assert lines.lines_looked_at - looked_at <= ORCS + 20  # those that changed: the party's and the orcs'

            drawn, looked_at = lines.lines_drawn, lines.lines_looked_at
            made = screen._views.made
            orc = next(c for c in gm.state.combatants if c.name == "Orc 2")
            gm.dispatch(a.Damage(combatant=orc.id, amount=1))  # 4 of 5: wounded
            await until(pilot, lambda: "Orc 2  wounded" in order_text(screen) and settled(screen), "the orc hit")
            assert screen._views.made - made == 1, "the orc hit is the one asked about"
            assert lines.lines_looked_at - looked_at <= 1 + 3  # the orc's line, and the titles (made each time)
            assert lines.lines_drawn - drawn == 1

            gm.dispatch(a.PreviousStep())  # back: the party acts again, and nothing scrolls
            await until(pilot, lambda: "▶ Raf" in order_text(screen) and settled(screen), "Raf acting again")
            assert lines.scroll_offset.y == 0 and "  Orc 1" in order_text(screen)
    finally:
        gm.close()


async def test_a_turn_moving_on_to_a_slot_out_of_sight_brings_it_into_sight(tmp_path: Path) -> None:
    gm = big_fight(tmp_path, party=10, monsters=7)  # the monsters first: the party's slot far below
    assert gm.folder is not None
    viewer = PlayerViewApp(
        tmp_path, gm.folder.folder.name, settings_path=tmp_path / "none.toml", poll_seconds=0.02, handle_hangup=False
    )
    try:
        async with viewer.run_test(size=SIZE) as pilot:
            screen = viewer.screen
            assert isinstance(screen, PlayerViewScreen)
            await until(pilot, lambda: "▶ Orc 1" in order_text(screen) and settled(screen), "the orcs acting")
            lines = screen.query_one("#view-order", ManyLines)
            assert lines.scroll_offset.y == 0 and "Raf" not in order_text(screen)
            gm.dispatch(a.NextStep())
            await until(pilot, lambda: "▶ Raf" in order_text(screen) and settled(screen), "Raf acting, in sight")
            assert lines.scroll_offset.y > 0
            gm.dispatch(a.PreviousStep())
            await until(pilot, lambda: "▶ Orc 1" in order_text(screen) and settled(screen), "the orcs again")
            assert lines.scroll_offset.y == 0
    finally:
        gm.close()


async def test_the_large_layout_follows_the_turn_as_the_standard_one(tmp_path: Path) -> None:
    gm = big_fight(tmp_path)
    assert gm.folder is not None
    viewer = PlayerViewApp(
        tmp_path,
        gm.folder.folder.name,
        large=True,
        settings_path=tmp_path / "none.toml",
        poll_seconds=0.02,
        handle_hangup=False,
    )
    try:
        async with viewer.run_test(size=SIZE) as pilot:
            screen = viewer.screen
            assert isinstance(screen, PlayerViewScreen)
            await until(pilot, lambda: "▶ Raf" in order_text(screen) and settled(screen), "Raf acting")
            gm.dispatch(a.NextStep())
            await until(pilot, lambda: "▶ Troll 1" in order_text(screen) and settled(screen), "the monsters acting")
            assert "✓ Raf" in order_text(screen)
            troll = next(c for c in gm.state.combatants if c.name == "Troll 1")
            gm.dispatch(a.Damage(combatant=troll.id, amount=99))  # dead: the large layout marks him so
            await until(pilot, lambda: "Troll 1 ✝" in order_text(screen) and settled(screen), "the troll dead")
    finally:
        gm.close()


async def test_a_new_page_of_the_order_is_drawn_where_it_differs_and_shows_what_the_whole_screen_does(
    tmp_path: Path, in_colour: None
) -> None:
    """The turn moving to a slot out of sight, back, and a page scrolled by the wheel: each line of the order is
    redrawn only where it differs from what the terminal shows there, and the terminal then shows, cell for cell
    and colour for colour, the screen drawn whole (each frame written as the app writes it: with fewer codes).
    A page of orcs after a page of orcs differs in their numbers: far fewer bytes than the page drawn whole."""
    gm = big_fight(tmp_path, party=10, monsters=7)  # the monsters first: the party's slot far below
    assert gm.folder is not None
    viewer = PlayerViewApp(
        tmp_path, gm.folder.folder.name, settings_path=tmp_path / "none.toml", poll_seconds=0.02, handle_hangup=False
    )
    try:
        async with viewer.run_test(size=SIZE) as pilot:
            screen = viewer.screen
            assert isinstance(screen, PlayerViewScreen)
            await until(pilot, lambda: "▶ Orc 1" in order_text(screen) and settled(screen), "the orcs acting")
            lines = screen.query_one("#view-order", ManyLines)

            def whole() -> tuple[Terminal, int]:
                """The screen drawn whole, every line of the order drawn anew."""
                lines.refresh()
                update = screen._compositor.render_update(full=True)
                assert update is not None
                output = with_fewer_codes(update.render_segments(viewer.console))
                terminal = Terminal()
                terminal.write(output)
                return terminal, len(output)

            terminal = whole()[0]
            display = viewer._display
            frames: list[int] = []

            def shown(on: Any, renderable: Any) -> None:
                if renderable is not None:
                    output = with_fewer_codes(renderable.render_segments(viewer.console))
                    frames.append(len(output))
                    terminal.write(output)
                display(on, renderable)

            viewer._display = shown  # type: ignore[method-assign]
            await until(pilot, lambda: settled(screen), "the screen drawn whole")
            for action, who in ((a.NextStep(), "▶ Raf"), (a.PreviousStep(), "▶ Orc 1")):
                gm.dispatch(action)
                await until(pilot, lambda: who in order_text(screen) and settled(screen), who)
                assert terminal.shown()[0] == whole()[0].shown()[0], who
                await until(pilot, lambda: settled(screen), "drawn whole again")  # (for the next step)

            frames.clear()
            lines.scroll_to(y=lines.scroll_offset.y + lines.scrollable_content_region.height, animate=False)
            await until(pilot, lambda: bool(frames) and settled(screen), "the next page of orcs")
            page = sum(frames)
            drawn_whole, size = whole()
            assert terminal.shown()[0] == drawn_whole.shown()[0], "a page down"
            assert page < size / 3, f"a page of orcs: {page} B, the screen drawn whole {size} B"
    finally:
        gm.close()
