"""Trudvang Chronicles: the initiative countdown and the combat-point budget.

A round: **choose actions** (each combatant declares what he will use: weapon, off-hand weapon, shield,
spell IM) → **initiative** (one open-ended 1d10 per combatant or NPC group, plus the IMs of that choice)
→ **countdown** (the GM calls 20, 15, 10, 9 … 1, "≤0"; everyone whose initiative has been reached acts,
higher initiative first) → **end of round** (combat points refresh when the next round starts).

Ruleset actions (``RulesetAction(name, args)``; ``roll`` is a :class:`~tui_combat.engine.dice.Roll` or its
dict ``{"expr", "total", "faces", "physical"}``; ``modifier`` is an optional situational ± the GM adds):

``attack``
    ``combatant``, ``target``, ``cp``, ``weapon`` (a weapon on the sheet, ``"shield"`` or ``"unarmed"``;
    empty = the declared weapon), ``roll`` (1d20), ``hand`` (``"main"``/``"off"``; empty = off hand for the
    declared off-hand weapon and the shield), ``modifier``. Only on the attacker's own turn. SV = CP spent
    ± modifiers; 1 = critical hit, 20 = fumble, otherwise ≤ SV hits. Spends the CP (locked pools first,
    then general) and one weapon action of the weapon or shield; unarmed: one of the 4 unarmed attacks.
``parry``
    ``combatant``, ``cp``, ``weapon`` (weapon, ``"shield"`` or ``"unarmed"``), ``roll``, ``attack`` (the id
    logged with the attack; default: the last hit on him not yet defended), ``hand``, ``modifier``.
    Out of turn. One parry or dodge per attack, only against a hit, never against a ranged attack; a
    ranged weapon parries with general CP only.
``dodge``
    ``combatant``, ``cp``, ``roll``, ``attack``, ``modifier``. Like a parry but with general CP only, no
    weapon action, and it works against ranged attacks too.
``grapple``
    ``combatant``, ``target``, ``sv`` (or ``cp``, a multiple of 2), ``hand`` (``"both"``, ``"weapon"``,
    ``"shield"``), ``roll``, ``modifier``. 2 CP per SV, SV bought at most the Wrestling SV; + Strength;
    weapon hand −5, shield hand −10 (+1 per Ambidexter level). One per round; an unarmed attack.
``break_free``
    ``combatant``, ``sv`` (or ``cp``, a multiple of 3), ``roll``, ``modifier``. 3 CP per SV, no cap;
    + Strength + Agility. At his call, or as a reaction once his call has passed. One per round.
``glima``
    ``combatant``, ``target`` (whom he holds), ``sv``/``cp`` (2 per SV, capped by Wrestling), ``hand``,
    ``roll``, ``drop`` (``true``: he drops onto the opponent, 1d6 and the hold stays; else 1d4 and the
    opponent is released), ``modifier``. One per round; an unarmed attack.
``glima_defence``
    ``combatant``, ``sv``/``cp`` (3 per SV, capped by Wrestling), ``roll``, ``attack``, ``modifier``;
    + the better of Strength and Agility. Stops the throw only. One per round.
``hold``
    ``combatant``. Only at his own call, before acting: he leaves the order and may act later.
``act_held``
    ``combatant`` and/or ``combatants`` (a list, or names/ids separated by commas), ``together`` (more
    held combatants acting at the same moment, comma-separated), ``tiebreak`` (id or name → 1d10, or the
    text "Fridgar 7, Ulf 3"; needed only between held combatants of equal Combat SV), ``after``
    (``true``: after the current slot instead of before it). Highest Combat SV first. Every action of
    that turn gets −5.
``skip``
    ``combatant``. Gives up his turn (before or at his call, not after acting): out of the order, parries
    still allowed, +5 on his initiative roll next round (kept in ``state.carry``).
``change_action``
    ``combatant``, ``declaration`` (as ``Declare``: ``weapon``, ``offhand``, ``shield``, ``spell_im``,
    ``other_im``), or those keys flat beside ``combatant``. Before the countdown it is a declaration
    (after a roll it also re-sorts the order); during it, only before his call: the new IMs apply to
    the same roll and the order is rebuilt.
``release``
    ``combatant``: the GM frees a grappled combatant.

Keys on the round screen (avoiding its own n, space, b, r, t, e, d, h, x, i, u, U, q): attack ``a``,
parry ``p``, dodge ``o``, grapple ``g``, break free ``f``, Glima ``w``, Glima defence ``v``, hold ``l``,
act held ``j``, skip ``k``, change action ``c``, release ``z``. ``action_fields`` gives each action's form.

Budget lines (``budget``): one per CP pool — "CP" (general), "CP any weapon", "CP <weapon>",
"CP <group>", "CP ranged", "CP unarmed", "CP brawling", "CP wrestling" — then "<weapon> actions" for each
weapon and the shield, then "Unarmed attacks".

What the state holds (JSON-like, converted to the typed Structs below): ``round_data["declarations"]``
(the engine's), ``round_data["initiative"]`` (the engine's rolled totals by roll key),
``round_data["budgets"]`` (cid → CP pools and weapon actions, ``{"left", "total"}`` meters),
``round_data["turns"]`` (cid → held / skipped / acted / surprised and the once-a-round counters),
``round_data["init"]`` (roll key → the raw roll and its modifier, for change of action),
``round_data["attacks"]`` (every attack this round, by id), ``state.carry["init_bonus"]`` (the +5 for a
skipped turn) and ``state.carry["grappled"]`` (victim → grappler, kept across rounds).

Readings chosen where the rules leave room:

* The seed's text wins over the digest: Fridgar starts with Combat SV 6 and reaches 9 later; the
  numbers checked here are the later ones (9 → 14 / 10 / 9, then unarmed 12).
* Success is a roll ≤ SV, as the seed's text says ("ниже или равно"); its result table prints "<ЗН".
* The Glima defence adds the better of the Strength and Agility modifiers (the seed: "Strength or
  Agility"); the digest mentions neither.
* Wrestling gives 2 CP per level (locked to wrestling) and a Wrestling SV of its own that caps the SV
  bought; the seed names both but gives no CP figure. Weapon groups, hands and "light" are defaults.
* The countdown calls are 20 (20 and up), 15 (15–19), 10 (10–14), then 9 … 1, then "≤0". Each distinct
  initiative value is its own slot (equal values act together); several slots share one call label.
* An undeclared combatant uses his first weapon (or unarmed) and his shield if he has one.
* An NPC group rolls once and uses the initiative modifier of its first active member; changing the
  action of one member changes it for the whole group (they act together).
* Surprise: a surprised side still acts in round 1, with −5 on every combatant action (attack, parry,
  dodge, grapple, break free, Glima, Glima defence) but not on its initiative roll. The seed has no
  surprise roll: ``surprise_dice`` is empty and the GM marks surprised sides himself. Encounter distance: one situation, "as the GM describes".
* Skipping may be chosen before the countdown too (the skipper needs no initiative roll).
* Holding: −5 on every action of the held turn (not on parries or dodges made while waiting). A held
  combatant acts in a slot inserted before the current one (``after`` puts it after). Skipping is
  allowed to a held combatant who has not acted yet.
* Changing the action to one that would have come up already: he acts right after the current slot
  (or in it, when his new value equals the current one).
* A parry with a weapon or shield whose IM was not counted: before his call the item is added to his
  declaration and the order rebuilt; after his call it is refused (he could not save CP for it).
* Attacking with a weapon or shield that was not declared is refused: change the action first.
* Locks: ``general``, ``any_weapon`` (weapons and shields), ``weapon:<name>``, ``group:<group>``
  (shields are the group ``shield``), ``ranged``, ``unarmed`` (every unarmed action), plus two the seed
  calls for: ``brawl`` (unarmed strikes and parries — Brawler, because the seed names Combat SV, Unarmed
  combat and Wrestling as the only sources of grapple CP) and ``wrestling`` (grapple, break free, Glima).
* Spending draws the most specific pool first: weapon, group, ranged, any weapon, general; unarmed:
  brawl, unarmed, general; wrestling: wrestling, unarmed, general. A dodge uses general CP only; a
  ranged weapon parries with general CP only (the seed: "only general CP").
* Grapple, break free, Glima and Glima defence are bought by SV (``sv``), or by ``cp`` that must be a
  whole multiple of the rate. The Wrestling cap is on the SV bought, before modifiers. A Wrestling SV
  of 0 means he cannot grapple, throw or defend a throw. One grapple and one break-free attempt per
  round each (the seed's sentence can be read either way). Break free needs no weapon action.
* Grapple and Glima take effect at once and are undone by a successful parry/dodge (grapple) or Glima
  defence. Hands in use are not tracked: the GM picks the hand.
* Off hand: −15, each Body control level +3 and each Ambidexter level +3 (defaults, the seed gives no
  figure), never above 0; Shield bearer 1 removes it for the shield. The shield always counts as the
  off hand; so does the declared off-hand weapon unless ``hand`` says otherwise.
* An unarmed parry is not a weapon action and has no limit but CP; unarmed attacks (strikes, grapples,
  Glima) are at most 4 a round.
* Experienced gives general CP; Body control, Ambidexter, Shield bearer, Experienced and Combat reaction
  written in the discipline/specialty lists go to their own sheet fields. A discipline written among the
  specialties (or the other way round) is accepted where it belongs.
* Damage is left to the GM (the engine's ``Damage``); the log says what to roll (1d6 unarmed, 1d4/1d6
  Glima, half damage for an unarmed parry of an armed attack, damage against the parrying item).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import msgspec
from msgspec.structs import replace

from tui_combat.engine.apply import log
from tui_combat.engine.dice import Roll, format_roll
from tui_combat.engine.model import Combatant, Slot, State
from tui_combat.i18n import _
from tui_combat.engine.contract import (
    ActionKey,
    BudgetLine,
    FieldSpec,
    OptionSpec,
    RollRequest,
    RuleError,
    Situation,
    StepDef,
    SurpriseModifier,
)
from tui_combat.rulesets.data_loading import DATA_DIR, load_table

NonNegative = Annotated[int, msgspec.Meta(ge=0)]
Source = Literal["seed", "default"]
SkillField = Literal["experienced", "combat_reaction", "body_control", "ambidexter", "shield_bearer"]
SKILL_FIELDS: tuple[SkillField, ...] = ("experienced", "combat_reaction", "body_control", "ambidexter", "shield_bearer")
UNARMED = "unarmed"
SHIELD = "shield"
WRESTLING = "wrestling"
DODGE = "dodge"
SHIELD_GROUP = "shield"
FIXED_LOCKS = ("general", "any_weapon", "ranged", "unarmed", "brawl", "wrestling")
DATA_PATH = DATA_DIR / "trudvang.toml"


# -- the data file ---------------------------------------------------------------------------------------
class Rules(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    initiative_dice: str
    action_dice: str
    calls: tuple[int, ...]
    held_penalty: int
    skip_bonus: int
    surprise_penalty: int
    unarmed_attacks: NonNegative
    offhand_penalty: int
    offhand_body_control_per_level: NonNegative
    offhand_ambidexter_per_level: NonNegative
    shield_bearer_removes_offhand: NonNegative
    grapple_weapon_hand: int
    grapple_shield_hand: int
    grapple_ambidexter_per_level: NonNegative
    grapple_cp_per_sv: Annotated[int, msgspec.Meta(ge=1)]
    break_free_cp_per_sv: Annotated[int, msgspec.Meta(ge=1)]
    glima_cp_per_sv: Annotated[int, msgspec.Meta(ge=1)]
    glima_defence_cp_per_sv: Annotated[int, msgspec.Meta(ge=1)]
    fear_im: tuple[int, ...]


class _Entry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What every row of the data file has: a name, other names it answers to, and where it comes from."""

    name: str
    aliases: tuple[str, ...] = ()
    source: Source
    where: str = ""
    note: str = ""


class ArmourData(_Entry, frozen=True, kw_only=True, forbid_unknown_fields=True):
    im: int


class ShieldData(ArmourData, frozen=True, kw_only=True, forbid_unknown_fields=True):
    actions: NonNegative


class WeaponData(ShieldData, frozen=True, kw_only=True, forbid_unknown_fields=True):
    group: str
    hands: Annotated[int, msgspec.Meta(ge=1, le=2)] = 1
    light: bool = False
    ranged: bool = False


class SkillData(_Entry, frozen=True, kw_only=True, forbid_unknown_fields=True):
    cp_per_level: NonNegative
    im_per_level: int = 0
    lock: str
    field: SkillField | None = None
    """The sheet field the level goes to (its effect is a rule, not only a CP pool)."""


class TrudvangData(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    schema: int
    rules: Rules
    weapons: dict[str, WeaponData]
    shields: dict[str, ShieldData]
    armour: dict[str, ArmourData]
    disciplines: dict[str, SkillData]
    specialties: dict[str, SkillData]

    def field_skill(self, field: SkillField) -> SkillData | None:
        for table in (self.disciplines, self.specialties):
            for skill in table.values():
                if skill.field == field:
                    return skill
        return None

    def weapon_groups(self) -> set[str]:
        return {norm(weapon.group) for weapon in self.weapons.values()} | {SHIELD_GROUP}


def norm(text: str) -> str:
    """The form names are compared in: lower case, "ё" → "е", "_" and "-" as spaces, single spaces."""
    return " ".join(text.lower().replace("ё", "е").replace("_", " ").replace("-", " ").split())


def lock_problem(lock: str, groups: set[str], weapons: set[str] | None) -> str:
    """Why ``lock`` is not a valid lock ("" when it is). ``weapons`` None: any weapon name is accepted."""
    kind, sep, target = lock.partition(":")
    kind = kind.strip().lower()
    if not sep:
        if kind in FIXED_LOCKS:
            return ""
        return _('"{lock}" is not a lock; use one of {known}, weapon:<name> or group:<group>.', lock=lock, known=", ".join(FIXED_LOCKS))
    if kind == "group":
        if norm(target) in groups:
            return ""
        return _('"{group}" is not a weapon group; known groups: {known}.', group=target.strip(), known=", ".join(sorted(groups)))
    if kind == "weapon":
        if not norm(target):
            return _('"{lock}" needs a weapon name after "weapon:".', lock=lock)
        if weapons is None or norm(target) in weapons:
            return ""
        return _('"{weapon}" is not a known weapon.', weapon=target.strip())
    return _('"{lock}" is not a lock; use one of {known}, weapon:<name> or group:<group>.', lock=lock, known=", ".join(FIXED_LOCKS))


def canonical_lock(lock: str) -> str:
    kind, sep, target = lock.partition(":")
    kind = kind.strip().lower()
    return f"{kind}:{norm(target)}" if sep else kind


def _convert(value: Any, kind: Any, path: Path, where: str) -> Any:
    """``msgspec.convert`` whose error names the file and the full key (msgspec writes dict keys as "[...]")."""
    try:
        return msgspec.convert(value, kind)
    except msgspec.ValidationError as error:
        text = str(error)
        match = re.search(r" - at `\$(.*)`$", text)
        key = where + (match[1] if match else "")
        problem = text[: match.start()] if match else text
        raise RuleError(_("{path}: {key}: {problem}", path=path, key=key, problem=problem)) from None


def load_data(path: Path = DATA_PATH) -> TrudvangData:
    """Read a Trudvang data file; :class:`RuleError` names the file and the key of a bad value."""
    raw = load_table(path, dict[str, Any])
    known = set(TrudvangData.__struct_fields__)
    for key in raw:
        if key not in known:
            raise RuleError(_("{path}: {key}: {problem}", path=path, key=key, problem=_("unknown table; known: {known}.", known=", ".join(sorted(known)))))
    tables: dict[str, Any] = {"schema": _convert(raw.get("schema", 1), int, path, "schema"), "rules": _convert(raw.get("rules"), Rules, path, "rules")}
    kinds: dict[str, type[msgspec.Struct]] = {"weapons": WeaponData, "shields": ShieldData, "armour": ArmourData, "disciplines": SkillData, "specialties": SkillData}
    for section, kind in kinds.items():
        entries = _convert(raw.get(section, {}), dict[str, dict[str, Any]], path, section)
        tables[section] = {key: _convert(entry, kind, path, f"{section}.{key}") for key, entry in entries.items()}
    data = TrudvangData(**tables)
    groups = data.weapon_groups()
    weapon_names: set[str] = set()
    for key, weapon in data.weapons.items():
        weapon_names |= {norm(key), norm(weapon.name), *(norm(alias) for alias in weapon.aliases)}
    for table_name, table in (("disciplines", data.disciplines), ("specialties", data.specialties)):
        for key, skill in table.items():
            problem = lock_problem(skill.lock, groups, weapon_names)
            if problem:
                raise RuleError(_("{path}: {key}: {problem}", path=path, key=f"{table_name}.{key}.lock", problem=problem))
    if not data.rules.calls or list(data.rules.calls) != sorted(data.rules.calls, reverse=True) or min(data.rules.calls) < 1:
        raise RuleError(_("{path}: {key}: {problem}", path=path, key="rules.calls", problem=_("list the calls from the highest down, all above 0.")))
    if not data.rules.fear_im:
        raise RuleError(_("{path}: {key}: {problem}", path=path, key="rules.fear_im", problem=_("give at least the value for fear level 0.")))
    return data


# -- a combatant's sheet ---------------------------------------------------------------------------------
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


_NONE_WORDS = {"", "none", "no", "-", "нет"}
_TRUE_WORDS = {"yes", "true", "1", "y", "да"}
_FALSE_WORDS = {"no", "false", "0", "n", "нет"}
_ENTRY = re.compile(r"^(?P<head>[^()]*?)\s*(?:\((?P<options>[^()]*)\))?$")
_OPTION = re.compile(r"^(?P<key>[A-Za-z_]+)\s*(?:[=:]\s*|\s+|$)(?P<value>.*)$")
_LEVEL = re.compile(r"^(?P<name>.*?)\s*(?P<level>[+\-−]?\d+)$")


def _split(text: str, separators: str) -> list[str]:
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
        raise RuleError(_('{where}: cannot read "{text}": write "name (key value, key value)".', where=where, text=text))
    options: dict[str, str] = {}
    for part in _split(match["options"] or "", ",;"):
        option = _OPTION.match(part)
        if option is None:
            raise RuleError(_('{where}: cannot read "{text}" in "{entry}": write "key value".', where=where, text=part, entry=text))
        options[option["key"].lower()] = option["value"].strip()
    return match["head"].strip(), options


def _int(value: str, where: str, key: str) -> int:
    cleaned = value.strip().replace("−", "-")
    try:
        return int(cleaned)
    except ValueError:
        raise RuleError(_('{where}: {key} must be a whole number, not "{value}".', where=where, key=key, value=value)) from None


def _bool(value: str, where: str, key: str) -> bool:
    word = value.strip().lower()
    if word == "" or word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    raise RuleError(_('{where}: {key} must be yes or no, not "{value}".', where=where, key=key, value=value))


def _suggest(name: str, known: Iterable[str]) -> str:
    names = list(known)
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    if not close:
        lowered = {norm(k): k for k in names}
        match = difflib.get_close_matches(norm(name), list(lowered), n=1, cutoff=0.6)
        close = [lowered[match[0]]] if match else []
    return _(' Did you mean "{name}"?', name=close[0]) if close else ""


def _find(table: Mapping[str, Any], name: str) -> str | None:
    """The key of ``table`` whose id, name or alias is ``name`` (compared with :func:`norm`)."""
    wanted = norm(name)
    for key, entry in table.items():
        if wanted == norm(key) or wanted == norm(entry.name) or wanted in {norm(a) for a in entry.aliases}:
            return key
    return None


def _weapon_inputs(text: str) -> list[str | WeaponInput]:
    result: list[str | WeaponInput] = []
    for part in _split(text, ",;\n"):
        head, options = _entry(part, _("Weapons"))
        if not options:
            result.append(head)
            continue
        fields: dict[str, Any] = {"name": head}
        where = _("Weapons: {name}", name=head)
        for key, value in options.items():
            if key in ("like", "as", "base"):
                fields["like"] = value
            elif key in ("im", "actions", "hands"):
                fields[key] = _int(value, where, key)
            elif key == "group":
                fields["group"] = value
            elif key in ("light", "ranged"):
                fields[key] = _bool(value, where, key)
            else:
                raise RuleError(_('{where}: unknown key "{key}"; use like, im, actions, group, hands, light, ranged.', where=where, key=key))
        try:
            result.append(msgspec.convert(fields, WeaponInput))
        except msgspec.ValidationError as error:
            raise RuleError(_("{where}: {error}", where=where, error=error)) from None
    return result


def _skill_inputs(text: str, label: str) -> list[SkillInput]:
    result: list[SkillInput] = []
    for part in _split(text, ",;\n"):
        head, options = _entry(part, label)
        match = _LEVEL.match(head)
        if match is None or not match["name"].strip():
            raise RuleError(_('{where}: "{text}" needs a level after the name, e.g. "{text} 1".', where=label, text=head))
        level = _int(match["level"], label, match["name"])
        if level < 0:
            raise RuleError(_('{where}: the level of "{name}" cannot be negative.', where=label, name=match["name"]))
        fields: dict[str, Any] = {"name": match["name"].strip(), "level": level}
        where = f"{label}: {fields['name']}"
        for key, value in options.items():
            if key in ("cp", "cp_per_level"):
                fields["cp_per_level"] = _int(value, where, key)
            elif key in ("im", "im_per_level"):
                fields["im_per_level"] = _int(value, where, key)
            elif key == "lock":
                fields["lock"] = value
            else:
                raise RuleError(_('{where}: unknown key "{key}"; use cp, im, lock.', where=where, key=key))
        try:
            result.append(msgspec.convert(fields, SkillInput))
        except msgspec.ValidationError as error:
            raise RuleError(_("{where}: {error}", where=where, error=error)) from None
    return result


def _resolve_weapon(item: str | WeaponInput, data: TrudvangData) -> Weapon:
    spec = WeaponInput(name=item) if isinstance(item, str) else item
    name = spec.name.strip()
    if not name:
        raise RuleError(_("Weapons: a weapon needs a name."))
    like = spec.like or spec.base
    key = _find(data.weapons, like or name)
    if like and key is None:
        known = [w.name for w in data.weapons.values()]
        raise RuleError(_('Weapons: "{name}" is like "{like}", which is not a known weapon. Known: {known}.{hint}', name=name, like=like, known=", ".join(known), hint=_suggest(like, known)))
    base = data.weapons[key] if key is not None else None
    if base is None and (spec.im is None or spec.actions is None or spec.group is None):
        known = [w.name for w in data.weapons.values()]
        raise RuleError(
            _(
                'Weapons: unknown weapon "{name}". Known: {known}.{hint} For another weapon give its numbers: "{name} (im -2, actions 3, group one-handed heavy)" or "{name} (like seax)".',
                name=name,
                known=", ".join(known),
                hint=_suggest(name, known),
            )
        )
    plain = spec.im is None and spec.actions is None and spec.group is None and spec.hands is None and spec.light is None and spec.ranged is None
    shown = base.name if base is not None and not like and plain else name
    return Weapon(
        name=shown,
        im=spec.im if spec.im is not None else (base.im if base else 0),
        actions=spec.actions if spec.actions is not None else (base.actions if base else 0),
        group=(spec.group if spec.group is not None else (base.group if base else "")).strip(),
        hands=spec.hands if spec.hands is not None else (base.hands if base else 1),
        light=spec.light if spec.light is not None else (base.light if base else False),
        ranged=spec.ranged if spec.ranged is not None else (base.ranged if base else False),
        base=key or "",
    )


def _known_skills(data: TrudvangData) -> list[str]:
    return [s.name for s in data.disciplines.values()] + [s.name for s in data.specialties.values()]


def sheet_from_fields(fields: Mapping[str, Any], data: TrudvangData | None = None) -> TrudvangSheet:
    """The typed sheet from the setup form's values (or a stored sheet dict); :class:`RuleError` says what is wrong.

    Mini-syntax of the text fields (entries separated by ``;`` or ``,``; names are matched ignoring case,
    ``_``/``-`` and "ё", in English or Russian):

    * ``weapons``: ``broadsword, seax``; a weapon not in the data, or a second one of a kind, gives its
      numbers in parentheses: ``Left seax (like seax)``, ``Club (im -2, actions 3, group one-handed heavy,
      hands 1, light no, ranged no)``.
    * ``disciplines`` / ``specialties``: ``Armed combat 1; Unarmed combat 1`` and ``One-handed light weapons
      2; Brawler 1``; one of your own: ``Axe lord 1 (cp 2, lock weapon:battle axe)``. Experienced, Combat
      reaction, Body control, Ambidexter and Shield bearer set their own fields.
    """
    data = data or RULESET.data
    try:
        raw = msgspec.convert({k: v for k, v in fields.items() if v is not None}, SheetInput, strict=False)
    except msgspec.ValidationError as error:
        text = str(error)
        match = re.search(r" - at `\$\.(\w+)", text)
        if match is not None:
            labels = {field.key: field.label for field in RULESET.sheet_fields} if "RULESET" in globals() else {}
            text = f"{_(labels.get(match[1], match[1]))}: {text[: match.start()]}"
        raise RuleError(_("Sheet: {error}", error=text)) from None
    weapon_items = _weapon_inputs(raw.weapons) if isinstance(raw.weapons, str) else raw.weapons
    weapons = tuple(_resolve_weapon(item, data) for item in weapon_items)
    seen: set[str] = set()
    for weapon in weapons:
        if norm(weapon.name) in seen:
            raise RuleError(_('Weapons: "{name}" is listed twice; name the second one, e.g. "Left {name} (like {name})".', name=weapon.name))
        seen.add(norm(weapon.name))

    shield = ""
    if norm(raw.shield) not in _NONE_WORDS:
        found = _find(data.shields, raw.shield)
        if found is None:
            known = [s.name for s in data.shields.values()]
            raise RuleError(_('Shield: unknown shield "{name}". Known: none, {known}.{hint}', name=raw.shield, known=", ".join(known), hint=_suggest(raw.shield, known)))
        shield = found
    armour = ""
    if norm(raw.armour) not in _NONE_WORDS:
        found = _find(data.armour, raw.armour)
        if found is None:
            known = [a.name for a in data.armour.values()]
            raise RuleError(_('Armour: unknown armour "{name}". Known: none, {known}.{hint}', name=raw.armour, known=", ".join(known), hint=_suggest(raw.armour, known)))
        armour = found

    levels: dict[SkillField, int] = {field: getattr(raw, field) for field in SKILL_FIELDS}
    from_lists: dict[SkillField, int] = {}
    disciplines: list[Skill] = []
    specialties: list[Skill] = []
    weapon_names = {norm(w.name) for w in weapons} | {norm(w.base) for w in weapons if w.base}
    for weapon_key, weapon_data in data.weapons.items():
        weapon_names |= {norm(weapon_key), norm(weapon_data.name), *(norm(a) for a in weapon_data.aliases)}
    groups = data.weapon_groups() | {norm(w.group) for w in weapons}
    for label, value, own in ((_("Disciplines"), raw.disciplines, "disciplines"), (_("Specialties"), raw.specialties, "specialties")):
        items = _skill_inputs(value, label) if isinstance(value, str) else value
        for item in items:
            table_name = own
            key = _find(data.disciplines if own == "disciplines" else data.specialties, item.name)
            if key is None:
                other = "specialties" if own == "disciplines" else "disciplines"
                key = _find(data.specialties if other == "specialties" else data.disciplines, item.name)
                table_name = other if key is not None else own
            known_skill = None
            if key is not None:
                known_skill = (data.disciplines if table_name == "disciplines" else data.specialties)[key]
            if known_skill is not None and known_skill.field is not None:
                field = known_skill.field
                if field in from_lists:
                    raise RuleError(_('{where}: "{name}" is listed twice.', where=label, name=known_skill.name))
                from_lists[field] = item.level
                continue
            if known_skill is None and (item.cp_per_level is None or item.lock is None):
                known = _known_skills(data)
                raise RuleError(
                    _(
                        '{where}: unknown name "{name}". Known: {known}.{hint} One of your own needs its CP and lock: "{name} {level} (cp 2, lock group:one-handed light)".',
                        where=label,
                        name=item.name,
                        known=", ".join(known),
                        hint=_suggest(item.name, known),
                        level=item.level,
                    )
                )
            lock = item.lock if item.lock is not None else (known_skill.lock if known_skill else "general")
            problem = lock_problem(lock, groups, weapon_names)
            if problem:
                raise RuleError(_("{where}: {name}: {problem}", where=label, name=item.name, problem=problem))
            skill = Skill(
                name=known_skill.name if known_skill else item.name,
                level=item.level,
                cp_per_level=item.cp_per_level if item.cp_per_level is not None else (known_skill.cp_per_level if known_skill else 0),
                im_per_level=item.im_per_level if item.im_per_level is not None else (known_skill.im_per_level if known_skill else 0),
                lock=canonical_lock(lock),
            )
            target = disciplines if table_name == "disciplines" else specialties
            if any(norm(s.name) == norm(skill.name) for s in (*disciplines, *specialties)):
                raise RuleError(_('{where}: "{name}" is listed twice.', where=label, name=skill.name))
            target.append(skill)
    for field, level in from_lists.items():
        if levels[field] and levels[field] != level:
            raise RuleError(_("{name} is given twice, as {a} and {b}.", name=field.replace("_", " ").capitalize(), a=levels[field], b=level))
        levels[field] = level
    if raw.fear >= len(data.rules.fear_im):
        raise RuleError(_("Fear level goes from 0 to {max}, not {value}.", max=len(data.rules.fear_im) - 1, value=raw.fear))
    return TrudvangSheet(
        sv=raw.sv,
        weapons=weapons,
        shield=shield,
        armour=armour,
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


# -- combat points -----------------------------------------------------------------------------------------
def cp_pools(sheet: TrudvangSheet, data: TrudvangData | None = None) -> dict[str, int]:
    """Combat points by lock: ``general`` (Combat SV and general CP) always, the others when above 0."""
    data = data or RULESET.data
    pools: dict[str, int] = {"general": sheet.sv}
    for field in SKILL_FIELDS:
        skill = data.field_skill(field)
        level = getattr(sheet, field)
        if skill is not None and level and skill.cp_per_level:
            lock = canonical_lock(skill.lock)
            pools[lock] = pools.get(lock, 0) + level * skill.cp_per_level
    for own in (*sheet.disciplines, *sheet.specialties):
        cp = own.level * own.cp_per_level
        if cp:
            lock = canonical_lock(own.lock)
            pools[lock] = pools.get(lock, 0) + cp
    return pools


def find_weapon(sheet: TrudvangSheet, name: str, data: TrudvangData | None = None) -> Weapon | None:
    """The sheet's weapon called ``name``, or the one copied from the data weapon of that name or alias."""
    weapon = sheet.weapon(name)
    if weapon is not None:
        return weapon
    key = _find((data or RULESET.data).weapons, name)
    return next((w for w in sheet.weapons if key is not None and w.base == key), None)


def _weapon_locks(weapon: Weapon) -> list[str]:
    names = [norm(weapon.name)]
    if weapon.base and norm(weapon.base) not in names:
        names.append(norm(weapon.base))
    return [f"weapon:{name}" for name in names]


def usable_pools(sheet: TrudvangSheet, what: str, *, parry: bool = False, data: TrudvangData | None = None) -> list[str]:
    """Pool ids that may pay for an action with ``what``, most specific first.

    ``what``: a weapon on the sheet, ``"shield"``, ``"unarmed"`` (strikes and unarmed parries),
    ``"wrestling"`` (grapple, break free, Glima) or ``"dodge"``.
    """
    data = data or RULESET.data
    if what == DODGE:
        return ["general"]
    if what == UNARMED:
        return ["brawl", "unarmed", "general"]
    if what == WRESTLING:
        return ["wrestling", "unarmed", "general"]
    if what == SHIELD:
        weapon_locks: list[str] = []
        if sheet.shield:
            weapon_locks = [f"weapon:{norm(sheet.shield)}", f"weapon:{norm(data.shields[sheet.shield].name)}"]
        return [*dict.fromkeys([*weapon_locks, f"group:{SHIELD_GROUP}", "any_weapon", "general"])]
    weapon = find_weapon(sheet, what, data)
    if weapon is None:
        raise RuleError(_('"{weapon}" is not on the sheet.', weapon=what))
    if parry and weapon.ranged:
        return ["general"]
    pools = [*_weapon_locks(weapon)]
    if weapon.base:
        base = data.weapons.get(weapon.base)
        if base is not None:
            pools += [f"weapon:{norm(alias)}" for alias in (base.name, *base.aliases)]
    pools.append(f"group:{norm(weapon.group)}")
    if weapon.ranged:
        pools.append("ranged")
    pools += ["any_weapon", "general"]
    return [*dict.fromkeys(pools)]


def cp_available(sheet: TrudvangSheet, weapon_or_unarmed: str, data: TrudvangData | None = None) -> int:
    """All the CP the sheet can put into actions with one weapon (or ``"unarmed"``, ``"shield"``,
    ``"wrestling"``, ``"dodge"``) in a fresh round."""
    pools = cp_pools(sheet, data)
    return sum(pools.get(pool, 0) for pool in usable_pools(sheet, weapon_or_unarmed, data=data))


# -- what a round keeps -------------------------------------------------------------------------------------
class Meter(msgspec.Struct, frozen=True, kw_only=True):
    left: int
    total: int


class Budget(msgspec.Struct, frozen=True, kw_only=True):
    pools: dict[str, Meter] = {}
    actions: dict[str, Meter] = {}
    """Weapon actions: a weapon's name, or "shield"."""
    unarmed: Meter = Meter(left=0, total=0)


class Turn(msgspec.Struct, frozen=True, kw_only=True):
    held: bool = False
    acted_held: bool = False
    skipped: bool = False
    acted: bool = False
    surprised: bool = False
    init_bonus: int = 0
    used: dict[str, int] = {}
    """Once-a-round actions taken: grapple, break_free, glima, glima_defence."""


class InitEntry(msgspec.Struct, frozen=True, kw_only=True):
    rolled: int
    """The total the engine stored (roll + modifier at the time)."""
    raw: int
    modifier: int

    @property
    def total(self) -> int:
        return self.raw + self.modifier


AttackKind = Literal["attack", "grapple", "glima"]


class AttackRecord(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    attacker: str
    target: str
    kind: AttackKind
    item: str
    ranged: bool = False
    unarmed: bool = False
    hit: bool = False
    drop: bool = False
    defended: str = ""


class RoundInfo(msgspec.Struct, frozen=True, kw_only=True):
    budgets: dict[str, Budget] = {}
    turns: dict[str, Turn] = {}
    init: dict[str, InitEntry] = {}
    attacks: list[AttackRecord] = []


class Bonus(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    value: int


class Carry(msgspec.Struct, frozen=True, kw_only=True):
    init_bonus: dict[str, Bonus] = {}
    grappled: dict[str, str] = {}
    """Victim id → grappler id."""


class Declaration(msgspec.Struct, frozen=True, kw_only=True):
    weapon: str = ""
    """A weapon on the sheet, "unarmed", or "" for the first weapon."""
    offhand: str = ""
    shield: bool | None = None
    """None: used if he has one."""
    spell_im: int = 0
    other_im: int = 0
    """Fatigue, damage, stress, drugs …"""


class Used(msgspec.Struct, frozen=True, kw_only=True):
    """A declaration resolved against the sheet."""

    weapon: Weapon | None
    offhand: Weapon | None
    shield: bool
    spell_im: int
    other_im: int

    def items(self) -> set[str]:
        names = {norm(w.name) for w in (self.weapon, self.offhand) if w is not None}
        return names | ({SHIELD} if self.shield else set())


_ROUND_KEYS = ("budgets", "turns", "init", "attacks")
Args = TypeVar("Args", bound=msgspec.Struct)


class _Combatant(msgspec.Struct, frozen=True, kw_only=True):
    combatant: str


class _Spend(msgspec.Struct, frozen=True, kw_only=True):
    combatant: str
    roll: Roll
    modifier: int = 0


class AttackArgs(_Spend, frozen=True, kw_only=True):
    target: str = ""
    cp: int = 0
    weapon: str = ""
    hand: Literal["", "main", "off"] = ""


class ParryArgs(_Spend, frozen=True, kw_only=True):
    cp: int = 0
    weapon: str = ""
    hand: Literal["", "main", "off"] = ""
    attack: int | None = None


class DodgeArgs(_Spend, frozen=True, kw_only=True):
    cp: int = 0
    attack: int | None = None


class WrestleArgs(_Spend, frozen=True, kw_only=True):
    target: str = ""
    sv: int | None = None
    cp: int | None = None
    hand: Literal["both", "weapon", "shield"] = "both"
    drop: bool = False
    attack: int | None = None


class ActHeldArgs(msgspec.Struct, frozen=True, kw_only=True):
    combatants: list[str] | str = []
    """Ids or names; a string is comma-separated."""
    combatant: str = ""
    together: str = ""
    """More held combatants acting at the same moment (names or ids, comma-separated)."""
    tiebreak: dict[str, int] | str = {}
    """Id or name → 1d10; a string reads "Fridgar 7, Ulf 3"."""
    after: bool = False


class ChangeArgs(msgspec.Struct, frozen=True, kw_only=True):
    combatant: str
    declaration: dict[str, Any] | None = None
    """None: the declaration's keys (weapon, offhand, shield, spell_im, other_im) are given flat."""


# -- the ruleset --------------------------------------------------------------------------------------------
class Trudvang:
    id = "trudvang"
    name = "Trudvang Chronicles"
    options: tuple[OptionSpec, ...] = ()
    surprise_effect = ""  # start_round logs who is surprised, with the penalty from the data file

    def __init__(self, data: TrudvangData | None = None, path: Path = DATA_PATH) -> None:
        self.data: TrudvangData = data if data is not None else load_data(path)
        self._sheets: dict[bytes, TrudvangSheet] = {}
        self.sheet_fields: tuple[FieldSpec, ...] = self._sheet_fields()
        self._handlers: dict[str, Callable[[State, dict[str, Any]], State]] = {
            "attack": self._attack,
            "parry": self._parry,
            "dodge": self._dodge,
            "grapple": self._grapple,
            "break_free": self._break_free,
            "glima": self._glima,
            "glima_defence": self._glima_defence,
            "hold": self._hold,
            "act_held": self._act_held,
            "skip": self._skip,
            "change_action": self._change_action,
            "release": self._release,
        }

    def _sheet_fields(self) -> tuple[FieldSpec, ...]:
        data = self.data
        shields = (("none", _("No shield")), *((key, s.name) for key, s in data.shields.items()))
        armour = (("none", _("No armour")), *((key, a.name) for key, a in data.armour.items()))
        disciplines = ", ".join(s.name for s in data.disciplines.values())
        specialties = ", ".join(s.name for s in data.specialties.values())
        return (
            FieldSpec(key="sv", label="Combat SV", kind="int", default=0, help="The Combat skill value: the minimum CP."),
            FieldSpec(key="weapons", label="Weapons", kind="str", default="", help="broadsword, seax — another: Club (im -2, actions 3, group one-handed heavy); a second of a kind: Left seax (like seax)"),
            FieldSpec(key="shield", label="Shield", kind="choice", default="none", choices=shields),
            FieldSpec(key="armour", label="Armour", kind="choice", default="none", choices=armour),
            FieldSpec(key="disciplines", label="Disciplines", kind="str", default="", help=f"Name level; …: Armed combat 1; Unarmed combat 1. Known: {disciplines}"),
            FieldSpec(key="specialties", label="Specialties", kind="str", default="", help=f"Name level; …: One-handed light weapons 2; Brawler 1. Known: {specialties}"),
            FieldSpec(key="wrestling", label="Wrestling SV", kind="int", default=0, help="Caps the SV bought for grapple and Glima; 0: cannot grapple."),
            FieldSpec(key="ambidexter", label="Ambidexter", kind="int", default=0),
            FieldSpec(key="shield_bearer", label="Shield bearer", kind="int", default=0),
            FieldSpec(key="body_control", label="Body control", kind="int", default=0),
            FieldSpec(key="str_mod", label="Strength modifier", kind="int", default=0),
            FieldSpec(key="agi_mod", label="Agility modifier", kind="int", default=0),
            FieldSpec(key="fear", label="Fear level", kind="int", default=0, help="0–5: fear 2 −1, 3 −3, 4 −5, 5 −7 IM"),
        )

    # -- sheets and declarations ---------------------------------------------------------------------
    def check_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        sheet_from_fields(sheet, self.data)
        return sheet

    def declare(self, state: State, combatant_id: str, declaration: dict[str, Any]) -> State:
        """A declaration is a change of action: before the roll it only records the choice; after it
        the new IMs re-sort the countdown, and once his call has come it is refused."""
        return self._change_action(state, {"combatant": combatant_id, "declaration": declaration})

    def sheet_of(self, combatant: Combatant) -> TrudvangSheet:
        key = msgspec.json.encode(combatant.sheet, order="deterministic")
        sheet = self._sheets.get(key)
        if sheet is None:
            try:
                sheet = sheet_from_fields(combatant.sheet, self.data)
            except RuleError as error:
                raise RuleError(_("{name}: {error}", name=combatant.name, error=error)) from None
            if len(self._sheets) > 4096:
                self._sheets.clear()
            self._sheets[key] = sheet
        return sheet

    def _sheet(self, state: State, cid: str) -> TrudvangSheet:
        return self.sheet_of(state.combatant(cid))

    def _resolve_declaration(self, state: State, cid: str, raw: Mapping[str, Any] | None) -> Used:
        combatant = state.combatant(cid)
        sheet = self.sheet_of(combatant)
        try:
            declaration = msgspec.convert(dict(raw or {}), Declaration, strict=False)
        except msgspec.ValidationError as error:
            raise RuleError(_("{name}'s declaration: {error}", name=combatant.name, error=error)) from None

        def pick(name: str, default: Weapon | None) -> Weapon | None:
            if not name.strip():
                return default
            if norm(name) in _NONE_WORDS or norm(name) == UNARMED:
                return None
            weapon = find_weapon(sheet, name, self.data)
            if weapon is None:
                known = ", ".join(w.name for w in sheet.weapons) or _("none")
                raise RuleError(_('{name} has no "{weapon}" on his sheet (his weapons: {known}).', name=combatant.name, weapon=name, known=known))
            return weapon

        weapon = pick(declaration.weapon, sheet.weapons[0] if sheet.weapons else None)
        offhand = pick(declaration.offhand, None)
        if weapon is not None and offhand is not None and norm(weapon.name) == norm(offhand.name):
            raise RuleError(_("{name} cannot hold the same {weapon} in both hands.", name=combatant.name, weapon=weapon.name))
        shield = bool(sheet.shield) if declaration.shield is None else declaration.shield and bool(sheet.shield)
        return Used(weapon=weapon, offhand=offhand, shield=shield, spell_im=declaration.spell_im, other_im=declaration.other_im)

    def _used(self, state: State, cid: str) -> Used:
        return self._resolve_declaration(state, cid, state.round_data.get("declarations", {}).get(cid))

    def im_parts(self, state: State, cid: str, used: Used | None = None) -> list[tuple[str, int]]:
        """The initiative modifiers of the combatant's declared action, as (label, value), non-zero only."""
        sheet = self._sheet(state, cid)
        used = used or self._used(state, cid)
        data = self.data
        parts: list[tuple[str, int]] = []
        if sheet.armour:
            parts.append((data.armour[sheet.armour].name, data.armour[sheet.armour].im))
        for weapon in (used.weapon, used.offhand):
            if weapon is not None:
                parts.append((weapon.name, weapon.im))
        if used.shield and sheet.shield:
            parts.append((data.shields[sheet.shield].name, data.shields[sheet.shield].im))
        parts.append((_("spell"), used.spell_im))
        parts.append((_("other"), used.other_im))
        parts.append((_("Agility"), sheet.agi_mod))
        for field in SKILL_FIELDS:
            skill = data.field_skill(field)
            if skill is not None and skill.im_per_level:
                parts.append((skill.name, getattr(sheet, field) * skill.im_per_level))
        parts.append((_("fear"), data.rules.fear_im[min(sheet.fear, len(data.rules.fear_im) - 1)]))
        parts.append((_("skipped turn"), self._carried_bonus(state, cid)))
        return [(label, value) for label, value in parts if value]

    def init_modifier(self, state: State, cid: str, used: Used | None = None) -> int:
        return sum(value for _label, value in self.im_parts(state, cid, used))

    def _carried_bonus(self, state: State, cid: str) -> int:
        bonus = _carry(state).init_bonus.get(cid)
        return bonus.value if bonus is not None and bonus.round == state.round else 0

    # -- steps and set-up ------------------------------------------------------------------------------
    def steps(self, state: State) -> tuple[StepDef, ...]:
        return (
            StepDef(id="declare", label="actions", kind="declare", help="Each combatant chooses weapon, shield and spell: their IMs count."),
            StepDef(id="initiative", label="initiative", kind="initiative", help="1d10, open-ended, + IMs."),
            StepDef(id="countdown", label="countdown", kind="resolve", help="20, 15, 10, 9 … 1, ≤0: higher initiative first."),
            StepDef(id="end", label="end (CP refresh)", kind="end"),
        )

    def surprise_dice(self) -> str:
        """The seed has no surprise roll: the GM marks surprised sides (``SetSurprised``)."""
        return ""

    def surprise_modifiers(self) -> tuple[SurpriseModifier, ...]:
        return ()

    def is_surprised(self, total: int) -> bool:
        return total <= 1

    def distance_situations(self) -> tuple[Situation, ...]:
        return (Situation(id="gm", label="as the GM describes"),)

    # -- initiative and order ----------------------------------------------------------------------------
    def _keys(self, state: State) -> dict[str, tuple[str, ...]]:
        """Roll key (combatant id, or group id) → its active combatants not skipping this round."""
        info = _info(state)
        keys: dict[str, list[str]] = {}
        for combatant in state.combatants:
            if combatant.status != "active":
                continue
            turn = info.turns.get(combatant.id)
            if turn is not None and turn.skipped:
                continue
            keys.setdefault(combatant.group or combatant.id, []).append(combatant.id)
        return {key: tuple(members) for key, members in keys.items()}

    def _members(self, state: State, key: str) -> tuple[str, ...]:
        return tuple(c.id for c in state.combatants if (c.group or c.id) == key)

    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        requests = []
        for key, members in self._keys(state).items():
            first = state.combatant(members[0])
            if len(members) > 1:
                label = f"{first.name.rsplit(' ', 1)[0]} ×{len(members)}"
            else:
                label = first.name
            requests.append(
                RollRequest(key=key, label=label, dice=self.data.rules.initiative_dice, modifier=self.init_modifier(state, first.id), combatants=members)
            )
        return tuple(requests)

    def call(self, value: int) -> int:
        """The countdown call a total is acted at: 20 (20+), 15 (15–19), 10 (10–14), 9 … 1, 0 (≤0)."""
        calls = self.data.rules.calls
        if value >= calls[-1]:
            return next(c for c in calls if value >= c)
        return max(value, 0)

    def call_label(self, value: int) -> str:
        call = self.call(value)
        return str(call) if call > 0 else "≤0"

    def _slots(self, values: Mapping[str, int]) -> list[Slot]:
        by_value: dict[int, list[str]] = {}
        for cid, value in values.items():
            by_value.setdefault(value, []).append(cid)
        return [Slot(label=self.call_label(value), combatants=tuple(ids), value=value) for value, ids in sorted(by_value.items(), reverse=True)]

    def order(self, state: State, totals: dict[str, int]) -> tuple[Slot, ...]:
        values: dict[str, int] = {}
        for key, members in self._keys(state).items():
            if key in totals:
                for cid in members:
                    values[cid] = totals[key]
        return tuple(self._slots(values))

    def _init_table(self, state: State, info: RoundInfo) -> dict[str, InitEntry]:
        """Roll key → raw roll and modifier. Kept in ``round_data["init"]`` once a ruleset action has
        touched the round; before that the raw roll is the stored total less today's modifier (or the
        engine's ``round_data["initiative_rolls"]``, when it keeps the bare rolls)."""
        rolled: dict[str, int] = dict(state.round_data.get("initiative", {}))
        if info.init and set(info.init) == set(rolled) and all(entry.rolled == rolled[key] for key, entry in info.init.items()):
            return dict(info.init)
        bare: dict[str, int] = dict(state.round_data.get("initiative_rolls", {}))
        table: dict[str, InitEntry] = {}
        for key, total in rolled.items():
            members = [cid for cid in self._members(state, key) if state.combatant(cid).status == "active"] or list(self._members(state, key))
            modifier = self.init_modifier(state, members[0]) if members else 0
            raw = bare.get(key, total - modifier)
            table[key] = InitEntry(rolled=total, raw=raw, modifier=total - raw if key in bare else modifier)
        return table

    # -- round start and end --------------------------------------------------------------------------
    def fresh_budget(self, sheet: TrudvangSheet) -> Budget:
        """The budget a round starts with: every CP pool full, every weapon action unused."""
        pools = {pool: Meter(left=cp, total=cp) for pool, cp in cp_pools(sheet, self.data).items()}
        actions = {weapon.name: Meter(left=weapon.actions, total=weapon.actions) for weapon in sheet.weapons}
        if sheet.shield:
            count = self.data.shields[sheet.shield].actions
            actions[SHIELD] = Meter(left=count, total=count)
        unarmed = self.data.rules.unarmed_attacks
        return Budget(pools=pools, actions=actions, unarmed=Meter(left=unarmed, total=unarmed))

    def start_round(self, state: State) -> State:
        carry = _carry(state)
        bonuses = {cid: bonus for cid, bonus in carry.init_bonus.items() if bonus.round >= state.round}
        state = replace(state, carry={**state.carry, "init_bonus": msgspec.to_builtins(bonuses)})
        budgets: dict[str, Budget] = {}
        turns: dict[str, Turn] = {}
        surprised: list[str] = []
        for combatant in state.combatants:
            budgets[combatant.id] = self.fresh_budget(self.sheet_of(combatant))
            is_surprised = combatant.side in state.surprised and combatant.status == "active"
            bonus = bonuses.get(combatant.id)
            value = bonus.value if bonus is not None and bonus.round == state.round else 0
            turns[combatant.id] = Turn(surprised=is_surprised, init_bonus=value)
            if is_surprised:
                surprised.append(combatant.name)
            if value and combatant.status == "active":
                state = log(state, _("{name} skipped last round's turn: {bonus:+d} to initiative.", name=combatant.name, bonus=value))
        state = _store(state, RoundInfo(budgets=budgets, turns=turns))
        if surprised:
            penalty = self.data.rules.surprise_penalty
            state = log(state, _("Surprised, they act this round with {penalty:+d} on every combat action: {names}.", penalty=penalty, names=", ".join(surprised)))
        return state

    def end_round(self, state: State) -> State:
        info = _info(state)
        skipped = [state.combatant(cid).name for cid, turn in info.turns.items() if turn.skipped and _exists(state, cid)]
        if skipped:
            state = log(state, _("Skipped their turn, {bonus:+d} to initiative next round: {names}.", bonus=self.data.rules.skip_bonus, names=", ".join(skipped)))
        return log(state, _("Combat points refresh for the next round."))

    def on_damage(self, state: State, combatant_id: str, amount: int) -> State:
        return state

    # -- helpers for the actions ---------------------------------------------------------------------
    def _step_kind(self, state: State) -> str:
        steps = self.steps(state)
        return steps[state.step].kind if 0 <= state.step < len(steps) else ""

    def _actor(self, state: State, cid: str) -> Combatant:
        if state.phase != "round":
            raise RuleError(_("The fight has not started."))
        try:
            combatant = state.combatant(cid)
        except KeyError:
            raise RuleError(_("No combatant with id {id}.", id=cid)) from None
        if combatant.status != "active":
            raise RuleError(_("{name} is out of the fight.", name=combatant.name))
        return combatant

    def _target(self, state: State, cid: str, attacker: Combatant) -> Combatant:
        if not cid:
            raise RuleError(_("Choose whom {name} attacks.", name=attacker.name))
        try:
            target = state.combatant(cid)
        except KeyError:
            raise RuleError(_("No combatant with id {id}.", id=cid)) from None
        if target.id == attacker.id:
            raise RuleError(_("{name} cannot attack himself.", name=attacker.name))
        return target

    def _slot_index(self, state: State, cid: str) -> int | None:
        for index, slot in enumerate(state.order):
            if cid in slot.combatants:
                return index
        return None

    def called(self, state: State, cid: str, info: RoundInfo | None = None) -> bool:
        """Whether the combatant's call has come this round (his turn is now or past)."""
        kind = self._step_kind(state)
        if kind == "end":
            return True
        if kind != "resolve":
            return False
        turn = (info or _info(state)).turns.get(cid, Turn())
        if turn.held or turn.skipped or turn.acted_held:
            return True
        index = self._slot_index(state, cid)
        return index is not None and index <= state.cursor

    def _own_turn(self, state: State, combatant: Combatant, info: RoundInfo) -> Turn:
        """Refuse unless it is the combatant's turn now; his Turn record."""
        kind = self._step_kind(state)
        if kind != "resolve":
            raise RuleError(_("The countdown has not started: roll initiative first.") if kind != "end" else _("The round is over."))
        turn = info.turns.get(combatant.id, Turn())
        if turn.skipped:
            raise RuleError(_("{name} gave up his turn this round: he may only parry.", name=combatant.name))
        if turn.held:
            raise RuleError(_("{name} is holding his action: act held first.", name=combatant.name))
        if combatant.id not in state.acting_now():
            index = self._slot_index(state, combatant.id)
            if index is None:
                raise RuleError(_("{name} has no place in the countdown this round.", name=combatant.name))
            now = state.order[state.cursor].label if state.cursor < len(state.order) else _("the end")
            if index > state.cursor:
                raise RuleError(_("It is not {name}'s turn: his call is {call}, the countdown is at {now}.", name=combatant.name, call=state.order[index].label, now=now))
            raise RuleError(_("{name}'s turn has passed (his call was {call}).", name=combatant.name, call=state.order[index].label))
        return turn

    def _not_grappled(self, state: State, combatant: Combatant) -> None:
        grappler = _carry(state).grappled.get(combatant.id)
        if grappler is not None:
            holder = state.combatant(grappler).name if _exists(state, grappler) else grappler
            raise RuleError(_("{name} is held by {holder}: he can only try to break free.", name=combatant.name, holder=holder))

    def _budget(self, state: State, info: RoundInfo, cid: str) -> Budget:
        budget = info.budgets.get(cid)
        return budget if budget is not None else self.fresh_budget(self._sheet(state, cid))

    def _what(self, item: str, sheet: TrudvangSheet) -> str:
        if item == UNARMED:
            return _("unarmed combat")
        if item == WRESTLING:
            return _("wrestling")
        if item == DODGE:
            return _("a dodge")
        if item == SHIELD:
            return _("the {item}", item=self.data.shields[sheet.shield].name.lower()) if sheet.shield else _("the shield")
        return _("the {item}", item=item.lower())

    def _pay(self, state: State, info: RoundInfo, combatant: Combatant, item: str, cp: int, *, parry: bool = False, action: str | None = None) -> RoundInfo:
        """Spend ``cp`` from the pools for ``item`` (locked first) and one weapon action of ``action``."""
        sheet = self.sheet_of(combatant)
        budget = self._budget(state, info, combatant.id)
        pools = [pool for pool in usable_pools(sheet, item, parry=parry, data=self.data) if pool in budget.pools]
        left = sum(budget.pools[pool].left for pool in pools)
        if cp > left:
            raise RuleError(_("Not enough CP: {name} has {left} left for {what}, needs {needed}.", name=combatant.name, left=left, what=self._what(item, sheet), needed=cp))
        actions = dict(budget.actions)
        if action is not None:
            meter = actions.get(action)
            if meter is None:
                raise RuleError(_("{name} has no {item}.", name=combatant.name, item=action))
            if meter.left <= 0:
                raise RuleError(_("{what} allows {count} weapon actions a round; {name} has used them all.", what=self._what(action, sheet).capitalize(), count=meter.total, name=combatant.name))
            actions[action] = Meter(left=meter.left - 1, total=meter.total)
        new_pools = dict(budget.pools)
        rest = cp
        for pool in pools:
            meter = new_pools[pool]
            take = min(meter.left, rest)
            new_pools[pool] = Meter(left=meter.left - take, total=meter.total)
            rest -= take
        budget = replace(budget, pools=new_pools, actions=actions)
        return replace(info, budgets={**info.budgets, combatant.id: budget})

    def _use_unarmed(self, info: RoundInfo, state: State, combatant: Combatant) -> RoundInfo:
        budget = self._budget(state, info, combatant.id)
        if budget.unarmed.left <= 0:
            raise RuleError(_("{name} has made all {count} unarmed attacks this round.", name=combatant.name, count=budget.unarmed.total))
        budget = replace(budget, unarmed=Meter(left=budget.unarmed.left - 1, total=budget.unarmed.total))
        return replace(info, budgets={**info.budgets, combatant.id: budget})

    def _set_turn(self, info: RoundInfo, cid: str, turn: Turn) -> RoundInfo:
        return replace(info, turns={**info.turns, cid: turn})

    def _once(self, info: RoundInfo, combatant: Combatant, what: str, label: str) -> RoundInfo:
        turn = info.turns.get(combatant.id, Turn())
        if turn.used.get(what, 0) >= 1:
            raise RuleError(_("{name} has already tried {what} this round.", name=combatant.name, what=label))
        return self._set_turn(info, combatant.id, replace(turn, used={**turn.used, what: turn.used.get(what, 0) + 1}))

    def _d20(self, roll: Roll) -> int:
        if not 1 <= roll.total <= 20:
            raise RuleError(_("That roll is 1d20 (1 to 20), not {total}.", total=roll.total))
        return roll.total

    def _common_mods(self, state: State, info: RoundInfo, cid: str, *, held: bool, extra: int) -> list[tuple[str, int]]:
        turn = info.turns.get(cid, Turn())
        mods: list[tuple[str, int]] = []
        if turn.surprised or state.combatant(cid).side in state.surprised:
            mods.append((_("surprised"), self.data.rules.surprise_penalty))
        if held and turn.acted_held:
            mods.append((_("held"), self.data.rules.held_penalty))
        if extra:
            mods.append((_("modifier"), extra))
        return mods

    def _offhand(self, sheet: TrudvangSheet, item: str, used: Used, hand: str) -> list[tuple[str, int]]:
        rules = self.data.rules
        off = hand == "off" or (hand == "" and (item == SHIELD or (used.offhand is not None and norm(used.offhand.name) == norm(item))))
        if not off or item == UNARMED:
            return []
        if item == SHIELD and sheet.shield_bearer >= rules.shield_bearer_removes_offhand > 0:
            return []
        penalty = rules.offhand_penalty + sheet.body_control * rules.offhand_body_control_per_level + sheet.ambidexter * rules.offhand_ambidexter_per_level
        penalty = min(penalty, 0)
        return [(_("off hand"), penalty)] if penalty else []

    def _grip(self, sheet: TrudvangSheet, hand: str) -> list[tuple[str, int]]:
        rules = self.data.rules
        if hand == "weapon":
            return [(_("weapon hand only"), rules.grapple_weapon_hand)]
        if hand == "shield":
            penalty = min(rules.grapple_shield_hand + sheet.ambidexter * rules.grapple_ambidexter_per_level, 0)
            return [(_("shield hand only"), penalty)] if penalty else []
        return []

    def _sv_text(self, base_text: str, base: int, mods: list[tuple[str, int]]) -> tuple[int, str]:
        sv = base + sum(value for _label, value in mods)
        return sv, base_text + "".join(f" {value:+d} {label}" for label, value in mods) + " = " + _("SV {sv}", sv=sv)

    def _result(self, roll: Roll, sv: int) -> Literal["critical", "success", "failure", "fumble"]:
        total = self._d20(roll)
        if total == 1:
            return "critical"
        if total == 20:
            return "fumble"
        return "success" if total <= sv else "failure"

    def _bought(self, combatant: Combatant, sv: int | None, cp: int | None, rate: int, what: str) -> int:
        if sv is None and cp is None:
            raise RuleError(_("Say what SV {name} buys for {what} ({rate} CP per SV).", name=combatant.name, what=what, rate=rate))
        if sv is None:
            assert cp is not None
            if cp % rate:
                raise RuleError(_("{what} costs {rate} CP per SV: {cp} CP is not a whole number of SV.", what=what.capitalize(), rate=rate, cp=cp))
            sv = cp // rate
        if sv < 1:
            raise RuleError(_("Buy at least SV 1 for {what}.", what=what))
        return sv

    def _cap(self, combatant: Combatant, sheet: TrudvangSheet, sv: int, what: str) -> None:
        if sheet.wrestling <= 0:
            raise RuleError(_("{name} has no Wrestling SV: he cannot try {what}.", name=combatant.name, what=what))
        if sv > sheet.wrestling:
            raise RuleError(_("{name} cannot buy SV {sv} for {what}: his Wrestling SV is {cap}.", name=combatant.name, sv=sv, what=what, cap=sheet.wrestling))

    def _find_attack(self, state: State, info: RoundInfo, defender: Combatant, attack_id: int | None, kinds: tuple[AttackKind, ...]) -> AttackRecord:
        if attack_id is not None:
            if not 0 <= attack_id < len(info.attacks):
                raise RuleError(_("There is no attack #{id} this round.", id=attack_id))
            record = info.attacks[attack_id]
            if record.target != defender.id:
                raise RuleError(_("Attack #{id} was not against {name}.", id=attack_id, name=defender.name))
            return record
        for record in reversed(info.attacks):
            if record.target == defender.id and record.kind in kinds and record.hit and not record.defended:
                return record
        raise RuleError(_("No hit on {name} to defend against.", name=defender.name))

    def _check_defence(self, state: State, record: AttackRecord, defender: Combatant, how: str) -> None:
        attacker = state.combatant(record.attacker).name if _exists(state, record.attacker) else record.attacker
        if not record.hit:
            raise RuleError(_("{attacker}'s attack #{id} missed: there is nothing to {how}.", attacker=attacker, id=record.id, how=how))
        if record.defended:
            raise RuleError(_("{name} has already tried to defend against attack #{id} ({defence}): one attempt per attack.", name=defender.name, id=record.id, defence=_(record.defended)))

    def _mark_defended(self, info: RoundInfo, record: AttackRecord, how: str) -> RoundInfo:
        attacks = list(info.attacks)
        attacks[record.id] = replace(record, defended=how)
        return replace(info, attacks=attacks)

    def _record(self, info: RoundInfo, **fields: Any) -> tuple[RoundInfo, AttackRecord]:
        record = AttackRecord(id=len(info.attacks), **fields)
        return replace(info, attacks=[*info.attacks, record]), record

    # -- the actions ------------------------------------------------------------------------------------
    def apply_action(self, state: State, name: str, args: dict[str, Any]) -> State:
        """Apply one of the actions listed in the module docstring; :class:`RuleError` says why not."""
        handler = self._handlers.get(name)
        if handler is None:
            raise RuleError(_("Unknown Trudvang action {name}; known: {known}.", name=name, known=", ".join(self._handlers)))
        return handler(state, args)

    def _attack(self, state: State, raw: dict[str, Any]) -> State:
        args = _args(raw, AttackArgs, "attack")
        combatant = self._actor(state, args.combatant)
        info = _info(state)
        turn = self._own_turn(state, combatant, info)
        self._not_grappled(state, combatant)
        target = self._target(state, args.target, combatant)
        sheet = self.sheet_of(combatant)
        used = self._used(state, combatant.id)
        if args.cp < 1:
            raise RuleError(_("Put at least 1 CP into the attack."))
        item = self._item(combatant, sheet, used, args.weapon, "attack")
        ranged = False
        if item == UNARMED:
            info = self._use_unarmed(info, state, combatant)
            info = self._pay(state, info, combatant, UNARMED, args.cp)
        else:
            weapon = find_weapon(sheet, item, self.data) if item != SHIELD else None
            ranged = weapon.ranged if weapon is not None else False
            info = self._pay(state, info, combatant, item, args.cp, action=item)
        mods = [*self._offhand(sheet, item, used, args.hand), *self._common_mods(state, info, combatant.id, held=True, extra=args.modifier)]
        sv, sv_text = self._sv_text(_("{cp} CP", cp=args.cp), args.cp, mods)
        result = self._result(args.roll, sv)
        hit = result in ("critical", "success")
        info, record = self._record(info, attacker=combatant.id, target=target.id, kind="attack", item=item, ranged=ranged, unarmed=item == UNARMED, hit=hit)
        info = self._set_turn(info, combatant.id, replace(info.turns.get(combatant.id, turn), acted=True))
        state = _store(state, info)
        words = {"critical": _("critical hit"), "success": _("hit"), "failure": _("miss"), "fumble": _("fumble")}
        text = _(
            "#{id} {name} attacks {target} with {what}: {sv}; {roll} → {result}.",
            id=record.id,
            name=combatant.name,
            target=target.name,
            what=self._what(item, sheet),
            sv=sv_text,
            roll=format_roll(args.roll),
            result=words[result],
        )
        if hit and item == UNARMED:
            text += " " + _("Damage 1d6 (medium creature).")
        if hit and not ranged:
            text += " " + _("{target} may parry or dodge.", target=target.name)
        elif hit:
            text += " " + _("{target} may dodge (a ranged attack cannot be parried).", target=target.name)
        return log(state, text)

    def _item(self, combatant: Combatant, sheet: TrudvangSheet, used: Used, wanted: str, verb: str) -> str:
        """The item an attack or parry uses: a weapon name, "shield" or "unarmed"; refuses undeclared ones for attacks."""
        text = wanted.strip()
        if not text:
            if used.weapon is not None:
                return used.weapon.name
            return UNARMED
        if norm(text) == UNARMED:
            return UNARMED
        if norm(text) == SHIELD or (sheet.shield and _find(self.data.shields, text) == sheet.shield):
            if not sheet.shield:
                raise RuleError(_("{name} has no shield.", name=combatant.name))
            if verb == "attack" and not used.shield:
                raise RuleError(_("{name} did not declare his shield this round: change the action first.", name=combatant.name))
            return SHIELD
        weapon = find_weapon(sheet, text, self.data)
        if weapon is None:
            known = ", ".join(w.name for w in sheet.weapons) or _("none")
            raise RuleError(_('{name} has no "{weapon}" on his sheet (his weapons: {known}).', name=combatant.name, weapon=text, known=known))
        if verb == "attack" and norm(weapon.name) not in used.items():
            declared = ", ".join(w.name.lower() for w in (used.weapon, used.offhand) if w is not None) or _("no weapon")
            raise RuleError(
                _("{name} declared {declared} this round: change the action first to use the {weapon}.", name=combatant.name, declared=declared, weapon=weapon.name.lower())
            )
        return weapon.name

    def _defence_window(self, state: State, combatant: Combatant) -> None:
        if self._step_kind(state) != "resolve":
            raise RuleError(_("Defences are made during the countdown."))

    def _parry(self, state: State, raw: dict[str, Any]) -> State:
        args = _args(raw, ParryArgs, "parry")
        combatant = self._actor(state, args.combatant)
        self._defence_window(state, combatant)
        info = _info(state)
        record = self._find_attack(state, info, combatant, args.attack, ("attack", "grapple"))
        if not (record.kind == "grapple" and _carry(state).grappled.get(combatant.id) == record.attacker):
            self._not_grappled(state, combatant)  # a grapple can be parried or dodged: it holds only if not
        if record.kind == "glima":
            raise RuleError(_("A Glima is stopped with a Glima defence, not a parry."))
        self._check_defence(state, record, combatant, _("parry"))
        if record.ranged:
            raise RuleError(_("A ranged attack cannot be parried; {name} may dodge.", name=combatant.name))
        if args.cp < 1:
            raise RuleError(_("Put at least 1 CP into the parry."))
        sheet = self.sheet_of(combatant)
        used = self._used(state, combatant.id)
        item = self._item(combatant, sheet, used, args.weapon, "parry")
        declared = item == UNARMED or (SHIELD in used.items() if item == SHIELD else norm(item) in used.items())
        if not declared:
            if self.called(state, combatant.id, info):
                raise RuleError(
                    _("{name} did not count the IM of {what} on his turn, so he cannot parry with it now.", name=combatant.name, what=self._what(item, sheet))
                )
            state, info = self._add_to_declaration(state, info, combatant, item, sheet, used)
            used = self._used(state, combatant.id)
        action = None if item == UNARMED else item
        info = self._pay(state, info, combatant, item, args.cp, parry=True, action=action)
        mods = [*self._offhand(sheet, item, used, args.hand), *self._common_mods(state, info, combatant.id, held=False, extra=args.modifier)]
        sv, sv_text = self._sv_text(_("{cp} CP", cp=args.cp), args.cp, mods)
        result = self._result(args.roll, sv)
        info = self._mark_defended(info, record, "parry")
        saved = result in ("critical", "success")
        if saved:
            state, info = self._undo_hold(state, info, record)
        state = _store(state, info)
        words = {"critical": _("critical parry"), "success": _("parried"), "failure": _("failed"), "fumble": _("fumble")}
        text = _(
            "{name} parries attack #{id} with {what}: {sv}; {roll} → {result}.",
            name=combatant.name,
            id=record.id,
            what=self._what(item, sheet),
            sv=sv_text,
            roll=format_roll(args.roll),
            result=words[result],
        )
        if saved and item == UNARMED and not record.unarmed:
            text += " " + _("An unarmed parry of an armed attack: he still takes half damage.")
        elif saved and item != UNARMED:
            text += " " + _("Roll the damage against {what}: above its durability, its quality drops by 1.", what=self._what(item, sheet))
        return log(state, text)

    def _dodge(self, state: State, raw: dict[str, Any]) -> State:
        args = _args(raw, DodgeArgs, "dodge")
        combatant = self._actor(state, args.combatant)
        self._defence_window(state, combatant)
        info = _info(state)
        record = self._find_attack(state, info, combatant, args.attack, ("attack", "grapple"))
        if not (record.kind == "grapple" and _carry(state).grappled.get(combatant.id) == record.attacker):
            self._not_grappled(state, combatant)  # a grapple can be parried or dodged: it holds only if not
        if record.kind == "glima":
            raise RuleError(_("A Glima is stopped with a Glima defence, not a dodge."))
        self._check_defence(state, record, combatant, _("dodge"))
        if args.cp < 1:
            raise RuleError(_("Put at least 1 CP into the dodge."))
        sheet = self.sheet_of(combatant)
        info = self._pay(state, info, combatant, DODGE, args.cp)
        mods = self._common_mods(state, info, combatant.id, held=False, extra=args.modifier)
        sv, sv_text = self._sv_text(_("{cp} CP", cp=args.cp), args.cp, mods)
        result = self._result(args.roll, sv)
        info = self._mark_defended(info, record, "dodge")
        if result in ("critical", "success"):
            state, info = self._undo_hold(state, info, record)
        state = _store(state, info)
        words = {"critical": _("critical dodge"), "success": _("dodged"), "failure": _("failed"), "fumble": _("fumble")}
        del sheet
        return log(state, _("{name} dodges attack #{id}: {sv}; {roll} → {result}.", name=combatant.name, id=record.id, sv=sv_text, roll=format_roll(args.roll), result=words[result]))

    def _undo_hold(self, state: State, info: RoundInfo, record: AttackRecord) -> tuple[State, RoundInfo]:
        """A grapple parried or dodged does not hold."""
        if record.kind != "grapple":
            return state, info
        carry = _carry(state)
        if carry.grappled.get(record.target) == record.attacker:
            grappled = {k: v for k, v in carry.grappled.items() if k != record.target}
            state = _store_carry(state, replace(carry, grappled=grappled))
        return state, info

    def _wrestling_attack(self, state: State, info: RoundInfo, combatant: Combatant, args: WrestleArgs,
                          kind: str, what: str, rate: int) -> tuple[RoundInfo, str, str]:
        """Grapple and Glima alike: buy SV at ``rate`` CP each (capped by Wrestling), once a round, as
        one of the unarmed attacks; Strength and the hand used modify it. Returns the SV text and result."""
        sheet = self.sheet_of(combatant)
        bought = self._bought(combatant, args.sv, args.cp, rate, what)
        self._cap(combatant, sheet, bought, what)
        info = self._once(info, combatant, kind, what)
        info = self._use_unarmed(info, state, combatant)
        info = self._pay(state, info, combatant, WRESTLING, bought * rate)
        mods = [(_("Strength"), sheet.str_mod)] if sheet.str_mod else []
        mods += [*self._grip(sheet, args.hand), *self._common_mods(state, info, combatant.id, held=True, extra=args.modifier)]
        sv, sv_text = self._sv_text(_("SV {sv} ({cp} CP)", sv=bought, cp=bought * rate), bought, mods)
        return info, sv_text, self._result(args.roll, sv)

    def _grapple(self, state: State, raw: dict[str, Any]) -> State:
        args = _args(raw, WrestleArgs, "grapple")
        combatant = self._actor(state, args.combatant)
        info = _info(state)
        turn = self._own_turn(state, combatant, info)
        self._not_grappled(state, combatant)
        target = self._target(state, args.target, combatant)
        info, sv_text, result = self._wrestling_attack(state, info, combatant, args, "grapple", _("a grapple"),
                                                       self.data.rules.grapple_cp_per_sv)
        hit = result in ("critical", "success")
        info, record = self._record(info, attacker=combatant.id, target=target.id, kind="grapple", item=UNARMED, unarmed=True, hit=hit)
        info = self._set_turn(info, combatant.id, replace(info.turns.get(combatant.id, turn), acted=True))
        state = _store(state, info)
        if hit:
            carry = _carry(state)
            state = _store_carry(state, replace(carry, grappled={**carry.grappled, target.id: combatant.id}))
        words = {"critical": _("critical: grappled"), "success": _("grappled"), "failure": _("miss"), "fumble": _("fumble")}
        text = _("#{id} {name} tries to grapple {target}: {sv}; {roll} → {result}.", id=record.id, name=combatant.name, target=target.name, sv=sv_text, roll=format_roll(args.roll), result=words[result])
        if hit:
            text += " " + _("{target} is held unless he parries or dodges; held, he can only try to break free.", target=target.name)
        return log(state, text)

    def _break_free(self, state: State, raw: dict[str, Any]) -> State:
        args = _args(raw, WrestleArgs, "break_free")
        combatant = self._actor(state, args.combatant)
        info = _info(state)
        if self._step_kind(state) != "resolve":
            raise RuleError(_("The countdown has not started: roll initiative first."))
        carry = _carry(state)
        grappler = carry.grappled.get(combatant.id)
        if grappler is None:
            raise RuleError(_("{name} is not held by anyone.", name=combatant.name))
        own_turn = combatant.id in state.acting_now()
        if not own_turn and not self.called(state, combatant.id, info):
            index = self._slot_index(state, combatant.id)
            call = state.order[index].label if index is not None else "?"
            raise RuleError(_("{name} can try to break free at his call ({call}), or as a reaction once it has passed.", name=combatant.name, call=call))
        sheet = self.sheet_of(combatant)
        rules = self.data.rules
        what = _("to break free")
        bought = self._bought(combatant, args.sv, args.cp, rules.break_free_cp_per_sv, what)
        info = self._once(info, combatant, "break_free", what)
        info = self._pay(state, info, combatant, WRESTLING, bought * rules.break_free_cp_per_sv)
        mods = [(label, value) for label, value in ((_("Strength"), sheet.str_mod), (_("Agility"), sheet.agi_mod)) if value]
        mods += self._common_mods(state, info, combatant.id, held=own_turn, extra=args.modifier)
        sv, sv_text = self._sv_text(_("SV {sv} ({cp} CP)", sv=bought, cp=bought * rules.break_free_cp_per_sv), bought, mods)
        result = self._result(args.roll, sv)
        free = result in ("critical", "success")
        if own_turn:
            turn = info.turns.get(combatant.id, Turn())
            info = self._set_turn(info, combatant.id, replace(turn, acted=True))
        state = _store(state, info)
        if free:
            state = _store_carry(state, replace(carry, grappled={k: v for k, v in carry.grappled.items() if k != combatant.id}))
        holder = state.combatant(grappler).name if _exists(state, grappler) else grappler
        words = {"critical": _("critical: free"), "success": _("free"), "failure": _("still held"), "fumble": _("fumble: still held")}
        return log(state, _("{name} tries to break free of {holder}: {sv}; {roll} → {result}.", name=combatant.name, holder=holder, sv=sv_text, roll=format_roll(args.roll), result=words[result]))

    def _glima(self, state: State, raw: dict[str, Any]) -> State:
        args = _args(raw, WrestleArgs, "glima")
        combatant = self._actor(state, args.combatant)
        info = _info(state)
        turn = self._own_turn(state, combatant, info)
        self._not_grappled(state, combatant)
        target = self._target(state, args.target, combatant)
        carry = _carry(state)
        if carry.grappled.get(target.id) != combatant.id:
            raise RuleError(_("{name} does not hold {target}: Glima throws a grappled opponent.", name=combatant.name, target=target.name))
        info, sv_text, result = self._wrestling_attack(state, info, combatant, args, "glima", _("a Glima"),
                                                       self.data.rules.glima_cp_per_sv)
        hit = result in ("critical", "success")
        info, record = self._record(info, attacker=combatant.id, target=target.id, kind="glima", item=UNARMED, unarmed=True, hit=hit, drop=args.drop)
        info = self._set_turn(info, combatant.id, replace(info.turns.get(combatant.id, turn), acted=True))
        state = _store(state, info)
        if hit and not args.drop:
            state = _store_carry(state, replace(carry, grappled={k: v for k, v in carry.grappled.items() if k != target.id}))
        words = {"critical": _("critical: thrown"), "success": _("thrown"), "failure": _("miss"), "fumble": _("fumble")}
        text = _("#{id} {name} throws {target} (Glima): {sv}; {roll} → {result}.", id=record.id, name=combatant.name, target=target.name, sv=sv_text, roll=format_roll(args.roll), result=words[result])
        if hit:
            if args.drop:
                text += " " + _("{name} drops onto him: 1d6 damage, and {target} stays held (unless his Glima defence succeeds).", name=combatant.name, target=target.name)
            else:
                text += " " + _("{target} falls: 1d4 damage, and he is released (unless his Glima defence succeeds).", target=target.name)
        return log(state, text)

    def _glima_defence(self, state: State, raw: dict[str, Any]) -> State:
        args = _args(raw, WrestleArgs, "glima_defence")
        combatant = self._actor(state, args.combatant)
        self._defence_window(state, combatant)
        info = _info(state)
        record = self._find_attack(state, info, combatant, args.attack, ("glima",))
        if record.kind != "glima":
            raise RuleError(_("Attack #{id} is not a Glima.", id=record.id))
        self._check_defence(state, record, combatant, _("defend against"))
        sheet = self.sheet_of(combatant)
        rules = self.data.rules
        what = _("a Glima defence")
        bought = self._bought(combatant, args.sv, args.cp, rules.glima_defence_cp_per_sv, what)
        self._cap(combatant, sheet, bought, what)
        info = self._once(info, combatant, "glima_defence", what)
        info = self._pay(state, info, combatant, WRESTLING, bought * rules.glima_defence_cp_per_sv)
        trait = max(sheet.str_mod, sheet.agi_mod)
        mods = [(_("Strength") if trait == sheet.str_mod else _("Agility"), trait)] if trait else []
        mods += self._common_mods(state, info, combatant.id, held=False, extra=args.modifier)
        sv, sv_text = self._sv_text(_("SV {sv} ({cp} CP)", sv=bought, cp=bought * rules.glima_defence_cp_per_sv), bought, mods)
        result = self._result(args.roll, sv)
        info = self._mark_defended(info, record, "glima defence")
        state = _store(state, info)
        stopped = result in ("critical", "success")
        if stopped:
            carry = _carry(state)
            state = _store_carry(state, replace(carry, grappled={**carry.grappled, combatant.id: record.attacker}))
        words = {"critical": _("critical: throw stopped"), "success": _("throw stopped"), "failure": _("failed"), "fumble": _("fumble")}
        text = _("{name} resists the Glima #{id}: {sv}; {roll} → {result}.", name=combatant.name, id=record.id, sv=sv_text, roll=format_roll(args.roll), result=words[result])
        if stopped:
            text += " " + _("No fall, no damage; he is still held.")
        return log(state, text)

    def _hold(self, state: State, raw: dict[str, Any]) -> State:
        args = _args(raw, _Combatant, "hold")
        combatant = self._actor(state, args.combatant)
        info = _info(state)
        turn = self._own_turn(state, combatant, info)
        if turn.acted_held:
            raise RuleError(_("{name} is already acting on a held action.", name=combatant.name))
        if turn.acted:
            raise RuleError(_("{name} has already acted this turn: he cannot hold now.", name=combatant.name))
        info = self._set_turn(info, combatant.id, replace(turn, held=True))
        state = _store(_remove_from_order(state, combatant.id), info)
        return log(state, _("{name} holds his action ({penalty:+d} on what he does when he acts).", name=combatant.name, penalty=self.data.rules.held_penalty))

    def _act_held(self, state: State, raw: dict[str, Any]) -> State:
        args = _args(raw, ActHeldArgs, "act_held")
        named = args.combatants.split(",") if isinstance(args.combatants, str) else list(args.combatants)
        named += [args.combatant, *args.together.split(",")]
        ids = list(dict.fromkeys(self._combatant_id(state, text) for text in named if text.strip()))
        tiebreak = self._tiebreak(state, args.tiebreak)
        if not ids:
            raise RuleError(_("Say who acts on a held action."))
        if self._step_kind(state) != "resolve":
            raise RuleError(_("Held actions are taken during the countdown."))
        info = _info(state)
        combatants = [self._actor(state, cid) for cid in ids]
        for combatant in combatants:
            if not info.turns.get(combatant.id, Turn()).held:
                raise RuleError(_("{name} is not holding an action.", name=combatant.name))
        svs = {c.id: self.sheet_of(c).sv for c in combatants}
        by_sv: dict[int, list[Combatant]] = {}
        for combatant in combatants:
            by_sv.setdefault(svs[combatant.id], []).append(combatant)
        for sv, tied in by_sv.items():
            if len(tied) < 2:
                continue
            missing = [c.name for c in tied if c.id not in tiebreak]
            if missing:
                raise RuleError(_("{names} have the same Combat SV ({sv}): each rolls 1d10, highest first.", names=", ".join(c.name for c in tied), sv=sv))
            values = [tiebreak[c.id] for c in tied]
            if any(not 1 <= v <= 10 for v in values):
                raise RuleError(_("A tie-break roll is 1d10 (1 to 10)."))
            if len(set(values)) < len(values):
                raise RuleError(_("The 1d10 tie-break is tied again: roll again."))
        ordered = sorted(combatants, key=lambda c: (-svs[c.id], -tiebreak.get(c.id, 0)))
        for combatant in ordered:
            info = self._set_turn(info, combatant.id, replace(info.turns[combatant.id], held=False, acted_held=True))
        value = state.order[state.cursor].value if state.cursor < len(state.order) else (state.order[-1].value if state.order else 0)
        slots = [Slot(label=self.held_label(), combatants=(c.id,), value=value) for c in ordered]
        order = list(state.order)
        if args.after and state.cursor < len(order):
            at = state.cursor + 1
        else:
            at = min(state.cursor, len(order))
        order[at:at] = slots
        state = _store(replace(state, order=tuple(order), cursor=at), info)
        names = _(", then ").join(c.name for c in ordered)
        return log(state, _("Held action now: {names} ({penalty:+d} on that turn's actions).", names=names, penalty=self.data.rules.held_penalty))

    def _combatant_id(self, state: State, text: str) -> str:
        wanted = text.strip()
        for combatant in state.combatants:
            if combatant.id == wanted:
                return combatant.id
        for combatant in state.combatants:
            if norm(combatant.name) == norm(wanted):
                return combatant.id
        raise RuleError(_('No combatant called "{name}".', name=wanted))

    def _tiebreak(self, state: State, value: dict[str, int] | str) -> dict[str, int]:
        if isinstance(value, dict):
            return {self._combatant_id(state, key): roll for key, roll in value.items()}
        result: dict[str, int] = {}
        for part in _split(value, ",;"):
            match = _LEVEL.match(part)
            if match is None or not match["name"].strip():
                raise RuleError(_('Cannot read the tie-break "{text}": write "name roll, name roll".', text=part))
            result[self._combatant_id(state, match["name"])] = _int(match["level"], _("Tie-break"), match["name"])
        return result

    def _skip(self, state: State, raw: dict[str, Any]) -> State:
        args = _args(raw, _Combatant, "skip")
        combatant = self._actor(state, args.combatant)
        info = _info(state)
        kind = self._step_kind(state)
        turn = info.turns.get(combatant.id, Turn())
        if kind == "end":
            raise RuleError(_("The round is over."))
        if turn.skipped:
            raise RuleError(_("{name} has already given up his turn.", name=combatant.name))
        if turn.acted:
            raise RuleError(_("{name} has already acted this round: he cannot give up his turn.", name=combatant.name))
        if kind == "resolve" and not turn.held and combatant.id not in state.acting_now() and self.called(state, combatant.id, info):
            raise RuleError(_("{name}'s turn has passed.", name=combatant.name))
        info = self._set_turn(info, combatant.id, replace(turn, skipped=True, held=False))
        state = _store(_remove_from_order(state, combatant.id), info)
        carry = _carry(state)
        bonus = Bonus(round=state.round + 1, value=self.data.rules.skip_bonus)
        state = _store_carry(state, replace(carry, init_bonus={**carry.init_bonus, combatant.id: bonus}))
        return log(state, _("{name} gives up his turn: only parries this round, {bonus:+d} to initiative next round.", name=combatant.name, bonus=bonus.value))

    def _change_action(self, state: State, raw: dict[str, Any]) -> State:
        args = _args(raw, ChangeArgs, "change_action")
        combatant = self._actor(state, args.combatant)
        info = _info(state)
        kind = self._step_kind(state)
        if args.declaration is not None:
            declaration = dict(args.declaration)
        else:
            declaration = {k: v for k, v in raw.items() if k in Declaration.__struct_fields__ and v != ""}
        new_used = self._resolve_declaration(state, combatant.id, declaration)
        key = combatant.group or combatant.id
        members = [cid for cid in self._members(state, key)] if combatant.group else [combatant.id]
        if kind == "end":
            raise RuleError(_("The round is over."))
        if kind == "resolve" and self.called(state, combatant.id, info):
            raise RuleError(_("{name}'s call has come: he can no longer change his action (parries and free actions excepted).", name=combatant.name))
        declarations = dict(state.round_data.get("declarations", {}))
        for cid in members:
            declarations[cid] = dict(declaration)
        rolled = bool(state.round_data.get("initiative"))
        table = self._init_table(state, info) if rolled else {}
        if kind == "resolve" and key not in table:
            raise RuleError(_("{name} has no initiative this round.", name=combatant.name))
        state = replace(state, round_data={**state.round_data, "declarations": declarations})
        if key not in table:
            return log(state, _("{name} chooses: {what}.", name=combatant.name, what=self._describe(state, combatant.id, new_used)))
        old = table[key]
        new = replace(old, modifier=self.init_modifier(state, combatant.id, new_used))
        table[key] = new
        info = replace(info, init=table)
        if kind == "resolve":
            state = self._reorder(state, table, set(members))
        else:
            totals = {k: entry.total for k, entry in table.items()}
            state = replace(state, order=self.order(state, totals), cursor=0)
        state = _store(state, info)
        index = self._slot_index(state, combatant.id)
        when = state.order[index].label if index is not None else "?"
        return log(
            state,
            _(
                "{name} changes his action to {what}: IM {old:+d} → {new:+d}, initiative {before} → {after} (call {call}).",
                name=combatant.name,
                what=self._describe(state, combatant.id, new_used),
                old=old.modifier,
                new=new.modifier,
                before=old.total,
                after=new.total,
                call=when,
            ),
        )

    def _describe(self, state: State, cid: str, used: Used) -> str:
        sheet = self._sheet(state, cid)
        parts = [used.weapon.name if used.weapon else _("unarmed")]
        if used.offhand is not None:
            parts.append(_("{weapon} in the off hand", weapon=used.offhand.name))
        if used.shield and sheet.shield:
            parts.append(self.data.shields[sheet.shield].name)
        if used.spell_im:
            parts.append(_("spell IM {im:+d}", im=used.spell_im))
        return ", ".join(parts)

    def _add_to_declaration(self, state: State, info: RoundInfo, combatant: Combatant, item: str, sheet: TrudvangSheet, used: Used) -> tuple[State, RoundInfo]:
        """Before his call a parry with an item whose IM was not counted adds that IM to his initiative."""
        declaration = dict(state.round_data.get("declarations", {}).get(combatant.id, {}))
        if item == SHIELD:
            declaration["shield"] = True
        elif used.weapon is None:
            declaration["weapon"] = item
        elif used.offhand is None:
            declaration["offhand"] = item
        else:
            raise RuleError(
                _("{name} declared a weapon in each hand ({a}, {b}): change the action to parry with the {item}.", name=combatant.name, a=used.weapon.name, b=used.offhand.name, item=item.lower())
            )
        if "weapon" not in declaration and used.weapon is not None:
            declaration["weapon"] = used.weapon.name
        state = self._change_action(state, {"combatant": combatant.id, "declaration": declaration})
        return state, _info(state)

    def _reorder(self, state: State, table: Mapping[str, InitEntry], changed: set[str]) -> State:
        """Rebuild the slots after the cursor from the initiative table; ``changed`` have a new value.

        Slots up to the cursor have been called and stay. A changed combatant whose new value is later
        than the current position takes his place among the rest; one whose value has already been
        called acts right after the current slot (in it, when his value equals the current one).
        """
        order = list(state.order)
        cursor = state.cursor
        info = _info(state)
        past = order[: cursor + 1]
        future_ids = [cid for slot in order[cursor + 1 :] for cid in slot.combatants if cid not in changed]
        values: dict[str, int] = {}
        for cid in future_ids:
            key = state.combatant(cid).group or cid
            values[cid] = table[key].total if key in table else next(s.value for s in order if cid in s.combatants)
        position = order[min(cursor, len(order) - 1)].value if order else None
        current = order[cursor] if cursor < len(order) else None
        early: dict[str, int] = {}
        joining: list[str] = []
        for cid in sorted(changed, key=lambda c: [x.id for x in state.combatants].index(c) if _exists(state, c) else 0):
            if not _exists(state, cid) or state.combatant(cid).status != "active" or info.turns.get(cid, Turn()).skipped:
                continue
            key = state.combatant(cid).group or cid
            if key not in table:
                continue
            value = table[key].total
            if current is not None and value == current.value and current.label != self.held_label():
                joining.append(cid)
            elif position is not None and value >= position:
                early[cid] = value
            else:
                values[cid] = value
        if joining and current is not None:
            past[-1] = replace(current, combatants=(*current.combatants, *joining))
        new_order = tuple(slot for slot in (*past, *self._slots(early), *self._slots(values)) if slot.combatants)
        return replace(state, order=new_order, cursor=cursor)

    def held_label(self) -> str:
        return _("held")

    def _release(self, state: State, raw: dict[str, Any]) -> State:
        args = _args(raw, _Combatant, "release")
        combatant = self._actor(state, args.combatant)
        carry = _carry(state)
        if combatant.id not in carry.grappled:
            raise RuleError(_("{name} is not held by anyone.", name=combatant.name))
        state = _store_carry(state, replace(carry, grappled={k: v for k, v in carry.grappled.items() if k != combatant.id}))
        return log(state, _("{name} is released.", name=combatant.name))

    # -- what the screens show -------------------------------------------------------------------------
    def round_actions(self, state: State) -> tuple[ActionKey, ...]:
        """Keys avoid the round screen's own (n space b r t e d h x i u U q)."""
        kind = self._step_kind(state) if state.phase == "round" else ""
        change = ActionKey(name="change_action", key="c", label=_("Change action"), footer=False)
        skip = ActionKey(name="skip", key="k", label=_("Skip"))
        if kind in ("declare", "initiative"):
            return (change, skip)
        if kind != "resolve":
            return ()
        return (
            ActionKey(name="attack", key="a", label=_("Attack")),
            ActionKey(name="parry", key="p", label=_("Parry")),
            ActionKey(name="dodge", key="o", label=_("Dodge"), footer=False),
            ActionKey(name="grapple", key="g", label=_("Grapple"), footer=False),
            ActionKey(name="break_free", key="f", label=_("Break free"), footer=False),
            ActionKey(name="glima", key="w", label=_("Glima (throw)"), footer=False),
            ActionKey(name="glima_defence", key="v", label=_("Resist Glima"), footer=False),
            ActionKey(name="hold", key="l", label=_("Hold")),
            ActionKey(name="act_held", key="j", label=_("Act held"), footer=False),
            skip,
            change,
            ActionKey(name="release", key="z", label=_("Release hold"), footer=False),
        )

    def action_fields(self, state: State, name: str, combatant_id: str) -> tuple[FieldSpec, ...]:
        """The form for a ruleset action; the screen adds ``combatant`` (the selected one)."""
        if not combatant_id or not _exists(state, combatant_id):
            return ()
        combatant = state.combatant(combatant_id)
        sheet = self.sheet_of(combatant)
        info = _info(state)
        dice = self.data.rules.action_dice
        roll = FieldSpec(key="roll", label="Roll (empty: app rolls)", kind="str", default=dice)
        modifier = FieldSpec(key="modifier", label="Situational modifier", kind="int", default=0)
        others = tuple((c.id, c.name) for c in state.combatants if c.id != combatant_id and c.status == "active")
        enemies = tuple((c.id, c.name) for c in state.combatants if c.side != combatant.side and c.status == "active")
        target = FieldSpec(key="target", label="Target", kind="choice", default=(enemies or others or (("", ""),))[0][0], choices=others)
        hits = tuple(
            (str(r.id), f"#{r.id} {state.combatant(r.attacker).name if _exists(state, r.attacker) else r.attacker} ({r.kind}, {r.item})")
            for r in reversed(info.attacks)
            if r.target == combatant_id and r.hit and not r.defended
        )
        if name in ("attack", "parry"):
            try:
                used = self._used(state, combatant_id)
            except RuleError:
                used = Used(weapon=None, offhand=None, shield=False, spell_im=0, other_im=0)
            if name == "attack":
                items = [w for w in (used.weapon, used.offhand) if w is not None]
            else:
                items = list(sheet.weapons)
            choices = [(w.name, w.name) for w in items]
            if sheet.shield and (used.shield or name == "parry"):
                choices.append((SHIELD, self.data.shields[sheet.shield].name))
            choices.append((UNARMED, _("unarmed")))
            weapon = FieldSpec(key="weapon", label="With", kind="choice", default=choices[0][0], choices=tuple(choices))
            hand = FieldSpec(key="hand", label="Hand", kind="choice", default="", choices=(("", "as declared"), ("main", "main hand"), ("off", "off hand")))
            cp = FieldSpec(key="cp", label="CP to spend", kind="int", default=0)
            if name == "attack":
                return (target, weapon, cp, hand, modifier, roll)
            return (FieldSpec(key="attack", label="Against", kind="choice", default=hits[0][0] if hits else "", choices=hits), weapon, cp, hand, modifier, roll)
        if name == "dodge":
            return (FieldSpec(key="attack", label="Against", kind="choice", default=hits[0][0] if hits else "", choices=hits), FieldSpec(key="cp", label="CP to spend", kind="int", default=0), modifier, roll)
        sv = FieldSpec(key="sv", label="SV to buy", kind="int", default=0)
        grip = FieldSpec(key="hand", label="Hands", kind="choice", default="both", choices=(("both", "both hands"), ("weapon", "weapon hand only"), ("shield", "shield hand only")))
        if name == "grapple":
            return (target, sv, grip, modifier, roll)
        if name == "break_free":
            return (sv, modifier, roll)
        if name == "glima":
            held = tuple((v, state.combatant(v).name) for v, g in _carry(state).grappled.items() if g == combatant_id and _exists(state, v))
            return (
                FieldSpec(key="target", label="Throw", kind="choice", default=held[0][0] if held else "", choices=held),
                sv,
                grip,
                FieldSpec(key="drop", label="Drop onto him (1d6, he stays held)", kind="bool", default=False),
                modifier,
                roll,
            )
        if name == "glima_defence":
            throws = tuple(c for c in hits if "(glima," in c[1])
            return (FieldSpec(key="attack", label="Against", kind="choice", default=throws[0][0] if throws else "", choices=throws), sv, modifier, roll)
        if name == "act_held":
            held_others = [state.combatant(cid).name for cid, t in info.turns.items() if t.held and cid != combatant_id and _exists(state, cid)]
            if not held_others:
                return ()
            return (
                FieldSpec(key="together", label="Acting at the same moment", kind="str", default="", help=", ".join(held_others)),
                FieldSpec(key="tiebreak", label="1d10 tie-break", kind="str", default="", help="name roll, … (only for equal Combat SV)"),
                FieldSpec(key="after", label="After the current slot", kind="bool", default=False),
            )
        if name == "change_action":
            return self.declaration_fields(state, combatant_id)
        return ()

    def pool_label(self, pool: str) -> str:
        kind, _sep, target = pool.partition(":")
        labels = {
            "general": _("CP"),
            "any_weapon": _("CP any weapon"),
            "ranged": _("CP ranged"),
            "unarmed": _("CP unarmed"),
            "brawl": _("CP brawling"),
            "wrestling": _("CP wrestling"),
        }
        if kind in labels:
            return labels[kind]
        if kind == "group":
            target = next((w.group for w in self.data.weapons.values() if norm(w.group) == target), target)
        elif kind == "weapon":
            target = next((w.name for k, w in self.data.weapons.items() if norm(k) == target or norm(w.name) == target), target)
        return _("CP {target}", target=target)

    def budget(self, state: State, combatant_id: str) -> tuple[BudgetLine, ...]:
        info = _info(state)
        budget = self._budget(state, info, combatant_id)
        sheet = self._sheet(state, combatant_id)
        lines = [BudgetLine(label=self.pool_label(pool), left=meter.left, total=meter.total) for pool, meter in budget.pools.items()]
        for item, meter in budget.actions.items():
            name = self.data.shields[sheet.shield].name if item == SHIELD and sheet.shield else item
            lines.append(BudgetLine(label=_("{item} actions", item=name), left=meter.left, total=meter.total))
        lines.append(BudgetLine(label=_("Unarmed attacks"), left=budget.unarmed.left, total=budget.unarmed.total))
        return tuple(lines)

    def cp_left(self, state: State, combatant_id: str, what: str) -> int:
        """CP the combatant can still put into an action with ``what`` (see :func:`usable_pools`) this round."""
        sheet = self._sheet(state, combatant_id)
        budget = self._budget(state, _info(state), combatant_id)
        return sum(budget.pools[p].left for p in usable_pools(sheet, what, data=self.data) if p in budget.pools)

    def details(self, state: State, combatant_id: str) -> tuple[tuple[str, str], ...]:
        combatant = state.combatant(combatant_id)
        sheet = self.sheet_of(combatant)
        data = self.data
        lines: list[tuple[str, str]] = [(_("Combat SV"), str(sheet.sv))]
        cp = [f"{w.name} {cp_available(sheet, w.name, data)}" for w in sheet.weapons]
        if sheet.shield:
            cp.append(f"{data.shields[sheet.shield].name} {cp_available(sheet, SHIELD, data)}")
        cp.append(f"{_('unarmed')} {cp_available(sheet, UNARMED, data)}")
        if sheet.wrestling:
            cp.append(f"{_('wrestling')} {cp_available(sheet, WRESTLING, data)}")
        lines.append((_("CP by weapon"), " · ".join(cp)))
        for weapon in sheet.weapons:
            lines.append((weapon.name, _("IM {im:+d}, {actions} actions, {group}", im=weapon.im, actions=weapon.actions, group=weapon.group) + (", " + _("ranged") if weapon.ranged else "")))
        if sheet.shield:
            shield = data.shields[sheet.shield]
            lines.append((_("Shield"), _("{name}: IM {im:+d}, {actions} actions", name=shield.name, im=shield.im, actions=shield.actions)))
        if sheet.armour:
            armour = data.armour[sheet.armour]
            lines.append((_("Armour"), _("{name}: IM {im:+d}", name=armour.name, im=armour.im)))
        skills = [f"{s.name} {s.level}" for s in (*sheet.disciplines, *sheet.specialties)]
        for field in SKILL_FIELDS:
            level = getattr(sheet, field)
            skill = data.field_skill(field)
            if level:
                skills.append(f"{skill.name if skill else field} {level}")
        if skills:
            lines.append((_("Skills"), ", ".join(skills)))
        if sheet.wrestling:
            lines.append((_("Wrestling SV"), str(sheet.wrestling)))
        if state.phase == "round":
            try:
                parts = self.im_parts(state, combatant_id)
                info = _info(state)
                table = self._init_table(state, info)
            except RuleError as error:
                lines.append((_("Initiative modifier"), str(error)))
                return tuple(lines)
            total = sum(v for _l, v in parts)
            lines.append((_("Initiative modifier"), f"{total:+d}" + (" (" + ", ".join(f"{label} {value:+d}" for label, value in parts) + ")" if parts else "")))
            key = combatant.group or combatant.id
            if key in table:
                lines.append((_("Initiative"), _("{total} (call {call})", total=table[key].total, call=self.call_label(table[key].total))))
            turn = info.turns.get(combatant_id, Turn())
            flags = []
            if turn.surprised:
                flags.append(_("surprised ({penalty:+d})", penalty=data.rules.surprise_penalty))
            if turn.held:
                flags.append(_("holding his action"))
            if turn.acted_held:
                flags.append(_("acting held ({penalty:+d})", penalty=data.rules.held_penalty))
            if turn.skipped:
                flags.append(_("gave up his turn"))
            carry = _carry(state)
            if combatant_id in carry.grappled:
                holder = carry.grappled[combatant_id]
                flags.append(_("held by {name}", name=state.combatant(holder).name if _exists(state, holder) else holder))
            holding = [state.combatant(v).name for v, g in carry.grappled.items() if g == combatant_id and _exists(state, v)]
            if holding:
                flags.append(_("holding {names}", names=", ".join(holding)))
            if flags:
                lines.append((_("This round"), "; ".join(flags)))
        return tuple(lines)

    def declaration_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        sheet = self._sheet(state, combatant_id)
        weapons = tuple((w.name, f"{w.name} ({w.im:+d})") for w in sheet.weapons)
        fields = [
            FieldSpec(key="weapon", label="Weapon", kind="choice", default=sheet.weapons[0].name if sheet.weapons else UNARMED, choices=(*weapons, (UNARMED, "unarmed (0)"))),
        ]
        if len(sheet.weapons) > 1:
            fields.append(FieldSpec(key="offhand", label="Off-hand weapon", kind="choice", default="none", choices=(("none", "none"), *weapons)))
        if sheet.shield:
            shield = self.data.shields[sheet.shield]
            fields.append(FieldSpec(key="shield", label="Use the shield", kind="bool", default=True, help=f"{shield.name} {shield.im:+d}"))
        fields.append(FieldSpec(key="spell_im", label="Spell / divine power IM", kind="int", default=0))
        fields.append(FieldSpec(key="other_im", label="Other IM", kind="int", default=0, help="fatigue, damage, stress, drugs"))
        return tuple(fields)


# -- state plumbing -------------------------------------------------------------------------------------------
def _exists(state: State, cid: str) -> bool:
    return any(c.id == cid for c in state.combatants)


def _info(state: State) -> RoundInfo:
    raw = {key: state.round_data[key] for key in _ROUND_KEYS if key in state.round_data}
    return msgspec.convert(raw, RoundInfo)


def _store(state: State, info: RoundInfo) -> State:
    built = msgspec.to_builtins(info)
    return replace(state, round_data={**state.round_data, **{key: built[key] for key in _ROUND_KEYS}})


def _carry(state: State) -> Carry:
    raw = {key: state.carry[key] for key in ("init_bonus", "grappled") if key in state.carry}
    return msgspec.convert(raw, Carry)


def _store_carry(state: State, carry: Carry) -> State:
    built = msgspec.to_builtins(carry)
    return replace(state, carry={**state.carry, **built})


def _args(raw: Mapping[str, Any], kind: type[Args], action: str) -> Args:
    """Typed arguments; a value left empty in a form ("") means the default."""
    try:
        return msgspec.convert({k: v for k, v in raw.items() if v != ""}, kind, strict=False)
    except msgspec.ValidationError as error:
        raise RuleError(_("{action}: {error}", action=action, error=error)) from None


def _remove_from_order(state: State, cid: str) -> State:
    """Take a combatant out of the countdown; an emptied slot goes, and the cursor keeps its place."""
    order: list[Slot] = []
    cursor = state.cursor
    for index, slot in enumerate(state.order):
        if cid in slot.combatants:
            slot = replace(slot, combatants=tuple(c for c in slot.combatants if c != cid))
            if not slot.combatants:
                if index < state.cursor:
                    cursor -= 1
                continue
        order.append(slot)
    return replace(state, order=tuple(order), cursor=cursor)


RULESET = Trudvang()
