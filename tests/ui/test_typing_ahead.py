"""Keys typed faster than the screen answers go where the GM meant: digits typed right after Enter land in
the next field, never merged into the one just left ("4", Enter, "1" is 4 and 1, not 41); digits typed with
the key that opens a form land in its first field, never lost while it opens; and the Enter that closes a
form reads the digit typed just before it. The same holds for the damage and healing prompt on the round
screen."""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.pilot import Pilot
from textual.widgets import Input

from tests.ui.steps import SIZE, footer_now, log_texts, store, to_round, to_surprise, type_initiative
from tests.waiting import settled, until, until_screen
from tui_combat.app import CombatApp
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.round import RoundScreen


def key(name: str) -> events.Key:
    return events.Key(name, {"enter": "\r", "backspace": "\x7f"}.get(name, name))


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
        await until(
            pilot,
            lambda: inputs[0].value == "4",
            "the 4 in the first field",
            describe=lambda: f"the fields hold {[field.value for field in inputs]}",
        )
        assert inputs[1].value == "" and form.focused is inputs[0]


async def test_a_whole_form_typed_with_t_is_taken_as_typed(make_app: Callable[..., CombatApp]) -> None:
    """``t4``, Enter, ``7``, Enter at once: the initiative is the 4 and the 7 typed, nothing rolled for the GM."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await to_initiative(pilot)
        before = store(app).state
        burst(app, "t", "4", "enter", "7", "enter")
        await until(
            pilot,
            lambda: app.screen is screen and store(app).state is not before and settled(screen),
            "the initiative taken",
            describe=lambda: repr(log_texts(app)[-3:]),
        )
        texts = log_texts(app)
        assert "Initiative — Party: 1d10 (typed): 4." in texts and "Initiative — Monsters: 1d10 (typed): 7." in texts, (
            texts[-3:]
        )


async def typed_in_the_initiative_form(pilot: Pilot[None], *keys: str) -> None:
    """Open the initiative form (``t``), then type ``keys`` at once into its first field; wait until the
    initiative they give is taken."""
    app = pilot.app
    assert isinstance(app, CombatApp)
    screen = await to_initiative(pilot)
    await pilot.press("t")
    form = await until_screen(pilot, FormDialog)
    inputs = list(form.query(Input))
    await until(pilot, lambda: form.focused is inputs[0], "the first field focused")
    before = store(app).state
    burst(app, *keys)
    await until(
        pilot,
        lambda: app.screen is screen and store(app).state is not before and settled(screen),
        "the initiative taken",
    )


async def test_the_last_field_typed_just_before_enter_is_read(make_app: Callable[..., CombatApp]) -> None:
    """In an open form, ``4``, Enter, ``7``, Enter at once: the form is read once the 7 is in its field (Enter,
    handled as it arrives, read the fields before it and rolled the dice for the GM)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await typed_in_the_initiative_form(pilot, "4", "enter", "7", "enter")
        assert "Initiative — Monsters: 1d10 (typed): 7." in log_texts(app), log_texts(app)[-3:]


async def to_resolve(pilot: Pilot[None]) -> RoundScreen:
    await to_round(pilot)
    await type_initiative(pilot, "7", "10")
    screen = pilot.app.screen
    assert isinstance(screen, RoundScreen)
    await until(pilot, lambda: screen.step_kind() == "resolve" and settled(screen), "the first turn")
    return screen


async def selected_in_resolve(pilot: Pilot[None]) -> tuple[RoundScreen, str, int]:
    """The first turn of the round; the round screen, the combatant selected and his HP."""
    screen = await to_resolve(pilot)
    target = screen.selected()
    app = pilot.app
    assert target is not None and isinstance(app, CombatApp)
    return screen, target, store(app).state.combatant(target).hp


async def test_damage_typed_at_once_with_the_key_after_it(make_app: Callable[..., CombatApp]) -> None:
    """``d12``, Enter, ``n`` at once: 12 damage to the one selected (the digits reached the prompt as it
    opened), then the next turn (the ``n`` waited for the damage to be read, not typed into the prompt)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await to_resolve(pilot)
        target = screen.selected()
        assert target is not None
        before = store(app).state
        burst(app, "d", "1", "2", "enter", "n")
        await until(
            pilot,
            lambda: store(app).state.cursor == before.cursor + 1 and settled(screen),
            "the next turn",
            describe=lambda: repr(log_texts(app)[-3:]),
        )
        state = store(app).state
        assert state.combatant(target).hp == before.combatant(target).hp - 12
        assert not screen.amount_prompt.is_open and screen.amount_prompt.value == ""


async def test_keys_typed_after_a_refused_amount_mend_it(make_app: Callable[..., CombatApp]) -> None:
    """``dx``, Enter, Backspace, ``5``, Enter at once: "x" is refused, and the keys behind the Enter go to
    the prompt, which then takes 5."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen, target, hp = await selected_in_resolve(pilot)
        burst(app, "d", "x", "enter", "backspace", "5", "enter")
        await until(
            pilot,
            lambda: store(app).state.combatant(target).hp == hp - 5 and settled(screen),
            "5 damage",
            describe=lambda: f"the prompt holds {screen.amount_prompt.value!r}",
        )
        assert not screen.amount_prompt.is_open


async def test_tab_leaves_the_prompt(make_app: Callable[..., CombatApp]) -> None:
    """The prompt lives while it has the focus: Tab takes it away, the prompt goes, the footer and the
    screen's keys come back, nothing was dealt."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await to_resolve(pilot)
        before = store(app).state
        await pilot.press("d", "4", "tab")
        await until(pilot, lambda: not screen.amount_prompt.is_open and settled(screen), "the prompt gone")
        assert store(app).state is before
        assert "Damage" in await footer_now(pilot)
        await pilot.press("n")
        await until(pilot, lambda: store(app).state.cursor == before.cursor + 1, "the next turn")


async def test_a_backspace_typed_fast_in_the_prompt_counts_where_it_was_typed(
    make_app: Callable[..., CombatApp],
) -> None:
    """``d12``, Backspace, ``3``, Enter at once: 13 damage (the Backspace acts between the 2 and the 3)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen, target, hp = await selected_in_resolve(pilot)
        burst(app, "d", "1", "2", "backspace", "3", "enter")
        await until(pilot, lambda: store(app).state.combatant(target).hp != hp and settled(screen), "the damage")
        assert store(app).state.combatant(target).hp == hp - 13


async def test_a_backspace_typed_fast_in_a_form_counts_where_it_was_typed(make_app: Callable[..., CombatApp]) -> None:
    """In the initiative form, ``9``, Backspace, ``3``, Enter, ``7``, Enter at once: the party's 3 (the
    Backspace acts between the 9 and the 3, as in the damage prompt), the monsters' 7."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await typed_in_the_initiative_form(pilot, "9", "backspace", "3", "enter", "7", "enter")
        texts = log_texts(app)
        assert "Initiative — Party: 1d10 (typed): 3." in texts and "Initiative — Monsters: 1d10 (typed): 7." in texts, (
            texts[-4:]
        )
