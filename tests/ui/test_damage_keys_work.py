"""The keys of a damage (``d`` opens the prompt, Enter applies it, ``u`` undoes it) do no more than what they
change: an undo lays nothing out, no frame of theirs has Textual arrange the whole screen a second time, the
prompt opening asks only the widgets on its line for that line, and its field is emptied after the Enter's
frame. A next turn right after a dialog closed asks no more widgets for their lines than any other."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.widgets import Static

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


async def test_the_prompt_opening_asks_only_the_widgets_on_its_line_and_only_for_that_line(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """``d`` shows the prompt on the footer's line: its frame, which follows a layout, asks only the widgets
    lying on that line and not wholly under the prompt there for their lines, and only for that line: none.
    (After a layout every widget around the changes was asked for every line of its own: the screen's 24, the
    phase bar, the list's box.) Its title,
    the same as the last time, and its refusal's line, empty, are not written again (each asked for a layout
    and was drawn anew)."""
    saved_round(data_root, "ambush", ["Raf", "Ada"], 200)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        await until(pilot, lambda: settled(screen), "the round drawn")
        asked: dict[str, list[int]] = {}
        for widget in (screen, screen.phase_bar, screen.order_list, screen.round_log, screen.key_footer):
            render_lines = widget.render_lines

            def noted(crop: Any, _render: Any = render_lines, _name: str = type(widget).__name__) -> Any:
                asked.setdefault(_name, []).append(crop.height)
                return _render(crop)

            widget.render_lines = noted  # type: ignore[method-assign]
        written: list[str] = []
        for part in ("#prompt-title", "#prompt-error"):
            line = screen.amount_prompt.query_one(part, Static)
            update = line.update

            def noted_update(*args: Any, _update: Any = update, _part: str = part, **kwargs: Any) -> Any:
                written.append(_part)
                return _update(*args, **kwargs)

            line.update = noted_update  # type: ignore[method-assign]
        for time in range(3):  # (the first time, a warm-up: the screen's first frames may still be on their way)
            asked.clear()
            await pilot.press("d")
            await until(pilot, lambda: screen.amount_prompt.is_open and settled(screen), "the prompt drawn")
            if time:
                assert written == [], written
            written.clear()
            if time and not stock_textual():
                # (the footer, and the screen's line behind it, lie wholly under the prompt: not asked at all)
                assert asked == {}, asked
            await pilot.press("escape")
            await until(pilot, lambda: not screen.amount_prompt.is_open and settled(screen), "the prompt left")
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


async def test_the_prompts_field_is_emptied_after_the_frame_of_the_enter_that_closed_it(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """Emptying the field runs its watchers and sends its Changed message up to the app: it waits until the
    Enter's frame is out (the field, hidden, shows nothing of it). Opened again, the field is empty."""
    saved_round(data_root, "ambush", ["Raf", "Ada"], 200)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        target = screen.selected()
        assert target is not None
        hp = store(app).state.combatant(target).hp
        field = screen.amount_prompt.field
        held_at_frames: list[str] = []
        display = app._display

        def shown(on: Any, update: Any) -> None:
            if update is not None and not screen.amount_prompt.is_open:
                held_at_frames.append(field.value)
            display(on, update)

        await pilot.press("d", "3")
        await until(pilot, lambda: field.value == "3" and settled(screen), "3 typed")
        app._display = shown  # type: ignore[method-assign]
        await pilot.press("enter")
        await until(pilot, lambda: store(app).state.combatant(target).hp == hp - 3, "the damage")
        await until(pilot, lambda: settled(screen) and field.value == "", "the field emptied")
        assert held_at_frames[:1] == ["3"], held_at_frames
        await pilot.press("d")
        await until(pilot, lambda: screen.amount_prompt.is_open and settled(screen), "the prompt again")
        assert field.value == ""
        await pilot.press("escape", "q")


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
