"""Initiative and the order: a 1d6 per side (or 1d6 + Dex each), ties rerolled or simultaneous, each
turn walked phase by phase as free slots, waiting, slow weapons last, newcomers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from msgspec.structs import replace

from tui_combat.engine.audience import GM, group_ref, side_ref, who, whos
from tui_combat.engine.dice import Roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.initiative import ask, fresh_key, settle
from tui_combat.engine.log import Msg, log
from tui_combat.engine.model import RollRequest, Slot, State
from tui_combat.i18n import N_, _
from tui_combat.rulesets.ose.base import PHASE_LABELS, OseBase
from tui_combat.rulesets.ose.data import dex_modifier, is_slow, tables
from tui_combat.rulesets.ose.state import OseRound, Turn


class Unit(NamedTuple):
    """Who one initiative roll is for."""

    label: Msg
    members: tuple[str, ...]
    modifier: int


def joined(labels: list[Msg]) -> Msg:
    """Several names as one label: "Party + Goblins" (the players read those they may: "Party")."""
    if len(labels) == 1:
        return labels[0]
    names: list[str | int | Msg] = [*labels]
    return Msg(id="{names}", params={"names": names}, sep=" + ")


def all_named(labels: list[Msg]) -> Msg:
    """Several names as one parameter that the players read whole or not at all ("Party + Goblins")."""
    if len(labels) == 1:
        return labels[0]
    return Msg(
        id=" + ".join(f"{{n{i}}}" for i in range(len(labels))), params={f"n{i}": m for i, m in enumerate(labels)}
    )


class OseOrder(OseBase):
    # -- who rolls -----------------------------------------------------------------------------------
    def units(self, state: State) -> dict[str, Unit]:
        """Roll key → who it is for: a side, or with individual initiative a combatant or a group."""
        acting = [c for c in state.combatants if c.status == "active" and not self.surprised_now(state, c.id)]
        units: dict[str, Unit] = {}
        if not self.individual(state):
            for side in state.sides:
                members = tuple(c.id for c in acting if c.side == side.id)
                if members:
                    units[side.id] = Unit(side_ref(state, side.id), members, 0)
            return units
        for combatant in acting:
            key = combatant.group or combatant.id
            if key in units:
                unit = units[key]
                units[key] = unit._replace(members=(*unit.members, combatant.id))
            else:
                units[key] = Unit(who(state, combatant), (combatant.id,), dex_modifier(self.sheet_of(combatant).dex))
        for key, unit in units.items():
            if len(unit.members) > 1 or state.combatant(unit.members[0]).group:  # a group by its one name
                first = state.combatant(unit.members[0])
                units[key] = unit._replace(label=group_ref(state, first.name.rsplit(" ", 1)[0], unit.members, key))
        return units

    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        dice = tables().initiative.dice
        return tuple(
            RollRequest(key=key, label=unit.label, dice=dice, modifier=unit.modifier, combatants=unit.members)
            for key, unit in self.units(state).items()
        )

    # -- settling ------------------------------------------------------------------------------------
    def settle_initiative(self, state: State, rolls: Mapping[str, Roll]) -> State:
        units = self.units(state)
        # Each unit's totals in the order rolled: its first ("s1"), then its rerolls ("s1#2", "s1#3" …).
        # Compared as sequences, a reroll only ever decides between the units that tied.
        sequences: dict[str, tuple[int, ...]] = {}
        for key, rolled in rolls.items():
            base = key.partition("#")[0]
            if base in units:
                sequences[base] = (*sequences.get(base, ()), rolled.total + units[base].modifier)
        if state.options.get("ties", "reroll") == "simultaneous":
            by_total: dict[int, list[str]] = {}
            for key, sequence in sequences.items():
                by_total.setdefault(sequence[0], []).append(key)
            turns = []
            for total, keys in sorted(by_total.items(), reverse=True):
                turns.append(
                    Turn(
                        key="+".join(keys),
                        label=joined([units[k].label for k in keys]),
                        value=total,
                        members=tuple(c for k in keys for c in units[k].members),
                    )
                )
                if len(keys) > 1:
                    labels = [units[k].label for k in keys]
                    # The players read the tie between those they see, and none with fewer than two.
                    seen = [label for label in labels if label.gm != GM]
                    said = N_("Tied at {total}: {names} act simultaneously.")
                    state = log(
                        state,
                        said,
                        facts={"total": total},
                        total=total,
                        names=all_named(labels),
                        public=Msg(id=said, params={"total": total, "names": all_named(seen)})
                        if len(seen) > 1
                        else None,
                    )
        else:
            values = list(sequences.values())
            tied = [key for key, sequence in sequences.items() if values.count(sequence) > 1]
            if tied:
                dice = tables().initiative.dice
                return ask(
                    state,
                    [
                        RollRequest(
                            key=fresh_key(state, key),
                            dice=dice,
                            modifier=units[key].modifier,
                            combatants=units[key].members,
                            label=Msg(id=N_("{name}, tie reroll"), params={"name": units[key].label}),
                        )
                        for key in tied
                    ],
                )
            turns = [
                Turn(key=key, label=units[key].label, value=sequences[key][0], members=units[key].members)
                for key in sorted(sequences, key=sequences.__getitem__, reverse=True)
            ]
        current = replace(self.round_of(state), turns=tuple(turns), waiting=())
        slots, slot_keys = self.build_order(state, current)
        state = settle(state, slots)
        return self.with_round(state, replace(current, slot_keys=slot_keys))

    # -- the order's slots ---------------------------------------------------------------------------
    def slow_attacker(self, state: State, combatant_id: str) -> bool:
        """With the slow-weapons option: he attacks with a slow weapon this round (so he acts last)."""
        if (
            state.options.get("slow_weapons", "off") != "on"
            or self.casting(state, combatant_id)
            or self.fleeing(state, combatant_id)
        ):
            return False
        return is_slow(self.sheet_of(state.combatant(combatant_id)).weapon)

    def checks_morale(self, state: State, combatant_id: str) -> bool:
        """He would take a morale check now: a score below the never-checks one, fewer than two passed
        checks, nerve not broken, still in the fight."""
        combatant = state.combatant(combatant_id)
        data = tables().morale
        score = self.sheet_of(combatant).morale
        fight = self.fight_of(state)
        return (
            combatant.status == "active"
            and 2 <= score < data.never_checks
            and fight.passes.get(combatant_id, 0) < data.passes_to_stop
            and combatant_id not in fight.broken
        )

    def in_phase(self, state: State, combatant_id: str, phase: str) -> bool:
        """Who has a place in a phase: casters neither move nor attack, the fleeing only move, a slow
        weapon attacks in the last slot of the round."""
        if phase == "morale":
            return self.checks_morale(state, combatant_id)
        casting, fleeing = self.casting(state, combatant_id), self.fleeing(state, combatant_id)
        if phase == "movement":
            return not casting
        if phase == "magic":
            return not fleeing
        return not casting and not fleeing and not self.slow_attacker(state, combatant_id)

    def build_order(self, state: State, current: OseRound) -> tuple[list[Slot], tuple[str, ...]]:
        """The slots of the round from its turns (those that wait come last), and each slot's key."""
        ordered = [t for t in current.turns if t.key not in current.waiting]
        ordered += [t for key in current.waiting for t in current.turns if t.key == key]
        slots: list[Slot] = []
        keys: list[str] = []
        slow: list[str] = []
        for turn in ordered:
            for phase in self.phases(state):
                members = tuple(c for c in turn.members if self.in_phase(state, c, phase))
                if members:
                    slots.append(
                        Slot(
                            label=Msg(
                                id=N_("{who} · {phase}"),
                                params={"who": turn.label, "phase": Msg(id=PHASE_LABELS[phase])},
                            ),
                            combatants=members,
                            value=turn.value,
                            free=True,
                        )
                    )
                    keys.append(f"{turn.key}:{phase}")
            slow += [c for c in turn.members if self.slow_attacker(state, c)]
        if slow:
            slots.append(Slot(label=Msg(id=PHASE_LABELS["slow"]), combatants=tuple(slow), value=0, free=True))
            keys.append("slow:slow")
        return slots, tuple(keys)

    def rebuild(self, state: State, current: OseRound, *, follow_key: bool) -> State:
        """The order again from ``current``: the cursor stays on the same slot (``follow_key``) or at the
        same place (the slots before it are unchanged)."""
        before = current.slot_keys[state.cursor] if state.cursor < len(current.slot_keys) else ""
        slots, keys = self.build_order(state, current)
        cursor = state.cursor
        if follow_key and before in keys:
            cursor = keys.index(before)
        cursor = min(cursor, max(len(slots) - 1, 0))
        state = replace(state, order=tuple(slots), cursor=cursor)
        return self.with_round(state, replace(current, slot_keys=keys))

    # -- waiting -------------------------------------------------------------------------------------
    def turn_started(self, state: State, turn: Turn) -> bool:
        """Some of the turn has been played: its first slot is behind the cursor, or one of its members
        has moved or acted."""
        current = self.round_of(state)
        if any(current.spent.get(c) for c in turn.members):
            return True
        if self.step_kind(state) == "end":
            return True
        if self.step_kind(state) != "resolve":
            return False
        first = next((i for i, key in enumerate(current.slot_keys) if key.rpartition(":")[0] == turn.key), None)
        return first is not None and first < state.cursor

    def can_wait(self, state: State) -> list[Turn]:
        """The turns that may still choose to wait: not started, not waiting already, someone after them."""
        current = self.round_of(state)
        if not state.initiative.settled or self.step_kind(state) not in ("initiative", "resolve"):
            return []
        positions = [key.rpartition(":")[0] for key in current.slot_keys]
        result = []
        for turn in current.turns:
            if turn.key in current.waiting or turn.key not in positions or self.turn_started(state, turn):
                continue
            last = max(i for i, key in enumerate(positions) if key == turn.key)
            if any(key not in (turn.key, "slow") for key in positions[last + 1 :]):
                result.append(turn)
        return result

    def wait(self, state: State, turn_key: str) -> State:
        turn = next((t for t in self.can_wait(state) if t.key == turn_key), None)
        if turn is None:
            raise RuleError(_("That side cannot wait now: its turn has begun, or nobody acts after it."))
        current = self.round_of(state)
        state = self.rebuild(state, replace(current, waiting=(*current.waiting, turn.key)), follow_key=False)
        return log(state, N_("{who} waits, to act after the others."), who=turn.label)

    # -- newcomers -----------------------------------------------------------------------------------
    def on_join(self, state: State, combatant_ids: tuple[str, ...]) -> State:
        """A newcomer joins his side's turn this round when his side has one (side initiative); otherwise
        he acts from the next round."""
        if not state.initiative.settled:
            return state
        current = self.round_of(state)
        turns = list(current.turns)
        later: list[str] = []
        for combatant_id in combatant_ids:
            side = state.combatant(combatant_id).side
            index = (
                None
                if self.individual(state)
                else next((i for i, t in enumerate(turns) if side in t.key.split("+")), None)
            )
            if index is None:
                later.append(combatant_id)
            else:
                turns[index] = replace(turns[index], members=(*turns[index].members, combatant_id))
        if len(later) < len(combatant_ids):
            state = self.rebuild(state, replace(current, turns=tuple(turns)), follow_key=True)
        if later:
            state = log(state, N_("{names} act from the next round."), names=whos(state, later))
        return state
