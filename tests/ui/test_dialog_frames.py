"""A dialog costs the terminal one whole frame when it appears, not four: the screen behind it keeps its
footer as it was while covered (and works it out again once shown), and the dialog's own widgets being
mounted redraw what moved, not every cell. Over SSH each whole frame is some 17 KB. Damage and healing,
the keys of every turn, cost none: their prompt lies over the footer's line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual._compositor import LayoutUpdate
from textual.pilot import Pilot

from tests.ui.fights import opened, saved_round
from tests.ui.steps import (
    SIZE,
    footer_now,
    prompt_error,
    store,
    until_closed,
    until_form,
    until_prompt,
    until_prompt_closed,
)
from tests.waiting import settled, until
from tui_combat.app import CombatApp
from tui_combat.screens.form_panel import FormPanel
from tui_combat.screens.round import RoundScreen


def count_whole_frames(app: CombatApp) -> list[str]:
    """Every update that redraws the whole screen from now on: the name of the screen drawn."""
    whole: list[str] = []
    display = app._display

    def counted(screen: Any, renderable: Any) -> None:
        if isinstance(renderable, LayoutUpdate):
            whole.append(type(screen).__name__)
        display(screen, renderable)

    app._display = counted  # type: ignore[method-assign]
    return whole


async def round_drawn(pilot: Pilot[None]) -> RoundScreen:
    """The saved round opened and drawn: from here each whole frame is counted."""
    await opened(pilot)
    round_screen = pilot.app.screen
    assert isinstance(round_screen, RoundScreen)
    await until(pilot, lambda: settled(round_screen), "the round screen drawn")
    return round_screen


async def test_a_dialog_is_drawn_whole_once(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    saved_round(data_root, "ambush", ["Ada", "Bo"], 3)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        round_screen = await round_drawn(pilot)
        whole = count_whole_frames(app)
        await pilot.press("E")  # a condition on the selected combatant: a dialog
        form = await until_form(pilot, "the effect form")
        await until(pilot, lambda: form.query_one("#dialog-help").region.height > 0, "the form laid out")
        # Not settled(): its probe is a message to the dialog, and the dialog would draw for it.
        await until(
            pilot,
            lambda: bool(whole) and not (form.message_queue_size or round_screen.message_queue_size),
            "the form drawn",
        )
        await pilot.pause()
        assert whole == ["FormDialog"]

        # Closed: the footer under it is as the keys stand.
        await pilot.press(*"blessed", "tab", "ctrl+u", "2", "ctrl+s")
        await until_closed(pilot, form)
        await until(pilot, lambda: bool(store(app).state.effects), "the effect on")
        assert "Damage" in await footer_now(pilot)


async def test_the_add_form_mid_fight_draws_no_whole_frame(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    """The add form is at the foot of the round screen, made once: opening it, adding and opening it again
    redraw what they change (as a dialog of some twenty fields, it took a quarter of a second to open, and
    drew the whole terminal as it opened and as it closed)."""
    saved_round(data_root, "ambush", ["Ada", "Bo"], 3)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        round_screen = await round_drawn(pilot)
        whole = count_whole_frames(app)
        for name in ("goblin", "orc"):
            await pilot.press("i")
            form = await until_form(pilot, "the add form")
            assert isinstance(form, FormPanel) and form is round_screen.add_panel and form.rows_made == 1
            await pilot.press(*name, "tab", "tab", "3", "ctrl+s")
            await until_closed(pilot, form)
            await until(
                pilot,
                lambda: any(c.name.lower().startswith(name) for c in store(app).state.combatants),
                f"the {name} in",
            )
        assert "Damage" in await footer_now(pilot)
        assert whole == []


async def test_damage_and_healing_redraw_no_whole_frame(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    """The prompt lies over the footer's line: opening it, a refusal, the amount taken and Esc redraw what they
    change, never the whole screen (a modal form drew it whole when it opened, and again when it closed)."""
    saved_round(data_root, "ambush", ["Ada", "Bo"], 3)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        round_screen = await round_drawn(pilot)
        target = round_screen.selected()
        assert target is not None
        whole = count_whole_frames(app)
        await pilot.press("d")
        prompt = await until_prompt(pilot, "the damage prompt")
        assert prompt.is_open and round_screen.key_footer.drawn_over
        await pilot.press(*"2d", "enter")  # refused: the complaint over the prompt
        await until(pilot, lambda: prompt_error(app) != "" and settled(round_screen), "the complaint shown")
        await pilot.press("ctrl+u", "3", "enter")
        await until_prompt_closed(pilot, "the damage done")
        hp = store(app).state.combatant(target)
        assert hp.hp == hp.max_hp - 3
        await pilot.press("h")
        await until_prompt(pilot, "the healing prompt")
        await pilot.press("escape")
        await until(pilot, lambda: not prompt.is_open and settled(round_screen), "the prompt left")
        assert "Damage" in await footer_now(pilot)
        assert whole == []
