"""A 5e creature's special abilities, as its sheet writes them (``abilities``): ";"-separated, each "Name: <dice>
<type>, <ability> <DC> <half|none|full>, recharge <5-6>, <anything else: the area>", e.g. "Fire Breath: 17d6 fire,
Dex 21 half, recharge 5-6, cone 60 ft" (SRD 5.2, Adult Red Dragon). Each part may be left out ("Teleport:
recharge 4-6"); words after the damage's type ("9d6 fire plus 9d6 force") are kept with the area, for the DM."""

from __future__ import annotations

import re

import msgspec

from tui_combat.engine.dice import Dice, DiceError, parse
from tui_combat.engine.errors import RuleError
from tui_combat.engine.saves import ON_SAVE
from tui_combat.i18n import N_, _, english_word
from tui_combat.rulesets.dnd5e.kinds import damage_type, save_kind

__all__ = ["Ability", "find_ability", "parse_abilities", "recharge_text"]

RECHARGE = N_("recharge")
"""The word that starts an ability's recharge ("recharge 5-6"), in English or in the GM's language."""
_RANGE = re.compile(r"^(?P<low>[1-6])(?:\s*[-–—]\s*(?P<high>[1-6]))?$")
_SAVE = re.compile(r"^(?P<ability>\S+)\s+(?:(?:DC|Сл|СК)\s*)?(?P<dc>\d+)(?:\s+(?P<on_save>.+))?$", re.IGNORECASE)
ON_SAVE_WORDS = {"half": "half", "none": "none", "full": "full"}


class Ability(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    damage: str = ""
    """The damage dice ("17d6"); "" for none."""
    kind: str = ""
    """The damage type; "" for none."""
    save: str = ""
    dc: int = 0
    on_save: str = "half"
    recharge: int = 0
    """The lowest face of a d6 that recharges it (5 for "recharge 5-6"); 0: no recharge."""
    area: str = ""
    """The rest, as written ("cone 60 ft", "plus 9d6 force")."""

    @property
    def is_area(self) -> bool:
        """Whether it deals damage or asks for a save (the area form takes it); else it only recharges (a
        Teleport), used with the *use* key."""
        return bool(self.damage or self.save)


def recharge_text(ability: Ability) -> str:
    """ "5–6", or "6" for one that recharges on a 6 alone."""
    return "6" if ability.recharge == 6 else f"{ability.recharge}–6"


def _on_save(word: str) -> str | None:
    found = ON_SAVE_WORDS.get(word.strip().casefold())
    if found:
        return found
    label = english_word(word, tuple(label for _key, label in ON_SAVE))
    return next((key for key, text in ON_SAVE if text == label), None) if label else None


def _part(ability: Ability, part: str, item: str) -> Ability:
    """``ability`` with one more part of its line read (refused naming the whole item when it is not right)."""
    words = part.split()
    first = words[0]
    if english_word(first, (RECHARGE,)) == RECHARGE:
        match = _RANGE.match(" ".join(words[1:]))
        if match is None or ability.recharge or (match["high"] and match["high"] != "6"):
            raise RuleError(_('Ability "{item}": write its recharge as "recharge 5-6" or "recharge 6".', item=item))
        return msgspec.structs.replace(ability, recharge=int(match["low"]))
    try:
        dice = parse(first)
    except DiceError:
        dice = None
    if dice is not None and any(isinstance(term, Dice) for term in dice.terms):
        kind = damage_type(words[1]) if len(words) > 1 else ""
        if ability.damage or kind is None:
            raise RuleError(_('Ability "{item}": write its damage as the dice and the type (17d6 fire).', item=item))
        rest = " ".join(words[2:])  # "plus 9d6 force": a second type, for the DM to deal himself
        area = ", ".join(text for text in (ability.area, rest) if text)
        return msgspec.structs.replace(ability, damage=dice.text, kind=kind, area=area)
    match = _SAVE.match(part)
    kind = save_kind(match["ability"]) if match else None
    if match is not None and kind is not None:
        on_save = _on_save(match["on_save"]) if match["on_save"] else None
        if ability.save or (match["on_save"] and on_save is None):
            raise RuleError(
                _(
                    'Ability "{item}": write its save as the ability, the DC and what a success leaves (Dex 21 half).',
                    item=item,
                )
            )
        return msgspec.structs.replace(ability, save=kind, dc=int(match["dc"]), on_save=on_save or "")
    return msgspec.structs.replace(ability, area=f"{ability.area}, {part}" if ability.area else part)


def parse_abilities(text: str) -> tuple[Ability, ...]:
    """The sheet's ``abilities``; :class:`RuleError` naming a bad one."""
    found: list[Ability] = []
    for item in (part.strip() for part in text.split(";")):
        if not item:
            continue
        name, colon, rest = item.partition(":")
        name = " ".join(name.split())
        if not colon or not name or not rest.strip():
            raise RuleError(
                _(
                    'Ability "{item}": write its name, a colon and what it does '
                    "(Fire Breath: 17d6 fire, Dex 21 half, recharge 5-6).",
                    item=item,
                )
            )
        ability = Ability(name=name)
        for part in (p.strip() for p in rest.split(",")):
            if part:
                ability = _part(ability, part, item)
        if not ability.on_save:  # not written: half damage where there is damage (a breath), else nothing
            ability = msgspec.structs.replace(ability, on_save="half" if ability.damage else "none")
        if not ability.damage and not ability.save and not ability.recharge:
            raise RuleError(
                _(
                    'Ability "{item}": give it damage (17d6 fire), a save (Dex 21 half), a recharge '
                    "(recharge 5-6), or several.",
                    item=item,
                )
            )
        if any(other.name.casefold() == name.casefold() for other in found):
            raise RuleError(_('Ability "{name}" is written twice.', name=name))
        found.append(ability)
    return tuple(found)


def find_ability(abilities: tuple[Ability, ...], name: str) -> Ability | None:
    wanted = " ".join(name.split()).casefold()
    return next((ability for ability in abilities if ability.name.casefold() == wanted), None)
