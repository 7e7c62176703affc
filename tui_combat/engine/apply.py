"""``apply(state, action) -> state``: the only way a fight changes.

Pure and deterministic: no I/O, no clock, no randomness (dice results arrive inside the actions), and
nothing that depends on the interface language (the log is stored as message ids with parameters).
An action the rules refuse raises :class:`~tui_combat.engine.errors.RuleError` with the reason, and the
state is left as it was.
"""

from __future__ import annotations

import threading
from typing import NoReturn

from msgspec.structs import replace

from tui_combat.engine import actions as a
from tui_combat.engine import area, effects, initiative, savable
from tui_combat.engine.audience import (
    made_secret,
    shown_after_all,
    typed,
    typed_texts,
    who,
    whos,
    with_secret_words,
)
from tui_combat.engine.contract import HP, AnyRuleset
from tui_combat.engine.dispatch import act as _apply
from tui_combat.engine.dispatch import find_combatant as _find
from tui_combat.engine.dispatch import replace_combatant
from tui_combat.engine.dispatch import require_phase as _require_phase
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import LogEntry, Msg, log
from tui_combat.engine.log_window import kept_recent, logged_since
from tui_combat.engine.model import RollRequest, Slot, State
from tui_combat.engine.registry import get
from tui_combat.engine.setup_actions import (  # registers the set-up's and surprise's handlers too
    APPEARS,
    HIDES,
    MAX_GROUP,
    ROLLS_SPEC,
    fight_options,
    new_names,
    require_ready,
)
from tui_combat.i18n import N_, _

__all__ = [
    "APPEARS",
    "HIDES",
    "MAX_GROUP",
    "OUT_OF_TURN",
    "ROLLS_SPEC",
    "apply",
    "apply_logged",
    "fight_options",
    "log",
    "new_names",
    "replace_combatant",
]


def apply(state: State, action: a.Action) -> State:
    return _outermost_kept_recent(_applied(state, action))


def apply_logged(state: State, action: a.Action) -> tuple[State, list[LogEntry]]:
    """What :func:`apply` gives, and the log entries the action wrote (all of them, however many: the state
    holds only the newest, :mod:`tui_combat.engine.log_window`)."""
    after = _applied(state, action)
    return _outermost_kept_recent(after), logged_since(after, state.log_count)


_nesting = threading.local()
"""How deep in actions applying actions this thread is (a ruleset's attack applies its damage)."""


def _applied(state: State, action: a.Action) -> State:
    depth = getattr(_nesting, "depth", 0)
    _nesting.depth = depth + 1
    try:
        after = _kept_secret(state, _apply(action, state), action)
    finally:
        _nesting.depth = depth
    if not depth:  # once, for everything the action and the actions it applied wrote
        savable.check(state, after, action)
    return after


def _outermost_kept_recent(after: State) -> State:
    """``after`` cut down to the newest log entries, once the outermost action is done: an action applied
    inside another keeps every entry, so that the outer one still has all it wrote."""
    return after if getattr(_nesting, "depth", 0) else kept_recent(after)


def _kept_secret(before: State, after: State, action: a.Action) -> State:
    """Mark secret, as it is logged, whatever is done during a secret step (the monsters' intentions, which
    the GM decides in secret): the players' view leaves out every secret entry. Moving between steps only
    says where the round is, and stays public. What the GM types in a secret step (a spell declared, a plan,
    an effect's name) joins the fight's secret words, so that a text naming it later is held from the players
    too (:mod:`tui_combat.engine.audience`)."""
    if before.phase != "round" or isinstance(action, (a.NextStep, a.PreviousStep, a.SetHidden, a.ShowToPlayers)):
        return after
    step = get(before.ruleset).current_step(before)
    if step is None or not step.secret:
        return after
    after = with_secret_words(after, _typed_words(action, before))
    if after.log is before.log:
        return after
    said = [text for entry in logged_since(after, before.log_count) for text in typed_texts(entry.msg)]
    return _secret_from(with_secret_words(after, said), before.log_count)


def _typed_words(action: a.Action, state: State) -> tuple[str, ...]:
    """What the GM typed in ``action`` (done in ``state``): an effect's name, the text fields of a declaration or
    a ruleset's action, and a choice the form took from the combatant's own sheet (a spell from his list), not
    the program's own words (an action's kind, an option). The players' view filters it further
    (:func:`tui_combat.engine.public.secrecy`: no names, no numbers or times)."""
    ruleset = get(state.ruleset)
    if isinstance(action, a.AddEffect):
        return (action.name.strip(),)
    try:
        if isinstance(action, a.Declare):
            fields, values = ruleset.declaration_fields(state, action.combatant), action.declaration
            combatant = action.combatant
        elif isinstance(action, a.RulesetAction) and isinstance(action.args.get("combatant"), str):
            combatant = str(action.args["combatant"])
            fields, values = ruleset.action_fields(state, action.name, combatant), action.args
        else:
            return ()
        sheet = " ".join(str(value) for value in state.combatant(combatant).sheet.values()).casefold()
    except (RuleError, KeyError, ValueError):
        return ()
    found: list[str] = []
    for field in fields:
        value = values.get(field.key)
        if not isinstance(value, str) or not value.strip():
            continue
        if field.kind == "str" or (field.kind == "choice" and value.strip().casefold() in sheet):
            found.append(value.strip())
    return tuple(found)


def _secret_from(state: State, count: int) -> State:
    """``state`` with the log entries after the first ``count`` of the fight marked secret (the chunks before
    untouched). Counted from the fight's first entry: a ruleset's action that applies another action (its damage)
    may leave the state holding fewer of the older entries than before."""
    chunks = list(state.log)
    position = state.log_start
    for index, chunk in enumerate(chunks):
        end = position + len(chunk)
        if end > count:
            start = max(count - position, 0)
            chunks[index] = (*chunk[:start], *(made_secret(entry) for entry in chunk[start:]))
        position = end
    return replace(state, log=tuple(chunks))


@_apply.register
def _start_fight(action: a.StartFight, state: State) -> State:
    _require_phase(state, "setup", "surprise")
    if state.phase == "setup":
        require_ready(state)
    ruleset = get(state.ruleset)
    state = replace(state, phase="round", round=1, step=0, order=(), cursor=0)
    state = initiative.reset(state)
    state = ruleset.on_fight_start(state)
    state = log(state, N_("Round {n} begins."), n=1)
    effect = ruleset.surprise_effect()
    if state.surprised and effect:
        names = whos(state, state.surprised)
        if isinstance(effect, Msg):
            state = log(state, Msg(id=effect.id, params={**effect.params, "names": names}))
        else:
            state = log(state, effect, names=names)
    return _turn_start(ruleset, ruleset.on_round_start(state))


# -- the round ----------------------------------------------------------------------------------------
def _step_kind(ruleset: AnyRuleset, state: State, step: int | None = None) -> str:
    steps = ruleset.steps(state)
    index = state.step if step is None else step
    return steps[index].kind if 0 <= index < len(steps) else ""


def _turn_start(ruleset: AnyRuleset, state: State) -> State:
    if _step_kind(ruleset, state) == "resolve" and state.cursor < len(state.order):
        return ruleset.on_turn_start(state, state.cursor)
    return state


def _turn_end(ruleset: AnyRuleset, state: State) -> State:
    if _step_kind(ruleset, state) == "resolve" and state.cursor < len(state.order):
        return ruleset.on_turn_end(state, state.cursor)
    return state


@_apply.register
def _next_step(action: a.NextStep, state: State) -> State:
    _require_phase(state, "round")
    ruleset = get(state.ruleset)
    steps = ruleset.steps(state)
    kind = _step_kind(ruleset, state)
    if kind == "initiative" and not state.initiative.settled:
        if state.initiative.pending:
            raise RuleError(
                _("Initiative still needs: {labels}.", labels=", ".join(str(r.label) for r in state.initiative.pending))
            )
        current = steps[state.step]
        if not current.dice:
            raise RuleError(
                _("The order does not stand yet: {what}", what=_(current.help))
                if current.help
                else _("The order does not stand yet.")
            )
        raise RuleError(_("Roll initiative first."))
    if kind == "resolve" and state.cursor < len(state.order):
        refused = ruleset.may_end_turn(state, state.cursor)
        if refused:
            raise RuleError(refused)
    if kind == "resolve" and state.cursor < len(state.order) - 1:
        state = _turn_effects(ruleset, ruleset.on_turn_end(state, state.cursor))
        state = replace(state, cursor=state.cursor + 1)
        return ruleset.on_turn_start(state, state.cursor)
    if kind == "resolve":
        state = _turn_effects(ruleset, state)
    state = _turn_end(ruleset, state)
    if state.step < len(steps) - 1:
        state = replace(state, step=state.step + 1, cursor=0)
        kind = _step_kind(ruleset, state)
        if kind == "end":
            state = log(ruleset.on_round_end(state), N_("End of round {n}."), n=state.round)
            return _round_effects(ruleset, state)
        return _turn_start(ruleset, state)
    if not any(step.kind == "end" for step in steps):
        state = _round_effects(ruleset, state)
    new_round = state.round + 1
    state = replace(state, round=new_round, step=0, cursor=0)
    if ruleset.order_policy == "round":
        state = initiative.reset(state)
    state = log(state, N_("Round {n} begins."), n=new_round)
    state = ruleset.on_round_start(state)
    return _turn_start(ruleset, state)


@_apply.register
def _previous_step(action: a.PreviousStep, state: State) -> State:
    _require_phase(state, "round")
    ruleset = get(state.ruleset)
    if _step_kind(ruleset, state) == "resolve" and state.cursor > 0:
        return replace(state, cursor=state.cursor - 1)
    if state.step == 0:
        raise RuleError(_("This is the first step of the round."))
    previous = state.step - 1
    cursor = max(len(state.order) - 1, 0) if _step_kind(ruleset, state, previous) == "resolve" else 0
    return replace(state, step=previous, cursor=cursor)


def initiative_stage(ruleset: AnyRuleset, state: State) -> str:
    """Where initiative stands, told without working out its rolls (the rules work them out from every
    combatant): "pending" (further rolls asked for), "fresh" (a step where it is rolled from the start),
    "kept" (such a step, but the order settled stands for the whole fight), or "" (no roll now)."""
    if state.initiative.pending:
        return "pending"
    if _step_kind(ruleset, state) in ("initiative", "declare"):
        if not _rolled_here(ruleset, state):
            return ""
        return "kept" if state.initiative.settled and ruleset.order_policy == "fight" else "fresh"
    return ""


def _rolled_here(ruleset: AnyRuleset, state: State) -> bool:
    """Whether dice are rolled for initiative in the current step (not a step whose order the ruleset settles
    itself: :attr:`StepDef.dice`)."""
    steps = ruleset.steps(state)
    return not (0 <= state.step < len(steps)) or steps[state.step].dice


def initiative_asked(ruleset: AnyRuleset, state: State) -> tuple[tuple[RollRequest, ...], bool]:
    """The rolls initiative asks for now, and whether they start the rolling over (a first or a new roll)."""
    stage = initiative_stage(ruleset, state)
    if stage == "pending":
        return state.initiative.pending, False
    if stage in ("fresh", "kept"):
        return ruleset.initiative_requests(state), True
    return (), False


@_apply.register
def _roll_initiative(action: a.RollInitiative, state: State) -> State:
    _require_phase(state, "round")
    ruleset = get(state.ruleset)
    if initiative_stage(ruleset, state) == "kept":
        raise RuleError(_("The order stands for the whole fight."))
    requests, fresh = initiative_asked(ruleset, state)
    if not requests and not fresh:
        _refuse_initiative_here(ruleset, state)
    if fresh:
        state = initiative.reset(state)
    # Rolls asked for during a turn (a newcomer's) must not move the turn away from whoever is acting, nor
    # from a slot nobody is in (a lair action).
    in_turn = _step_kind(ruleset, state) == "resolve" and state.cursor < len(state.order)
    acting, cursor_before = (state.acting_now() if in_turn else ()), state.cursor
    slot_before = state.order[state.cursor] if in_turn else None
    for request in requests:
        roll = action.rolls.get(request.key)
        if roll is None:
            raise RuleError(_("Missing initiative roll for {label}.", label=str(request.label)))
        state = log(
            state,
            ruleset.initiative_line(state, request, roll),
            secret=request.secret,
            rolls=(roll,),
            facts={"total": ruleset.initiative_value(state, request, roll)},
        )
    rolls = {**state.initiative.rolls, **{r.key: action.rolls[r.key] for r in requests}}
    state = replace(state, initiative=replace(state.initiative, rolls=rolls, pending=()))
    state = ruleset.settle_initiative(state, rolls)
    if state.initiative.pending:
        return log(
            state, N_("Initiative needs more rolls: {labels}."), labels=[r.label for r in state.initiative.pending]
        )
    if not state.initiative.settled:
        raise RuleError(
            _("The ruleset {ruleset} neither settled the order nor asked for rolls.", ruleset=_(ruleset.name))
        )
    if not requests and not any(slot.combatants for slot in state.order) and _anyone_active(state):
        # Nothing was asked and nobody would act: a roll pressed where the ruleset wants none, never a round passed
        # over in silence.
        raise RuleError(_("No initiative roll is asked for now, and nobody would act: the order was not settled."))
    steps = ruleset.steps(state)
    step = state.step
    # The order stands: the round goes on to the step after the initiative's when it walks the order or is one of
    # the ruleset's own (the swaps of a deck of initiative cards).
    if steps[step].kind == "initiative" and step + 1 < len(steps) and steps[step + 1].kind in ("resolve", "other"):
        step += 1
    state = _log_order(replace(state, step=step), secret=any(r.secret for r in requests))
    if in_turn:
        cursor = next((i for i, slot in enumerate(state.order) if acting and acting[0] in slot.combatants), None)
        if cursor is None:
            cursor = next(
                (i for i, slot in enumerate(state.order) if slot == slot_before),
                min(cursor_before, max(len(state.order) - 1, 0)),
            )
        return replace(state, cursor=cursor)
    return _turn_start(ruleset, state)


def _refuse_initiative_here(ruleset: AnyRuleset, state: State) -> NoReturn:
    """Why no initiative is rolled now: a step of the ruleset's that takes no dice, or no initiative step."""
    current = ruleset.current_step(state)
    if current is not None and current.kind == "initiative" and not current.dice:
        raise RuleError(
            _("No dice are rolled for {step}: {what}", step=_(current.label), what=_(current.help))
            if current.help
            else _("No dice are rolled for {step}.", step=_(current.label))
        )
    raise RuleError(_("Initiative is rolled in the initiative step."))


def _log_order(state: State, secret: bool) -> State:
    """The log's line of the order just settled, slot by slot."""
    slots: list[str | int | Msg] = [
        Msg(id=N_("{slot}: {names}"), params={"slot": slot.label, "names": whos(state, slot.combatants)})
        if slot.combatants
        else slot.label  # a slot nobody is in (a lair action) by its label alone
        for slot in state.order
    ]
    # Slots are separated by "; " (a slot's names by ", "); a slot of those hidden alone is not the players'.
    summary = Msg(id="{slots}", params={"slots": slots}, sep="; ")
    if slots:
        return log(state, N_("Order: {summary}."), secret=secret, summary=summary)
    return log(state, N_("Order: nobody acts."))


def _anyone_active(state: State) -> bool:
    return any(combatant.status == "active" for combatant in state.combatants)


@_apply.register
def _bring_in(action: a.BringIn, state: State) -> State:
    _require_phase(state, "round")
    ruleset = get(state.ruleset)
    combatant = _find(state, action.combatant)
    waiting = next((w for w in ruleset.out_of_order(state) if w.combatant == combatant.id), None)
    if waiting is None:
        raise RuleError(_("{name} is not waiting outside the order.", name=combatant.name))
    if _step_kind(ruleset, state) != "resolve" or not state.order:
        raise RuleError(_("{name} can come in during the turns of the round.", name=combatant.name))
    if combatant.status != "active":
        raise RuleError(_("{name} is out of the fight.", name=combatant.name))
    cursor = min(state.cursor, len(state.order) - 1)
    before = state.order[cursor]
    state = ruleset.bring_in(state, combatant.id)
    slot = Slot(label=waiting.label, combatants=(combatant.id,), value=before.value)
    state = replace(state, order=(*state.order[:cursor], slot, *state.order[cursor:]), cursor=cursor)
    state = log(
        state,
        N_("{name} comes in ({why}) and acts now, before {slot}."),
        name=who(state, combatant),
        why=waiting.label,
        slot=before.label,
    )
    return ruleset.on_turn_start(state, cursor)


@_apply.register
def _declare(action: a.Declare, state: State) -> State:
    _require_phase(state, "round")
    _find(state, action.combatant)
    return get(state.ruleset).declare(state, action.combatant, dict(action.declaration))


# -- hits and status ----------------------------------------------------------------------------------
_status_changed = area.status_changed
_exact = area.exact
_hp = area.hp_param


@_apply.register
def _damage(action: a.Damage, state: State) -> State:
    combatant = _find(state, action.combatant)
    if action.amount < 0:
        raise RuleError(_("Damage cannot be negative; use heal."))
    ruleset = get(state.ruleset)
    area.check_damage_kind(ruleset, state, action.kind)
    hit = area.hurt(ruleset, state, combatant, action.amount, action.kind, critical=action.critical)
    state = area.log_damage(hit.state, ruleset, hit, action.kind, action.roll)
    return area.after_hurt(ruleset, state, hit, critical=action.critical)


@_apply.register
def _saving_throw(action: a.SavingThrow, state: State) -> State:
    return area.saving_throw(action, state)


@_apply.register
def _area_effect(action: a.AreaEffect, state: State) -> State:
    return area.area_effect(action, state)


@_apply.register
def _heal(action: a.Heal, state: State) -> State:
    combatant = _find(state, action.combatant)
    if action.amount < 0:
        raise RuleError(_("Healing cannot be negative; use damage."))
    ruleset = get(state.ruleset)
    health = ruleset.after_healing(state, combatant, action.amount)
    hp = health.hp
    state = replace_combatant(health.written(state), replace(combatant, hp=hp, status=health.status))
    facts = {"heal": action.amount, "hp": hp}
    name = who(state, combatant.id)
    exact = _exact(state, combatant)
    public = None if exact else Msg(id=N_("{name} heals {amount}."), params={"name": name, "amount": action.amount})
    if health.said is not None:
        state = log(state, health.said, facts=facts, public=health.said_public)
    elif ruleset.health_label == HP:
        state = log(
            state,
            N_("{name} heals {amount}: {hp}/{max} HP."),
            facts=facts,
            public=public,
            name=name,
            amount=action.amount,
            hp=_hp(hp, exact),
            max=_hp(combatant.max_hp, exact),
        )
    else:
        state = log(
            state,
            N_("{name} heals {amount}: {hp}/{max} {health}."),
            facts=facts,
            public=public,
            name=name,
            amount=action.amount,
            hp=_hp(hp, exact),
            max=_hp(combatant.max_hp, exact),
            health=Msg(id=ruleset.health_label),
        )
    state = _status_changed(ruleset, state, combatant, combatant.status)
    return ruleset.on_healing(state, combatant.id, action.amount)


@_apply.register
def _set_status(action: a.SetStatus, state: State) -> State:
    combatant = _find(state, action.combatant)
    if combatant.status == action.status:
        return state
    state = replace_combatant(state, replace(combatant, status=action.status))
    return _status_changed(get(state.ruleset), state, combatant, combatant.status)


@_apply.register
def _note(action: a.Note, state: State) -> State:
    text = action.text.strip()
    if not text:
        raise RuleError(_("A note cannot be empty."))
    return log(state, typed(text), secret=action.secret)


@_apply.register
def _add_effect(action: a.AddEffect, state: State) -> State:
    _require_phase(state, "round")
    ruleset = get(state.ruleset)
    step = ruleset.current_step(state)
    return effects.add_effect(
        state,
        action.combatant,
        action.name,
        action.rounds,
        ruleset.effect_names(),
        secret=step is not None and step.secret,
        holder=action.holder,
    )


@_apply.register
def _end_effect(action: a.EndEffect, state: State) -> State:
    return effects.end_effect(state, action.effect)


@_apply.register
def _show_to_players(action: a.ShowToPlayers, state: State) -> State:
    if not action.entries and not action.effects:
        raise RuleError(_("Nothing to show to the players."))
    chunks = list(state.log)
    for place in action.entries:
        position = state.log_start
        for index, chunk in enumerate(chunks):
            if position <= place < position + len(chunk):
                entry = chunk[place - position]
                if not entry.held:
                    raise RuleError(_("That line is not held from the players."))
                chunks[index] = (
                    *chunk[: place - position],
                    shown_after_all(state, entry),
                    *chunk[place - position + 1 :],
                )
                break
            position += len(chunk)
        else:
            raise RuleError(_("That line is no longer in the fight's log."))
    shown = set(action.effects)
    if shown - {effect.id for effect in state.effects if effect.held}:
        raise RuleError(_("That effect is not held from the players."))
    return replace(
        state,
        log=tuple(chunks),
        effects=tuple(
            replace(effect, secret=False, held=False) if effect.id in shown else effect for effect in state.effects
        ),
    )


def _turn_effects(ruleset: AnyRuleset, state: State) -> State:
    """The slot whose turn ends: one round less on its combatants' effects, when the ruleset counts them so."""
    if ruleset.effects_count_down != "turn" or not state.cursor < len(state.order):
        return state
    return effects.count_down(state, set(state.order[state.cursor].combatants))


def _round_effects(ruleset: AnyRuleset, state: State) -> State:
    """The round's end: one round less on every effect (on those out of the order only, when the ruleset
    counts them down turn by turn)."""
    if ruleset.effects_count_down == "turn":
        in_order = {cid for slot in state.order for cid in slot.combatants}
        return effects.count_down(state, {c.id for c in state.combatants if c.id not in in_order})
    return effects.count_down(state)


@_apply.register
def _ruleset_action(action: a.RulesetAction, state: State) -> State:
    ruleset = get(state.ruleset)
    spec = next((s for s in ruleset.actions if s.name == action.name), None)
    if spec is None:
        raise RuleError(_("Unknown action {name}.", name=action.name))
    combatant = action.args.get("combatant")
    if not ruleset.action_available(state, action.name, str(combatant) if combatant else None):
        raise RuleError(_("{action} cannot be done now.", action=_(spec.label)))
    args = dict(action.args)
    if args.pop(OUT_OF_TURN, False) and combatant:
        # The GM confirmed an action out of turn: the log says so, before what the action itself logs.
        state = log(
            state,
            N_("{name} acts out of turn: {action}."),
            name=who(state, _find(state, str(combatant))),
            action=Msg(id=spec.label),
        )
    return ruleset.apply_action(state, action.name, args)


OUT_OF_TURN = "out_of_turn"
"""A ruleset action's argument (bool) set by the screens when the GM confirmed it out of turn; the engine logs
it and takes it out of the arguments the ruleset gets."""
