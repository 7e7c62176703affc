"""Legendary actions, Legendary Resistance's count, special abilities that recharge, and the keys for them and for
temporary hit points (SRD 5.1 "Legendary Creatures", "Recharge X–Y").

* **Legendary actions** (the sheet's ``legendary`` a round): taken one at a time (``legendary``, key ``l``; one
  may cost more), only at the end of another creature's turn (the key is offered while someone else acts, and
  the log reminds the DM as each other creature's turn ends), never while incapacitated; spent ones come back
  when its own turn starts.
* **Special abilities** (the sheet's ``abilities``, :mod:`.abilities`): each is offered to the area form
  (:meth:`~Dnd5eLegendary.special_abilities`), ready or not. One with a recharge starts the fight ready; used by
  an area, it is spent; when the creature's turn starts, a d6 is asked for each spent one (``recharge``, key
  ``k``): on its range it is ready again.
"""

from __future__ import annotations

import threading
from typing import Any

from msgspec.structs import replace

from tui_combat.engine.audience import behind, hint, typed, who, whos
from tui_combat.engine.contract import ActionSpec, BudgetLine, FieldSpec
from tui_combat.engine.dice import Roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, Param, log, roll_param
from tui_combat.engine.model import Combatant, State
from tui_combat.engine.saves import SpecialAbility, dice_key
from tui_combat.i18n import N_, _
from tui_combat.rulesets.dnd5e.abilities import Ability, find_ability, parse_abilities, recharge_text
from tui_combat.rulesets.dnd5e.actions import CATALOGUE
from tui_combat.rulesets.dnd5e.base import int_arg, roll_arg
from tui_combat.rulesets.dnd5e.saving import Dnd5eSaving
from tui_combat.rulesets.dnd5e.sheet import sheet_of
from tui_combat.rulesets.dnd5e.stat_words import ability_name

__all__ = ["FIGHT_CATALOGUE", "Dnd5eLegendary"]

FIGHT_CATALOGUE = (
    ActionSpec(name="legendary", key="l", label=N_("Legendary action")),
    ActionSpec(name="recharge", key="k", label=N_("Recharge roll")),
    ActionSpec(name="temp_hp", key="p", label=N_("Temporary hit points"), footer=False),
)
"""The keys of this module: what applies only now and then, first (the footer leaves out its last keys)."""
KEY = Msg(id=N_(" (key {key})"), params={"key": "l"})
RECHARGE_KEY = Msg(id=N_(" (key {key})"), params={"key": "k"})
RECHARGE_DIE = "1d6"
ABILITY = "ability:"
"""The *use* form's choice of an ability that only recharges: "ability:Teleport"."""


_LEGENDARY: dict[int, tuple[tuple[Combatant, ...], tuple[str, ...]]] = {}
_LOCK = threading.Lock()
"""The ids of the creatures with legendary actions, by the identity of the combatants tuple they were found in
(the last few): a turn ending in a fight of thousands looks at them, not at everyone."""


def legendary_ones(combatants: tuple[Combatant, ...]) -> tuple[str, ...]:
    found = _LEGENDARY.get(id(combatants))
    if found is not None and found[0] is combatants:
        return found[1]
    ones = tuple(c.id for c in combatants if c.sheet.get("legendary"))
    with _LOCK:
        while len(_LEGENDARY) >= 8:
            _LEGENDARY.pop(next(iter(_LEGENDARY)))
        _LEGENDARY[id(combatants)] = (combatants, ones)
    return ones


class Dnd5eLegendary(Dnd5eSaving):
    actions = (*CATALOGUE[:3], *FIGHT_CATALOGUE, *CATALOGUE[3:])

    # -- legendary actions ---------------------------------------------------------------------------------------
    def legendary_left(self, state: State, combatant_id: str) -> tuple[int, int]:
        """Legendary actions (left, a round)."""
        total = sheet_of(state.combatant(combatant_id)).legendary
        return max(total - self.spent_of(state, combatant_id).legendary, 0), total

    def may_act_legendarily(self, state: State, combatant_id: str) -> bool:
        """Offered now: in the turns, while another creature acts, with one left, able to act."""
        combatant = state.combatant(combatant_id)
        return (
            self.step_kind(state) == "resolve"
            and combatant.status == "active"
            and combatant_id not in self.acting(state)
            and self.legendary_left(state, combatant_id)[0] > 0
            and not self.incapacitated_by(state, combatant_id)
        )

    def legendary_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        left, _total = self.legendary_left(state, combatant_id)
        return (
            FieldSpec(key="note", label=N_("What it does"), help=N_("Pounce, a Rend attack")),
            FieldSpec(
                key="cost",
                label=_("Costs (of {left} left)", left=left),
                kind="int",
                default=1,
                minimum=1,
                maximum=max(left, 1),
            ),
        )

    def take_legendary(self, state: State, combatant: Combatant, args: dict[str, Any]) -> State:
        left, total = self.legendary_left(state, combatant.id)
        if not total:
            raise RuleError(_("{name} has no legendary actions.", name=combatant.name))
        cause = self.incapacitated_by(state, combatant.id)
        if cause:
            raise RuleError(_("{name} is {condition}: no legendary actions.", name=combatant.name, condition=_(cause)))
        if combatant.id in self.acting(state):
            raise RuleError(
                _(
                    "{name} takes legendary actions at the end of another creature's turn, not in its own.",
                    name=combatant.name,
                )
            )
        cost = int_arg(args, "cost", 1, N_("Costs"))
        if cost < 1 or cost > left:
            raise RuleError(_("{name} has {left} legendary actions left.", name=combatant.name, left=left))
        spent = self.spent_of(state, combatant.id)
        state = self.spend(state, combatant.id, replace(spent, legendary=spent.legendary + cost))
        note = str(args.get("note", "") or "").strip()
        what: Param = Msg(id=N_(": {note}"), params={"note": typed(note)}) if note else ""
        name = who(state, combatant)
        return log(
            state,
            N_("{name} takes a legendary action{note}: {left} of {total} left."),
            facts={"legendary": cost, "left": left - cost},
            name=name,
            note=what,
            left=behind(left - cost),
            total=behind(total),
            public=Msg(id=N_("{name} takes a legendary action{note}."), params={"name": name, "note": what}),
        )

    def on_turn_end(self, state: State, slot: int) -> State:
        """The end of a creature's turn: the DM is reminded of the legendary actions others may take now."""
        state = super().on_turn_end(state, slot)
        ending = set(state.order[slot].combatants) if 0 <= slot < len(state.order) else set()
        ready = [
            c.id
            for c in state.present(legendary_ones(state.combatants))
            if c.id not in ending
            and c.status == "active"
            and self.legendary_left(state, c.id)[0] > 0
            and not self.incapacitated_by(state, c.id)
        ]
        if not ready:
            return state
        return log(
            state,
            N_("Legendary actions may be taken now: {names}{key}."),
            secret=True,
            facts={"legendary_offered": True},
            names=whos(state, ready),
            key=hint(KEY),
        )

    # -- special abilities and their recharge ------------------------------------------------------------------
    @staticmethod
    def abilities_of(combatant: Combatant) -> tuple[Ability, ...]:
        return parse_abilities(sheet_of(combatant).abilities)

    def spent_abilities(self, state: State, combatant_id: str) -> tuple[str, ...]:
        return self.fight_of(state).spent_abilities.get(combatant_id, ())

    def abilities_now(self, state: State, combatant_id: str) -> list[tuple[Ability, bool]]:
        """His special abilities, each with whether it is ready."""
        spent = {name.casefold() for name in self.spent_abilities(state, combatant_id)}
        return [
            (ability, ability.name.casefold() not in spent)
            for ability in self.abilities_of(state.combatant(combatant_id))
        ]

    @staticmethod
    def ability_note(ability: Ability, ready: bool) -> Msg | str:
        """ "recharge 5–6: ready, cone 60 ft", as the card and the area form say it."""
        parts: list[str | int | Msg] = []
        if ability.recharge:
            parts.append(
                Msg(
                    id=N_("recharge {range}: ready") if ready else N_("recharge {range}: not ready"),
                    params={"range": recharge_text(ability)},
                )
            )
        if ability.area:
            parts.append(typed(ability.area))
        return Msg(id="{parts}", params={"parts": parts}) if parts else ""

    def special_abilities(self, state: State, combatant_id: str) -> tuple[SpecialAbility, ...]:
        return tuple(
            SpecialAbility(
                name=ability.name,
                damage=ability.damage,
                kind=ability.kind,
                save=ability.save,
                dc=ability.dc,
                on_save=ability.on_save,
                ready=ready,
                note=self.ability_note(ability, ready),
            )
            for ability, ready in self.abilities_now(state, combatant_id)
            if ability.is_area
        )

    def ready_to_use(self, state: State, combatant_id: str) -> list[Ability]:
        """His abilities that only recharge (no area: a Teleport) and are ready: the *use* key spends them."""
        spent = {name.casefold() for name in self.spent_abilities(state, combatant_id)}
        return [
            ability
            for ability in self.abilities_of(state.combatant(combatant_id))
            if ability.recharge and not ability.is_area and ability.name.casefold() not in spent
        ]

    def use_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        fields = super().use_fields(state, combatant_id)
        ready = self.ready_to_use(state, combatant_id)
        if not ready:
            return fields
        what = fields[0]
        return (
            replace(
                what,
                choices=(
                    *what.choices,
                    *((f"{ABILITY}{ability.name}", ability_name(ability.name)) for ability in ready),
                ),
            ),
            *fields[1:],
        )

    def use(self, state: State, combatant: Combatant, args: dict[str, Any]) -> State:
        what = str(args.get("what", ""))
        if not what.startswith(ABILITY):
            return super().use(state, combatant, args)
        name = what.removeprefix(ABILITY)
        note = str(args.get("note", "") or "").strip()
        state = log(
            state,
            N_("{name} uses {what}{note}."),
            facts={"uses": name},
            name=who(state, combatant),
            what=typed(ability_name(name)),
            note=Msg(id=N_(": {note}"), params={"note": typed(note)}) if note else "",
        )
        return self.on_ability_used(state, combatant.id, name)

    def on_ability_used(self, state: State, combatant_id: str, ability: str) -> State:
        combatant = state.combatant(combatant_id)
        found = find_ability(self.abilities_of(combatant), ability)
        if found is None:
            raise RuleError(_("{name} has no special ability called {ability}.", name=combatant.name, ability=ability))
        if not found.recharge:
            return state
        spent = self.spent_abilities(state, combatant_id)
        if any(name.casefold() == found.name.casefold() for name in spent):
            raise RuleError(
                _(
                    "{ability} is not ready: it recharges on {range} at the start of {name}'s turn.",
                    ability=found.name,
                    range=recharge_text(found),
                    name=combatant.name,
                )
            )
        fight = self.fight_of(state)
        state = self.with_fight(
            state, replace(fight, spent_abilities={**fight.spent_abilities, combatant_id: (*spent, found.name)})
        )
        return log(
            state,
            N_("{name}'s {ability} is spent: it recharges on {range} at the start of its turn."),
            secret=True,
            facts={"spent": found.name},
            name=who(state, combatant),
            ability=typed(ability_name(found.name)),
            range=recharge_text(found),
        )

    def on_turn_start(self, state: State, slot: int) -> State:
        """At the start of its turn a creature's legendary actions come back (with the rest of its budget) and a
        d6 is asked for each of its abilities waiting to recharge."""
        state = super().on_turn_start(state, slot)
        if not 0 <= slot < len(state.order):
            return state
        for combatant_id in state.order[slot].combatants:
            spent = self.spent_abilities(state, combatant_id)
            if not spent or not state.has(combatant_id) or state.combatant(combatant_id).status != "active":
                continue
            fight = self.fight_of(state)
            if combatant_id not in fight.recharge_due:
                state = self.with_fight(state, replace(fight, recharge_due=(*fight.recharge_due, combatant_id)))
            state = log(
                state,
                N_("{name}: a d6 for each ability to recharge ({abilities}){key}."),
                secret=True,
                facts={"recharge_due": True},
                name=who(state, combatant_id),
                abilities=[typed(ability_name(name)) for name in spent],
                key=hint(RECHARGE_KEY),
            )
        return state

    def recharge_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        abilities = self.abilities_of(state.combatant(combatant_id))
        fields = []
        for index, name in enumerate(self.spent_abilities(state, combatant_id)):
            found = find_ability(abilities, name)
            shown = ability_name(name)  # the sheet's English name, in the GM's language
            label = _("{ability}: recharges on {range}", ability=shown, range=recharge_text(found)) if found else shown
            fields.append(FieldSpec(key=f"roll{index}", label=label, kind="roll", default=RECHARGE_DIE))
        return tuple(fields)

    def recharge(self, state: State, combatant: Combatant, args: dict[str, Any]) -> State:
        fight = self.fight_of(state)
        if combatant.id not in fight.recharge_due:
            raise RuleError(
                _("{name} rolls to recharge at the start of its turn, when an ability is spent.", name=combatant.name)
            )
        abilities = self.abilities_of(combatant)
        still: list[str] = []
        rolled: list[tuple[str, Roll, bool]] = []
        for index, name in enumerate(self.spent_abilities(state, combatant.id)):
            roll = roll_arg(args, f"roll{index}", N_("Recharge roll"))
            if (roll.expr and dice_key(roll.expr) != dice_key(RECHARGE_DIE)) or not 1 <= roll.total <= 6:
                raise RuleError(
                    _("A recharge is rolled with {dice}, not {rolled}.", dice=RECHARGE_DIE, rolled=roll.expr)
                )
            found = find_ability(abilities, name)
            ready = found is None or roll.total >= found.recharge
            rolled.append((name, roll, ready))
            if not ready:
                still.append(name)
        spent = {key: value for key, value in fight.spent_abilities.items() if key != combatant.id}
        if still:
            spent[combatant.id] = tuple(still)
        state = self.with_fight(
            state,
            replace(
                fight,
                spent_abilities=spent,
                recharge_due=tuple(due for due in fight.recharge_due if due != combatant.id),
            ),
        )
        for name, roll, ready in rolled:
            state = log(
                state,
                N_("{name}: {ability} recharge {roll}: {result}."),
                rolls=(roll,),
                facts={"recharged": ready},
                name=who(state, combatant),
                ability=typed(ability_name(name)),
                roll=roll_param(roll),
                result=Msg(id=N_("ready") if ready else N_("not ready")),
            )
        return state

    # -- the keys ----------------------------------------------------------------------------------------------
    def action_available(self, state: State, name: str, combatant_id: str | None) -> bool:
        if name not in ("legendary", "recharge", "temp_hp"):
            return super().action_available(state, name, combatant_id)
        if state.phase != "round" or combatant_id is None or not state.has(combatant_id):
            return False
        if name == "legendary":
            return self.may_act_legendarily(state, combatant_id)
        if name == "recharge":
            return combatant_id in self.fight_of(state).recharge_due
        return True

    def action_fields(self, state: State, name: str, combatant_id: str) -> tuple[FieldSpec, ...]:
        if name == "legendary":
            return self.legendary_fields(state, combatant_id)
        if name == "recharge":
            return self.recharge_fields(state, combatant_id)
        if name == "temp_hp":
            return self.temp_hp_fields(state, combatant_id)
        return super().action_fields(state, name, combatant_id)

    def apply_action(self, state: State, name: str, args: dict[str, Any]) -> State:
        if name == "legendary":
            return self.take_legendary(state, self.actor(state, str(args.get("combatant", ""))), args)
        if name == "recharge":
            return self.recharge(state, self.actor(state, str(args.get("combatant", ""))), args)
        if name == "temp_hp":
            return self.set_temp_hp(state, self.someone(state, str(args.get("combatant", ""))), args)
        return super().apply_action(state, name, args)

    def budget(self, state: State, combatant_id: str) -> tuple[BudgetLine, ...]:
        lines = list(super().budget(state, combatant_id))
        sheet = sheet_of(state.combatant(combatant_id))
        if sheet.legendary:
            left, total = self.legendary_left(state, combatant_id)
            lines.append(BudgetLine(label=_("Legendary actions"), left=left, total=total))
        if sheet.legendary_resistance:
            lines.append(
                BudgetLine(
                    label=_("Legendary Resistance"),
                    left=self.legendary_resistance(state, combatant_id),
                    total=sheet.legendary_resistance,
                )
            )
        return tuple(lines)
