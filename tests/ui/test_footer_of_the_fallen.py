"""A dying character's footer at 80×24 offers what he can do: in D&D 5e his death save (v), not an attack; in AD&D
2e under the −10 option his wounds bound (w), not an attack nor a main action. A standing one's footer is as
before."""

from __future__ import annotations

from collections.abc import Callable

from tests.ui.steps import (
    SIZE,
    combatant_id,
    footer_now,
    open_demo,
    select,
    store,
    to_round_from_setup,
    type_initiative,
    until_form,
    until_prompt,
    until_prompt_closed,
    until_round,
)
from tests.waiting import until, until_screen
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine.encounter import ENCOUNTER_DIR
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.surprise import SurpriseScreen


async def damage(pilot: object, amount: str) -> None:
    await pilot.press("d")  # type: ignore[attr-defined]
    await until_prompt(pilot, "the damage prompt")  # type: ignore[arg-type]
    await pilot.press(*amount, "enter")  # type: ignore[attr-defined]
    await until_prompt_closed(pilot, "the damage taken")  # type: ignore[arg-type]


async def test_5e_a_dying_character_s_footer_offers_the_death_save(make_app: Callable[..., CombatApp]) -> None:
    app = make_app(encounter=ENCOUNTER_DIR / "demo_dnd5e.toml")
    async with app.run_test(size=SIZE) as pilot:
        await to_round_from_setup(pilot)
        await pilot.press("t")
        await until_form(pilot, "the initiative form")
        for typed in ("19", "2", "3", "1", "15", "10"):
            await pilot.press(*typed, "enter")
        await until_screen(pilot, RoundScreen, "the round")
        mirela = combatant_id(app, "Mirela")
        await select(pilot, mirela)
        assert "Attack" in await footer_now(pilot)

        await damage(pilot, "30")  # 27 HP: unconscious, dying
        await until(pilot, lambda: store(app).state.combatant(mirela).status == "down", "Mirela down")
        keys = await footer_now(pilot)
        assert "Death save" in keys and "Attack" not in keys, keys


async def test_adnd_a_dying_character_s_footer_offers_his_wounds_bound(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_demo(pilot)
        store(app).dispatch(a.SetOption(key="death", value="minus_10"))
        await pilot.press("c")
        await until_screen(pilot, SurpriseScreen, "the surprise screen")
        await pilot.press("t")
        await until_form(pilot, "the surprise dice")
        await pilot.press("5", "enter", "8", "enter", "c")
        await until_round(pilot)
        await type_initiative(pilot, "7", "10")
        raf = combatant_id(app, "Raf")
        await select(pilot, raf)
        assert "Attack" in await footer_now(pilot)

        await damage(pilot, "41")  # 38 HP → −3: dying, losing 1 a round
        await until(pilot, lambda: store(app).state.combatant(raf).hp == -3, "Raf at −3")
        keys = await footer_now(pilot)
        assert "Bind wounds" in keys and "Attack" not in keys and "Main action" not in keys, keys
