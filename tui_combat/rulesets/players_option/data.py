"""The Player's Option data file (``data/players_option.toml``): phases, base initiative, weapon speed
classes, encounter range, critical events, the end of the round; checked when loaded."""

from __future__ import annotations

from functools import cache
from typing import Annotated

import msgspec

from tui_combat.engine.errors import RuleError
from tui_combat.i18n import _
from tui_combat.rulesets.adnd2e.data import Source, SurpriseResult, tables
from tui_combat.rulesets.adnd2e.sheet import weapon_key
from tui_combat.rulesets.data_loading import house_rules_path, load_ruleset_data

__all__ = ["Phase", "PoTables", "RangeRow", "po_tables"]

NonNegative = Annotated[int, msgspec.Meta(ge=0)]
Die = Annotated[int, msgspec.Meta(ge=1, le=20)]


class _Data(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A part of the data file: a misspelt key in a house-rules file is refused, not ignored."""


class Phase(_Data, frozen=True, kw_only=True):
    id: str
    label: str


class _Initiative(_Data, frozen=True, kw_only=True):
    dice: str
    faster_on: int
    slower_on: int
    event_dice: str
    source: Source
    event_dice_source: Source


class _Base(_Data, frozen=True, kw_only=True):
    default: str
    source: Source
    natural_by_size: dict[str, str]
    natural_by_size_source: Source
    fast_movement_from: NonNegative
    slow_movement_up_to: NonNegative
    movement_source: Source
    encumbrance: dict[str, NonNegative]
    encumbrance_source: Source


class _Weapons(_Data, frozen=True, kw_only=True):
    default_class: str
    classes: dict[str, str]
    classes_source: Source
    magic: tuple[tuple[int, NonNegative], ...]
    """(from plus, phases faster) rows; the last row whose plus ≤ the weapon's applies."""
    magic_source: Source


class _Movement(_Data, frozen=True, kw_only=True):
    half: NonNegative
    full: NonNegative
    source: Source


class _Spells(_Data, frozen=True, kw_only=True):
    """A spell's phase by its casting time: the first row whose time is at least the spell's; a casting time
    in rounds (or turns) takes ``rounds``."""

    casting: tuple[tuple[NonNegative, str], ...]
    rounds: str
    source: Source


class _Scale(_Data, frozen=True, kw_only=True):
    unit: str
    source: Source


class RangeRow(_Data, frozen=True, kw_only=True):
    id: str
    label: str
    dice: str
    """Empty: the GM gives the figure."""
    surprise: SurpriseResult
    source: Source


class CriticalEvent(_Data, frozen=True, kw_only=True):
    low: Die
    high: Die
    label: str
    source: Source


class EndPart(_Data, frozen=True, kw_only=True):
    id: str
    label: str
    question: str
    source: Source


class PoTables(_Data, frozen=True, kw_only=True):
    schema: int
    phases: tuple[Phase, ...]
    initiative: _Initiative
    base: _Base
    weapons: _Weapons
    movement: _Movement
    spells: _Spells
    scale: _Scale
    range: tuple[RangeRow, ...]
    critical_events: tuple[CriticalEvent, ...]
    end_of_round: tuple[EndPart, ...]

    def phase_index(self, phase_id: str) -> int:
        for index, phase in enumerate(self.phases):
            if phase.id == phase_id:
                return index
        raise RuleError(
            _('"{phase}" is not a phase: {known}.', phase=phase_id, known=", ".join(p.id for p in self.phases))
        )

    def casting_phase(self, casting: str, rounds: int) -> int | None:
        """The phase of a spell cast in ``casting`` (a bare number) or ``rounds`` rounds; None when the casting
        time is not known."""
        if rounds > 0:
            return self.phase_index(self.spells.rounds)
        if not casting.strip().isdigit():
            return None
        time = int(casting.strip())
        for up_to, phase in self.spells.casting:
            if time <= up_to:
                return self.phase_index(phase)
        return self.phase_index(self.spells.rounds)

    def event(self, roll: int) -> CriticalEvent | None:
        return next((e for e in self.critical_events if e.low <= roll <= e.high), None)


def check_po_tables(data: PoTables, where: str) -> PoTables:
    """What the types cannot say: phases named where phases are meant, known weapons, a whole d20 table."""

    def problem(message: str) -> RuleError:
        return RuleError(f"{where}: {message}")

    ids = [p.id for p in data.phases]
    if len(ids) < 2 or len(set(ids)) != len(ids):
        raise problem(_("phases must be two or more, each with its own id."))
    named = [("base.default", data.base.default), ("weapons.default_class", data.weapons.default_class)]
    named += [(f"base.natural_by_size.{size}", phase) for size, phase in data.base.natural_by_size.items()]
    named += [(f'weapons.classes["{weapon}"]', phase) for weapon, phase in data.weapons.classes.items()]
    named += [(f"spells.casting[{time}]", phase) for time, phase in data.spells.casting] + [
        ("spells.rounds", data.spells.rounds)
    ]
    for key, phase in named:
        if phase not in ids:
            raise problem(_('{key}: "{phase}" is not a phase ({known}).', key=key, phase=phase, known=", ".join(ids)))
    known = {weapon_key(name) for name in tables().weapon_speeds}
    for weapon in data.weapons.classes:
        if weapon_key(weapon) not in known:
            raise problem(_('weapons.classes names "{weapon}", which is not a weapon of adnd2e.toml.', weapon=weapon))
    faces = sorted(face for e in data.critical_events for face in range(e.low, e.high + 1))
    if faces != list(range(1, 21)):
        raise problem(_("critical_events must cover 1 to 20 once each."))
    return data


@cache
def po_tables() -> PoTables:
    """The Player's Option tables with the GM's house rules (``po_tables.cache_clear()`` reads them again)."""
    override = house_rules_path("players_option")
    where = str(override) if override.exists() else "players_option.toml"
    return check_po_tables(load_ruleset_data("players_option", PoTables), where)
