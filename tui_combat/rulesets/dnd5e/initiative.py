"""The four initiative methods, the kept order, newcomers, ties and the lair action's place.

* **standard**: one roll per creature, or per group of identical creatures (d20 + Dex modifier + other
  bonuses); a surprised creature rolls with disadvantage (2024 rule). The order is kept for the fight.
* **static**: 10 + the same modifier, +5 with advantage, −5 with disadvantage (surprised); no roll.
* **side**: one d20 per side, no modifier; tied sides roll again until one wins; a side is a free slot.
* **speed factor**: every round each creature (or group) declares its action, then rolls in secret
  d20 + Dex modifier + the modifiers of that action; the DM counts down from 30; ties go to the higher
  Dexterity, then to a roll-off.

Ties of the standard and static methods are the DM's (the players' between player characters): the tied
creatures share a free slot until the *tie* action records who goes first; the choice is kept in the
fight state and applied again whenever the order is rebuilt.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec
from msgspec.structs import replace

from tui_combat.engine.audience import GM, behind, gm_only, group_ref, hint, side_ref, who, whos
from tui_combat.engine.contract import FieldSpec
from tui_combat.engine.dice import Roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.initiative import ask, fresh_key, reset, settle
from tui_combat.engine.log import Msg, Param, log
from tui_combat.engine.mistakes import validation_text
from tui_combat.engine.model import Combatant, RollRequest, Slot, State, Status
from tui_combat.i18n import N_, _
from tui_combat.rulesets.dnd5e.base import (
    LAIR,
    Dnd5eBase,
    advantage_dice,
    edge_of,
    is_lair,
    label_now,
    msg,
    seen_by_players,
    unit_name,
    unit_of,
)
from tui_combat.rulesets.dnd5e.data import data, find_weapon
from tui_combat.rulesets.dnd5e.sheet import Sheet, dex_modifier, sheet_of
from tui_combat.rulesets.dnd5e.state import Declaration, DndFight, Entry

__all__ = ["ACTIONS", "BONUS_ACTIONS", "Dnd5eInitiative", "Unit", "roll_history", "speed_parts"]

ACTIONS = (("attack", N_("attack with a weapon")), ("spell", N_("cast a spell")), ("other", N_("something else")))
BONUS_ACTIONS = (
    ("none", N_("no bonus action")),
    ("attack", N_("attack with a weapon")),
    ("spell", N_("cast a spell")),
    ("other", N_("something else")),
)


class Unit(msgspec.Struct, frozen=True, kw_only=True):
    """Creatures that roll together: a lone creature, a group of identical ones (split by surprise)."""

    key: str
    label: Msg
    members: tuple[Combatant, ...]
    surprised: bool = False


def roll_history(rolls: Mapping[str, Roll], skip_first: bool = False) -> dict[str, tuple[int, ...]]:
    """Roll key base → the totals rolled under it in order ("s1", then "s1#2", "s1#3" …)."""
    history: dict[str, tuple[int, ...]] = {}
    for key, rolled in rolls.items():
        base = key.partition("#")[0]
        if skip_first and key == base:
            continue
        history[base] = (*history.get(base, ()), rolled.total)
    return history


def speed_parts(sheet: Sheet, declaration: Declaration | None) -> list[tuple[Msg, int]]:
    """The speed-factor modifiers of a declared round, each at most once; only the highest spell counts."""
    table = data().speed_factor
    parts: list[tuple[Msg, int]] = []
    chosen = declaration or Declaration(action="other")
    levels = [
        level
        for kind, level in ((chosen.action, chosen.spell_level), (chosen.bonus, chosen.bonus_spell_level))
        if kind == "spell"
    ]
    if levels and max(levels) > 0:
        parts.append((msg(N_("spell of level {level}"), level=max(levels)), table.spell_per_level * max(levels)))
    properties: set[str] = set()
    for kind, weapon_name in ((chosen.action, chosen.weapon), (chosen.bonus, chosen.bonus_weapon)):
        weapon = find_weapon(weapon_name) if kind == "attack" else None
        if weapon is None:
            continue
        if weapon.category == "melee":
            properties |= {
                name
                for name, has in (
                    ("heavy", weapon.heavy),
                    ("light", weapon.light or weapon.finesse),
                    ("two_handed", weapon.two_handed),
                )
                if has
            }
        elif weapon.loading:
            properties.add("loading")
    for name, label, value in (
        ("heavy", N_("heavy melee weapon"), table.heavy_melee),
        ("light", N_("light or finesse melee weapon"), table.light_or_finesse_melee),
        ("two_handed", N_("two-handed melee weapon"), table.two_handed_melee),
        ("loading", N_("ranged weapon with loading"), table.loading_ranged),
    ):
        if name in properties:
            parts.append((Msg(id=label), value))
    size = table.size.get(sheet.size, 0)
    if size:
        parts.append((msg(N_("size: {size}"), size=Msg(id=sheet.size)), size))
    if chosen.adjust:
        parts.append((Msg(id=N_("the DM's modifier")), chosen.adjust))
    return parts


class Dnd5eInitiative(Dnd5eBase):
    # -- who rolls ------------------------------------------------------------------------------------
    def surprised_now(self, state: State, combatant_id: str) -> bool:
        """Surprised at the start of the fight, under the 2024 rule (disadvantage on the first initiative)."""
        return state.round <= 1 and combatant_id in state.surprised and self.surprise_rule(state) == "2024"

    def units(self, state: State, combatants: list[Combatant], *, surprise: bool) -> list[Unit]:
        """Lone creatures and groups, in the order of the fight; a group whose members differ in surprise is
        split in two (the surprised part rolls apart)."""
        by_unit: dict[str, list[Combatant]] = {}
        for combatant in combatants:
            by_unit.setdefault(unit_of(combatant), []).append(combatant)
        units: list[Unit] = []
        for key, members in by_unit.items():
            flags = [surprise and self.surprised_now(state, c.id) for c in members]
            if all(flags) or not any(flags):
                units.append(
                    Unit(key=key, label=self.unit_label(state, members), members=tuple(members), surprised=all(flags))
                )
                continue
            calm = [c for c, f in zip(members, flags) if not f]
            surprised = [c for c, f in zip(members, flags) if f]
            units.append(Unit(key=key, label=self.unit_label(state, calm), members=tuple(calm)))
            units.append(
                Unit(
                    key=f"{key}:surprised",
                    members=tuple(surprised),
                    surprised=True,
                    label=Msg(id=N_("{name} (surprised)"), params={"name": self.unit_label(state, surprised)}),
                )
            )
        return units

    @staticmethod
    def unit_label(state: State, members: list[Combatant]) -> Msg:
        """A lone creature by his name, a group by its base name ("Goblin"), by reference: the players' while
        they see one of them."""
        if members[0].group:
            return group_ref(state, unit_name(members[0]), [c.id for c in members], members[0].group)
        return who(state, members[0])

    def modifier(self, state: State, unit: Unit) -> int:
        """The initiative modifier: Dex modifier + other bonuses (+ the speed factor of the declared action)."""
        sheet = sheet_of(unit.members[0])
        value = dex_modifier(sheet.dex) + sheet.init_bonus
        if self.order_method(state) == "speed_factor":
            declaration = self.round_of(state).declarations.get(unit_of(unit.members[0]))
            value += sum(v for _label, v in speed_parts(sheet, declaration))
        return value

    def request(self, state: State, unit: Unit, key: str | None = None) -> RollRequest:
        sheet = sheet_of(unit.members[0])
        edge = edge_of(sheet.init_advantage, unit.surprised)
        return RollRequest(
            key=key or unit.key,
            label=unit.label,
            dice=advantage_dice(data().initiative.dice, edge),
            modifier=self.modifier(state, unit),
            combatants=tuple(c.id for c in unit.members),
            secret=self.order_method(state) == "speed_factor",
        )

    def side_request(self, state: State, side_id: str, members: list[Combatant], key: str | None = None) -> RollRequest:
        """One d20 for a side, no modifier (the seed); with the option ``side_surprise`` at ``disadvantage``,
        with disadvantage when the whole side is surprised (2024)."""
        surprised = self.side_surprise(state) and all(self.surprised_now(state, c.id) for c in members)
        return RollRequest(
            key=key or side_id,
            label=side_ref(state, side_id),
            dice=advantage_dice(data().initiative.side_dice, -1 if surprised else 0),
            combatants=tuple(c.id for c in members),
        )

    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        method = self.order_method(state)
        active = [c for c in state.combatants if c.status == "active"]
        if method == "static":
            return ()
        if method == "side":
            requests = []
            for side in state.sides:
                members = [c for c in active if c.side == side.id]
                if members:
                    requests.append(self.side_request(state, side.id, members))
            return tuple(requests)
        return tuple(self.request(state, unit) for unit in self.units(state, active, surprise=True))

    # -- settling --------------------------------------------------------------------------------------
    def settle_initiative(self, state: State, rolls: Mapping[str, Roll]) -> State:
        method = self.order_method(state)
        fight = self.fight_of(state)
        requests = {r.key: r for r in self.initiative_requests(state)}
        requests.update({r.key: r for r in fight.asked})
        party = {side.id for side in state.sides if side.is_party}
        sides = {c.id: c.side for c in state.combatants}
        entries = dict(fight.entries)
        new_keys: list[str] = []
        for key, request in requests.items():
            if key in rolls and key not in entries:
                value = rolls[key].total + request.modifier
                members = tuple(c for c in request.combatants if c in sides)
                entries[key] = Entry(
                    label=request.label,
                    combatants=members,
                    value=value,
                    rank=(value,),
                    party=bool(members) and all(sides[c] in party for c in members),
                    free=len(members) > 1 or method == "side",
                )
                new_keys.append(key)
        if method == "side":
            history = roll_history(rolls)
            entries = {key: replace(entry, rank=history.get(key, entry.rank)) for key, entry in entries.items()}
        elif method == "speed_factor":
            roll_offs = roll_history(rolls, skip_first=True)
            dex = {c.id: sheet_of(c).dex for c in state.combatants}
            entries = {
                key: replace(
                    entry,
                    rank=(
                        entry.value,
                        dex.get(entry.combatants[0], 10) if entry.combatants else 0,
                        *roll_offs.get(key, ()),
                    ),
                )
                for key, entry in entries.items()
            }
        state = self.with_fight(state, replace(fight, entries=entries, method=method))
        if method in ("side", "speed_factor"):
            groups = self.tie_groups(state)
            if groups:
                return ask(
                    state,
                    [
                        self.tie_breaker(state, key, entries[key], self.seen_tie(state, [entries[k] for k in keys]))
                        for keys in groups
                        for key in keys
                    ],
                )
        state = settle(state, self.build_order(state))
        return self.log_ties(state, new_keys)

    def tie_breaker(self, state: State, key: str, entry: Entry, seen: bool = True) -> RollRequest:
        """A roll that breaks a tie; not the players' to read unless they see the tie (:meth:`seen_tie`)."""
        name = label_now(state, entry.label, entry.combatants)
        if self.order_method(state) == "side":
            return RollRequest(
                key=fresh_key(state, key),
                dice=data().initiative.side_dice,
                combatants=entry.combatants,
                label=Msg(id=N_("{name}, tie reroll"), params={"name": name}, gm="" if seen else GM),
            )
        return RollRequest(
            key=fresh_key(state, key),
            dice=data().initiative.dice,
            combatants=entry.combatants,
            secret=True,
            label=Msg(id=N_("{name}, roll-off"), params={"name": name}, gm="" if seen else GM),
        )

    def live_entries(self, state: State) -> dict[str, Entry]:
        """The entries with combatants removed from the fight left out (and entries left empty dropped)."""
        names = state.names()
        fight = self.fight_of(state)
        by_side: dict[str, tuple[str, ...]] = {}
        if fight.method == "side":  # a side's slot holds whoever is on that side now, newcomers too
            for combatant in state.combatants:
                by_side[combatant.side] = (*by_side.get(combatant.side, ()), combatant.id)
        live: dict[str, Entry] = {}
        for key, entry in fight.entries.items():
            members = (
                by_side.get(key, ()) if fight.method == "side" else tuple(c for c in entry.combatants if c in names)
            )
            if members:
                live[key] = entry if members == entry.combatants else replace(entry, combatants=members)
        return live

    def tie_groups(self, state: State) -> list[list[str]]:
        """Entry keys of equal rank, highest first (only groups of two or more)."""
        return [keys for keys in self.rank_groups(self.live_entries(state)) if len(keys) > 1]

    @staticmethod
    def rank_groups(entries: dict[str, Entry]) -> list[list[str]]:
        groups: list[list[str]] = []
        for key in sorted(entries, key=lambda k: entries[k].rank, reverse=True):
            if groups and entries[groups[-1][0]].rank == entries[key].rank:
                groups[-1].append(key)
            else:
                groups.append([key])
        return groups

    @staticmethod
    def decision(fight: DndFight, keys: list[str]) -> list[str] | None:
        """The order chosen for these tied entries, if one was (a choice among more still orders fewer)."""
        wanted = set(keys)
        for decided in reversed(fight.decided):
            chosen = [key for key in decided if key in wanted]
            if set(chosen) == wanted:
                return chosen
        return None

    def undecided_ties(self, state: State) -> list[list[str]]:
        if self.fight_of(state).method not in ("standard", "static"):
            return []
        fight = self.fight_of(state)
        return [keys for keys in self.tie_groups(state) if self.decision(fight, keys) is None]

    def build_order(self, state: State) -> list[Slot]:
        fight = self.fight_of(state)
        live = self.live_entries(state)
        slots: list[Slot] = []
        for keys in self.rank_groups(live):
            decided = self.decision(fight, keys) if len(keys) > 1 else keys
            if decided is not None:
                slots.extend(self.slot(state, live[key]) for key in decided)
                continue
            value = live[keys[0]].value
            slots.append(
                Slot(
                    label=self.tie_label(state, value, [live[key] for key in keys]),
                    value=value,
                    free=True,
                    combatants=tuple(c for key in keys for c in live[key].combatants),
                )
            )
        return self.with_lair(state, slots)

    def slot(self, state: State, entry: Entry) -> Slot:
        if self.fight_of(state).method == "side":
            label = label_now(state, entry.label, entry.combatants)
        elif self.fight_of(state).method == "speed_factor":
            label = Msg(id="{value}", params={"value": min(entry.value, data().speed_factor.countdown_from)})
        else:
            label = Msg(id="{value}", params={"value": entry.value})
        return Slot(label=label, combatants=entry.combatants, value=entry.value, free=entry.free)

    def with_lair(self, state: State, slots: list[Slot]) -> list[Slot]:
        """The lair action's slot at its count, after everyone at that count or above (it loses ties)."""
        kept = [slot for slot in slots if not is_lair(slot)]
        if not self.lair_on(state) or not kept:
            return kept
        count = data().initiative.lair_count
        place = next((i for i, slot in enumerate(kept) if slot.value < count), len(kept))
        return [*kept[:place], Slot(label=Msg(id=LAIR), combatants=(), value=count), *kept[place:]]

    def tie_label(self, state: State, value: int, entries: list[Entry]) -> Msg:
        """ "15, tie": the players read the count alone unless they see the tie (:meth:`seen_tie`)."""
        if self.seen_tie(state, entries):
            return Msg(id=N_("{value}, tie"), params={"value": value})
        return Msg(id="{value}{tie}", params={"value": value, "tie": hint(Msg(id=N_(", tie")))})

    @staticmethod
    def seen_tie(state: State, entries: list[Entry]) -> bool:
        """Whether the players see a tie: two of the tied at least (one alone would tell them someone unseen
        ties with him)."""
        return sum(1 for entry in entries if seen_by_players(state, entry.combatants)) > 1

    def tied_names(self, state: State, entries: list[Entry]) -> Param:
        """The tied creatures as a log parameter: the players' while they see the tie (:meth:`seen_tie`)."""
        labels: list[str | int | Msg] = [label_now(state, entry.label, entry.combatants) for entry in entries]
        return labels if self.seen_tie(state, entries) else gm_only(labels)

    def log_ties(self, state: State, new_keys: list[str]) -> State:
        """Say once, when it first appears, that a tie waits for a decision."""
        live = self.live_entries(state)
        for keys in self.undecided_ties(state):
            if not set(keys) & set(new_keys):
                continue
            players = all(live[key].party for key in keys)
            state = log(
                state,
                N_("Tie at {value}: {names}. {who} who goes first{key}."),
                facts={"tie": live[keys[0]].value},
                value=live[keys[0]].value,
                names=self.tied_names(state, [live[key] for key in keys]),
                who=Msg(id=N_("The players decide") if players else N_("The DM decides")),
                key=hint(Msg(id=N_(" (key {key})"), params={"key": "f"})),
            )
        return state

    def decide_tie(self, state: State, order: list[str]) -> State:
        """Record the order chosen for the first undecided tie and rebuild the order around the turn."""
        ties = self.undecided_ties(state)
        if not ties:
            raise RuleError(_("There is no tie to decide."))
        keys = ties[0]
        if sorted(order) != sorted(keys):
            raise RuleError(_("Choose each of the tied creatures once."))
        fight = self.fight_of(state)
        state = self.with_fight(state, replace(fight, decided=(*fight.decided, tuple(order))))
        live = self.live_entries(state)
        state = log(
            state,
            N_("Tie at {value} decided: {names}."),
            facts={"tie": live[keys[0]].value},
            value=live[keys[0]].value,
            names=self.tied_names(state, [live[key] for key in order]),
        )
        return self.reorder(state, self.build_order(state))

    # -- the start of a round -----------------------------------------------------------------------------
    def on_round_start(self, state: State) -> State:
        state = super().on_round_start(state)
        method = self.method(state)
        fight = self.fight_of(state)
        if state.round == 1 and state.surprised:
            effect = (
                N_("Surprised: {names}. Side initiative takes no modifiers: their side's d20 is rolled as any other.")
                if self.surprise_rule(state) == "2024" and method == "side" and not self.side_surprise(state)
                else N_("Surprised, they roll initiative with disadvantage: {names}.")
                if self.surprise_rule(state) == "2024"
                else N_(
                    "Surprised, they can neither move nor act on their first turn, and take no reaction "
                    "until it ends: {names}."
                )
            )
            state = log(state, effect, names=whos(state, state.surprised))
        if method == "speed_factor" or fight.method != method or not fight.entries:
            if state.initiative.rolls or state.initiative.settled:
                state = reset(state)
            state = self.with_fight(state, replace(fight, method=method, entries={}, asked=(), decided=()))
            if method == "static":
                return self.round_with(self.settle_static(state), shape="kept")
            return self.round_with(state, shape="declare" if method == "speed_factor" else "roll")
        # The order stands (a newcomer's roll may still be pending): the lair slot follows the option.
        state = replace(state, order=tuple(self.build_order(state)), cursor=0)
        return self.round_with(state, shape="kept")

    def static_entries(self, state: State, combatants: list[Combatant], *, surprise: bool) -> dict[str, Entry]:
        rules = data().initiative
        party = {side.id for side in state.sides if side.is_party}
        entries: dict[str, Entry] = {}
        for unit in self.units(state, combatants, surprise=surprise):
            sheet = sheet_of(unit.members[0])
            edge = edge_of(sheet.init_advantage, unit.surprised)
            value = rules.static_base + self.modifier(state, unit) + rules.static_advantage * edge
            entries[unit.key] = Entry(
                label=unit.label,
                value=value,
                rank=(value,),
                combatants=tuple(c.id for c in unit.members),
                free=len(unit.members) > 1,
                party=all(c.side in party for c in unit.members),
            )
        return entries

    @staticmethod
    def static_values(state: State, entries: Mapping[str, Entry]) -> list[str | int | Msg]:
        """ "Goblin 12, Raf 14": the players read those they see."""
        return [
            Msg(id="{name} {value}", params={"name": label_now(state, e.label, e.combatants), "value": e.value})
            for e in entries.values()
        ]

    def settle_static(self, state: State) -> State:
        active = [c for c in state.combatants if c.status == "active"]
        entries = self.static_entries(state, active, surprise=True)
        state = self.with_fight(state, replace(self.fight_of(state), method="static", entries=entries))
        state = log(
            state, N_("Static initiative: {values}."), facts={"static": True}, values=self.static_values(state, entries)
        )
        state = settle(state, self.build_order(state))
        return self.log_ties(state, list(entries))

    # -- newcomers ------------------------------------------------------------------------------------
    def on_join(self, state: State, combatant_ids: tuple[str, ...]) -> State:
        fight = self.fight_of(state)
        if not state.initiative.settled and not state.initiative.rolls:
            return state  # the order is still to be rolled: they are among the first requests
        newcomers = [state.combatant(c) for c in combatant_ids if state.combatant(c).status == "active"]
        method = self.order_method(state)
        if method == "static":
            entries = self.static_entries(state, newcomers, surprise=False)
            state = self.with_fight(state, replace(fight, entries={**fight.entries, **entries}))
            state = log(
                state,
                N_("Static initiative: {values}."),
                facts={"static": True},
                values=self.static_values(state, entries),
            )
            return self.log_ties(self.reorder(state, self.build_order(state)), list(entries))
        requests: list[RollRequest] = []
        if method == "side":
            # A side already in the order takes its newcomers into its slot; a new side rolls.
            asking = {r.key.partition("#")[0] for r in state.initiative.pending}
            unrolled: dict[str, list[Combatant]] = {}
            for combatant in newcomers:
                if combatant.side not in fight.entries and combatant.side not in asking:
                    unrolled.setdefault(combatant.side, []).append(combatant)
            requests = [
                self.side_request(state, side_id, members, key=fresh_key(state, side_id))
                for side_id, members in unrolled.items()
            ]
            if not requests:
                return self.reorder(state, self.build_order(state)) if state.initiative.settled else state
        else:
            requests = [
                self.request(state, unit, key=fresh_key(state, unit.key))
                for unit in self.units(state, newcomers, surprise=False)
            ]
        if not requests:
            return state
        state = self.with_fight(state, replace(fight, asked=(*fight.asked, *requests)))
        return ask(state, (*state.initiative.pending, *requests))

    def on_status(self, state: State, combatant_id: str, before: Status) -> State:
        """A creature back in the fight that never had a place in the order (down when it was rolled) gets one."""
        fight = self.fight_of(state)
        if before == "active" or state.combatant(combatant_id).status != "active" or not fight.entries:
            return state
        if fight.method == "speed_factor" or any(combatant_id in e.combatants for e in fight.entries.values()):
            return state
        if any(combatant_id in r.combatants for r in state.initiative.pending):
            return state
        return self.on_join(state, (combatant_id,))

    # -- speed factor: declarations ---------------------------------------------------------------------
    def weapon_choices(self, sheet: Sheet) -> tuple[tuple[str, str], ...]:
        names = [w.strip() for w in sheet.weapons.split(",") if w.strip()] or sorted(data().weapons)
        return (("", N_("none, or a natural weapon")), *((name, name) for name in names))

    def declaration_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        sheet = sheet_of(state.combatant(combatant_id))
        weapons = self.weapon_choices(sheet)
        first_weapon = weapons[1][0] if len(weapons) > 1 and sheet.weapons.strip() else ""
        return (
            FieldSpec(key="action", label=N_("Action"), kind="choice", default="attack", choices=ACTIONS),
            FieldSpec(key="weapon", label=N_("Weapon"), kind="choice", default=first_weapon, choices=weapons),
            FieldSpec(key="spell_level", label=N_("Spell level"), kind="int", default=0),
            FieldSpec(key="bonus", label=N_("Bonus action"), kind="choice", default="none", choices=BONUS_ACTIONS),
            FieldSpec(key="bonus_weapon", label=N_("Bonus action weapon"), kind="choice", default="", choices=weapons),
            FieldSpec(key="bonus_spell_level", label=N_("Bonus action spell level"), kind="int", default=0),
            FieldSpec(key="adjust", label=N_("DM's modifier (±2, ±5)"), kind="int", default=0),
            FieldSpec(key="text", label=N_("Note"), kind="str", default=""),
        )

    def declaration_of(self, state: State, combatant_id: str) -> Declaration | None:
        return self.round_of(state).declarations.get(unit_of(state.combatant(combatant_id)))

    def declaration(self, state: State, combatant_id: str) -> dict[str, Any]:
        stored = self.declaration_of(state, combatant_id)
        if stored is None:
            return {}
        return {key: getattr(stored, key) for key in Declaration.__struct_fields__}

    def declare(self, state: State, combatant_id: str, declaration: dict[str, Any]) -> State:
        if self.round_of(state).shape != "declare":
            raise RuleError(_("Only the speed-factor initiative has actions declared before the roll."))
        if state.initiative.rolls or state.initiative.settled:
            raise RuleError(
                _("The actions are fixed once initiative is rolled: the creature takes its action or none.")
            )
        try:
            checked = msgspec.convert(declaration, Declaration, strict=False)
        except msgspec.ValidationError as error:
            raise RuleError(_("Declaration: {error}", error=validation_text(error, declaration))) from None
        if checked.action not in dict(ACTIONS) or checked.bonus not in dict(BONUS_ACTIONS):
            raise RuleError(_("Choose the action and the bonus action from the lists."))
        if not (0 <= checked.spell_level <= 9 and 0 <= checked.bonus_spell_level <= 9):
            raise RuleError(_("A spell level is from 0 (a cantrip) to 9."))
        combatant = state.combatant(combatant_id)
        unit = unit_of(combatant)
        current = self.round_of(state)
        state = self.with_round(state, replace(current, declarations={**current.declarations, unit: checked}))
        parts = speed_parts(sheet_of(combatant), checked)
        total = sum(value for _label, value in parts)
        shown: list[str | int | Msg] = [
            Msg(id="{part} {value}", params={"part": label, "value": f"{value:+d}"}) for label, value in parts
        ]
        secret = not state.side(combatant.side).is_party
        members = [c for c in state.combatants if unit_of(c) == unit] if combatant.group else [combatant]
        name = self.unit_label(state, members)
        action = self.action_text(checked.action, checked.weapon, checked.spell_level)
        # The speed factor and its parts are behind the screen: the players read what is declared.
        return log(
            state,
            N_("{name} declares {action}{bonus}: speed factor {total}{parts}."),
            secret=secret,
            facts={"speed_factor": total},
            name=name,
            action=action,
            bonus=self.bonus_text(checked),
            total=behind(f"{total:+d}"),
            parts=behind(Msg(id=" ({parts})", params={"parts": shown})) if shown else "",
            public=Msg(
                id=N_("{name} declares {action}{bonus}."),
                params={"name": name, "action": action, "bonus": self.bonus_text(checked)},
            ),
        )

    @staticmethod
    def action_text(kind: str, weapon: str, level: int) -> Msg:
        if kind == "attack":
            return (
                Msg(id=N_("an attack with {weapon}"), params={"weapon": weapon}) if weapon else Msg(id=N_("an attack"))
            )
        if kind == "spell":
            return Msg(id=N_("a spell of level {level}"), params={"level": level})
        return Msg(id=N_("another action"))

    def bonus_text(self, declaration: Declaration) -> Param:
        if declaration.bonus == "none":
            return ""
        return Msg(
            id=N_(", and as a bonus action {action}"),
            params={
                "action": self.action_text(declaration.bonus, declaration.bonus_weapon, declaration.bonus_spell_level)
            },
        )
