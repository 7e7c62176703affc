"""A combatant's Trudvang sheet: the typed sheet, and the setup form's mini-syntax parsed into it.

Names are matched ignoring case, ``_``/``-`` and "ё", in English or Russian, against the data's ids,
names and aliases; an unknown name is refused with the known ones and the closest match.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Annotated, Any, TypeVar, cast

import msgspec

from tui_combat.engine.dice import DiceError, parse
from tui_combat.engine.errors import RuleError
from tui_combat.engine.mistakes import convert_sheet, refuse, validation_text
from tui_combat.i18n import N_, NC_, _, data_word, english_word, pgettext, spellings
from tui_combat.rulesets.trudvang.data import (
    SKILL_FIELDS,
    NonNegative,
    SkillData,
    SkillField,
    TrudvangData,
    WeaponData,
    canonical_lock,
    default_data,
    find_entry,
    lock_problem,
    norm,
)

__all__ = [
    "KEY_CONTEXT",
    "NAME_AND_NUMBER",
    "NONE_WORDS",
    "SHEET_LABELS",
    "SKILL_KEYS",
    "WEAPON_KEYS",
    "is_none",
    "Skill",
    "TrudvangSheet",
    "Weapon",
    "read_int",
    "sheet_from_fields",
    "split_outside_parentheses",
]

NATURAL_WEAPONS = (N_("bite"), N_("claws"))
T = TypeVar("T")
"""The natural weapons of the starter bestiary's beasts ("Claws (im -2, actions 2, group natural)"), in the
catalogs so that a sheet names them in the GM's language."""

SHEET_LABELS: dict[str, str] = {
    "sv": N_("Combat SV"),
    "weapons": N_("Weapons"),
    "shield": N_("Shield"),
    "armour": N_("Armour"),
    "disciplines": N_("Disciplines"),
    "specialties": N_("Specialties"),
    "wrestling": N_("Wrestling SV"),
    "ambidexter": N_("Ambidexter"),
    "shield_bearer": N_("Shield bearer"),
    "body_control": N_("Body control"),
    "str_mod": N_("Strength modifier"),
    "race": N_("Race"),
    "con_mod": N_("Constitution modifier"),
    "agi_mod": N_("Agility modifier"),
    "fear": N_("Fear level"),
}
"""The sheet's fields and their labels (English, translated when shown)."""


class Weapon(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    im: int
    actions: NonNegative
    group: str
    hands: int = 1
    light: bool = False
    ranged: bool = False
    base: str = ""
    """The data id it was copied from ("" for a weapon made up on the sheet)."""
    damage: str = ""
    """Damage dice of a house rule ("2d6"); "": the data's damage die, open-ended from ``open_at``."""
    open_at: int = 10
    """OR: the damage die rolls again on this face or more."""
    pv: int = 0
    bv: int = 0
    """The weapon's own Protection and Breach Value (when it parries)."""


class Skill(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    level: NonNegative
    cp_per_level: NonNegative
    lock: str
    im_per_level: int = 0


class TrudvangSheet(msgspec.Struct, frozen=True, kw_only=True):
    """A combatant's fighting numbers, resolved against the data (weapons carry their IM and actions)."""

    sv: NonNegative = 0
    """Combat SV: the minimum CP."""
    weapons: tuple[Weapon, ...] = ()
    shield: str = ""
    """A key of the data's shields, "" for none."""
    armour: str = ""
    """A key of the data's armour, "" for none."""
    race: str = ""
    """A key of the data's races, "" for none (the Body Points are the HP typed)."""
    con_mod: int = 0
    disciplines: tuple[Skill, ...] = ()
    specialties: tuple[Skill, ...] = ()
    wrestling: NonNegative = 0
    """Wrestling SV: the cap on SV bought for grapple, Glima and Glima defence."""
    ambidexter: NonNegative = 0
    shield_bearer: NonNegative = 0
    body_control: NonNegative = 0
    experienced: NonNegative = 0
    """Discipline "Experienced": +1 IM and +1 CP per level (data)."""
    combat_reaction: NonNegative = 0
    """Specialty "Combat reaction": +2 IM per level (data)."""
    str_mod: int = 0
    agi_mod: int = 0
    fear: NonNegative = 0

    def weapon(self, name: str) -> Weapon | None:
        wanted = norm(name)
        for weapon in self.weapons:
            if norm(weapon.name) == wanted:
                return weapon
        for weapon in self.weapons:
            if weapon.base and norm(weapon.base) == wanted:
                return weapon
        return None


class WeaponInput(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    like: str = ""
    base: str = ""
    im: int | None = None
    actions: NonNegative | None = None
    group: str | None = None
    hands: Annotated[int, msgspec.Meta(ge=1, le=2)] | None = None
    light: bool | None = None
    ranged: bool | None = None
    damage: str | None = None
    open_at: Annotated[int, msgspec.Meta(ge=2, le=10)] | None = None
    pv: NonNegative | None = None
    bv: NonNegative | None = None


class SkillInput(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    level: NonNegative
    cp_per_level: NonNegative | None = None
    im_per_level: int | None = None
    lock: str | None = None


class SheetInput(msgspec.Struct, frozen=True, kw_only=True):
    """What ``Combatant.sheet`` may hold: the setup form's flat values, or the resolved sheet's fields."""

    sv: NonNegative = 0
    weapons: str | list[str | WeaponInput] = ""
    shield: str = ""
    armour: str = ""
    race: str = ""
    con_mod: int = 0
    disciplines: str | list[SkillInput] = ""
    specialties: str | list[SkillInput] = ""
    wrestling: NonNegative = 0
    ambidexter: NonNegative = 0
    shield_bearer: NonNegative = 0
    body_control: NonNegative = 0
    experienced: NonNegative = 0
    combat_reaction: NonNegative = 0
    str_mod: int = 0
    agi_mod: int = 0
    fear: NonNegative = 0


NONE_WORDS = {"", "none", "no", "-", "нет"}
_TRUE_WORDS = {"yes", "true", "1", "y", "да"}
_FALSE_WORDS = {"no", "false", "0", "n", "нет"}
_ENTRY = re.compile(r"^(?P<head>[^()]*?)\s*(?:\((?P<options>[^()]*)\))?$")
_OPTION = re.compile(r"^(?P<key>[^\W\d][\w’']*)\s*(?:[=:]\s*|\s+|$)(?P<value>.*)$")
KEY_CONTEXT = "Trudvang sheet key"
"""The catalogs' context of the keys in parentheses, so that a key's word is its own ("im", not the card's)."""
WEAPON_KEYS: dict[str, str] = {
    "like": NC_("Trudvang sheet key", "like"),
    "im": NC_("Trudvang sheet key", "im"),
    "actions": NC_("Trudvang sheet key", "actions"),
    "group": NC_("Trudvang sheet key", "group"),
    "hands": NC_("Trudvang sheet key", "hands"),
    "light": NC_("Trudvang sheet key", "light"),
    "ranged": NC_("Trudvang sheet key", "ranged"),
    "damage": NC_("Trudvang sheet key", "damage"),
    "or": NC_("Trudvang sheet key", "or"),
    "pv": NC_("Trudvang sheet key", "pv"),
    "bv": NC_("Trudvang sheet key", "bv"),
}
"""The keys of a weapon's numbers ("Club (im -2, actions 3, group one-handed heavy)"), each read in English or in
any language of the interface ("Дубинка (МИ -2, действия 3, группа одноручное тяжёлое)")."""
SKILL_KEYS: dict[str, str] = {
    "cp": NC_("Trudvang sheet key", "cp"),
    "im": NC_("Trudvang sheet key", "im"),
    "lock": NC_("Trudvang sheet key", "lock"),
}
"""The keys of a discipline or specialty of one's own ("Axe lord 1 (cp 2, lock weapon:battle axe)")."""
_KEY_SPELLINGS = {"as": "like", "base": "like", "open_at": "or", "cp_per_level": "cp", "im_per_level": "im"}
"""Other English words the keys have been written with."""


def is_none(word: str) -> bool:
    """Whether ``word`` names nothing ("none", "-", "нет", "немає"): no shield, no armour, no race."""
    return norm(word) in NONE_WORDS or norm(word) in {norm(spelt) for spelt in spellings(N_("none"))}


def _key(written: str, keys: Mapping[str, str]) -> str:
    """The English key ``written`` is (``keys``: English key → message id), compared as names are (:func:`norm`);
    it lower-cased when it is none of them."""
    word = _KEY_SPELLINGS.get(written.lower(), written.lower())
    if word in keys:
        return word
    wanted = norm(written)
    return next(
        (
            key
            for key, message in keys.items()
            if any(norm(spelt) == wanted for spelt in spellings(message, KEY_CONTEXT))
        ),
        word,
    )


def _keys_shown(keys: Mapping[str, str]) -> str:
    """The keys as the GM writes them, in his language: "like, im, actions …"."""
    return ", ".join(pgettext(KEY_CONTEXT, key) for key in keys)


def _group(written: str, data: TrudvangData) -> str:
    """A weapon group as the data names it ("одноручное тяжёлое" → "one-handed heavy"); a group of the GM's own
    as he wrote it."""
    groups = tuple(dict.fromkeys(weapon.group for weapon in data.weapons.values()))
    return english_word(written, groups) or written


def _lock(lock: str, data: TrudvangData) -> str:
    """A skill's lock with its weapon group as the data names it ("group:одноручное лёгкое")."""
    kind, sep, target = lock.partition(":")
    return f"{kind}:{_group(target.strip(), data)}" if sep and kind.strip().lower() == "group" else lock


NAME_AND_NUMBER = re.compile(r"^(?P<name>.*?)\s*(?P<level>[+\-−]?\d+)$")


def split_outside_parentheses(text: str, separators: str) -> list[str]:
    """Split at ``separators`` outside parentheses."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
        if depth == 0 and char in separators:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return [part.strip() for part in parts if part.strip()]


def _entry(text: str, where: str) -> tuple[str, dict[str, str]]:
    match = _ENTRY.match(text.strip())
    if match is None:
        raise RuleError(
            _('{where}: cannot read "{text}": write "name (key value, key value)".', where=where, text=text)
        )
    options: dict[str, str] = {}
    for part in split_outside_parentheses(match["options"] or "", ",;"):
        option = _OPTION.match(part)
        if option is None:
            raise RuleError(
                _('{where}: cannot read "{text}" in "{entry}": write "key value".', where=where, text=part, entry=text)
            )
        options[option["key"].lower()] = option["value"].strip()
    return match["head"].strip(), options


def read_int(value: str, where: str, key: str) -> int:
    cleaned = value.strip().replace("−", "-")
    try:
        return int(cleaned)
    except ValueError:
        raise RuleError(
            _('{where}: {key} must be a whole number, not "{value}".', where=where, key=key, value=value)
        ) from None


def _bool(value: str, where: str, key: str) -> bool:
    word = value.strip().lower()
    if word == "" or word in _TRUE_WORDS or word in {spelt.lower() for spelt in spellings(N_("yes"))}:
        return True
    if word in _FALSE_WORDS or word in {spelt.lower() for spelt in spellings(N_("no"))}:
        return False
    raise RuleError(_('{where}: {key} must be yes or no, not "{value}".', where=where, key=key, value=value))


def _suggest(name: str, known: Mapping[str, str]) -> str:
    """ " Did you mean …?" with the name closest to ``name`` among ``known`` (a name the GM may have meant, in
    whatever language he typed → the entry's name in his language), or ""."""
    names = list(known)
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    if not close:
        lowered = {norm(k): k for k in names}
        match = difflib.get_close_matches(norm(name), list(lowered), n=1, cutoff=0.6)
        close = [lowered[match[0]]] if match else []
    return _(' Did you mean "{name}"?', name=known[close[0]]) if close else ""


def _names_and_aliases(table: Mapping[str, Any]) -> dict[str, str]:
    """Every name a table's entries answer to (in English, in the GM's language, their aliases in any language),
    each with the entry's name in the GM's language: for "did you mean" whatever language the GM typed in."""
    return {
        name: data_word(entry.name) for entry in table.values() for name in (entry.name, _(entry.name), *entry.aliases)
    }


def _named_entry(table: dict[str, Any], typed: str, unknown: str) -> str:
    """The key of the entry of ``table`` called ``typed`` ("" for none); RuleError with the ``unknown``
    message (its name, the known ones, "none" first, and a "did you mean") when there is no such entry."""
    if is_none(typed):
        return ""
    found = find_entry(table, typed)
    if found is None:
        known = ", ".join([_("none"), *(_(entry.name) for entry in table.values())])
        raise RuleError(_(unknown, name=typed, known=known, hint=_suggest(typed, _names_and_aliases(table))))
    return found


def _weapon_inputs(text: str) -> list[str | WeaponInput]:
    result: list[str | WeaponInput] = []
    for part in split_outside_parentheses(text, ",;\n"):
        head, options = _entry(part, _("Weapons"))
        if not options:
            result.append(head)
            continue
        fields: dict[str, Any] = {"name": head}
        where = _("Weapons: {name}", name=head)
        for written, value in options.items():
            key = _key(written, WEAPON_KEYS)
            if key == "like":
                fields["like"] = value
            elif key in ("im", "actions", "hands", "pv", "bv"):
                fields[key] = read_int(value, where, written)
            elif key == "or":
                fields["open_at"] = read_int(value, where, written)
            elif key == "group":
                fields["group"] = value
            elif key == "damage":
                try:
                    parse(value)
                except DiceError as error:
                    raise RuleError(_("{where}: damage: {error}", where=where, error=error)) from None
                fields["damage"] = value
            elif key in ("light", "ranged"):
                fields[key] = _bool(value, where, written)
            else:
                raise RuleError(
                    _(
                        '{where}: unknown key "{key}"; use {known}.',
                        where=where,
                        key=written,
                        known=_keys_shown(WEAPON_KEYS),
                    )
                )
        try:
            result.append(msgspec.convert(fields, WeaponInput))
        except msgspec.ValidationError as error:
            raise RuleError(_("{where}: {error}", where=where, error=validation_text(error, fields))) from None
    return result


def _skill_inputs(text: str, label: str) -> list[SkillInput]:
    result: list[SkillInput] = []
    for part in split_outside_parentheses(text, ",;\n"):
        head, options = _entry(part, label)
        match = NAME_AND_NUMBER.match(head)
        if match is None or not match["name"].strip():
            raise RuleError(
                _('{where}: "{text}" needs a level after the name, e.g. "{text} 1".', where=label, text=head)
            )
        level = read_int(match["level"], label, match["name"])
        if level < 0:
            raise RuleError(_('{where}: the level of "{name}" cannot be negative.', where=label, name=match["name"]))
        fields: dict[str, Any] = {"name": match["name"].strip(), "level": level}
        where = f"{label}: {fields['name']}"
        for written, value in options.items():
            key = _key(written, SKILL_KEYS)
            if key == "cp":
                fields["cp_per_level"] = read_int(value, where, written)
            elif key == "im":
                fields["im_per_level"] = read_int(value, where, written)
            elif key == "lock":
                fields["lock"] = value
            else:
                raise RuleError(
                    _(
                        '{where}: unknown key "{key}"; use {known}.',
                        where=where,
                        key=written,
                        known=_keys_shown(SKILL_KEYS),
                    )
                )
        try:
            result.append(msgspec.convert(fields, SkillInput))
        except msgspec.ValidationError as error:
            raise RuleError(_("{where}: {error}", where=where, error=validation_text(error, fields))) from None
    return result


def _resolve_weapon(item: str | WeaponInput, data: TrudvangData) -> Weapon:
    spec = WeaponInput(name=item) if isinstance(item, str) else item
    name = spec.name.strip()
    if not name:
        raise RuleError(_("Weapons: a weapon needs a name."))
    like = spec.like or spec.base
    key = find_entry(data.weapons, like or name)
    if like and key is None:
        known = [data_word(w.name) for w in data.weapons.values()]
        raise RuleError(
            _(
                'Weapons: "{name}" is like "{like}", which is not a known weapon. Known: {known}.{hint}',
                name=name,
                like=like,
                known=", ".join(known),
                hint=_suggest(like, _names_and_aliases(data.weapons)),
            )
        )
    base = data.weapons[key] if key is not None else None
    if base is None and (spec.im is None or spec.actions is None or spec.group is None):
        known = [data_word(w.name) for w in data.weapons.values()]
        raise RuleError(
            _(
                'Weapons: unknown weapon "{name}". Known: {known}.{hint} For another weapon give its '
                'numbers: "{name} (im -2, actions 3, group one-handed heavy)" or "{name} (like seax)".',
                name=name,
                known=", ".join(known),
                hint=_suggest(name, _names_and_aliases(data.weapons)),
            )
        )
    plain = all(getattr(spec, number) is None for number in _WEAPON_NUMBERS)
    shown = base.name if base is not None and not like and plain else name
    group = _group(spec.group.strip(), data) if spec.group is not None else _or_base(None, base, "group", "")
    return Weapon(
        name=shown,
        im=_or_base(spec.im, base, "im", 0),
        actions=_or_base(spec.actions, base, "actions", 0),
        group=group.strip(),
        hands=_or_base(spec.hands, base, "hands", 1),
        light=_or_base(spec.light, base, "light", False),
        ranged=_or_base(spec.ranged, base, "ranged", False),
        base=key or "",
        damage=_or_base(spec.damage, base, "damage", ""),
        open_at=_or_base(spec.open_at, base, "open_at", 10),
        pv=_or_base(spec.pv, base, "pv", 0),
        bv=_or_base(spec.bv, base, "bv", 0),
    )


_WEAPON_NUMBERS = ("im", "actions", "group", "hands", "light", "ranged", "damage", "open_at", "pv", "bv")
"""What a weapon of the sheet may give of its own (a weapon that gives none is the data's, under its name)."""


def _or_base(given: T | None, base: WeaponData | None, number: str, default: T) -> T:
    """A weapon's ``number``: as the sheet gives it, else the data's weapon it is like, else ``default``."""
    if given is not None:
        return given
    return cast(T, getattr(base, number)) if base is not None else default


def _known_skills(data: TrudvangData) -> list[str]:
    return [_(s.name) for s in data.disciplines.values()] + [_(s.name) for s in data.specialties.values()]


def sheet_from_fields(fields: Mapping[str, Any], data: TrudvangData | None = None) -> TrudvangSheet:
    """The typed sheet from the setup form's values (or a stored sheet dict); :class:`RuleError` says what is wrong.

    Mini-syntax of the text fields (entries separated by ``;`` or ``,``; names are matched ignoring case,
    ``_``/``-`` and "ё", in English or Russian):

    * ``weapons``: ``broadsword, seax``; a weapon not in the data, or a second one of a kind, gives its
      numbers in parentheses: ``Left seax (like seax)``, ``Club (im -2, actions 3, group one-handed heavy,
      hands 1, light no, ranged no)``. The keys, the groups and yes or no may be written in any language of
      the interface (:data:`WEAPON_KEYS`: ``Дубинка (МИ -2, действия 3, группа одноручное тяжёлое)``).
    * ``disciplines`` / ``specialties``: ``Armed combat 1; Unarmed combat 1`` and ``One-handed light weapons
      2; Brawler 1``; one of your own: ``Axe lord 1 (cp 2, lock weapon:battle axe)``. Experienced, Combat
      reaction, Body control, Ambidexter and Shield bearer set their own fields.
    """
    raw, mistakes = convert_sheet({k: v for k, v in fields.items() if v is not None}, SheetInput)
    try:
        sheet = _resolved(raw, data or default_data())
    except RuleError as error:  # with the fields of the wrong kind, when there are any
        mistakes.append(str(error))
    refuse(mistakes)
    return sheet


def _resolved(raw: SheetInput, data: TrudvangData) -> TrudvangSheet:
    weapon_items = _weapon_inputs(raw.weapons) if isinstance(raw.weapons, str) else raw.weapons
    weapons = tuple(_resolve_weapon(item, data) for item in weapon_items)
    seen: set[str] = set()
    for weapon in weapons:
        if norm(weapon.name) in seen:
            raise RuleError(
                _(
                    'Weapons: "{name}" is listed twice; name the second one, e.g. "Left {name} (like {name})".',
                    name=weapon.name,
                )
            )
        seen.add(norm(weapon.name))

    shield = _named_entry(data.shields, raw.shield, N_('Shield: unknown shield "{name}". Known: {known}.{hint}'))
    armour = _named_entry(data.armour, raw.armour, N_('Armour: unknown armour "{name}". Known: {known}.{hint}'))
    race = _named_entry(data.races, raw.race, N_('Race: unknown race "{name}". Known: {known}.{hint}'))

    levels: dict[SkillField, int] = {field: getattr(raw, field) for field in SKILL_FIELDS}
    from_lists: dict[SkillField, int] = {}
    disciplines: list[Skill] = []
    specialties: list[Skill] = []
    weapon_names = {norm(w.name) for w in weapons} | {norm(w.base) for w in weapons if w.base}
    for weapon_key, weapon_data in data.weapons.items():
        weapon_names |= {norm(weapon_key), norm(weapon_data.name), *(norm(a) for a in weapon_data.aliases)}
    groups = data.weapon_groups() | {norm(w.group) for w in weapons}
    for label, value, own in (
        (_("Disciplines"), raw.disciplines, "disciplines"),
        (_("Specialties"), raw.specialties, "specialties"),
    ):
        items = _skill_inputs(value, label) if isinstance(value, str) else value
        for item in items:
            table_name, known_skill = _known_skill(item.name, own, data)
            if known_skill is not None and known_skill.field is not None:
                field = known_skill.field
                if field in from_lists:
                    raise RuleError(_('{where}: "{name}" is listed twice.', where=label, name=known_skill.name))
                from_lists[field] = item.level
                continue
            skill = _own_skill(item, known_skill, label, data, groups, weapon_names)
            target = disciplines if table_name == "disciplines" else specialties
            if any(norm(s.name) == norm(skill.name) for s in (*disciplines, *specialties)):
                raise RuleError(_('{where}: "{name}" is listed twice.', where=label, name=skill.name))
            target.append(skill)
    for field, level in from_lists.items():
        if levels[field] and levels[field] != level:
            raise RuleError(
                _(
                    "{name} is given twice, as {a} and {b}.",
                    name=field.replace("_", " ").capitalize(),
                    a=levels[field],
                    b=level,
                )
            )
        levels[field] = level
    if raw.fear >= len(data.rules.fear_im):
        raise RuleError(
            _("Fear level goes from 0 to {max}, not {value}.", max=len(data.rules.fear_im) - 1, value=raw.fear)
        )
    return TrudvangSheet(
        sv=raw.sv,
        weapons=weapons,
        shield=shield,
        armour=armour,
        race=race,
        con_mod=raw.con_mod,
        disciplines=tuple(disciplines),
        specialties=tuple(specialties),
        wrestling=raw.wrestling,
        ambidexter=levels["ambidexter"],
        shield_bearer=levels["shield_bearer"],
        body_control=levels["body_control"],
        experienced=levels["experienced"],
        combat_reaction=levels["combat_reaction"],
        str_mod=raw.str_mod,
        agi_mod=raw.agi_mod,
        fear=raw.fear,
    )


def _known_skill(name: str, own: str, data: TrudvangData) -> tuple[str, SkillData | None]:
    """The table a skill named in the list ``own`` ("disciplines" or "specialties") is found in (the other one
    when only it knows the name), and the data's skill (None when neither does)."""
    table_name = own
    key = find_entry(data.disciplines if own == "disciplines" else data.specialties, name)
    if key is None:
        other = "specialties" if own == "disciplines" else "disciplines"
        key = find_entry(data.specialties if other == "specialties" else data.disciplines, name)
        table_name = other if key is not None else own
    if key is None:
        return table_name, None
    return table_name, (data.disciplines if table_name == "disciplines" else data.specialties)[key]


def _own_skill(
    item: SkillInput,
    known_skill: SkillData | None,
    label: str,
    data: TrudvangData,
    groups: set[str],
    weapon_names: set[str],
) -> Skill:
    """The sheet's skill of ``item``: the data's ``known_skill`` with the sheet's numbers, or one of the GM's own
    (which needs its CP and lock); its lock checked against the sheet's weapons and groups."""
    if known_skill is None and (item.cp_per_level is None or item.lock is None):
        known = _known_skills(data)
        raise RuleError(
            _(
                '{where}: unknown name "{name}". Known: {known}.{hint} One of your own needs '
                'its CP and lock: "{name} {level} (cp 2, lock group:one-handed light)".',
                where=label,
                name=item.name,
                known=", ".join(known),
                hint=_suggest(
                    item.name,
                    {
                        **{name: name for name in known},
                        **_names_and_aliases(data.disciplines),
                        **_names_and_aliases(data.specialties),
                    },
                ),
                level=item.level,
            )
        )
    lock = _lock(item.lock, data) if item.lock is not None else (known_skill.lock if known_skill else "general")
    problem = lock_problem(lock, groups, weapon_names)
    if problem:
        raise RuleError(_("{where}: {name}: {problem}", where=label, name=item.name, problem=problem))
    if known_skill is None:
        return Skill(
            name=item.name,
            level=item.level,
            cp_per_level=item.cp_per_level or 0,
            im_per_level=item.im_per_level or 0,
            lock=canonical_lock(lock),
        )
    return Skill(
        name=known_skill.name,
        level=item.level,
        cp_per_level=item.cp_per_level if item.cp_per_level is not None else known_skill.cp_per_level,
        im_per_level=item.im_per_level if item.im_per_level is not None else known_skill.im_per_level,
        lock=canonical_lock(lock),
    )
