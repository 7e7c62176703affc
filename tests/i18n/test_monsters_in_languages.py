"""A Russian or a Ukrainian GM fetching an SRD monster by any of its names sees it under its name in his
language in the picker, the set-up and the round, with its attacks so named; and the damage prompt a hit
opens keeps its keys whole at 80×24."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Input, OptionList

from tests.i18n.interface import SIZE, interface_in, make_app, screen_name
from tests.i18n.walk import drawn, inspect
from tests.ui.steps import select
from tests.waiting import settled, until
from tui_combat.engine import actions as a
from tui_combat.engine.contract import DamageDue
from tui_combat.fight import session

pytestmark = pytest.mark.slow  # the set-up and a round of the 5e demo, in two languages

WIGHT = {"ru": ("Умертвие", "некротический меч"), "uk": ("Умертвій", "некротичний меч")}


def listed(app: Any) -> list[str]:
    options = app.screen.query_one("#library-entries", OptionList)
    return [" ".join(str(options.get_option_at_index(i).prompt).split()) for i in range(options.option_count)]


@pytest.mark.parametrize("typed", ["wight", "умертвие"])
@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_the_wight_is_shown_and_added_under_its_name_in_the_gms_language(
    lang: str, typed: str, data_root: Path
) -> None:
    wight, sword = WIGHT[lang]
    with interface_in(lang) as module:
        app = make_app(module, data_root)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: screen_name(pilot) == "SessionsScreen", "the session list")
            app.open_session(partial(session.open_demo, data_root, "demo_dnd5e.toml", seed=app.seed))
            await until(pilot, lambda: screen_name(pilot) == "SetupScreen", "the set-up")
            await pilot.press("l")
            await until(pilot, lambda: screen_name(pilot) == "LibraryPicker", "the picker")
            await pilot.press(*typed)
            await until(pilot, lambda: app.screen.query_one("#library-query", Input).value == typed, "the search")
            await until(
                pilot,
                lambda: bool(listed(app)) and listed(app)[0].startswith(wight),
                "the wight found",
                describe=lambda: str(listed(app)),
            )
            assert sword in str(app.screen.query_one("#library-detail").render())
            assert not await inspect(pilot, "picker", lang)
            await pilot.press("enter")
            await until(pilot, lambda: screen_name(pilot) == "SetupScreen", "back on the set-up")
            table = app.screen.query_one(DataTable)
            await until(
                pilot,
                lambda: any(str(table.get_row_at(i)[1]) == wight for i in range(table.row_count)),
                "the wight in the set-up",
            )
            await pilot.press("c")
            await until(pilot, lambda: screen_name(pilot) == "SurpriseScreen", "the surprise screen")
            await pilot.press("c")
            await until(pilot, lambda: screen_name(pilot).startswith("RoundScreen"), "the round")
            added = next(c for c in app.store.state.combatants if c.name == wight)
            assert added.sheet["attack_list"].startswith(f"{sword} +4 1d8+2")
            await select(pilot, added.id)
            await until(
                pilot,
                lambda: (
                    wight in drawn(app.screen.query_one("#order"))
                    and wight in drawn(app.screen.query_one("#card-head"))
                    and settled(app.screen)
                ),
                "the wight in the turn list and on the card",
            )


@pytest.mark.parametrize("demo", ["demo_dnd5e.toml", "demo_adnd2e.toml"])
@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_the_damage_prompt_after_a_hit_keeps_its_keys_whole(lang: str, demo: str, data_root: Path) -> None:
    """A hit with a bastard sword on a monster: the prompt's title, the field and the keys (Enter rolls the
    hit's dice) on one line of 80 columns, none of them cut (the weapon goes above the line when they would be)."""
    with interface_in(lang):
        store = session.open_demo(data_root, demo, seed=1)  # the demo in the GM's language
    assert store.folder is not None
    key = store.folder.folder.name
    store.dispatch(a.StartFight())
    store.close()
    with interface_in(lang) as module:
        app = make_app(module, data_root)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: screen_name(pilot) == "SessionsScreen", "the session list")
            app.open_session(lambda: session.resume(data_root, key))
            await until(pilot, lambda: screen_name(pilot).startswith("RoundScreen"), "the round")
            screen: Any = app.screen
            party = {side.id for side in app.store.state.sides if side.is_party}
            target = next(combatant for combatant in app.store.state.combatants if combatant.side not in party)
            screen.ask_damage(DamageDue(target=target.id, dice="2d10+12", what="bastard sword"))
            prompt = screen.amount_prompt
            await until(pilot, lambda: prompt.is_open and settled(prompt), "the damage prompt")
            assert not await inspect(pilot, f"{demo} damage prompt", lang)
            assert prompt.keys_text.startswith("Enter: ")
