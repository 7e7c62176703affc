"""Saving throws, area effects, and the path every hit takes to a combatant's health.

A hit, whether one :class:`~tui_combat.engine.actions.Damage` or a target's share of an
:class:`~tui_combat.engine.actions.AreaEffect`, goes the same way (:func:`hurt`, :func:`after_hurt`): the rules
say what of it reaches him (:meth:`~tui_combat.engine.saves.SavingRules.incoming_damage`: resistance, immunity,
vulnerability, temporary hit points), then what it leaves of him
(:meth:`~tui_combat.engine.contract.Ruleset.after_damage`), then a change of status is logged and
:meth:`~tui_combat.engine.contract.Ruleset.on_damage` hears of it (death saves, morale, concentration).

A :class:`~tui_combat.engine.actions.SavingThrow` is one log line: the GM reads the roll, the bonus and the DC
("Raf: Dexterity save: 1d20: [14] = 14, +2 → 16 against DC 15: saved."), the players who saves ("Raf saves.").
An area is one action (one undo): a header line (the DC behind the GM's screen), then one line per target, his
save and what he takes ("Goblin 1: Dexterity save: …: failed; 28 damage (fire): 0/7 HP." — the players read
"Goblin 1 fails the save: 28 damage."), then the rules hear that the ability was used (its recharge spent).
"""

from __future__ import annotations

from typing import NamedTuple

from msgspec.structs import replace

from tui_combat.engine import actions as a
from tui_combat.engine.audience import behind, dice, gm_only, typed, who
from tui_combat.engine.contract import HP, AnyRuleset, Health
from tui_combat.engine.dice import DiceError, Roll, parse
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Fact, Msg, Param, log, roll_param
from tui_combat.engine.model import Combatant, State, Status
from tui_combat.engine.registry import get
from tui_combat.engine.saves import ON_SAVE, Incoming, dice_key
from tui_combat.i18n import N_, _

__all__ = [
    "AREA_LINES",
    "STATUS_TEXT",
    "Hurt",
    "SaveResult",
    "after_hurt",
    "area_effect",
    "check_damage_kind",
    "exact",
    "hp_param",
    "hurt",
    "log_damage",
    "rolled_save",
    "saving_throw",
    "status_changed",
]

STATUS_TEXT: dict[str, str] = {
    "active": N_("{name} is back in the fight."),
    "down": N_("{name} is down."),
    "fled": N_("{name} has fled."),
    "surrendered": N_("{name} surrenders."),
}

DAMAGE_LINE = N_("{name} takes {amount} damage{rolled}: {hp}/{max} HP.")
DAMAGE_LINE_HEALTH = N_("{name} takes {amount} damage{rolled}: {hp}/{max} {health}.")
DAMAGE_PUBLIC = N_("{name} takes {amount} damage{rolled}.")
TYPED_LINE = N_("{name} takes {amount} damage{what}{rolled}: {hp}/{max} HP.")
TYPED_LINE_HEALTH = N_("{name} takes {amount} damage{what}{rolled}: {hp}/{max} {health}.")
TYPED_PUBLIC = N_("{name} takes {amount} damage{what}{rolled}.")
TARGET_LINE = N_("{name}: {save}; {damage}.")
TARGET_SAID = "{name}: {save}. {said}"
"""A target's line when the rules word the hit themselves (:attr:`Health.said`): no words of its own."""
SAVE_LINE = N_("{name}: {save}.")
PUBLIC_SAVE = {
    "saved": N_("{name} saves."),
    "failed": N_("{name} fails the save."),
    "legendary": N_("{name} saves with Legendary Resistance."),
}
PUBLIC_SAVE_HURT = {
    "saved": N_("{name} saves: {damage}."),
    "failed": N_("{name} fails the save: {damage}."),
    "legendary": N_("{name} saves with Legendary Resistance: {damage}."),
}
"""What the players read of a save, alone or with what the target takes: who saves, never the roll, the bonus or
the DC."""
AREA_LINES = frozenset(
    (
        DAMAGE_LINE,
        DAMAGE_LINE_HEALTH,
        DAMAGE_PUBLIC,
        TYPED_LINE,
        TYPED_LINE_HEALTH,
        TYPED_PUBLIC,
        TARGET_LINE,
        TARGET_SAID,
        *PUBLIC_SAVE_HURT.values(),
    )
)
"""The lines of a hit, the GM's and the players' (the fight's report counts the damage they deal)."""


# -- the path of a hit --------------------------------------------------------------------------------------
def exact(state: State, combatant: Combatant) -> bool:
    """Whether the players may read his exact hit points: the party's, no one else's."""
    try:
        return state.side(combatant.side).is_party
    except KeyError:
        return False


def hp_param(value: int, is_exact: bool) -> int | Msg:
    """Hit points as a log parameter: the GM's alone outside the party."""
    return value if is_exact else gm_only(value)


def status_changed(ruleset: AnyRuleset, state: State, combatant: Combatant, before: Status) -> State:
    after = state.combatant(combatant.id).status
    if after == before:
        return state
    state = log(state, STATUS_TEXT[after], name=who(state, combatant.id))
    return ruleset.on_status(state, combatant.id, before)


def check_damage_kind(ruleset: AnyRuleset, state: State, kind: str) -> None:
    """A damage's type must be one of the rules' (none where damage has no type)."""
    if not kind:
        return
    known = dict(ruleset.damage_types(state))
    if not known:
        raise RuleError(_("These rules give damage no type."))
    if kind not in known:
        raise RuleError(
            _(
                '"{kind}" is not a type of damage; the types are: {known}.',
                kind=kind,
                known=", ".join(_(label) for label in known.values()),
            )
        )


class Hurt(NamedTuple):
    """A hit on its way: the state with his health changed, him as he was, what the rules left of him and what of
    the hit reached him."""

    state: State
    before: Combatant
    health: Health
    incoming: Incoming

    @property
    def taken(self) -> int:
        """The damage he took: what reached his health and what his temporary hit points took of it."""
        return self.incoming.amount + self.incoming.absorbed

    def facts(self) -> dict[str, Fact]:
        facts: dict[str, Fact] = {"damage": self.taken, "hp": self.health.hp, "hp_before": self.before.hp}
        if self.health.lost is not None:
            facts["lost"] = self.health.lost
        elif self.incoming.absorbed:
            facts["lost"] = self.incoming.amount
        if self.incoming.absorbed:
            facts["absorbed"] = self.incoming.absorbed
        return facts


def hurt(
    ruleset: AnyRuleset, state: State, combatant: Combatant, amount: int, kind: str = "", *, critical: bool = False
) -> Hurt:
    """``amount`` damage of type ``kind`` on its way to ``combatant``: what the rules let reach him, then his hit
    points and status. Nothing is logged yet."""
    incoming = ruleset.incoming_damage(state, combatant.id, amount, kind)
    state = incoming.state
    current = state.combatant(combatant.id)
    health = ruleset.after_damage(state, current, incoming.amount, critical=critical)
    state = health.written(state)
    return Hurt(state.with_combatant(replace(current, hp=health.hp, status=health.status)), current, health, incoming)


def after_hurt(ruleset: AnyRuleset, state: State, hit: Hurt, *, critical: bool = False) -> State:
    """Once the hit is logged: his change of status, and the rules hear of the damage he took."""
    state = status_changed(ruleset, state, hit.before, hit.before.status)
    if state.phase == "round" and hit.taken > 0:
        state = ruleset.on_damage(state, hit.before.id, hit.taken, critical=critical)
    return state


def _kind_word(ruleset: AnyRuleset, state: State, kind: str) -> Msg:
    return Msg(id=dict(ruleset.damage_types(state)).get(kind, kind))


def _what(ruleset: AnyRuleset, state: State, kind: str, reasons: tuple[Msg, ...], is_exact: bool) -> Param:
    """ " (fire)", " (fire: resistant, 12 → 6)", " (5 taken by temporary hit points)" or "": the reasons behind the
    GM's screen for anyone not of the party."""
    why: list[str | int | Msg] = [reason if is_exact else behind(reason) for reason in reasons]
    if kind and why:
        return Msg(id=" ({kind}: {why})", params={"kind": _kind_word(ruleset, state, kind), "why": why})
    if kind:
        return Msg(id=" ({kind})", params={"kind": _kind_word(ruleset, state, kind)})
    if why:
        return Msg(id=" ({why})", params={"why": why})
    return ""


def log_damage(state: State, ruleset: AnyRuleset, hit: Hurt, kind: str, roll: Roll | None) -> State:
    """The line of one hit: the rules' own words, or "Orc takes 6 damage (fire: resistant, 12 → 6) (2d6: …): 9/15
    HP." (the players read the amount and, for the party, the hit points)."""
    rolls = (roll,) if roll else ()
    facts = hit.facts()
    health = hit.health
    if health.said is not None:
        return log(state, health.said, rolls=rolls, facts=facts, public=health.said_public)
    combatant = hit.before
    name = who(state, combatant.id)
    rolled = dice(Msg(id=" ({roll})", params={"roll": roll_param(roll)})) if roll else ""
    is_exact = exact(state, combatant)
    what = _what(ruleset, state, kind, hit.incoming.reasons, is_exact)
    hp, top = hp_param(health.hp, is_exact), hp_param(combatant.max_hp, is_exact)
    amount = hit.taken
    if what == "":  # a plain hit, worded as it always was
        public = None if is_exact else Msg(id=DAMAGE_PUBLIC, params={"name": name, "amount": amount, "rolled": rolled})
        if ruleset.health_label == HP:
            return log(
                state,
                DAMAGE_LINE,
                rolls=rolls,
                facts=facts,
                public=public,
                name=name,
                amount=amount,
                rolled=rolled,
                hp=hp,
                max=top,
            )
        return log(
            state,
            DAMAGE_LINE_HEALTH,
            rolls=rolls,
            facts=facts,
            public=public,
            name=name,
            amount=amount,
            rolled=rolled,
            hp=hp,
            max=top,
            health=Msg(id=ruleset.health_label),
        )
    public = (
        None
        if is_exact
        else Msg(
            id=TYPED_PUBLIC,
            params={
                "name": name,
                "amount": amount,
                "what": _what(ruleset, state, kind, (), is_exact),
                "rolled": rolled,
            },
        )
    )
    if ruleset.health_label == HP:
        return log(
            state,
            TYPED_LINE,
            rolls=rolls,
            facts=facts,
            public=public,
            name=name,
            amount=amount,
            what=what,
            rolled=rolled,
            hp=hp,
            max=top,
        )
    return log(
        state,
        TYPED_LINE_HEALTH,
        rolls=rolls,
        facts=facts,
        public=public,
        name=name,
        amount=amount,
        what=what,
        rolled=rolled,
        hp=hp,
        max=top,
        health=Msg(id=ruleset.health_label),
    )


def _hurt_words(state: State, ruleset: AnyRuleset, hit: Hurt, kind: str) -> tuple[Msg, Msg]:
    """What a target of an area takes, for the GM ("28 damage (fire): 0/7 HP") and for the players ("28 damage",
    with the hit points for the party; "no damage")."""
    combatant = hit.before
    is_exact = exact(state, combatant)
    what = _what(ruleset, state, kind, hit.incoming.reasons, is_exact)
    params: dict[str, Param] = {
        "amount": hit.taken,
        "what": what,
        "hp": hp_param(hit.health.hp, is_exact),
        "max": hp_param(combatant.max_hp, is_exact),
    }
    if ruleset.health_label == HP:
        gm = Msg(id=N_("{amount} damage{what}: {hp}/{max} HP"), params=params)
    else:
        gm = Msg(
            id=N_("{amount} damage{what}: {hp}/{max} {health}"),
            params={**params, "health": Msg(id=ruleset.health_label)},
        )
    if hit.taken == 0:
        return gm, Msg(id=N_("no damage"))
    if not is_exact:
        return gm, Msg(id=N_("{amount} damage"), params={"amount": hit.taken})
    shown: dict[str, Param] = {"amount": hit.taken, "hp": hit.health.hp, "max": combatant.max_hp}
    if ruleset.health_label == HP:
        return gm, Msg(id=N_("{amount} damage: {hp}/{max} HP"), params=shown)
    return gm, Msg(
        id=N_("{amount} damage: {hp}/{max} {health}"), params={**shown, "health": Msg(id=ruleset.health_label)}
    )


# -- saving throws --------------------------------------------------------------------------------------------
class SaveResult(NamedTuple):
    """A saving throw made: the state (a Legendary Resistance spent), whether he saved, how ("saved", "failed",
    "legendary": a failure turned into a success), what the GM reads of it, its facts and its roll."""

    state: State
    saved: bool
    outcome: str
    said: Msg
    facts: dict[str, Fact]
    rolls: tuple[Roll, ...]


def _save_label(ruleset: AnyRuleset, state: State, kind: str) -> Msg:
    known = dict(ruleset.save_kinds(state))
    if not known:
        raise RuleError(_("These rules have no saving throws: deal the damage to each target."))
    if kind not in known:
        raise RuleError(
            _(
                '"{kind}" is not a saving throw of these rules; they have: {known}.',
                kind=kind,
                known=", ".join(_(label) for label in known.values()),
            )
        )
    return Msg(id=known[kind])


def rolled_save(
    ruleset: AnyRuleset,
    state: State,
    combatant: Combatant,
    kind: str,
    roll: Roll | None,
    dc: int,
    cover: int = 0,
    legendary: bool = False,
) -> SaveResult:
    """``combatant``'s save of ``kind`` against ``dc`` with ``roll`` (none needed when it succeeds or fails
    automatically); ``legendary``: a failure is turned into a success by a Legendary Resistance, if one is left."""
    label = _save_label(ruleset, state, kind)
    if cover < 0:
        raise RuleError(_("Cover is not negative."))
    odds = ruleset.save_odds(state, combatant.id, kind, dc, cover=cover)
    needed: Param = Msg(id=N_("DC {dc}"), params={"dc": behind(odds.needed)}) if dc else behind(odds.needed)
    edge: Param = Msg(id=" ({reasons})", params={"reasons": list(odds.reasons)}) if odds.reasons else ""
    facts: dict[str, Fact] = {"save": kind, "needed": odds.needed}
    rolls: tuple[Roll, ...] = ()
    total = 0
    if odds.auto:
        saved = odds.auto == "success"
        facts["auto"] = odds.auto
    else:
        if roll is None:
            raise RuleError(_("Roll {name}'s saving throw.", name=combatant.name))
        if dice_key(roll.expr) != dice_key(odds.dice):
            reasons = ", ".join(str(reason) for reason in odds.reasons) or _("a plain roll")
            raise RuleError(
                _(
                    "{name}'s saving throw is rolled with {dice}, not {rolled}: {why}.",
                    name=combatant.name,
                    dice=odds.dice,
                    rolled=roll.expr,
                    why=reasons,
                )
            )
        saved = odds.succeeds(roll.total)
        total = roll.total + odds.modifier
        facts.update(natural=roll.total, total=total)
        rolls = (roll,)
    outcome = "saved" if saved else "failed"
    result = Msg(id=N_("saved") if saved else N_("failed"))
    turned: Param = ""
    if not saved and legendary:
        left = ruleset.legendary_resistance(state, combatant.id)
        if left < 1:
            raise RuleError(_("{name} has no Legendary Resistance left.", name=combatant.name))
        state = ruleset.spend_legendary_resistance(state, combatant.id)
        saved, outcome = True, "legendary"
        facts["legendary"] = True
        turned = Msg(id=N_(", but succeeds with Legendary Resistance ({left} left)"), params={"left": behind(left - 1)})
    facts["saved"] = saved
    if odds.auto:
        said = Msg(
            id=N_("{save} save: {result} automatically{edge}{legendary}"),
            params={"save": label, "result": result, "edge": edge, "legendary": turned},
        )
    elif odds.modifier:
        said = Msg(
            id=N_("{save} save{edge}: {roll}, {modifier} → {total} against {needed}: {result}{legendary}"),
            params={
                "save": label,
                "edge": edge,
                "roll": roll_param(rolls[0]),
                "modifier": behind(f"{odds.modifier:+d}"),
                "total": total,
                "needed": needed,
                "result": result,
                "legendary": turned,
            },
        )
    else:
        said = Msg(
            id=N_("{save} save{edge}: {roll} against {needed}: {result}{legendary}"),
            params={
                "save": label,
                "edge": edge,
                "roll": roll_param(rolls[0]),
                "needed": needed,
                "result": result,
                "legendary": turned,
            },
        )
    return SaveResult(state, saved, outcome, said, facts, rolls)


def _require_round(state: State) -> None:
    if state.phase != "round":
        raise RuleError(_("That cannot be done now."))


def _find(state: State, combatant_id: str) -> Combatant:
    try:
        return state.combatant(combatant_id)
    except KeyError:
        raise RuleError(_("No such combatant.")) from None


def saving_throw(action: a.SavingThrow, state: State) -> State:
    """One saving throw, one line; then the rules hear of it (a concentration lost)."""
    _require_round(state)
    combatant = _find(state, action.combatant)
    ruleset = get(state.ruleset)
    result = rolled_save(ruleset, state, combatant, action.kind, action.roll, action.dc, action.cover, action.legendary)
    state = result.state
    name = who(state, combatant.id)
    facts = dict(result.facts)
    if action.source:
        facts["source"] = action.source
    state = log(
        state,
        SAVE_LINE,
        rolls=result.rolls,
        facts=facts,
        name=name,
        save=result.said,
        public=Msg(id=PUBLIC_SAVE[result.outcome], params={"name": name}),
    )
    return ruleset.after_save(state, combatant.id, action.kind, result.saved, action.source)


# -- areas ----------------------------------------------------------------------------------------------------
def _check_area(ruleset: AnyRuleset, state: State, action: a.AreaEffect) -> str:
    """The area's name, once everything in it is checked (before anything is applied)."""
    name = " ".join(action.name.split())
    if not name:
        raise RuleError(_("An area effect needs a name."))
    if not action.targets:
        raise RuleError(_("Choose the area's targets."))
    if not action.save and action.damage is None:
        raise RuleError(_("An area effect deals damage, asks for a saving throw, or both."))
    seen: set[str] = set()
    for target in action.targets:
        combatant = _find(state, target.combatant)
        if combatant.id in seen:
            raise RuleError(_("{name} is a target twice.", name=combatant.name))
        seen.add(combatant.id)
        if not action.save and (target.roll is not None or target.legendary):
            raise RuleError(_("The area has no saving throw: {name} rolls none.", name=combatant.name))
    if action.on_save not in dict(ON_SAVE):
        raise RuleError(_("On a successful save: half damage, no damage or full damage."))
    if action.save:
        _save_label(ruleset, state, action.save)
    if action.dc < 0:
        raise RuleError(_("A DC is not negative."))
    check_damage_kind(ruleset, state, action.kind)
    if action.damage is not None:
        _check_damage_roll(action.damage)
    if action.source:
        _find(state, action.source)
    elif action.ability:
        raise RuleError(_("A special ability is someone's: say whose."))
    return name


def _check_damage_roll(rolled: Roll) -> None:
    if rolled.total < 0:
        raise RuleError(_("Damage cannot be negative; use heal."))
    if not rolled.expr:
        return
    try:
        parsed = parse(rolled.expr)
    except DiceError as error:
        raise RuleError(_("Damage dice: {error}", error=error)) from None
    low, high = parsed.min_total, parsed.max_total
    if rolled.total < low or (high is not None and rolled.total > high):
        raise RuleError(
            _(
                "{dice} cannot show {total} damage: from {low} to {high}.",
                dice=parsed.text,
                total=rolled.total,
                low=low,
                high=high if high is not None else "…",
            )
        )


def _header(ruleset: AnyRuleset, state: State, action: a.AreaEffect, name: str) -> State:
    """The area's first line: what it is, its damage and its save (the DC behind the GM's screen)."""
    effect: Param = typed(name)
    if action.source:
        effect = Msg(id=N_("{source}'s {effect}"), params={"source": who(state, action.source), "effect": effect})
    facts: dict[str, Fact] = {"area": name}
    params: dict[str, Param] = {"effect": effect}
    rolls: tuple[Roll, ...] = ()
    if action.damage is not None:
        rolls = (action.damage,)
        facts["rolled"] = action.damage.total
        params.update(
            amount=action.damage.total,
            rolled=dice(Msg(id=" ({roll})", params={"roll": roll_param(action.damage)})),
            what=Msg(id=" ({kind})", params={"kind": _kind_word(ruleset, state, action.kind)}) if action.kind else "",
        )
    if action.save:
        params["save"] = _save_label(ruleset, state, action.save)
        params["on_save"] = Msg(id=dict(ON_SAVE)[action.on_save])
        facts["dc"] = action.dc
    needed = Msg(id=N_("DC {dc}"), params={"dc": behind(action.dc)})
    if action.damage is None:
        public = Msg(id=N_("{effect}: {save} save."), params=params)
        if not action.dc:
            return log(state, public, facts=facts)
        return log(
            state,
            Msg(id=N_("{effect}: {save} save against {needed}."), params={**params, "needed": needed}),
            facts=facts,
            public=public,
        )
    if not action.save:
        return log(
            state,
            Msg(id=N_("{effect}: {amount} damage{what}{rolled}, no saving throw."), params=params),
            rolls=rolls,
            facts=facts,
        )
    public = Msg(id=N_("{effect}: {amount} damage{what}{rolled}; {save} save, {on_save} on a success."), params=params)
    if not action.dc:
        return log(state, public, rolls=rolls, facts=facts)
    return log(
        state,
        Msg(
            id=N_("{effect}: {amount} damage{what}{rolled}; {save} save against {needed}, {on_save} on a success."),
            params={**params, "needed": needed},
        ),
        rolls=rolls,
        facts=facts,
        public=public,
    )


def area_effect(action: a.AreaEffect, state: State) -> State:
    """Every target in turn: his save, his share of the damage, what the rules let reach him, his health; one line
    each. Then the ability is spent."""
    _require_round(state)
    ruleset = get(state.ruleset)
    name = _check_area(ruleset, state, action)
    state = _header(ruleset, state, action, name)
    amount = action.damage.total if action.damage is not None else 0
    for target in action.targets:
        combatant = state.combatant(target.combatant)
        saved = False
        result: SaveResult | None = None
        if action.save:
            result = rolled_save(
                ruleset, state, combatant, action.save, target.roll, action.dc, target.cover, target.legendary
            )
            state, saved = result.state, result.saved
            combatant = state.combatant(combatant.id)
        if action.damage is None:
            assert result is not None  # an area without damage has a save (checked)
            label = who(state, combatant.id)
            state = log(
                state,
                SAVE_LINE,
                rolls=result.rolls,
                facts={**result.facts, "area": name},
                name=label,
                save=result.said,
                public=Msg(id=PUBLIC_SAVE[result.outcome], params={"name": label}),
            )
        else:
            share = ruleset.area_share(state, combatant.id, amount, action.on_save, saved, action.save)
            hit = hurt(ruleset, state, combatant, max(share, 0), action.kind)
            state = _log_target(hit.state, ruleset, hit, action.kind, result, name)
            state = after_hurt(ruleset, state, hit)
        if action.save:
            state = ruleset.after_save(state, combatant.id, action.save, saved, "area")
    if action.ability:
        state = ruleset.on_ability_used(state, action.source, action.ability)
    return state


def _log_target(state: State, ruleset: AnyRuleset, hit: Hurt, kind: str, result: SaveResult | None, area: str) -> State:
    """One target's line: his save and what he takes."""
    if result is None:  # no save: the hit's own line
        return log_damage(state, ruleset, hit, kind, None)
    facts = {**hit.facts(), **result.facts, "area": area}
    name = who(state, hit.before.id)
    health = hit.health
    if health.said is not None:
        public_save = Msg(id=PUBLIC_SAVE[result.outcome], params={"name": name})
        said_public = health.said_public if health.said_public is not None else health.said
        return log(
            state,
            TARGET_SAID,
            rolls=result.rolls,
            facts=facts,
            name=name,
            save=result.said,
            said=health.said,
            public=Msg(id="{save} {said}", params={"save": public_save, "said": said_public}),
        )
    gm, players = _hurt_words(state, ruleset, hit, kind)
    return log(
        state,
        TARGET_LINE,
        rolls=result.rolls,
        facts=facts,
        name=name,
        save=result.said,
        damage=gm,
        public=Msg(id=PUBLIC_SAVE_HURT[result.outcome], params={"name": name, "damage": players}),
    )
