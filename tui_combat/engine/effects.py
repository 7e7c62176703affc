"""Conditions and effects lasting some rounds, kept by the engine for every ruleset: put on with a name and a
number of rounds, shown beside the combatant, counted down at the end of each round (or of the combatant's
turn, as the ruleset says: :attr:`Ruleset.effects_count_down`), gone with a log line when none is left."""

from __future__ import annotations

from collections.abc import Collection

from msgspec.structs import replace

from tui_combat.engine.audience import GM, held_phrases, names_a_secret, who
from tui_combat.engine.audience import typed as typed_text
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, log, plural_msg, render
from tui_combat.engine.model import Effect, State
from tui_combat.i18n import N_, _

MAX_ROUNDS = 1000
MAX_NAME = 40

__all__ = [
    "MAX_NAME",
    "MAX_ROUNDS",
    "add_effect",
    "count_down",
    "effect_label",
    "effect_ref",
    "effects_of",
    "end_effect",
    "end_held",
    "find_effect",
]


def effect_label(name: str, known: Collection[str]) -> Msg:
    """What an effect is called: one of the ruleset's ``known`` message ids (matched in the GM's language or
    in English, whatever the case) is kept as that id, translated when shown; anything else as typed."""
    typed = name.strip().casefold()
    for message_id in known:
        if typed in (message_id.casefold(), _(message_id).casefold()):
            return Msg(id=message_id)
    return typed_text(name.strip())


def effect_ref(effect: Effect) -> Msg:
    """An effect as a log parameter: its label, by its id, the players' only when the effect is."""
    return Msg(id="{value}", params={"value": effect.label}, ref=f"e{effect.id}", gm=GM if effect.secret else "")


def effects_of(state: State, combatant_id: str) -> tuple[Effect, ...]:
    return tuple(effect for effect in state.effects if effect.combatant == combatant_id)


def find_effect(state: State, combatant_id: str, name: str, known: Collection[str]) -> Effect | None:
    """The combatant's effect called ``name`` (in any case, in the GM's language or as its id), if any."""
    label = effect_label(name, known)
    typed = name.strip().casefold()
    return next(
        (
            effect
            for effect in effects_of(state, combatant_id)
            if effect.label == label or render(effect.label).casefold() == typed
        ),
        None,
    )


def add_effect(
    state: State,
    combatant_id: str,
    name: str,
    rounds: int,
    known: Collection[str],
    *,
    secret: bool = False,
    holder: str = "",
) -> State:
    """``name`` on the combatant for ``rounds`` rounds (the present one counted), held by ``holder``'s
    concentration if given; the same name again sets its rounds anew."""
    if not state.has(combatant_id) or (holder and not state.has(holder)):
        raise RuleError(_("No such combatant."))
    if not name.strip():
        raise RuleError(_("An effect needs a name."))
    if len(name.strip()) > MAX_NAME:
        raise RuleError(_("An effect's name has at most {max} characters.", max=MAX_NAME))
    if not 1 <= rounds <= MAX_ROUNDS:
        raise RuleError(_("Rounds: a number from {low} to {high}.", low=1, high=MAX_ROUNDS))
    label = effect_label(name, known)
    same = find_effect(state, combatant_id, name, known)
    kept = tuple(e for e in state.effects if e is not same)
    held = not secret and names_a_secret(label, held_phrases(state))
    effect = Effect(
        id=state.next_effect,
        combatant=combatant_id,
        label=label,
        rounds=rounds,
        secret=secret or held,
        held=held,
        holder=holder,
    )
    state = replace(state, effects=(*kept, effect), next_effect=state.next_effect + 1)
    return log(
        state,
        plural_msg(
            "{name}: {effect} for {n} round.",
            "{name}: {effect} for {n} rounds.",
            rounds,
            name=who(state, combatant_id),
            effect=label,
        ),
    )


def end_effect(state: State, effect_id: int) -> State:
    effect = next((e for e in state.effects if e.id == effect_id), None)
    if effect is None:
        raise RuleError(_("That effect has ended already."))
    state = replace(state, effects=tuple(e for e in state.effects if e.id != effect_id))
    return log(
        state,
        N_("{effect} on {name} ends."),
        effect=effect_ref(effect),
        name=who(state, effect.combatant) if state.has(effect.combatant) else "",
    )


def end_held(state: State, holder: str) -> State:
    """Every effect ``holder``'s concentration held ends (it was lost), each with its line."""
    for effect in [effect for effect in state.effects if effect.holder == holder]:
        state = end_effect(state, effect.id)
    return state


def count_down(state: State, combatant_ids: Collection[str] | None = None) -> State:
    """One round less for the effects on ``combatant_ids`` (everyone's when None); those with none left end,
    each with a log line."""
    if not state.effects:
        return state
    kept: list[Effect] = []
    ended: list[Effect] = []
    for effect in state.effects:
        if combatant_ids is not None and effect.combatant not in combatant_ids:
            kept.append(effect)
        elif effect.rounds <= 1:
            ended.append(effect)
        else:
            kept.append(replace(effect, rounds=effect.rounds - 1))
    state = replace(state, effects=tuple(kept))
    for effect in ended:
        state = log(
            state,
            N_("{effect} on {name} has run out."),
            effect=effect_ref(effect),
            name=who(state, effect.combatant) if state.has(effect.combatant) else "",
        )
    return state
