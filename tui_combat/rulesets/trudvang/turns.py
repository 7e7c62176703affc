"""The actions about *when* a combatant acts: hold, act on a held action, skip the turn, change the action,
and the GM's release of a grappled combatant.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from tui_combat.engine.audience import who
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, Param, log
from tui_combat.engine.model import Combatant, Slot, State
from tui_combat.i18n import N_, _
from tui_combat.rulesets.trudvang.base import convert_args, signed
from tui_combat.rulesets.trudvang.countdown import HELD, Countdown
from tui_combat.rulesets.trudvang.data import SHIELD, norm
from tui_combat.rulesets.trudvang.sheet import NAME_AND_NUMBER, read_int, split_outside_parentheses
from tui_combat.rulesets.trudvang.state import Bonus, Declaration, RoundInfo, Turn, Used

__all__ = ["TurnActions"]


class CombatantArgs(msgspec.Struct, frozen=True, kw_only=True):
    combatant: str


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


def one_after_another(names: list[Msg]) -> Param:
    """ "A, then B, then C" as a log parameter."""
    if len(names) == 1:
        return names[0]
    return Msg(id=N_("{first}, then {rest}"), params={"first": names[0], "rest": one_after_another(names[1:])})


class TurnActions(Countdown):
    def declare(self, state: State, combatant_id: str, declaration: dict[str, Any]) -> State:
        """A declaration is a change of action: before the roll it only records the choice; after it
        the new IMs re-sort the countdown, and once his call has come it is refused."""
        return self.change_action(state, {"combatant": combatant_id, "declaration": declaration})

    # -- hold and act held -----------------------------------------------------------------------------
    def hold(self, state: State, raw: dict[str, Any]) -> State:
        args = convert_args(raw, CombatantArgs, "hold")
        combatant = self.acting(state, args.combatant)
        info = self.round_of(state)
        turn = self.own_turn(state, combatant, info)
        if turn.acted_held:
            raise RuleError(_("{name} is already acting on a held action.", name=combatant.name))
        if turn.acted:
            raise RuleError(_("{name} has already acted this turn: he cannot hold now.", name=combatant.name))
        info = self.with_turn(info, combatant.id, replace(turn, held=True))
        state = self.with_round(self.remove_from_order(state, combatant.id), info)
        penalty = self.data.rules.held_penalty
        return log(
            state,
            N_("{name} holds his action ({penalty} on what he does when he acts)."),
            facts={"penalty": penalty},
            name=who(state, combatant),
            penalty=signed(penalty),
        )

    def act_held(self, state: State, raw: dict[str, Any]) -> State:
        args = convert_args(raw, ActHeldArgs, "act_held")
        named = args.combatants.split(",") if isinstance(args.combatants, str) else list(args.combatants)
        named += [args.combatant, *args.together.split(",")]
        ids = list(dict.fromkeys(self.combatant_called(state, text) for text in named if text.strip()))
        tiebreak = self._tiebreak(state, args.tiebreak)
        if not ids:
            raise RuleError(_("Say who acts on a held action."))
        if self.step_kind(state) != "resolve":
            raise RuleError(_("Held actions are taken during the countdown."))
        info = self.round_of(state)
        combatants = [self.acting(state, cid) for cid in ids]
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
            if any(c.id not in tiebreak for c in tied):
                raise RuleError(
                    _(
                        "{names} have the same Combat SV ({sv}): each rolls 1d10, highest first.",
                        names=", ".join(c.name for c in tied),
                        sv=sv,
                    )
                )
            values = [tiebreak[c.id] for c in tied]
            if any(not 1 <= v <= 10 for v in values):
                raise RuleError(_("A tie-break roll is 1d10 (1 to 10)."))
            if len(set(values)) < len(values):
                raise RuleError(_("The 1d10 tie-break is tied again: roll again."))
        ordered = sorted(combatants, key=lambda c: (-svs[c.id], -tiebreak.get(c.id, 0)))
        for combatant in ordered:
            info = self.with_turn(info, combatant.id, replace(info.turns[combatant.id], held=False, acted_held=True))
        if state.cursor < len(state.order):
            value = state.order[state.cursor].value
        else:
            value = state.order[-1].value if state.order else 0
        slots = [Slot(label=HELD, combatants=(c.id,), value=value) for c in ordered]
        order = list(state.order)
        at = state.cursor + 1 if args.after and state.cursor < len(order) else min(state.cursor, len(order))
        order[at:at] = slots
        state = self.with_round(replace(state, order=tuple(order), cursor=at), info)
        penalty = self.data.rules.held_penalty
        said = N_("Held action now: {names} ({penalty} on that turn's actions).")
        # "A, then B" names each one: the players read those they see, in the same order.
        seen = [who(state, c) for c in ordered if not c.hidden]
        public = Msg(id=said, params={"names": one_after_another(seen), "penalty": signed(penalty)}) if seen else None
        return log(
            state,
            said,
            facts={"penalty": penalty},
            public=public,
            names=one_after_another([who(state, c) for c in ordered]),
            penalty=signed(penalty),
        )

    def combatant_called(self, state: State, text: str) -> str:
        """The id of the combatant named ``text`` (his name, or his id)."""
        wanted = text.strip()
        if state.has(wanted):
            return wanted
        for combatant in state.combatants:
            if norm(combatant.name) == norm(wanted):
                return combatant.id
        raise RuleError(_('No combatant called "{name}".', name=wanted))

    def _tiebreak(self, state: State, value: dict[str, int] | str) -> dict[str, int]:
        if isinstance(value, dict):
            return {self.combatant_called(state, key): roll for key, roll in value.items()}
        result: dict[str, int] = {}
        for part in split_outside_parentheses(value, ",;"):
            match = NAME_AND_NUMBER.match(part)
            if match is None or not match["name"].strip():
                raise RuleError(_('Cannot read the tie-break "{text}": write "name roll, name roll".', text=part))
            result[self.combatant_called(state, match["name"])] = read_int(
                match["level"], _("Tie-break"), match["name"]
            )
        return result

    # -- skip ------------------------------------------------------------------------------------------
    def skip(self, state: State, raw: dict[str, Any]) -> State:
        args = convert_args(raw, CombatantArgs, "skip")
        combatant = self.acting(state, args.combatant)
        info = self.round_of(state)
        kind = self.step_kind(state)
        turn = info.turns.get(combatant.id, Turn())
        if kind == "end":
            raise RuleError(_("The round is over."))
        if turn.skipped:
            raise RuleError(_("{name} has already given up his turn.", name=combatant.name))
        if turn.acted:
            raise RuleError(_("{name} has already acted this round: he cannot give up his turn.", name=combatant.name))
        if (
            kind == "resolve"
            and not turn.held
            and combatant.id not in state.acting_now()
            and self.called(state, combatant.id, info)
        ):
            raise RuleError(_("{name}'s turn has passed.", name=combatant.name))
        info = self.with_turn(info, combatant.id, replace(turn, skipped=True, held=False))
        state = self.with_round(self.remove_from_order(state, combatant.id), info)
        carry = self.fight_of(state)
        bonus = Bonus(round=state.round + 1, value=self.data.rules.skip_bonus)
        state = self.with_fight(state, replace(carry, init_bonus={**carry.init_bonus, combatant.id: bonus}))
        return log(
            state,
            N_("{name} gives up his turn: only parries this round, {bonus} to initiative next round."),
            facts={"bonus": bonus.value, "next_round": bonus.round},
            name=who(state, combatant),
            bonus=signed(bonus.value),
        )

    # -- change of action ------------------------------------------------------------------------------
    def change_action(self, state: State, raw: dict[str, Any]) -> State:
        args = convert_args(raw, ChangeArgs, "change_action")
        combatant = self.acting(state, args.combatant)
        info = self.round_of(state)
        kind = self.step_kind(state)
        if args.declaration is not None:
            wanted = dict(args.declaration)
        else:
            wanted = {k: v for k, v in raw.items() if k in Declaration.__struct_fields__ and v != ""}
        declaration, new_used = self.read_declaration(state, combatant.id, wanted)
        key = combatant.group or combatant.id
        members = self.members(state, key) if combatant.group else (combatant.id,)
        if kind == "end":
            raise RuleError(_("The round is over."))
        if kind == "resolve" and self.called(state, combatant.id, info):
            raise RuleError(
                _(
                    "{name}'s call has come: he can no longer change his action (parries and free actions excepted).",
                    name=combatant.name,
                )
            )
        rolled = key in info.modifiers
        if kind == "resolve" and not rolled:
            raise RuleError(_("{name} has no initiative this round.", name=combatant.name))
        info = replace(info, declarations={**info.declarations, **{cid: declaration for cid in members}})
        if not rolled:
            return log(
                self.with_round(state, info),
                N_("{name} chooses: {what}."),
                name=who(state, combatant),
                what=self.describe_used(state, combatant.id, new_used),
            )
        old_modifier = info.modifiers[key]
        before = self.value_of(state, info, combatant.id)
        new_modifier = self.init_modifier(state, combatant.id, new_used, bonus=not combatant.group)
        info = replace(info, modifiers={**info.modifiers, key: new_modifier})
        state = self.with_round(state, info)
        if kind == "resolve":
            state = self.reorder(state, info, set(members))
        else:
            state = replace(state, order=self.order(state, self.initiative_totals(state)), cursor=0)
        after = self.value_of(state, info, combatant.id)
        index = self.slot_index(state, combatant.id)
        call: Param = state.order[index].label if index is not None else "?"
        name, what = who(state, combatant), self.describe_used(state, combatant.id, new_used)
        # A foe's IMs and initiative are behind the screen: the players read what he now uses.
        return log(
            state,
            N_("{name} changes his action to {what}: IM {old} → {new}, initiative {before} → {after} (call {call})."),
            facts={"im": new_modifier, "initiative": after or 0},
            public=Msg(id=N_("{name} changes his action to {what}."), params={"name": name, "what": what}),
            name=name,
            what=what,
            old=self.figure(state, combatant.id, signed(old_modifier)),
            new=self.figure(state, combatant.id, signed(new_modifier)),
            before=self.figure(state, combatant.id, before),
            after=self.figure(state, combatant.id, after),
            call=call,
        )

    def describe_used(self, state: State, cid: str, used: Used) -> Param:
        """What he uses, as a log parameter: "Broadsword, Seax in the off hand, Medium shield"."""
        sheet = self.sheet(state, cid)
        parts: list[str | int | Msg] = [used.weapon.name if used.weapon else Msg(id=N_("unarmed"))]
        if used.offhand is not None:
            parts.append(Msg(id=N_("{weapon} in the off hand"), params={"weapon": used.offhand.name}))
        if used.shield and sheet.shield:
            parts.append(self.data.shields[sheet.shield].name)
        if used.spell_im:
            parts.append(Msg(id=N_("spell IM {im}"), params={"im": signed(used.spell_im)}))
        return parts

    def add_to_declaration(self, state: State, combatant: Combatant, item: str, used: Used) -> tuple[State, RoundInfo]:
        """Before his call a parry with an item whose IM was not counted adds that IM to his initiative."""
        stored = self.round_of(state).declarations.get(combatant.id, Declaration())
        declaration: dict[str, Any] = msgspec.to_builtins(stored)
        if item == SHIELD:
            declaration["shield"] = True
        elif used.weapon is None:
            declaration["weapon"] = item
        elif used.offhand is None:
            declaration["offhand"] = item
        else:
            raise RuleError(
                _(
                    "{name} declared a weapon in each hand ({a}, {b}): change the action to parry with the {item}.",
                    name=combatant.name,
                    a=used.weapon.name,
                    b=used.offhand.name,
                    item=item.lower(),
                )
            )
        if "weapon" not in declaration and used.weapon is not None:
            declaration["weapon"] = used.weapon.name
        state = self.change_action(state, {"combatant": combatant.id, "declaration": declaration})
        return state, self.round_of(state)

    # -- release ---------------------------------------------------------------------------------------
    def release(self, state: State, raw: dict[str, Any]) -> State:
        args = convert_args(raw, CombatantArgs, "release")
        combatant = self.acting(state, args.combatant)
        grappled = self.holders(state)
        if combatant.id not in grappled:
            raise RuleError(_("{name} is not held by anyone.", name=combatant.name))
        state = self.with_holders(state, {k: v for k, v in grappled.items() if k != combatant.id})
        return log(state, N_("{name} is released."), name=who(state, combatant))
