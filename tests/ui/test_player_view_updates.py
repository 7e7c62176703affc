"""The players' view of a big fight after each of the GM's actions: the public view and the order's lines made
again only where the fight changed, only the lines in sight drawn, and the order scrolled only when the slot
acting now is out of sight."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from textual.pilot import Pilot

from tests.engine.test_public import physical
from tests.ui.frames_written import FramesWritten
from tests.ui.steps import SIZE
from tests.waiting import settled, until
from tui_combat.engine import actions as a
from tui_combat.fight import session
from tui_combat.fight.store import Store
from tui_combat.screens.player_view import PlayerViewApp, PlayerViewScreen
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


@asynccontextmanager
async def viewing(
    tmp_path: Path, gm: Store, large: bool = False
) -> AsyncIterator[tuple[Store, Pilot[None], PlayerViewScreen]]:
    """The players' view of ``gm``'s session, open at 80×24 (the GM's store closed after)."""
    try:
        assert gm.folder is not None
        viewer = PlayerViewApp(
            tmp_path,
            gm.folder.folder.name,
            large=large,
            settings_path=tmp_path / "none.toml",
            poll_seconds=0.02,
            handle_hangup=False,
        )
        async with viewer.run_test(size=SIZE) as pilot:
            screen = viewer.screen
            assert isinstance(screen, PlayerViewScreen)
            yield gm, pilot, screen
    finally:
        gm.close()


def order_text(screen: PlayerViewScreen) -> str:
    """The order's rows in sight (drawing no other)."""
    lines = screen.query_one("#view-order", ManyLines)
    top, height = lines.scroll_offset.y, lines.scrollable_content_region.height
    strips = [lines._row(index) for index in range(top, min(top + height, len(lines._rows)))]
    return "\n".join(strip.text.rstrip() for strip in strips)


async def test_a_turn_moving_on_to_a_slot_in_sight_scrolls_nothing_and_draws_only_the_lines_in_sight(
    tmp_path: Path,
) -> None:
    async with viewing(tmp_path, big_fight(tmp_path)) as (gm, pilot, screen):
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


async def test_a_turn_moving_on_to_a_slot_out_of_sight_brings_it_into_sight(tmp_path: Path) -> None:
    monsters_first = big_fight(tmp_path, party=10, monsters=7)  # the party's slot far below
    async with viewing(tmp_path, monsters_first) as (gm, pilot, screen):
        await until(pilot, lambda: "▶ Orc 1" in order_text(screen) and settled(screen), "the orcs acting")
        lines = screen.query_one("#view-order", ManyLines)
        assert lines.scroll_offset.y == 0 and "Raf" not in order_text(screen)
        gm.dispatch(a.NextStep())
        await until(pilot, lambda: "▶ Raf" in order_text(screen) and settled(screen), "Raf acting, in sight")
        assert lines.scroll_offset.y > 0
        gm.dispatch(a.PreviousStep())
        await until(pilot, lambda: "▶ Orc 1" in order_text(screen) and settled(screen), "the orcs again")
        assert lines.scroll_offset.y == 0


async def test_the_large_layout_follows_the_turn_as_the_standard_one(tmp_path: Path) -> None:
    async with viewing(tmp_path, big_fight(tmp_path), large=True) as (gm, pilot, screen):
        await until(pilot, lambda: "▶ Raf" in order_text(screen) and settled(screen), "Raf acting")
        gm.dispatch(a.NextStep())
        await until(pilot, lambda: "▶ Troll 1" in order_text(screen) and settled(screen), "the monsters acting")
        assert "✓ Raf" in order_text(screen)
        troll = next(c for c in gm.state.combatants if c.name == "Troll 1")
        gm.dispatch(a.Damage(combatant=troll.id, amount=99))  # dead: the large layout marks him so
        await until(pilot, lambda: "Troll 1 ✝" in order_text(screen) and settled(screen), "the troll dead")


async def test_a_new_page_of_the_order_is_drawn_where_it_differs_and_shows_what_the_whole_screen_does(
    tmp_path: Path, in_colour: None
) -> None:
    """The turn moving to a slot out of sight, back, and a page scrolled by the wheel: each line of the order is
    redrawn only where it differs from what the terminal shows there, and the terminal then shows, cell for cell
    and colour for colour, the screen drawn whole (each frame written as the app writes it: with fewer codes).
    A page of orcs after a page of orcs differs in their numbers: far fewer bytes than the page drawn whole."""
    monsters_first = big_fight(tmp_path, party=10, monsters=7)  # the party's slot far below
    async with viewing(tmp_path, monsters_first) as (gm, pilot, screen):
        await until(pilot, lambda: "▶ Orc 1" in order_text(screen) and settled(screen), "the orcs acting")
        lines = screen.query_one("#view-order", ManyLines)
        written = FramesWritten(pilot.app, lines)
        await until(pilot, lambda: settled(screen), "the screen drawn whole")
        for action, who in ((a.NextStep(), "▶ Raf"), (a.PreviousStep(), "▶ Orc 1")):
            gm.dispatch(action)
            await until(pilot, lambda: who in order_text(screen) and settled(screen), who)
            assert written.shows_the_whole(), who
            await until(pilot, lambda: settled(screen), "drawn whole again")  # (for the next step)

        written.frames.clear()
        lines.scroll_to(y=lines.scroll_offset.y + lines.scrollable_content_region.height, animate=False)
        await until(pilot, lambda: bool(written.frames) and settled(screen), "the next page of orcs")
        page = sum(written.frames)
        drawn_whole, size = written.whole()
        assert written.terminal.shown()[0] == drawn_whole.shown()[0], "a page down"
        assert page < size / 3, f"a page of orcs: {page} B, the screen drawn whole {size} B"
