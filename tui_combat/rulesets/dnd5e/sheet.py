"""A 5e combatant's sheet: what it holds, how it is checked, and the counters written on it."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import asdict

from tui_combat.engine.contract import FieldSpec
from tui_combat.engine.dice import DiceError, parse
from tui_combat.engine.errors import RuleError
from tui_combat.engine.mistakes import convert_sheet, refuse, validation_text
from tui_combat.engine.model import Combatant
from tui_combat.i18n import N_, _
from tui_combat.rulesets.dnd5e.abilities import parse_abilities
from tui_combat.rulesets.dnd5e.data import SIZES
from tui_combat.rulesets.dnd5e.kinds import DAMAGE_TYPES, parse_conditions, parse_saves, parse_types

__all__ = [
    "ADVANTAGE",
    "CHALLENGE_RATINGS",
    "DEFENCES",
    "SHEET_FIELDS",
    "Attack",
    "Counter",
    "Sheet",
    "check_sheet",
    "dex_modifier",
    "parse_attacks",
    "parse_counters",
    "sheet_of",
]

ADVANTAGE = (("none", N_("none")), ("advantage", N_("advantage")), ("disadvantage", N_("disadvantage")))


class Sheet(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    dex: int = 10
    """The Dexterity score (its modifier is added to initiative; the score breaks speed-factor ties)."""
    init_bonus: int = 0
    """Other initiative bonuses (Alert, Jack of All Trades …)."""
    init_advantage: str = "none"
    """Advantage or disadvantage on initiative (static: +5 / −5)."""
    ac: int = 10
    attack: int = 0
    """Attack bonus of the attack helper."""
    attacks: int = 1
    """Attacks one Attack action gives (Extra Attack, Multiattack)."""
    damage: str = "1d6"
    speed: int = 30
    """Walking speed in feet."""
    size: str = "medium"
    weapons: str = ""
    """Weapon names from the data file's table, comma-separated (the speed-factor declaration offers them)."""
    counters: str = ""
    """"legendary actions 3/turn, 1st-level slots 4": a counter refreshed at the start of the creature's
    turn ("/turn"), or once for the whole fight."""
    level: int = 0
    """A character's level (0: a monster), for the fight's difficulty."""
    xp: int = 0
    """A monster's XP (its challenge rating's), for the fight's difficulty."""
    attack_list: str = ""
    """The stat block's attacks, "name +bonus dice" comma-separated ("morningstar +4 2d8+2, javelin +4
    1d6+2"): the attack form offers them; empty, it uses ``attack`` and ``damage``."""
    saves: str = ""
    """The six saving throws as the stat block gives them, proficiency included ("Str +8, Dex +6, Con +7, Int +3,
    Wis +7, Cha +6"); one not written is +0, Dexterity's the score's modifier."""
    resist: str = ""
    """Damage types it resists, comma-separated ("fire, poison"): their damage is halved."""
    immune: str = ""
    """Damage types it is immune to: their damage is none."""
    vulnerable: str = ""
    """Damage types it is vulnerable to: their damage is doubled."""
    evasion: bool = False
    """Evasion (rogue 7, monk 7): a Dexterity save for half damage leaves none on a success, half on a failure."""
    legendary_resistance: int = 0
    """Legendary Resistance: how many times a day a failed save may become a success."""
    legendary: int = 0
    """Legendary actions a round."""
    abilities: str = ""
    """Special abilities that are areas, ";"-separated ("Fire Breath: 17d6 fire, Dex 21 half, recharge 5-6, cone
    60 ft"): :mod:`.abilities`."""
    cr: str = ""
    """The challenge rating as the stat block prints it ("17", "1/4"); the card and the library show it."""
    hit_dice: str = ""
    """The dice of the stat block's hit points ("19d12+133"), shown beside them; the hit points stay the
    block's figure."""
    burrow: int = 0
    climb: int = 0
    fly: int = 0
    swim: int = 0
    """Speeds other than walking, in feet (0: none)."""
    hover: bool = False
    """It hovers when it flies."""
    condition_immune: str = ""
    """Conditions it is immune to, comma-separated ("charmed, frightened")."""
    multiattack: str = ""
    """Multiattack's words, as the stat block writes them (``attacks`` is its number)."""
    legendary_actions: str = ""
    """The names of its legendary actions, comma-separated ("Commanding Presence, Fiery Rays, Pounce")."""


class Attack(msgspec.Struct, frozen=True, kw_only=True):
    """One attack of a stat block: its name, its attack bonus, its damage dice."""

    name: str
    bonus: int
    damage: str


class Counter(msgspec.Struct, frozen=True, kw_only=True):
    """A budget line the GM adds: legendary actions, spell slots, a once-a-fight power."""

    name: str
    total: int
    per_turn: bool = False
    """Refreshed at the start of the creature's own turn; otherwise once for the whole fight."""


SHEET_FIELDS = (
    FieldSpec(key="dex", label=N_("Dexterity"), kind="int", default=10),
    FieldSpec(key="init_bonus", label=N_("Initiative bonus"), kind="int", default=0),
    FieldSpec(key="init_advantage", label=N_("Initiative advantage"), kind="choice", default="none", choices=ADVANTAGE),
    FieldSpec(key="ac", label=N_("AC"), kind="int", default=10),
    FieldSpec(key="attack", label=N_("Attack bonus"), kind="int", default=0),
    FieldSpec(key="attacks", label=N_("Attacks per Attack action"), kind="int", default=1),
    FieldSpec(key="damage", label=N_("Damage dice"), kind="str", default="1d6", help="1d8+3"),
    FieldSpec(key="speed", label=N_("Speed (ft)"), kind="int", default=30),
    FieldSpec(key="size", label=N_("Size"), kind="choice", default="medium", choices=tuple((s, s) for s in SIZES)),
    FieldSpec(key="weapons", label=N_("Weapons"), kind="str", default="", help=N_("shortsword, longbow")),
    FieldSpec(
        key="counters",
        label=N_("Counters"),
        kind="str",
        default="",
        help=N_("legendary actions 3/turn, 1st-level slots 4"),
    ),
    FieldSpec(
        key="attack_list",
        label=N_("Attacks (name +bonus dice)"),
        kind="str",
        default="",
        help=N_("morningstar +4 2d8+2, javelin +4 1d6+2"),
    ),
    FieldSpec(
        key="level", label=N_("Character level"), kind="int", default=0, minimum=0, maximum=20, help=N_("0: a monster")
    ),
    FieldSpec(
        key="xp",
        label=N_("XP value (monsters)"),
        kind="int",
        default=0,
        minimum=0,
        maximum=1_000_000,
        help=N_("50 for CR 1/4"),
    ),
    FieldSpec(
        key="saves",
        label=N_("Saving throws"),
        kind="str",
        default="",
        help=N_("Str +8, Dex +6, Con +7, Int +3, Wis +7, Cha +6"),
    ),
    FieldSpec(
        key="resist",
        label=N_("Damage resistances"),
        kind="str",
        default="",
        help=N_("fire, poison"),
        suggestions=tuple(label for _kind, label in DAMAGE_TYPES),
    ),
    FieldSpec(
        key="immune",
        label=N_("Damage immunities"),
        kind="str",
        default="",
        help=N_("fire, poison"),
        suggestions=tuple(label for _kind, label in DAMAGE_TYPES),
    ),
    FieldSpec(
        key="vulnerable",
        label=N_("Damage vulnerabilities"),
        kind="str",
        default="",
        help=N_("fire, poison"),
        suggestions=tuple(label for _kind, label in DAMAGE_TYPES),
    ),
    FieldSpec(key="evasion", label=N_("Evasion"), kind="bool", default=False),
    FieldSpec(
        key="legendary_resistance",
        label=N_("Legendary Resistance (a day)"),
        kind="int",
        default=0,
        minimum=0,
        maximum=20,
    ),
    FieldSpec(key="legendary", label=N_("Legendary actions (a round)"), kind="int", default=0, minimum=0, maximum=20),
    FieldSpec(
        key="abilities",
        label=N_("Special abilities"),
        kind="str",
        default="",
        help=N_("Fire Breath: 17d6 fire, Dex 21 half, recharge 5-6, cone 60 ft"),
    ),
)


def parse_attacks(text: str) -> tuple[Attack, ...]:
    """ "morningstar +4 2d8+2, javelin +4 1d6+2" → two attacks; :class:`RuleError` naming a bad one."""
    attacks: list[Attack] = []
    for part in text.split(","):
        item = " ".join(part.split())
        if not item:
            continue
        words = item.split(" ")
        bonus = words[-2].replace("−", "-") if len(words) >= 3 else ""
        try:
            parse(words[-1])
            ok = bool(bonus) and bonus[0] in "+-" and bonus[1:].isdigit()
        except DiceError:
            ok = False
        if not ok:
            raise RuleError(
                _('Attack "{item}": write a name, the attack bonus and the damage dice (javelin +4 1d6+2).', item=item)
            )
        attacks.append(Attack(name=" ".join(words[:-2]), bonus=int(bonus), damage=words[-1]))
    return tuple(attacks)


DEFENCES = (
    ("resist", N_("Damage resistances")),
    ("immune", N_("Damage immunities")),
    ("vulnerable", N_("Damage vulnerabilities")),
)
"""The sheet's damage types, by field, with the field's label."""


def dex_modifier(score: int) -> int:
    return (score - 10) // 2


ATTACK_QUALIFIERS = (N_("(thrown)"), N_("(two-handed)"), N_("(one-handed)"), N_("(melee)"), N_("(ranged)"))
"""What a stat block's attack name often says in parentheses ("javelin (thrown)"), in the catalog so that the
attack form shows it in the GM's language (:func:`~tui_combat.i18n.data_words` looks it up with its parentheses)."""

COUNTER_NAMES = (
    N_("action surge"),
    N_("legendary actions"),
    N_("1st-level slots"),
    N_("2nd-level slots"),
    N_("3rd-level slots"),
)
"""Counters a sheet often has, in the catalog so that the budget shows them in the GM's language (a counter
keeps the name it is written with; it is translated when shown)."""
EVERY_TURN = ("turn", "ход", "хід")
ONCE_A_FIGHT = ("fight", "бой", "бій")
"""What may follow the slash of a counter: "/turn", or in the GM's language as the form's hint writes it."""


def parse_counters(text: str) -> tuple[Counter, ...]:
    """ "legendary actions 3/turn, 1st-level slots 4" → two counters; :class:`RuleError` naming a bad one."""
    counters: list[Counter] = []
    for part in text.split(","):
        item = " ".join(part.split())
        if not item:
            continue
        name, _sep, amount = item.rpartition(" ")
        number, slash, refresh = amount.partition("/")
        if not name or not number.isdigit() or (slash and refresh.lower() not in EVERY_TURN + ONCE_A_FIGHT):
            raise RuleError(
                _(
                    'Counter "{item}": write a name and a number, "/turn" for one refreshed every turn '
                    "(legendary actions 3/turn, 1st-level slots 4).",
                    item=item,
                )
            )
        if any(c.name == name for c in counters):
            raise RuleError(_('Counter "{name}" is written twice.', name=name))
        counters.append(Counter(name=name, total=int(number), per_turn=refresh.lower() in EVERY_TURN))
    return tuple(counters)


def check_sheet(sheet: dict[str, Any]) -> dict[str, Any]:
    """The sheet checked (every field of the wrong kind or unknown, and the first other mistake, refused)."""
    checked, mistakes = convert_sheet(sheet, Sheet)
    try:
        _check_values(checked)
    except RuleError as error:
        mistakes.append(str(error))
    refuse(mistakes)
    return asdict(checked)


def _check_values(checked: Sheet) -> None:
    if not 1 <= checked.dex <= 30:
        raise RuleError(_("Dexterity is a score from 1 to 30, not {value}.", value=checked.dex))
    if checked.size not in SIZES:
        raise RuleError(_('Size "{size}" is not one of {known}.', size=checked.size, known=", ".join(SIZES)))
    if checked.init_advantage not in dict(ADVANTAGE):
        raise RuleError(
            _(
                'Initiative advantage "{value}" is not one of {known}.',
                value=checked.init_advantage,
                known=", ".join(dict(ADVANTAGE)),
            )
        )
    if checked.attacks < 1 or checked.speed < 0:
        raise RuleError(_("A creature makes at least one attack and its speed is not negative."))
    try:
        parse(checked.damage)
    except DiceError as error:
        raise RuleError(_("Damage dice: {error}", error=error)) from None
    parse_counters(checked.counters)
    parse_attacks(checked.attack_list)
    parse_saves(checked.saves)
    for key, label in DEFENCES:
        parse_types(getattr(checked, key), label)
    parse_abilities(checked.abilities)
    if checked.legendary_resistance < 0 or checked.legendary < 0:
        raise RuleError(_("Legendary Resistance and legendary actions are not negative."))
    _check_stat_block(checked)


CHALLENGE_RATINGS = ("0", "1/8", "1/4", "1/2", *(str(rating) for rating in range(1, 31)))


def _check_stat_block(checked: Sheet) -> None:
    """The figures a stat block adds to the sheet for the card (challenge rating, Hit Dice, speeds, condition
    immunities)."""
    if checked.cr and checked.cr.strip() not in CHALLENGE_RATINGS:
        raise RuleError(
            _('Challenge rating "{value}" is not one of {known}.', value=checked.cr, known=", ".join(CHALLENGE_RATINGS))
        )
    if checked.hit_dice:
        try:
            parse(checked.hit_dice)
        except DiceError as error:
            raise RuleError(_("Hit Dice: {error}", error=error)) from None
    if min(checked.burrow, checked.climb, checked.fly, checked.swim) < 0:
        raise RuleError(_("Speeds are not negative."))
    parse_conditions(checked.condition_immune)


def sheet_of(combatant: Combatant) -> Sheet:
    try:
        return msgspec.convert(combatant.sheet, Sheet, strict=False)
    except msgspec.ValidationError as error:
        raise RuleError(
            _("{name}: {error}", name=combatant.name, error=validation_text(error, combatant.sheet))
        ) from None
