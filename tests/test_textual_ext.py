"""What ``tui_combat/textual_ext`` relies on in Textual, checked by name, signature and behaviour: a new
Textual that moves any of it fails here, by name, before a frame goes stale or a hang-up hangs the app. And
its switch: with ``TUI_COMBAT_STOCK_TEXTUAL`` set, nothing of it is in place."""

from __future__ import annotations

import inspect
import signal
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.app import App, ComposeResult
from textual.geometry import Region, Size
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from tui_combat.textual_ext import STOCK_SWITCH, stock_textual
from tui_combat.textual_ext.frames import ArrangedOnce, Cover, DrawnOnce, LaidOutInPlace, outermost
from tui_combat.textual_ext.scroll_bars import SteadyScrollBars
from tui_combat.textual_ext.terminal_driver import GoneTerminalOutput, kept_driver


@pytest.fixture
def own_signals() -> Iterator[None]:
    """The driver puts its own Ctrl+Z handlers in place: the test process gets its own back."""
    kept = {number: signal.getsignal(number) for number in (signal.SIGTSTP, signal.SIGCONT)}
    yield
    for number, handler in kept.items():
        signal.signal(number, handler)


# -- the frames ---------------------------------------------------------------------------------------
def test_the_compositor_is_where_and_what_frames_take_it_to_be() -> None:
    from textual._compositor import Compositor

    assert list(inspect.signature(Compositor.reflow).parameters) == ["self", "parent", "size"]
    compositor = Compositor()
    assert isinstance(compositor._full_map_invalidated, bool)  # the flag ArrangedOnce clears after a layout
    assert isinstance(Screen()._compositor, Compositor)  # the screen's compositor, put in place per screen


def test_the_update_of_changed_spans_is_what_the_first_cut_takes_it_to_be() -> None:
    """Textual's update of changed spans: built from the chops of each line, the spans and where each chop ends,
    and written by ``render_segments``; the frame of changes is one (taken over) and a whole frame is not."""
    from rich.segment import Segment
    from textual._compositor import ChopsUpdate, LayoutUpdate
    from textual.geometry import Region
    from textual.strip import Strip

    from tui_combat.textual_ext.exact_cuts import FromTheFirstChange, from_the_first_change

    assert list(inspect.signature(ChopsUpdate.__init__).parameters) == ["self", "chops", "spans", "chop_ends"]
    update = ChopsUpdate([{0: Strip([Segment("Orc 47")])}], [(0, 4, 6)], [[6]])
    assert (update.chops, update.spans, update.chop_ends) == ([{0: Strip([Segment("Orc 47")])}], [(0, 4, 6)], [[6]])
    taken = from_the_first_change(update)
    assert isinstance(taken, FromTheFirstChange)
    from rich.console import Console

    console = Console(width=20, color_system=None)
    assert update.render_segments(console).endswith("Orc 47") and taken.render_segments(console).endswith("47")
    whole = LayoutUpdate([Strip([Segment("Orc 47")])], Region(0, 0, 6, 1))
    assert from_the_first_change(whole) is whole


async def test_a_layout_leaves_the_map_up_to_date() -> None:
    class Plain(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("a")

    app = Plain()
    async with app.run_test(size=(20, 5)) as pilot:
        compositor = ArrangedOnce()
        compositor._full_map_invalidated = True
        compositor.reflow(app.screen, Size(20, 5))
        assert compositor._full_map_invalidated is False
        await pilot.pause()


def test_a_screen_is_marked_for_a_whole_repaint_as_frames_take_it() -> None:
    screen = Screen[None]()
    screen._repaint_required = False
    screen.refresh()  # not mounted: marked, as DrawnOnce clears it
    assert screen._repaint_required is True
    source = inspect.getsource(Screen._on_screen_resume)
    assert "self.refresh()" in source  # the whole repaint at each appearance that DrawnOnce drops the first time


async def test_a_modal_screen_is_drawn_once_and_runs_on_stock_textual_too(monkeypatch: pytest.MonkeyPatch) -> None:
    class Dialog(DrawnOnce, ModalScreen[None]):
        def compose(self) -> ComposeResult:
            yield Static("dialog")

    for stock in ("", "1"):
        monkeypatch.setenv(STOCK_SWITCH, stock)
        app: App[None] = App()
        async with app.run_test(size=(30, 6)) as pilot:
            dialog = Dialog()
            await app.push_screen(dialog)
            await pilot.pause()
            assert dialog._shown is not bool(stock)
            assert isinstance(dialog._compositor, ArrangedOnce) is not bool(stock)
            assert "dialog" in str(dialog._compositor.render_strips()[0].text) or any(
                "dialog" in str(strip.text) for strip in dialog._compositor.render_strips()
            )


def test_a_widget_can_tell_its_screen_of_its_look_at_once() -> None:
    from textual import messages
    from textual.widget import Widget

    widget = Widget()
    assert messages.Update(widget).widget is widget  # the message a screen redraws a widget on
    widget._repaint_required = False
    widget.refresh()  # not mounted: marked, as told_at_once clears it
    assert widget._repaint_required is True
    source = inspect.getsource(Widget._check_refresh)
    assert "if self._repaint_required:" in source and "messages.Update(self)" in source  # its own telling


def test_a_frame_asks_only_the_widgets_some_of_whose_cells_show() -> None:
    from textual._compositor import Compositor
    from textual.geometry import Region

    assert list(inspect.signature(Compositor.render_full_update).parameters) == ["self", "simplify"]
    assert list(inspect.signature(Compositor.render_partial_update).parameters) == ["self"]
    top, under, beside, half = Static(), Static(), Static(), Static()
    whole = Region(0, 0, 80, 24)
    shown = {
        top: (Region(0, 15, 80, 9), whole),
        under: (Region(0, 16, 40, 8), whole),
        half: (Region(0, 10, 40, 10), whole),
        beside: (Region(0, 0, 80, 10), whole),
    }
    assert list(ArrangedOnce.uncovered(shown)) == [top, half, beside]

    # A form under its lines and rows: none covers it whole, all of them do side by side.
    line, left, right, form = Static(), Static(), Static(), Static()
    shown = {
        line: (Region(0, 15, 80, 2), whole),
        left: (Region(0, 17, 30, 7), whole),
        right: (Region(30, 17, 50, 7), whole),
        form: (Region(0, 15, 80, 9), whole),
    }
    assert list(ArrangedOnce.uncovered(shown)) == [line, left, right]
    shown[right] = (Region(31, 17, 49, 7), whole)  # a column of the form shows
    assert list(ArrangedOnce.uncovered(shown)) == [line, left, right, form]


regions = st.builds(Region, st.integers(0, 70), st.integers(0, 20), st.integers(0, 12), st.integers(0, 6))


def cells_of(of: list[Region]) -> set[tuple[int, int]]:
    """The cells of ``of``, one by one: what a frame's regions are checked against."""
    return {(x, y) for region in of for y in range(region.y, region.bottom) for x in range(region.x, region.right)}


@given(st.lists(regions, max_size=12))
def test_the_regions_a_frame_redraws_are_narrowed_to_the_outermost_with_the_same_cells(
    given_regions: list[Region],
) -> None:
    """A layout that shows a form redraws the form and each of its parts: a frame looks at the form only."""
    kept = outermost(given_regions)
    assert cells_of(kept) == cells_of(given_regions)
    assert all(region for region in kept)
    assert not any(one is not other and one.contains_region(other) for one in kept for other in kept)
    assert set(kept) <= set(given_regions)


@given(st.lists(regions, max_size=12), regions)
def test_a_cover_holds_a_region_when_the_regions_added_hold_each_of_its_cells(
    added: list[Region], region: Region
) -> None:
    cover = Cover()
    for one in added:
        cover.add(one)
    assert cover.holds(region) == (cells_of([region]) <= cells_of(added))


def test_a_layout_tells_a_scroll_view_its_sizes_as_steady_scroll_bars_take_them() -> None:
    from textual.scroll_view import ScrollView

    assert list(inspect.signature(ScrollView._size_updated).parameters) == [
        "self",
        "size",
        "virtual_size",
        "container_size",
        "layout",
    ]
    from tui_combat.widgets.order_list import OrderList
    from tui_combat.widgets.redraw import RoundLog

    for widget in (OrderList, RoundLog):
        assert widget.__mro__.index(SteadyScrollBars) < widget.__mro__.index(ScrollView)


# -- the driver ---------------------------------------------------------------------------------------
async def test_textual_s_linux_driver_writes_to_standard_error_and_handles_ctrl_z(own_signals: None) -> None:
    """What the hang-up-safe driver relies on: ``LinuxDriver`` takes ``sys.__stderr__`` as it is made as the
    file its output thread writes to, and puts SIGTSTP and SIGCONT handlers of its own in place."""
    from textual.drivers.linux_driver import LinuxDriver

    kept = sys.__stderr__
    marker: Any = GoneTerminalOutput(sys.stderr)
    sys.__stderr__ = marker
    try:
        driver = LinuxDriver(App(), debug=False, mouse=False, size=(80, 24))
    finally:
        sys.__stderr__ = kept
    assert driver._file is marker
    assert signal.getsignal(signal.SIGTSTP) == driver._sigtstp_application
    assert signal.getsignal(signal.SIGCONT) == driver._sigcont_application


async def test_a_sigcont_restarts_only_what_a_sigtstp_stopped(
    own_signals: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual.drivers.linux_driver import LinuxDriver

    driver: Any = kept_driver(LinuxDriver)(App(), debug=False, mouse=False, size=(80, 24))
    assert isinstance(driver._file, GoneTerminalOutput)
    resumed: list[bool] = []
    stopped: list[bool] = []
    monkeypatch.setattr(driver, "resume_application_mode", lambda: resumed.append(True))
    monkeypatch.setattr(driver, "suspend_application_mode", lambda: stopped.append(True))
    monkeypatch.setattr("os.kill", lambda pid, number: None)  # (Textual's SIGTSTP handler stops the process)
    continued = signal.getsignal(signal.SIGCONT)
    assert callable(continued)
    continued(signal.SIGCONT, None)  # a hang-up: SIGHUP, then SIGCONT
    assert resumed == []
    stop = signal.getsignal(signal.SIGTSTP)
    assert callable(stop)
    stop(signal.SIGTSTP, None)  # Ctrl+Z …
    continued(signal.SIGCONT, None)  # … and fg
    assert stopped == [True] and resumed == [True]


def test_on_stock_textual_the_driver_is_textual_s(monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.drivers.linux_driver import LinuxDriver

    monkeypatch.setenv(STOCK_SWITCH, "1")
    assert stock_textual()
    assert kept_driver(LinuxDriver) is LinuxDriver
    monkeypatch.setenv(STOCK_SWITCH, "0")
    assert not stock_textual()


def test_the_round_screen_lays_out_in_place() -> None:
    from tui_combat.screens.round import RoundScreen

    assert issubclass(RoundScreen, LaidOutInPlace)
