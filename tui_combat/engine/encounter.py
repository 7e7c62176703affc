"""Encounter files: a fight prepared in advance, checked through, and turned into the actions that build it.

An encounter is TOML::

    name = "Trolls in the tunnel"
    ruleset = "…"        # a ruleset's id, as `tui-combat check` lists them
    [options]
    initiative = "standard"   # or the choice's label, in any language: "групповая"
    [[sides]]
    name = "Party"
    party = true
    [[sides.combatants]]
    name = "Raf"
    hp = 42
    count = 1            # "5" makes Orc 1 … Orc 5, one group sharing one initiative roll
    [sides.combatants.sheet]
    weapon = "war hammer"
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

import msgspec

from tui_combat.engine import actions as a
from tui_combat.engine.apply import MAX_GROUP, apply, fight_options
from tui_combat.engine.errors import RuleError
from tui_combat.engine.mistakes import Mistakes, file_value, validation_text
from tui_combat.engine.model import State
from tui_combat.engine.text import MULTI_LINE_FIELDS, control_problem, harmless
from tui_combat.engine.toml_lines import KeyPath, key_lines, line_of
from tui_combat.i18n import N_, _
from tui_combat.i18n.os_words import os_error_text
from tui_combat.settings import toml_read

if TYPE_CHECKING:
    from tui_combat.engine.contract import AnyRuleset

ENCOUNTER_DIR = Path(__file__).resolve().parent.parent / "encounters"


class CombatantSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    hp: int
    count: int = 1
    sheet: dict[str, Any] = msgspec.field(default_factory=dict)
    notes: str = ""
    hidden: bool = False
    """Kept from the players until the GM reveals him (the ambusher behind the door)."""


class SideSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    party: bool = False
    combatants: list[CombatantSpec] = msgspec.field(default_factory=list)


class Encounter(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    ruleset: str
    options: dict[str, str] = msgspec.field(default_factory=dict)
    sides: list[SideSpec] = msgspec.field(default_factory=list)


def load_encounter(path: Path) -> Encounter:
    """Read an encounter file, checked through: its mistakes, every one with its line and whom it belongs
    to, raise :class:`EncounterError` (a ``RuleError``); a file that cannot be read at all, ``RuleError``."""
    return read_encounter(path)


def localized(encounter: Encounter) -> Encounter:
    """A packaged encounter (a demo) in the GM's language: its name, its sides, its combatants' names and
    notes looked up in the catalog, where their English is the message id. What the fight is built from
    is then stored in that language, as if the GM had typed it; the sheets (weapon names) stay as written."""
    return msgspec.structs.replace(
        encounter,
        name=_(encounter.name),
        sides=[
            msgspec.structs.replace(
                side,
                name=_(side.name),
                combatants=[
                    msgspec.structs.replace(spec, name=_(spec.name), notes=_(spec.notes) if spec.notes else "")
                    for spec in side.combatants
                ],
            )
            for side in encounter.sides
        ],
    )


def encounter_actions(encounter: Encounter, state: State) -> list[a.Action]:
    """The actions that build ``encounter`` on top of a fresh ``state`` (side ids follow ``next_id``)."""
    result: list[a.Action] = [a.SetName(name=encounter.name), a.SetRuleset(ruleset=encounter.ruleset)]
    result += [a.SetOption(key=key, value=value) for key, value in encounter.options.items()]
    next_id = state.next_id
    for side in encounter.sides:
        side_id = f"s{next_id}"
        result.append(a.AddSide(name=side.name, is_party=side.party))
        next_id += 1
        for spec in side.combatants:
            result.append(
                a.AddCombatants(
                    side=side_id,
                    name=spec.name,
                    hp=spec.hp,
                    count=spec.count,
                    sheet=spec.sheet,
                    notes=spec.notes,
                    hidden=True if spec.hidden else msgspec.UNSET,
                )
            )
            next_id += spec.count + (1 if spec.count > 1 else 0)
    return result


# -- checking an encounter file ----------------------------------------------------------------------------
# Every mistake at once, each with its line, whom it belongs to, and what would do. The file is read in
# passes, each going as far as the one before allows: the bytes must be UTF-8, the text TOML; then every
# field is checked for its name, kind and range (all of them, not up to the first wrong one), and the
# ruleset, its options, the sides' names and every combatant's sheet (by the ruleset's own ``check_sheet``,
# one combatant after another) as far as they can be read. ``built`` then builds the fight in memory, so
# that a file that passes would also start.
MAX_HP = 999_999
"""No rules give a creature more hit points: a larger number is a typing mistake."""


class Problem(msgspec.Struct, frozen=True, kw_only=True):
    line: int | None
    """In the file, from 1; None when the mistake is not at one place (the fight as a whole)."""
    where: str
    """Whom it belongs to ("side Monsters, group Orc ×6"), translated; "" for the file as a whole."""
    message: str
    """Translated."""
    key: str = ""
    """The field as the file's structure reaches it (``sides[1].combatants[0].hp``), for a mistake in one
    field: for programs that read the problems (the GM reads the line, the owner and the field's name)."""

    def text(self, path: Path) -> str:
        """``FILE, line N: whose: what``, harmless on a terminal whatever the file holds (a name with an
        escape in it is quoted with the escape's picture)."""
        place = _("{path}, line {line}", path=path, line=self.line) if self.line is not None else str(path)
        return harmless(f"{place}: {self.where}: {self.message}" if self.where else f"{place}: {self.message}")


class EncounterError(RuleError):
    """An encounter file with mistakes: ``problems`` lists every one; ``str()`` gives one line each."""

    def __init__(self, path: Path, problems: list[Problem]) -> None:
        super().__init__("\n".join(problem.text(path) for problem in problems))
        self.path = path
        self.problems = problems


# -- reading ----------------------------------------------------------------------------------------------
def read_encounter(path: Path) -> Encounter:
    """The encounter in ``path``, checked through; :class:`EncounterError` lists every mistake.
    A file that cannot be read at all raises :class:`RuleError`."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise RuleError(_("Cannot read {path}: {error}", path=path, error=os_error_text(error))) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RuleError(_("{path} is not UTF-8 text.", path=path)) from None
    try:
        raw = toml_read.loads(text)
    except tomllib.TOMLDecodeError as error:
        mistake = toml_read.translated(error)
        line = mistake.line if mistake.line is not None else text.count("\n") + 1
        raise EncounterError(
            path, [Problem(line=line, where="", message=_("this is not valid TOML: {error}.", error=mistake.reason))]
        ) from None
    return _Checker(path, raw, key_lines(text)).encounter()


def built(encounter: Encounter, path: Path) -> State:
    """The fight ``encounter`` describes, built in memory (nothing is saved), or an :class:`EncounterError`
    with the refusal."""
    state = State(seed=0)
    try:
        for action in encounter_actions(encounter, state):
            state = apply(state, action)
    except RuleError as error:
        raise EncounterError(path, [Problem(line=None, where="", message=str(error))]) from None
    return state


# -- the fields -------------------------------------------------------------------------------------------
_TEXT, _WHOLE, _YES_NO, _TABLE, _TABLES = (
    N_("text"),
    N_("a whole number"),
    N_("true or false"),
    N_("a table"),
    N_("a list of tables"),
)
_TEXTS = N_("a list of text")
KIND_TABLES, KIND_TEXTS = _TABLES, _TEXTS
"""Kinds of field for files made of the same tables (the combatant library)."""


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


_KINDS: dict[str, Callable[[Any], bool]] = {
    _TEXT: lambda value: isinstance(value, str),
    _WHOLE: _whole,
    _YES_NO: lambda value: isinstance(value, bool),
    _TABLE: lambda value: isinstance(value, dict),
    _TABLES: lambda value: isinstance(value, list) and all(isinstance(item, dict) for item in value),
    _TEXTS: lambda value: isinstance(value, list) and all(isinstance(item, str) for item in value),
}

ENCOUNTER_FIELDS: dict[str, str] = {"name": _TEXT, "ruleset": _TEXT, "options": _TABLE, "sides": _TABLES}
SIDE_FIELDS: dict[str, str] = {"name": _TEXT, "party": _YES_NO, "combatants": _TABLES}
COMBATANT_FIELDS: dict[str, str] = {
    "name": _TEXT,
    "hp": _WHOLE,
    "count": _WHOLE,
    "sheet": _TABLE,
    "notes": _TEXT,
    "hidden": _YES_NO,
}
"""What each field of an encounter file holds; the tests keep them in step with the Structs."""
FIELDS_OF: dict[type[msgspec.Struct], dict[str, str]] = {
    Encounter: ENCOUNTER_FIELDS,
    SideSpec: SIDE_FIELDS,
    CombatantSpec: COMBATANT_FIELDS,
}


def _did_you_mean(word: str, known: list[str]) -> list[str]:
    return difflib.get_close_matches(word, known, n=3, cutoff=0.6)


class _Checker:
    def __init__(self, path: Path, raw: dict[str, Any], lines: dict[KeyPath, int]) -> None:
        self.path = path
        self.raw = raw
        self.lines = lines
        self.problems: list[Problem] = []
        self.options: dict[str, str] = {}
        """The options' values as the ruleset knows them, by key, for those written as a label."""

    def add(self, where: KeyPath, owner: str, message: str, *, field: bool = False) -> None:
        """A mistake at ``where``; ``field``: in that one field, whose place in the structure is shown too."""
        self.problems.append(
            Problem(line=line_of(self.lines, where), where=owner, message=message, key=_dotted(where) if field else "")
        )

    def encounter(self) -> Encounter:
        self.fields((), "", self.raw, ENCOUNTER_FIELDS, required=("name",))
        sides = _tables(self.raw.get("sides"))
        for number, side in enumerate(sides):
            self.side(number, side)
        self.rules(sides)
        if self.problems:
            raise EncounterError(self.path, sorted(self.problems, key=lambda p: (p.line is None, p.line or 0)))
        try:
            encounter = msgspec.convert(self.raw, Encounter, strict=True)
        except msgspec.ValidationError as error:  # a case the checks above do not know yet
            raise EncounterError(
                self.path, [Problem(line=None, where="", message=validation_text(error, self.raw))]
            ) from None
        return msgspec.structs.replace(encounter, options={**encounter.options, **self.options})

    # -- names, kinds and ranges ------------------------------------------------------------------------
    def fields(
        self, where: KeyPath, owner: str, table: Mapping[str, Any], fields: dict[str, str], required: tuple[str, ...]
    ) -> None:
        for key, value in table.items():
            kind = fields.get(key)
            refused = control_problem(key)
            if refused is not None:  # (a quoted key may hold anything)
                self.add((*where, key), owner, refused, field=True)
                continue
            if kind != _TABLES:  # a list of tables has its fields checked table by table
                self.controls((*where, key), owner, value)
            if kind is None:
                close = _did_you_mean(key, list(fields))
                known = ", ".join(fields)
                if close:
                    message = _(
                        'unknown field "{field}" (did you mean "{close}"?); the fields here are: {known}.',
                        field=key,
                        close=close[0],
                        known=known,
                    )
                else:
                    message = _('unknown field "{field}"; the fields here are: {known}.', field=key, known=known)
                self.add((*where, key), owner, message, field=True)
            elif not _KINDS[kind](value):
                self.add(
                    (*where, key),
                    owner,
                    _('"{field}" must be {kind}, not {value}.', field=key, kind=_(kind), value=file_value(value)),
                    field=True,
                )
            elif kind == _TEXT and key == "name" and not value.strip():
                self.add((*where, key), owner, _('"{field}" cannot be empty.', field=key), field=True)
        for key in required:
            if key not in table:
                self.add(where, owner, _('"{field}" is missing.', field=key), field=bool(where))
        if where == () and isinstance(table.get("options"), dict):
            for key, value in table["options"].items():
                if not isinstance(value, str):
                    self.add(
                        ("options", key),
                        "",
                        _('the option "{field}" must be text, not {value}.', field=key, value=file_value(value)),
                    )

    def controls(self, where: KeyPath, owner: str, value: object) -> None:
        """Every text in ``value`` (a field's value, a table's keys and values, a list's items) that holds a
        control character, refused at its place: the file, the line and the character."""
        if isinstance(value, str):
            problem = control_problem(value, lines=bool(where) and where[-1] in MULTI_LINE_FIELDS)
            if problem is not None:
                self.add(where, owner, problem, field=True)
        elif isinstance(value, dict):
            for key, inner in value.items():
                refused = control_problem(key)
                if refused is not None:
                    self.add((*where, key), owner, refused, field=True)
                else:
                    self.controls((*where, key), owner, inner)
        elif isinstance(value, list):
            for index, inner in enumerate(value):
                self.controls((*where, index), owner, inner)

    def side(self, number: int, side: dict[str, Any]) -> None:
        where: KeyPath = ("sides", number)
        owner = side_owner(side.get("name"), number)
        self.fields(where, owner, side, SIDE_FIELDS, required=("name",))
        for index, spec in enumerate(_tables(side.get("combatants"))):
            at: KeyPath = (*where, "combatants", index)
            self.combatant(at, combatant_owner(owner, spec.get("name"), spec.get("count", 1), index), spec)

    def combatant(
        self, at: KeyPath, who: str, spec: Mapping[str, Any], fields: dict[str, str] = COMBATANT_FIELDS
    ) -> None:
        """One combatant (or group): its fields' names, kinds and ranges; not its sheet (see :meth:`sheet`).
        A field of the ruleset's sheet written beside ``name`` and ``hp`` is pointed to the sheet."""
        sheet_keys = self.sheet_keys()
        misplaced = {key for key in spec if key not in fields and key in sheet_keys}
        for key in sorted(misplaced):
            self.add(
                (*at, key),
                who,
                _(
                    '"{field}" belongs in the sheet: write it as sheet.{field} = … or under '
                    "a [sides.combatants.sheet] table.",
                    field=key,
                ),
                field=True,
            )
        self.fields(at, who, {k: v for k, v in spec.items() if k not in misplaced}, fields, required=("name", "hp"))
        hp, count = spec.get("hp"), spec.get("count", 1)
        if _whole(hp) and not 0 <= hp <= MAX_HP:
            self.add(
                (*at, "hp"), who, _('"hp" must be from 0 to {max}, not {value}.', max=MAX_HP, value=hp), field=True
            )
        if _whole(count) and not 1 <= count <= MAX_GROUP:
            self.add(
                (*at, "count"),
                who,
                _('"count" must be from 1 to {max}, not {value}.', max=MAX_GROUP, value=count),
                field=True,
            )

    def sheet_keys(self) -> frozenset[str]:
        """The fields of the file's ruleset's sheet (none when the ruleset is unknown)."""
        from tui_combat.engine.registry import get

        ruleset_id = self.raw.get("ruleset")
        try:
            return (
                frozenset(spec.key for spec in get(ruleset_id).sheet_fields)
                if isinstance(ruleset_id, str)
                else frozenset()
            )
        except RuleError:
            return frozenset()

    # -- what the rules say -----------------------------------------------------------------------------
    def rules(self, sides: list[dict[str, Any]]) -> None:
        """The ruleset, its options, the sides' names and the sheets, as far as each is written right
        (a wrong field was reported already; what can be read around it is still checked)."""
        from tui_combat.engine.registry import available, get

        ruleset_id = self.raw.get("ruleset")
        if ruleset_id is None:
            self.add(
                (),
                "",
                _(
                    '"ruleset" is missing: the file names its rules, one of: {known}.',
                    known=", ".join(_described(available())),
                ),
            )
            return
        if not isinstance(ruleset_id, str):
            return
        try:
            ruleset = get(ruleset_id)
        except RuleError as error:
            known = available()
            self.add(("ruleset",), "", _unknown_ruleset(ruleset_id, known) if ruleset_id not in known else str(error))
            return
        options = {option.key: option for option in fight_options(ruleset)}
        chosen = self.raw.get("options")
        for key, value in chosen.items() if isinstance(chosen, dict) else ():
            option = options.get(key)
            if option is None:
                if options:
                    message = _(
                        'There is no option "{key}" {in_ruleset}; its options are: {known}.',
                        in_ruleset=ruleset.in_ruleset(),
                        key=key,
                        known=", ".join(options),
                    )
                else:
                    message = _("There are no options {in_ruleset}.", in_ruleset=ruleset.in_ruleset())
                self.add(("options", key), "", message)
            elif isinstance(value, str):
                meant = option.values_written(value)
                labels = dict(option.choices)
                if len(meant) == 1:
                    self.options[key] = meant[0]  # a label in the GM's language, or its short form: the choice's value
                elif meant:
                    self.add(
                        ("options", key),
                        "",
                        _(
                            '"{value}" may be any of {known}: write which.',
                            value=value,
                            known=", ".join(f"{choice} ({_(labels[choice])})" for choice in meant),
                        ),
                    )
                else:
                    choices = ", ".join(f"{choice} ({_(label)})" for choice, label in option.choices)
                    self.add(
                        ("options", key),
                        "",
                        _(
                            '"{value}" is not a choice for {key}; the choices are: {known}.',
                            value=value,
                            key=key,
                            known=choices,
                        ),
                    )
        first_named: dict[str, int] = {}
        for number, side in enumerate(sides):
            name = side.get("name")
            if not isinstance(name, str) or not name.strip():
                continue
            earlier = first_named.setdefault(name.strip().casefold(), number)
            if earlier != number:
                self.add(
                    ("sides", number, "name"),
                    side_owner(name, number),
                    _(
                        "there is already a side called {name} (line {line}): give each side its own name.",
                        name=sides[earlier]["name"].strip(),
                        line=line_of(self.lines, ("sides", earlier, "name")) or "?",
                    ),
                )
        for number, side in enumerate(sides):
            for index, spec in enumerate(_tables(side.get("combatants"))):
                owner = combatant_owner(
                    side_owner(side.get("name"), number), spec.get("name"), spec.get("count", 1), index
                )
                self.sheet(ruleset, ("sides", number, "combatants", index), owner, spec)

    def sheet(self, ruleset: AnyRuleset, at: KeyPath, who: str, spec: Mapping[str, Any]) -> None:
        """The sheet of the combatant at ``at``, by the ruleset's own ``check_sheet``."""
        sheet = spec.get("sheet", {})
        if not isinstance(sheet, dict):
            return  # a wrong kind, reported with the fields
        try:
            ruleset.check_sheet(dict(sheet))
        except Mistakes as error:  # each on its own line: the field's, when the mistake names one
            for message in error.mistakes:
                self.add(_culprit((*at, "sheet"), sheet, message), who, message)
        except Exception as error:  # the rules are plugins: whatever they raise is a mistake in this sheet
            message = str(error) if isinstance(error, RuleError) else f"{type(error).__name__}: {error}"
            self.add(_culprit((*at, "sheet"), sheet, message), who, message)


FieldChecker = _Checker
"""The encounter file's checks, for other files made of the same tables (the combatant library): its
``fields``, ``combatant`` and ``sheet`` each add what is wrong to ``problems``."""


def _dotted(path: KeyPath) -> str:
    """``("sides", 1, "combatants", 0)`` as ``sides[1].combatants[0]``."""
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text


def _tables(value: object) -> list[dict[str, Any]]:
    """The tables of a list of tables; nothing when it is something else (reported as a wrong kind)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _described(known: list[str]) -> list[str]:
    """Each ruleset's id as a file writes it, with its name: "id (the ruleset's name)"."""
    from tui_combat.engine.registry import get

    described = []
    for other in known:
        try:
            described.append(f"{other} ({_(get(other).name)})")
        except RuleError:
            described.append(other)
    return described


def _unknown_ruleset(ruleset_id: str, known: list[str]) -> str:
    described = _described(known)
    close = _did_you_mean(ruleset_id, known)
    if close:
        return _(
            'unknown ruleset "{id}" (did you mean "{close}"?); the known ones are: {known}.',
            id=ruleset_id,
            close=close[0],
            known=", ".join(described),
        )
    return _('unknown ruleset "{id}"; the known ones are: {known}.', id=ruleset_id, known=", ".join(described))


def _culprit(sheet_at: KeyPath, sheet: Mapping[str, Any], message: str) -> KeyPath:
    """The sheet field a refusal is about, when exactly one field's value (or else name) appears in it;
    the sheet itself otherwise."""
    by_value = [
        key for key, value in sheet.items() if isinstance(value, str) and value.strip() and value.strip() in message
    ]
    by_name = [key for key in sheet if re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", message)]
    for found in (by_value, by_name):
        if len(found) == 1:
            return (*sheet_at, found[0])
    return sheet_at


def side_owner(name: object, number: int) -> str:
    if isinstance(name, str) and name.strip():
        return _("side {name}", name=name.strip())
    return _("side {number}", number=number + 1)


def combatant_owner(side: str, name: object, count: object, index: int) -> str:
    if not (isinstance(name, str) and name.strip()):
        return _("{side}, combatant {number}", side=side, number=index + 1)
    if isinstance(count, int) and not isinstance(count, bool) and count > 1:
        return _("{side}, group {name} ×{count}", side=side, name=name.strip(), count=count)
    return _("{side}, {name}", side=side, name=name.strip())
