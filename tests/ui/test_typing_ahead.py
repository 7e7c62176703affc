"""Keys typed faster than the screen answers go where the GM meant: digits typed right after Enter land in
the next field, never merged into the one just left ("4", Enter, "1" is 4 and 1, not 41); digits typed with
the key that opens a form land in its first field, never lost while it opens; and the Enter that closes a
form reads the digit typed just before it."""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.pilot import Pilot
from textual.widgets import Input

from tests.ui.steps import SIZE, log_texts, store, to_round, to_surprise
from tests.waiting import settled, until, until_screen
from tui_combat.app import CombatApp
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.round import RoundScreen


def key(name: str) -> events.Key:
    return events.Key(name, "\r" if name == "enter" else name)


async def test_digits_after_enter_go_to_the_next_field(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_surprise(pilot)
        await pilot.press("t")
        form = await until_screen(pilot, FormDialog)
        inputs = list(form.query(Input))
        assert len(inputs) >= 2
        await until(pilot, lambda: form.focused is inputs[0], "the first field focused")
        for name in ("4", "enter", "1"):  # all queued at once, as from a fast typist on a slow link
            app.post_message(key(name))
        await until(pilot, lambda: inputs[1].value == "1", "the 1 in the second field")
        assert inputs[0].value == "4", (inputs[0].value, inputs[1].value)


def burst(app: CombatApp, *names: str) -> None:
    """Keys queued all at once, as a fast typist's reach the app over a slow link."""
    for name in names:
        app.post_message(key(name))


async def to_initiative(pilot: Pilot[None]) -> RoundScreen:
    await to_round(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, RoundScreen)
    await pilot.press("n", "n")
    await until(pilot, lambda: screen.step_kind() == "initiative", "the initiative step")
    return screen


async def test_digits_typed_with_t_reach_the_first_field(make_app: Callable[..., CombatApp]) -> None:
    """``t4`` at once: the form opens with the 4 in its first field (it was dropped while the form opened)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_initiative(pilot)
        burst(app, "t", "4")
        form = await until_screen(pilot, FormDialog)
        inputs = list(form.query(Input))
        await until(pilot, lambda: inputs[0].value == "4", "the 4 in the first field",
                    describe=lambda: f"the fields hold {[field.value for field in inputs]}")
        assert inputs[1].value == "" and form.focused is inputs[0]


async def test_a_whole_form_typed_with_t_is_taken_as_typed(make_app: Callable[..., CombatApp]) -> None:
    """``t4``, Enter, ``7``, Enter at once: the initiative is the 4 and the 7 typed, nothing rolled for the GM."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await to_initiative(pilot)
        before = store(app).state
        burst(app, "t", "4", "enter", "7", "enter")
        await until(pilot, lambda: app.screen is screen and store(app).state is not before and settled(screen),
                    "the initiative taken", describe=lambda: repr(log_texts(app)[-3:]))
        texts = log_texts(app)
        assert "Initiative — Party: 1d10 (typed): 4." in texts and "Initiative — Monsters: 1d10 (typed): 7." in texts, \
            texts[-3:]


async def test_the_last_field_typed_just_before_enter_is_read(make_app: Callable[..., CombatApp]) -> None:
    """In an open form, ``4``, Enter, ``7``, Enter at once: the form is read once the 7 is in its field (Enter,
    handled as it arrives, read the fields before it and rolled the dice for the GM)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await to_initiative(pilot)
        await pilot.press("t")
        form = await until_screen(pilot, FormDialog)
        inputs = list(form.query(Input))
        await until(pilot, lambda: form.focused is inputs[0], "the first field focused")
        before = store(app).state
        burst(app, "4", "enter", "7", "enter")
        await until(pilot, lambda: app.screen is screen and store(app).state is not before and settled(screen),
                    "the initiative taken")
        assert "Initiative — Monsters: 1d10 (typed): 7." in log_texts(app), log_texts(app)[-3:]
