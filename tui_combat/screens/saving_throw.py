"""Saving throws on the round screen: one the GM calls for (a form at the foot: the kind, the DC where the rules use
one, the chance with its reasons before the roll, the die rolled or typed), and those the rules ask for themselves
(:meth:`~tui_combat.engine.saves.SavingRules.saves_due`, 5e's concentration after damage), asked one after another
on the footer's line as the damage is: Enter rolls, a number is what the die showed, Esc leaves it for later.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import msgspec
from rich.cells import cell_len

from tui_combat.engine import actions as a
from tui_combat.engine.contract import AnyRuleset, FieldSpec
from tui_combat.engine.dice import DiceError, Roll, physical, roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import render
from tui_combat.engine.model import State
from tui_combat.engine.saves import SaveDue, SaveOdds
from tui_combat.i18n import N_, _
from tui_combat.screens.area_draft import dc_matters
from tui_combat.screens.damage_prompt import PROMPT_LINE_EXTRA
from tui_combat.screens.dialogs import ConfirmDialog

if TYPE_CHECKING:
    from tui_combat.screens.round_view import RoundView

__all__ = ["ask_due_save", "ask_saving_throw", "odds_line", "offer_legendary", "save_label"]

DC_RANGE = (1, 40)


def save_label(ruleset: AnyRuleset, state: State, kind: str) -> str:
    return _(dict(ruleset.save_kinds(state)).get(kind, kind))


def odds_line(odds: SaveOdds, uses_dc: bool) -> str:
    """The chance before the roll, with why: "Needs 15 or more on the die (DC 21, +6): 30% · restrained:
    disadvantage"; "Fails automatically: paralyzed"."""
    reasons = ", ".join(render(reason) for reason in odds.reasons)
    if odds.auto:
        word = _("Succeeds automatically") if odds.auto == "success" else _("Fails automatically")
        return f"{word}: {reasons}" if reasons else word
    against = _("DC {dc}", dc=odds.needed) if uses_dc else str(odds.needed)
    line = _(
        "Needs {least} or more on the die ({against}, {bonus}): {chance}% to save",
        least=odds.needed - odds.modifier,
        against=against,
        bonus=f"{odds.modifier:+d}",
        chance=round(100 * odds.chance()),
    )
    return f"{line} · {reasons}" if reasons else line


def ask_saving_throw(screen: RoundView, combatant_id: str, kind: str = "") -> None:
    """The form for a save the GM calls for, at the foot of the round screen; its roll field follows the kind
    chosen (advantage, disadvantage)."""
    state, ruleset = screen.state, screen.ruleset
    kinds = ruleset.save_kinds(state)
    if not kinds:
        screen.notify(_("These rules have no saving throws."), severity="warning", timeout=6)
        return
    combatant = state.combatant(combatant_id)
    first = kind if kind in dict(kinds) else kinds[0][0]
    uses_dc = dc_matters(ruleset, state, combatant_id, first)
    fields = [FieldSpec(key="kind", label=N_("Saving throw"), kind="choice", default=first, choices=kinds)]
    if uses_dc:
        fields.append(
            FieldSpec(
                key="dc",
                label=N_("DC"),
                kind="int",
                default=screen.asks.last_dc,
                minimum=DC_RANGE[0],
                maximum=DC_RANGE[1],
            )
        )
    die = _odds_dice(ruleset, state, combatant_id, first, screen.asks.last_dc)
    fields.append(FieldSpec(key="roll", label=N_("The die"), kind="roll", default=die))

    def odds_of(values: Mapping[str, Any]) -> SaveOdds:
        dc = int(values.get("dc") or 0) if uses_dc else 0
        return ruleset.save_odds(screen.state, combatant_id, str(values.get("kind") or first), dc)

    def preview(values: dict[str, Any]) -> str:
        return odds_line(odds_of(values), uses_dc)

    def dice(values: dict[str, Any]) -> Mapping[str, str]:
        return {"roll": odds_of(values).dice}

    def submit(values: dict[str, Any]) -> str | None:
        dc = int(values.get("dc", 0)) if uses_dc else 0
        rolled: Roll = values["roll"]
        if uses_dc:
            screen.asks.last_dc = dc
        save = a.SavingThrow(combatant=combatant_id, kind=str(values["kind"]), roll=rolled, dc=dc)
        if offer_legendary(screen, save, odds_of(values)):
            return None
        return screen.host.refusal(save)

    values: dict[str, Any] = {"kind": first}
    if uses_dc:
        values["dc"] = screen.asks.last_dc
    screen.ask_form(
        _("Saving throw — {name}", name=combatant.name),
        fields,
        values,
        rng=screen.store.rng,
        submit=submit,
        preview=preview,
        dice=dice,
    )


def offer_legendary(
    screen: RoundView, save: a.SavingThrow, odds: SaveOdds, taken: Callable[[], None] | None = None
) -> bool:
    """A save that fails, by a combatant with a Legendary Resistance left: the GM is asked whether he uses one, and
    the save is applied with his answer (True: asked; the caller applies nothing). Esc keeps the failure."""
    state, ruleset = screen.state, screen.ruleset
    left = ruleset.legendary_resistance(state, save.combatant) if save.roll is not None else 0
    if left <= 0 or save.roll is None or odds.auto == "success" or (not odds.auto and odds.succeeds(save.roll.total)):
        return False
    name = state.combatant(save.combatant).name

    def answered(use: bool | None) -> None:
        refusal = screen.host.refusal(msgspec.structs.replace(save, legendary=bool(use)))
        if refusal is not None:
            screen.notify(refusal, severity="warning", timeout=6)
        elif taken is not None:
            taken()

    screen.app.push_screen(
        ConfirmDialog(
            _("{name} fails the save", name=name),
            _(
                "{name} fails the {save} save. Use a Legendary Resistance ({left} left) to succeed instead?",
                name=name,
                save=save_label(ruleset, state, save.kind),
                left=left,
            ),
            confirm=_("Use it"),
            cancel=_("Fail"),
        ),
        answered,
    )
    return True


def _odds_dice(ruleset: AnyRuleset, state: State, combatant_id: str, kind: str, dc: int) -> str:
    try:
        return ruleset.save_odds(state, combatant_id, kind, dc).dice
    except RuleError:
        return "1d20"


def ask_due_save(screen: RoundView, due: SaveDue, taken: Callable[[], None]) -> None:
    """A save the rules ask for, on the footer's line: its DC, why and the chance; Enter rolls, a number typed is what
    the die showed; ``taken`` runs once it is applied (the next one may be asked then). Esc leaves it."""
    state, ruleset = screen.state, screen.ruleset
    if not state.has(due.combatant):
        return
    name = state.combatant(due.combatant).name
    try:
        odds = ruleset.save_odds(state, due.combatant, due.kind, due.dc)
    except RuleError as error:
        screen.notify(str(error), severity="warning", timeout=6)
        return
    rng = screen.store.rng
    title = _("{name}: {save} save, DC {dc}", name=name, save=save_label(ruleset, state, due.kind), dc=due.dc)
    note = f"{render(due.why)} · {odds_line(odds, True)} · " + _("a number typed: what your die showed")
    keys = _("Enter: roll {dice} · Esc: later", dice=odds.dice)
    width = screen.size.width
    if cell_len(title) > width // 2 - 2 or cell_len(title) + cell_len(keys) + PROMPT_LINE_EXTRA > width:
        title, note = name, f"{title} · {note}"  # a narrow screen: the save and its DC lead the note instead

    def submit(typed: str) -> str | None:
        text = typed.strip()
        try:
            rolled = physical(odds.dice, text) if text else roll(odds.dice, rng)
        except DiceError as error:
            return str(error)
        save = a.SavingThrow(combatant=due.combatant, kind=due.kind, roll=rolled, dc=due.dc, source=due.source)
        if offer_legendary(screen, save, odds, taken):
            return None
        refusal = screen.host.refusal(save)
        if refusal is None:
            taken()
        return refusal

    screen.ask_prompt(title, submit, placeholder=odds.dice, note=note, keys=keys)
