"""AD&D 2e and Player's Option: the set-up's measure of a fight, the monsters' Hit Dice against the party's
levels (the DMG gives no formula; this is what a GM compares)."""

from __future__ import annotations

from msgspec.structs import replace

from tests.common import DEMO
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import apply
from tui_combat.engine.encounter import built, load_encounter


def test_the_demo_weighs_27_hit_dice_against_14_levels() -> None:
    state = built(load_encounter(DEMO), DEMO)  # three trolls 6+6 (7 each, as THAC0 reads them), six orcs of 1 HD
    ruleset = registry.get(state.ruleset)
    assert ruleset.difficulty(state) == "Size of the fight: monsters' Hit Dice 27 against the party's levels 14."
    ogre = apply(
        state, a.AddCombatants(side=state.sides[-1].id, name="Ogre", hp=30, sheet={"cls": "monster", "level": "4+1"})
    )
    assert ruleset.difficulty(ogre) == "Size of the fight: monsters' Hit Dice 31 against the party's levels 14."
    orcs_down = replace(
        state, combatants=tuple(replace(c, status="down") if c.name.startswith("Orc") else c for c in state.combatants)
    )
    assert ruleset.difficulty(orcs_down) == "Size of the fight: monsters' Hit Dice 21 against the party's levels 14."


def test_nothing_to_weigh_without_both_sides() -> None:
    state = built(load_encounter(DEMO), DEMO)
    party = {side.id for side in state.sides if side.is_party}
    alone = replace(state, combatants=tuple(c for c in state.combatants if c.side in party))
    assert registry.get(state.ruleset).difficulty(alone) is None
    assert registry.get("players_option").difficulty(state) is not None
