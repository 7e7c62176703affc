"""A combatant's action phase: his base initiative (size, movement rate, encumbrance) or his weapon's speed
class, whichever is later, the weapon's magic and the move he declared; then his side's roll (1 one phase
faster, 10 one slower). Every shift stops at very fast and very slow."""

from __future__ import annotations

import msgspec

from tui_combat.i18n import N_, _, ngettext
from tui_combat.rulesets.adnd2e.sheet import Sheet, uses_natural_weapons, weapon_key, weapon_name
from tui_combat.rulesets.adnd2e.state import casting_rounds, parse_spells
from tui_combat.rulesets.names import made_once
from tui_combat.rulesets.players_option.data import PoTables

__all__ = ["ENCUMBRANCE", "MOVES", "PO_ACTIONS", "PoDeclaration", "PoSheet", "Reading", "phase_of"]

PO_ACTIONS = (N_("attack"), N_("spell"), N_("move"), N_("other"))
MOVES = (N_("none"), N_("half"), N_("full"))
ENCUMBRANCE = (N_("none"), N_("light"), N_("moderate"), N_("heavy"), N_("severe"))


class PoSheet(Sheet, frozen=True, kw_only=True):
    movement: int = 12
    """Movement rate."""
    encumbrance: str = "none"
    weapon_class: str = ""
    """The weapon's speed class when it differs from the table ("" = from the table)."""


class PoDeclaration(msgspec.Struct, frozen=True, kw_only=True):
    action: str = "attack"
    movement: str = "none"
    """The move that goes with the action: none, half (one phase later), full (two)."""
    phase: str = ""
    """The GM's phase for an action the tables do not time ("" = worked out)."""
    spell: str = ""
    text: str = ""


class Reading(msgspec.Struct, frozen=True, kw_only=True):
    """A phase with how it was reached, for the GM to check (labels translated when shown)."""

    index: int
    steps: tuple[str, ...]


def _clamp(index: int, data: PoTables) -> int:
    return min(max(index, 0), len(data.phases) - 1)


def base_phase(sheet: PoSheet, data: PoTables) -> Reading:
    base = data.base
    if uses_natural_weapons(sheet):
        index = data.phase_index(base.natural_by_size.get(sheet.size, base.default))
        steps = [_("base {phase} (natural weapons, {size})", phase=_(data.phases[index].label), size=_(sheet.size))]
    else:
        index = data.phase_index(base.default)
        steps = [_("base {phase}", phase=_(data.phases[index].label))]
    if sheet.movement >= base.fast_movement_from:
        index = _clamp(index - 1, data)
        steps.append(_("movement {rate}: one faster", rate=sheet.movement))
    elif sheet.movement <= base.slow_movement_up_to:
        index = _clamp(index + 1, data)
        steps.append(_("movement {rate}: one slower", rate=sheet.movement))
    load = base.encumbrance.get(sheet.encumbrance, 0)
    if load:
        index = _clamp(index + load, data)
        steps.append(
            ngettext(
                "{load} encumbrance: {n} phase slower",
                "{load} encumbrance: {n} phases slower",
                load,
                load=_(sheet.encumbrance),
            )
        )
    return Reading(index=index, steps=tuple(steps))


def weapon_class(sheet: PoSheet, weapon: str, data: PoTables) -> int:
    if sheet.weapon_class and weapon_key(weapon) == weapon_key(sheet.weapon):
        return data.phase_index(sheet.weapon_class)
    classes = made_once(data, "classes by key", lambda: {weapon_key(k): v for k, v in data.weapons.classes.items()})
    return data.phase_index(classes.get(weapon_key(weapon_name(weapon)), data.weapons.default_class))


def magic_shift(plus: int, data: PoTables) -> int:
    shift = 0
    for from_plus, phases in data.weapons.magic:
        if plus >= from_plus:
            shift = phases
    return shift


def weapon_phase(sheet: PoSheet, data: PoTables) -> Reading | None:
    """The later speed class of the weapons he strikes with, each made faster by its magic; None unarmed."""
    weapons = [(w, m) for w, m in ((sheet.weapon, sheet.magic), (sheet.weapon2, sheet.magic2)) if w.strip()]
    if not weapons:
        return None
    best: Reading | None = None
    for weapon, plus in weapons:
        index = weapon_class(sheet, weapon, data)
        steps = [_("{weapon}: {phase}", weapon=_(weapon), phase=_(data.phases[index].label))]
        faster = magic_shift(plus, data)
        if faster:
            index = _clamp(index - faster, data)
            steps.append(ngettext("+{plus}: {n} phase faster", "+{plus}: {n} phases faster", faster, plus=plus))
        if best is None or index > best.index:
            best = Reading(index=index, steps=tuple(steps))
    return best


def spell_phase(sheet: PoSheet, declaration: PoDeclaration, data: PoTables) -> Reading | None:
    """The phase of the spell he casts, by its casting time on his sheet's list; None when it is not there."""
    casting = parse_spells(sheet.spells).get(declaration.spell.strip())
    if casting is None:
        return None
    index = data.casting_phase(casting, casting_rounds(casting))
    if index is None:
        return None
    return Reading(
        index=index,
        steps=(
            _(
                "{spell}, casting time {time}: {phase}",
                spell=declaration.spell,
                time=casting,
                phase=_(data.phases[index].label),
            ),
        ),
    )


def phase_of(
    sheet: PoSheet, declaration: PoDeclaration, data: PoTables, side_shift: int = 0, *, by_casting_time: bool = True
) -> Reading:
    """The phase of his declared action this round, ``side_shift`` (−1, 0, +1) from his side's roll; a spell's by
    its casting time (the data's default table) unless ``by_casting_time`` is False (the option ``spell_phase``:
    the GM's phase, else his base initiative)."""
    if declaration.phase:
        reading = Reading(
            index=data.phase_index(declaration.phase),
            steps=(_("set by the GM: {phase}", phase=_(data.phases[data.phase_index(declaration.phase)].label)),),
        )
    elif (
        declaration.action == "spell"
        and by_casting_time
        and (cast := spell_phase(sheet, declaration, data)) is not None
    ):
        reading = cast
    else:
        reading = base_phase(sheet, data)
        weapon = weapon_phase(sheet, data) if declaration.action == "attack" else None
        if weapon is not None and weapon.index > reading.index:
            reading = Reading(index=weapon.index, steps=(*reading.steps, *weapon.steps, _("the weapon is later")))
        elif weapon is not None:
            reading = Reading(index=reading.index, steps=(*reading.steps, *weapon.steps))
        later = {"half": data.movement.half, "full": data.movement.full}.get(declaration.movement, 0)
        if later:
            reading = Reading(
                index=_clamp(reading.index + later, data),
                steps=(
                    *reading.steps,
                    ngettext(
                        "{move} move: {n} phase later",
                        "{move} move: {n} phases later",
                        later,
                        move=_(declaration.movement),
                    ),
                ),
            )
    if side_shift:
        word = _("one faster") if side_shift < 0 else _("one slower")
        reading = Reading(
            index=_clamp(reading.index + side_shift, data), steps=(*reading.steps, _("side's roll: {how}", how=word))
        )
    return reading
