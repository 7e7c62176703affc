"""The attack flow at 80×24 for the AD&D family (AD&D 2e and Player's Option share it): the target from the
turn list, the number needed and the chance in the form before the roll, and on a hit the damage asked in the
prompt with the weapon's dice (its magic included): Enter rolls them, a number typed is what real dice
showed. The next attack names the last one attacked first. (D&D 5e, OSE and Trudvang play the same flow in
their own round tests.)"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Select

from tests.ui.fights import opened
from tests.ui.steps import (
    SIZE,
    dialog_error,
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
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.form_panel import FormPanel
from tui_combat.screens.round import RoundScreen

RAF = {"cls": "warrior", "level": 5, "ac": 3, "weapon": "war hammer", "magic": 4, "damage": "1d4+1"}
ORC = {"cls": "monster", "level": 1, "ac": 6, "weapon": "long sword", "damage": "1d8"}


def fight(ruleset: str) -> State:
    """Raf (warrior 5, THAC0 16, war hammer +4, 1d4+1) against two orcs (AC 6, 8 HP), the party first."""
    state = new_state(seed=1, ruleset="adnd2e")
    steps: list[a.Action] = [
        a.SetName(name="Hammer"),
        a.SetRuleset(ruleset=ruleset),
        a.AddSide(name="Party", is_party=True),
        a.AddSide(name="Monsters"),
        a.AddCombatants(side="s1", name="Raf", hp=38, sheet=RAF),
        a.AddCombatants(side="s2", name="Orc", hp=8, count=2, sheet=ORC),
        a.BeginSurprise(),
        a.StartFight(),
        a.NextStep(),
        a.NextStep(),  # intentions, declarations: none
        a.RollInitiative(
            rolls={"s1": Roll(expr="1d10", total=3, faces=(3,)), "s2": Roll(expr="1d10", total=7, faces=(7,))}
        ),
    ]
    for action in steps:
        state = apply(state, action)
    return state


async def pick(pilot: Pilot[None], form: FormDialog | FormPanel, key: str, value: str) -> None:
    widget = form.query_one(f"#f-{key}", Select)
    widget.focus()
    values = [choice for choice, _label in next(f for f in form.fields if f.key == key).choices]
    steps = values.index(value) - values.index(str(widget.value))
    await pilot.press("down", *(["down"] * steps), "enter")
    await until(pilot, lambda: widget.value == value, f"{key} set to {value} (it is {widget.value})")


@pytest.mark.parametrize("ruleset", ["adnd2e", "players_option"])
async def test_attack_target_chance_damage(ruleset: str, make_app: Callable[..., CombatApp], data_root: Path) -> None:
    Store.create(fight(ruleset), sessions_dir(data_root) / "hammer").close()
    app = make_app(resume="hammer")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        state = store(app).state
        raf, orc1, orc2 = (next(c.id for c in state.combatants if c.name == name) for name in ("Raf", "Orc 1", "Orc 2"))
        assert state.acting_now() == (raf,), [str(s.label) for s in state.order]
        await pilot.press("a")
        form = await until_form(pilot, "the attack form")
        assert form.query_one("#f-target", Select).value == orc1  # the first foe, with no attack yet
        await pick(pilot, form, "target", orc2)
        # THAC0 16 against AC 6: 10; the hammer's +4 makes it 6 or more on the die, 15 faces of 20.
        preview = " ".join(visible_text(form.query_one("#dialog-preview")).split())
        assert preview == "Needs 6 or more on the d20 (THAC0 16 − AC 6, +4 magic): 75% to hit.", preview
        form.query_one("#f-roll").focus()
        await pilot.press("1", "2", "enter")
        damage = await until_prompt(pilot, "the damage the hit calls for")
        assert prompt_line(app, "title") == "Damage to Orc 2 (war hammer)" and damage.placeholder == "1d4+5"
        assert prompt_line(app, "keys") == "Enter: roll 1d4+5 · Esc: cancel"
        await pilot.press("7")  # what the real die showed: 2 + 5
        await until(pilot, lambda: prompt_line(app, "keys") == "Enter: apply · Esc: cancel", "Enter now applies the 7")
        await pilot.press("enter")
        await until_prompt_closed(pilot)
        state = store(app).state
        assert state.combatant(orc2).hp == 1 and state.combatant(orc1).hp == 8
        assert "Raf attacks Orc 2 (AC 6) with war hammer: d20 12 +4 magic vs 10 — hit." in log_texts(app)
        # The next attack form names the orc he struck last.
        await pilot.press("a")
        again = await until_form(pilot, "the attack form again")
        assert again is form and form.rows_made == 1  # the same form, filled in anew
        assert again.query_one("#f-target", Select).value == orc2
        await pilot.press("escape")
        await until_closed(pilot, again, "the attack form left")


async def test_an_effect_is_picked_from_the_rulesets_names_as_it_is_typed(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    Store.create(fight("adnd2e"), sessions_dir(data_root) / "hammer").close()
    app = make_app(resume="hammer")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        await pilot.press("E")
        form = app.screen
        assert isinstance(form, FormDialog), dialog_error(app)
        await pilot.press("h", "a", "s")
        name = form.query_one("#f-name", Input)
        await until(pilot, lambda: name._suggestion == "hasted", "the word offered (its suggester runs in a worker)")
        await pilot.press("right")  # takes the word offered: "hasted"
        assert form.query_one("#f-name").value == "hasted"  # type: ignore[attr-defined]
        await pilot.press("tab", "ctrl+u", "2", "enter")
        assert isinstance(app.screen, RoundScreen), dialog_error(app)
        assert "Raf: hasted for 2 rounds." in log_texts(app)


def test_every_ruleset_offers_effect_names() -> None:
    from tui_combat.engine import registry

    for ruleset in ("adnd2e", "players_option", "dnd5e", "trudvang", "ose"):
        names = registry.get(ruleset).effect_names()
        assert names and all(name.strip() for name in names), ruleset
    assert "hasted" in registry.get("adnd2e").effect_names() and "stunned" in registry.get("dnd5e").effect_names()


async def test_enter_on_the_damage_prompt_rolls_the_hits_dice(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """Nothing typed: Enter rolls the weapon's dice with the session's dice; the log shows them rolled."""
    Store.create(fight("adnd2e"), sessions_dir(data_root) / "hammer").close()
    app = make_app(resume="hammer")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        orc1 = next(c.id for c in store(app).state.combatants if c.name == "Orc 1")
        await pilot.press("a")
        form = await until_form(pilot, "the attack form")
        form.query_one("#f-roll").focus()
        await pilot.press("1", "9", "enter")
        await until_prompt(pilot, "the damage the hit calls for")
        await pilot.press("enter")
        await until_prompt_closed(pilot)
        dealt = next(text for text in reversed(log_texts(app)) if text.startswith("Orc 1 takes"))
        rolled = re.fullmatch(r"Orc 1 takes (\d+) damage \(1d4\+5: \[([1-4])\] \+ 5 = (\d+)\): (\d+)/8 HP\.", dealt)
        assert rolled is not None, dealt  # rolled by the app, not typed
        amount, die, total, left = (int(group) for group in rolled.groups())
        assert amount == total == die + 5 and left == max(8 - amount, 0) == store(app).state.combatant(orc1).hp
