"""The keys of a damage (``d`` opens the prompt, Enter applies it, ``u`` undoes it) do no more than what they
change: an undo lays nothing out, no frame of theirs has Textual arrange the whole screen a second time, the
prompt is drawn on the footer's line, laying nothing out and leaving the focus where it is. A next turn right
after a dialog closed asks no more widgets for their lines than any other."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.ui.fights import opened_round, saved_round
from tests.ui.steps import SIZE, log_texts, store
from tests.waiting import settled, until
from tui_combat.app import CombatApp
from tui_combat.screens.round import RoundScreen
from tui_combat.textual_ext import stock_textual


def counting(screen: RoundScreen, *names: str) -> list[str]:
    """The calls of the screen's compositor's methods ``names`` from now on, by name."""
    compositor = screen._compositor
    calls: list[str] = []
    for name in names:
        method = getattr(compositor, name)

        def noted(*args: Any, _method: Any = method, _name: str = name, **kwargs: Any) -> Any:
            calls.append(_name)
            return _method(*args, **kwargs)

        setattr(compositor, name, noted)
    return calls


async def test_an_undo_lays_nothing_out_nor_arranges_the_screen(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """``u`` changes a row of the list, the card and the log, which scrolls back a line: none of them moves
    or resizes a widget. The log asked Textual for a layout of the whole screen (its virtual size changed),
    and the log's scroll bar, kept hidden, redrawn at each scroll, had the compositor take it for a new
    widget and arrange the whole screen again as the frame was drawn."""
    saved_round(data_root, "ambush", ["Raf", "Ada"], 200)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        target = screen.selected()
        assert target is not None
        hp = store(app).state.combatant(target).hp
        for _time in range(2):
            await pilot.press("d", "3", "enter")
            await until(pilot, lambda: store(app).state.combatant(target).hp == hp - 3, "the damage")
            await until(pilot, lambda: settled(screen) and not screen.amount_prompt.is_open, "the damage drawn")
            calls = counting(screen, "reflow", "reflow_visible", "_arrange_root")
            lines = len(log_texts(app))
            await pilot.press("u")
            await until(pilot, lambda: store(app).state.combatant(target).hp == hp, "the undo")
            await until(pilot, lambda: settled(screen) and len(log_texts(app)) == lines - 1, "the undo drawn")
            if not stock_textual():
                assert "reflow" not in calls and calls.count("_arrange_root") == calls.count("reflow_visible"), calls
        await pilot.press("q")


async def test_the_prompt_is_drawn_on_the_footers_line_and_lays_nothing_out_nor_moves_the_focus(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """``d`` draws the prompt on the footer's row: its frame asks the footer alone for its one line, and nothing
    is laid out; the digits typed, Esc, and Enter applying a damage lay nothing out either, and the focus stays on
    the turn list throughout (a prompt of widgets laid the screen out as it opened and closed, and moved the
    focus to its field and back: some twenty messages). Opened again, the prompt is empty."""
    saved_round(data_root, "ambush", ["Raf", "Ada"], 200)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        await until(pilot, lambda: settled(screen), "the round drawn")
        target = screen.selected()
        assert target is not None
        hp = store(app).state.combatant(target).hp
        asked: dict[str, list[int]] = {}
        for widget in (screen, screen.phase_bar, screen.order_list, screen.round_log, screen.key_footer):
            render_lines = widget.render_lines

            def noted(crop: Any, _render: Any = render_lines, _name: str = type(widget).__name__) -> Any:
                asked.setdefault(_name, []).append(crop.height)
                return _render(crop)

            widget.render_lines = noted  # type: ignore[method-assign]
        focused: list[object] = []
        set_focus = screen.set_focus

        def noted_focus(*args: Any, **kwargs: Any) -> Any:
            focused.append(args[0] if args else None)
            return set_focus(*args, **kwargs)

        screen.set_focus = noted_focus  # type: ignore[method-assign]
        for time in range(3):  # (the first time, a warm-up: the screen's first frames may still be on their way)
            calls = counting(screen, "reflow")
            asked.clear()
            await pilot.press("d")
            await until(pilot, lambda: screen.amount_prompt.is_open and settled(screen), "the prompt drawn")
            assert screen.amount_prompt.value == ""
            if time and not stock_textual():
                assert asked == {"KeyFooter": [1]}, asked
            await pilot.press("3")
            await until(pilot, lambda: screen.amount_prompt.value == "3" and settled(screen), "3 typed")
            assert "3" in screen.key_footer.render_line(0).text
            await pilot.press("escape" if time < 2 else "enter")
            await until(pilot, lambda: not screen.amount_prompt.is_open and settled(screen), "the prompt closed")
            assert calls == [], (time, calls)
            assert focused == [] and screen.focused is screen.order_list, focused
        assert store(app).state.combatant(target).hp == hp - 3
        assert "3" not in screen.key_footer.render_line(0).text
        await pilot.press("q")


async def test_a_next_turn_right_after_a_dialog_closed_asks_the_footer_and_the_log_for_nothing(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """A next turn changes neither the footer nor the log: its frame does not ask them for their lines, right after
    the help (a panel over the round screen) or the attack form closed too. (The first frame after a whole one
    asked every widget around the changes for every line.)"""
    saved_round(data_root, "ambush", ["Raf", "Ada"], 200)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        await pilot.press("n", "b")  # (the first action lights Undo in the footer)
        await until(pilot, lambda: store(app).state.cursor == 0 and settled(screen), "a turn and back")
        asked: list[str] = []
        for widget in (screen.key_footer, screen.round_log):
            render_lines = widget.render_lines

            def noted(crop: Any, _render: Any = render_lines, _name: str = type(widget).__name__) -> Any:
                asked.append(_name)
                return _render(crop)

            widget.render_lines = noted  # type: ignore[method-assign]
        for dialog in ("f1", "a", "f1"):
            await pilot.press(dialog)
            await until(pilot, lambda: screen.help_panel.is_open or screen.form_panel.is_open, "the dialog open")
            await until(pilot, lambda: settled(app.screen), "the dialog drawn")
            await pilot.press("escape")
            await until(
                pilot, lambda: not (screen.help_panel.is_open or screen.form_panel.is_open), "the dialog closed"
            )
            await until(pilot, lambda: settled(screen), "the round drawn again")
            before = store(app).state.cursor
            asked.clear()
            await pilot.press("n")
            await until(pilot, lambda: store(app).state.cursor != before and settled(screen), "the next turn")
            if not stock_textual():
                assert asked == [], (dialog, asked)
            await pilot.press("b")
            await until(pilot, lambda: store(app).state.cursor == before and settled(screen), "back")
        await pilot.press("q")


async def test_the_first_action_of_a_fight_lights_undo_in_the_frame_of_its_enter(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """In a fight nobody has acted in yet, Enter of a damage lights Undo in the footer: the row, uncovered as the
    prompt closes, is drawn with Undo lit in that frame, not again in a frame of its own some 30 ms later (the
    footer told its screen of its change when it next idled)."""
    from textual._compositor import ChopsUpdate, LayoutUpdate

    saved_round(data_root, "ambush", ["Raf", "Ada"], 20)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        await until(pilot, lambda: settled(screen), "the round drawn")
        for _time in range(2):
            assert not store(app).can_undo
            await pilot.press("d", "3")
            await until(pilot, lambda: screen.amount_prompt.is_open and settled(screen), "the prompt typed in")
            frames: list[object] = []
            display = app._display

            def counted(shown: Any, renderable: Any, _display: Any = display) -> None:
                if isinstance(renderable, (ChopsUpdate, LayoutUpdate)):
                    frames.append(renderable)
                _display(shown, renderable)

            app._display = counted  # type: ignore[method-assign]
            await pilot.press("enter")
            await until(pilot, lambda: store(app).can_undo and settled(screen), "the damage applied")
            await until(pilot, lambda: bool(frames) and settled(screen), "its frame drawn")
            await pilot.pause()
            app._display = display  # type: ignore[method-assign]
            if not stock_textual():
                assert len(frames) == 1, frames
            await pilot.press("u")
            await until(pilot, lambda: not store(app).can_undo and settled(screen), "undone")
        await pilot.press("q")


async def test_the_footers_rows_come_back_as_drawn(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    """Enter lights Undo, ``u`` dims it: the footer's two rows are worked out once each, then given again as they
    were drawn, and each is the row worked out anew (its cells, where its keys lie, those left out)."""
    from tui_combat.widgets.footer import KeyFooter

    saved_round(data_root, "ambush", ["Raf", "Ada"], 20)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        footer = screen.query_one(KeyFooter)
        await until(pilot, lambda: settled(screen), "the round drawn")
        drawn: list[int] = []
        for _time in range(3):
            await pilot.press("d", "3", "enter")
            await until(pilot, lambda: store(app).can_undo and settled(screen), "the damage applied")
            drawn.append(footer.rows_drawn)
            lit = (footer.render_line(0), list(footer._placed), footer.left_out)
            await pilot.press("u")
            await until(pilot, lambda: not store(app).can_undo and settled(screen), "undone")
            drawn.append(footer.rows_drawn)
        assert drawn[2:] == [drawn[1]] * 4, drawn
        footer._drawn.clear()
        footer._strip_for = None
        dimmed = footer.render_line(0)
        assert footer.rows_drawn == drawn[-1] + 1
        await pilot.press("d", "3", "enter")
        await until(pilot, lambda: store(app).can_undo and settled(screen), "the damage applied")
        assert (footer.render_line(0), footer._placed, footer.left_out) == lit
        assert footer.render_line(0) != dimmed and footer.rows_drawn == drawn[-1] + 2
        await pilot.press("q")
