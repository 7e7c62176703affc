"""A 5e stat block's words as the GM reads them, in his language: the names of its special abilities and legendary
actions, its areas ("cone 60 ft"), and the notes its sheet's figures make ("CR 17. HP 256 (19d12 + 133). Speed
climb 40 ft., fly 80 ft. …").

The sheet keeps an ability's name in English, where the rules find it by name (the area form, the recharge); its
name in the GM's language comes from the SRD bestiary's names files (:mod:`tui_combat.rulesets.bestiary_names`),
else from the catalogs, else it is shown as written (a GM's own ability). Everything here is worked out when shown, so a
switch of language shows the new one."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import msgspec

from tui_combat.engine.errors import RuleError
from tui_combat.engine.saves import ON_SAVE
from tui_combat.i18n import N_, _, data_word, language
from tui_combat.rulesets.bestiary_names import Names, read_names
from tui_combat.rulesets.data_loading import DATA_DIR
from tui_combat.rulesets.dnd5e.abilities import RECHARGE, Ability, parse_abilities, recharge_text
from tui_combat.rulesets.dnd5e.kinds import SAVE_SHORT, damage_type, parse_conditions
from tui_combat.rulesets.dnd5e.sheet import Sheet

__all__ = ["abilities_text", "ability_name", "area_text", "sheet_notes", "srd_names"]

SRD_FOLDER = DATA_DIR / "srd"
RULESET = "dnd5e"
_names_read: dict[str, Names] | None = None

_USES = re.compile(r"^(?P<name>.*?\S)\s*\((?P<count>\d+)/Day\)$", re.IGNORECASE)
AREAS = {
    "cone": N_("cone {size} ft"),
    "sphere": N_("sphere {size} ft"),
    "emanation": N_("emanation {size} ft"),
    "cylinder": N_("cylinder {size} ft"),
    "cube": N_("cube {size} ft"),
}
"""An area of the abilities' mini-language ("cone 60 ft"), as the GM's language says it; a line has its width."""
LINE = N_("line {size}x{width} ft")
_AREA = re.compile(r"^(?P<shape>[a-z]+)\s+(?P<size>\d+)(?:\s*[x×]\s*(?P<width>\d+))?\s*ft\.?$", re.IGNORECASE)
_PLUS = re.compile(r"^plus\s+(?P<dice>\S+)(?:\s+(?P<kind>\S+))?$", re.IGNORECASE)
SPEEDS = (
    ("burrow", N_("burrow {feet} ft.")),
    ("climb", N_("climb {feet} ft.")),
    ("fly", N_("fly {feet} ft.")),
    ("swim", N_("swim {feet} ft.")),
)
"""The speeds other than walking, in the order a stat block gives them."""


def srd_names() -> Names:
    """The SRD bestiary's names in the GM's language (none for English or a language without a file): read once."""
    global _names_read
    if _names_read is None:
        _names_read, _problems = read_names(SRD_FOLDER, RULESET)  # the tests see that they are read whole
    return _names_read.get(language()) or Names()


def ability_name(name: str) -> str:
    """A special ability's or a legendary action's name in the GM's language ("Fire Breath" → "Огненное
    дыхание"; "Dominate Mind (2/Day)" → "Подчинение разума (2/день)"); as written when nothing names it."""
    names = srd_names().abilities
    found = names.get(name)
    if found:
        return found
    limited = _USES.match(name)
    if limited is not None:
        inner = names.get(limited["name"]) or data_word(limited["name"])
        return _("{name} ({count}/Day)", name=inner, count=limited["count"])
    return data_word(name)


def area_text(area: str) -> str:
    """An ability's area as the sheet writes it ("cone 60 ft", "line 90x5 ft", "plus 9d6 force, cone 60 ft"),
    in the GM's language; a part this does not know (the GM's own words) as written."""
    return ", ".join(_area_part(part.strip()) for part in area.split(",") if part.strip())


def _area_part(part: str) -> str:
    shaped = _AREA.match(part)
    if shaped is not None:
        shape = shaped["shape"].lower()
        if shape == "line" and shaped["width"]:
            return _(LINE, size=shaped["size"], width=shaped["width"])
        if shape in AREAS and not shaped["width"]:
            return _(AREAS[shape], size=shaped["size"])
    plus = _PLUS.match(part)
    if plus is not None:
        kind = damage_type(plus["kind"]) if plus["kind"] else ""
        if kind is not None:
            return _("plus {damage}", damage=" ".join(word for word in (plus["dice"], _(kind)) if word))
    return part


def _ability_text(ability: Ability) -> str:
    clauses: list[str] = []
    if ability.damage:
        clauses.append(" ".join(word for word in (ability.damage, _(ability.kind)) if word))
    if ability.save:
        words = [_(SAVE_SHORT[ability.save]), str(ability.dc)]
        if ability.damage:
            words.append(_(dict(ON_SAVE)[ability.on_save]))
        clauses.append(" ".join(words))
    if ability.recharge:
        clauses.append(f"{_(RECHARGE)} {recharge_text(ability)}")
    if ability.area:
        clauses.append(area_text(ability.area))
    return f"{ability_name(ability.name)}: {', '.join(clauses)}"


def abilities_text(text: str) -> str:
    """The sheet's ``abilities`` in the GM's language ("Огненное дыхание: 17d6 огонь, ЛОВ 21 половина урона,
    перезарядка 5–6, конус 60 фт"); as written when it cannot be read."""
    try:
        return "; ".join(_ability_text(ability) for ability in parse_abilities(text))
    except RuleError:
        return text


def _spaced(dice: str) -> str:
    """ "19d12+133" → "19d12 + 133", as a stat block prints Hit Dice."""
    return re.sub(r"\s*([+\-−])\s*", r" \1 ", dice.strip()).strip()


def sheet_notes(raw: Mapping[str, Any], hp: int) -> str:
    """What the stat block says beside the form's figures, from the sheet's fields, in the GM's language: "CR 17.
    HP 256 (19d12 + 133). Speed climb 40 ft., fly 80 ft. Condition immunities: …. Multiattack: …. Legendary
    actions: Commanding Presence, Fiery Rays, Pounce." ("" for a sheet with none of them; a sheet that cannot be
    read raises :class:`RuleError`)."""
    try:
        sheet = msgspec.convert(dict(raw), Sheet, strict=False)
    except msgspec.ValidationError as error:
        raise RuleError(str(error)) from None
    parts: list[str] = []
    if sheet.cr.strip():
        parts.append(_("CR {cr}", cr=sheet.cr.strip()))
    if sheet.hit_dice.strip():
        parts.append(_("HP {hp} ({dice})", hp=hp, dice=_spaced(sheet.hit_dice)))
    speeds = [_(text, feet=getattr(sheet, kind)) for kind, text in SPEEDS if getattr(sheet, kind) > 0]
    if speeds:
        hover = " " + _("(hover)") if sheet.hover and sheet.fly > 0 else ""
        parts.append(_("Speed {speeds}", speeds=", ".join(speeds) + hover))
    conditions = parse_conditions(sheet.condition_immune)
    if conditions:
        parts.append(_("Condition immunities: {conditions}", conditions=", ".join(_(name) for name in conditions)))
    if sheet.multiattack.strip():
        parts.append(_("Multiattack: {text}", text=sheet.multiattack.strip()))
    legendary = [ability_name(" ".join(name.split())) for name in sheet.legendary_actions.split(",") if name.strip()]
    if legendary:
        parts.append(_("Legendary actions: {names}", names=", ".join(legendary)))
    return ". ".join(part.rstrip(".") for part in parts) + "." if parts else ""
