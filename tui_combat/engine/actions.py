"""Every change to a fight is one of these actions.

Dice results travel inside the actions (rolled by the app or typed in from physical dice before the
action is dispatched), so applying the same actions to the same state always gives the same result.
Actions are a msgspec tagged union: each encodes to one JSON object with a ``"t"`` tag.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tui_combat.engine.dice import Roll
from tui_combat.engine.model import Status


class _Action(msgspec.Struct, frozen=True, kw_only=True, tag_field="t"):
    pass


class SetName(_Action, tag="name"):
    name: str


class SetRuleset(_Action, tag="ruleset"):
    ruleset: str


class SetOption(_Action, tag="option"):
    key: str
    value: str


class AddSide(_Action, tag="add_side"):
    name: str
    is_party: bool = False


class AddCombatants(_Action, tag="add"):
    """Add one combatant, or a numbered group sharing one initiative roll when ``count`` > 1."""

    side: str
    name: str
    hp: int
    count: int = 1
    sheet: dict[str, Any] = msgspec.field(default_factory=dict)
    notes: str = ""


class RemoveCombatant(_Action, tag="remove"):
    combatant: str


class EditCombatant(_Action, tag="edit"):
    combatant: str
    name: str | None = None
    hp: int | None = None
    max_hp: int | None = None
    sheet: dict[str, Any] | None = None
    notes: str | None = None


class BeginSurprise(_Action, tag="begin_surprise"):
    """Leave setup: the encounter is complete, go to the surprise and distance step."""


class RollSurprise(_Action, tag="surprise"):
    rolls: dict[str, Roll]
    """Side id → its surprise roll; sides that could not be surprised are absent."""
    modifiers: dict[str, int] = msgspec.field(default_factory=dict)


class SetSurprised(_Action, tag="set_surprised"):
    """The GM decides who is surprised (for books without a surprise roll, or to overrule one)."""

    sides: tuple[str, ...]


class RollDistance(_Action, tag="distance"):
    situation: str
    roll: Roll | None = None


class StartFight(_Action, tag="start"):
    pass


class NextStep(_Action, tag="next"):
    pass


class PreviousStep(_Action, tag="prev"):
    pass


class RollInitiative(_Action, tag="initiative"):
    rolls: dict[str, Roll]
    """Roll key (as the ruleset asked for it: a side, a group or a combatant) → the roll."""


class Declare(_Action, tag="declare"):
    combatant: str
    declaration: dict[str, Any]


class Damage(_Action, tag="damage"):
    combatant: str
    amount: int
    roll: Roll | None = None


class Heal(_Action, tag="heal"):
    combatant: str
    amount: int


class SetStatus(_Action, tag="status"):
    combatant: str
    status: Status


class Note(_Action, tag="note"):
    text: str
    secret: bool = False


class RulesetAction(_Action, tag="rs"):
    """An action only the active ruleset understands (spend combat points, hold, skip …)."""

    name: str
    args: dict[str, Any] = msgspec.field(default_factory=dict)


Action = (
    SetName
    | SetRuleset
    | SetOption
    | AddSide
    | AddCombatants
    | RemoveCombatant
    | EditCombatant
    | BeginSurprise
    | RollSurprise
    | SetSurprised
    | RollDistance
    | StartFight
    | NextStep
    | PreviousStep
    | RollInitiative
    | Declare
    | Damage
    | Heal
    | SetStatus
    | Note
    | RulesetAction
)
