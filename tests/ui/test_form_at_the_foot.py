"""What a combatant does (an attack, a main action) is asked at the foot of the round screen, over the footer,
the turn order still in sight: the form is made once and filled in anew, Tab goes round its fields, the
round's keys wait while it is open, and keys typed with the key that opens it land in its fields."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual import events, messages
from textual.message import Message
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input, Select

from tests.ui.fights import opened_round, saved_round
from tests.ui.steps import (
    SIZE,
    combatant_id,
    dialog_error,
    leave_damage,
    log_texts,
    select,
    store,
    to_round,
    type_initiative,
    until_closed,
    until_form,
    until_prompt,
)
from tests.ui.test_attack_flow import fight
from tests.waiting import settled, until
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.fight.store import Store
from tui_combat.saves.locations import sessions_dir
from tui_combat.screens.form_panel import FormPanel
from tui_combat.screens.round import RoundScreen
from tui_combat.textual_ext import stock_textual
from tui_combat.widgets.amount_prompt import FIELD_WIDTH, AmountPrompt
from tui_combat.widgets.order_list import OrderList


def start(make_app: Callable[..., CombatApp], data_root: Path) -> CombatApp:
    Store.create(fight("adnd2e"), sessions_dir(data_root) / "hammer").close()
    return make_app(resume="hammer")


async def damage_prompt(pilot: Pilot[None]) -> tuple[RoundScreen, AmountPrompt]:
    """The round screen of the session the app opens, with the damage prompt open on the one selected."""
    screen = await opened_round(pilot)
    await pilot.press("d")
    return screen, await until_prompt(pilot)


async def attack_form_drawn(pilot: Pilot[None]) -> tuple[RoundScreen, FormPanel]:
    """The round screen of the session the app opens, with the attack form of the one acting drawn on it."""
    screen = await opened_round(pilot)
    await pilot.press("a")
    form = await until_form(pilot, "the attack form")
    assert isinstance(form, FormPanel)
    await until(pilot, lambda: settled(screen), "the form drawn")
    return screen, form


def in_sight(field: Widget) -> list[Widget]:
    """A list field and those of its parts in sight (it draws its choice itself; its list of choices is hidden,
    and looks the same with the focus or without)."""
    return [
        part for part in field.walk_children(with_self=True) if all(node.display for node in part.ancestors_with_self)
    ]


def focused_id(app: CombatApp) -> str | None:
    focused = app.screen.focused
    return None if focused is None else focused.id


async def test_the_form_is_made_once_and_filled_in_anew(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    app = start(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        await pilot.press("a")
        form = await until_form(pilot, "the attack form")
        assert isinstance(form, FormPanel) and form is screen.form_panel and form.rows_made == 1
        assert "Attack — Raf" in form.title_text
        form.query_one("#f-bonus", Input).focus()
        await pilot.press("x", "ctrl+s")  # not a number: refused, in the form
        await until(pilot, lambda: "Other modifiers" in dialog_error(app), "the refusal")
        await pilot.press("escape")
        await until_closed(pilot, form, "the form left")
        assert not form.display and not form.is_open

        await pilot.press("a")
        again = await until_form(pilot, "the attack form again")
        assert again is form and form.rows_made == 1  # the same rows, filled in anew
        assert form.query_one("#f-bonus", Input).value == "0" and dialog_error(app) == ""
        assert focused_id(app) == "f-with"  # the first field takes the keys again
        await until(pilot, lambda: "to hit" in str(form.query_one("#dialog-preview").render()), "the chance")

        # Another action, with other fields: its own rows, in place of the attack's.
        await pilot.press("ctrl+s")  # the attack, rolled; a hit's damage left for later
        await leave_damage(pilot)
        await pilot.press("c")  # a main action after his attacks: its own form, which asks to ignore the book
        main = await until_form(pilot, "the main action's form")
        assert main is form and form.rows_made == 2
        assert [spec.key for spec in form.fields] != ["with", "target", "target_ac", "bonus", "roll"]
        assert not form.query("#f-with")


async def test_tab_goes_round_the_fields_and_the_rounds_keys_wait(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    app = start(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        await opened_round(pilot)
        before = store(app).state
        await pilot.press("a")
        form = await until_form(pilot, "the attack form")
        fields = [widget.id for widget in form.field_widgets()]
        assert fields == ["f-with", "f-target", "f-target_ac", "f-bonus", "f-roll"]
        seen = []
        for _ in fields:
            seen.append(focused_id(app))
            await pilot.press("tab")
        assert seen == fields and focused_id(app) == "f-with"  # round, never out to the turn list
        await pilot.press("shift+tab")
        assert focused_id(app) == "f-roll"
        await pilot.press("shift+tab", "shift+tab", "shift+tab", "shift+tab")
        assert focused_id(app) == "f-with" and isinstance(app.screen.focused, Select)
        await pilot.press("n", "u", "d")  # on a list: the round's keys (next, undo, damage) do nothing
        await until(pilot, lambda: settled(app.screen), "the keys handled")
        assert form.is_open and store(app).state is before and not app.screen.amount_prompt.is_open

        round_screen = app.screen
        assert isinstance(round_screen, RoundScreen)
        await pilot.press("f1")  # help over the form: the form waits under it, as it was
        await until(pilot, lambda: round_screen.help_panel.is_open, "the help")
        await pilot.press("x", "down")  # the help's keys: nothing reaches the form
        await pilot.press("escape")
        await until(pilot, lambda: not round_screen.help_panel.is_open and settled(round_screen), "back")
        assert form.is_open and focused_id(app) == "f-with" and store(app).state is before
        await pilot.press("escape")
        await until_closed(pilot, form)
        assert focused_id(app) == "order"


async def test_keys_typed_with_the_key_that_opens_it_land_in_its_fields(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """The first attack form of a session is made as ``a`` is handled: what is typed behind it waits for its
    fields, then lands where it would have had the form been there already."""
    app = start(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        assert screen.form_panel.rows_made == 0
        for name, character in (
            ("a", "a"),
            ("tab", "\t"),
            ("tab", "\t"),
            ("tab", "\t"),
            ("tab", "\t"),
            ("1", "1"),
            ("7", "7"),
            ("enter", "\r"),
        ):
            app.post_message(events.Key(name, character))  # all at once, as over a slow link
        await until(
            pilot,
            lambda: any(text.startswith("Raf attacks") for text in log_texts(app)),
            "the attack",
            describe=lambda: dialog_error(app) if screen.form_panel.is_open else "the form is closed",
        )
        assert "Raf attacks Orc 1 (AC 6) with war hammer: d20 17 +4 magic vs 10 — hit." in log_texts(app)
        assert await leave_damage(pilot)


async def test_the_selected_row_stays_in_sight_above_the_form(make_app: Callable[..., CombatApp]) -> None:
    """The AD&D demo, the monsters' turn: Orc 6, the last of fourteen rows, attacks. Every row fits on the
    screen, but his would be under the form, which covers the foot of the list: the list scrolls it up above
    the form, and back when the form closes."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        await type_initiative(pilot, "7", "10")  # the party (7) first, the monsters (10) after them
        orc = combatant_id(app, "Orc 6")
        await pilot.press("n")
        await until(pilot, lambda: orc in store(app).state.acting_now(), "the monsters' turn")
        await select(pilot, orc)
        order = app.screen.query_one(OrderList)
        assert order.scroll_offset.y == 0

        def row_y() -> int:
            assert order.highlighted is not None
            return order.scrollable_content_region.y + order.highlighted - order.scroll_offset.y

        await pilot.press("a")
        form = await until_form(pilot, "Orc 6's attack form")
        await until(
            pilot,
            lambda: settled(app.screen) and row_y() < form.region.y,
            "his row above the form",
            describe=lambda: f"his row at {row_y()}, the form from {form.region.y}",
        )
        await pilot.press("escape")
        await until_closed(pilot, form)
        await until(pilot, lambda: order.scroll_offset.y == 0, "the list back where it was")


async def test_a_list_field_tells_the_screen_of_its_new_look_at_once(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A list field (its choice, its arrow) is restyled as it gains or loses the focus. It
    would tell the screen of it only when it next idles, after the screen may have drawn the key's frame:
    the attack form came in two frames, its first field drawn focused some 20 ms after the rest. Told at once,
    none tells it again later (that drew the field a second time, as it was, in a frame of its own)."""
    app = start(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        screen, form = await attack_form_drawn(pilot)
        field = form.query_one("#f-with", Select)
        parts = in_sight(field)
        assert parts
        told: list[object] = []
        post = screen.post_message

        def telling(message: Message) -> bool:
            if isinstance(message, messages.Update):
                told.append(message.widget)
            return post(message)

        monkeypatch.setattr(screen, "post_message", telling)
        for focused in (False, True):
            told.clear()
            field.has_focus = focused  # what Textual sets as the focus leaves or comes, then restyles
            waiting = [type(part).__name__ for part in parts if part not in told]
            assert waiting == [], f"focus {focused}: {waiting} wait to be drawn"
            again = [type(part).__name__ for part in parts if part._repaint_required]
            assert again == [], f"focus {focused}: {again} would be drawn again in a frame of their own"


async def test_a_list_field_looks_as_the_stylesheet_says_each_time_the_focus_comes_and_goes(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """Its parts' rules, kept from the first time the focus came or went, are those a full restyle gives,
    the next times too, and after the theme changed."""
    app = start(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        screen, form = await attack_form_drawn(pilot)
        field = form.query_one("#f-with", Select)
        parts = in_sight(field)

        def looks() -> list[str]:
            return [part.styles.css for part in parts]

        themes = [app.theme, next(name for name in app.available_themes if name != app.theme)]
        for theme in themes:
            app.theme = theme
            await pilot.pause()
            for focused in (False, True, False, True):
                field.has_focus = focused
                kept = looks()
                app.stylesheet.update_nodes(parts)  # worked out from nothing
                assert kept == looks(), f"focus {focused}, theme {theme}"
        field.has_focus = False
        unfocused = looks()
        field.has_focus = True
        assert looks() != unfocused  # (the test sees the focus: the field looks different with it)


async def test_a_list_field_left_with_the_focus_as_the_form_closed_looks_unfocused_when_it_opens_again(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """A hidden field is not restyled as the focus leaves it (nobody sees it): opened again, the one that takes
    the focus and the one that does not each look as they did the first time, as the stylesheet says."""
    app = start(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        screen, form = await attack_form_drawn(pilot)

        def parts(field_id: str) -> list[Widget]:
            field = form.query_one(field_id, Select)
            return in_sight(field)

        def looks() -> dict[str, list[str]]:
            return {field_id: [part.styles.css for part in parts(field_id)] for field_id in ("#f-with", "#f-target")}

        first = looks()  # the first field focused
        await pilot.press("tab")
        await until(pilot, lambda: settled(screen), "the focus moved")
        assert focused_id(app) == "f-target" and looks() != first
        await pilot.press("escape")  # the second field keeps the focus as the form closes
        await until_closed(pilot, form)
        await until(pilot, lambda: settled(screen), "the form closed")

        await pilot.press("a")
        await until_form(pilot, "the attack form again")
        await until(pilot, lambda: settled(screen), "the form drawn again")
        assert focused_id(app) == "f-with" and looks() == first
        for field_id in ("#f-with", "#f-target"):
            app.stylesheet.update_nodes(parts(field_id))  # worked out from nothing
        assert looks() == first


async def test_the_field_that_had_the_focus_as_the_form_closed_is_not_restyled_as_it_takes_it_again(
    make_app: Callable[..., CombatApp], data_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Left looking focused as the form closed, the first field looks so as it takes the focus again: it is not
    restyled (some 1.3 ms of the key that opens the form). After a change of theme meanwhile it is, and looks as
    the new stylesheet says."""
    app = start(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        screen, form = await attack_form_drawn(pilot)
        field = form.query_one("#f-with", Select)
        nodes = {field, *field.walk_children()}
        applied: list[object] = []
        apply = app.stylesheet.apply

        def counted(node: Any, *args: Any, **kwargs: Any) -> Any:
            if node in nodes:
                applied.append(node)
            return apply(node, *args, **kwargs)

        monkeypatch.setattr(app.stylesheet, "apply", counted)
        for theme in (None, next(name for name in app.available_themes if name != app.theme)):
            await pilot.press("escape")
            await until_closed(pilot, form)
            if theme is not None:
                app.theme = theme
                await pilot.pause()
            applied.clear()
            await pilot.press("a")
            await until_form(pilot, "the attack form again")
            await until(pilot, lambda: settled(screen), "the form drawn again")
            assert focused_id(app) == "f-with"
            assert bool(applied) is (theme is not None), f"restyled: {len(applied)}, theme changed: {theme}"
            kept = [part.styles.css for part in in_sight(field)]
            app.stylesheet.update_nodes(in_sight(field))  # worked out from nothing
            assert kept == [part.styles.css for part in in_sight(field)]


async def test_opening_the_form_again_asks_nothing_under_it_for_its_lines(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """The turn list, the log and the screen behind them reach under the form: its frame asks none of them for
    the lines the form covers (they were drawn, then thrown away)."""
    app = start(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        await until(pilot, lambda: settled(screen), "the round drawn")
        asked: dict[str, list[int]] = {}
        for widget in (screen, screen.order_list, screen.round_log, screen.key_footer):
            render_lines = widget.render_lines

            def noted(crop: Any, _render: Any = render_lines, _name: str = type(widget).__name__) -> Any:
                asked.setdefault(_name, []).append(crop.height)
                return _render(crop)

            widget.render_lines = noted  # type: ignore[method-assign]
        for time in range(3):  # (the first time, the form's rows are made)
            asked.clear()
            await pilot.press("a")
            form = await until_form(pilot, "the attack form")
            await until(pilot, lambda: settled(screen), "the form drawn")
            if time and not stock_textual():
                assert asked == {}, asked
            await pilot.press("escape")
            await until_closed(pilot, form)
            await until(pilot, lambda: settled(screen), "the form closed")
        assert asked  # (closing it draws them again: the test sees them asked)


async def test_opening_the_form_redraws_the_lines_it_covers(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """The form lies over the foot of the screen: what it opens on is sent, not the list and the card above
    it. (Laid out after the screen's other widgets, it would shift their painting order, and Textual would
    redraw every one of them: twice the bytes over SSH.)"""
    app = start(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        await until(pilot, lambda: settled(screen), "the round drawn")
        lines: set[int] = set()
        display = app._display

        def noted(shown: Any, renderable: Any) -> None:
            lines.update(y for y, _start, _end in getattr(renderable, "spans", ()))
            display(shown, renderable)

        app._display = noted  # type: ignore[method-assign]
        await pilot.press("a")
        form = await until_form(pilot, "the attack form")
        await until(pilot, lambda: form.region.height > 0 and settled(screen), "the form drawn")
        top = form.region.y
        assert lines and min(lines) >= top, f"lines {sorted(lines)} redrawn, the form from line {top}"


async def test_a_form_shown_is_arranged_once(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    """Each layout of the screen arranges it once, as the add form is shown, made the first time and filled in
    the second. (Textual's compositor marked its map of every widget out of date when a widget hidden until
    then was refreshed, and the layout that followed left it so marked: the next look-up of a widget's place
    arranged the whole screen a second time, some 3 ms at 2,000 combatants.)"""
    app = start(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        await until(pilot, lambda: settled(screen), "the round drawn")
        compositor = screen._compositor
        calls: list[str] = []

        def noting(name: str) -> None:
            method = getattr(compositor, name)

            def noted(*args: Any, **kwargs: Any) -> Any:
                calls.append(name)
                return method(*args, **kwargs)

            setattr(compositor, name, noted)

        noting("_arrange_root")
        noting("reflow")
        noting("reflow_visible")
        for _time in range(2):
            calls.clear()
            await pilot.press("i")
            form = await until_form(pilot, "the add form")
            await until(pilot, lambda: form.region.height > 0 and settled(screen), "the form drawn")
            assert form is screen.add_panel
            layouts, scrolls = calls.count("reflow"), calls.count("reflow_visible")
            # (a scroll of the list to keep the selected row above the form arranges what is visible, and
            # Textual marks the whole map out of date after it: at most two arrangements of its own)
            assert layouts and layouts <= calls.count("_arrange_root") <= layouts + 2 * scrolls, calls
            assert not compositor._full_map_invalidated
            await pilot.press("escape")
            await until_closed(pilot, form, "the form left")


async def test_the_amount_prompts_cursor_stays_still(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    """The damage prompt's cursor does not blink: a blink is a frame every half second, over SSH too, and a key
    typed just after one waited for the next frame Textual allows. It is drawn on the cell after what is typed,
    in the cursor's look, and the line stays as it is while nothing is typed."""
    app = start(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        screen, prompt = await damage_prompt(pilot)
        await pilot.press("3")
        await until(pilot, lambda: prompt.value == "3" and settled(screen), "the 3 typed")
        footer = screen.key_footer
        line = footer.render_line(0)
        field_at = line.text.index("3")
        cursor_cell = line.crop(field_at + 1, field_at + 2)
        digit_cell = line.crop(field_at, field_at + 1)
        assert [segment.style for segment in cursor_cell] != [segment.style for segment in digit_cell]
        redrawn: list[object] = []
        refresh = footer.refresh

        def noted(*args: Any, **kwargs: Any) -> Any:
            redrawn.append(args)
            return refresh(*args, **kwargs)

        footer.refresh = noted  # type: ignore[method-assign]
        await pilot.press("f20")  # a key nothing takes: the prompt's line is not redrawn
        await until(pilot, lambda: settled(screen), "the key passed")
        assert redrawn == [] and footer.render_line(0) == line


async def test_the_prompt_is_drawn_on_the_footers_row_and_its_line_goes_out_whole(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """The damage prompt is drawn on the footer's row, which stays where it is: the row is one piece on the
    terminal's line (a cut is a piece sent with its own cursor move and colours), and the keys come back on
    it when the prompt closes."""
    app = start(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        await until(pilot, lambda: settled(screen), "the round drawn")
        footer = screen.key_footer
        compositor = screen._compositor
        keys = footer.render_line(0).text
        await pilot.press("d")
        prompt = await until_prompt(pilot)
        await until(pilot, lambda: settled(screen), "the prompt drawn")
        assert footer.drawn_over and prompt.title_text in footer.render_line(0).text
        assert footer.region.bottom == SIZE[1] and not prompt.display
        assert set(compositor.cuts[footer.region.y]) <= {0, SIZE[0]}
        await pilot.press("3", "enter")
        await until(pilot, lambda: not prompt.is_open and settled(screen), "the damage done")
        assert footer in compositor.visible_widgets and footer.region.bottom == SIZE[1]
        assert not footer.drawn_over and footer.render_line(0).text.split() == keys.split()


async def test_the_selected_row_stays_in_sight_above_a_refusal(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """Thirty heroes, the one on the list's last line selected, takes damage that cannot be read. The refusal
    shows above the prompt's line, over the foot of the list: his row scrolls up above it."""
    saved_round(data_root, "horde", [f"Hero {number}" for number in range(30)], 3)
    app = make_app(resume="horde")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        order = screen.order_list

        def row_y() -> int:
            assert order.highlighted is not None
            return order.scrollable_content_region.y + order.highlighted - order.scroll_offset.y

        last_line = order.scrollable_content_region.bottom - 1
        for _row in range(order.option_count):
            if row_y() == last_line:
                break
            await pilot.press("down")
            await until(pilot, lambda: settled(screen), "the highlight moved")
        assert row_y() == last_line and order.scroll_offset.y == 0
        await pilot.press("d")
        prompt = await until_prompt(pilot)
        await pilot.press(*"2d", "enter")
        await until(pilot, lambda: prompt.error_text != "" and settled(screen), "the refusal shown")
        await until(
            pilot,
            lambda: settled(screen) and row_y() < prompt.region.y,
            "his row above the refusal",
            describe=lambda: f"his row at {row_y()}, the prompt from {prompt.region.y}",
        )
        await pilot.press("escape")
        await until(pilot, lambda: not prompt.is_open and settled(screen), "the prompt left")
        assert order.scrollable_content_region.y <= row_y() <= last_line


async def test_typing_in_the_amount_prompt_lays_nothing_out(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """The field's width is fixed, so a character typed redraws it and moves nothing: the screen is not laid out
    again at each key (Textual's Input asked for that, its virtual size following the text). A long
    expression still scrolls to keep the cursor in sight, and is applied whole."""
    app = start(make_app, data_root)
    async with app.run_test(size=SIZE) as pilot:
        screen, prompt = await damage_prompt(pilot)
        await until(pilot, lambda: settled(screen), "the prompt open")
        reflows: list[object] = []
        reflow = screen._compositor.reflow

        def noted(*args: Any, **kwargs: Any) -> Any:
            reflows.append(args)
            return reflow(*args, **kwargs)

        screen._compositor.reflow = noted  # type: ignore[method-assign]
        typed = "1+1+1+1+1+1+1+1+1"  # longer than the field is wide
        await pilot.press(*typed)
        await until(pilot, lambda: prompt.value == typed and settled(screen), "the expression typed")
        assert reflows == []
        assert prompt.scrolled > 0 and prompt.cursor == len(typed)
        assert len(typed) - prompt.scrolled < FIELD_WIDTH  # the cursor, at the end, is in sight
        assert typed[-FIELD_WIDTH + 1 :] in screen.key_footer.render_line(0).text
        target = screen.selected()
        assert target is not None
        hp = store(app).state.combatant(target).hp
        await pilot.press("enter")
        await until(pilot, lambda: store(app).state.combatant(target).hp == hp - 9, "the damage applied")


async def test_the_newest_lines_of_the_log_stay_in_sight_above_a_refusal(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """A long log follows its newest line. The refusal above the prompt's line lies over the foot of the log: the
    log scrolls its newest lines up above it, and back down when the prompt closes."""
    state = fight("adnd2e")
    for _hit in range(30):
        state = apply(state, a.Damage(combatant=next(c.id for c in state.combatants if c.name == "Raf"), amount=1))
    Store.create(state, sessions_dir(data_root) / "long").close()
    app = make_app(resume="long")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        log = screen.round_log

        def newest_y() -> int:
            return log.scrollable_content_region.y + len(log.lines) - 1 - log.scroll_offset.y

        await until(
            pilot,
            lambda: settled(screen) and newest_y() == log.scrollable_content_region.bottom - 1,
            "the log at its newest line",
        )
        await pilot.press("d")
        prompt = await until_prompt(pilot)
        await pilot.press(*"2d", "enter")
        await until(pilot, lambda: prompt.error_text != "" and settled(screen), "the refusal shown")
        assert prompt.region.y < log.scrollable_content_region.bottom  # it lies over the log's foot
        await until(
            pilot,
            lambda: settled(screen) and newest_y() == prompt.region.y - 1,
            "the newest line above it",
            describe=lambda: f"the newest line at {newest_y()}, the prompt from {prompt.region.y}",
        )
        await pilot.press("escape")
        await until(pilot, lambda: not prompt.is_open and settled(screen), "the prompt left")
        await until(pilot, lambda: newest_y() == log.scrollable_content_region.bottom - 1, "the log down again")
