"""A stat block pasted from a book, a PDF or a web page, read into a combatant entry of a ruleset.

Three layouts are read, with the field names of the English books and of their Russian and Ukrainian
translations:

* the 5e block: "Armor Class 15 (leather armor, shield)", "Hit Points 7 (2d6)", "Speed 30 ft.", the six
  ability scores, "Challenge 1/4 (50 XP)", then traits and "Actions" ("Scimitar. Melee Weapon Attack: +4 to
  hit, … Hit: 5 (1d6 + 2) slashing damage."); the 2024 short labels (AC, HP, CR) too;
* the OSE one-line block: "AC 6 [13], HD 1-1 (3hp), Att 1 × weapon (1d6), THAC0 19 [0], MV 60' (20'), SV …,
  ML 7, AL Chaotic, XP 5";
* the AD&D 2e stat line: "AC 6; MV 9; HD 1; THAC0 19; #AT 1; Dmg 1d8; SZ M; ML 8".

The reading is in two steps: :func:`read_block` finds what the text says (a :class:`Block`, the same for
every ruleset), :func:`~tui_combat.fight.statblock_sheet.for_ruleset` writes it as the ruleset's
sheet. Everything found is listed in
``read`` with what it became; a field that is there but cannot be read, and any text that is no field, is
listed in ``unread``: nothing is guessed silently. Where a figure is worked out (HP from Hit Dice, an
ascending AC from a descending one, AD&D's "2-8" as 2d4) ``read`` says how.

What the rest of the fight needs is read too: a 5e block's saving throws, damage types, legendary actions and
resistance, Evasion and special abilities (:mod:`tui_combat.fight.statblock_5e`); a short block's count before or
after its name ("2 ogres", "Ogre (1)") and its saving throws (:mod:`tui_combat.fight.statblock_short`). Where the
rules roll a monster's hit points from its Hit Dice, the reading's ``hp_dice`` gives the dice besides the block's
average; hit points listed one by one ("hp 30, 25") are its ``hps`` (:mod:`tui_combat.fight.statblock_sheet`).

PDF copies are cleaned first: ligatures (ﬁ ﬂ) and non-breaking spaces (Unicode NFKC), every dash and the
minus sign as "-", words broken across lines joined, Cyrillic dice ("2к6") as "2d6".

Whatever is pasted, the reading takes time in proportion to its length: only the first :data:`MAX_CHARS`
characters are read (a longer paste says so), every number is a few digits at most (a run of a thousand is no
number, and no regular expression here tries a run of digits from each of its digits in turn), and what a
field's value is searched for is searched within a window. A paste that holds a control character (an escape
sequence: text that would reprogram a terminal) is refused with its place (:attr:`Block.refused`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

import msgspec

from tui_combat.engine.text import character_name
from tui_combat.fight.statblock_5e import Extras, attack_count, read_extras
from tui_combat.fight.statblock_short import counted_name
from tui_combat.i18n import N_, _

__all__ = [
    "MAX_CHARS",
    "Block",
    "average_hp",
    "clean",
    "cut_note",
    "read_block",
    "refusal",
]

MAX_CHARS = 20_000
"""The most of a paste that is read: the longest 5e block (an ancient dragon's, legendary actions and all)
runs to some 6,000 characters."""
_WHOLE = r"\d{1,6}(?!\d)"
"""A whole number as a block writes one: more digits are no number (and no run of digits is tried from each of
its digits in turn: that is what made the reading quadratic)."""
_NUMBER = rf"[+-]?{_WHOLE}"

# -- cleaning ------------------------------------------------------------------------------------------
_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2212\ufe63\uff0d"), "-")
_CYRILLIC_DICE = re.compile(r"(?:(?<!\d)(\d{1,4})\s?)?[кКдД](\d{1,4})")
_REFUSED = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]")
"""Control characters that are no layout (a line break, a tab, a form feed are): an escape above all."""
_BROKEN_WORD = re.compile(r"(\w)-\n\s*(\w)")


def clean(text: str) -> str:
    """The text as typed, not as a PDF lays it out (lines kept: the name is the first)."""
    text = unicodedata.normalize("NFKC", text).replace("\u00ad", "").translate(_DASHES)
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    text = _BROKEN_WORD.sub(r"\1\2", text)
    text = _CYRILLIC_DICE.sub(lambda m: f"{m.group(1) or ''}d{m.group(2)}" if _dice_like(m) else m.group(0), text)
    lines = [" ".join(line.split()) for line in text.split("\n")]
    return "\n".join(line for line in lines if line)


def _dice_like(match: re.Match[str]) -> bool:
    """ "2к6" and "к8" are dice; "к10" inside a word is not (the letter before must not be a letter)."""
    start = match.start()
    before = match.string[start - 1] if start > 0 else " "
    return not before.isalpha() and (bool(match.group(1)) or before in " (,;/+")


def _one_line(text: str) -> str:
    return " ".join(text.split())


# -- what a block says ---------------------------------------------------------------------------------
class Attack(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    count: int = 1
    bonus: int | None = None
    damage: str = ""


class Block(msgspec.Struct, kw_only=True):
    """What a stat block says, whatever the ruleset: None where it says nothing."""

    layout: str = ""
    """"5e", "ose", "adnd" or "" when no layout was recognised."""
    name: str = ""
    ac: int | None = None
    """Ascending armour class (5e, OSE's bracket)."""
    ac_descending: int | None = None
    hp: int | None = None
    hp_dice: str = ""
    hit_dice: str = ""
    """"1-1", "4+1", "6+6"."""
    thac0: int | None = None
    bonus: int | None = None
    """The attack bonus beside THAC0 (OSE's bracket)."""
    attacks: list[Attack] = msgspec.field(default_factory=list)
    attack_count: str = ""
    """AD&D's #AT ("1", "3", "3/2"); 5e's Multiattack count."""
    damage: list[str] = msgspec.field(default_factory=list)
    morale: int | None = None
    size: str = ""
    speed: int | None = None
    dex: int | None = None
    challenge: str = ""
    xp: int | None = None
    count: int | None = None
    """How many the block is for, as the line says: "2 ogres", "Ogre (1)"; None when it says nothing."""
    hps: list[int] = msgspec.field(default_factory=list)
    """Each one's hit points where the line lists them ("hp 30, 25"); the first is ``hp``."""
    hp_average: bool = False
    """``hp`` is the Hit Dice's average the block gives beside them ("HD 1-1 (3hp)"): each one's are rolled."""
    save_line: str = ""
    """The short blocks' saving throws as printed ("D12 W13 P14 B15 S16 (1)", "12 14 13 15 15")."""
    mindless: bool = False
    """AD&D's "Int non (0)"."""
    scores: tuple[int, ...] | None = None
    """5e's six ability scores, in the book's order."""
    extras: Extras = msgspec.field(default_factory=Extras)
    """5e's saves, damage types, legendary actions and resistance, Evasion, special abilities."""
    notes: list[str] = msgspec.field(default_factory=list)
    read: list[tuple[str, str]] = msgspec.field(default_factory=list)
    """(field label — a message id —, what was read)."""
    unread: list[str] = msgspec.field(default_factory=list)
    refused: str = ""
    """Why nothing was read (translated): the paste holds a control character, at the place said; "" when it
    was read."""


_DICE = re.compile(r"\b\d{0,4}d\d{1,4}(?:\s*[+-]\s*\d{1,4})?\b", re.IGNORECASE)
SIZE_WORDS: dict[str, str] = {
    "tiny": "tiny",
    "small": "small",
    "medium": "medium",
    "large": "large",
    "huge": "huge",
    "gargantuan": "gargantuan",
    "t": "tiny",
    "s": "small",
    "m": "medium",
    "l": "large",
    "h": "huge",
    "g": "gargantuan",
    # The translated books' letters; a Cyrillic "М" may be small or medium: not read.
    "с": "medium",
    "б": "large",
    "в": "large",
    "о": "huge",
    "крошечный": "tiny",
    "крошечное": "tiny",
    "крихітний": "tiny",
    "крихітна": "tiny",
    "маленький": "small",
    "маленькое": "small",
    "малый": "small",
    "маленька": "small",
    "малий": "small",
    "средний": "medium",
    "среднее": "medium",
    "середній": "medium",
    "середня": "medium",
    "большой": "large",
    "большое": "large",
    "великий": "large",
    "велика": "large",
    "огромный": "huge",
    "огромное": "huge",
    "величезний": "huge",
    "величезна": "huge",
    "громадный": "gargantuan",
    "громадное": "gargantuan",
    "гігантський": "gargantuan",
    "гігантська": "gargantuan",
}


def _dice(text: str) -> str:
    return text.replace(" ", "").lower()


def _find_dice(text: str) -> re.Match[str] | None:
    """The first dice in ``text`` ("2d4 or by weapon +1" → 2d4; "5d8 + 5" → 5d8+5)."""
    return _DICE.search(re.sub(r"(\d)\s*([+-])\s*(\d)", r"\1\2\3", text))


def average_hp(hit_dice: str) -> int | None:
    """HP of a monster of ``hit_dice`` ("1-1", "4+1", "6"): the average of its d8s, half a die rounded
    down, pluses and minuses added (at least 1); None when it is not Hit Dice."""
    match = re.fullmatch(r"(\d{1,4})\s*([+-]\s*\d{1,4})?\*?", hit_dice.strip())
    if match is None:
        half = re.fullmatch(r"1/2|½", hit_dice.strip())
        return 2 if half else None
    dice = int(match.group(1))
    extra = int(match.group(2).replace(" ", "")) if match.group(2) else 0
    return max(1, dice * 9 // 2 + extra)


def range_dice(text: str) -> str | None:
    """AD&D's damage ranges as dice: "1-8" → 1d8, "2-8" → 2d4, "2-7" → 1d6+1; None for anything else."""
    match = re.fullmatch(r"(\d{1,4})-(\d{1,4})\s*([+-]\s*\d{1,4})?", text.strip())
    if match is None:
        return None
    low, high = int(match.group(1)), int(match.group(2))
    extra = match.group(3).replace(" ", "") if match.group(3) else ""
    if low < 1 or high <= low:
        return None
    if low == 1:
        return f"1d{high}{extra}"
    if high % low == 0 and high // low in (2, 3, 4, 6, 8, 10, 12, 20):
        return f"{low}d{high // low}{extra}"
    sides = high - low + 1
    if sides not in (2, 3, 4, 6, 8, 10, 12, 20) or extra:
        return None
    return f"1d{sides}+{low - 1}"


# -- the short blocks (OSE, AD&D) ----------------------------------------------------------------------
# A field's names; case matters for the short ones ("AT" is not "at", "hp" not "HP" of 5e).
_SHORT_FIELDS: dict[str, tuple[str, ...]] = {
    "ac": ("AC", "КД", "КБ", "Armor Class", "Armour Class", "ARMOR CLASS", "Класс доспеха", "Клас броні"),
    "hd": ("HD", "ХД", "КЗ", "Hit Dice", "HIT DICE", "Кости хитов", "Кості здоров'я", "Level"),
    "thac0": ("THAC0", "THACO", "ТАК0", "ТАКО"),
    "att": ("Att", "#AT", "AT", "Attacks", "No. of Attacks", "NO. OF ATTACKS", "Атаки", "Атак"),
    "dmg": ("Dmg", "Damage", "Damage/Attack", "DAMAGE/ATTACK", "Урон", "Шкода", "Пошкодження"),
    "mv": ("MV", "Movement", "MOVEMENT", "Speed", "ДВ", "Движение", "Скорость", "Рух", "Переміщення", "Швидкість"),
    "sv": ("SV", "Save", "Saves", "СБ", "Спасброски", "Спас-броски", "Рятівні кидки", "РК"),
    "ml": ("ML", "Morale", "MORALE", "Мораль", "БД"),
    "al": ("AL", "Alignment", "ALIGNMENT", "Мировоззрение", "Мир", "Світогляд", "Св"),
    "xp": ("XP", "XP value", "XP VALUE", "ОО", "Опыт", "Досвід", "ПД"),
    "na": ("NA", "No. Appearing", "NO. APPEARING", "Количество", "Кількість", "Число"),
    "tt": ("TT", "Treasure", "TREASURE", "Сокровища", "Скарби"),
    "sz": ("SZ", "Size", "SIZE", "Размер", "Розмір"),
    "int": ("Int", "INT", "Intelligence", "INTELLIGENCE", "Интеллект", "Інтелект"),
    "sa": ("SA", "Special Attacks", "SPECIAL ATTACKS", "Особые атаки", "Особливі атаки"),
    "sd": ("SD", "Special Defenses", "SPECIAL DEFENSES", "Особая защита", "Особливий захист"),
    "mr": ("MR", "Magic Resistance", "MAGIC RESISTANCE", "Сопротивление магии", "Опір магії"),
    "hp": ("hp", "HP", "ОЗ", "Хиты", "Хіти"),
    "misc": (
        "CLIMATE/TERRAIN",
        "FREQUENCY",
        "ORGANIZATION",
        "ACTIVITY CYCLE",
        "DIET",
        "Climate/Terrain",
        "Frequency",
        "Organization",
        "Activity Cycle",
        "Diet",
    ),
}
_SHORT_LABEL = re.compile(
    r"(?<![\w#])(?=[^\W\d_]|#)(?:"
    + "|".join(  # (no name is tried inside a word, nor at a non-letter)
        rf"(?P<{key}_{index}>{re.escape(name)})"
        for key, names in _SHORT_FIELDS.items()
        for index, name in enumerate(sorted(names, key=len, reverse=True))
    )
    + r")(?!\w)"
)
_TO_NOTES: dict[str, str] = {
    "mv": "MV",
    "sv": "SV",
    "al": "AL",
    "xp": "XP",
    "na": "NA",
    "tt": "TT",
    "int": "Int",
    "sa": "SA",
    "sd": "SD",
    "mr": "MR",
}


def _bracketed(text: str) -> list[tuple[int, int]]:
    """Where the outermost parentheses of ``text`` that close open and close, in order."""
    ranges: list[tuple[int, int]] = []
    opened: list[int] = []
    for found in re.finditer(r"[()]", text):
        if found.group(0) == "(":
            opened.append(found.start())
        elif opened:
            start = opened.pop()
            if not opened:
                ranges.append((start, found.start()))
    return ranges


def _short_segments(text: str) -> tuple[str, list[tuple[str, str, str]]]:
    """The text before the first field, and each field: (key, label as written, value). A label in brackets
    belongs to the value around it ("HD 1 (4 HP)" gives its hit points, "ML Elite (14)")."""
    ranges = _bracketed(text)
    found: list[re.Match[str]] = []
    next_range = 0
    for match in _SHORT_LABEL.finditer(text):
        while next_range < len(ranges) and ranges[next_range][1] < match.start():
            next_range += 1
        if next_range < len(ranges) and ranges[next_range][0] < match.start():
            continue
        found.append(match)
    head = text[: found[0].start()] if found else text
    segments: list[tuple[str, str, str]] = []
    for number, match in enumerate(found):
        key = (match.lastgroup or "").rsplit("_", 1)[0]
        end = found[number + 1].start() if number + 1 < len(found) else len(text)
        value = text[match.end() : end].strip().lstrip(":").strip().rstrip(",;.").strip()
        segments.append((key, match.group(0), value))
    return head, segments


def _read_short(text: str, block: Block) -> None:
    lines = text.split("\n")
    first_fields = _SHORT_LABEL.search(lines[0])
    if first_fields is None or first_fields.start() > 0:
        block.name = (lines[0][: first_fields.start()] if first_fields else lines[0]).strip(" :,;.")
        rest = " ".join([lines[0][first_fields.start() :]] if first_fields else []) + " " + " ".join(lines[1:])
    else:
        rest = " ".join(lines)
    block.name, block.count = counted_name(block.name)
    if block.count is not None:
        block.read.append((N_("How many"), str(block.count)))
    head, segments = _short_segments(rest.strip())
    if head.strip(" ,;."):
        block.unread.append(head.strip(" ,;."))
    for key, label, value in segments:
        _short_field(block, key, label, value)


_NOTHING = frozenset({"nil", "none", "no", "-", "—", "нет", "немає", "ні"})
"""What an AD&D line writes for a special attack, defence or resistance it has not ("SA nil")."""
_HP_DICE = re.compile(rf"({_WHOLE})\s*d\s*8\s*([+-]\s*{_WHOLE})?\s*\(\s*({_WHOLE})\s*\)(.*)", re.IGNORECASE)
_HP_LIST = re.compile(rf"({_WHOLE}(?:\s*[,/]\s*{_WHOLE}){{0,49}})(.*)")


def _short_field(block: Block, key: str, label: str, value: str) -> None:
    if key in ("sa", "sd", "mr") and value.casefold().strip(" .") in _NOTHING:
        return
    reader = _SHORT_READERS.get(key)
    if reader is None:
        _short_note(block, key, label, value)
    else:
        reader(block, label, value)


def _short_ac(block: Block, label: str, value: str) -> None:
    match = re.fullmatch(rf"({_NUMBER})\s*(?:\[\s*({_NUMBER})\s*\])?(.*)", value)
    if match is None:
        block.unread.append(f"{label} {value}")
        return
    block.ac_descending = int(match.group(1))  # the short blocks' AC descends; OSE's bracket ascends
    if match.group(2):
        block.ac = int(match.group(2))
    if match.group(3).strip(" ,;"):
        block.notes.append(f"{label} {value}")


def _short_hit_dice(block: Block, label: str, value: str) -> None:
    match = re.fullmatch(
        rf"({_WHOLE}\s*(?:[+-]\s*{_WHOLE})?|1/2|½)\s*\*{{0,3}}\s*(?:\(\s*({_WHOLE})[^)]*\))?(.*)", value
    )
    if match is None:
        block.unread.append(f"{label} {value}")
        return
    block.hit_dice = match.group(1).replace(" ", "")
    if match.group(2) and (block.hp is None or block.hp_average):
        block.hp = int(match.group(2))  # the average of the dice, as OSE gives it: each one's are rolled
        block.hp_average = True
    if match.group(3).strip(" ,;"):
        block.unread.append(match.group(3).strip(" ,;"))


def _short_hit_points(block: Block, label: str, value: str) -> None:
    rolled = _HP_DICE.fullmatch(value)  # Dolmenwood's "HP 3d8 (13)": the Hit Dice and their average
    if rolled is not None:
        block.hit_dice = rolled.group(1) + (rolled.group(2) or "").replace(" ", "")
        block.hp, block.hp_average = int(rolled.group(3)), True
        if rolled.group(4).strip(" ,;"):
            block.unread.append(rolled.group(4).strip(" ,;"))
        return
    match = _HP_LIST.fullmatch(value)
    if match is None:
        block.unread.append(f"{label} {value}")
        return
    figures = [int(figure) for figure in re.findall(r"\d+", match.group(1))]
    block.hp, block.hp_average = figures[0], False
    block.hps = figures if len(figures) > 1 else []
    if match.group(2).strip(" ,;."):
        block.notes.append(f"{label} {value}")


def _short_thac0(block: Block, label: str, value: str) -> None:
    match = re.fullmatch(rf"({_WHOLE})\s*(?:\[\s*({_NUMBER})\s*\])?.*", value)
    if match is None:
        block.unread.append(f"{label} {value}")
        return
    block.thac0 = int(match.group(1))
    if match.group(2):
        block.bonus = int(match.group(2))


def _short_damage(block: Block, label: str, value: str) -> None:
    parts = [part.strip() for part in re.split(r"[/,]| or | или | або ", value) if part.strip()]
    damage: list[str] = []
    for written in parts:
        part = re.sub(r"\s*\([^()]{0,40}\)$", "", written)  # "1d10 (club)": the weapon, kept in the notes
        if part != written and part:
            block.notes.append(f"{label} {value}")
        dice = _DICE.fullmatch(part.replace(" ", ""))
        ranged = range_dice(part)
        if dice:
            damage.append(_dice(part))
        elif ranged:
            damage.append(ranged)
            block.read.append((N_("Damage"), f"{part} → {ranged}"))
        elif re.search(r"weapon|оруж|зброє", part, re.IGNORECASE):
            block.notes.append(f"{label} {value}")
        else:
            block.unread.append(f"{label} {part}")
    block.damage.extend(damage)


def _short_morale(block: Block, label: str, value: str) -> None:
    match = re.fullmatch(rf"({_WHOLE})\s*(.*)|([^\d(]*\S)\s*\(\s*(?:{_WHOLE}\s*-\s*)?({_WHOLE})\s*\)\s*(.*)", value)
    if match is None:
        block.unread.append(f"{label} {value}")
        return
    block.morale = int(match.group(1) or match.group(4))
    if match.group(3):
        block.notes.append(f"{label} {value[: match.start(5)].strip()}")
    rest = (match.group(2) if match.group(1) else match.group(5)) or ""
    if rest.strip(" ,;."):
        block.unread.append(rest.strip(" ,;."))


def _short_saves(block: Block, label: str, value: str) -> None:
    block.save_line = value


def _short_size(block: Block, label: str, value: str) -> None:
    size = SIZE_WORDS.get(value.split(" ")[0].strip("(),").lower()) if value else None
    if size is None:
        block.unread.append(f"{label} {value}")
        return
    block.size = size


def _short_note(block: Block, key: str, label: str, value: str) -> None:
    """A field kept in the notes; the movement, experience and a mindless creature's intelligence read too."""
    if block.layout == "adnd" and key == "mv" and (found := re.match(_WHOLE, value)):
        block.speed = int(found.group(0))
    if key == "xp" and (found := re.match(r"(\d{1,3}(?:[,.\s]\d{3}){1,2}|\d{1,7})(?![\d,.])", value)):
        block.xp = int(re.sub(r"\D", "", found.group(1)))
    if key == "int" and re.match(
        r"(?:non|nil|none|нет|отсутств|немає|відсутн)(?!\w)|\(?\s*0\s*\)?$", value, re.IGNORECASE
    ):
        block.mindless = True
    block.notes.append(f"{_TO_NOTES.get(key, label)} {value}")


def _short_attacks(block: Block, label: str, value: str) -> None:
    """OSE "1 × weapon (1d6)", "2 × claw (1d3), 1 × bite (1d6)"; AD&D "#AT 1", "3/2"."""
    if re.fullmatch(r"\d{1,3}(?:/\d{1,3})?", value):
        block.attack_count = value
        return
    left: list[str] = []
    at = forms = 0
    # Each form is a name (with its count) and the brackets after it, found by looking for the brackets: a
    # search for the name first tried every position before them in turn.
    while (opening := value.find("(", at)) >= 0 and (closing := value.find(")", opening + 1)) >= 0:
        start = max(value.rfind(",", at, opening) + 1, value.rfind(")", at, opening) + 1, at)
        counted = re.fullmatch(r"\s*(?:(\d{1,3})\s*[×x*]\s*)?(.*?)\s*", value[start:opening])
        name = counted.group(2) if counted else ""
        if not name:
            left.append(value[at : closing + 1])
            at = closing + 1
            continue
        left.append(value[at:start])
        at = closing + 1
        forms += 1
        inside = value[opening + 1 : closing]
        dice = _find_dice(inside)
        bonus = re.match(r"\s*([+-]\d{1,2})(?!\d)\s*,", inside)  # Dolmenwood's "Weapon (+0, 1d6)"
        block.attacks.append(
            Attack(
                name=name,
                count=int(counted.group(1) or 1) if counted else 1,
                bonus=int(bonus.group(1)) if bonus else None,
                damage=_dice(dice.group(0)) if dice else "",
            )
        )
        if dice is None:
            block.unread.append(f"{name} ({inside})")
        elif _one_line(inside[bonus.end() if bonus else 0 :].replace(dice.group(0), "")).strip(" ,;"):
            block.notes.append(f"{name} ({inside})")
    if not forms:
        block.unread.append(f"{label} {value}")
        return
    rest = "".join(left) + value[at:]
    if rest.strip(" ,;+"):
        block.unread.append(rest.strip(" ,;+"))


_SHORT_READERS: dict[str, Callable[[Block, str, str], None]] = {
    "ac": _short_ac,
    "hd": _short_hit_dice,
    "hp": _short_hit_points,
    "thac0": _short_thac0,
    "att": _short_attacks,
    "dmg": _short_damage,
    "ml": _short_morale,
    "sv": _short_saves,
    "sz": _short_size,
}
"""The fields of a short stat block read for the sheet, by key; any other is kept in the notes (:func:`_short_note`)."""


# -- the 5e block ---------------------------------------------------------------------------------------
_5E_AC = re.compile(
    r"(?:Armou?r Class|Класс доспеха|Клас броні|Клас обладунку|\bAC\b|\bКД\b|\bКБ\b)\s*:?\s*"
    rf"({_WHOLE})(\s*\([^)]{{0,200}}\))?",
    re.IGNORECASE,
)
_5E_HP = re.compile(
    rf"(?:Hit Points|Хиты|Хіти|Очки здоров'я|\bHP\b)\s*:?\s*({_WHOLE})\s*(?:\(\s*([^)]{{0,200}})\))?", re.IGNORECASE
)
_5E_SPEED = re.compile(
    rf"(?:Speed|Скорость|Швидкість)\s*:?\s*({_WHOLE})\s*"
    r"(?:ft|фт|фут)\.?(.*?)(?=\s+(?:STR|СИЛ|Str|MOD)\b|$)",
    re.IGNORECASE,
)
_5E_SCORES = re.compile(rf"(?<!\d)(?:({_WHOLE})\s*\(\s*{_NUMBER}\s*\)\s*){{6}}")
_5E_SCORE = re.compile(rf"({_WHOLE})\s*\(\s*{_NUMBER}\s*\)")
_5E_DEX_2024 = re.compile(rf"\b(?:DEX|Dex|ЛОВ|Лов|СПР|Спр)\s+({_WHOLE})\s+[+-]\d")
_5E_CR = re.compile(
    r"(?:Challenge|Опасность|Небезпека|Рівень небезпеки|\bCR\b)\s*:?\s*(\d{1,2}(?:/\d)?)\s*"
    r"\(\s*(?:XP\s*)?([\d,.\s]{1,16}?)\s*(?:XP|опыт\w*|досвід\w*|ОО|ПД|ДО)?\s*"
    r"(?:,\s*(?:or|или|або|чи)\s[^;)]{0,40})?[;)]",
    re.IGNORECASE,
)
_5E_SIZE = re.compile(
    r"\b(Tiny|Small|Medium|Large|Huge|Gargantuan|Крошечн\w*|Маленьк\w*|Средн\w*|Больш\w*|"
    r"Огромн\w*|Громадн\w*|Крихітн\w*|Середн\w*|Велик\w*|Величезн\w*|Гігантськ\w*)\b"
)
_5E_ATTACK = re.compile(
    r"(?:Melee or Ranged|Melee|Ranged|Рукопашная или дальнобойная|Рукопашная|Дальнобойная|Ближня|Дальня|"
    r"Атака ближнім|Атака дальнім|Рукопашна|Дальнобійна)[^:]{0,40}:\s*([+-]\d{1,3})(?!\d)(?:\s*(?:to hit|к попаданию|"
    r"до влучання|до попадання))?.{0,300}?(?:Hit|Попадание|Влучання|Попадання)\s*:\s*(?:(\d{1,6})\s*)?"
    r"\(\s*([^)]{0,200})\)",
    re.IGNORECASE,
)
_5E_MULTI = re.compile(r"(?:Multiattack|Мультиатака|Мультиатака)\.\s*([^.]{0,300})\.", re.IGNORECASE)
_SENTENCE = re.compile(r"\s*([^.]{0,300})\.")
_CHALLENGE_WORD = re.compile(r"(?<!\w)(?:Challenge|CR|Опасность|Небезпека|Рівень небезпеки)(?!\w)")
_HEADINGS = re.compile(
    r"^(?:(?:Bonus |Legendary )?Actions|Reactions|Traits|Действия|Бонусные действия|Реакции|Дії|"
    r"Бонусні дії|Реакції)\s+",
    re.IGNORECASE,
)


def _read_5e(text: str, block: Block) -> None:
    lines = text.split("\n")
    joined = " ".join(lines)
    block.name = lines[0] if not _5E_AC.match(lines[0]) else ""
    ac = _5e_defences(joined, block)
    _5e_speed_and_scores(joined, block)
    head = joined[: ac.start()] if ac else joined[:200]
    size = _5E_SIZE.search(head[len(block.name) :] if head.startswith(block.name) else head)
    if size:
        block.size = SIZE_WORDS.get(size.group(1).lower(), _size_stem(size.group(1)))
    challenge = _5E_CR.search(joined)
    if challenge:
        block.challenge = challenge.group(1)
        xp = re.sub(r"[\s,.]", "", challenge.group(2))
        if xp.isdecimal() and len(xp) <= 9:
            block.xp = int(xp)
    header_end = challenge.start() if challenge else None
    if header_end is None and (word := _CHALLENGE_WORD.search(joined)):
        header_end = word.start()
    extras = block.extras = read_extras(text, joined, header_end)
    block.notes.extend(extras.notes)
    _5e_multiattack(joined, block)
    _5e_attacks(joined, block)
    if block.ac is None:
        block.unread.append(N_("no armour class"))
    if block.hp is None:
        block.unread.append(N_("no hit points"))
    _5e_traits(joined, block)
    if extras.legendary_names:
        block.notes.append(f"{extras.legendary_heading}: {', '.join(extras.legendary_names)}.")


def _5e_defences(joined: str, block: Block) -> re.Match[str] | None:
    """Armour class and hit points (their dice); returns where the armour class was found."""
    ac = _5E_AC.search(joined)
    if ac:
        block.ac = int(ac.group(1))
        if ac.group(2):
            block.notes.append(_one_line(f"AC {ac.group(1)}{ac.group(2)}"))
    hp = _5E_HP.search(joined)
    if hp:
        block.hp = int(hp.group(1))
        inside = hp.group(2) or ""
        dice = _find_dice(inside)
        if dice:
            block.hp_dice = _dice(dice.group(0))
        elif inside:
            block.unread.append(_one_line(hp.group(0)))
    return ac


def _5e_speed_and_scores(joined: str, block: Block) -> None:
    speed = _5E_SPEED.search(joined)
    if speed:
        block.speed = int(speed.group(1))
        if speed.group(2).strip(" ,."):
            block.notes.append(_one_line(f"Speed {speed.group(1)} ft.{speed.group(2)}").rstrip(" ,"))
    scores = _5E_SCORES.search(joined)
    if scores:
        block.scores = tuple(int(score) for score in _5E_SCORE.findall(scores.group(0)))
        block.dex = block.scores[1]
    elif found := _5E_DEX_2024.search(joined):
        block.dex = int(found.group(1))


def _5e_multiattack(joined: str, block: Block) -> None:
    multi = _5E_MULTI.search(joined)
    if not multi:
        return
    said = multi.group(1)
    count = attack_count(said)
    then = _SENTENCE.match(joined, multi.end(), multi.end() + 302) if count is None else None
    if then is not None and re.search(r"attack|атак", then.group(1), re.IGNORECASE):
        # "The dragon can use its Frightful Presence. It then makes three attacks: …"
        said, count = f"{said}. {then.group(1)}", attack_count(then.group(1))
    block.attack_count = str(count) if count else ""
    block.notes.append(_one_line("Multiattack: " + said))
    if count is None:
        block.unread.append(_one_line(multi.group(0)))


def _5e_attacks(joined: str, block: Block) -> None:
    for attack in _5E_ATTACK.finditer(joined):
        # the name is near: never the whole text before
        before = joined[max(attack.start() - 120, 0) : attack.start()].rstrip()
        name = before.rstrip(".").strip()
        cut = max(name.rfind(". "), name.rfind(") "), name.rfind(": "))
        name = _HEADINGS.sub("", name[cut + 2 :] if cut >= 0 else name).strip()
        name = re.sub(r"\s*\((?:Recharge|Перезарядка|Перезаряджання)[^)]*\)", "", name)
        dice = _find_dice(attack.group(3))
        block.attacks.append(
            Attack(
                name=name[-40:].strip() or "attack",
                bonus=int(attack.group(1)),
                damage=_dice(dice.group(0)) if dice else "",
            )
        )
        if dice is None:
            block.unread.append(_one_line(attack.group(0))[:80])


def _size_stem(word: str) -> str:
    stems = {
        "крошечн": "tiny",
        "крихітн": "tiny",
        "маленьк": "small",
        "средн": "medium",
        "середн": "medium",
        "больш": "large",
        "велик": "large",
        "огромн": "huge",
        "величезн": "huge",
        "громадн": "gargantuan",
        "гігантськ": "gargantuan",
    }
    lowered = word.lower()
    return next((size for stem, size in stems.items() if lowered.startswith(stem)), "")


def _5e_traits(joined: str, block: Block) -> None:
    """The traits between the challenge line and the actions: kept in the notes as written."""
    challenge = _5E_CR.search(joined)
    if challenge is None:
        return
    rest = joined[challenge.end() :]
    actions = re.search(r"\b(?:Actions|Действия|Дії)\b", rest)
    section = (rest[: actions.start()] if actions else "").strip(" )")
    section = re.sub(r"^(?:PB\s*[+-]?\d{1,2}\s*\)?\s*)?(?:Traits|Особенности|Риси)?\s*", "", section, count=1)
    if section:
        block.notes.append(_one_line(section)[:300])


# -- which layout ---------------------------------------------------------------------------------------
def _layout(text: str) -> str:
    if re.search(
        r"Armou?r Class|Hit Points|Класс доспеха|Клас броні|Хиты|Хіти|Challenge|Опасность|Небезпека",
        text,
        re.IGNORECASE,
    ) and not re.search(r"\bTHAC0\b|\bТАК0\b|\bHD\b|\bХД\b|\bКЗ\b", text):
        return "5e"
    if re.search(r"\bCR\s*\d", text) and re.search(r"\bHP\s*\d", text):
        return "5e"
    if (
        re.search(rf"\[\s*{_NUMBER}\s*\]", text)
        or re.search(rf"\b(?:Att|Атаки)\s+{_WHOLE}\s*[×x]", text)
        or re.search(r"\b(?:SV|Saves)\s+D\s?\d", text)
    ):
        return "ose"
    if re.search(r"#AT|\bDmg\b|\bTHAC0\b|\bТАК0\b|\bHD\b|\bХД\b|\bКЗ\b|HIT DICE", text):
        return "adnd"
    return ""


def refusal(text: str) -> str:
    """Why a paste is not read: the control character it holds, by line and character; "" when it holds none."""
    found = _REFUSED.search(text)
    if found is None:
        return ""
    at = found.start()
    return _(
        "Line {line}, character {position}: a control character ({character}), which a stat block never "
        "holds (it would reprogram the terminal): copy the block again from the page or the PDF.",
        line=text.count("\n", 0, at) + 1,
        position=at - text.rfind("\n", 0, at),
        character=character_name(text[at]),
    )


def cut_note(limit: int = MAX_CHARS) -> str:
    """What is said of a paste longer than ``limit``, of which only the first ``limit`` characters are read."""
    return _("only the first {limit} characters were read: a stat block is shorter", limit=limit)


def read_block(text: str, *, limit: int | None = MAX_CHARS) -> Block:
    """What the pasted ``text`` says (see the module's description): its first ``limit`` characters (None:
    all of it), the rest said to be left unread."""
    cut = limit is not None and len(text) > limit
    if cut:
        text = text[:limit]
    refused = refusal(text)
    if refused:
        return Block(refused=refused)
    cleaned = clean(text)
    block = Block(layout=_layout(cleaned))
    if cut and limit is not None:
        block.unread.append(cut_note(limit))
    if not cleaned:
        return block
    if block.layout == "5e":
        _read_5e(cleaned, block)
    elif block.layout:
        _read_short(cleaned, block)
    else:
        block.unread.append(N_("no stat block layout recognised"))
    block.name = block.name.strip(" .:,;") if len(block.name) <= 60 else ""
    return block
