"""``apply(state, action) -> state``: the only way a fight changes.

Pure and deterministic: no I/O, no clock, no randomness (dice results arrive inside the actions).
An action the rules refuse raises :class:`~tui_combat.rulesets.base.RuleError` with the reason, and
the state is left as it was.
"""

from __future__ import annotations

from functools import singledispatch

from msgspec.structs import replace

from tui_combat import rulesets
from tui_combat.engine import actions as a
from tui_combat.engine.dice import format_roll
from tui_combat.engine.model import Combatant, LogEntry, Side, State, append_log
from tui_combat.i18n import _
from tui_combat.rulesets.base import RuleError

MAX_GROUP = 500


def log(state: State, text: str, *, secret: bool = False) -> State:
    return replace(state, log=append_log(state.log, LogEntry(round=state.round, text=text, secret=secret)))


def replace_combatant(state: State, combatant: Combatant) -> State:
    combatants = tuple(combatant if c.id == combatant.id else c for c in state.combatants)
    return replace(state, combatants=combatants)


def apply(state: State, action: a.Action) -> State:
    return _apply(action, state)


@singledispatch
def _apply(action: a.Action, state: State) -> State:  # pragma: no cover - every action is registered
    raise RuleError(_("Unknown action {name}.", name=type(action).__name__))


def _require_phase(state: State, *phases: str) -> None:
    if state.phase not in phases:
        raise RuleError(_("That cannot be done now."))


def _find(state: State, combatant_id: str) -> Combatant:
    try:
        return state.combatant(combatant_id)
    except KeyError:
        raise RuleError(_("No combatant with id {id}.", id=combatant_id)) from None


# -- set-up -----------------------------------------------------------------------------------------
@_apply.register
def _set_name(action: a.SetName, state: State) -> State:
    name = action.name.strip()
    if not name:
        raise RuleError(_("A name cannot be empty."))
    return replace(state, name=name)


@_apply.register
def _set_ruleset(action: a.SetRuleset, state: State) -> State:
    _require_phase(state, "setup")
    ruleset = rulesets.get(action.ruleset)
    options = {option.key: option.choices[0][0] for option in ruleset.options}
    return replace(state, ruleset=ruleset.id, options=options)


@_apply.register
def _set_option(action: a.SetOption, state: State) -> State:
    ruleset = rulesets.get(state.ruleset)
    for option in ruleset.options:
        if option.key == action.key:
            if action.value not in {value for value, _label in option.choices}:
                raise RuleError(_("\"{value}\" is not a choice for {option}.", value=action.value, option=option.label))
            state = replace(state, options={**state.options, action.key: action.value})
            label = dict(option.choices)[action.value]
            return log(state, _("{option}: {value}.", option=_(option.label), value=_(label)))
    raise RuleError(_("Unknown option {key}.", key=action.key))


@_apply.register
def _add_side(action: a.AddSide, state: State) -> State:
    name = action.name.strip()
    if not name:
        raise RuleError(_("A side needs a name."))
    side = Side(id=f"s{state.next_id}", name=name, is_party=action.is_party)
    return replace(state, sides=(*state.sides, side), next_id=state.next_id + 1)


@_apply.register
def _add_combatants(action: a.AddCombatants, state: State) -> State:
    name = action.name.strip()
    if not name:
        raise RuleError(_("A combatant needs a name."))
    if action.hp < 0:
        raise RuleError(_("HP cannot be negative."))
    if not 1 <= action.count <= MAX_GROUP:
        raise RuleError(_("A group has from 1 to {max} members.", max=MAX_GROUP))
    try:
        state.side(action.side)
    except KeyError:
        raise RuleError(_("No side with id {id}.", id=action.side)) from None
    sheet = rulesets.get(state.ruleset).check_sheet(dict(action.sheet))
    next_id = state.next_id
    group = f"g{next_id}" if action.count > 1 else ""
    if group:
        next_id += 1
    new = []
    for number in range(1, action.count + 1):
        new.append(
            Combatant(
                id=f"c{next_id}",
                name=f"{name} {number}" if action.count > 1 else name,
                side=action.side,
                hp=action.hp,
                max_hp=action.hp,
                group=group,
                sheet=sheet,
                notes=action.notes,
            )
        )
        next_id += 1
    state = replace(state, combatants=(*state.combatants, *new), next_id=next_id)
    if state.phase == "round":
        state = log(state, _("{name} joins the fight.", name=name if action.count == 1 else f"{action.count} × {name}"))
    return state


@_apply.register
def _remove_combatant(action: a.RemoveCombatant, state: State) -> State:
    _find(state, action.combatant)
    combatants = tuple(c for c in state.combatants if c.id != action.combatant)
    order = tuple(
        replace(slot, combatants=tuple(c for c in slot.combatants if c != action.combatant)) for slot in state.order
    )
    return replace(state, combatants=combatants, order=order)


@_apply.register
def _edit_combatant(action: a.EditCombatant, state: State) -> State:
    combatant = _find(state, action.combatant)
    changes: dict[str, object] = {}
    if action.name is not None:
        if not action.name.strip():
            raise RuleError(_("A combatant needs a name."))
        changes["name"] = action.name.strip()
    if action.hp is not None:
        changes["hp"] = action.hp
    if action.max_hp is not None:
        if action.max_hp < 0:
            raise RuleError(_("HP cannot be negative."))
        changes["max_hp"] = action.max_hp
    if action.sheet is not None:
        changes["sheet"] = rulesets.get(state.ruleset).check_sheet({**combatant.sheet, **action.sheet})
    if action.notes is not None:
        changes["notes"] = action.notes
    return replace_combatant(state, replace(combatant, **changes))


# -- surprise and distance --------------------------------------------------------------------------
@_apply.register
def _begin_surprise(action: a.BeginSurprise, state: State) -> State:
    _require_phase(state, "setup")
    _require_ready(state)
    return replace(state, phase="surprise")


def _require_ready(state: State) -> None:
    """The encounter is complete enough to fight: two sides, each with someone in it."""
    if len(state.sides) < 2:
        raise RuleError(_("A fight needs at least two sides."))
    if not state.combatants:
        raise RuleError(_("Add at least one combatant first."))
    if len({c.side for c in state.combatants}) < 2:
        raise RuleError(_("At least two sides need combatants."))


@_apply.register
def _roll_surprise(action: a.RollSurprise, state: State) -> State:
    _require_phase(state, "surprise")
    ruleset = rulesets.get(state.ruleset)
    if not ruleset.surprise_dice():
        raise RuleError(_("{ruleset} has no surprise roll: the GM marks who is surprised.", ruleset=ruleset.name))
    surprised = []
    for side in state.sides:
        roll = action.rolls.get(side.id)
        if roll is None:
            continue
        modifier = action.modifiers.get(side.id, 0)
        total = roll.total + modifier
        hit = ruleset.is_surprised(total)
        if hit:
            surprised.append(side.id)
        state = log(
            state,
            _(
                "Surprise — {side}: {roll}{modifier}: {result}.",
                side=side.name,
                roll=format_roll(roll),
                modifier=f" {modifier:+d} → {total}" if modifier else "",
                result=_("surprised") if hit else _("not surprised"),
            ),
        )
    if len(surprised) == len(state.sides):
        state = log(state, _("Every side is surprised: the effects cancel."))
        surprised = []
    return replace(state, surprised=tuple(surprised))


@_apply.register
def _set_surprised(action: a.SetSurprised, state: State) -> State:
    _require_phase(state, "surprise")
    for side_id in action.sides:
        try:
            state.side(side_id)
        except KeyError:
            raise RuleError(_("No side with id {id}.", id=side_id)) from None
    names = ", ".join(state.side(side_id).name for side_id in action.sides) or _("nobody")
    return log(replace(state, surprised=tuple(action.sides)), _("The GM rules who is surprised: {names}.", names=names))


@_apply.register
def _roll_distance(action: a.RollDistance, state: State) -> State:
    _require_phase(state, "surprise", "setup")
    ruleset = rulesets.get(state.ruleset)
    situation = next((s for s in ruleset.distance_situations() if s.id == action.situation), None)
    if situation is None:
        raise RuleError(_("Unknown situation {id}.", id=action.situation))
    if action.roll is None:
        distance = _(situation.label)
        text = _("Distance: {situation}.", situation=_(situation.label))
    else:
        feet = action.roll.total * situation.multiplier
        distance = f"{feet} {situation.unit}"
        text = _(
            "Distance ({situation}): {roll} × {mult} = {distance}.",
            situation=_(situation.label),
            roll=format_roll(action.roll),
            mult=situation.multiplier,
            distance=distance,
        )
    return log(replace(state, distance=distance), text)


@_apply.register
def _start_fight(action: a.StartFight, state: State) -> State:
    _require_phase(state, "setup", "surprise")
    if state.phase == "setup":
        _require_ready(state)
    ruleset = rulesets.get(state.ruleset)
    state = replace(state, phase="round", round=1, step=0, order=(), cursor=0, round_data={})
    state = log(state, _("Round {n} begins.", n=1))
    if state.surprised and ruleset.surprise_effect:
        names = ", ".join(state.side(side_id).name for side_id in state.surprised)
        state = log(state, _(ruleset.surprise_effect, names=names))
    return ruleset.start_round(state)


# -- the round ----------------------------------------------------------------------------------------
def _step_kind(state: State) -> str:
    steps = rulesets.get(state.ruleset).steps(state)
    return steps[state.step].kind if 0 <= state.step < len(steps) else ""


@_apply.register
def _next_step(action: a.NextStep, state: State) -> State:
    _require_phase(state, "round")
    ruleset = rulesets.get(state.ruleset)
    steps = ruleset.steps(state)
    kind = steps[state.step].kind
    if kind == "initiative" and not state.order:
        raise RuleError(_("Roll initiative first."))
    if kind == "resolve" and state.cursor < len(state.order) - 1:
        return replace(state, cursor=state.cursor + 1)
    if state.step < len(steps) - 1:
        state = replace(state, step=state.step + 1, cursor=0)
        if steps[state.step].kind == "end":
            state = log(ruleset.end_round(state), _("End of round {n}.", n=state.round))
        return state
    new_round = state.round + 1
    state = replace(state, round=new_round, step=0, order=(), cursor=0, round_data={}, surprised=())
    state = log(state, _("Round {n} begins.", n=new_round))
    return ruleset.start_round(state)


@_apply.register
def _previous_step(action: a.PreviousStep, state: State) -> State:
    _require_phase(state, "round")
    steps = rulesets.get(state.ruleset).steps(state)
    if steps[state.step].kind == "resolve" and state.cursor > 0:
        return replace(state, cursor=state.cursor - 1)
    if state.step == 0:
        raise RuleError(_("This is the first step of the round."))
    previous = state.step - 1
    cursor = max(len(state.order) - 1, 0) if steps[previous].kind == "resolve" else 0
    return replace(state, step=previous, cursor=cursor)


@_apply.register
def _roll_initiative(action: a.RollInitiative, state: State) -> State:
    _require_phase(state, "round")
    if _step_kind(state) not in ("initiative", "declare"):
        raise RuleError(_("Initiative is rolled in the initiative step."))
    ruleset = rulesets.get(state.ruleset)
    requests = ruleset.initiative_requests(state)
    totals: dict[str, int] = {}
    for request in requests:
        roll = action.rolls.get(request.key)
        if roll is None:
            raise RuleError(_("Missing initiative roll for {label}.", label=request.label))
        totals[request.key] = roll.total + request.modifier
        modifier = f" {request.modifier:+d} = {roll.total + request.modifier}" if request.modifier else ""
        state = log(state, _("Initiative — {label}: {roll}{modifier}.", label=request.label, roll=format_roll(roll), modifier=modifier))
    round_data = {**state.round_data, "initiative": totals}
    state = replace(state, round_data=round_data)
    order = ruleset.order(state, totals)
    steps = ruleset.steps(state)
    step = state.step
    if steps[step].kind == "initiative" and step + 1 < len(steps) and steps[step + 1].kind == "resolve":
        step += 1
    state = replace(state, order=order, cursor=0, step=step)
    names = state.names()
    summary = "; ".join(
        f"{slot.label}: " + ", ".join(names[cid] for cid in slot.combatants) for slot in order
    )
    return log(state, _("Order: {summary}.", summary=summary or _("nobody acts")))


@_apply.register
def _declare(action: a.Declare, state: State) -> State:
    _require_phase(state, "round")
    _find(state, action.combatant)
    return rulesets.get(state.ruleset).declare(state, action.combatant, dict(action.declaration))


def store_declaration(state: State, combatant_id: str, declaration: dict[str, object]) -> State:
    """Keep a combatant's declaration for this round (what rulesets do unless the book says otherwise)."""
    declarations = dict(state.round_data.get("declarations", {}))
    declarations[combatant_id] = declaration
    return replace(state, round_data={**state.round_data, "declarations": declarations})


# -- hits and status ----------------------------------------------------------------------------------
@_apply.register
def _damage(action: a.Damage, state: State) -> State:
    combatant = _find(state, action.combatant)
    if action.amount < 0:
        raise RuleError(_("Damage cannot be negative; use heal."))
    hp = combatant.hp - action.amount
    status = combatant.status
    if hp <= 0 and status == "active":
        status = "down"
    state = replace_combatant(state, replace(combatant, hp=hp, status=status))
    rolled = f" ({format_roll(action.roll)})" if action.roll else ""
    state = log(state, _("{name} takes {amount} damage{rolled}: {hp}/{max} HP.", name=combatant.name, amount=action.amount, rolled=rolled, hp=hp, max=combatant.max_hp))
    if status == "down" and combatant.status != "down":
        state = log(state, _("{name} is down.", name=combatant.name))
    if state.phase == "round" and action.amount > 0:
        state = rulesets.get(state.ruleset).on_damage(state, combatant.id, action.amount)
    return state


@_apply.register
def _heal(action: a.Heal, state: State) -> State:
    combatant = _find(state, action.combatant)
    if action.amount < 0:
        raise RuleError(_("Healing cannot be negative; use damage."))
    hp = min(combatant.hp + action.amount, max(combatant.max_hp, combatant.hp))
    status = "active" if combatant.status == "down" and hp > 0 else combatant.status
    state = replace_combatant(state, replace(combatant, hp=hp, status=status))
    return log(state, _("{name} heals {amount}: {hp}/{max} HP.", name=combatant.name, amount=action.amount, hp=hp, max=combatant.max_hp))


_STATUS_TEXT = {
    "active": "{name} is back in the fight.",
    "down": "{name} is down.",
    "fled": "{name} has fled.",
    "surrendered": "{name} surrenders.",
}


@_apply.register
def _set_status(action: a.SetStatus, state: State) -> State:
    combatant = _find(state, action.combatant)
    if combatant.status == action.status:
        return state
    state = replace_combatant(state, replace(combatant, status=action.status))
    return log(state, _(_STATUS_TEXT[action.status], name=combatant.name))


@_apply.register
def _note(action: a.Note, state: State) -> State:
    text = action.text.strip()
    if not text:
        raise RuleError(_("A note cannot be empty."))
    return log(state, text, secret=action.secret)


@_apply.register
def _ruleset_action(action: a.RulesetAction, state: State) -> State:
    return rulesets.get(state.ruleset).apply_action(state, action.name, dict(action.args))
