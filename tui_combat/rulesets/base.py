"""The contract every ruleset plugin fulfils.

A ruleset is a plain object (no Textual) that tells the engine what a round of *its* book looks like.
The engine owns the generic state (sides, combatants, HP, round, step, order, cursor, log); the ruleset
answers questions about it and may transform it for its own actions.

How the five families map onto this protocol:

* **AD&D 2e** — ``initiative_requests`` asks for one 1d10 per side (standard and group-modified) or per
  combatant/group (individual); ``order`` sorts ascending, ties share a slot; steps are
  monsters' intent (secret) → declarations → initiative → resolve → end; the budget is attacks this
  round (3/2 alternating) plus one main action; ``on_damage`` loses a spell whose caster is hit before
  his slot.
* **AD&D 2e Player's Option** — ``order`` places combatants in the five phases (very fast … very slow)
  from the side roll and each combatant's phase shifts; ties between side rolls raise a critical event,
  written to the log by ``apply_action``.
* **D&D 5e** — one d20 + Dex per combatant (``individual`` requests), sorted descending and kept for the
  whole fight (``order`` reads ``state.carry``); the budget is action / bonus action / reaction / movement,
  refreshed by ``start_turn``-style ruleset actions; side and speed-factor initiative are options.
* **Trudvang** — open-ended 1d10 per combatant or NPC group plus IMs; ``order`` buckets the totals into the
  GM's countdown calls 20, 15, 10, 9 … 1, 0-; the budget is combat-point pools by lock plus weapon actions,
  refreshed in ``start_round``; hold, skip and spend are ``RulesetAction``s.
* **OSE / Dolmenwood** — one d6 per side; ``order`` yields one slot per side and phase
  (movement → missile → magic → melee); the budget is one move plus one action; morale checks are
  ruleset actions at ``end_round``.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

import msgspec

from tui_combat.engine.model import Slot, State

StepKind = Literal["declare", "initiative", "resolve", "end", "other"]
FieldKind = Literal["int", "str", "choice", "bool"]


class RuleError(Exception):
    """An action the rules do not allow now; the message says why, in words for the GM."""


class StepDef(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    label: str
    kind: StepKind
    secret: bool = False
    help: str = ""


class OptionSpec(msgspec.Struct, frozen=True, kw_only=True):
    key: str
    label: str
    choices: tuple[tuple[str, str], ...]
    """(value, label) pairs; the first is the default."""


class FieldSpec(msgspec.Struct, frozen=True, kw_only=True):
    """One field of a combatant's sheet, as the setup form shows it."""

    key: str
    label: str
    kind: FieldKind = "str"
    default: Any = ""
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""


class RollRequest(msgspec.Struct, frozen=True, kw_only=True):
    """One initiative (or other) roll the ruleset needs before it can order the round."""

    key: str
    label: str
    dice: str
    modifier: int = 0
    combatants: tuple[str, ...] = ()


class Situation(msgspec.Struct, frozen=True, kw_only=True):
    """An encounter-distance situation: its roll and how to read it."""

    id: str
    label: str
    dice: str = ""
    multiplier: int = 1
    unit: str = "ft"


class SurpriseModifier(msgspec.Struct, frozen=True, kw_only=True):
    label: str
    value: int


class BudgetLine(msgspec.Struct, frozen=True, kw_only=True):
    """One thing a combatant may still do this round, as a meter: ``left`` of ``total``."""

    label: str
    left: int
    total: int


class ActionKey(msgspec.Struct, frozen=True, kw_only=True):
    """A ruleset action offered on the round screen, with the key that triggers it."""

    name: str
    key: str
    label: str
    footer: bool = True
    """Shown in the footer (which fits about eight keys at 80 columns); all are in help and the palette."""


@runtime_checkable
class Ruleset(Protocol):
    id: str
    name: str
    options: tuple[OptionSpec, ...]
    sheet_fields: tuple[FieldSpec, ...]
    surprise_effect: str
    """What surprise does, as a log line with ``{names}``: "Surprised, they lose this round: {names}."
    Empty when the ruleset logs it itself."""

    def steps(self, state: State) -> tuple[StepDef, ...]:
        """The steps of the current round, in order."""
        ...

    # -- encounter set-up ------------------------------------------------------------------------
    def surprise_dice(self) -> str:
        """The surprise roll per side, or "" when the book has none (the GM marks sides by hand)."""
        ...

    def surprise_modifiers(self) -> tuple[SurpriseModifier, ...]: ...

    def is_surprised(self, total: int) -> bool: ...

    def distance_situations(self) -> tuple[Situation, ...]: ...

    def check_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """Check a combatant's sheet when it is entered; raise :class:`RuleError` naming the bad field."""
        ...

    # -- the round -------------------------------------------------------------------------------
    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        """The rolls needed to order this round (empty when the order needs no roll)."""
        ...

    def order(self, state: State, totals: dict[str, int]) -> tuple[Slot, ...]:
        """The turn order from the modified totals of the requested rolls."""
        ...

    def start_round(self, state: State) -> State:
        """Refresh per-round budgets and apply what was carried from the last round."""
        ...

    def end_round(self, state: State) -> State:
        """Close the round: effects at its end, what carries over."""
        ...

    def declare(self, state: State, combatant_id: str, declaration: dict[str, Any]) -> State:
        """Record a declaration (``engine.apply.store_declaration``), or refuse or re-order as the book says."""
        ...

    def on_damage(self, state: State, combatant_id: str, amount: int) -> State:
        """React to a hit (e.g. a caster hit before his turn loses the spell)."""
        ...

    def apply_action(self, state: State, name: str, args: dict[str, Any]) -> State:
        """Apply a ruleset-specific action; raise :class:`RuleError` when it is not allowed."""
        ...

    def round_actions(self, state: State) -> tuple[ActionKey, ...]:
        """Ruleset actions the round screen offers now."""
        ...

    def budget(self, state: State, combatant_id: str) -> tuple[BudgetLine, ...]:
        """What the combatant may still do this round."""
        ...

    def details(self, state: State, combatant_id: str) -> tuple[tuple[str, str], ...]:
        """(label, value) lines describing the combatant for the detail pane."""
        ...

    def declaration_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        """The form a declaration for this combatant fills in."""
        ...

    def action_fields(self, state: State, name: str, combatant_id: str) -> tuple[FieldSpec, ...]:
        """The form for a ruleset action's arguments. A field keyed ``roll`` is a die roll: its
        ``default`` is the dice expression; left empty the app rolls it, or the GM types what real
        dice showed. The screen passes ``combatant`` (the selected combatant) itself."""
        ...
