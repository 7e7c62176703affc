"""The actions of the set-up (the fight's name, ruleset and options, its sides and combatants) and of surprise and
distance, registered on :func:`tui_combat.engine.dispatch.act` as :func:`tui_combat.engine.apply.apply` applies them."""

from __future__ import annotations

import re

from msgspec.structs import replace

from tui_combat.engine import actions as a
from tui_combat.engine.audience import (
    group_ref,
    who,
    whos,
)
from tui_combat.engine.contract import AnyRuleset, OptionSpec
from tui_combat.engine.dice import DiceError, Roll, parse
from tui_combat.engine.dispatch import act as _apply
from tui_combat.engine.dispatch import find_combatant as _find
from tui_combat.engine.dispatch import replace_combatant
from tui_combat.engine.dispatch import require_phase as _require_phase
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, log, roll_param
from tui_combat.engine.model import ROLLS_OPTION, Combatant, Side, State
from tui_combat.engine.registry import get
from tui_combat.i18n import N_, _

MAX_GROUP = 500


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
    ruleset = get(action.ruleset)
    options = {option.key: option.choices[0][0] for option in ruleset.options}
    if ROLLS_OPTION in state.options:  # the GM's, whatever the rules
        options[ROLLS_OPTION] = state.options[ROLLS_OPTION]
    return replace(state, ruleset=ruleset.id, options=options, round_state=None, fight_state=None)


ROLLS_SPEC = OptionSpec(
    key=ROLLS_OPTION,
    label=N_("What the players see of rolls"),
    choices=(
        ("outcomes", N_("outcomes: who hits whom")),
        ("everything", N_("everything: every roll and number")),
        ("nothing", N_("nothing: no roll, no outcome")),
    ),
)
"""The engine's own option of every fight, whatever the ruleset (:mod:`tui_combat.engine.public`)."""


def fight_options(ruleset: AnyRuleset) -> tuple[OptionSpec, ...]:
    """The options the GM sets for a fight: the ruleset's, then the engine's."""
    return (*ruleset.options, ROLLS_SPEC)


@_apply.register
def _set_option(action: a.SetOption, state: State) -> State:
    ruleset = get(state.ruleset)
    for option in fight_options(ruleset):
        if option.key == action.key:
            labels = dict(option.choices)
            if action.value not in labels:
                raise RuleError(
                    _('"{value}" is not a choice for {option}.', value=action.value, option=_(option.label))
                )
            state = replace(state, options={**state.options, action.key: action.value})
            return log(state, N_("{option}: {value}."), option=Msg(id=option.label), value=Msg(id=labels[action.value]))
    raise RuleError(_("Unknown option {key}.", key=action.key))


@_apply.register
def _add_side(action: a.AddSide, state: State) -> State:
    name = action.name.strip()
    if not name:
        raise RuleError(_("A side needs a name."))
    taken = next((side for side in state.sides if side.name.casefold() == name.casefold()), None)
    if taken is not None:
        raise RuleError(_("There is already a side called {name}: give this one another name.", name=taken.name))
    side = Side(id=f"s{state.next_id}", name=name, is_party=action.is_party)
    return replace(state, sides=(*state.sides, side), next_id=state.next_id + 1)


_NUMBERED = re.compile(r"^(.*\S)\s+(\d+)$")


def new_names(state: State, name: str, count: int) -> list[str]:
    """The names ``count`` newcomers called ``name`` get: a group is numbered on from the highest number
    any combatant of that name already has, whatever group or side he is in (Orc 1–6 exist: 5 more are
    Orc 7 … Orc 11); one newcomer keeps his name unless someone has it or is numbered after it (then he
    takes the next number). Names compare without case; newcomers take the spelling already in use."""
    key = name.casefold()
    spelling, highest, exact, numbered = name, 0, False, False
    for combatant in state.combatants:
        match = _NUMBERED.match(combatant.name)
        if combatant.name.casefold() == key:
            spelling, highest, exact = combatant.name, max(highest, 1), True
        elif match is not None and match.group(1).casefold() == key:
            spelling, highest, numbered = match.group(1), max(highest, int(match.group(2))), True
    if count == 1:
        if not exact and not numbered:
            return [name]
        typed = _NUMBERED.match(name)
        if exact and typed is not None:  # "Orc 2" typed again: the next Orc
            return new_names(state, typed.group(1), 1)
    return [f"{spelling} {number}" for number in range(highest + 1, highest + count + 1)]


@_apply.register
def _add_combatants(action: a.AddCombatants, state: State) -> State:
    name = action.name.strip()
    if not name:
        raise RuleError(_("A combatant needs a name."))
    if action.hp < 0:
        raise RuleError(_("HP cannot be negative."))
    if not 1 <= action.count <= MAX_GROUP:
        raise RuleError(_("A group has from 1 to {max} members.", max=MAX_GROUP))
    if action.hps and (len(action.hps) != action.count or min(action.hps) < 0):
        raise RuleError(_("Give each of the {count} members his hit points, none below 0.", count=action.count))
    try:
        state.side(action.side)
    except KeyError:
        raise RuleError(_("No such side.")) from None
    ruleset = get(state.ruleset)
    sheet = ruleset.check_sheet(dict(action.sheet))
    hps = (
        [ruleset.starting_hp(sheet, each) for each in action.hps]
        if action.hps
        else [ruleset.starting_hp(sheet, action.hp)] * action.count
    )
    next_id = state.next_id
    group = f"g{next_id}" if action.count > 1 else ""
    if group:
        next_id += 1
    names = new_names(state, name, action.count)
    new = []
    for new_name, hp in zip(names, hps):
        new.append(
            Combatant(
                id=f"c{next_id}",
                name=new_name,
                side=action.side,
                hp=hp,
                max_hp=hp,
                group=group,
                sheet=sheet,
                notes=action.notes,
                hidden=action.hidden is True,
            )
        )
        next_id += 1
    state = replace(state, combatants=(*state.combatants, *new), next_id=next_id)
    if state.phase == "round":
        if action.count == 1:
            state = log(state, N_("{name} joins the fight."), name=who(state, new[0]))
        else:
            state = log(
                state,
                N_("{count} × {name} join the fight."),
                count=action.count,
                name=group_ref(state, names[0].rpartition(" ")[0], [c.id for c in new], group),
            )
        state = ruleset.on_join(state, tuple(c.id for c in new))
    return state


HIDES = N_("{name} is hidden from the players.")
APPEARS = N_("{name} appears.")
"""The log lines of hiding (the GM's) and of revealing (the players read it: from then on he is theirs to see)."""


@_apply.register
def _set_hidden(action: a.SetHidden, state: State) -> State:
    combatant = _find(state, action.combatant)
    if combatant.hidden == action.hidden:
        return state
    state = replace_combatant(state, replace(combatant, hidden=action.hidden))
    if state.phase == "setup":
        return state
    if action.hidden:
        return log(state, HIDES, secret=True, name=who(state, combatant.id))
    return log(state, APPEARS, name=who(state, combatant.id))


@_apply.register
def _remove_combatant(action: a.RemoveCombatant, state: State) -> State:
    _find(state, action.combatant)
    combatants = tuple(c for c in state.combatants if c.id != action.combatant)
    order = tuple(
        replace(slot, combatants=tuple(c for c in slot.combatants if c != action.combatant)) for slot in state.order
    )
    surprised = tuple(c for c in state.surprised if c != action.combatant)
    return replace(state, combatants=combatants, order=order, surprised=surprised)


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
        changes["sheet"] = get(state.ruleset).check_sheet({**combatant.sheet, **action.sheet})
    if action.notes is not None:
        changes["notes"] = action.notes
    return replace_combatant(state, replace(combatant, **changes))


# -- surprise and distance --------------------------------------------------------------------------
@_apply.register
def _begin_surprise(action: a.BeginSurprise, state: State) -> State:
    _require_phase(state, "setup")
    require_ready(state)
    return replace(state, phase="surprise")


def require_ready(state: State) -> None:
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
    ruleset = get(state.ruleset)
    if not ruleset.surprise_requests(state):
        raise RuleError(
            _("There is no surprise roll {in_ruleset}: the GM marks who is surprised.", in_ruleset=ruleset.in_ruleset())
        )
    known = {request.key for request in ruleset.surprise_requests(state)}
    unknown = [key for key in action.rolls if key not in known]
    if unknown:
        raise RuleError(_("No surprise roll is asked for {keys}.", keys=", ".join(unknown)))
    return ruleset.settle_surprise(state, action.rolls, action.modifiers)


@_apply.register
def _set_surprised(action: a.SetSurprised, state: State) -> State:
    _require_phase(state, "surprise")
    ids: list[str] = []
    for side_id in action.sides:
        try:
            state.side(side_id)
        except KeyError:
            raise RuleError(_("No such side.")) from None
        ids.extend(c.id for c in state.combatants if c.side == side_id)
    for combatant_id in action.combatants:
        _find(state, combatant_id)
        if combatant_id not in ids:
            ids.append(combatant_id)
    state = replace(state, surprised=tuple(ids))
    if not ids:
        return log(state, N_("The GM rules who is surprised: nobody."))
    return log(state, N_("The GM rules who is surprised: {names}."), names=whos(state, ids))


@_apply.register
def _roll_distance(action: a.RollDistance, state: State) -> State:
    _require_phase(state, "surprise", "setup")
    ruleset = get(state.ruleset)
    applicable = ruleset.encounter_distances(state)
    situation = next((s for s in applicable if s.id == action.situation), None)
    if situation is None:
        known = next((s for s in ruleset.distance_situations() if s.id == action.situation), None)
        if known is not None:
            raise RuleError(
                _(
                    '"{situation}" does not apply now; choose one of: {choices}.',
                    situation=_(known.label),
                    choices=", ".join(_(s.label) for s in applicable),
                )
            )
        raise RuleError(_("Unknown situation {id}.", id=action.situation))
    if action.roll is None:
        distance = Msg(id=situation.label)
        return log(replace(state, distance=distance), N_("Distance: {situation}."), situation=distance)
    if not situation.dice:  # the GM gives the figure (the limit of sight)
        amount = action.roll.total * situation.multiplier
        distance = Msg(id=N_("{amount} {unit}"), params={"amount": amount, "unit": Msg(id=situation.unit)})
        return log(
            replace(state, distance=distance),
            N_("Distance ({situation}): {distance}, as the GM gives it."),
            facts={"distance": amount},
            situation=Msg(id=situation.label),
            distance=distance,
        )
    _check_distance_roll(situation.dice, action.roll, situation.label)
    amount = action.roll.total * situation.multiplier
    distance = Msg(id=N_("{amount} {unit}"), params={"amount": amount, "unit": Msg(id=situation.unit)})
    return log(
        replace(state, distance=distance),
        N_("Distance ({situation}): {roll} × {mult} = {distance}."),
        rolls=(action.roll,),
        facts={"distance": amount},
        situation=Msg(id=situation.label),
        roll=roll_param(action.roll),
        mult=situation.multiplier,
        distance=distance,
    )


def _check_distance_roll(dice: str, rolled: Roll, label: str) -> None:
    """A distance roll must be one the row's dice can give: its dice (when it names them) and a total
    within their range (4d6 × 10 is never 5 nor 1000)."""
    try:
        expected = parse(dice)
    except DiceError:
        return  # a row with dice the engine cannot read is the data file's fault, reported when it loads
    if rolled.expr:
        try:
            same = parse(rolled.expr).text == expected.text
        except DiceError:
            same = False
        if not same:
            raise RuleError(
                _(
                    "The distance for {situation} is rolled with {dice}, not {rolled}.",
                    situation=_(label),
                    dice=expected.text,
                    rolled=rolled.expr,
                )
            )
    low, high = expected.min_total, expected.max_total
    if rolled.total < low or (high is not None and rolled.total > high):
        raise RuleError(
            _(
                "{dice} cannot show {total} (the distance for {situation}): from {low} to {high}.",
                dice=expected.text,
                total=rolled.total,
                situation=_(label),
                low=low,
                high=high if high is not None else "…",
            )
        )
