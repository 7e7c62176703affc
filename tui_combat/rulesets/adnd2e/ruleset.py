"""AD&D 2nd edition's own round: secret intentions, declarations with Table 55 situations, the three
initiative methods, the order with repeated attacks after everyone's first, spells of one round or
more at the end of the round, and the ruleset's actions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import msgspec
from msgspec.structs import replace

from tui_combat.engine.audience import group_ref, side_ref, typed, who
from tui_combat.engine.contract import ActionSpec, FieldSpec, OptionSpec, StepDef, group_slots
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, Param, log
from tui_combat.engine.mistakes import validation_text
from tui_combat.engine.model import Combatant, RollRequest, Slot, State, Status
from tui_combat.i18n import N_, _, after_name
from tui_combat.rulesets.adnd2e.data import Tables, tables
from tui_combat.rulesets.adnd2e.death import BIND_ACTION, DEATH_OPTION
from tui_combat.rulesets.adnd2e.family import EFFECT_ACTION, AdndFamily, Plan
from tui_combat.rulesets.adnd2e.family_terms import ordinal, spell_param
from tui_combat.rulesets.adnd2e.sheet import (
    Sheet,
    attack_plan,
    attacks_this_round,
    level_text,
    natural_forms,
    slowest_weapon_speed,
    thac0,
    uses_natural_weapons,
    weapon_speed,
)
from tui_combat.rulesets.adnd2e.state import (
    AdndRound,
    Casting,
    Declaration,
    casting_modifier,
    casting_rounds,
    duration,
    parse_spells,
)

T = TypeVar("T")

__all__ = ["ACTIONS", "ITEMS", "ADnD2e", "check_situations", "situation_ids"]

ACTIONS = (N_("weapon"), N_("spell"), N_("item"), N_("natural"), N_("breath"), N_("innate"), N_("move"), N_("other"))
ITEMS = (N_("misc"), N_("potion"), N_("ring"), N_("rod"), N_("scroll"), N_("staff"), N_("wand"))
SITUATION_FIELD = "situation_"
"""Prefix of a form's checkbox for one Table 55 situation (``situation_hasted``)."""


def situation_ids(raw: object) -> list[str]:
    """Situation ids typed as "a, b" or given as a list."""
    if isinstance(raw, str):
        return [i.strip() for i in raw.split(",") if i.strip()]
    if isinstance(raw, (list, tuple)):
        return [str(i).strip() for i in raw if str(i).strip()]
    return []


def check_situations(ids: list[str]) -> None:
    known = [s.id for s in tables().initiative.situations]
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise RuleError(
            _("Unknown situation: {ids}. Known: {known}.", ids=", ".join(unknown), known=", ".join(sorted(known)))
        )


def picked_situations(values: dict[str, Any]) -> list[str]:
    """The situations of a form: its ``situations`` list (or text) and every ticked ``situation_…`` box."""
    ids = situation_ids(values.get("situations", []))
    for key, value in values.items():
        if key.startswith(SITUATION_FIELD) and value is True:
            situation = key[len(SITUATION_FIELD) :]
            if situation not in ids:
                ids.append(situation)
        elif key.startswith(SITUATION_FIELD) and value not in (False, None, ""):
            raise RuleError(_('Tick or clear the situation boxes ("{value}" is neither).', value=value))
    return ids


def situation_boxes(ticked: list[str] | tuple[str, ...]) -> tuple[FieldSpec, ...]:
    """One checkbox per Table 55 situation: its modifier, then its translated label (cut, if need be, at the end)."""
    return tuple(
        FieldSpec(key=SITUATION_FIELD + s.id, label=f"{s.value:+d} {_(s.label)}", kind="bool", default=s.id in ticked)
        for s in tables().initiative.situations
    )


class ADnD2e(AdndFamily[AdndRound]):
    id = "adnd2e"
    name = N_("AD&D 2nd edition")
    name_in = N_("in AD&D 2nd edition")
    round_state_type = AdndRound
    options = (
        OptionSpec(
            key="initiative",
            label=N_("Initiative"),
            choices=(
                ("standard", N_("standard: 1d10 per side")),
                ("group", N_("group-modified: 1d10 per side + own modifiers")),
                ("individual", N_("individual: 1d10 each, every monster too")),
                ("individual_groups", N_("individual: 1d10 each, one for a group of like monsters")),
            ),
        ),
        OptionSpec(
            key="three_halves",
            label=N_("3/2 attacks"),
            choices=(("even", N_("two attacks in even rounds")), ("odd", N_("two attacks in odd rounds"))),
        ),
        OptionSpec(
            key="weapon_vs_armour",
            label=N_("Weapon type vs armour type"),
            choices=(("off", N_("AC only")), ("on", N_("AC and armour type vs weapon type"))),
        ),
        DEATH_OPTION,
    )
    actions = (
        ActionSpec(name="side_situations", key="m", label=N_("Sides"), needs_combatant=False),
        ActionSpec(name="attack", key="a", label=N_("Attack"), in_turn=True),
        ActionSpec(name="main_action", key="c", label=N_("Main action"), in_turn=True),
        EFFECT_ACTION,
        BIND_ACTION,
    )

    # -- steps ---------------------------------------------------------------------------------
    def steps(self, state: State) -> tuple[StepDef, ...]:
        return (
            StepDef(
                id="intent",
                label=N_("Monsters"),
                kind="declare",
                secret=True,
                help=N_("The DM decides, secretly, what every monster and NPC does."),
            ),
            StepDef(
                id="declare",
                label=N_("Players"),
                kind="declare",
                help=N_("The players declare; spells cannot be changed once initiative is rolled."),
            ),
            StepDef(id="initiative", label=N_("Initiative"), kind="initiative"),
            StepDef(id="resolve", label=N_("Resolve"), kind="resolve"),
            StepDef(
                id="end",
                label=N_("End of round"),
                kind="end",
                help=N_("Spells of a round or more take effect; durations count down."),
            ),
        )

    # -- declarations --------------------------------------------------------------------------
    def declaration_of(self, state: State, combatant_id: str) -> Declaration:
        """The combatant's declaration this round (the default one if he declared nothing; the spell he is
        still casting from an earlier round); a spell's casting time, when not given, comes from his list."""
        declaration = self.round_of(state).declarations.get(combatant_id)
        if declaration is None:
            casting = self.fight_of(state).castings.get(combatant_id)
            if casting is not None:
                return Declaration(action="spell", spell=casting.spell, casting=f"{casting.rounds_left} rounds")
            return Declaration()
        if declaration.action == "spell" and declaration.spell and not declaration.casting:
            spells = parse_spells(self.sheet(state.combatant(combatant_id)).spells)
            declaration = replace(declaration, casting=spells.get(declaration.spell, "1"))
        return declaration

    def declared_action(self, state: State, combatant_id: str) -> str:
        return self._action(self.sheet(state.combatant(combatant_id)), self.declaration_of(state, combatant_id))

    @staticmethod
    def _action(sheet: Sheet, declaration: Declaration) -> str:
        """The action of ``declaration``: a weapon attack by a monster with natural weapons is theirs."""
        if declaration.action == "weapon" and uses_natural_weapons(sheet):
            return "natural"
        return declaration.action

    def declared_spell(self, state: State, combatant_id: str) -> str:
        declaration = self.declaration_of(state, combatant_id)
        if declaration.action != "spell":
            return ""
        return declaration.spell or "spell"

    def declared_what(self, state: State, combatant_id: str) -> Param:
        declaration = self.declaration_of(state, combatant_id)
        action = self.declared_action(state, combatant_id)
        if action in ("weapon", "natural"):
            forms = self.attack_plan_of(state, state.combatant(combatant_id))
            return Msg(
                id=N_("attacks with {weapons}"), params={"weapons": [Msg(id=f) for f in (forms[0] if forms else ())]}
            )
        if action == "spell":
            return typed(declaration.spell) if declaration.spell else Msg(id=N_("a spell"))
        if action == "item":
            return (
                typed(declaration.text)
                if declaration.text
                else Msg(id=N_("uses a magic item: {item}"), params={"item": Msg(id=declaration.item)})
            )
        return typed(declaration.text) if declaration.text else Msg(id=action)

    def declaration_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        sheet = self.sheet(state.combatant(combatant_id))
        spells = tuple((name, f"{name} ({time})") for name, time in parse_spells(sheet.spells).items())
        stored = self.round_of(state).declarations.get(combatant_id, Declaration())
        return (
            FieldSpec(
                key="action",
                label=N_("Action"),
                kind="choice",
                default="weapon",
                choices=tuple((a, a) for a in ACTIONS),
            ),
            FieldSpec(
                key="spell",
                label=N_("Spell"),
                kind="choice" if spells else "str",
                default="",
                choices=(("", N_("— (no spell)")), *spells) if spells else (),
            ),
            FieldSpec(
                key="casting",
                label=N_("Casting time"),
                kind="str",
                default="",
                help=N_("empty: from his list; 3, 2 rounds, 1 turn"),
            ),
            FieldSpec(
                key="item", label=N_("Magic item"), kind="choice", default="misc", choices=tuple((i, i) for i in ITEMS)
            ),
            *situation_boxes(situation_ids(stored.situations)),
            FieldSpec(key="text", label=N_("Note"), kind="str", default=""),
        )

    def declaration(self, state: State, combatant_id: str) -> dict[str, Any]:
        stored = self.round_of(state).declarations.get(combatant_id)
        if stored is None:
            casting = self.fight_of(state).castings.get(combatant_id)
            if casting is None:
                return {}
            stored = Declaration(action="spell", spell=casting.spell)  # he goes on casting unless he says otherwise
        ticked = situation_ids(stored.situations)
        values: dict[str, Any] = {
            "action": stored.action,
            "spell": stored.spell,
            "casting": stored.casting,
            "item": stored.item,
        }
        values.update({SITUATION_FIELD + s.id: s.id in ticked for s in tables().initiative.situations})
        values["text"] = stored.text
        return values

    def declare(self, state: State, combatant_id: str, declaration: dict[str, Any]) -> State:
        if state.initiative.settled or state.order:
            raise RuleError(_("Declarations are fixed once initiative is rolled (spells cannot be changed)."))
        self.refuse_party_in_secret_step(state, combatant_id)
        situations = picked_situations(declaration)
        check_situations(situations)
        plain = {k: v for k, v in declaration.items() if not k.startswith(SITUATION_FIELD)}
        plain["situations"] = ", ".join(situations)
        try:
            checked = msgspec.convert(plain, Declaration, strict=False)
        except msgspec.ValidationError as error:
            raise RuleError(_("Declaration: {error}", error=validation_text(error, plain))) from None
        if checked.action not in ACTIONS:
            raise RuleError(
                _('Action "{action}" is not one of {known}.', action=checked.action, known=", ".join(ACTIONS))
            )
        if checked.item not in ITEMS:
            raise RuleError(_('Magic item "{item}" is not one of {known}.', item=checked.item, known=", ".join(ITEMS)))
        name = state.combatant(combatant_id).name
        self.refuse_spell_in_free_round(state, combatant_id, checked.action == "spell")
        # A declaration is what it says: no spell unless he casts one, no item unless he uses one.
        if checked.action == "spell":
            if not checked.spell.strip() and not checked.casting.strip():
                raise RuleError(_("{name} casts a spell: choose which, or give its casting time.", name=name))
            checked = replace(checked, item="misc")
        elif checked.action == "item":
            casting = checked.casting if checked.item == "scroll" else ""
            checked = replace(checked, spell="" if checked.item != "scroll" else checked.spell, casting=casting)
        else:
            checked = replace(checked, spell="", casting="", item="misc")
        fight = self.fight_of(state)
        ongoing = fight.castings.get(combatant_id)
        if ongoing is not None and not (checked.action == "spell" and checked.spell == ongoing.spell):
            castings = {cid: c for cid, c in fight.castings.items() if cid != combatant_id}
            state = self.with_fight(state, replace(fight, castings=castings))
            state = log(
                state,
                N_("{name} stops casting {spell}."),
                name=who(state, combatant_id),
                spell=spell_param(ongoing.spell),
            )
        current = self.round_of(state)
        return self.with_round(state, replace(current, declarations={**current.declarations, combatant_id: checked}))

    # -- initiative ----------------------------------------------------------------------------
    def situation_total(self, ids: str | list[str] | tuple[str, ...]) -> int:
        wanted = situation_ids(ids)
        if not wanted:
            return 0
        values = {s.id: s.value for s in tables().initiative.situations}
        return sum(values.get(i, 0) for i in wanted)

    def side_situations(self, state: State, side_id: str) -> list[str]:
        return list(self.round_of(state).side_situations.get(side_id, ()))

    def rolls_at_end(self, state: State, combatant: Combatant) -> bool:
        """A spell of one round or more: no initiative roll, it goes off at the end of the round."""
        if combatant.id in self.fight_of(state).castings:
            return True
        if combatant.id not in self.round_of(state).declarations:  # (nor is he casting: he attacks)
            return False
        declaration = self.declaration_of(state, combatant.id)
        return declaration.action == "spell" and casting_rounds(declaration.casting, tables().time.rounds_per_turn) > 0

    _requests_for: tuple[State, Tables, tuple[RollRequest, ...]] | None = None
    """The last state asked about (with the tables then in use), and its requests."""

    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        # Asked several times of one state by a roll (the screen, the engine, the order): a scan of everyone.
        known = self._requests_for
        if known is not None and known[0] is state and known[1] is tables():
            return known[2]
        requests = self._initiative_requests(state)
        self._requests_for = (state, tables(), requests)
        return requests

    def _initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        method = state.options.get("initiative", "standard")
        dice = tables().initiative.dice
        castings, declared = self.fight_of(state).castings, self.round_of(state).declarations
        acting = [  # (only a caster or one who declared can roll at the end: the rest are not asked about it)
            c
            for c in self.acting(state)
            if not ((c.id in castings or c.id in declared) and self.rolls_at_end(state, c))
        ]
        if method in ("individual", "individual_groups"):
            gathered: dict[str, list[Combatant]] = {}  # (a group of 500 gathered once, not copied at each)
            groups: dict[str, str] = {}  # a group's key → its name without the number ("Orc")
            for combatant in acting:
                key = (combatant.group if method == "individual_groups" else "") or combatant.id
                if key in gathered:
                    gathered[key].append(combatant)
                else:
                    if key == combatant.group:
                        groups[key] = combatant.name.rsplit(" ", 1)[0]
                    gathered[key] = [combatant]
            requests = {
                key: RollRequest(key=key, label=who(state, found[0]), dice=dice, combatants=tuple(c.id for c in found))
                for key, found in gathered.items()
            }
            for key, name in groups.items():  # the players' while they see one of the group
                requests[key] = replace(requests[key], label=group_ref(state, name, requests[key].combatants, key))
            return tuple(requests.values())
        result = []
        for side in state.sides:
            members = tuple(c.id for c in acting if c.side == side.id)
            if not members:
                continue
            modifier = self.situation_total(self.side_situations(state, side.id)) if method == "standard" else 0
            result.append(
                RollRequest(
                    key=side.id, label=side_ref(state, side.id), dice=dice, modifier=modifier, combatants=members
                )
            )
        return tuple(result)

    def own_situations(self, state: State, combatant: Combatant, *, with_side: bool) -> int:
        """Table 55 for him: the situations ticked in his declaration (and his side's, when asked); a caster
        gets no haste modifier (the seed's round 3)."""
        return self._situations(state, combatant, self.declaration_of(state, combatant.id), with_side=with_side)

    def _situations(self, state: State, combatant: Combatant, declaration: Declaration, *, with_side: bool) -> int:
        situations = situation_ids(declaration.situations)
        if with_side:
            situations += self.side_situations(state, combatant.side)
        if declaration.action == "spell":
            situations = [s for s in situations if s != "hasted"]
        return self.situation_total(situations)

    def action_modifier(self, state: State, combatant: Combatant) -> int:
        """Table 55 (own situations) + Table 56 (declared action) for group and individual initiative."""
        sheet = self.sheet(combatant)
        declaration = self.declaration_of(state, combatant.id)
        data = tables().initiative
        modifier = self.own_situations(state, combatant, with_side=True)
        action = self.declared_action(state, combatant.id)
        if action == "weapon":
            modifier += slowest_weapon_speed(sheet)
        elif action == "natural":
            modifier += data.natural_by_size.get(sheet.size, 0)
        elif action == "spell":
            modifier += casting_modifier(declaration.casting)
        elif action == "item":
            if declaration.item == "scroll":
                modifier += casting_modifier(declaration.casting)
            else:
                modifier += data.magic_items.get(declaration.item, 0)
        elif action in ("breath", "innate"):
            modifier += data.actions.get(action, 0)
        return modifier

    def order(self, state: State, totals: dict[str, int]) -> tuple[Slot, ...]:
        """Lowest first; every further attack after all first ones, in the same order; long castings at the
        end of the round."""
        method = state.options.get("initiative", "standard")
        values: dict[str, int] = {}
        strikes: dict[str, int] = {}
        for request in self.initiative_requests(state):
            for combatant_id in request.combatants:
                combatant = state.combatant(combatant_id)
                declaration = self.declaration_of(state, combatant_id)  # once each: 10,000 of them in a mass battle
                value = totals[request.key]
                if method != "standard":
                    value += self.action_modifier(state, combatant)
                else:  # the side's roll and situations, and his own (the archers on the hill)
                    value += self._situations(state, combatant, declaration, with_side=False)
                values[combatant_id] = value
                strikes[combatant_id] = self._attacks(state, combatant, declaration, attacks_this_round) or 0
        slots = group_slots(values, descending=False)
        for number in range(2, max(strikes.values(), default=0) + 1):
            again = {cid: value for cid, value in values.items() if strikes[cid] >= number}
            slots += [
                replace(slot, label=Msg(id=ordinal(number), params={"n": number, "value": slot.value}))
                for slot in group_slots(again, descending=False)
            ]
        end = tuple(c.id for c in self.acting(state) if self.rolls_at_end(state, c))
        if end:
            slots.append(Slot(label=Msg(id=N_("end of round")), combatants=end, value=99))
        return tuple(slots)

    def hasted(self, state: State, combatant: Combatant) -> bool:
        return self._hasted(state, combatant, self.declaration_of(state, combatant.id))

    def _hasted(self, state: State, combatant: Combatant, declaration: Declaration) -> bool:
        return "hasted" in situation_ids(declaration.situations) or "hasted" in self.side_situations(
            state, combatant.side
        )

    def attack_plan_of(self, state: State, combatant: Combatant) -> Plan:
        return self._plan(state, combatant, self.declaration_of(state, combatant.id))

    def _plan(self, state: State, combatant: Combatant, declaration: Declaration) -> Plan:
        """:meth:`attack_plan_of` for his ``declaration``."""
        return self._attacks(state, combatant, declaration, attack_plan) or ()

    def _attacks(
        self, state: State, combatant: Combatant, declaration: Declaration, reckon: Callable[[Sheet, int, str, bool], T]
    ) -> T | None:
        """What ``reckon`` makes of his attacks this round (:func:`attack_plan`, or only how many slots they
        take: :func:`attacks_this_round`); None when he does not attack."""
        sheet = self.sheet(combatant)
        if self._action(sheet, declaration) not in ("weapon", "natural"):
            return None
        return reckon(
            sheet, state.round, state.options.get("three_halves", "even"), self._hasted(state, combatant, declaration)
        )

    # -- spells of a round or more ---------------------------------------------------------------
    def completes_this_round(self, state: State, combatant_id: str) -> bool:
        casting = self.fight_of(state).castings.get(combatant_id)
        if casting is not None:
            return casting.rounds_left <= 1
        declaration = self.declaration_of(state, combatant_id)
        return casting_rounds(declaration.casting, tables().time.rounds_per_turn) <= 1

    def disturb_spell(self, state: State, combatant_id: str) -> State:
        spell = self.declared_spell(state, combatant_id)
        if not spell or self.spell_lost(state, combatant_id):
            return state
        # A spell of several rounds is lost to any hit before its last round is over; otherwise a hit after
        # his slot has come up (or in it: simultaneous) does not disturb him.
        if self.completes_this_round(state, combatant_id) and self.has_acted(state, combatant_id):
            return state
        fight = self.fight_of(state)
        if combatant_id in fight.castings:
            castings = {cid: c for cid, c in fight.castings.items() if cid != combatant_id}
            state = self.with_fight(state, replace(fight, castings=castings))
        return self.lose_spell(state, combatant_id, spell)

    def on_status(self, state: State, combatant_id: str, before: Status) -> State:
        state = super().on_status(state, combatant_id, before)
        fight = self.fight_of(state)
        casting = fight.castings.get(combatant_id)
        if casting is None or state.combatant(combatant_id).status == "active":
            return state
        state = self.with_fight(
            state, replace(fight, castings={c: v for c, v in fight.castings.items() if c != combatant_id})
        )
        return log(
            state,
            N_("{name} no longer casts {spell}."),
            secret=self.declared_in_secret(state, combatant_id),
            name=who(state, combatant_id),
            spell=spell_param(casting.spell),
        )

    def on_round_end(self, state: State) -> State:
        """Spells of one round or more: a new one starts its count; each goes on or, its last round over,
        takes effect. Then effects count down."""
        per_turn = tables().time.rounds_per_turn
        lost = set(self.round_of(state).spells_lost)
        castings = dict(self.fight_of(state).castings)
        declared = self.round_of(state).declarations  # (who declared nothing attacks: he starts no casting)
        for combatant in self.acting(state):
            if combatant.id in castings or combatant.id in lost or combatant.id not in declared:
                continue
            declaration = self.declaration_of(state, combatant.id)
            rounds = casting_rounds(declaration.casting, per_turn) if declaration.action == "spell" else 0
            if rounds > 0:
                castings[combatant.id] = Casting(spell=declaration.spell, rounds_left=rounds)
        going_on: dict[str, Casting] = {}
        for caster, casting in castings.items():
            if caster in lost or state.combatant(caster).status != "active":
                continue
            left = casting.rounds_left - 1
            spell = spell_param(casting.spell)
            # A spell the monsters declared in secret stays the DM's while it is cast and when it goes off
            # (he narrates what the players see of it).
            secret = self.declared_in_secret(state, caster)
            if left <= 0:
                state = log(
                    state,
                    N_("{name}'s {spell} takes effect."),
                    facts={"spell": casting.spell},
                    secret=secret,
                    name=who(state, caster),
                    spell=spell,
                )
            else:
                going_on[caster] = replace(casting, rounds_left=left)
                state = log(
                    state,
                    N_("{name} goes on casting {spell}: {left} to go."),
                    facts={"rounds_left": left},
                    secret=secret,
                    name=who(state, caster),
                    spell=spell,
                    left=duration(left, per_turn),
                )
        state = self.with_fight(state, replace(self.fight_of(state), castings=going_on))
        return self.tick_effects(self.bleed(state))

    # -- ruleset actions -----------------------------------------------------------------------
    def action_available(self, state: State, name: str, combatant_id: str | None) -> bool:
        if state.phase != "round":
            return False
        kind = self.step_kind(state)
        if name == "side_situations":
            return kind in ("declare", "initiative")
        known = combatant_id is not None and combatant_id in state.names()
        if name in ("attack", "main_action"):  # not the fallen: dead, or dying under the option
            return kind == "resolve" and known and state.combatant(str(combatant_id)).status != "down"
        if name == "effect":
            return known
        if name == "bind":  # a dying character's wounds, bound by another (option −10)
            return known and self.condition_word(state, str(combatant_id)) == N_("dying")
        return False

    def action_fields(self, state: State, name: str, combatant_id: str) -> tuple[FieldSpec, ...]:
        if name == "attack":
            return self.attack_fields(state, combatant_id)
        if name == "effect":
            return self.effect_fields(state, combatant_id)
        if name == "main_action":
            return self.anyway_fields(state, combatant_id, False)
        if name == "side_situations":
            side = state.combatant(combatant_id).side if combatant_id in state.names() else ""
            default = side or (state.sides[0].id if state.sides else "")
            return (
                FieldSpec(
                    key="side",
                    label=N_("Side"),
                    kind="choice",
                    default=default,
                    choices=tuple((s.id, s.name) for s in state.sides),
                ),
                *situation_boxes(self.side_situations(state, default)),
            )
        return ()

    def apply_action(self, state: State, name: str, args: dict[str, Any]) -> State:
        if name == "side_situations":
            return self._side_situations(state, args)
        if name == "bind":
            return self.bind_wounds(state, self.anyone(state, str(args.get("combatant", ""))))
        combatant = self.actor(state, str(args.get("combatant", "")))
        if name == "attack":
            return self.attack(state, combatant, args)
        if name == "main_action":
            declaration = self.declaration_of(state, combatant.id)
            if declaration.action == "spell" and self.rolls_at_end(state, combatant):
                raise RuleError(
                    _(
                        "{spell} takes effect by itself at the end of the round.",
                        spell=declaration.spell or _("The spell"),
                    )
                )
            return self.main_action(state, combatant, args)
        if name == "effect":
            return self.start_effect(state, combatant, args)
        raise RuleError(_("Unknown action {name}.", name=name))

    def _side_situations(self, state: State, args: dict[str, Any]) -> State:
        side_id = str(args.get("side", ""))
        if not any(side.id == side_id for side in state.sides):
            raise RuleError(_("No side was chosen, or it is not in this fight."))
        ids = picked_situations(args)
        check_situations(ids)
        current = self.round_of(state)
        return self.with_round(
            state, replace(current, side_situations={**current.side_situations, side_id: tuple(ids)})
        )

    # -- what the screens show -------------------------------------------------------------------
    def public_conditions(self, state: State, combatant_id: str) -> tuple[str, ...]:
        """The book's word for his health ("dying", "dead"): the one condition of the card the players see."""
        word = self.condition_word(state, combatant_id)
        return (after_name(word),) if word else ()

    def details(self, state: State, combatant_id: str) -> tuple[tuple[str, str], ...]:
        combatant = state.combatant(combatant_id)
        sheet = self.sheet(combatant)
        lines = [
            (_("Class"), f"{_(sheet.cls)} {level_text(sheet)}"),
            (_("THAC0 / AC"), f"{thac0(sheet)} / {sheet.ac}" + (f" ({_(sheet.armour)})" if sheet.armour else "")),
        ]
        if sheet.weapon:
            bonus = f" +{sheet.magic}" if sheet.magic else ""
            lines.append((_("Weapon"), f"{_(sheet.weapon)}{bonus} ({_('speed')} {weapon_speed(sheet)})"))
            if sheet.weapon2:
                lines.append((_("Second weapon"), _(sheet.weapon2) + (f" +{sheet.magic2}" if sheet.magic2 else "")))
        elif sheet.natural or sheet.forms:
            lines.append((_("Weapon"), ", ".join(_(form) for form in natural_forms(sheet)) or _("natural weapons")))
        plan = self.attack_plan_of(state, combatant)
        if len(plan) > 1 or (plan and len(plan[0]) > 1):
            lines.append((_("Attacks"), self.plan_text(plan)))
        if sheet.spells:
            lines.append((_("Spells"), sheet.spells))
        if combatant_id in self.round_of(state).declarations:
            lines.append((_("Declared"), str(self.declared_what(state, combatant_id))))
        casting = self.fight_of(state).castings.get(combatant_id)
        if casting is not None:
            left = duration(casting.rounds_left, tables().time.rounds_per_turn)
            lines.append((_("Casting"), f"{casting.spell or _('the spell')}: {left}"))
        if self.spell_lost(state, combatant_id):
            lines.append((_("Spell"), _("LOST")))
        effects = self.effects_on(state, combatant_id)
        if effects:
            lines.append((_("Effects"), "; ".join(str(effect) for effect in effects)))
        word = self.condition_word(state, combatant_id)
        if word:
            lines.append((_("Condition"), _(word)))
        return tuple(lines)
