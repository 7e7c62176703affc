"""A stat block read (:mod:`tui_combat.fight.statblock`) made into a ruleset's entry: its HP, the sheet its
rules take, the notes, and what was read and not understood (:func:`read_for`)."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from tui_combat.engine import registry
from tui_combat.engine.errors import RuleError
from tui_combat.fight.statblock import MAX_CHARS, Block, average_hp, read_block
from tui_combat.fight.statblock_5e import fill_sheet
from tui_combat.fight.statblock_short import adnd_fields, ose_fields
from tui_combat.i18n import N_


# -- as a ruleset's sheet -------------------------------------------------------------------------------
class Reading(msgspec.Struct, frozen=True, kw_only=True):
    """A block as a ruleset's entry: HP (None when the block gives neither HP nor Hit Dice), the sheet,
    the notes, and what was read (label id, shown) and not understood."""

    layout: str
    name: str
    hp: int | None
    sheet: dict[str, Any]
    notes: str
    read: tuple[tuple[str, str], ...]
    unread: tuple[str, ...]
    refused: str = ""
    """Why nothing was read (:attr:`Block.refused`)."""
    count: int | None = None
    """How many the block is for ("2 ogres"); None when it does not say."""
    hp_dice: str = ""
    """The dice each one's hit points are rolled with, as the ruleset rolls a monster's from its Hit Dice ("4d8+1"),
    unless the GM gives a figure; "" when the block's figure is each one's (5e's, an AD&D line's "hp 27")."""
    hps: tuple[int, ...] = ()
    """Each one's hit points where the line lists them ("hp 30, 25"); empty otherwise."""


def _hp(block: Block, read: list[tuple[str, str]]) -> int | None:
    if block.hp is not None:
        read.append((N_("HP"), f"{block.hp}" + (f" ({block.hp_dice})" if block.hp_dice else "")))
        return block.hp
    if block.hit_dice:
        worked = average_hp(block.hit_dice)
        if worked is not None:
            read.append((N_("HP"), f"{worked} ← HD {block.hit_dice}"))
        return worked
    return None


def _ascending(block: Block, read: list[tuple[str, str]], base: int) -> int | None:
    return _armour_class(read, block.ac, block.ac_descending, base)


def _descending(block: Block, read: list[tuple[str, str]], base: int) -> int | None:
    return _armour_class(read, block.ac_descending, block.ac, base)


def _armour_class(read: list[tuple[str, str]], wanted: int | None, other: int | None, base: int) -> int | None:
    """The armour class in the style the ruleset wants: as the block gives it, or worked out from the other
    style (``base`` − it: 19 − descending for ascending, and back), saying so."""
    if wanted is not None:
        read.append((N_("Armour class"), str(wanted)))
        return wanted
    if other is not None:
        worked = base - other
        read.append((N_("Armour class"), f"{worked} ← {base} − {other}"))
        return worked
    return None


def _bonus(block: Block) -> int | None:
    if block.bonus is not None:
        return block.bonus
    if block.attacks and block.attacks[0].bonus is not None:
        return block.attacks[0].bonus
    return 19 - block.thac0 if block.thac0 is not None else None


def _damages(block: Block) -> list[str]:
    return block.damage or [attack.damage for attack in block.attacks for _n in range(attack.count) if attack.damage]


def _sheet_5e(block: Block, read: list[tuple[str, str]]) -> dict[str, Any]:
    sheet: dict[str, Any] = {}
    if (ac := _ascending(block, read, 19)) is not None:
        sheet["ac"] = ac
    if block.dex is not None:
        sheet["dex"] = block.dex
        read.append((N_("Dexterity"), str(block.dex)))
    if block.speed is not None:
        sheet["speed"] = block.speed
        read.append((N_("Speed"), f"{block.speed} ft."))
    if block.size:
        sheet["size"] = block.size
        read.append((N_("Size"), block.size))
    if (bonus := _bonus(block)) is not None:
        sheet["attack"] = bonus
    damages = _damages(block)
    if damages:
        sheet["damage"] = damages[0]
    listed = [attack for attack in block.attacks if attack.bonus is not None and attack.damage]
    if len(listed) > 1:
        sheet["attack_list"] = ", ".join(
            f"{attack.name.replace(',', ' ')} {attack.bonus:+d} {attack.damage}" for attack in listed
        )
    for attack in block.attacks:
        shown_bonus = f" {attack.bonus:+d}" if attack.bonus is not None else ""
        read.append((N_("Attacks"), f"{attack.name}{shown_bonus} {attack.damage}".strip()))
    if block.attack_count.isdigit() and int(block.attack_count) > 1:
        sheet["attacks"] = int(block.attack_count)
        read.append((N_("Multiattack"), block.attack_count))
    if block.challenge:
        read.append((N_("Challenge"), block.challenge + (f" ({block.xp} XP)" if block.xp is not None else "")))
    if block.xp is not None:
        sheet["xp"] = block.xp
    fill_sheet(block.extras, block.scores, sheet, read, block.unread)
    return sheet


def _sheet_ose(block: Block, read: list[tuple[str, str]]) -> dict[str, Any]:
    sheet: dict[str, Any] = {}
    if block.ac is None and re.search(r"\b[RH]\s?\d", block.save_line):
        # Dolmenwood's blocks (saves D R H B S) give the ascending armour class alone: "AC 14"
        block = msgspec.structs.replace(block, ac=block.ac_descending, ac_descending=None)
    if (ac := _ascending(block, read, 19)) is not None:
        sheet["ac"] = ac
    if (bonus := _bonus(block)) is not None:
        sheet["attack"] = bonus
        read.append((N_("Attack bonus"), f"{bonus:+d}"))
    damages = _damages(block)
    if damages:
        sheet["damage"] = damages[0]
    if block.attacks:
        first = block.attacks[0]
        if not re.fullmatch(r"weapon|оружие|зброя|оружием|зброєю", first.name, re.IGNORECASE):
            sheet["weapon"] = first.name
        read.append((N_("Attacks"), ", ".join(f"{a.count} × {a.name} ({a.damage})" for a in block.attacks)))
    elif damages:
        read.append((N_("Damage"), ", ".join(damages)))
    if block.dex is not None:
        sheet["dex"] = block.dex
    if block.morale is not None:
        sheet["morale"] = block.morale
        read.append((N_("Morale"), str(block.morale)))
    if block.hit_dice:
        sheet["hd"] = block.hit_dice
        read.append((N_("Hit Dice"), block.hit_dice))
    return sheet


def _sheet_adnd(block: Block, read: list[tuple[str, str]]) -> dict[str, Any]:
    sheet: dict[str, Any] = {"cls": "monster"}
    if block.hit_dice:
        sheet["level"] = block.hit_dice
        read.append((N_("Hit Dice"), block.hit_dice))
    if (ac := _descending(block, read, 20)) is not None:
        sheet["ac"] = ac
    if block.thac0 is not None:
        sheet["thac0"] = block.thac0
        read.append((N_("THAC0"), str(block.thac0)))
    damages = _damages(block)
    if damages:
        sheet["damage"] = ", ".join(damages)
        read.append((N_("Damage"), ", ".join(damages)))
    if len(block.attacks) > 1 or (block.attacks and block.attacks[0].count > 1):
        sheet["forms"] = ", ".join(a.name for a in block.attacks for _n in range(a.count))
    elif block.attacks and not re.fullmatch(r"weapon|оружие|зброя", block.attacks[0].name, re.IGNORECASE):
        sheet["weapon"] = block.attacks[0].name
    if block.attack_count:
        sheet["attacks"] = block.attack_count
        read.append((N_("Attacks"), block.attack_count))
    if block.size:
        sheet["size"] = block.size
        read.append((N_("Size"), block.size))
    if block.mindless:
        sheet["mindless"] = True
        read.append((N_("No intelligence"), "✓"))
    if block.morale is not None:
        read.append((N_("Morale"), str(block.morale)))
    return sheet


def _sheet_po(block: Block, read: list[tuple[str, str]]) -> dict[str, Any]:
    sheet = _sheet_adnd(block, read)
    if block.layout == "adnd" and block.speed is not None:
        sheet["movement"] = block.speed
        read.append((N_("Movement rate"), str(block.speed)))
    return sheet


_SAVE_LINES = {"ose": ose_fields, "adnd2e": adnd_fields, "players_option": adnd_fields}
_SHEETS = {"dnd5e": _sheet_5e, "ose": _sheet_ose, "adnd2e": _sheet_adnd, "players_option": _sheet_po}


def for_ruleset(block: Block, ruleset_id: str) -> Reading:
    """The block as an entry of ``ruleset_id`` (a ruleset without a sheet mapping gets the name, the HP and
    the notes)."""
    block = msgspec.structs.replace(block, unread=list(block.unread))  # (what a sheet refuses is added to it)
    read: list[tuple[str, str]] = list(block.read)
    if block.name:
        read.insert(0, (N_("Name"), block.name))
    hp = _hp(block, read)
    make = _SHEETS.get(ruleset_id)
    sheet = make(block, read) if make else {}
    saves = _SAVE_LINES.get(ruleset_id)
    saves_read = bool(block.save_line) and saves is not None and saves(block.save_line, sheet, read, block.unread)
    if block.save_line and not saves_read and saves is not None and len(re.findall(r"\d+", block.save_line)) > 1:
        block.unread.append(f"SV {block.save_line}")  # numbers, but not the five saves these rules read
        saves_read = True
    morale_noted = any(note.split(" ")[0].upper() in ("ML", "MORALE", "МОРАЛЬ", "БД") for note in block.notes)
    noted = [
        *block.notes,
        *([f"ML {block.morale}"] if block.morale is not None and ruleset_id != "ose" and not morale_noted else []),
        *([f"SV {block.save_line}"] if block.save_line and not saves_read else []),
    ]
    notes = "; ".join(dict.fromkeys(noted))
    if block.xp is not None and block.layout != "5e":  # (5e's is read with its challenge)
        read.append((N_("XP"), str(block.xp)))
    rolled = _rolled(ruleset_id, sheet) if block.hp is None or block.hp_average else ""
    return Reading(
        layout=block.layout,
        name=block.name,
        hp=hp,
        sheet=sheet,
        notes=notes,
        read=tuple(read),
        unread=tuple(dict.fromkeys(block.unread)),
        refused=block.refused,
        count=block.count,
        hp_dice=rolled if hp is not None else "",
        hps=tuple(block.hps),
    )


def _rolled(ruleset_id: str, sheet: dict[str, Any]) -> str:
    """The dice the ruleset rolls each one's hit points with from this sheet ("" for none, or an unknown ruleset)."""
    try:
        return registry.get(ruleset_id).hit_point_dice(sheet)
    except RuleError:
        return ""


def read_for(text: str, ruleset_id: str, *, limit: int | None = MAX_CHARS) -> Reading:
    return for_ruleset(read_block(text, limit=limit), ruleset_id)
