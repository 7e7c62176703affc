"""What the short stat blocks (OSE's one line, AD&D 2e's stat line) say beyond their armour, Hit Dice and attacks,
as the rulesets' sheets hold it: how many the line is for ("2 ogres", "Ogre (1)"), and the saving throws it prints
(OSE's "SV D12 W13 P14 B15 S16 (1)", Dolmenwood's "Saves D12 R13 H14 B15 S16", a translation's "РК С14 Ч15 П16 Д17
З18"; an AD&D monster's own five numbers). Every search here is bounded: the reading stays linear
(:mod:`tui_combat.fight.statblock`)."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from tui_combat.engine.errors import RuleError
from tui_combat.i18n import N_
from tui_combat.rulesets.adnd2e.save_text import own_saves
from tui_combat.rulesets.ose.saves import DOLMENWOOD_LETTERS, OSE_LETTERS, read_save_as, read_save_line

__all__ = ["OseSaves", "adnd_fields", "adnd_saves", "counted_name", "ose_fields", "ose_saves"]

_LEADING_COUNT = re.compile(r"(\d{1,3})\s*[x×]?\s+([^\W\d_].{0,80})")
_TRAILING_COUNT = re.compile(r"([^\W\d_].{0,80}?)\s*(?:\(\s*(\d{1,3})\s*\)|[x×]\s*(\d{1,3}))")
_SINGULAR_IE = frozenset({"zombies", "pixies", "bogies", "kelpies", "coteries"})


def counted_name(name: str) -> tuple[str, int | None]:
    """A stat line's name without the number it gives ("2 ogres", "Ogre (1)", "Ogres (3)", "Orc ×4"): the name,
    an English plural made singular ("Ogre"), and the number; (name, None) when it gives none. A translation's
    name is kept as printed ("2 огра": "Огра"), its first letter a capital."""
    name = name.strip()
    leading = _LEADING_COUNT.fullmatch(name)
    trailing = None if leading else _TRAILING_COUNT.fullmatch(name)
    if leading is not None:
        count, name = int(leading.group(1)), leading.group(2).strip()
    elif trailing is not None:
        count, name = int(trailing.group(2) or trailing.group(3)), trailing.group(1).strip()
    else:
        return name, None
    if count < 1:
        return name, None
    if count > 1 and name.isascii():
        name = _singular(name)
    return name[:1].upper() + name[1:], count


def _singular(name: str) -> str:
    """The English plural of a monster's name made singular: its last word ("ogres", "wolves", "harpies",
    "lizard men"); a word it does not know as plural is left as it is."""
    head, _space, word = name.rpartition(" ")
    lowered = word.lower()
    if lowered.endswith("men"):
        word = word[:-3] + ("MAN" if word[-3:].isupper() else "man")
    elif lowered.endswith("ves") and len(word) > 4:
        word = word[:-3] + ("F" if word[-1].isupper() else "f")
    elif lowered.endswith("ies") and lowered not in _SINGULAR_IE:
        word = word[:-3] + ("Y" if word[-1].isupper() else "y")
    elif lowered.endswith(("ses", "xes", "ches", "shes", "zes")):
        word = word[:-2]
    elif lowered.endswith("s") and not lowered.endswith(("ss", "us", "is")):
        word = word[:-1]
    return f"{head} {word}" if head else word


class OseSaves(NamedTuple):
    saves: str
    """The five numbers with OSE's letters ("D12 W13 P14 B15 S16"), Dolmenwood's where it prints them; ""."""
    save_as: str
    """What the parentheses say, as printed ("1", "NH", "F3"); "" for nothing."""
    unread: str
    """The parentheses when they are no class and level these rules know ("SV (XY9)"); "" otherwise."""


_TAIL = re.compile(r"\(\s*([^()]{0,20}?)\s*\)\s*$")
_AS = re.compile(r"(?:as|как|як)\s+(\S{1,20})", re.IGNORECASE)
_PAIR = re.compile(r"([^\W\d_]?)\s*(\d{1,2})(?!\d)")
_PAIR_OR_SPACE = re.compile(r"[^\W\d_]?\s*\d{1,2}(?!\d)|[\s,;]")


def ose_saves(line: str) -> OseSaves | None:
    """OSE's SV line as the sheet's ``saves`` and ``save_as``; letters of a translation are read in the order the
    books print them (death, wands, paralysis, breath, spells); None when it is not five numbers from 1 to 20."""
    line = line.strip()
    save_as = ""
    tail = _TAIL.search(line)
    if tail is not None:
        save_as, line = tail.group(1), line[: tail.start()].strip()
    elif said := _AS.fullmatch(line):  # "Save as F3"
        save_as, line = said.group(1), ""
    pairs = _PAIR.findall(line)
    if line and (len(pairs) != 5 or _PAIR_OR_SPACE.sub("", line)):
        return None
    saves = ""
    if line and all(not letter.isascii() for letter, _number in pairs if letter):
        numbers = [int(number) for _letter, number in pairs]
        if not all(1 <= number <= 20 for number in numbers):
            return None
        saves = " ".join(f"{letter}{number}" for letter, number in zip(OSE_LETTERS, numbers))
    elif line:
        try:
            found = read_save_line(line)
        except RuleError:
            return None
        if found is None:
            return None
        letters = DOLMENWOOD_LETTERS if {"R", "H"} & {letter.upper() for letter, _number in pairs} else OSE_LETTERS
        saves = " ".join(f"{letter}{number}" for letter, number in zip(letters, found.numbers))
    if save_as:
        try:
            read_save_as(save_as)
        except RuleError:
            return OseSaves(saves=saves, save_as="", unread=f"SV ({save_as})")
    return OseSaves(saves=saves, save_as=save_as, unread="") if saves or save_as else None


def adnd_saves(line: str) -> str | None:
    """An AD&D monster's own five numbers, in Table 60's order ("12 14 13 15 15"); None for anything else."""
    try:
        numbers = own_saves(line)
    except RuleError:
        return None
    return " ".join(str(number) for number in numbers) if numbers is not None else None


def ose_fields(line: str, sheet: dict[str, Any], read: list[tuple[str, str]], unread: list[str]) -> bool:
    """OSE's SV ``line`` written in the ``sheet`` (``saves``, ``save_as``), said in ``read``; False when it is
    not one."""
    found = ose_saves(line)
    if found is None:
        return False
    if found.saves:
        sheet["saves"] = found.saves
        read.append((N_("Saving throws"), found.saves))
    if found.save_as:
        sheet["save_as"] = found.save_as
        read.append((N_("Saves as"), found.save_as))
    if found.unread:
        unread.append(found.unread)
    return True


def adnd_fields(line: str, sheet: dict[str, Any], read: list[tuple[str, str]], unread: list[str]) -> bool:
    """An AD&D monster's own five numbers ("SV 12 14 13 15 15") written in the ``sheet``; False for anything
    else."""
    found = adnd_saves(line)
    if found is None:
        return False
    sheet["saves"] = found
    read.append((N_("Own saving throws"), found))
    return True
