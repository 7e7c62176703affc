"""An area effect as the GM builds it on the round screen — its targets, what it is, its dice — and what it would do
to each target, worked out by the rules before anything is applied.

Nothing here draws (the screens are :mod:`.area_targets`, :mod:`.area_preview` and :mod:`.area_flow`). The preview
applies to the state as it stands the very :class:`~tui_combat.engine.actions.AreaEffect` that Enter dispatches (the
engine is pure), so what it shows of each target — his save, his share, what the rules let through and why, his hit
points after — is what the log will say.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import msgspec

from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply_logged
from tui_combat.engine.contract import AnyRuleset
from tui_combat.engine.dice import Dice, DiceError, Roll, parse, physical, roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import LogEntry, Msg, Param, data_name, render
from tui_combat.engine.model import State
from tui_combat.engine.saves import SaveOdds, SpecialAbility, dice_key
from tui_combat.i18n import N_, _, english_word
from tui_combat.widgets.order_rows import status_mark

__all__ = [
    "COVER_WORDS",
    "AreaDraft",
    "AreaRolls",
    "Outcome",
    "TargetRow",
    "ability_shown",
    "area_action",
    "damage_roll",
    "dc_matters",
    "draft_of_ability",
    "mentions",
    "next_cover",
    "outcome",
    "read_damage_kind",
    "roll_saves",
    "shown_name",
    "split_damage_kind",
    "target_odds",
    "type_words",
    "typed_group",
    "typed_save",
]

DASH = "—"


@dataclass(frozen=True)
class AreaDraft:
    """What the GM chose: the targets (combatant ids), the effect's name, its damage dice ("8d6", "28", "" for
    none), its type, the save (a kind of the rules, "" for none), its DC (0 where the rules use none), what a
    success leaves (``on_save``), whether the targets share one roll, and whose ability it is."""

    targets: tuple[str, ...] = ()
    name: str = ""
    dice: str = ""
    kind: str = ""
    save: str = ""
    dc: int = 0
    on_save: str = "half"
    group_roll: bool = False
    source: str = ""
    ability: str = ""


def draft_of_ability(source: str, ability: SpecialAbility) -> AreaDraft:
    """The draft a special ability fills in (a dragon's Fire Breath: 17d6 fire, Dexterity DC 21, half)."""
    return AreaDraft(
        name=ability.name,
        dice=ability.damage,
        kind=ability.kind,
        save=ability.save,
        dc=ability.dc,
        on_save=ability.on_save or "half",
        source=source,
        ability=ability.name,
    )


def ability_shown(name: str) -> str:
    """A special ability's name (kept in English, as its data has it) in the GM's language, as the log shows it."""
    return render(data_name(name))


def shown_name(draft: AreaDraft) -> str:
    """The area's name as the GM reads it: a special ability's in his language, a name he typed as typed."""
    return ability_shown(draft.name) if draft.ability and draft.name == draft.ability else draft.name


@dataclass(frozen=True)
class AreaRolls:
    """The dice of the preview: the damage, each target's save (none for one that fails or succeeds
    automatically), or the two d20 of one roll for all (the second for those rolling with advantage or
    disadvantage); the targets whose failure a Legendary Resistance turns, and each one's cover."""

    damage: Roll | None = None
    saves: Mapping[str, Roll] = field(default_factory=dict)
    group: tuple[int, int] | None = None
    group_typed: bool = False
    legendary: frozenset[str] = frozenset()
    cover: Mapping[str, int] = field(default_factory=dict)


# -- what the rules take ------------------------------------------------------------------------------------
def dc_matters(ruleset: AnyRuleset, state: State, combatant_id: str, kind: str) -> bool:
    """Whether a save of ``kind`` is against a DC in these rules (5e) or against the combatant's own number (AD&D 2e's
    Table 60, OSE): asked of the rules' odds, which follow the DC only where there is one."""
    try:
        return (
            ruleset.save_odds(state, combatant_id, kind, 10).needed
            != ruleset.save_odds(state, combatant_id, kind, 11).needed
        )
    except RuleError:
        return False


def type_words(ruleset: AnyRuleset, state: State) -> list[tuple[str, str]]:
    """(type id, the word in the GM's language) for each damage type of the rules."""
    return [(kind, _(label)) for kind, label in ruleset.damage_types(state)]


def read_damage_kind(ruleset: AnyRuleset, state: State, word: str) -> str | None:
    """The damage type ``word`` names: its id, its word in English or in any language of the interface, or the start
    of one word alone ("fi" → fire); None when it names none (or more than one)."""
    types = ruleset.damage_types(state)
    wanted = " ".join(word.split()).casefold()
    if not wanted or not types:
        return None
    for kind, _label in types:
        if kind.casefold() == wanted:
            return kind
    found = english_word(word, tuple(label for _kind, label in types))
    if found is not None:
        return next(kind for kind, label in types if label == found)
    starting = {kind for kind, label in types for spelt in (kind, _(label)) if spelt.casefold().startswith(wanted)}
    return starting.pop() if len(starting) == 1 else None


def split_damage_kind(ruleset: AnyRuleset, state: State, text: str) -> tuple[str, str]:
    """ "12 fire" → ("12", "fire"); "2d6+1 огонь" → ("2d6+1", "fire"); "fire" → ("", "fire"); "12" → ("12", "").
    Only where the rules give damage types; a last word that is no type is left with the amount (and refused there)."""
    words = text.split()
    if not words or not ruleset.damage_types(state):
        return text.strip(), ""
    for count in range(1, len(words) + 1):
        kind = read_damage_kind(ruleset, state, " ".join(words[-count:]))
        if kind is not None:
            return " ".join(words[:-count]), kind
        if any(ch.isdigit() for ch in words[-count]):
            break  # the amount starts here
    return text.strip(), ""


def target_odds(
    ruleset: AnyRuleset, state: State, draft: AreaDraft, combatant_id: str, cover: int = 0
) -> SaveOdds | None:
    """What he needs on the area's save (None when it has none); :class:`RuleError` from the rules (no DC …)."""
    if not draft.save:
        return None
    return ruleset.save_odds(state, combatant_id, draft.save, draft.dc, cover=cover)


# -- the dice ---------------------------------------------------------------------------------------------
def damage_roll(dice: str, rng: random.Random | None, typed: str = "") -> Roll | None:
    """The damage: ``dice`` rolled with ``rng`` ("8d6"), or what real dice showed (``typed``: a total, or each
    die); a plain number is itself; None for no damage. :class:`DiceError` for what is not dice."""
    text = dice.strip()
    if not text:
        if typed.strip():
            raise DiceError(_("Give the damage dice first (8d6)."))
        return None
    parsed = parse(text)
    if not any(isinstance(term, Dice) for term in parsed.terms):
        return physical(parsed, str(parsed.min_total))
    if typed.strip():
        return physical(parsed, typed)
    if rng is None:
        raise DiceError(_("Type what the damage dice showed."))
    return roll(parsed, rng)


def _from_faces(dice: str, faces: tuple[int, int], typed: bool) -> Roll:
    """One target's share of a group roll: the first d20, or the better / worse of both where he rolls with
    advantage / disadvantage."""
    key = dice_key(dice)
    if key == dice_key("2d20kh1"):
        return Roll(expr=dice, total=max(faces), faces=faces, physical=typed)
    if key == dice_key("2d20kl1"):
        return Roll(expr=dice, total=min(faces), faces=faces, physical=typed)
    return Roll(expr=dice, total=faces[0], faces=faces[:1], physical=typed)


def roll_saves(
    ruleset: AnyRuleset, state: State, draft: AreaDraft, rolls: AreaRolls, rng: random.Random, *, again: bool = False
) -> AreaRolls:
    """Each target's save rolled with the app's dice (or one roll for all), keeping those typed or rolled already
    (unless ``again``) while their dice are still what the rules ask for."""
    if not draft.save:
        return replace(rolls, saves={}, group=None)
    if draft.group_roll:
        group = rolls.group if rolls.group is not None and not again else (rng.randint(1, 20), rng.randint(1, 20))
        return replace(rolls, group=group, group_typed=rolls.group_typed and not again, saves={})
    saves: dict[str, Roll] = {}
    for target in draft.targets:
        odds = target_odds(ruleset, state, draft, target, rolls.cover.get(target, 0))
        if odds is None or odds.auto:
            continue
        kept = rolls.saves.get(target)
        if kept is not None and not again and dice_key(kept.expr) == dice_key(odds.dice):
            saves[target] = kept
        else:
            saves[target] = roll(odds.dice, rng)
    return replace(rolls, saves=saves, group=None, group_typed=False)


def typed_save(
    ruleset: AnyRuleset, state: State, draft: AreaDraft, rolls: AreaRolls, combatant_id: str, text: str
) -> AreaRolls:
    """His save as real dice showed it ("14", or both d20 with advantage: "15 7"); :class:`DiceError` or
    :class:`RuleError` for what it cannot be."""
    odds = target_odds(ruleset, state, draft, combatant_id, rolls.cover.get(combatant_id, 0))
    if odds is None:
        raise RuleError(_("The area has no saving throw."))
    if odds.auto:
        raise RuleError(
            _(
                "This save needs no roll: it is {result} automatically.",
                result=_("saved") if odds.auto == "success" else _("failed"),
            )
        )
    return replace(rolls, saves={**rolls.saves, combatant_id: physical(odds.dice, text)})


def typed_group(ruleset: AnyRuleset, state: State, draft: AreaDraft, rolls: AreaRolls, text: str) -> AreaRolls:
    """The one roll for all as real dice showed it: a d20, or both d20 where some roll with advantage or
    disadvantage ("15 7": the first for those who roll plainly)."""
    words = text.split()
    if len(words) == 2:
        first, second = (physical("1d20", word).total for word in words)
        return replace(rolls, group=(first, second), group_typed=True)
    if len(words) != 1:
        raise DiceError(_("Type the d20 (14), or both d20 for those with advantage or disadvantage (15 7)."))
    total = physical("1d20", words[0]).total
    if any(
        odds is not None and not odds.auto and dice_key(odds.dice) != dice_key("1d20")
        for odds in _odds(ruleset, state, draft, rolls).values()
    ):
        raise RuleError(_("Some targets roll with advantage or disadvantage: type both d20 (15 7)."))
    return replace(rolls, group=(total, total), group_typed=True)


def _odds(ruleset: AnyRuleset, state: State, draft: AreaDraft, rolls: AreaRolls) -> dict[str, SaveOdds | None]:
    return {target: target_odds(ruleset, state, draft, target, rolls.cover.get(target, 0)) for target in draft.targets}


def area_action(ruleset: AnyRuleset, state: State, draft: AreaDraft, rolls: AreaRolls) -> a.AreaEffect:
    """The action Enter dispatches."""
    targets = []
    for target, odds in _odds(ruleset, state, draft, rolls).items():
        save: Roll | None = None
        if odds is not None and not odds.auto:
            if rolls.group is not None:
                save = _from_faces(odds.dice, rolls.group, rolls.group_typed)
            else:
                save = rolls.saves.get(target)
        targets.append(
            a.AreaTarget(
                combatant=target, roll=save, cover=rolls.cover.get(target, 0), legendary=target in rolls.legendary
            )
        )
    return a.AreaEffect(
        name=draft.name,
        targets=tuple(targets),
        damage=rolls.damage,
        kind=draft.kind,
        save=draft.save,
        dc=draft.dc,
        on_save=draft.on_save,
        source=draft.source,
        ability=draft.ability,
    )


# -- what it would do -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TargetRow:
    """One target in the preview, every part in the GM's words."""

    combatant: str
    name: str
    roll: str
    """The die or dice ("14", "15 (7)"), or "—" for none."""
    total: str
    """With his modifier: "14+6=20", "15 (7)+6=21"; "—" for none."""
    needed: str
    """"DC 21", or the number of the table ("13")."""
    chance: str
    result: str
    takes: str
    """What reaches him: "31 fire", "0"; and what he loses of it when the rules keep some from his health
    (temporary hit points, armour): "12 → −7"."""
    health: str
    """His health after: "12/44", "0/7 ✝" (down: the turn list's mark)."""
    why: str
    """The rules' reasons: "restrained: disadvantage", "immune", "Evasion"."""
    lines: tuple[str, ...]
    """What the log will say of him (the GM's lines)."""
    failed: bool = False
    legendary_left: int = 0
    """Legendary Resistances he has left (offered on a failure)."""
    legendary: bool = False
    """A failure turned into a success by a Legendary Resistance."""
    cover: int = 0


@dataclass(frozen=True)
class Outcome:
    header: str
    """What the log's first line will say ("Adult Red Dragon's Fire Breath: 63 damage (fire) …")."""
    rows: tuple[TargetRow, ...]
    action: a.AreaEffect


def mentions(value: Param, combatant_id: str) -> bool:
    """Whether a log line's message (or a part of it) names the combatant."""
    if isinstance(value, Msg):
        return value.ref == combatant_id or any(mentions(part, combatant_id) for part in value.params.values())
    if isinstance(value, list):
        return any(mentions(part, combatant_id) for part in value)
    return False


def _percent(chance: float) -> str:
    return f"{round(100 * chance)}%"


def _result(odds: SaveOdds | None, saved: bool, legendary: bool) -> str:
    if odds is None:
        return DASH
    if legendary:
        return _("saved (Legendary Resistance)")
    if odds.auto:
        return _("saves automatically") if odds.auto == "success" else _("fails automatically")
    return _("saved") if saved else _("failed")


def _needed(odds: SaveOdds, dc: int) -> str:
    return _("DC {dc}", dc=odds.needed) if dc else str(odds.needed)


def _roll_text(save: Roll | None) -> str:
    if save is None:
        return DASH
    if len(save.faces) == 2 and dice_key(save.expr) != dice_key("2d20"):
        other = save.faces[1] if save.faces[0] == save.total else save.faces[0]
        return f"{save.total} ({other})"
    return str(save.total)


def outcome(ruleset: AnyRuleset, state: State, draft: AreaDraft, rolls: AreaRolls) -> Outcome:
    """What the area would do to each target, as the rules work it out now; :class:`RuleError` when the rules
    refuse it (the refusal the GM reads)."""
    action = area_action(ruleset, state, draft, rolls)
    after, entries = apply_logged(state, action)
    amount = action.damage.total if action.damage is not None else 0
    kind_word = dict(type_words(ruleset, state)).get(draft.kind, "")
    rows: list[TargetRow] = []
    for target in action.targets:
        combatant = state.combatant(target.combatant)
        odds = target_odds(ruleset, state, draft, combatant.id, target.cover)
        saved, reasons = False, [render(reason) for reason in (odds.reasons if odds is not None else ())]
        roll_text = total_text = needed_text = chance_text = DASH
        if odds is not None:
            needed_text, chance_text = _needed(odds, draft.dc), _percent(odds.chance())
            if odds.auto:
                saved = odds.auto == "success"
            elif target.roll is not None:
                saved = odds.succeeds(target.roll.total)
                roll_text = _roll_text(target.roll)
                total_text = (
                    f"{roll_text}{odds.modifier:+d}={target.roll.total + odds.modifier}" if odds.modifier else roll_text
                )
        failed = odds is not None and not saved
        turned = failed and target.legendary
        takes = DASH
        if action.damage is not None:
            share = ruleset.area_share(state, combatant.id, amount, draft.on_save, saved or turned, draft.save)
            incoming = ruleset.incoming_damage(state, combatant.id, max(share, 0), draft.kind)
            taken = incoming.amount + incoming.absorbed
            takes = f"{taken} {kind_word}".strip() if taken else "0"
            if share != amount:
                reasons.append(_("{share} of {amount}", share=share, amount=amount))
            reasons += [render(reason) for reason in incoming.reasons]
        now = after.combatant(combatant.id) if after.has(combatant.id) else combatant
        lost = combatant.hp - now.hp
        if takes != DASH and now.hp > 0 and 0 <= lost < int(takes.split()[0]):  # some kept from his health (armour)
            takes = f"{takes} → −{lost}"
        health = ruleset.health_shown(after, combatant.id) if after.has(combatant.id) else ""
        if now.status != combatant.status:  # the turn list's mark (✝), the word where it has none: the column is narrow
            health = f"{health}{status_mark(now.status) or ' ' + _(now.status)}"
        rows.append(
            TargetRow(
                combatant=combatant.id,
                name=combatant.name,
                roll=roll_text,
                total=total_text,
                needed=needed_text,
                chance=chance_text,
                result=_result(odds, saved, turned),
                takes=takes,
                health=health,
                why="; ".join(reasons),
                lines=tuple(entry.text for entry in entries if _about(entry, combatant.id)),
                failed=failed,
                legendary_left=ruleset.legendary_resistance(state, combatant.id) if odds is not None else 0,
                legendary=turned,
                cover=target.cover,
            )
        )
    header = ""
    if entries:  # the log's first line, the damage dice named rather than each die shown (17d6, not 17 faces)
        head = entries[0].msg
        rolled = action.damage
        if isinstance(head, Msg) and rolled is not None and not rolled.physical and "rolled" in head.params:
            head = msgspec.structs.replace(
                head, params={**head.params, "rolled": Msg(id=" ({roll})", params={"roll": rolled.expr})}
            )
        header = render(head)
    return Outcome(header=header, rows=tuple(rows), action=action)


def _about(entry: LogEntry, combatant_id: str) -> bool:
    return mentions(entry.msg, combatant_id)


COVERS = (0, 2, 5)
"""The cover a target may have against a Dexterity save where the rules take it (5e: half +2, three-quarters +5)."""
COVER_WORDS = {0: N_("no cover"), 2: N_("half cover"), 5: N_("three-quarters cover")}


def next_cover(ruleset: AnyRuleset, state: State, draft: AreaDraft, combatant_id: str, now: int) -> int | None:
    """The next cover the rules take for his save after ``now`` (none, half, three-quarters, none …); None when
    they take none."""
    if not draft.save:
        return None
    start = COVERS.index(now) if now in COVERS else 0
    for step in range(1, len(COVERS)):
        cover = COVERS[(start + step) % len(COVERS)]
        try:
            odds = ruleset.save_odds(state, combatant_id, draft.save, draft.dc, cover=cover)
            plain = ruleset.save_odds(state, combatant_id, draft.save, draft.dc, cover=0)
        except RuleError:
            continue
        if cover == 0 or odds.modifier != plain.modifier:
            return cover
    return None
