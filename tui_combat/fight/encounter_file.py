"""A fight's set-up written as an encounter file, the TOML ``tui-combat new FILE`` reads: a prepared fight
to start again.

What the file holds is what an encounter holds: the fight's name, its ruleset and options, the sides, and
each combatant or group with full HP, sheet and notes. A group is written once with its size, so its members
come back numbered 1, 2, 3 … as the app names a new group. What the format cannot say (a group whose members
were given different HP or sheets, members renamed by hand) is worked out before writing by building the
written file again, and named in the warnings :func:`save_encounter` returns.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, NamedTuple

from tui_combat.engine.encounter import CombatantSpec, Encounter, SideSpec, built
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import Combatant, State
from tui_combat.fight.library import base_name
from tui_combat.i18n import _
from tui_combat.saves.locations import slug
from tui_combat.settings.toml_write import TomlWriteError, table_lines

__all__ = [
    "EncounterFileError",
    "SavedEncounter",
    "default_path",
    "differences",
    "encounter_of",
    "encounter_text",
    "save_encounter",
]

ENCOUNTERS_FOLDER = "encounters"


class EncounterFileError(Exception):
    """The encounter could not be written; ``str()`` is for the GM."""


class SavedEncounter(NamedTuple):
    path: Path
    warnings: list[str]
    """Translated: who will not come back exactly as he is now."""


def _groups(state: State) -> dict[str, list[Combatant]]:
    members: dict[str, list[Combatant]] = {}
    for combatant in state.combatants:
        if combatant.group:
            members.setdefault(combatant.group, []).append(combatant)
    return members


def encounter_of(state: State) -> Encounter:
    """The encounter that builds this fight's set-up: every side, each combatant at full HP, a group once
    with its size (its first member's HP, sheet and notes)."""
    groups = _groups(state)
    sides: list[SideSpec] = []
    for side in state.sides:
        specs: list[CombatantSpec] = []
        written: set[str] = set()
        for combatant in state.combatants:
            if combatant.side != side.id:
                continue
            members = groups.get(combatant.group, [combatant]) if combatant.group else [combatant]
            if combatant.group in written:
                continue
            if combatant.group:
                written.add(combatant.group)
            first = members[0]
            name = base_name(first.name) if len(members) > 1 else first.name
            specs.append(
                CombatantSpec(
                    name=name,
                    hp=first.max_hp,
                    count=len(members),
                    sheet=dict(first.sheet),
                    notes=first.notes,
                    hidden=first.hidden,
                )
            )
        sides.append(SideSpec(name=side.name, party=side.is_party, combatants=specs))
    return Encounter(
        name=state.name.strip() or _("Encounter"), ruleset=state.ruleset, options=dict(state.options), sides=sides
    )


def encounter_text(encounter: Encounter) -> str:
    """The encounter as a file: TOML that :func:`tui_combat.engine.encounter.read_encounter` reads back."""
    lines = [
        "# " + _("A fight prepared with tui-combat. Start it with: tui-combat new THIS-FILE").replace("\n", " "),
        *table_lines([("name", encounter.name), ("ruleset", encounter.ruleset)]),
    ]
    if encounter.options:
        lines += ["", "[options]", *table_lines(encounter.options.items())]
    for side in encounter.sides:
        lines += ["", "[[sides]]", *table_lines([("name", side.name), ("party", side.party or None)])]
        for spec in side.combatants:
            fields: list[tuple[str, Any]] = [
                ("name", spec.name),
                ("hp", spec.hp),
                ("count", spec.count if spec.count != 1 else None),
                ("notes", spec.notes or None),
                ("hidden", spec.hidden or None),
            ]
            if spec.sheet:
                fields.append(("sheet", {name: item for name, item in spec.sheet.items() if item is not None}))
            lines += ["", "[[sides.combatants]]", *table_lines(fields)]
    return "\n".join(lines) + "\n"


def _signature(state: State) -> dict[str, list[tuple[str, Any]]]:
    """Side name → (combatant name, what he is) in order: what an encounter carries of a set-up."""
    groups = _groups(state)
    numbers: dict[str, int] = {}
    found: dict[str, list[tuple[str, Any]]] = {}
    for combatant in state.combatants:
        grouped = combatant.group and len(groups[combatant.group]) > 1
        group = numbers.setdefault(combatant.group, len(numbers)) if grouped else -1
        side = state.side(combatant.side).name
        found.setdefault(side, []).append(
            (combatant.name, (combatant.max_hp, combatant.sheet, combatant.notes, group, combatant.hidden))
        )
    return found


def differences(state: State, encounter: Encounter, path: Path) -> list[str]:
    """The names of the combatants whom the encounter will not bring back as they are in ``state``."""
    try:
        again = built(encounter, path)
    except RuleError as error:
        raise EncounterFileError(str(error)) from None
    before, after = _signature(state), _signature(again)
    changed: list[str] = []
    for side in state.sides:
        old, new = before.get(side.name, []), after.get(side.name, [])
        for position, (name, what) in enumerate(old):
            if position >= len(new) or new[position] != (name, what):
                changed.append(name)
    return changed


def default_path(data_root: Path, name: str) -> Path:
    """A free file for the encounter ``name`` in the data folder's ``encounters`` (``name-2.toml`` … when taken)."""
    folder = data_root / ENCOUNTERS_FOLDER
    base = slug(name) or "encounter"
    candidate, number = folder / f"{base}.toml", 2
    while os.path.lexists(candidate):
        candidate, number = folder / f"{base}-{number}.toml", number + 1
    return candidate


def save_encounter(state: State, path: Path, *, replace: bool = False) -> SavedEncounter:
    """Write the set-up of ``state`` to ``path`` (a file that exists only with ``replace``), atomically: a
    temporary file beside it, renamed over it. Raises :class:`EncounterFileError`."""
    path = path.expanduser()
    if path.is_dir():
        raise EncounterFileError(_("{path} is a folder: give a file name.", path=path))
    if os.path.lexists(path) and not replace:
        raise EncounterFileError(_("{path} exists already: choose another name, or replace it.", path=path))
    encounter = encounter_of(state)
    try:
        text = encounter_text(encounter)
    except TomlWriteError as error:
        raise EncounterFileError(_("Cannot write {path}: {error}", path=path, error=error)) from None
    warnings = differences(state, encounter, path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(text.encode("utf-8"))
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        except BaseException:
            if os.path.lexists(temporary):
                os.unlink(temporary)
            raise
    except OSError as error:
        raise EncounterFileError(_("Cannot write {path}: {error}", path=path, error=error.strerror or error)) from None
    return SavedEncounter(path, warnings)
