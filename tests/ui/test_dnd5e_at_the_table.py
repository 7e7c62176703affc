"""The 5e demo at the table, with real key presses at 80×24: advantage against a prone goblin shown in the
attack form (its dice following whether Brenna stands within 5 ft), a natural 20 whose doubled dice fill
the damage form, and Mirela going down, making death saving throws and being healed up.

Initiative typed: Brenna 19 + 1 = 20, Oswin 2, Lia 3 + 4 = 7, Mirela 1 + 2 = 3, the goblins 15 + 2 = 17,
the bugbear 10 + 2 = 12. Brenna (+6) against a goblin's AC 15 needs 9: 60 %; with advantage 1 − 0.4² = 84 %,
with disadvantage 0.6² = 36 %.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.widgets import Select

from tests.common import encounter_file
from tests.ui.steps import (
    SIZE,
    combatant_id,
    dialog_error,
    footer_text,
    prompt_line,
    select,
    store,
    to_round_from_setup,
    until_closed,
    until_form,
    until_prompt,
    until_prompt_closed,
    visible_text,
)
from tests.ui.test_dnd5e_round import SPEED
from tests.waiting import until, until_screen
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine.encounter import ENCOUNTER_DIR
from tui_combat.engine.public import public_view
from tui_combat.screens.dialogs import FieldsForm, FormDialog
from tui_combat.screens.round import RoundScreen
from tui_combat.widgets.field_row import FieldRow
from tui_combat.widgets.lines import TextLines

DEMO = ENCOUNTER_DIR / "demo_dnd5e.toml"
PRONE = 11
"""Where "prone" is in the condition list (blinded, charmed, … poisoned, prone)."""


def preview(form: FieldsForm) -> str:
    """The form's line of odds, its wrapped lines joined again."""
    return " ".join(visible_text(form.query_one("#dialog-preview")).split())


def to_hit_label(form: FieldsForm) -> str:
    return form.query_one("#label-f-to_hit", FieldRow).label


def card(app: CombatApp) -> str:
    return str(app.screen.query_one("#card", TextLines).render())


def players_word(app: CombatApp, name: str) -> str:
    view = public_view(store(app).state)
    return next(c.health for group in view.groups for c in group.combatants if c.name == name)


async def next_turn_of(pilot: object, app: CombatApp, name: str) -> None:
    """Next (n) until ``name`` acts."""
    wanted = combatant_id(app, name)
    for _ in range(30):
        if wanted in store(app).state.acting_now():
            return
        await pilot.press("n")  # type: ignore[attr-defined]
    raise AssertionError(f"{name}'s turn never came")


async def test_advantage_a_critical_hit_and_death_saves(make_app: Callable[..., CombatApp]) -> None:
    app = make_app(encounter=DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await to_round_from_setup(pilot)
        await pilot.press("t")
        form = await until_screen(pilot, FormDialog, "the initiative form")
        assert [f.label for f in form.fields] == ["Brenna", "Oswin", "Lia", "Mirela", "Goblin", "Bugbear"]
        for typed in ("19", "2", "3", "1", "15", "10"):
            await pilot.press(*typed, "enter")
        await until_screen(pilot, RoundScreen, "the round")
        brenna, goblin_1, mirela = (
            combatant_id(app, "Brenna"),
            combatant_id(app, "Goblin 1"),
            combatant_id(app, "Mirela"),
        )
        await until(pilot, lambda: store(app).state.acting_now() == (brenna,), "Brenna's turn")

        # Goblin 1 is knocked prone: the condition key on him, "prone" from the list.
        await select(pilot, goblin_1)
        await pilot.press("c")
        form = await until_form(pilot, "the condition form")
        await pilot.press("down", *["down"] * PRONE, "enter")
        await until(pilot, lambda: form.query_one("#f-condition", Select).value == "prone", "prone chosen")
        await pilot.press("ctrl+s")
        await until_closed(pilot, form, "the round again")
        assert "Goblin 1 is prone." in [e.text for e in store(app).state.log_entries()]

        # Brenna attacks him: within 5 ft, advantage, 84 %, two d20s; from farther, disadvantage.
        await select(pilot, brenna)
        await pilot.press("a")
        form = await until_form(pilot, "the attack form")
        assert form.query_one("#f-target", Select).value == goblin_1
        await until(
            pilot,
            lambda: (
                preview(form) == "Needs 9 or more on the d20 (AC 15, +6 to hit) with advantage "
                "(Goblin 1: prone): 84% to hit."
            ),
            "the chance with advantage",
        )
        assert to_hit_label(form) == "To hit +6 (d20adv)"
        await pilot.press("tab", "tab", "tab", "space")  # target → uses → advantage → "within 5 ft" unticked
        await until(pilot, lambda: to_hit_label(form) == "To hit +6 (d20dis)", "the dice with disadvantage")
        assert (
            preview(form)
            == "Needs 9 or more on the d20 (AC 15, +6 to hit) with disadvantage (Goblin 1: prone): 36% to hit."
        )
        await pilot.press("space")  # within 5 ft again
        await until(pilot, lambda: to_hit_label(form) == "To hit +6 (d20adv)", "the dice with advantage again")
        # Both faces typed: a natural 20 and a 4.
        await pilot.press("tab", *"20 4", "enter")
        damage = await until_prompt(pilot, "the damage the hit calls for")
        # Too long for the prompt's title at 80 columns: what the hit was goes on the line above it.
        assert prompt_line(app, "title") == "Damage to Goblin 1"
        assert prompt_line(app, "note") == "critical hit: the damage dice twice"
        assert damage.placeholder == "2d8+3"
        await pilot.press("1", "2", "enter")
        await until_prompt_closed(pilot, "the round after the damage")
        texts = [e.text for e in store(app).state.log_entries()]
        assert (
            "Brenna attacks Goblin 1 with advantage (Goblin 1: prone): d20adv (typed): [20, (4)] = 20, +6 → 26 "
            "against AC 15: critical hit."
        ) in texts
        assert "Goblin 1 takes 12 damage (2d8+3 (typed): 12): 0/7 HP." in texts
        dealt = store(app).done_actions()[-1]
        assert isinstance(dealt, a.Damage) and (dealt.combatant, dealt.amount, dealt.critical) == (goblin_1, 12, True)
        assert players_word(app, "Goblin 1") == "dead"

        # Mirela (27 HP) takes 30: 3 left over, less than her 27: unconscious and dying.
        await select(pilot, mirela)
        await pilot.press("d")
        await until_prompt(pilot, "the damage prompt")
        await pilot.press("3", "0", "enter")
        await until_prompt_closed(pilot, "the round after Mirela falls")
        await until(
            pilot, lambda: "Death saves: dying: successes ○○○, failures ○○○" in card(app), "her saves on the card"
        )
        assert players_word(app, "Mirela") == "dying"

        # Her turn: the saving throw is asked for, key v; 12 succeeds.
        await next_turn_of(pilot, app, "Mirela")
        await select(pilot, mirela)
        await until(pilot, lambda: "Death save" in footer_text(app), "the death save key in the footer")
        await pilot.press("v")
        form = await until_form(pilot, "the death save form")
        await pilot.press("1", "2", "enter")
        await until_closed(pilot, form, "the round after the save")
        await until(pilot, lambda: "successes ●○○, failures ○○○" in card(app), "one success on the card")

        # The next round, a 4: a failure.
        await pilot.press("n")
        await next_turn_of(pilot, app, "Mirela")
        await select(pilot, mirela)
        await pilot.press("v")
        form = await until_form(pilot, "the death save form")
        await pilot.press("4", "enter")
        await until_closed(pilot, form, "the round after the second save")
        await until(pilot, lambda: "successes ●○○, failures ✕○○" in card(app), "a failure on the card")

        # Healed 5: she wakes, her saves cleared.
        await pilot.press("h")
        await until_prompt(pilot, "the healing prompt")
        await pilot.press("5", "enter")
        await until_prompt_closed(pilot, "the round after the healing")
        await until(pilot, lambda: "Death saves" not in card(app), "the saves gone from the card")
        state = store(app).state
        assert (state.combatant(mirela).hp, state.combatant(mirela).status) == (5, "active")
        assert "Mirela wakes: the death saving throws are cleared." in [e.text for e in state.log_entries()]
        assert players_word(app, "Mirela") != "dying"


async def test_the_declared_action_binds_unless_the_book_is_ignored(
    tmp_path: Path, make_app: Callable[..., CombatApp]
) -> None:
    """Oswin declares a spell (speed factor −1 for a 1st-level spell); on his turn the attack key is refused
    with the reason until "ignore the book" is ticked, and the log says the book was ignored."""
    app = make_app(encounter=encounter_file(tmp_path, SPEED))
    async with app.run_test(size=SIZE) as pilot:
        await to_round_from_setup(pilot)
        oswin = combatant_id(app, "Oswin")
        await pilot.press("e")
        await until_screen(pilot, FormDialog, "Oswin's declaration")
        await pilot.press("down", "down", "enter")  # ↓ opens the list: attack → cast a spell
        await until(pilot, lambda: app.screen.query_one("#f-action", Select).value == "spell", "a spell declared")
        await pilot.press("tab", "tab", "backspace", "1", "ctrl+s")
        await until_screen(pilot, RoundScreen, "the round after Oswin's declaration")
        await pilot.press("down", "e")
        await until_screen(pilot, FormDialog, "the goblin's declaration")
        await pilot.press("ctrl+s")
        await until_screen(pilot, RoundScreen, "the round after the goblin's declaration")
        await pilot.press("n", "t")
        await until_screen(pilot, FormDialog, "the initiative form")
        await pilot.press("2", "0", "enter", "1", "enter")  # Oswin 20 − 1 = 19, the goblin 1 + 6 = 7
        await until_screen(pilot, RoundScreen, "the round")
        await until(pilot, lambda: store(app).state.acting_now() == (oswin,), "Oswin's turn")

        await select(pilot, oswin)
        await pilot.press("a")
        form = await until_form(pilot, "the attack form")
        assert [f.key for f in form.fields] == ["target", "uses", "edge", "close", "overrule", "to_hit"]
        await pilot.press("ctrl+s")
        await until(
            pilot,
            lambda: "on its turn it takes that or nothing" in " ".join(dialog_error(app).split()),
            "the refusal in the form",
        )
        assert " ".join(dialog_error(app).split()) == (
            "Oswin declared a spell of level 1: on its turn it takes that or nothing (speed factor), not an attack. "
            'Tick "ignore the book" to allow it.'
        )
        await pilot.press("tab", "tab", "tab", "tab", "space")  # target → … → "ignore the book" ticked
        await pilot.press("ctrl+s")
        await until(
            pilot,
            lambda: any(e.text.startswith("Oswin attacks") for e in store(app).state.log_entries()),
            "the attack taken",
        )
        texts = [e.text for e in store(app).state.log_entries()]
        assert "Oswin ignores the book: an attack instead of what was declared (a spell of level 1)." in texts
