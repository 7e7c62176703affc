"""Initiative and the countdown: who rolls, the calls (20, 15, 10, 9 … 1, ≤0), the slots, and rebuilding
the order when someone holds, skips or changes his action.

The engine keeps each roll with its faces (``State.initiative.rolls``, by roll key); this ruleset keeps
the IMs applied to each roll (``RoundInfo.modifiers``), which a change of action changes. A combatant's
initiative is his roll plus those IMs, plus, inside an NPC group, his own bonus for a skipped turn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from msgspec.structs import replace

from tui_combat.engine.audience import group_ref, who
from tui_combat.engine.dice import Roll
from tui_combat.engine.initiative import settle, totals
from tui_combat.engine.log import Msg, log
from tui_combat.engine.model import RollRequest, Slot, State
from tui_combat.i18n import N_
from tui_combat.rulesets.trudvang.base import TrudvangBase, signed
from tui_combat.rulesets.trudvang.state import RoundInfo, Turn

__all__ = ["HELD", "Countdown"]

HELD = Msg(id=N_("held"))
"""The label of a slot inserted for a held action."""


class Countdown(TrudvangBase):
    # -- who rolls -------------------------------------------------------------------------------------
    def roll_keys(self, state: State) -> dict[str, tuple[str, ...]]:
        """Roll key (combatant id, or NPC group id) → its active combatants not skipping this round."""
        info = self.round_of(state)
        keys: dict[str, list[str]] = {}
        for combatant in state.combatants:
            if combatant.status != "active" or info.turns.get(combatant.id, Turn()).skipped:
                continue
            keys.setdefault(combatant.group or combatant.id, []).append(combatant.id)
        return {key: tuple(members) for key, members in keys.items()}

    def members(self, state: State, key: str) -> tuple[str, ...]:
        return tuple(c.id for c in state.combatants if (c.group or c.id) == key)

    def apart_bonus(self, state: State, cid: str) -> int:
        """A group member's own bonus for a turn he skipped: added to the group's roll for him alone."""
        return self.carried_bonus(state, cid) if state.combatant(cid).group else 0

    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        """One open-ended 1d10 per combatant or NPC group. A group rolls with the IMs of its first
        member; a member's bonus for a skipped turn is his own (:meth:`apart_bonus`)."""
        requests = []
        for key, members in self.roll_keys(state).items():
            first = state.combatant(members[0])
            if len(members) > 1:
                label = Msg(
                    id="{name} ×{count}",
                    params={
                        "name": group_ref(state, first.name.rsplit(" ", 1)[0], members, key),
                        "count": len(members),
                    },
                )
            else:
                label = who(state, first)
            modifier = self.init_modifier(state, first.id, bonus=not first.group)
            requests.append(
                RollRequest(
                    key=key, label=label, dice=self.data.rules.initiative_dice, modifier=modifier, combatants=members
                )
            )
        return tuple(requests)

    def settle_initiative(self, state: State, rolls: Mapping[str, Roll]) -> State:
        requests = self.initiative_requests(state)
        info = replace(self.round_of(state), modifiers={r.key: r.modifier for r in requests if r.key in rolls})
        state = self.with_round(state, info)
        group_totals = totals(requests, rolls)
        for request in requests:
            if len(request.combatants) < 2 or request.key not in group_totals:
                continue
            for cid in request.combatants:
                bonus = self.apart_bonus(state, cid)
                if bonus:
                    value = group_totals[request.key] + bonus
                    state = log(
                        state,
                        N_("{name} acts apart from his group: {roll} {bonus} for his skipped turn = {value}."),
                        facts={"initiative": value, "bonus": bonus},
                        name=who(state, cid),
                        roll=group_totals[request.key],
                        bonus=signed(bonus),
                        value=value,
                    )
        return settle(state, self.order(state, group_totals))

    def order(self, state: State, totals: dict[str, int]) -> tuple[Slot, ...]:
        values: dict[str, int] = {}
        for key, members in self.roll_keys(state).items():
            if key in totals:
                for cid in members:
                    values[cid] = totals[key] + self.apart_bonus(state, cid)
        return self.labelled(tuple(self.slots(values)))

    def value_of(self, state: State, info: RoundInfo, cid: str) -> int | None:
        """The combatant's initiative this round (None before his roll)."""
        key = state.combatant(cid).group or cid
        roll = state.initiative.rolls.get(key)
        modifier = info.modifiers.get(key)
        if roll is None or modifier is None:
            return None
        return roll.total + modifier + self.apart_bonus(state, cid)

    def initiative_totals(self, state: State) -> dict[str, int]:
        """Roll key → that roll plus its IMs this round."""
        info = self.round_of(state)
        rolls = state.initiative.rolls
        return {key: rolls[key].total + modifier for key, modifier in info.modifiers.items() if key in rolls}

    # -- the calls and the slots -----------------------------------------------------------------------
    def call(self, value: int) -> int:
        """The countdown call a total is acted at: 20 (20+), 15 (15–19), 10 (10–14), 9 … 1, 0 (≤0)."""
        calls = self.data.rules.calls
        if value >= calls[-1]:
            return next(c for c in calls if value >= c)
        return max(value, 0)

    def call_label(self, value: int) -> Msg:
        call = self.call(value)
        return Msg(id="{value}", params={"value": call}) if call > 0 else Msg(id=N_("≤0"))

    def slot_label(self, value: int) -> Msg:
        """A slot's label: its call, with the initiative when the call covers more than one ("15 (17)",
        "≤0 (-2)"), so that two slots at one call read apart."""
        call = self.call(value)
        if value == call:
            return self.call_label(value)
        return Msg(id=N_("{call} ({value})"), params={"call": self.call_label(value), "value": value})

    def labelled(self, slots: tuple[Slot, ...]) -> tuple[Slot, ...]:
        """The order with the slots that share a call told apart by :meth:`slot_label`; the others (and
        held actions) labelled by their call alone."""
        shared = Counter(self.call(slot.value) for slot in slots if slot.label != HELD)
        return tuple(
            slot
            if slot.label == HELD
            else replace(
                slot,
                label=self.slot_label(slot.value) if shared[self.call(slot.value)] > 1 else self.call_label(slot.value),
            )
            for slot in slots
        )

    def slots(self, values: Mapping[str, int]) -> list[Slot]:
        """Each distinct initiative is its own slot (equal values act together), highest first; several
        slots may share one call (:meth:`labelled` tells them apart)."""
        by_value: dict[int, list[str]] = {}
        for cid, value in values.items():
            by_value.setdefault(value, []).append(cid)
        return [
            Slot(label=self.call_label(value), combatants=tuple(ids), value=value)
            for value, ids in sorted(by_value.items(), reverse=True)
        ]

    # -- rebuilding the order --------------------------------------------------------------------------
    def reorder(self, state: State, info: RoundInfo, changed: set[str]) -> State:
        """Rebuild the slots after the cursor from the initiatives; ``changed`` have a new value.

        Slots up to the cursor have been called and stay. A changed combatant whose new value is later
        than the current position takes his place among the rest; one whose value has already been
        called acts right after the current slot (in it, when his value equals the current one).
        """
        order = list(state.order)
        cursor = state.cursor
        past = order[: cursor + 1]
        values: dict[str, int] = {}
        for slot in order[cursor + 1 :]:
            for cid in slot.combatants:
                if cid not in changed:
                    value = self.value_of(state, info, cid)
                    values[cid] = slot.value if value is None else value
        position = order[min(cursor, len(order) - 1)].value if order else None
        current = order[cursor] if cursor < len(order) else None
        early: dict[str, int] = {}
        joining: list[str] = []
        for combatant in state.combatants:  # in the order they were added
            cid = combatant.id
            if cid not in changed or combatant.status != "active" or info.turns.get(cid, Turn()).skipped:
                continue
            value = self.value_of(state, info, cid)
            if value is None:
                continue
            if current is not None and value == current.value and current.label != HELD:
                joining.append(cid)
            elif position is not None and value >= position:
                early[cid] = value
            else:
                values[cid] = value
        if joining and current is not None:
            past[-1] = replace(current, combatants=(*current.combatants, *joining))
        new_order = self.labelled(
            tuple(slot for slot in (*past, *self.slots(early), *self.slots(values)) if slot.combatants)
        )
        return replace(state, order=new_order, cursor=cursor)

    def remove_from_order(self, state: State, cid: str) -> State:
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
        return replace(state, order=self.labelled(tuple(order)), cursor=cursor)
