"""Player's Option at 80×24: a spell declared from the keyboard acts in the phase of its casting time (cone of
cold, casting time 5: average), after the fighter's fast phase, and the card says how it was reached."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Select

from tests.ui.fights import opened
from tests.ui.steps import SIZE, combatant_id, select, store, visible_text
from tests.waiting import until
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.log import render
from tui_combat.engine.model import State
from tui_combat.fight.store import Store, new_state
from tui_combat.saves.locations import sessions_dir
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.round import RoundScreen
from tui_combat.widgets.lines import TextLines

GERDA = {"cls": "warrior", "level": 5, "ac": 3, "weapon": "long sword", "magic": 2, "damage": "1d8"}
ILSE = {
    "cls": "wizard",
    "level": 9,
    "ac": 9,
    "weapon": "dagger",
    "damage": "1d4",
    "spells": "magic missile 1, cone of cold 5",
}
GNOLL = {"cls": "monster", "level": 2, "ac": 5, "weapon": "battle axe", "damage": "1d8", "size": "large"}


def heroes_step() -> State:
    state = new_state(seed=1, ruleset="adnd2e")
    for action in (
        a.SetName(name="Road"),
        a.SetRuleset(ruleset="players_option"),
        a.AddSide(name="Heroes", is_party=True),
        a.AddSide(name="Gnolls"),
        a.AddCombatants(side="s1", name="Gerda", hp=40, sheet=GERDA),
        a.AddCombatants(side="s1", name="Ilse", hp=14, sheet=ILSE),
        a.AddCombatants(side="s2", name="Gnoll", hp=9, sheet=GNOLL),
        a.BeginSurprise(),
        a.StartFight(),
        a.NextStep(),  # the monsters' actions: on to the heroes'
    ):
        state = apply(state, action)
    return state


def rows(app: CombatApp) -> list[tuple[str, list[str]]]:
    state = store(app).state
    return [(render(slot.label), [state.names()[c] for c in slot.combatants]) for slot in state.order]


async def choose(form: FormDialog, pilot: Pilot[None], key: str, value: str) -> None:
    widget = form.query_one(f"#f-{key}", Select)
    widget.focus()
    values = [choice for choice, _label in next(f for f in form.fields if f.key == key).choices]
    await pilot.press("down", *(["down"] * (values.index(value) - values.index(str(widget.value)))), "enter")
    await until(pilot, lambda: widget.value == value, f"{key} = {value}")


async def test_a_spell_acts_in_the_phase_of_its_casting_time(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    Store.create(heroes_step(), sessions_dir(data_root) / "road").close()
    app = make_app(resume="road")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        ilse = combatant_id(app, "Ilse")
        await select(pilot, ilse)
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, FormDialog), "the declaration form")
        form = app.screen
        assert isinstance(form, FormDialog)
        await choose(form, pilot, "action", "spell")
        await choose(form, pilot, "spell", "cone of cold")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, RoundScreen), "the declaration taken")
        await pilot.press("n")  # on to the initiative
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, FormDialog), "the initiative form")
        await pilot.press("4", "enter", "7", "enter")
        await until(pilot, lambda: isinstance(app.screen, RoundScreen) and bool(store(app).state.order), "the order")
        assert rows(app) == [
            ("fast · Heroes", ["Gerda"]),
            ("average · Heroes", ["Ilse"]),  # cone of cold, casting time 5
            ("average · Gnolls", ["Gnoll"]),
        ], rows(app)
        await select(pilot, ilse)
        card = app.screen.query_one("#card", TextLines)
        await until(
            pilot,
            lambda: (
                "cone of cold, casting time 5: average"
                in " ".join(card.render_line(y).text.strip() for y in range(card.size.height))
            ),
            "the phase on the card",
        )
        assert "Ilse" in visible_text(app.screen.query_one("#card-head"))
