"""How big a fight is before it starts. The Dungeon Master's Guide gives no formula for an encounter's
difficulty; what a GM compares is the monsters' Hit Dice, added up, against the party's levels, added up.
Those who are down, fled or surrendered do not count; a monster's pluses count as the THAC0 table reads
them ("6+6" is 7 Hit Dice, "1-1" half a die)."""

from __future__ import annotations

from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.i18n import _
from tui_combat.rulesets.adnd2e.sheet import hit_dice, sheet_of


def _shown(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def hit_dice_against_levels(state: State) -> str | None:
    """The monsters' Hit Dice against the party's levels, as one line, or None when either side has nobody."""
    party = {side.id for side in state.sides if side.is_party}
    dice = levels = 0.0
    monsters = characters = 0
    for combatant in state.combatants:
        if combatant.status != "active":
            continue
        try:
            sheet = sheet_of(combatant)
            count = hit_dice(sheet.level)
        except (RuleError, ValueError):
            continue
        if combatant.side in party:
            levels += count
            characters += 1
        elif sheet.cls == "monster":
            dice += count
            monsters += 1
    if not monsters or not characters:
        return None
    return _(
        "Size of the fight: monsters' Hit Dice {dice} against the party's levels {levels}.",
        dice=_shown(dice),
        levels=_shown(levels),
    )
