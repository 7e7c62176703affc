"""The AD&D rules at the table, at 80×24: the attack form against a surprised large troll shows the +1 and the
AC without its Dex bonus, and the damage form fills in the war hammer's large column; a second main action is
refused in the form with the reason and taken when the GM ticks "ignore the book"; under the −10 option a
fallen character's card says "dying", and binding his wounds (w) makes it "unconscious"."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.ui.fights import opened
from tests.ui.steps import (
    SIZE,
    dialog_error,
    leave_damage,
    log_texts,
    prompt_line,
    store,
    until_closed,
    until_form,
    until_prompt,
    until_prompt_closed,
    visible_text,
)
from tests.waiting import until
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.dice import Roll
from tui_combat.engine.model import State
from tui_combat.fight.store import Store, new_state
from tui_combat.saves.locations import sessions_dir
from tui_combat.screens.dialogs import FieldsForm
from tui_combat.widgets.lines import TextLines

RAF = {"cls": "warrior", "level": 5, "ac": 3, "weapon": "war hammer", "magic": 4, "damage": "1d4+1"}
TROLL = {
    "cls": "monster",
    "level": "6+6",
    "ac": 4,
    "dex_ac": -2,
    "natural": True,
    "forms": "claw, claw, bite",
    "damage": "1d4+4, 1d4+4, 2d6",
    "size": "large",
}


def d10(total: int) -> Roll:
    return Roll(expr="1d10", total=total, faces=(total,))


def fight(*, surprised: bool, death: str = "dead") -> State:
    """Raf (warrior 5, THAC0 16, war hammer +4) and a troll (AC 4 with Dex −2, large); the party's turn."""
    state = new_state(seed=1, ruleset="adnd2e")
    steps: list[a.Action] = [
        a.SetName(name="Troll"),
        a.SetRuleset(ruleset="adnd2e"),
        a.SetOption(key="death", value=death),
        a.AddSide(name="Party", is_party=True),
        a.AddSide(name="Monsters"),
        a.AddCombatants(side="s1", name="Raf", hp=38, sheet=RAF),
        a.AddCombatants(side="s2", name="Troll", hp=36, sheet=TROLL),
        a.BeginSurprise(),
    ]
    if surprised:
        steps.append(a.RollSurprise(rolls={"s1": d10(7), "s2": d10(2)}))
    steps += [a.StartFight(), a.NextStep(), a.NextStep()]
    for action in steps:
        state = apply(state, action)
    rolls = {"s1": d10(3)} if surprised else {"s1": d10(3), "s2": d10(7)}
    return apply(state, a.RollInitiative(rolls=rolls))


def preview(form: FieldsForm) -> str:
    return " ".join(visible_text(form.query_one("#dialog-preview")).split())


async def test_a_surprised_large_troll(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    Store.create(fight(surprised=True), sessions_dir(data_root) / "troll").close()
    app = make_app(resume="troll")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        await pilot.press("a")
        form = await until_form(pilot, "the attack form")
        # THAC0 16 − AC 6 (4 without the Dex −2) = 10; +4 magic, +1 surprised: 5 or more, 16 faces.
        await until(pilot, lambda: preview(form).endswith("80% to hit."), "the chance")
        assert preview(form) == (
            "Needs 5 or more on the d20 (THAC0 16 − AC 6, +4 magic, +1 surprised, surprised: AC "
            "without Dex -2): 80% to hit."
        ), preview(form)
        form.query_one("#f-roll").focus()
        await pilot.press("5", "enter")
        damage = await until_prompt(pilot, "the damage the hit calls for")
        assert prompt_line(app, "title") == "Damage to Troll (war hammer)"
        # PHB Table 44: the war hammer deals 1d4 to large (1d4+1 to man-sized), +4 magic.
        assert damage.placeholder == "1d4+4"
        note = prompt_line(app, "note")
        assert "large column" in note, note
        await pilot.press("6", "enter")
        await until_prompt_closed(pilot)
        troll = next(c for c in store(app).state.combatants if c.name == "Troll")
        assert troll.hp == 30
        assert "Raf attacks Troll (AC 6) with war hammer: d20 5 +4 magic +1 surprised vs 10 — hit." in log_texts(app)


async def test_a_second_main_action_is_refused_then_allowed(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    Store.create(fight(surprised=False), sessions_dir(data_root) / "troll").close()
    app = make_app(resume="troll")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        await pilot.press("a")
        await until_form(pilot, "the attack form")
        await pilot.press("ctrl+s")  # the form rolls the d20
        await until(pilot, lambda: any(text.startswith("Raf attacks") for text in log_texts(app)), "the attack")
        await leave_damage(pilot)  # a hit asks for the damage: left for later
        await pilot.press("c")
        form = await until_form(pilot, "the main action's form")
        await until(pilot, lambda: bool(preview(form)), "the reason")
        assert preview(form) == "Raf has attacked this round: his attacks were his main action."
        await pilot.press("ctrl+s")
        await until(pilot, lambda: bool(dialog_error(app)), "the refusal")
        assert 'Tick "Ignore the book (the log says so)" to allow it.' in " ".join(dialog_error(app).split())
        await pilot.press("space", "ctrl+s")
        await until_closed(pilot, form, "the form closed")
        assert "Raf takes a second main action this round, against the book." in log_texts(app)


def card_text(app: CombatApp) -> str:
    card = app.screen.query_one("#card", TextLines)
    return "\n".join(card.render_line(y).text.rstrip() for y in range(card.size.height))


async def test_dying_to_minus_10_and_bound(make_app: Callable[..., CombatApp], data_root: Path) -> None:
    state = fight(surprised=False, death="minus_10")
    raf = next(c.id for c in state.combatants if c.name == "Raf")
    Store.create(apply(state, a.Damage(combatant=raf, amount=41)), sessions_dir(data_root) / "troll").close()
    app = make_app(resume="troll")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        await until(pilot, lambda: "dying" in card_text(app), "the card says dying")
        await pilot.press("w")
        await until(pilot, lambda: "unconscious" in card_text(app), "the card says unconscious")
        assert "Raf's wounds are bound: he no longer loses hit points." in log_texts(app)
