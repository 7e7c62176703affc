"""Saving throws, areas and damage types: what comes right after an attack, whatever the ruleset.

A ruleset says (:class:`SavingRules`, part of the ruleset contract, every hook with a default):

* which saving throws it has (:meth:`~SavingRules.save_kinds`: 5e's six abilities, AD&D's five categories of PHB
  Table 60, OSE's D/W/P/B/S; none in Trudvang's combat chapter, where an area deals plain damage to several);
* what a combatant needs on one (:meth:`~SavingRules.save_odds`: the dice, his modifier, the number needed, an
  automatic failure and why), from which the chance is shown before the roll;
* what a saved area leaves of its damage (:meth:`~SavingRules.area_share`: half, none, all; 5e's Evasion);
* how damage of a type reaches him (:meth:`~SavingRules.incoming_damage`: resistance, immunity, vulnerability,
  temporary hit points);
* what follows a save (:meth:`~SavingRules.after_save`: a concentration lost) and which saves the rules ask for
  now (:meth:`~SavingRules.saves_due`: 5e's concentration after damage);
* a monster's Legendary Resistance (:meth:`~SavingRules.legendary_resistance`), its special abilities that are
  areas (:meth:`~SavingRules.special_abilities`: a dragon's breath, ready or not), and one used
  (:meth:`~SavingRules.on_ability_used`: its recharge spent).

The engine applies :class:`~tui_combat.engine.actions.SavingThrow` and
:class:`~tui_combat.engine.actions.AreaEffect` through them (:mod:`tui_combat.engine.area`); the dice are rolled by
the app or typed, and come inside the actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import msgspec

from tui_combat.engine.dice import Dice, DiceError, parse
from tui_combat.engine.errors import RuleError
from tui_combat.engine.messages import Msg
from tui_combat.i18n import N_, _

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from tui_combat.engine.model import State

__all__ = ["ON_SAVE", "Incoming", "SaveDue", "SaveOdds", "SavingRules", "SpecialAbility", "d20_chance", "dice_key"]

ON_SAVE: Final = (("half", N_("half damage")), ("none", N_("no damage")), ("full", N_("full damage")))
"""What a successful save leaves of an area's damage, as the effect says."""


class SaveOdds(msgspec.Struct, frozen=True, kw_only=True):
    """What a combatant needs on a saving throw: ``dice`` + ``modifier`` ≥ ``needed`` succeeds, unless ``auto``."""

    kind: str
    needed: int
    """5e: the DC; AD&D 2e and OSE: the number of the table (with the GM's bonus taken off)."""
    dice: str = "1d20"
    """"d20adv" with advantage, "d20dis" with disadvantage (as attack rolls are written: typed as both faces,
    "15 7"); "2d20kh1" / "2d20kl1" are read the same."""
    modifier: int = 0
    auto: str = ""
    """"fail" (5e: paralyzed, petrified, stunned or unconscious on a Strength or Dexterity save) or "success"."""
    reasons: tuple[Msg, ...] = ()
    """Why the odds are what they are ("restrained: disadvantage", "half cover +2"), shown before the roll."""

    def succeeds(self, total: int) -> bool:
        if self.auto:
            return self.auto == "success"
        return total + self.modifier >= self.needed

    def chance(self) -> float:
        """The chance to succeed, 0–1."""
        if self.auto:
            return 1.0 if self.auto == "success" else 0.0
        return d20_chance(self.needed - self.modifier, self.dice)


def d20_chance(least: int, dice: str = "1d20") -> float:
    """The chance that ``dice`` (1d20, or two d20 keeping the higher / lower: "d20adv", "2d20kh1", "d20dis",
    "2d20kl1") shows ``least`` or more."""
    single = min(max((21 - least) / 20, 0.0), 1.0)
    key = dice_key(dice)
    if key == _ADVANTAGE:
        return 1 - (1 - single) ** 2
    if key == _DISADVANTAGE:
        return single**2
    return single


def dice_key(expr: str) -> tuple[tuple[int, ...], ...] | None:
    """What ``expr`` rolls, whatever way it is written ("d20adv" is "2d20kh1"): for comparing the dice of a roll with
    those the rules ask for; None when it is no dice expression."""
    try:
        parsed = parse(expr)
    except DiceError:
        return None
    terms: list[tuple[int, ...]] = []
    for term in parsed.terms:
        if isinstance(term, Dice):
            kept = term.keep if term.keep and term.keep < term.count else 0
            terms.append(
                (
                    term.count,
                    term.sides,
                    kept,
                    int(term.keep_lowest and bool(kept)),
                    int(term.negative),
                    int(term.explode),
                    term.explode_at,
                )
            )
        else:
            terms.append((term.value,))
    return tuple(terms)


_ADVANTAGE = dice_key("2d20kh1")
_DISADVANTAGE = dice_key("2d20kl1")


class SaveDue(msgspec.Struct, frozen=True, kw_only=True):
    """A saving throw the rules ask for now (5e: concentration after damage): the screens ask for its roll."""

    combatant: str
    kind: str
    dc: int
    why: Msg
    source: str = ""
    """What the save is against ("concentration"), passed back in the save's action."""


class Incoming(msgspec.Struct, frozen=True, kw_only=True):
    """What of a hit reaches a combatant's health, and the state with what it spent on the way (temporary hit
    points), with why ("fire: immune", "resistant to cold: halved", "5 temporary hit points lost")."""

    amount: int
    state: State
    reasons: tuple[Msg, ...] = ()
    """Said in the damage's log line; the engine keeps them behind the GM's screen for anyone not of the party
    (a monster's resistances are its stats)."""
    absorbed: int = 0
    """What temporary hit points took of the hit before ``amount`` reached his health: he took ``amount`` +
    ``absorbed`` (what :meth:`~tui_combat.engine.contract.Ruleset.on_damage` hears of, for 5e's concentration)."""


class SpecialAbility(msgspec.Struct, frozen=True, kw_only=True):
    """A combatant's special ability that is an area (5e: a dragon's Fire Breath), as the area form is filled in
    from it: the screens offer it, pre-filled, and pass its ``name`` back as the area's ``ability``."""

    name: str
    damage: str = ""
    """The damage dice ("17d6"); "" for none."""
    kind: str = ""
    """The damage's type (one of :meth:`SavingRules.damage_types`), "" for none."""
    save: str = ""
    """The saving throw (one of :meth:`SavingRules.save_kinds`), "" for none."""
    dc: int = 0
    on_save: str = "half"
    """One of :data:`ON_SAVE`."""
    ready: bool = True
    """False while it waits to recharge (5e Recharge 5–6)."""
    note: Msg | str = ""
    """What the GM reads beside it: "recharge 5–6: not ready", "cone 60 ft"."""


class SavingRules:
    """The saving-throw part of the ruleset contract (:class:`~tui_combat.engine.contract.Ruleset` has these
    hooks); each default is what a ruleset without the matter does."""

    def save_kinds(self, state: State) -> tuple[tuple[str, str], ...]:
        """The saving throws of the rules, (id, label message id), in the book's order; () when it has none."""
        return ()

    def save_odds(self, state: State, combatant_id: str, kind: str, dc: int, *, cover: int = 0) -> SaveOdds:
        """What ``combatant_id`` needs on a save of ``kind`` (against ``dc`` where the rules have one; ``cover``:
        5e's +2 or +5 to Dexterity saves). Raises :class:`RuleError` for a kind the rules do not have."""
        raise RuleError(_("These rules have no saving throws: deal the damage to each target."))

    def area_share(self, state: State, combatant_id: str, amount: int, on_save: str, saved: bool, kind: str) -> int:
        """What of an area's ``amount`` falls on ``combatant_id`` after his save of ``kind`` (``saved``); ``on_save``
        is one of :data:`ON_SAVE`. The book's rule: all of it on a failure, half (rounded down), none or all of it on
        a success. 5e's Evasion changes it."""
        if not saved or on_save == "full":
            return amount
        return amount // 2 if on_save == "half" else 0

    def damage_types(self, state: State) -> tuple[tuple[str, str], ...]:
        """The types damage has in the rules, (id, label message id); () when damage has no type."""
        return ()

    def incoming_damage(self, state: State, combatant_id: str, amount: int, kind: str) -> Incoming:
        """What of ``amount`` damage of type ``kind`` ("" none) reaches the combatant's health, before the rules'
        :meth:`after_damage`: by default all of it."""
        return Incoming(amount=amount, state=state)

    def legendary_resistance(self, state: State, combatant_id: str) -> int:
        """How many times the combatant may still turn a failed save into a success (5e Legendary Resistance)."""
        return 0

    def spend_legendary_resistance(self, state: State, combatant_id: str) -> State:
        """One Legendary Resistance used. Raises :class:`RuleError` when none is left."""
        raise RuleError(_("No Legendary Resistance is left."))

    def after_save(self, state: State, combatant_id: str, kind: str, saved: bool, source: str) -> State:
        """What follows a save (5e: a failed concentration save ends the spell and the effects it held)."""
        return state

    def saves_due(self, state: State) -> tuple[SaveDue, ...]:
        """The saves the rules ask for now, oldest first (5e: concentration after damage)."""
        return ()

    def special_abilities(self, state: State, combatant_id: str) -> tuple[SpecialAbility, ...]:
        """The combatant's special abilities that are areas (from his sheet), ready or not; none by default."""
        return ()

    def on_ability_used(self, state: State, combatant_id: str, ability: str) -> State:
        """A special ability of the combatant used (its recharge spent, a use a day gone). Raises
        :class:`RuleError` for one that is not ready: the whole area is refused."""
        return state

    def hit_point_dice(self, sheet: Mapping[str, Any]) -> str:
        """The dice each member's hit points are rolled with, one roll each and at least 1, when he joins from a
        library or bestiary entry that gives no hit points (AD&D's and OSE's monsters: d8 a Hit Die, the pluses
        added, "4d8+1"; less than one die, "1d4"); "" when the book does not roll them from the sheet."""
        return ""
