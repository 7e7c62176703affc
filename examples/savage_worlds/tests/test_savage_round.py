"""The Savage Worlds example plugin (``examples/savage_worlds``) at 80×24, from the keyboard: its demo fight
opened, a round of action cards typed from a real deck (Level Headed's two cards, a Joker), a hit that Shakes,
the Joker brought in before the Bandits, then quit and resumed where it was.

Worked out by hand: Jessie (Level Headed) draws 3♣ and 9♥ and acts on 9♥; Doc is dealt a Joker and waits
outside the order; Black Bart's K♠ beats the Bandits' K♥ by suit. Bart's attack on Jessie, 7 on the trait die
against her Parry 6, hits; 6 damage against her Toughness 6 Shakes her.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from savage_worlds import DEMO

from tui_combat.app import CombatApp
from tui_combat.engine.contract import AnyRuleset
from tui_combat.engine.log import render
from tui_combat.testing import (
    SIZE,
    card_text,
    combatant_id,
    footer_now,
    opened,
    select,
    session_folders,
    store,
    to_round_from_setup,
    turn_list_text,
    until,
    until_choice,
    until_closed,
    until_form,
    until_log,
    until_prompt,
    until_prompt_closed,
)


def slot_labels(app: CombatApp) -> list[str]:
    return [render(slot.label) for slot in store(app).state.order]


async def test_a_round_of_savage_worlds_from_the_keyboard(
    savage_worlds: AnyRuleset, make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    app = make_app(encounter=DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await to_round_from_setup(pilot)
        jessie, doc, bart = (combatant_id(app, name) for name in ("Jessie", "Doc", "Black Bart"))

        # The cards a real deck dealt, typed: every request is a text field that says what to type.
        await pilot.press("t")
        form = await until_form(pilot, "the action-card form")
        assert [(f.label, f.kind) for f in form.fields] == [
            ("Jessie", "str"),
            ("Doc", "str"),
            ("Black Bart", "str"),
            ("Bandit (group)", "str"),
        ]
        assert form.fields[0].help.startswith("cards drawn, the best kept")
        await pilot.press(*"3c 9h", "enter", *"joker", "enter", *"ks", "enter", *"kh", "enter")
        await until_closed(pilot, form, "the cards dealt")
        state = store(app).state
        assert slot_labels(app) == ["K♠", "K♥", "9♥"] and state.acting_now() == (bart,)
        assert "Jessie draws 3♣, 9♥ and acts on 9♥." in [entry.text for entry in state.log_entries()]
        order_text = turn_list_text(app)
        assert "Doc" in order_text and "Joker" in order_text, order_text
        assert "Jessie  Wounds 0/3" in order_text, order_text  # the book's count, as on the card
        assert "Bring in" in await footer_now(pilot)

        # Bart attacks Jessie: 7 on his trait die, 2 on the Wild Die, against her Parry 6; 6 damage Shakes her.
        await pilot.press("a")
        form = await until_form(pilot, "the attack form")
        assert [f.key for f in form.fields] == ["target", "range", "modifier", "trait", "wild"]
        await pilot.press("tab", "tab", "tab", "7", "tab", "2", "enter")
        damage = await until_prompt(pilot, "the damage the hit calls for")
        assert damage.placeholder == "1d6!+1d8!"
        await pilot.press("6", "enter")
        await until_prompt_closed(pilot, "the damage dealt")
        state = store(app).state
        assert jessie in savage_worlds.fight_of(state).shaken
        await until_log(pilot, "Jessie takes 6 against Toughness 6: Shaken.")
        await select(pilot, jessie)
        await until(pilot, lambda: "Jessie" in card_text(app), "Jessie's card")
        assert "Wounds 0/3" in card_text(app)  # the book's word, not HP

        # The Bandits' turn; the Joker comes in before them.
        await pilot.press("n")
        await until(pilot, lambda: store(app).state.cursor == 1, "the Bandits' turn")
        await pilot.press("I")
        assert await until_choice(pilot, "who comes in") == ["Doc — Joker: acts at any time"]
        await pilot.press("enter")
        await until(pilot, lambda: store(app).state.acting_now() == (doc,), "Doc acting")
        assert slot_labels(app) == ["K♠", "Joker: acts at any time", "K♥", "9♥"]
        assert "Bring in" not in await footer_now(pilot)  # nobody else waits
        saved = store(app).state
        await pilot.press("q")
    assert app.return_code == 0

    (folder,) = session_folders(data_root)
    resumed = make_app(resume=folder.name)
    async with resumed.run_test(size=SIZE) as pilot:
        await opened(pilot)
        state = store(resumed).state
        assert state == saved
        assert state.acting_now() == (doc,) and jessie in savage_worlds.fight_of(state).shaken
        assert savage_worlds.round_of(state).jokers == ()
        await pilot.press("q")
