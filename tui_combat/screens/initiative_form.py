"""The initiative form of the typed key (``t``) when the ruleset draws its own results (playing cards): a text
field per request, read by the ruleset; the fields left empty are drawn for the GM.

Dice requests in the same form stay roll fields, as in any form."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tui_combat.engine.contract import AnyRuleset, FieldSpec
from tui_combat.engine.dice import DiceError, Roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import render
from tui_combat.engine.model import RollRequest, State
from tui_combat.i18n import _
from tui_combat.screens.dialogs import FormDialog


def initiative_fields(ruleset: AnyRuleset, state: State, requests: tuple[RollRequest, ...]) -> list[FieldSpec]:
    """A text field for each result the ruleset reads itself (its help says what to type), a roll field for dice."""
    fields = []
    for request in requests:
        if ruleset.draws_initiative(state, request):
            fields.append(
                FieldSpec(
                    key=request.key,
                    label=render(request.label),
                    help=_("{what}; empty: drawn for you", what=ruleset.initiative_help(state, request)),
                )
            )
        else:
            fields.append(FieldSpec(key=request.key, label=render(request.label), kind="roll", default=request.dice))
    return fields


def read_results(
    ruleset: AnyRuleset, state: State, requests: tuple[RollRequest, ...], values: dict[str, Any], rng: random.Random
) -> dict[str, Any] | str:
    """The form's values as results: what the GM typed, read by the ruleset, and the empty fields drawn
    (around what was typed); or the message for the form."""
    results: dict[str, Roll] = {}
    empty: list[RollRequest] = []
    for request in requests:
        value = values.get(request.key)
        if isinstance(value, Roll):
            results[request.key] = value
            continue
        typed = str(value or "").strip()
        if not typed:
            empty.append(request)
            continue
        try:
            results[request.key] = ruleset.read_initiative(state, request, typed)
        except RuleError as error:
            return f"{render(request.label)}: {error}"
    if empty:
        try:
            results.update(ruleset.draw_initiative(state, tuple(empty), rng, dict(results)))
        except (RuleError, DiceError) as error:
            return str(error)
    return dict(results)


def initiative_form(
    ruleset: AnyRuleset,
    state: State,
    requests: tuple[RollRequest, ...],
    rng: random.Random,
    submit: Callable[[dict[str, Any]], str | None],
) -> FormDialog:
    """The form: the GM types what the deck dealt (or real dice showed), or leaves a field for the app."""
    title = (
        _("Initiative dealt or rolled at the table")
        if not state.initiative.pending
        else _("Initiative: the further results, from the table")
    )
    modifiers = {r.key: r.modifier for r in requests if r.modifier and not ruleset.draws_initiative(state, r)}
    return FormDialog(
        title,
        initiative_fields(ruleset, state, requests),
        rng=rng,
        roll_modifiers=modifiers,
        validate=lambda values: read_results(ruleset, state, requests, values, rng),
        submit=submit,
    )
