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


class SetName(_Action, tag="name", frozen=True, kw_only=True):
    name: str


class SetRuleset(_Action, tag="ruleset", frozen=True, kw_only=True):
    ruleset: str


class SetOption(_Action, tag="option", frozen=True, kw_only=True):
    key: str
    value: str


class AddSide(_Action, tag="add_side", frozen=True, kw_only=True):
    name: str
    is_party: bool = False


class AddCombatants(_Action, tag="add", frozen=True, kw_only=True):
    """Add one combatant, or a numbered group sharing one initiative roll when ``count`` > 1."""

    side: str
    name: str
    hp: int
    count: int = 1
    sheet: dict[str, Any] = msgspec.field(default_factory=dict)
    notes: str = ""
    hidden: bool | msgspec.UnsetType = msgspec.UNSET
    hps: tuple[int, ...] = ()
    """Each member's hit points, where they differ (rolled from the Hit Dice, as AD&D and OSE do, or typed):
    as many as ``count``; empty, every member has ``hp``."""
    """Kept from the players until revealed (:class:`SetHidden`); left out of the journal when not (so that
    an action journalled before it existed encodes as it did)."""


class SetHidden(_Action, tag="hidden", frozen=True, kw_only=True):
    """Hide a combatant from the players, or reveal him ("X appears", in the public log, once the fight is on)."""

    combatant: str
    hidden: bool


class RemoveCombatant(_Action, tag="remove", frozen=True, kw_only=True):
    combatant: str


class EditCombatant(_Action, tag="edit", frozen=True, kw_only=True):
    combatant: str
    name: str | None = None
    hp: int | None = None
    max_hp: int | None = None
    sheet: dict[str, Any] | None = None
    notes: str | None = None


class BeginSurprise(_Action, tag="begin_surprise", frozen=True, kw_only=True):
    """Leave setup: the encounter is complete, go to the surprise and distance step."""


class RollSurprise(_Action, tag="surprise", frozen=True, kw_only=True):
    rolls: dict[str, Roll]
    """Request key (a side or a combatant, as the ruleset asked) → its surprise roll; those that could
    not be surprised are absent."""
    modifiers: dict[str, int] = msgspec.field(default_factory=dict)


class SetSurprised(_Action, tag="set_surprised", frozen=True, kw_only=True):
    """The GM decides who is surprised (for books without a surprise roll, or to overrule one):
    whole sides, single combatants, or both."""

    sides: tuple[str, ...] = ()
    combatants: tuple[str, ...] = ()


class RollDistance(_Action, tag="distance", frozen=True, kw_only=True):
    situation: str
    roll: Roll | None = None


class StartFight(_Action, tag="start", frozen=True, kw_only=True):
    pass


class NextStep(_Action, tag="next", frozen=True, kw_only=True):
    pass


class PreviousStep(_Action, tag="prev", frozen=True, kw_only=True):
    pass


class RollInitiative(_Action, tag="initiative", frozen=True, kw_only=True):
    rolls: dict[str, Roll]
    """Roll key (as the ruleset asked for it: a side, a group, a combatant, a tie-break) → the roll.
    The same action answers the first requests and any further ones the ruleset asks for."""


class BringIn(_Action, tag="bring_in", frozen=True, kw_only=True):
    """One who waits outside the order (:meth:`Ruleset.out_of_order`: on hold, a Joker) acts now, before the slot
    acting: a slot of his own is put in at the cursor."""

    combatant: str


class Declare(_Action, tag="declare", frozen=True, kw_only=True):
    combatant: str
    declaration: dict[str, Any]


class Damage(_Action, tag="damage", frozen=True, kw_only=True):
    combatant: str
    amount: int
    roll: Roll | None = None
    critical: bool = False
    kind: str = ""
    """The damage's type where the rules give it one (5e: "fire", "slashing" …), for resistance and immunity."""
    """The damage of a critical hit (some books count it twice against the dying)."""


class Heal(_Action, tag="heal", frozen=True, kw_only=True):
    combatant: str
    amount: int


class SetStatus(_Action, tag="status", frozen=True, kw_only=True):
    combatant: str
    status: Status


class Note(_Action, tag="note", frozen=True, kw_only=True):
    text: str
    secret: bool = False


class AddEffect(_Action, tag="effect", frozen=True, kw_only=True):
    """A condition or effect on a combatant for ``rounds`` rounds: a name typed by the GM, or one of the
    ruleset's (:meth:`Ruleset.effect_names`, a message id then, shown in the GM's language)."""

    combatant: str
    name: str
    rounds: int
    holder: str = ""
    """Whose concentration holds it (5e), "" for none: it ends with that concentration."""


class EndEffect(_Action, tag="end_effect", frozen=True, kw_only=True):
    """An effect ended before its time (by its id)."""

    effect: int


class SavingThrow(_Action, tag="save", frozen=True, kw_only=True):
    """A combatant's saving throw (:mod:`tui_combat.engine.saves`): its kind, the DC where the rules have one, the
    roll (the app's or typed from real dice); ``legendary``: a failure is turned into a success by a Legendary
    Resistance; ``source``: what it is against, as the rules that asked for it name it ("concentration")."""

    combatant: str
    kind: str
    roll: Roll
    dc: int = 0
    cover: int = 0
    legendary: bool = False
    source: str = ""


class AreaTarget(msgspec.Struct, frozen=True, kw_only=True):
    """One target of an area effect: his save's roll (none where there is no save), his cover, and whether a
    failed save is turned into a success by a Legendary Resistance."""

    combatant: str
    roll: Roll | None = None
    cover: int = 0
    legendary: bool = False


class AreaEffect(_Action, tag="area", frozen=True, kw_only=True):
    """An effect on several targets at once (a fireball, a breath, a cone): one damage roll shared by all, each
    target's save against ``dc`` (``save`` "" for none), what a save leaves of the damage (``on_save``: half,
    none, full), then each one's resistances; ``source`` is who does it ("" for none in the fight) and
    ``ability`` the special ability it is (its recharge spent), if any."""

    name: str
    targets: tuple[AreaTarget, ...]
    damage: Roll | None = None
    kind: str = ""
    save: str = ""
    dc: int = 0
    on_save: str = "half"
    source: str = ""
    ability: str = ""


class ShowToPlayers(_Action, tag="show", frozen=True, kw_only=True):
    """The GM shows the players what was held from them because it named a secret (a log line by its place in
    the fight's log, an effect by its id): from now on it is theirs to read."""

    entries: tuple[int, ...] = ()
    effects: tuple[int, ...] = ()


class RulesetAction(_Action, tag="rs", frozen=True, kw_only=True):
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
    | SetHidden
    | EditCombatant
    | BeginSurprise
    | RollSurprise
    | SetSurprised
    | RollDistance
    | StartFight
    | NextStep
    | PreviousStep
    | RollInitiative
    | BringIn
    | Declare
    | Damage
    | Heal
    | SetStatus
    | Note
    | AddEffect
    | EndEffect
    | SavingThrow
    | AreaEffect
    | ShowToPlayers
    | RulesetAction
)
