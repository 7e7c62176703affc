"""What a pasted 5e stat block says beyond its armour, hit points and attacks: the saving throws, the damage types
it resists, is immune or vulnerable to, its Legendary Resistance and legendary actions, Evasion, and the special
abilities that call for a save, deal damage in an area or recharge, written as the 5e sheet holds them
(:mod:`tui_combat.rulesets.dnd5e.sheet`): "Str +8, Dex +6, …", "fire, poison", "Fire Breath: 17d6 fire, Dex 21
half, recharge 5-6, cone 60 ft".

The 2014 books' words ("DC 21 Dexterity saving throw, taking 63 (18d6) fire damage on a failed save, or half as
much damage on a successful one") and the 2024 ones' ("Dexterity Saving Throw: DC 21, each creature in a 60-foot
Cone. Failure: 59 (17d6) Fire damage. Success: Half damage.") are read, in English, Russian and Ukrainian as the
translations print them ("спасбросок Ловкости со Сл 21", "рятівний кидок Спритності зі СК 21").

A special ability is a paragraph of the block: its name at the start of a line (or, in English, a Title Case
name after a sentence), a full stop, its text. Every search here is bounded or made once over the text, as
:mod:`tui_combat.fight.statblock` requires: the reading stays linear in the length of the paste.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

import msgspec

from tui_combat.engine.errors import RuleError
from tui_combat.i18n import N_
from tui_combat.rulesets.dnd5e.abilities import parse_abilities

__all__ = [
    "ABILITY_KINDS",
    "Extras",
    "ability_kind",
    "attack_count",
    "damage_type_of",
    "fill_sheet",
    "read_extras",
    "saves_of",
]

ABILITY_KINDS: Final = ("str", "dex", "con", "int", "wis", "cha")
_ABILITY_STEMS: Final = (
    ("str", "str"),
    ("сил", "str"),
    ("dex", "dex"),
    ("лов", "dex"),
    ("спр", "dex"),
    ("con", "con"),
    ("тел", "con"),
    ("ста", "con"),
    ("int", "int"),
    ("инт", "int"),
    ("інт", "int"),
    ("wis", "wis"),
    ("мдр", "wis"),
    ("мудр", "wis"),
    ("cha", "cha"),
    ("хар", "cha"),
)
"""The start of each ability's name, short or whole, in any case or grammatical form ("Dex", "Dexterity", "ЛОВ",
"Ловкости", "Спритності")."""
DAMAGE_TYPES: Final = (
    "acid",
    "bludgeoning",
    "cold",
    "fire",
    "force",
    "lightning",
    "necrotic",
    "piercing",
    "poison",
    "psychic",
    "radiant",
    "slashing",
    "thunder",
)
_TYPE_STEMS: Final = (
    ("кислот", "acid"),
    ("дроб", "bludgeoning"),
    ("ударн", "bludgeoning"),
    ("холод", "cold"),
    ("огон", "fire"),
    ("огн", "fire"),
    ("вогон", "fire"),
    ("вогн", "fire"),
    ("силов", "force"),
    ("электр", "lightning"),
    ("молни", "lightning"),
    ("електр", "lightning"),
    ("блискав", "lightning"),
    ("некрот", "necrotic"),
    ("колющ", "piercing"),
    ("колюч", "piercing"),
    ("яд", "poison"),
    ("отрут", "poison"),
    ("психич", "psychic"),
    ("психіч", "psychic"),
    ("излуч", "radiant"),
    ("сиян", "radiant"),
    ("випромін", "radiant"),
    ("сяйв", "radiant"),
    ("рубящ", "slashing"),
    ("рубля", "slashing"),
    ("рубаюч", "slashing"),
    ("звук", "thunder"),
    ("гром", "thunder"),
    ("грім", "thunder"),
    ("громов", "thunder"),
)
"""The damage types as the Russian and Ukrainian books decline them ("огнём", "колющего", "шкоди вогнем")."""
_NUMBER_WORDS: Final = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "одно": 1,
    "одну": 1,
    "одна": 1,
    "два": 2,
    "две": 2,
    "дві": 2,
    "три": 3,
    "четыре": 4,
    "чотири": 4,
    "пять": 5,
    "п'ять": 5,
    "п’ять": 5,
    "шесть": 6,
    "шість": 6,
}
_FUNCTION_WORDS: Final = frozenset(
    {"a", "an", "and", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with"}
)
_NO_TYPE_WORDS: Final = frozenset({"damage", "урон", "урона", "шкода", "шкоди"})
"""What may follow a damage type in a list of them without changing it ("fire damage")."""


class Extras(msgspec.Struct, kw_only=True):
    """What the block says of these, None or empty where it says nothing."""

    saves: dict[str, int] = msgspec.field(default_factory=dict)
    """The saving throws the block lists, by ability ("dex": 6): its "Saving Throws" line, or the 2024 table's
    SAVE column (all six)."""
    resist: list[str] = msgspec.field(default_factory=list)
    immune: list[str] = msgspec.field(default_factory=list)
    vulnerable: list[str] = msgspec.field(default_factory=list)
    legendary: int | None = None
    legendary_resistance: int | None = None
    evasion: bool = False
    abilities: list[str] = msgspec.field(default_factory=list)
    """In the sheet's mini-language, one item each."""
    legendary_names: list[str] = msgspec.field(default_factory=list)
    """The legendary actions' names, in the order printed."""
    legendary_heading: str = "Legendary Actions"
    """Their heading as printed ("Легендарные действия")."""
    notes: list[str] = msgspec.field(default_factory=list)


def ability_kind(word: str) -> str | None:
    """The ability a word names, short or whole, in English, Russian or Ukrainian ("Dex", "Ловкости"); None for
    none."""
    lowered = word.casefold()
    return next((kind for stem, kind in _ABILITY_STEMS if lowered.startswith(stem)), None)


def damage_type_of(word: str) -> str | None:
    """The damage type a word of a block names ("Fire", "огнём", "колючої"); None for none."""
    lowered = word.casefold().replace("ё", "е")
    if lowered in DAMAGE_TYPES:
        return lowered
    return next((kind for stem, kind in _TYPE_STEMS if lowered.startswith(stem)), None)


def _one_line(text: str) -> str:
    return " ".join(text.split())


# -- saving throws -------------------------------------------------------------------------------------------
_SAVES_LABEL = re.compile(
    r"(?:Saving Throws|Спасброски|Спас-броски|Рятівні кидки|Рятувальні кидки)\s*:?\s*", re.IGNORECASE
)
_SAVE_ITEM = re.compile(r"([^\W\d_]{3,14})\.?\s*([+-])\s?(\d{1,2})(?!\d)\s*[,;]?\s*")
_SAVES_2024 = re.compile(r"(?<!\w)([^\W\d_]{3,4})\s+(\d{1,2})\s+([+-]\d{1,2})\s+([+-]\d{1,2})(?!\d)")


def _listed_saves(joined: str) -> dict[str, int]:
    """The "Saving Throws Dex +6, Con +13" line (its first six items at most)."""
    found: dict[str, int] = {}
    label = _SAVES_LABEL.search(joined)
    if label is None:
        return found
    at = label.end()
    for _item in range(6):
        item = _SAVE_ITEM.match(joined, at)
        kind = ability_kind(item.group(1)) if item else None
        if item is None or kind is None or kind in found:
            break
        found[kind] = int(item.group(2) + item.group(3))
        at = item.end()
    return found


def _table_saves(joined: str) -> dict[str, int]:
    """The 2024 table's SAVE column: "Str 27 +8 +8 Dex 10 +0 +6 …" (the score, the modifier, the save)."""
    found: dict[str, int] = {}
    for row in _SAVES_2024.finditer(joined):
        kind = ability_kind(row.group(1))
        if kind is not None and kind not in found:
            found[kind] = int(row.group(4))
        if len(found) == 6:
            break
    return found if len(found) == 6 else {}


def saves_of(listed: dict[str, int], scores: tuple[int, ...] | None) -> str:
    """The sheet's ``saves``: every ability in the book's order, the bonus the block lists or the modifier of the
    score ("Str +8, Dex +6, Con +13, Int +3, Wis +7, Cha +11"); only those listed when the scores are not known."""
    parts = []
    for index, kind in enumerate(ABILITY_KINDS):
        if kind in listed:
            bonus: int | None = listed[kind]
        else:
            bonus = (scores[index] - 10) // 2 if scores is not None and len(scores) == 6 else None
        if bonus is not None:
            parts.append(f"{kind.capitalize()} {bonus:+d}")
    return ", ".join(parts)


# -- resistances, immunities, vulnerabilities ---------------------------------------------------------------------
_DEFENCE_LABEL = re.compile(
    r"(?<!\w)(?:(?P<conditions>Condition Immunities|Иммунитет к состояниям|Імунітет до станів)|"
    r"(?P<resist>Damage Resistances|Сопротивлени[ея] урону|Опір шкоді|Стійкість до шкоди|Resistances|Сопротивления|"
    r"Сопротивление|Опір|Стійкість)|"
    r"(?P<immune>Damage Immunities|Иммунитет к урону|Імунітет до шкоди|Immunities|Иммунитеты|Иммунитет|Імунітети|"
    r"Імунітет)|"
    r"(?P<vulnerable>Damage Vulnerabilities|Уязвимость к урону|Вразливість до шкоди|Vulnerabilities|Уязвимости|"
    r"Уязвимость|Вразливості|Вразливість))(?!\w)",
    re.IGNORECASE,
)
_DEFENCE_END = re.compile(
    r"(?<!\w)(?:Senses|Languages|Challenge|Skills|Saving Throws|Gear|CR|Чувства|Языки|"
    r"Опасность|Навыки|Спасброски|Снаряжение|Чуття|Мови|Небезпека|Рівень небезпеки|Навички|"
    r"Рятівні кидки|Спорядження)(?!\w)"
)
"""What ends a list of damage types: the next line of the block (case matters: "Senses", not "senses")."""
_ITEMS = re.compile(r"\s*,\s*(?:and\s+|и\s+|і\s+|й\s+|та\s+)?|\s+(?:and|и|і|й|та)\s+")


def _defences(header: str, extras: Extras) -> None:
    """The damage types of the lines before the challenge rating; a condition, or what a type's list adds ("from
    nonmagical attacks"), goes to the notes as printed."""
    ends = [found.start() for found in _DEFENCE_END.finditer(header)]
    labels = list(_DEFENCE_LABEL.finditer(header))
    end_at = 0
    for number, label in enumerate(labels):
        stop = labels[number + 1].start() if number + 1 < len(labels) else len(header)
        while end_at < len(ends) and ends[end_at] < label.end():
            end_at += 1
        if end_at < len(ends):
            stop = min(stop, ends[end_at])
        value = _one_line(header[label.end() : stop]).strip(" :,;.")
        kind = label.lastgroup or ""
        if not value:
            continue
        if kind == "conditions":
            extras.notes.append(f"{_one_line(label.group(0))} {value}")
            continue
        for group in value.split(";"):
            types, plain = _types(group)
            getattr(extras, kind).extend(kind_ for kind_ in types if kind_ not in getattr(extras, kind))
            if not plain and group.strip(" ,."):
                extras.notes.append(f"{_one_line(label.group(0))} {group.strip(' ,.')}")


def _types(group: str) -> tuple[list[str], bool]:
    """The damage types of one ";"-separated part of a list, and whether it is nothing but types."""
    types: list[str] = []
    plain = True
    for item in _ITEMS.split(group.strip(" ,.")):
        words = item.split()
        if not words:
            continue
        kind = damage_type_of(words[0].strip(".,"))
        if kind is None:
            plain = False
            continue
        types.append(kind)
        if any(word.casefold().strip(".,") not in _NO_TYPE_WORDS for word in words[1:]):
            plain = False
    return types, plain


# -- Multiattack ---------------------------------------------------------------------------------------------------
_ONE: Final = frozenset({"one", "один", "одну", "одна", "одно", "одним"})


def attack_count(sentence: str) -> int | None:
    """How many attacks a Multiattack sentence says ("makes three attacks", "makes 2 attacks", "makes one bite
    attack and two claw attacks"); None when it says no number."""
    words = [word.strip(",:").lower() for word in sentence.split()]
    numbers = [_NUMBER_WORDS.get(word) for word in words if word in _NUMBER_WORDS or word in _ONE]
    said = [number or 1 for number in numbers]
    if said and said[0] == 1:  # "makes one Flame Whip attack and one Lightning Blade attack"
        return sum(said[:6])
    if said:
        return said[0]
    return next((int(word) for word in words if word.isdecimal() and len(word) <= 2), None)


# -- legendary actions, Legendary Resistance, Evasion ---------------------------------------------------------------
_LEGENDARY_USES = re.compile(
    r"(?:Legendary Action Uses|Использовани\w{0,3} легендарн\w{0,3} действий|"
    r"Використанн?\w{0,3} легендарн\w{0,3} дій)\s*:\s*(\d{1,2})(?!\d)",
    re.IGNORECASE,
)
_LEGENDARY_COUNT = re.compile(
    r"(?<!\w)(\d{1,2}|[^\W\d_]{3,6}['’]?[^\W\d_]{0,3})\s+(?:legendary actions?|"
    r"легендарн\w{0,4}\s+(?:действи\w{0,3}|ді\w{0,3}))(?!\w)",
    re.IGNORECASE,
)
_LEGENDARY_RESISTANCE = re.compile(
    r"(?:Legendary Resistance|Легендарное сопротивление|Легендарний опір|"
    r"Легендарна стійкість)\s*\(\s*(\d{1,2})\s*/\s*(?:Day|день|добу|сутки)",
    re.IGNORECASE,
)
_EVASION = frozenset({"evasion", "увёртливость", "увертливость", "уклонение", "ухилення", "ухильність"})
_MULTIATTACK = frozenset({"multiattack", "мультиатака"})
_LEGENDARY_HEADING = re.compile(
    r"(?<!\w)(?:Legendary Actions|LEGENDARY ACTIONS|Легендарные действия|"
    r"ЛЕГЕНДАРНЫЕ ДЕЙСТВИЯ|Легендарні дії|ЛЕГЕНДАРНІ ДІЇ)(?!\w)"
)
_OTHER_HEADING = re.compile(
    r"(?<!\w)(?:Lair Actions|Mythic Actions|Regional Effects|Действия логова|Дії лігва)"
    r"(?!\w)"
)


def _legendary(joined: str) -> int | None:
    uses = _LEGENDARY_USES.search(joined)
    if uses is not None:
        return int(uses.group(1))
    for found in _LEGENDARY_COUNT.finditer(joined):
        word = found.group(1).casefold()
        count = int(word) if word.isdecimal() else _NUMBER_WORDS.get(word)
        if count:
            return count
    return None


# -- special abilities -----------------------------------------------------------------------------------------
_NAME = re.compile(
    r"(?P<name>[^\W\d_][^\W\d_'’ -]*(?:[ -][^\W\d_'’][^\W\d_'’-]*|['’][^\W\d_]{1,3}){0,7})"
    r"(?:\s*(?P<paren>\([^()\n]{1,60}\)))?\.(?:\s|$)"
)
"""A paragraph's name: up to eight words of letters, a parenthesis after it ("(Recharge 5–6)", "(3/Day)"), a full
stop."""
_SENTENCE_START = re.compile(r"[.!?]\s+(?=[^\W\d_])")
_HEADING_WORDS = re.compile(
    r"^(?:(?:Bonus |Legendary |Lair |Mythic )?Actions|Reactions|Traits|Бонусные действия|"
    r"Легендарные действия|Действия|Реакции|Особенности|Бонусні дії|Легендарні дії|Дії|"
    r"Реакції|Риси)\s+",
    re.IGNORECASE,
)
_HEADING_LINE = re.compile(
    r"^(?:(?:Bonus |Legendary |Lair |Mythic )?Actions|Reactions|Traits|Бонусные действия|"
    r"Легендарные действия|Действия логова|Действия|Реакции|Особенности|Бонусні дії|"
    r"Легендарні дії|Дії лігва|Дії|Реакції|Риси)[ .:]*$",
    re.IGNORECASE | re.MULTILINE,
)
_RECHARGE = re.compile(r"(?:Recharge|Перезарядка|Перезаряджання|Перезарядження)\s*(\d)(?:\s*-\s*(\d))?", re.IGNORECASE)
_ATTACK_START = re.compile(
    r"\s*(?:Melee or Ranged|Melee|Ranged|Рукопашная или дальнобойная|Рукопашная|Дальнобойная|"
    r"Ближня|Дальня|Атака ближнім|Атака дальнім|Рукопашна|Дальнобійна)[^:]{0,40}:\s*[+-]\d",
    re.IGNORECASE,
)
_SAVE_2014 = re.compile(
    r"(?<!\w)(?:DC|Сл|СЛ|СК|Ск)\s*(\d{1,2})(?!\d)\s+([^\W\d_]{3,14})\s+(?:saving throw|"
    r"спасброс\w{0,4}|рятівн\w{0,4}\s+кид\w{0,4}|рятувальн\w{0,4}\s+кид\w{0,4})",
    re.IGNORECASE,
)
_SAVE_2024 = re.compile(r"([^\W\d_]{3,14})\s+Saving Throw\s*:\s*DC\s*(\d{1,2})(?!\d)", re.IGNORECASE)
_SAVE_TRANSLATED = re.compile(
    r"(?:спасброс\w{0,4}|рятівн\w{0,4}\s+кид\w{0,4}|рятувальн\w{0,4}\s+кид\w{0,4})\s+"
    r"([^\W\d_]{3,14})\s*[:(]?\s*(?:(?:со|с|зі|із|з)\s+)?(?:Сл|СЛ|СК|Ск|DC)\s*(\d{1,2})(?!\d)",
    re.IGNORECASE,
)
_DAMAGE = re.compile(r"(?<![\w(])(\d{1,4})\s*\(\s*(\d{0,3}d\d{1,3}(?:\s*[+-]\s*\d{1,4})?)\s*\)", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+")
_JOINS_DAMAGE = re.compile(r"(?<!\w)(?:plus|and|плюс|и|і|та|а также|а також)(?!\w)", re.IGNORECASE)
_HALF = re.compile(
    r"half as much|half damage|половин\w{0,3}\s+(?:(?:этого|того|цього|цієї|тієї|от)\s+){0,2}"
    r"(?:урона|урон|шкоди|шкода)",
    re.IGNORECASE,
)
"""What a success leaves: half the damage ("or half as much damage on a successful one", "Success: Half damage.",
"половину этого урона при успехе")."""
_SHAPES: Final = (
    ("cone", "cone"),
    ("конус", "cone"),
    ("line", "line"),
    ("лини", "line"),
    ("ліні", "line"),
    ("sphere", "sphere"),
    ("сфер", "sphere"),
    ("cylinder", "cylinder"),
    ("цилиндр", "cylinder"),
    ("циліндр", "cylinder"),
    ("cube", "cube"),
    ("куб", "cube"),
    ("emanation", "emanation"),
    ("эманаци", "emanation"),
    ("еманаці", "emanation"),
)
_SHAPE = re.compile(
    r"(?<!\w)(?:cone|line(?! of sight)|sphere|cylinder|cube|emanation|конус\w{0,4}|лини\w{0,4}|"
    r"ліні\w{0,4}|сфер\w{0,4}|цилиндр\w{0,4}|циліндр\w{0,4}|куб(?:а|е|ом|у|ы|і)?|эманаци\w{0,4}|"
    r"еманаці\w{0,4})(?!\w)",
    re.IGNORECASE,
)
_FEET = re.compile(r"(?<!\d)(\d{1,4})\s*-?\s*(?:feet|foot|ft\.?|фут\w{0,4}|фт\.?)(?!\w)", re.IGNORECASE)
_WIDE_AFTER = re.compile(r"wide", re.IGNORECASE)
_WIDE_BEFORE = re.compile(r"шир|завширш", re.IGNORECASE)
_HIGH_AFTER = re.compile(r"high|tall", re.IGNORECASE)
_HIGH_BEFORE = re.compile(r"высот|заввишки|висот", re.IGNORECASE)
"""A line's width and a cylinder's height: named after the number in English ("10 feet wide"), before it in
Russian and Ukrainian ("шириной 10 футов")."""
_WITHIN = re.compile(
    r"(?:within|в пределах|в межах|у межах)\s+(\d{1,4})\s*(?:feet|foot|ft\.?|фут\w{0,4}|фт\.?)"
    r"(?!\w)",
    re.IGNORECASE,
)


class Paragraph(NamedTuple):
    start: int
    name: str
    paren: str
    body: str


def _title_case(name: str) -> bool:
    """An English paragraph name is in Title Case ("Wing Attack", "Keen Hearing and Smell"); a sentence is not."""
    words = [word for word in re.split(r"[ -]", name) if word]
    return all(word[0].isupper() or word.casefold() in _FUNCTION_WORDS for word in words) and words[0][0].isupper()


def _latin(name: str) -> bool:
    return all(ord(char) < 0x250 for char in name if char.isalpha())


def _paragraph_starts(text: str) -> list[tuple[int, re.Match[str]]]:
    """Where a paragraph's name is: at the start of a line, or (an English Title Case name) after a sentence."""
    starts: list[tuple[int, re.Match[str]]] = []
    at = 0
    while at < len(text):
        line_end = text.find("\n", at)
        line_end = len(text) if line_end < 0 else line_end
        candidates = [at] + [found.end() for found in _SENTENCE_START.finditer(text, at, line_end)]
        for number, start in enumerate(candidates):
            name = _NAME.match(text, start, min(line_end, start + 160))
            if name is None:
                continue
            words = _HEADING_WORDS.sub("", name.group("name"))
            if words.casefold() in ("actions", "действия", "дії") or not words:
                continue
            if _latin(words) and not _title_case(words):
                continue
            if number > 0 and not _latin(words):
                continue  # a Russian or Ukrainian name is not told from a short sentence: only at a line's start
            starts.append((start, name))
        at = line_end + 1
    return starts


def _paragraphs(text: str) -> list[Paragraph]:
    """The block's named paragraphs, each to the next one or to the next heading on a line of its own."""
    starts = _paragraph_starts(text)
    headings = [found.start() for found in _HEADING_LINE.finditer(text)]
    found: list[Paragraph] = []
    heading_at = 0
    for number, (start, name) in enumerate(starts):
        end = starts[number + 1][0] if number + 1 < len(starts) else len(text)
        while heading_at < len(headings) and headings[heading_at] < name.end():
            heading_at += 1
        if heading_at < len(headings):
            end = min(end, headings[heading_at])
        words = _HEADING_WORDS.sub("", name.group("name")).strip()
        found.append(
            Paragraph(start=start, name=words, paren=name.group("paren") or "", body=_one_line(text[name.end() : end]))
        )
    return found


def _save(body: str) -> tuple[str, int, int] | None:
    """The ability and DC of the first saving throw the paragraph asks for, and where its words end."""
    best: tuple[int, str, int, int] | None = None
    for pattern, ability_group, dc_group in ((_SAVE_2014, 2, 1), (_SAVE_2024, 1, 2), (_SAVE_TRANSLATED, 1, 2)):
        for found in pattern.finditer(body):
            kind = ability_kind(found.group(ability_group))
            if kind is None:
                continue
            if best is None or found.start() < best[0]:
                best = (found.start(), kind, int(found.group(dc_group)), found.end())
            break
    return best[1:] if best is not None else None


def _type_near(body: str, start: int, end: int) -> str:
    """The damage type named in the three words after a damage roll, else in the three before it."""
    after = _WORD.findall(body, end, min(end + 40, len(body)))[:3]
    before = _WORD.findall(body, max(start - 40, 0), start)[-3:]
    for word in [*after, *reversed(before)]:
        kind = damage_type_of(word)
        if kind is not None:
            return kind
    return ""


def _damage(body: str, start: int) -> tuple[str, int]:
    """ "17d6 fire", "9d6 fire plus 9d6 force": the damage rolled from ``start`` on, its parts joined by "plus";
    and where its last roll ends."""
    parts: list[str] = []
    last_end = -1
    for found in _DAMAGE.finditer(body, start):
        if parts and (found.start() - last_end > 60 or not _JOINS_DAMAGE.search(body, last_end, found.start())):
            break
        kind = _type_near(body, found.start(), found.end())
        parts.append(re.sub(r"\s+", "", found.group(2)).lower() + (f" {kind}" if kind else ""))
        last_end = found.end()
        if len(parts) == 3:
            break
    return " plus ".join(parts), last_end


def _area(body: str) -> str:
    """ "cone 60 ft", "line 90x10 ft", "emanation 10 ft" (within 10 feet of it); "" for none."""
    shape = _SHAPE.search(body)
    kind = next((name for stem, name in _SHAPES if shape.group(0).casefold().startswith(stem)), "") if shape else ""
    if shape is not None and kind:
        window_start, window_end = max(shape.start() - 50, 0), min(shape.end() + 60, len(body))
        lengths: list[tuple[int, int]] = []
        width = 0
        numbers = list(_FEET.finditer(body, window_start, window_end))
        for number, found in enumerate(numbers):
            before = body[max(found.start() - 10, numbers[number - 1].end() if number else 0) : found.start()]
            after = body[
                found.end() : min(
                    found.end() + 8, numbers[number + 1].start() if number + 1 < len(numbers) else found.end() + 8
                )
            ]
            if _WIDE_AFTER.search(after) or _WIDE_BEFORE.search(before):
                width = width or int(found.group(1))
            elif not _HIGH_AFTER.search(after) and not _HIGH_BEFORE.search(before):
                distance = found.start() - shape.end() if found.start() > shape.start() else shape.start() - found.end()
                lengths.append((distance, int(found.group(1))))
        if lengths:
            size = min(lengths)[1]
            return f"{kind} {size}" + (f"x{width}" if kind == "line" and width else "") + " ft"
    within = _WITHIN.search(body)
    return f"emanation {within.group(1)} ft" if within else ""


def _ability(paragraph: Paragraph) -> str:
    """The paragraph as the sheet's ability, "" when it is none (no save, no damage in an area, no recharge)."""
    in_name = _RECHARGE.search(paragraph.paren) if paragraph.paren else None
    recharge = in_name or _RECHARGE.match(paragraph.body)
    name = _one_line(re.sub(r"[:;,]", " ", paragraph.name if in_name else f"{paragraph.name} {paragraph.paren}"))
    recharged = ""
    if recharge is not None:
        low = int(recharge.group(1))
        if 1 <= low <= 6 and recharge.group(2) in (None, "6"):
            recharged = "recharge 6" if low == 6 else f"recharge {low}-6"
    if _ATTACK_START.match(paragraph.body):  # an attack, a save rider or not, stays an attack
        return f"{name}: {recharged}" if recharged else ""
    save = _save(paragraph.body)
    area = _area(paragraph.body)
    damage, damage_end = _damage(paragraph.body, save[2]) if save else (_damage(paragraph.body, 0) if area else ("", 0))
    if save is None and not damage and not recharged:
        return ""
    clauses = [damage]
    if save is not None:
        said = _HALF.search(paragraph.body, save[2], damage_end + 120)
        on_save = ("half" if said else "none") if damage else ""
        clauses.append(f"{save[0].capitalize()} {save[1]}" + (f" {on_save}" if on_save else ""))
    clauses += [recharged, area if damage or save is not None else ""]  # (a teleport's reach is no area)
    return f"{name}: " + ", ".join(clause for clause in clauses if clause)


def read_extras(text: str, joined: str, header_end: int | None) -> Extras:
    """What the cleaned block ``text`` (its lines kept; ``joined``, the same on one line) says of saves, damage
    types, legendary actions and resistance, Evasion and special abilities; ``header_end``: where the challenge
    rating is in ``joined`` (the lists of damage types are before it)."""
    header = joined[:header_end] if header_end is not None else joined
    extras = Extras(saves=_table_saves(header) or _listed_saves(header))
    _defences(header, extras)
    extras.legendary = _legendary(joined)
    resistance = _LEGENDARY_RESISTANCE.search(joined)
    extras.legendary_resistance = int(resistance.group(1)) if resistance else None
    legendary_from = _LEGENDARY_HEADING.search(text)
    if legendary_from is not None:
        extras.legendary_heading = legendary_from.group(0)
    other = _OTHER_HEADING.search(text, legendary_from.end()) if legendary_from else None
    seen: set[str] = set()
    for paragraph in _paragraphs(text):
        folded = paragraph.name.casefold()
        if folded in _EVASION:
            extras.evasion = True
            continue
        if folded in _MULTIATTACK or _LEGENDARY_RESISTANCE.match(f"{paragraph.name} {paragraph.paren}"):
            continue
        if (
            legendary_from is not None
            and paragraph.start > legendary_from.start()
            and (other is None or paragraph.start < other.start())
        ):
            extras.legendary_names.append(f"{paragraph.name} {paragraph.paren}".strip())
        ability = _ability(paragraph)
        key = ability.split(":", 1)[0].casefold()
        if ability and key not in seen:
            seen.add(key)
            extras.abilities.append(ability)
    return extras


# -- as the sheet holds it ---------------------------------------------------------------------------------------
DEFENCE_LABELS: Final = (
    ("resist", N_("Damage resistances")),
    ("immune", N_("Damage immunities")),
    ("vulnerable", N_("Damage vulnerabilities")),
)


def fill_sheet(
    extras: Extras,
    scores: tuple[int, ...] | None,
    sheet: dict[str, object],
    read: list[tuple[str, str]],
    unread: list[str],
) -> None:
    """``extras`` written in the 5e ``sheet``, each said in ``read`` (label — a message id —, value); an ability
    its sheet would refuse is left in ``unread`` for the GM."""
    saves = saves_of(extras.saves, scores)
    if saves:
        sheet["saves"] = saves
        read.append((N_("Saving throws"), saves))
    for key, label in DEFENCE_LABELS:
        types: list[str] = getattr(extras, key)
        if types:
            sheet[key] = ", ".join(types)
            read.append((label, ", ".join(types)))
    if extras.legendary_resistance:
        sheet["legendary_resistance"] = extras.legendary_resistance
        read.append((N_("Legendary Resistance (a day)"), str(extras.legendary_resistance)))
    if extras.legendary:
        sheet["legendary"] = extras.legendary
        read.append((N_("Legendary actions (a round)"), str(extras.legendary)))
    if extras.evasion:
        sheet["evasion"] = True
        read.append((N_("Evasion"), "✓"))
    kept = []
    for ability in extras.abilities:
        try:
            parse_abilities(ability)
        except RuleError:
            unread.append(ability)
            continue
        kept.append(ability)
        read.append((N_("Special abilities"), ability))
    if kept:
        sheet["abilities"] = "; ".join(kept)
