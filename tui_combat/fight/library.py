"""The GM's combatant library and the rulesets' starter bestiaries: creatures and characters kept between fights.

Each ruleset has a library in the user's data folder, ``library/<ruleset>.toml`` (Player's Option shares
``adnd2e.toml``: the same stat blocks), that the GM may edit by
hand, and a starter bestiary shipped with the app (``rulesets/data/bestiary/<ruleset>.toml``). Both are
lists of entries written as an encounter file writes a combatant or a group::

    [[combatants]]
    name = "Orc"
    hp = 5
    count = 6                         # a group: Orc 1 … Orc 6 (a number typed when adding wins)
    aliases = ["орк"]                 # other names to find it by, in any language
    notes = "Hates the sun."
    sheet = { cls = "monster", level = 1, ac = 6, weapon = "long sword" }

An entry without ``hp`` whose rules roll a monster's hit points from its sheet (AD&D's and OSE's Hit Dice:
:meth:`~tui_combat.engine.saves.SavingRules.hit_point_dice`) has each member's rolled when it is added, with the
app's dice, as the book does; the GM may type a figure instead. The starter bestiaries of those rules leave
``hp`` out.

A name is looked up in the library first, then in the bestiary; case, spacing and ё/е do not matter, and a
bestiary entry is also found by its name in the GM's language and by its aliases ("5 орк"). It is added under its
name in the GM's language, its attacks too: the starter bestiary's names are in the catalogs, the SRD bestiary's
in names files beside it (:mod:`tui_combat.rulesets.bestiary_names`), found by their names in every language. An
entry with a mistake is left out and reported with its file, line and what the field should hold; the others still
serve. Saving writes the one entry into the library (replacing an entry of the same name), atomically and
private (0600), keeping the GM's other entries and comments as they are.
"""

from __future__ import annotations

import random
import re
import textwrap
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

import msgspec

from tui_combat.engine import actions as a
from tui_combat.engine.contract import AnyRuleset, FieldSpec, shown_value
from tui_combat.engine.dice import DiceError, parse, roll
from tui_combat.engine.encounter import COMBATANT_FIELDS, KIND_TABLES, KIND_TEXTS, FieldChecker, Problem
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.engine.toml_lines import KeyPath, key_lines, line_of
from tui_combat.i18n import N_, _, language
from tui_combat.i18n.os_words import os_error_text
from tui_combat.rulesets.bestiary_names import Names, read_names, translated_attacks
from tui_combat.rulesets.names import name_key
from tui_combat.settings import toml_read
from tui_combat.settings.toml_write import TomlWriteError, key, table_lines

__all__ = [
    "BESTIARY_DIR",
    "Entry",
    "Finder",
    "Library",
    "LibraryError",
    "base_name",
    "default_side",
    "entry_action",
    "entry_from_state",
    "library_id",
    "library_path",
    "parse_count",
    "read_library",
    "rolled_hps",
    "save_entry",
    "srd_path",
    "with_entry",
]

BESTIARY_DIR = Path(__file__).resolve().parents[1] / "rulesets" / "data" / "bestiary"
SRD_DIR = Path(__file__).resolve().parents[1] / "rulesets" / "data" / "srd"
LIBRARY_FOLDER = "library"
ENTRY_FIELDS: dict[str, str] = {**COMBATANT_FIELDS, "aliases": KIND_TEXTS}
"""What an entry holds: an encounter file's combatant, and other names to find it by."""
FILE_FIELDS: dict[str, str] = {"combatants": KIND_TABLES}

Source = Literal["library", "bestiary"]
_NUMBERED = re.compile(r"^(.*\S)\s+(\d+)$")
_COUNTED = re.compile(r"^\s*([0-9]{1,6})\s*[x×]?\s+(\S.*)$")
_RULESET_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")


class LibraryError(Exception):
    """The library could not be read or written; ``str()`` is for the GM."""


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    hp: int
    """Each member's hit points; for an entry whose are rolled (``hp_dice``), the dice's average."""
    hp_dice: str = ""
    """The dice each member's hit points are rolled with when the entry gives none ("6d8+6"); "" when it does."""
    ruleset: str = ""
    """The rules the entry was read for ("" when not read from a file)."""
    count: int = 1
    sheet: dict[str, Any] = msgspec.field(default_factory=dict)
    notes: str = ""
    aliases: tuple[str, ...] = ()
    source: Source = "library"
    line: int | None = None
    """Where the entry begins in its file."""
    translated: tuple[tuple[str, str], ...] = ()
    """(language, name): its names in other languages, from its bestiary's names files."""
    translated_attacks: tuple[tuple[str, str], ...] = ()
    """(language, attack list): its sheet's ``attack_list`` with the attacks' names in that language."""
    translated_multiattack: tuple[tuple[str, str], ...] = ()
    """(language, words): its sheet's ``multiattack`` in that language."""

    def shown_name(self) -> str:
        """The name in the GM's language: a bestiary's names are translated, the GM's own are his."""
        if self.source != "bestiary":
            return self.name
        return dict(self.translated).get(language()) or _(self.name)

    def shown_notes(self) -> str:
        return (_(self.notes) if self.source == "bestiary" else self.notes) if self.notes else ""

    def shown_sheet(self) -> dict[str, Any]:
        """The sheet as a fight in the GM's language takes it: a bestiary's attacks under their names there, its
        Multiattack in its words."""
        sheet = dict(self.sheet)
        attacks = dict(self.translated_attacks).get(language())
        if attacks:
            sheet["attack_list"] = attacks
        multiattack = dict(self.translated_multiattack).get(language())
        if multiattack:
            sheet["multiattack"] = multiattack
        return sheet

    def names(self) -> list[str]:
        """Every name it is found by, as compared (:func:`~tui_combat.rulesets.names.name_key`): its own, its
        names in every language, its aliases."""
        found = [
            name_key(self.name),
            name_key(self.shown_name()),
            *(name_key(name) for _language, name in self.translated),
            *(name_key(alias) for alias in self.aliases),
        ]
        return list(dict.fromkeys(name for name in found if name))

    def label(self) -> str:
        """ "Orc ×6" for a group, "Orc" for one."""
        return f"{self.shown_name()} ×{self.count}" if self.count > 1 else self.shown_name()

    def shown_hp(self) -> str:
        """Its hit points as the GM reads them: "5", or the dice they are rolled with, "1d8 (rolled)"."""
        return _("{dice} (rolled)", dice=self.hp_dice) if self.hp_dice else str(self.hp)


class Library(msgspec.Struct, frozen=True, kw_only=True):
    """One file's entries: those without a mistake, and every mistake, one line each (``FILE, line N: …``)."""

    path: Path
    entries: tuple[Entry, ...] = ()
    problems: tuple[str, ...] = ()


# -- where ------------------------------------------------------------------------------------------------
def library_id(ruleset_id: str) -> str:
    """Whose library a ruleset keeps its GM's entries in: its own, or the one it shares (Player's Option
    shares AD&D 2e's: the same stat blocks)."""
    from tui_combat.engine.registry import get

    try:
        return get(ruleset_id).library or ruleset_id
    except RuleError:
        return ruleset_id


def library_path(data_root: Path, ruleset_id: str) -> Path:
    """The GM's library of a ruleset, in the data folder (the shared one's file for a ruleset that shares)."""
    if not _RULESET_ID.fullmatch(ruleset_id):
        raise LibraryError(_('"{id}" cannot name a library file.', id=ruleset_id))
    return data_root / LIBRARY_FOLDER / f"{library_id(ruleset_id)}.toml"


def _sharers_keys(ruleset_id: str) -> frozenset[str]:
    """The sheet keys that the other rulesets sharing ``ruleset_id``'s library write and it does not know
    (Player's Option's movement rate in an AD&D 2e fight): left out when it reads an entry."""
    from tui_combat.engine.registry import available, get

    shared = library_id(ruleset_id)
    own = {spec.key for spec in get(ruleset_id).sheet_fields}
    theirs: set[str] = set()
    for other in available():
        if other != ruleset_id and library_id(other) == shared:
            theirs.update(spec.key for spec in get(other).sheet_fields)
    return frozenset(theirs - own)


def bestiary_path(ruleset_id: str) -> Path:
    return BESTIARY_DIR / f"{ruleset_id}.toml"


def srd_path(ruleset_id: str) -> Path:
    """A ruleset's whole open bestiary, generated from a System Reference Document (5e: tools/build_srd_bestiary.py)."""
    return SRD_DIR / f"{ruleset_id}.toml"


# -- reading ----------------------------------------------------------------------------------------------
def read_library(path: Path, ruleset_id: str, source: Source = "library") -> Library:
    """The entries of ``path`` (none when it does not exist), each checked as an encounter's combatant is,
    its sheet by the ruleset's own check."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Library(path=path)
    except OSError as error:
        return Library(path=path, problems=(_("Cannot read {path}: {error}", path=path, error=os_error_text(error)),))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return Library(path=path, problems=(_("{path} is not UTF-8 text.", path=path),))
    try:
        raw = toml_read.loads(text)
    except tomllib.TOMLDecodeError as error:
        return Library(
            path=path,
            problems=(
                Problem(
                    line=_toml_error_line(error, text),
                    where="",
                    message=_("this is not valid TOML: {error}.", error=_toml_error_reason(error)),
                ).text(path),
            ),
        )
    return _checked(path, raw, key_lines(text), ruleset_id, source)


def _toml_error_line(error: tomllib.TOMLDecodeError, text: str) -> int:
    line = toml_read.translated(error).line
    return line if line is not None else text.count("\n") + 1


def _toml_error_reason(error: tomllib.TOMLDecodeError) -> str:
    return toml_read.translated(error).reason


def _checked(path: Path, raw: dict[str, Any], lines: dict[KeyPath, int], ruleset_id: str, source: Source) -> Library:
    from tui_combat.engine.registry import get

    checker = FieldChecker(path, raw, lines)
    checker.fields((), "", raw, FILE_FIELDS, required=())
    try:
        ruleset = get(ruleset_id)
    except RuleError as error:
        checker.problems.append(Problem(line=None, where="", message=str(error)))
        ruleset = None
    entries: list[Entry] = []
    first_of: dict[str, int] = {}
    specs = raw.get("combatants")
    theirs = _sharers_keys(ruleset_id) if ruleset is not None and source == "library" else frozenset()
    for index, spec in enumerate(specs if isinstance(specs, list) else []):
        if not isinstance(spec, dict):
            continue  # a wrong kind, reported with the file's fields
        if theirs and isinstance(spec.get("sheet"), dict):
            spec = {**spec, "sheet": {k: v for k, v in spec["sheet"].items() if k not in theirs}}
        at: KeyPath = ("combatants", index)
        who = _owner(spec.get("name"), index)
        before = len(checker.problems)
        dice = _hit_point_dice(ruleset, spec)
        if dice:  # no hp: each member's are rolled from the Hit Dice, the average stands for them in the checks
            spec = {**spec, "hp": _average(dice)}
        checker.combatant(at, who, spec, ENTRY_FIELDS)
        if ruleset is not None:
            checker.sheet(ruleset, at, who, spec)
        name = spec.get("name")
        if isinstance(name, str) and name.strip():
            earlier = first_of.setdefault(name_key(name), index)
            if earlier != index:
                checker.add(
                    (*at, "name"),
                    who,
                    _(
                        "there is already an entry called {name} (line {line}): this one is not used.",
                        name=name.strip(),
                        line=line_of(lines, ("combatants", earlier)) or "?",
                    ),
                )
        if len(checker.problems) == before:
            entries.append(
                Entry(
                    name=spec["name"].strip(),
                    hp=spec["hp"],
                    hp_dice=dice,
                    ruleset=ruleset_id,
                    count=spec.get("count", 1),
                    sheet=dict(spec.get("sheet", {})),
                    notes=spec.get("notes", ""),
                    aliases=tuple(spec.get("aliases", ())),
                    source=source,
                    line=line_of(lines, at),
                )
            )
    problems = sorted(checker.problems, key=lambda p: (p.line is None, p.line or 0))
    return Library(path=path, entries=tuple(entries), problems=tuple(problem.text(path) for problem in problems))


def _hit_point_dice(ruleset: AnyRuleset | None, spec: Mapping[str, Any]) -> str:
    """The dice an entry without ``hp`` rolls each member's with ("" when it has hp, or its rules roll none)."""
    sheet = spec.get("sheet", {})
    if ruleset is None or "hp" in spec or not isinstance(sheet, dict):
        return ""
    dice = ruleset.hit_point_dice(sheet)
    try:
        parse(dice)
    except DiceError:
        return ""
    return dice


def _average(dice: str) -> int:
    """The average of a roll of ``dice``, rounded down, at least 1 ("6d8+6" → 33, "1d8-1" → 3)."""
    parsed = parse(dice)
    return max((parsed.min_total + (parsed.max_total or parsed.min_total)) // 2, 1)


def rolled_hps(dice: str, count: int, rng: random.Random) -> tuple[int, ...]:
    """Each of ``count`` members' hit points rolled with ``dice`` (the app's ``rng``), at least 1 each."""
    return tuple(max(roll(dice, rng).total, 1) for _member in range(count))


def _owner(name: object, index: int) -> str:
    if isinstance(name, str) and name.strip():
        return _("entry {name}", name=name.strip())
    return _("entry {number}", number=index + 1)


_bestiaries: dict[str, Library] = {}


def read_bestiary(ruleset_id: str) -> Library:
    """The starter bestiary shipped for a ruleset, then the monsters of its SRD file that the starter one does
    not have by name (read once; none for a ruleset that has none)."""
    cached = _bestiaries.get(ruleset_id)
    if cached is None:
        if not _RULESET_ID.fullmatch(ruleset_id):
            return Library(path=BESTIARY_DIR)
        starter = read_library(bestiary_path(ruleset_id), ruleset_id, "bestiary")
        srd = read_library(srd_path(ruleset_id), ruleset_id, "bestiary")
        names, unread = read_names(SRD_DIR, ruleset_id)
        translated = [_with_names(entry, names) for entry in srd.entries]
        taken = {name for entry in starter.entries for name in entry.names()}
        more = tuple(entry for entry in translated if not taken.intersection(entry.names()))
        cached = _bestiaries[ruleset_id] = Library(
            path=starter.path, entries=starter.entries + more, problems=starter.problems + srd.problems + tuple(unread)
        )
    return cached


def _with_names(entry: Entry, names: Mapping[str, Names]) -> Entry:
    """``entry`` with its names, its attacks' and its Multiattack's words in the languages of ``names``."""
    attacks = entry.sheet.get("attack_list")
    return msgspec.structs.replace(
        entry,
        translated=tuple(
            (lang, shown.monsters[entry.name]) for lang, shown in names.items() if entry.name in shown.monsters
        ),
        translated_attacks=tuple(
            (lang, translated_attacks(attacks, shown.attacks))
            for lang, shown in names.items()
            if isinstance(attacks, str) and shown.attacks
        ),
        translated_multiattack=tuple(
            (lang, shown.multiattack[entry.name])
            for lang, shown in names.items()
            if entry.sheet.get("multiattack") and entry.name in shown.multiattack
        ),
    )


class Finder:
    """The library and the bestiary of one ruleset, read once: what the add form and the picker look in."""

    def __init__(self, library: Library, bestiary: Library) -> None:
        self.library = library
        self.bestiary = bestiary
        self.entries: tuple[Entry, ...] = (*library.entries, *bestiary.entries)
        by_name = {name_key(entry.name): entry for entry in reversed(bestiary.entries)}
        self._names: list[list[str]] = []
        for entry in self.entries:
            names = entry.names()
            shadowed = by_name.get(name_key(entry.name)) if entry.source == "library" else None
            if shadowed is not None:  # the GM's own Orc is found by every name of the bestiary's
                names = list(dict.fromkeys([*names, *shadowed.names()]))
            self._names.append(names)

    @classmethod
    def load(cls, data_root: Path, ruleset_id: str) -> Finder:
        try:
            library = read_library(library_path(data_root, ruleset_id), ruleset_id)
        except LibraryError as error:
            library = Library(path=data_root / LIBRARY_FOLDER, problems=(str(error),))
        own = data_root / LIBRARY_FOLDER / f"{ruleset_id}.toml"
        if own != library.path and _RULESET_ID.fullmatch(ruleset_id) and own.is_file():
            # A library of its own, kept from before it shared one: its entries still serve, after the shared ones.
            earlier = read_library(own, ruleset_id)
            taken = {name_key(entry.name) for entry in library.entries}
            library = Library(
                path=library.path,
                problems=library.problems + earlier.problems,
                entries=(*library.entries, *(entry for entry in earlier.entries if name_key(entry.name) not in taken)),
            )
        return cls(library, read_bestiary(ruleset_id))

    @property
    def problems(self) -> tuple[str, ...]:
        """What is wrong in the GM's library (the bestiary has nothing wrong: the tests see to it)."""
        return self.library.problems + self.bestiary.problems

    def find(self, name: str) -> Entry | None:
        """The entry called ``name`` (or that has it as an alias): the library's first, then the bestiary's."""
        wanted = name_key(name)
        if not wanted:
            return None
        return next((entry for entry, names in zip(self.entries, self._names) if wanted in names), None)

    def search(self, query: str) -> list[Entry]:
        """The entries whose name or an alias holds ``query``, those that begin with it first; the library's
        before the bestiary's. Every entry for an empty query."""
        wanted = name_key(query)
        if not wanted:
            return list(self.entries)
        ranked: list[tuple[int, int, Entry]] = []
        for position, (entry, names) in enumerate(zip(self.entries, self._names)):
            if any(name.startswith(wanted) for name in names):
                ranked.append((0, position, entry))
            elif any(wanted in name for name in names):
                ranked.append((1, position, entry))
        return [entry for _rank, _position, entry in sorted(ranked, key=lambda item: item[:2])]


# -- a fight and an entry ---------------------------------------------------------------------------------
def parse_count(text: str) -> tuple[int | None, str]:
    """``"5 orc"`` → ``(5, "orc")``; ``"orc"`` → ``(None, "orc")`` (no count typed)."""
    match = _COUNTED.match(text)
    if match is None:
        return None, text.strip()
    return int(match.group(1)), match.group(2).strip()


def base_name(name: str) -> str:
    """ "Orc 3" → "Orc": the name a numbered member of a group was given from."""
    match = _NUMBERED.match(name.strip())
    return match.group(1) if match else name.strip()


def entry_from_state(state: State, combatant_id: str, *, whole_group: bool = True, name: str | None = None) -> Entry:
    """An entry for the combatant ``combatant_id`` (with ``whole_group``, his whole group: its size is the
    entry's count): his full HP, sheet and notes, under ``name`` (by default his, without a group number)."""
    combatant = state.combatant(combatant_id)
    members = (
        [c for c in state.combatants if c.group == combatant.group] if combatant.group and whole_group else [combatant]
    )
    default = base_name(combatant.name) if combatant.group else combatant.name
    return Entry(
        name=(name if name is not None else default).strip(),
        hp=combatant.max_hp,
        count=len(members),
        sheet=dict(combatant.sheet),
        notes=combatant.notes,
    )


def default_side(state: State, side: str | None) -> str:
    """The side a newcomer from the library (or a pasted stat block) joins unless the GM chooses another: the
    one asked for when it is not the party's, else the first side that is not the party's (an ogre from the
    bestiary never joins the party for the row under the cursor), else the first."""
    if side is not None and any(s.id == side and not s.is_party for s in state.sides):
        return side
    return next((s.id for s in state.sides if not s.is_party), state.sides[0].id)


def entry_action(
    entry: Entry,
    side: str,
    *,
    name: str | None = None,
    count: int | None = None,
    hp: int | None = None,
    sheet: Mapping[str, Any] | None = None,
    rng: random.Random | None = None,
) -> a.AddCombatants:
    """The action that adds ``entry`` to ``side``: what the GM typed (a name, a count, HP, sheet fields)
    over the entry's own. An entry whose hit points are rolled (``hp_dice``) has each member's rolled with
    ``rng``, the app's dice (from the Hit Dice of the sheet as the GM left it), unless he typed a figure; without
    ``rng`` each has the average."""
    many = entry.count if count is None else count
    merged = {**entry.shown_sheet(), **(sheet or {})}
    hps: tuple[int, ...] = ()
    if hp is None and entry.hp_dice and rng is not None:
        dice = entry.hp_dice
        if sheet and entry.ruleset:
            from tui_combat.engine.registry import get

            dice = _hit_point_dice(get(entry.ruleset), {"sheet": merged}) or dice
        hps = rolled_hps(dice, many, rng)
    return a.AddCombatants(
        side=side,
        name=name or entry.shown_name(),
        hp=hps[0] if hps else entry.hp if hp is None else hp,
        count=many,
        sheet=merged,
        notes=entry.shown_notes(),
        hps=hps,
    )


# -- writing ----------------------------------------------------------------------------------------------
def entry_table(entry: Entry) -> dict[str, Any]:
    """The entry as its file holds it (what is at its default left out)."""
    table: dict[str, Any] = {"name": entry.name} if entry.hp_dice else {"name": entry.name, "hp": entry.hp}
    if entry.count != 1:
        table["count"] = entry.count
    if entry.aliases:
        table["aliases"] = list(entry.aliases)
    if entry.notes:
        table["notes"] = entry.notes
    if entry.sheet:
        table["sheet"] = {name: item for name, item in entry.sheet.items() if item is not None}
    return table


def _block(table: Mapping[str, Any]) -> str:
    return "\n".join(["[[combatants]]", *table_lines(table.items())]) + "\n"


def _header(ruleset_id: str) -> str:
    from tui_combat.fight.session import ruleset_label

    words = _(
        "The combatant library of {ruleset}: creatures and characters to add to any fight of this ruleset. "
        "Each [[combatants]] is one entry, written as in an encounter file (name, hp, count, sheet, notes), "
        "with aliases: other names to find it by. Edit it freely; tui-combat adds an entry at the end, or "
        "replaces the one of the same name, and leaves the rest of the file as it is.",
        ruleset=ruleset_label(ruleset_id),
    )
    return "".join(f"# {line}\n" for line in textwrap.wrap(words, 100))


def with_entry(text: str, entry: Entry, ruleset_id: str) -> str:
    """The library's text with ``entry`` in it: in place of the first entry of the same name, else at the
    end. The rest of the text stays as it was; when the file is written in a way this cannot follow (the
    entries in one inline list), it is written anew with every entry it had. Raises :class:`LibraryError`
    when the text is not TOML (nothing is written then: the GM fixes it first)."""
    try:
        table = entry_table(entry)
        block = _block(table)
    except TomlWriteError as error:
        raise LibraryError(_("Cannot save {name}: {error}", name=entry.name, error=error)) from None
    if not text.strip():
        return _header(library_id(ruleset_id)) + "\n" + block
    try:
        raw = toml_read.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LibraryError(
            _(
                "Line {line} of the library is not valid TOML ({error}): fix it first, nothing was written.",
                line=_toml_error_line(error, text),
                error=_toml_error_reason(error),
            )
        ) from None
    existing = raw.get("combatants", [])
    if not isinstance(existing, list) or not all(isinstance(item, dict) for item in existing):
        raise LibraryError(_('"combatants" in the library is not a list of tables: fix it first, nothing was written.'))
    index = next(
        (
            i
            for i, item in enumerate(existing)
            if isinstance(item.get("name"), str) and name_key(item["name"]) == name_key(entry.name)
        ),
        None,
    )
    expected_entries = list(existing)
    if index is None:
        expected_entries.append(table)
        candidate: str | None = text + ("" if text.endswith("\n") else "\n") + "\n" + block
    else:
        expected_entries[index] = table
        candidate = _replaced(text, index, block)
    expected = {**raw, "combatants": expected_entries}
    if candidate is not None and _reads_as(candidate, expected):
        return candidate
    rewritten = _document(expected)  # comments are lost, entries never
    if not _reads_as(rewritten, expected):
        raise LibraryError(
            _("Cannot save {name}: the library could not be written back as it was read.", name=entry.name)
        )
    return rewritten


def _reads_as(text: str, expected: Mapping[str, Any]) -> bool:
    try:
        return toml_read.loads(text) == expected
    except tomllib.TOMLDecodeError:
        return False


_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]*?)\s*\]")


def _replaced(text: str, index: int, block: str) -> str | None:
    """``text`` with the ``[[combatants]]`` table number ``index`` (and its sub-tables) replaced by ``block``;
    None when the entry is not written as such a table. Comments and blank lines after it stay: they
    belong to what follows."""
    start = key_lines(text).get(("combatants", index))
    lines = text.splitlines(keepends=True)
    if start is None or not lines[start - 1].lstrip().startswith("[["):
        return None
    end = len(lines)
    for number in range(start, len(lines)):
        found = _HEADER.match(lines[number])
        if found is not None:
            path = found.group(1).replace(" ", "")
            if path == "combatants" or not path.startswith("combatants."):
                end = number
                break
    while end > start and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return "".join([*lines[: start - 1], block, *lines[end:]])


def _document(data: Mapping[str, Any]) -> str:
    """A whole TOML document: plain values first, then tables, then lists of tables."""
    plain = [(name, item) for name, item in data.items() if not isinstance(item, dict) and not _is_tables(item)]
    parts = ["\n".join(table_lines(plain))] if plain else []
    for name, item in data.items():
        if isinstance(item, dict):
            parts.append("\n".join([f"[{key(name)}]", *table_lines(item.items())]))
    for name, item in data.items():
        if _is_tables(item):
            for table in item:
                parts.append("\n".join([f"[[{key(name)}]]", *table_lines(table.items())]))
    return "\n\n".join(part for part in parts if part) + "\n"


def _is_tables(item: object) -> bool:
    return isinstance(item, list) and bool(item) and all(isinstance(inner, dict) for inner in item)


def save_entry(data_root: Path, ruleset_id: str, entry: Entry) -> Path:
    """Write ``entry`` into the GM's library of ``ruleset_id`` (replacing an entry of the same name): the
    file is replaced atomically, private to the user. Returns its path; raises :class:`LibraryError`."""
    from tui_combat.saves.errors import SaveError
    from tui_combat.saves.files import Folder

    if not entry.name.strip():
        raise LibraryError(_("A library entry needs a name."))
    from tui_combat.engine.text import value_problem

    problem = (
        value_problem(entry.name, "name")
        or value_problem(entry.sheet, "sheet")
        or value_problem(entry.notes, "notes")
        or value_problem(list(entry.aliases), "aliases")
    )
    if problem is not None:  # the file would refuse it when read back
        raise LibraryError(problem)
    path = library_path(data_root, ruleset_id)
    try:
        folder = Folder.open(path.parent, create=True)
    except SaveError as error:
        raise LibraryError(str(error)) from None
    try:
        data = folder.read(path.name)
        try:
            text = data.decode("utf-8") if data else ""
        except UnicodeDecodeError:
            raise LibraryError(_("{path} is not UTF-8 text.", path=path)) from None
        folder.write_atomic(path.name, with_entry(text, entry, ruleset_id).encode("utf-8"))
    except OSError as error:
        raise LibraryError(_("Cannot write {path}: {error}", path=path, error=os_error_text(error))) from None
    finally:
        folder.close()
    return path


def summary(
    entry: Entry,
    fields: Iterable[FieldSpec],
    health_label: str = N_("HP"),
    shown_sheet_value: Callable[[FieldSpec, object], str] = shown_value,
) -> str:
    """The entry's health and sheet as the GM reads them ("HP 5 · Class monster · AC 6"; Trudvang "BP 12"),
    field labels translated; ``health_label``: the ruleset's word for health (a message id); ``shown_sheet_value``:
    the ruleset's way of saying a value (:meth:`~tui_combat.engine.contract.Ruleset.shown_sheet_value`)."""
    parts = [f"{_(health_label)} {entry.shown_hp()}"]
    sheet = entry.shown_sheet()
    for spec in fields:
        if spec.key in sheet:
            shown = shown_sheet_value(spec, sheet[spec.key])
            if shown:
                parts.append(f"{_(spec.label)} {shown}")
    return " · ".join(parts)
