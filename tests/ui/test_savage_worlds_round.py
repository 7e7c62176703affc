"""The Savage Worlds example plugin (``examples/savage_worlds``) at 80×24, from the keyboard: its demo fight
opened, a round of action cards typed from a real deck (Level Headed's two cards, a Joker), a hit that Shakes,
the Joker brought in before the Bandits, then quit and resumed where it was.

Worked out by hand: Jessie (Level Headed) draws 3♣ and 9♥ and acts on 9♥; Doc is dealt a Joker and waits
outside the order; Black Bart's K♠ beats the Bandits' K♥ by suit. Bart's attack on Jessie, 7 on the trait die
against her Parry 6, hits; 6 damage against her Toughness 6 Shakes her.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Callable

from tests.ui.fights import opened, until
from tests.ui.steps import (
    SIZE,
    combatant_id,
    footer_now,
    select,
    session_folders,
    store,
    to_round_from_setup,
    until_closed,
    until_form,
    until_prompt,
    until_prompt_closed,
    visible_text,
)
from tests.waiting import until_screen
from tui_combat.app import CombatApp
from tui_combat.engine.contract import AnyRuleset
from tui_combat.engine.log import render
from tui_combat.screens.dialogs import ChoiceDialog
from tui_combat.screens.round import RoundScreen
from tui_combat.widgets.order_list import OrderList


def slot_labels(app: CombatApp) -> list[str]:
    return [render(slot.label) for slot in store(app).state.order]


async def test_a_round_of_savage_worlds_from_the_keyboard(savage_worlds: AnyRuleset,
                                                         make_app: Callable[..., CombatApp], data_root: Path) -> None:
    demo = importlib.import_module("savage_worlds").DEMO
    app = make_app(encounter=demo)
    async with app.run_test(size=SIZE) as pilot:
        await to_round_from_setup(pilot)
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        jessie, doc, bart = (combatant_id(app, name) for name in ("Jessie", "Doc", "Black Bart"))

        # The cards a real deck dealt, typed: every request is a text field that says what to type.
        await pilot.press("t")
        form = await until_form(pilot, "the action-card form")
        assert [(f.label, f.kind) for f in form.fields] == [
            ("Jessie", "str"), ("Doc", "str"), ("Black Bart", "str"), ("Bandit (group)", "str")]
        assert form.fields[0].help.startswith("cards drawn, the best kept")
        await pilot.press(*"3c 9h", "enter", *"joker", "enter", *"ks", "enter", *"kh", "enter")
        await until_closed(pilot, form, "the cards dealt")
        state = store(app).state
        assert slot_labels(app) == ["K♠", "K♥", "9♥"] and state.acting_now() == (bart,)
        assert "Jessie draws 3♣, 9♥ and acts on 9♥." in [entry.text for entry in state.log_entries()]
        order_text = visible_text(screen.query_one(OrderList))
        assert "Doc" in order_text and "Joker" in order_text, order_text
        assert "Bring in" in await footer_now(pilot)

        # Bart attacks Jessie: 7 on his trait die, 2 on the Wild Die, against her Parry 6; 6 damage Shakes her.
        await pilot.press("a")
        form = await until_form(pilot, "the attack form")
        assert [f.key for f in form.fields] == ["target", "range", "modifier", "trait", "wild"]
        await pilot.press("tab", "tab", "tab", "7", "tab", "2", "enter")
        damage = await until_prompt(pilot, "the damage the hit calls for")
        assert damage.field.placeholder == "1d6!+1d8!"
        await pilot.press("6", "enter")
        await until_prompt_closed(pilot, "the damage dealt")
        state = store(app).state
        assert jessie in savage_worlds.fight_of(state).shaken
        assert "Jessie takes 6 against Toughness 6: Shaken." in [entry.text for entry in state.log_entries()]
        await select(pilot, jessie)
        await until(pilot, lambda: "Jessie" in visible_text(screen.query_one("#card-head")), "Jessie's card")
        assert "Wounds 0/3" in visible_text(screen.query_one("#card-head"))  # the book's word, not HP

        # The Bandits' turn; the Joker comes in before them.
        await pilot.press("n")
        await until(pilot, lambda: store(app).state.cursor == 1, "the Bandits' turn")
        await pilot.press("I")
        choice = await until_screen(pilot, ChoiceDialog, "who comes in")
        assert isinstance(choice, ChoiceDialog)
        assert [label for _value, label in choice.choices] == ["Doc — Joker: acts when he likes"]
        await pilot.press("enter")
        await until(pilot, lambda: store(app).state.acting_now() == (doc,), "Doc acting")
        assert slot_labels(app) == ["K♠", "Joker: acts when he likes", "K♥", "9♥"]
        assert "Bring in" not in await footer_now(pilot)  # nobody else waits
        saved = store(app).state
        await pilot.press("q")
    assert app.return_code == 0

    (folder,) = session_folders(data_root)
    resumed = make_app(resume=folder.name)
    async with resumed.run_test(size=SIZE) as pilot:
        await opened(pilot)
        assert isinstance(resumed.screen, RoundScreen)
        state = store(resumed).state
        assert state == saved
        assert state.acting_now() == (doc,) and jessie in savage_worlds.fight_of(state).shaken
        assert savage_worlds.round_of(state).jokers == ()
        await pilot.press("q")
