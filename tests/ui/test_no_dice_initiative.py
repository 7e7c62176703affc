"""An initiative step without dice, at the keyboard: the GM picks who opens with the ruleset's own key, the round
screen offers no Roll nor Typed and its hint says what to do; ``r`` pressed anyway settles nothing. Written with the
public testing kit (:mod:`tui_combat.testing`) as a plugin's test would be."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.common import encounter_file
from tests.engine.test_contract_popcorn import Popcorn
from tui_combat.app import CombatApp
from tui_combat.testing import (
    SIZE,
    footer_now,
    registered,
    select,
    store,
    to_round_from_setup,
    turn_list_text,
    until,
    visible_text,
)

HEIST = """
name = "Heist"
ruleset = "popcorn"
[[sides]]
name = "Crew"
party = true
[[sides.combatants]]
name = "Ada"
hp = 1
[[sides]]
name = "Thugs"
[[sides.combatants]]
name = "Thug"
hp = 1
"""


async def test_the_gm_picks_who_opens_and_no_dice_are_offered(
    make_app: Callable[..., CombatApp], tmp_path: Path
) -> None:
    with registered(Popcorn()):
        app = make_app(encounter=encounter_file(tmp_path, HEIST))
        async with app.run_test(size=SIZE) as pilot:
            await to_round_from_setup(pilot)
            footer = await footer_now(pilot)
            assert "Roll" not in footer and "Typed" not in footer and "Opens" in footer, footer
            hint = visible_text(app.screen.query_one("#step-hint")).strip()
            assert hint == "n once the order stands · o on the one who opens", hint
            before = store(app).state
            await pilot.press("r")  # no dice here: nothing happens
            await pilot.press("n")  # refused: the order does not stand yet
            await until(
                pilot,
                lambda: any("The order does not stand yet" in str(n.message) for n in app._notifications),
                "the refusal of next",
            )
            assert store(app).state is before
            thug = next(c.id for c in before.combatants if c.name == "Thug")
            await select(pilot, thug)
            await pilot.press("o", "n")
            await until(pilot, lambda: store(app).state.acting_now() == (thug,), "the thug acting")
            await until(
                pilot,
                lambda: "Thug  Stress 0/2" in turn_list_text(app),
                "the thug's stress in the turn list",
                describe=lambda: turn_list_text(app),
            )
