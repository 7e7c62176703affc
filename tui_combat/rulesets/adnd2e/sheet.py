"""A combatant's AD&D sheet: class and level (or Hit Dice), THAC0, weapons and attack forms, attacks per
round.

Attack forms and repeated attacks are kept apart, as the seed's "Multiple attacks and initiative" does:

* **forms** strike together in the combatant's own slot: every natural attack form (claw, claw, bite)
  and both weapons of a two-weapon fighter;
* **repeated uses of the same weapon** (3/2, 2/1 from class and level, a specialist's extra half attack,
  haste) come after everyone's first attack, in the same initiative order. A two-weapon fighter repeats
  his main weapon; haste repeats everything he strikes with.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeVar

import msgspec

from tui_combat.engine.contract import FieldSpec
from tui_combat.engine.dice import Constant, DiceError, parse, with_bonus
from tui_combat.engine.errors import RuleError
from tui_combat.engine.mistakes import convert_sheet, refuse, validation_text
from tui_combat.engine.model import Combatant
from tui_combat.i18n import N_, _, english_word
from tui_combat.rulesets.adnd2e.data import ATTACK_KINDS, AttackKind, tables
from tui_combat.rulesets.adnd2e.save_text import class_levels, own_saves
from tui_combat.rulesets.names import NameTable, made_once

__all__ = [
    "CLASSES",
    "LARGE",
    "SIZES",
    "Sheet",
    "is_large",
    "table_damage",
    "armour_modifier",
    "damage_of",
    "armour_name",
    "attack_plan",
    "attack_rate",
    "attacks_this_round",
    "canonical_sheet",
    "check_sheet_values",
    "first_forms",
    "hit_dice",
    "level_text",
    "magic_of",
    "sheet_of",
    "thac0",
    "uses_natural_weapons",
    "weapon_key",
    "weapon_kinds",
    "weapon_name",
    "weapon_speed",
]

S = TypeVar("S", bound="Sheet")

CLASSES = (N_("warrior"), N_("wizard"), N_("priest"), N_("rogue"), N_("monster"))
EARLIER_CLASS_WORDS = {"воитель": "warrior", "шахрай": "rogue"}
"""Class words the forms showed in earlier versions, still read in a file written then ("воитель", now "воин";
uk "шахрай", now "пройдисвіт")."""
SIZES = (N_("tiny"), N_("small"), N_("medium"), N_("large"), N_("huge"), N_("gargantuan"))


class Sheet(msgspec.Struct, frozen=True, kw_only=True):
    cls: str = "warrior"
    level: int | str = 1
    """Level for characters; Hit Dice for monsters, pluses and minuses included ("4+1", "6+6", "1-1", "1/2")."""
    thac0: int = 0
    """0 means: work it out from class and level (or Hit Dice)."""
    ac: int = 10
    dex_ac: int = 0
    """The Dexterity adjustment already in his AC (−2: two better); a surprised combatant loses a bonus."""
    armour: str = ""
    """The armour's type (weapon type vs armour type); "" when none or not known."""
    weapon: str = ""
    speed: int = -1
    """−1 means: look the weapon up in the speed table."""
    magic: int = 0
    damage: str = ""
    """The weapon's damage dice ("1d4+1"), or each natural attack form's in order ("1d4+4, 1d4+4, 2d6");
    "" when not known (the GM types it). The weapon's bonus is added when the damage is asked for."""
    weapon2: str = ""
    """A second weapon used together with the first (two-weapon fighting): both strike in the same slot."""
    magic2: int = 0
    damage2: str = ""
    """The second weapon's damage dice."""
    forms: str = ""
    """Natural attack forms that strike together: "claw, claw, bite"."""
    size: str = "medium"
    natural: bool = False
    attacks: str = ""
    """"" means: from class and level; else a rate such as 1/1, 3/2, 2/1."""
    specialist: bool = False
    spells: str = ""
    """"name casting-time" pairs separated by commas: "acid arrow 2, haste 3, fireball 3"."""
    save_bonus: int = 0
    """Added to every saving throw's d20 (race, magic: the GM's figure)."""
    saves: str = ""
    """A monster's own saving throws, five numbers in PHB Table 60's order ("12 14 13 15 15"), where its book
    entry gives them; "" to take them from the table."""
    multiclass: str = ""
    """His other classes and levels ("wizard 6"; a spellcasting monster's "wizard 7"): his saves take the best
    of each column."""
    mindless: bool = False
    """A monster of no intelligence: it saves at half its level, but against paralyzation, poison, death magic."""


def sheet_of(combatant: Combatant) -> Sheet:
    try:
        return msgspec.convert(combatant.sheet, Sheet, strict=False)
    except msgspec.ValidationError as error:
        raise RuleError(
            _("{name}: {error}", name=combatant.name, error=validation_text(error, combatant.sheet))
        ) from None


def weapon_key(name: str) -> str:
    return " ".join(name.strip().lower().split())


def _name_tables() -> tuple[NameTable, NameTable]:
    """The weapons' and the armours' names with their aliases, for the tables in use (house rules too)."""
    data = tables()
    return (
        made_once(data, "weapons", lambda: NameTable(data.weapon_speeds, data.weapon_aliases)),
        made_once(data, "armour", lambda: NameTable(data.armour_types, data.armour_aliases)),
    )


def weapon_name(name: str) -> str:
    """The speed table's name for a weapon written as the GM wrote it (an alias such as "боевой молот"
    included); the name itself when the table does not know it."""
    return _name_tables()[0].find(name) or name


def armour_name(name: str) -> str | None:
    """The armour table's name for an armour written as the GM wrote it; None when it does not know it."""
    return _name_tables()[1].find(name)


def _unknown_weapon(name: str) -> RuleError:
    close = _name_tables()[0].close(name)
    if close:
        return RuleError(
            _(
                'Unknown weapon "{weapon}". Did you mean: {close}? (Or give its speed.)',
                weapon=name.strip(),
                close=", ".join(close),
            )
        )
    return RuleError(_('Unknown weapon "{weapon}"; give its speed, or add it to the house rules.', weapon=name.strip()))


def _table_speed(name: str) -> int:
    data = tables()
    speeds = made_once(data, "speeds by key", lambda: {weapon_key(k): v for k, v in data.weapon_speeds.items()})
    speed = speeds.get(weapon_key(weapon_name(name)))
    if speed is None:
        raise _unknown_weapon(name)
    return speed


def weapon_speed(sheet: Sheet) -> int:
    """The main weapon's speed factor, less its magical bonus, never below 0 (bastard sword +1 used
    two-handed: 8 → 7; war hammer +4: 4 → 0). An unknown weapon without a speed is refused."""
    if sheet.speed >= 0:
        base = sheet.speed
    elif sheet.weapon.strip():
        base = _table_speed(sheet.weapon)
    else:
        base = 0
    return max(base - max(sheet.magic, 0), 0)


def slowest_weapon_speed(sheet: Sheet) -> int:
    """A two-weapon fighter strikes with both at once, so the slower weapon sets his speed."""
    speed = weapon_speed(sheet)
    if sheet.weapon2.strip():
        speed = max(speed, max(_table_speed(sheet.weapon2) - max(sheet.magic2, 0), 0))
    return speed


def weapon_kinds(name: str) -> tuple[AttackKind, ...]:
    """Slashing / piercing / bludgeoning for a weapon (or an attack form the house rules name); () unknown."""
    types = {weapon_key(k): v for k, v in tables().weapon_types.items()}
    return types.get(weapon_key(weapon_name(name)), ())


def armour_modifier(weapon: str, armour: str) -> tuple[int, AttackKind | None]:
    """What the armour adds to the number needed against this weapon, and the kind that applies (the best
    for the attacker when the weapon has several); (0, None) when either is unknown."""
    canonical = armour_name(armour)
    row = tables().armour_types.get(canonical) if canonical is not None else None
    kinds = weapon_kinds(weapon)
    if row is None or not kinds:
        return 0, None
    best = min(kinds, key=lambda kind: getattr(row, kind))
    return int(getattr(row, best)), best


def uses_natural_weapons(sheet: Sheet) -> bool:
    return not sheet.weapon.strip() and (sheet.natural or bool(sheet.forms.strip()))


def natural_forms(sheet: Sheet) -> list[str]:
    return [form.strip() for form in sheet.forms.split(",") if form.strip()]


def first_forms(sheet: Sheet) -> tuple[str, ...]:
    """What strikes together in the combatant's own slot: his weapons, then his natural attack forms."""
    forms = [w.strip() for w in (sheet.weapon, sheet.weapon2) if w.strip()] + natural_forms(sheet)
    if not forms:
        forms = [N_("natural weapons") if sheet.natural else N_("bare hands")]
    return tuple(forms)


def magic_of(sheet: Sheet, form: str) -> int:
    """The magical bonus to hit of one attack form: the weapon's plus; natural forms have none."""
    if sheet.weapon.strip() and weapon_key(form) == weapon_key(sheet.weapon):
        return sheet.magic
    if sheet.weapon2.strip() and weapon_key(form) == weapon_key(sheet.weapon2):
        return sheet.magic2
    return 0


LARGE = ("large", "huge", "gargantuan")
"""The sizes that take a weapon's damage against large (PHB Table 44's L column)."""


def table_damage(weapon: str) -> tuple[str, str] | None:
    """PHB Table 44's (small or man-sized, large) damage of a weapon; None when the table does not know it."""
    rows = {weapon_key(k): v for k, v in tables().weapon_damage.items()}
    return rows.get(weapon_key(weapon_name(weapon)))


def _split(dice: str) -> tuple[str, int]:
    """ "1d4+1" → ("1d4", 1): the dice and the constant added to them."""
    total = with_bonus(dice, 0)
    parsed = parse(total)
    constant = sum(term.value for term in parsed.terms if isinstance(term, Constant))
    return with_bonus(total, -constant) if constant else total, constant


def damage_of(sheet: Sheet, form: str, *, large: bool = False) -> str:
    """The damage dice of one attack form with the weapon's bonus added ("1d4+1" and +4 → "1d4+5"); "" when
    neither the sheet nor the weapon table gives them. Against a large target a weapon of the table deals
    its large column; a constant the sheet adds to the table's small/medium dice (Strength) is kept, and a
    sheet whose dice differ from the table's is the GM's own figure, used against every size."""
    key = weapon_key(form)
    weapon = ""
    if sheet.weapon.strip() and key == weapon_key(sheet.weapon):
        dice, weapon = sheet.damage.split(",")[0].strip(), sheet.weapon
    elif sheet.weapon2.strip() and key == weapon_key(sheet.weapon2):
        dice, weapon = sheet.damage2.strip(), sheet.weapon2
    else:
        forms = [weapon_key(name) for name in natural_forms(sheet)]
        each = [part.strip() for part in sheet.damage.split(",")]
        dice = each[forms.index(key)] if key in forms and forms.index(key) < len(each) else ""
    row = table_damage(weapon) if weapon else None
    if row is not None:
        small, big = row
        if not dice:
            dice = big if large else small
        elif large:
            own, extra = _split(dice)
            table, table_extra = _split(small)
            if own == table:
                dice = with_bonus(big, extra - table_extra)
    return with_bonus(dice, magic_of(sheet, form)) if dice else ""


def is_large(sheet: Sheet) -> bool:
    return sheet.size in LARGE


# -- level, Hit Dice, THAC0 ----------------------------------------------------------------------------
def hit_dice(level: int | str) -> float:
    """Hit Dice as the THAC0 table reads them: "4+1" → 4, "6+6" → 7 (+3 or more hit points count as one
    more die), "1-1" and "1/2" → 0.5 (less than one full die)."""
    if isinstance(level, int):
        return float(level)
    text = level.strip().replace("−", "-").replace(" ", "").replace("½", "1/2")
    try:
        if "/" in text:
            number, _sep, per = text.partition("/")
            return min(int(number) / int(per), 0.5) if int(per) > 0 else 0.5
        if "+" in text:
            dice, _sep, plus = text.partition("+")
            extra = 1 if int(plus) >= tables().thac0.extra_hit_points_count_as_die else 0
            return float(int(dice) + extra)
        if "-" in text[1:]:
            dice, _sep, _minus = text.partition("-")
            return int(dice) - 0.5
        return float(int(text))
    except ValueError:
        raise RuleError(_('Hit Dice "{value}" are not like 4, 4+1 or 1-1.', value=level)) from None


def level_number(sheet: Sheet) -> int:
    try:
        return int(sheet.level)
    except ValueError:
        raise RuleError(_('Level "{value}" is not a whole number.', value=sheet.level)) from None


def level_text(sheet: Sheet) -> str:
    return str(sheet.level).strip()


def thac0(sheet: Sheet) -> int:
    if sheet.thac0:
        return sheet.thac0
    data = tables().thac0
    if sheet.cls == "monster":
        dice = hit_dice(sheet.level)
        for max_hd, value in data.monsters:
            if dice <= max_hd:
                return value
        return data.monsters[-1][1] if data.monsters else 20
    points, levels = data.rates.get(sheet.cls, (1, 1))
    return 20 - points * ((max(level_number(sheet), 1) - 1) // levels)


# -- attacks per round -----------------------------------------------------------------------------------
ONE_PER_ROUND = Fraction(1)


@lru_cache(maxsize=256)  # a Fraction is slow to make, and a mass battle asks for the same few rates 10,000 times
def _parse_rate(text: str) -> Fraction | None:
    number, _sep, per = text.strip().partition("/")
    try:
        rate = Fraction(int(number), int(per or "1"))
    except (ValueError, ZeroDivisionError):
        return None
    return rate if rate > 0 else None


def _rate_from_table(rows: tuple[tuple[int, str], ...], level: int) -> Fraction | None:
    chosen = None
    for from_level, rate in rows:
        if level >= from_level:
            chosen = rate
    return _parse_rate(chosen) if chosen else None


def attack_rate(sheet: Sheet) -> Fraction:
    """Attacks per round: the sheet's own rate, else by class and level (a specialist's table when he is
    one); 1/1 when nothing says otherwise."""
    own = _parse_rate(sheet.attacks) if sheet.attacks.strip() else None
    if own is not None:
        return own
    if sheet.cls == "monster":
        return ONE_PER_ROUND
    data = tables()
    level = level_number(sheet)
    table = data.attacks_specialist if sheet.specialist else data.attacks
    rows = table.get(sheet.cls) or data.attacks.get(sheet.cls, ())
    return _rate_from_table(rows, level) or ONE_PER_ROUND


def attacks_this_round(sheet: Sheet, round_number: int, three_halves: str, hasted: bool) -> int:
    """How many times the main weapon strikes this round: a rate of 3/2 gives 1 and 2 in turn (the two in
    even rounds, or odd ones with ``three_halves="odd"``); haste doubles it."""
    rate = attack_rate(sheet)
    at = round_number + (1 if three_halves == "odd" else 0)
    # The strikes due by the end of this round less those due by the end of the last, in whole numbers: as
    # int() of the fractions, worked out in integers (10,000 combatants' fractions took some 30 ms of the
    # initiative roll that orders them).
    count = _whole(at * rate.numerator, rate.denominator) - _whole((at - 1) * rate.numerator, rate.denominator)
    return max(count, 1) * (2 if hasted else 1)


def _whole(numerator: int, denominator: int) -> int:
    """``int(Fraction(numerator, denominator))`` for a positive denominator: the quotient cut towards zero."""
    quotient = abs(numerator) // denominator
    return quotient if numerator >= 0 else -quotient


def attack_plan(sheet: Sheet, round_number: int, three_halves: str, hasted: bool) -> tuple[tuple[str, ...], ...]:
    """What the combatant strikes with in each of his slots this round: the first entry in his own slot
    (every form together), each further one after everyone's first attack."""
    forms = first_forms(sheet)
    repeat = (sheet.weapon.strip(),) if sheet.weapon.strip() else forms
    own = attacks_this_round(sheet, round_number, three_halves, False)
    plan = [forms] + [repeat] * (own - 1)
    if hasted:
        plan += plan
    return tuple(plan)


# -- checking a sheet when it is entered -------------------------------------------------------------------
def canonical_sheet(sheet: dict[str, Any]) -> dict[str, Any]:
    """The sheet with its armour named as the table names it ("кольчуга" → "chain mail"), so that the
    set-up form shows it chosen; weapons stay as the GM wrote them (they are looked up when used)."""
    armour = sheet.get("armour")
    canonical = armour_name(armour) if isinstance(armour, str) and armour.strip() else None
    sheet = {**sheet, "armour": canonical} if canonical is not None and canonical != armour else sheet
    for key, words in (("cls", CLASSES), ("size", SIZES)):
        written = sheet.get(key)
        english = english_word(written, words) if isinstance(written, str) else None
        if english is None and key == "cls" and isinstance(written, str):
            english = EARLIER_CLASS_WORDS.get(" ".join(written.split()).casefold())
        if english is not None and english != written:  # "воитель", "большой": the words the forms show
            sheet = {**sheet, key: english}
    return sheet


def _did_you_mean(written: str, words: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(written.casefold(), words, n=1, cutoff=0.75)
    return " " + _('Did you mean "{word}"?', word=_(close[0])) if close else ""


def check_sheet_values(sheet: dict[str, Any], kind: type[S]) -> S:
    """The sheet as a :class:`Sheet` (or a subclass's), or a refusal naming the wrong fields: every field of the
    wrong kind or unknown, and the first other mistake."""
    checked, mistakes = convert_sheet(sheet, kind, forbid_unknown=True)
    try:
        _check_values(checked)
    except RuleError as error:
        mistakes.append(str(error))
    refuse(mistakes)
    return checked


def _check_values(checked: Sheet) -> None:
    if checked.cls not in CLASSES:
        raise RuleError(
            _('Class "{cls}" is not one of {known}.', cls=checked.cls, known=", ".join(_(word) for word in CLASSES))
            + _did_you_mean(checked.cls, CLASSES)
        )
    if checked.size not in SIZES:
        raise RuleError(
            _('Size "{size}" is not one of {known}.', size=checked.size, known=", ".join(_(word) for word in SIZES))
            + _did_you_mean(checked.size, SIZES)
        )
    if checked.cls == "monster":
        hit_dice(checked.level)
    elif level_number(checked) < 0 or (level_number(checked) == 0 and checked.cls != "warrior"):
        # A man-at-arms of no level is a warrior of level 0 (PHB Table 60's first warrior row).
        raise RuleError(_("Level must be 1 or more (a warrior's may be 0)."))
    if checked.weapon.strip() and checked.speed < 0:
        _table_speed(checked.weapon)
    if checked.weapon2.strip():
        if not checked.weapon.strip():
            raise RuleError(_("A second weapon needs a first one."))
        _table_speed(checked.weapon2)
    for dice in (*checked.damage.split(","), checked.damage2):
        if dice.strip():
            try:
                parse(dice.strip())
            except DiceError as error:
                raise RuleError(_('Damage "{dice}": {error}', dice=dice.strip(), error=error)) from None
    if checked.attacks.strip() and _parse_rate(checked.attacks) is None:
        raise RuleError(_('Attacks "{rate}" is not a rate such as 1/1, 3/2 or 2/1.', rate=checked.attacks))
    if checked.specialist and checked.cls not in tables().attacks_specialist:
        raise RuleError(_("Only {classes} can specialise in a weapon.", classes=", ".join(tables().attacks_specialist)))
    own_saves(checked.saves)
    class_levels(checked.multiclass)
    if checked.armour.strip() and armour_name(checked.armour) is None:
        close = _name_tables()[1].close(checked.armour)
        if close:
            raise RuleError(
                _(
                    'Unknown armour "{armour}". Did you mean: {close}?',
                    armour=checked.armour.strip(),
                    close=", ".join(close),
                )
            )
        raise RuleError(
            _(
                'Armour "{armour}" is not one of {known}.',
                armour=checked.armour,
                known=", ".join(_(name) for name in tables().armour_types),
            )
        )


FORM_WORDS = (
    N_("claw"),
    N_("bite"),
    N_("kick"),
    N_("tail"),
    N_("sting"),
    N_("butt"),
    N_("gore"),
    N_("hug"),
    N_("tentacle"),
    N_("fist"),
    N_("talon"),
    N_("beak"),
    N_("horn"),
    N_("hoof"),
    N_("slam"),
    N_("crush"),
)
"""Natural attack forms a sheet commonly names ("claw, claw, bite"), marked for translation: each form is
shown as ``_(form)``, so a form the GM writes in his own language shows as he wrote it."""

KIND_WORDS = (N_("slashing"), N_("piercing"), N_("bludgeoning"))
"""The kinds of :data:`ATTACK_KINDS`, marked for translation (shown as ``Msg(id=kind)``)."""
assert KIND_WORDS == ATTACK_KINDS


def sheet_form(armour_types: Iterable[str]) -> tuple[FieldSpec, ...]:
    """The fields of an AD&D sheet as the set-up's form asks for them (the armour types from the data)."""
    armour = (("", N_("none or not known")), *((name, name) for name in armour_types))
    return (
        FieldSpec(
            key="cls", label=N_("Class"), kind="choice", default="warrior", choices=tuple((c, c) for c in CLASSES)
        ),
        FieldSpec(key="level", label=N_("Level / HD"), kind="str", default="1", help=N_("5; monsters: 4+1, 6+6, 1-1")),
        FieldSpec(key="ac", label=N_("AC"), kind="int", default=10),
        FieldSpec(
            key="dex_ac",
            label=N_("Dex adjustment in the AC"),
            kind="int",
            default=0,
            help=N_("−2: AC 2 better; lost when surprised"),
        ),
        FieldSpec(key="armour", label=N_("Armour type"), kind="choice", default="", choices=armour),
        FieldSpec(key="thac0", label=N_("THAC0 (0 = from level)"), kind="int", default=0),
        FieldSpec(key="weapon", label=N_("Weapon"), kind="str", default=""),
        FieldSpec(key="magic", label=N_("Weapon bonus"), kind="int", default=0),
        FieldSpec(
            key="damage",
            label=N_("Damage"),
            kind="str",
            default="",
            help=N_("1d8; attack forms: 1d4+4, 1d4+4, 2d6"),
        ),
        FieldSpec(key="speed", label=N_("Speed (−1 = from table)"), kind="int", default=-1),
        FieldSpec(key="weapon2", label=N_("Second weapon"), kind="str", default="", help=N_("two-weapon fighting")),
        FieldSpec(key="magic2", label=N_("Second weapon bonus"), kind="int", default=0),
        FieldSpec(key="damage2", label=N_("Second weapon damage"), kind="str", default=""),
        FieldSpec(key="forms", label=N_("Attack forms"), kind="str", default="", help=N_("claw, claw, bite")),
        FieldSpec(key="natural", label=N_("Natural weapons"), kind="bool", default=False),
        FieldSpec(key="size", label=N_("Size"), kind="choice", default="medium", choices=tuple((s, s) for s in SIZES)),
        FieldSpec(
            key="attacks",
            label=N_("Attacks per round"),
            kind="str",
            default="",
            help=N_("empty: by class and level; 3/2"),
        ),
        FieldSpec(key="specialist", label=N_("Weapon specialist"), kind="bool", default=False),
        FieldSpec(key="spells", label=N_("Spells"), kind="str", default="", help=N_("acid arrow 2, haste 3")),
        FieldSpec(
            key="save_bonus",
            label=N_("Saving throw bonus"),
            kind="int",
            default=0,
            help=N_("race, magic: added to every save"),
        ),
        FieldSpec(
            key="saves",
            label=N_("Own saving throws"),
            kind="str",
            default="",
            help=N_("empty: PHB Table 60; a monster's own: 12 14 13 15 15"),
        ),
        FieldSpec(
            key="multiclass",
            label=N_("Other classes"),
            kind="str",
            default="",
            help=N_("multi-class, a spellcasting monster: wizard 6; saves take the best"),
        ),
        FieldSpec(
            key="mindless",
            label=N_("No intelligence"),
            kind="bool",
            default=False,
            help=N_("saves at half its Hit Dice, except against paralyzation, poison, death magic"),
        ),
    )
