"""Saving throws in Old-School Essentials / Dolmenwood: five of them, D W P B S (Dolmenwood's Doom, Ray, Hold,
Blast, Spell), by class and level; roll 1d20, the number or higher saves.

Where a combatant's numbers come from, the first that his sheet gives:

1. his own line, as a stat block prints it: ``saves = "D12 W13 P14 B15 S16"`` (Dolmenwood's letters D R H B S
   too; "SV" before it and the "(1)" after it may stay);
2. the class and level he saves as: ``save_as = "F1"`` ("MU5", "T1", "NH"; a bare number is a fighter's level);
3. his class and level (``cls``, ``level``): a character;
4. his Hit Dice (``hd``): a monster saves as a fighter of that level, its pluses left out, and one of less than
   one Hit Die as a normal human;
5. nothing: as a normal human, and the reason says so.

The tables are in the data file (``[saves]``), each with its source. Dolmenwood's own classes are not open
content: their saves are typed on the sheet.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from tui_combat.engine.errors import RuleError
from tui_combat.engine.messages import Msg
from tui_combat.engine.saves import SaveOdds
from tui_combat.i18n import N_, _, english_word
from tui_combat.rulesets.hit_dice import read_hit_dice
from tui_combat.rulesets.ose.data import tables
from tui_combat.rulesets.ose.state import Sheet

__all__ = [
    "CLASS_WORDS",
    "SAVE_IDS",
    "Five",
    "SaveLine",
    "class_name",
    "letters",
    "read_save_as",
    "read_save_line",
    "reckon_saves",
    "save_kinds",
    "save_odds_of",
    "saves_text",
]

SAVE_IDS: Final = ("death", "wands", "paralysis", "breath", "spells")
OSE_LABELS: Final = (
    N_("Death ray or poison"),
    N_("Magic wands"),
    N_("Paralysis or petrification"),
    N_("Breath attacks"),
    N_("Spells, rods or staves"),
)
DOLMENWOOD_LABELS: Final = (
    N_("Doom (death, poison)"),
    N_("Ray (wands)"),
    N_("Hold (paralysis)"),
    N_("Blast (breath)"),
    N_("Spell (spells, rods, staves)"),
)
"""Dolmenwood's names, with what OSE calls them (and so that "Hold" is not the word for waiting)."""
OSE_LETTERS: Final = "DWPBS"
DOLMENWOOD_LETTERS: Final = "DRHBS"
_LETTER_INDEX: Final = {"D": 0, "W": 1, "R": 1, "P": 2, "H": 2, "B": 3, "S": 4}

CLASS_WORDS: Final = (
    N_("cleric"),
    N_("dwarf"),
    N_("elf"),
    N_("fighter"),
    N_("halfling"),
    N_("magic-user"),
    N_("thief"),
    N_("normal human"),
)
"""The classes of the data file as shipped, marked for translation (a class the house rules add shows as written)."""

Five = tuple[int, int, int, int, int]


class SaveLine(NamedTuple):
    numbers: Five
    save_as: str
    """What the line says in parentheses after the numbers ("1", "NH", "T1"); "" for nothing."""


def save_kinds(dolmenwood: bool) -> tuple[tuple[str, str], ...]:
    return tuple(zip(SAVE_IDS, DOLMENWOOD_LABELS if dolmenwood else OSE_LABELS))


def letters(dolmenwood: bool) -> str:
    return DOLMENWOOD_LETTERS if dolmenwood else OSE_LETTERS


_PREFIX = re.compile(r"^\s*(?:sv|saves|save|saving\s+throws)\s*:?\s*", re.IGNORECASE)
_TAIL = re.compile(r"\(\s*([^()]*?)\s*\)\s*$")
_NUMBER = re.compile(r"([A-Za-z]?)\s*(\d+)")


def read_save_line(text: str) -> SaveLine | None:
    """``"SV D12 W13 P14 B15 S16 (1)"`` → the five numbers and what is in the parentheses; five bare numbers in
    order too. None for an empty text; :class:`RuleError` for anything else."""
    if not text.strip():
        return None
    body = _PREFIX.sub("", text)
    save_as = ""
    tail = _TAIL.search(body)
    if tail is not None:
        save_as, body = tail.group(1), body[: tail.start()]
    found = _NUMBER.findall(body)
    leftover = _NUMBER.sub("", body).replace(",", " ").replace(";", " ").strip()
    marked = [letter.upper() for letter, _number in found if letter]
    numbers: list[int] = [0] * 5
    good = len(found) == 5 and not leftover and all(1 <= int(number) <= 20 for _letter, number in found)
    if good and len(marked) == 5:
        places = [_LETTER_INDEX.get(letter, -1) for letter in marked]
        good = sorted(places) == [0, 1, 2, 3, 4]
        for place, (_letter, number) in zip(places, found):
            numbers[place] = int(number)
    elif good and not marked:
        numbers = [int(number) for _letter, number in found]
    else:
        good = False
    if not good:
        raise RuleError(
            _(
                'Saving throws "{text}": five numbers as a stat block gives them, such as "D12 W13 P14 '
                'B15 S16" (Dolmenwood: "D12 R13 H14 B15 S16").',
                text=text.strip(),
            )
        )
    if save_as:
        read_save_as(save_as)
    return SaveLine(numbers=(numbers[0], numbers[1], numbers[2], numbers[3], numbers[4]), save_as=save_as)


def class_name(written: str) -> str | None:
    """The data file's class for a class written in any language of the interface ("Боєць" → "fighter")."""
    return english_word(written, tuple(tables().saves.classes))


_SAVE_AS = re.compile(r"^\s*\(?\s*([^\d()]*?)\s*:?\s*(\d*)\s*\)?\s*$")


def read_save_as(text: str) -> tuple[str, int] | None:
    """``"F1"`` → ("fighter", 1); ``"MU5"``, ``"T1"``, ``"NH"`` (a normal human, level 0), ``"1"`` (a fighter's
    level), ``"fighter 3"``; None for an empty text; :class:`RuleError` for anything else."""
    if not text.strip():
        return None
    data = tables().saves
    match = _SAVE_AS.match(text)
    cls: str | None = None
    level = 0
    if match is not None:
        word, number = match.group(1), match.group(2)
        cls = data.letters.get(word.upper()) if word else (data.monsters_as if number else None)
        if cls is None and word:
            cls = class_name(word)
        level = int(number) if number else 0
        if cls is not None and not number and data.classes[cls][0][0] > 0:
            cls = None  # a class of levels needs its level ("F" alone says nothing)
    if cls is None:
        raise RuleError(
            _(
                'Save as "{text}": a class letter and a level, such as F1, MU5, T1, or NH for a normal '
                "human ({letters}).",
                text=text.strip(),
                letters=", ".join(data.letters),
            )
        )
    return cls, level


def _row(cls: str, level: int) -> Five:
    rows = tables().saves.classes[cls]
    chosen = rows[0]
    for row in rows:
        if level >= row[0]:
            chosen = row
    return (chosen[1], chosen[2], chosen[3], chosen[4], chosen[5])


def _as(cls: str, level: int) -> Msg:
    return (
        Msg(id=N_("as {cls} {level}"), params={"cls": Msg(id=cls), "level": level})
        if level
        else Msg(id=N_("as {cls}"), params={"cls": Msg(id=cls)})
    )


def reckon_saves(sheet: Sheet) -> tuple[Five, tuple[Msg, ...]]:
    """His five numbers (D W P B S) and why. Raises :class:`RuleError` for a sheet whose line cannot be read."""
    data = tables().saves
    line = read_save_line(sheet.saves)
    if line is not None:
        return line.numbers, (Msg(id=N_("his own saving throws")),)
    save_as = read_save_as(sheet.save_as)
    if save_as is not None:
        return _row(*save_as), (_as(*save_as),)
    if sheet.cls:
        cls = class_name(sheet.cls)
        if cls is None:
            raise RuleError(
                _(
                    'Class "{cls}" is not one of {known}.',
                    cls=sheet.cls,
                    known=", ".join(_(word) for word in data.classes),
                )
            )
        return _row(cls, sheet.level), (_as(cls, sheet.level),)
    if sheet.hd.strip():
        dice = read_hit_dice(sheet.hd)
        if dice.below_one():
            return _row(data.below_one_die, 0), (
                Msg(id=N_("{as}: less than one Hit Die"), params={"as": _as(data.below_one_die, 0)}),
            )
        return _row(data.monsters_as, dice.dice), (
            Msg(id=N_("{as}: {hd} Hit Dice"), params={"as": _as(data.monsters_as, dice.dice), "hd": sheet.hd.strip()}),
        )
    return _row(data.below_one_die, 0), (
        Msg(id=N_("{as}: nothing on the sheet says otherwise"), params={"as": _as(data.below_one_die, 0)}),
    )


def save_odds_of(sheet: Sheet, kind: str, dolmenwood: bool) -> SaveOdds:
    if kind not in SAVE_IDS:
        raise RuleError(
            _(
                '"{kind}" is not a saving throw of these rules: {known}.',
                kind=kind,
                known=", ".join(_(label) for _id, label in save_kinds(dolmenwood)),
            )
        )
    numbers, reasons = reckon_saves(sheet)
    return SaveOdds(kind=kind, needed=numbers[SAVE_IDS.index(kind)], reasons=reasons)


def saves_text(sheet: Sheet, dolmenwood: bool) -> str:
    """ "D12 W13 P14 B15 S16" (Dolmenwood's letters under its rules), as the card shows them."""
    numbers, _reasons = reckon_saves(sheet)
    return " ".join(f"{letter}{number}" for letter, number in zip(letters(dolmenwood), numbers))
