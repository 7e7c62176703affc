"""Encounter files: a fight prepared in advance, turned into the actions that build it.

An encounter is TOML::

    name = "Trolls in the tunnel"
    ruleset = "adnd2e"
    [options]
    initiative = "standard"
    [[sides]]
    name = "Party"
    party = true
    [[sides.combatants]]
    name = "Raf"
    hp = 42
    count = 1            # "5" makes Orc 1 … Orc 5, one group sharing one initiative roll
    [sides.combatants.sheet]
    weapon = "war hammer"
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from tui_combat.engine import actions as a
from tui_combat.engine.model import State
from tui_combat.engine.tables import load_table

ENCOUNTER_DIR = Path(__file__).resolve().parent.parent / "encounters"
DEMO = ENCOUNTER_DIR / "demo_adnd2e.toml"


class CombatantSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    hp: int
    count: int = 1
    sheet: dict[str, Any] = msgspec.field(default_factory=dict)
    notes: str = ""


class SideSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    party: bool = False
    combatants: list[CombatantSpec] = msgspec.field(default_factory=list)


class Encounter(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    ruleset: str = "adnd2e"
    options: dict[str, str] = msgspec.field(default_factory=dict)
    sides: list[SideSpec] = msgspec.field(default_factory=list)


def load_encounter(path: Path) -> Encounter:
    """Read an encounter file; a typo raises ``RuleError`` naming the file and the field."""
    return load_table(path, Encounter)


def encounter_actions(encounter: Encounter, state: State) -> list[a.Action]:
    """The actions that build ``encounter`` on top of a fresh ``state`` (side ids follow ``next_id``)."""
    result: list[a.Action] = [a.SetName(name=encounter.name), a.SetRuleset(ruleset=encounter.ruleset)]
    result += [a.SetOption(key=key, value=value) for key, value in encounter.options.items()]
    next_id = state.next_id
    for side in encounter.sides:
        side_id = f"s{next_id}"
        result.append(a.AddSide(name=side.name, is_party=side.party))
        next_id += 1
        for spec in side.combatants:
            result.append(
                a.AddCombatants(side=side_id, name=spec.name, hp=spec.hp, count=spec.count, sheet=spec.sheet, notes=spec.notes)
            )
            next_id += spec.count + (1 if spec.count > 1 else 0)
    return result
