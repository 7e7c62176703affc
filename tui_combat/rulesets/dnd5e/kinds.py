"""The six saving throws, the thirteen damage types and the conditions of 5e (SRD 5.1 "Saving Throws", "Damage
Types", "Conditions"), and how a sheet writes them: "Dex +6", "Dexterity", "fire, poison", "charmed", in English
or in the GM's language."""

from __future__ import annotations

import re

from tui_combat.engine.errors import RuleError
from tui_combat.i18n import N_, _, english_word

__all__ = [
    "ALL",
    "CONDITIONS",
    "DAMAGE_TYPES",
    "SAVE_KINDS",
    "SAVE_SHORT",
    "damage_type",
    "parse_conditions",
    "parse_saves",
    "parse_types",
    "save_kind",
    "saves_text",
]

SAVE_KINDS: tuple[tuple[str, str], ...] = (
    ("str", N_("Strength")),
    ("dex", N_("Dexterity")),
    ("con", N_("Constitution")),
    ("int", N_("Intelligence")),
    ("wis", N_("Wisdom")),
    ("cha", N_("Charisma")),
)
"""The saving throws, in the book's order: (id, label)."""
SAVE_SHORT = {
    "str": N_("Str"),
    "dex": N_("Dex"),
    "con": N_("Con"),
    "int": N_("Int"),
    "wis": N_("Wis"),
    "cha": N_("Cha"),
}
"""How a stat block writes each ("Dex +6"; in the GM's language too)."""
DAMAGE_TYPES: tuple[tuple[str, str], ...] = tuple(
    (kind, kind)
    for kind in (
        N_("acid"),
        N_("bludgeoning"),
        N_("cold"),
        N_("fire"),
        N_("force"),
        N_("lightning"),
        N_("necrotic"),
        N_("piercing"),
        N_("poison"),
        N_("psychic"),
        N_("radiant"),
        N_("slashing"),
        N_("thunder"),
    )
)
"""The damage types: (id, label); the id is the English word."""
CONDITIONS = (
    N_("blinded"),
    N_("charmed"),
    N_("deafened"),
    N_("exhaustion"),
    N_("frightened"),
    N_("grappled"),
    N_("incapacitated"),
    N_("invisible"),
    N_("paralyzed"),
    N_("petrified"),
    N_("poisoned"),
    N_("prone"),
    N_("restrained"),
    N_("stunned"),
    N_("unconscious"),
)
"""The book's conditions, as a stat block's condition immunities name them (the data file's ``[conditions]``)."""
ALL = "all"
"""A condition's resistance or immunity to every type (petrified)."""

_ITEMS = re.compile(r"\s*(?:,|;|\band\b|\bи\b|\bі\b|\bта\b)\s*", re.IGNORECASE)
_SAVE = re.compile(r"^(?P<name>[^\d+\-−]+?)\s*(?P<bonus>[+\-−]\s*\d+)$")


def save_kind(word: str) -> str | None:
    """The save a word names: "Dex", "dex", "Dexterity", "Ловкость" → "dex"; None for none."""
    wanted = word.strip().casefold()
    if wanted in SAVE_SHORT:
        return wanted
    short = english_word(word, tuple(SAVE_SHORT.values()))
    if short is not None:
        return next(kind for kind, text in SAVE_SHORT.items() if text == short)
    found = english_word(word, tuple(label for _kind, label in SAVE_KINDS))
    return next((kind for kind, label in SAVE_KINDS if label == found), None) if found else None


def damage_type(word: str) -> str | None:
    """The damage type a word names, in English or in the GM's language ("fire", "огонь"); None for none."""
    return english_word(word, tuple(kind for kind, _label in DAMAGE_TYPES))


def parse_saves(text: str) -> dict[str, int]:
    """ "Str +8, Dex +6, Con +7" → {"str": 8, "dex": 6, "con": 7}; :class:`RuleError` naming a bad item."""
    found: dict[str, int] = {}
    for item in (part.strip() for part in re.split(r"[,;]", text)):
        if not item:
            continue
        match = _SAVE.match(item)
        kind = save_kind(match["name"]) if match else None
        if match is None or kind is None:
            raise RuleError(_('Saving throw "{item}": write the ability and the bonus (Dex +6).', item=item))
        if kind in found:
            raise RuleError(_("The {save} saving throw is written twice.", save=_(dict(SAVE_KINDS)[kind])))
        found[kind] = int(match["bonus"].replace("−", "-").replace(" ", ""))
    return found


def saves_text(saves: dict[str, int]) -> str:
    """{"dex": 6, "wis": 7} → "Dex +6, Wis +7", in the book's order and the GM's language."""
    return ", ".join(f"{_(SAVE_SHORT[kind])} {saves[kind]:+d}" for kind, _label in SAVE_KINDS if kind in saves)


def parse_types(text: str, what: str) -> tuple[str, ...]:
    """ "fire, poison" → ("fire", "poison"); ``what`` (a message id: "Damage resistances") names the field in the
    refusal of a word that is no damage type."""
    found: list[str] = []
    for item in (part.strip() for part in _ITEMS.split(text)):
        if not item:
            continue
        kind = damage_type(item)
        if kind is None:
            raise RuleError(
                _(
                    '{field}: "{item}" is not a type of damage; the types are: {known}.',
                    field=_(what),
                    item=item,
                    known=", ".join(_(label) for _kind, label in DAMAGE_TYPES),
                )
            )
        if kind not in found:
            found.append(kind)
    return tuple(found)


def parse_conditions(text: str) -> tuple[str, ...]:
    """ "charmed, frightened" (or in the GM's language) → ("charmed", "frightened"); :class:`RuleError` naming a
    word that is no condition."""
    found: list[str] = []
    for item in (part.strip() for part in _ITEMS.split(text)):
        if not item:
            continue
        condition = english_word(item, CONDITIONS)
        if condition is None:
            raise RuleError(
                _(
                    'Condition immunities: "{item}" is not a condition; the conditions are: {known}.',
                    item=item,
                    known=", ".join(_(name) for name in CONDITIONS),
                )
            )
        if condition not in found:
            found.append(condition)
    return tuple(found)
