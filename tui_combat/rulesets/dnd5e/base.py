"""What every part of the 5e ruleset shares: its options, its sheet, the round's shape, small helpers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec
from msgspec.structs import replace

from tui_combat.engine.audience import GM, who
from tui_combat.engine.contract import OptionSpec, Ruleset, StepDef
from tui_combat.engine.dice import Roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, Param
from tui_combat.engine.model import Combatant, Slot, State
from tui_combat.i18n import N_, _
from tui_combat.rulesets.dnd5e.data import data
from tui_combat.rulesets.dnd5e.sheet import SHEET_FIELDS, check_sheet
from tui_combat.rulesets.dnd5e.state import DndFight, DndRound

__all__ = [
    "LAIR",
    "METHODS",
    "Dnd5eBase",
    "advantage_dice",
    "edge_of",
    "int_arg",
    "is_lair",
    "label_now",
    "msg",
    "named",
    "roll_arg",
    "seen_by_players",
    "unit_name",
    "unit_of",
]

METHODS = ("standard", "static", "side", "speed_factor")
LAIR = N_("lair action")


def unit_of(combatant: Combatant) -> str:
    """A group of identical creatures rolls (and, with the speed factor, declares) once: its id, else his."""
    return combatant.group or combatant.id


def unit_name(combatant: Combatant) -> str:
    """ "Goblin" for "Goblin 3" of a group; a lone creature's own name."""
    return combatant.name.rsplit(" ", 1)[0] if combatant.group else combatant.name


def named(state: State, combatant_id: str) -> Param:
    """A combatant as a log parameter, by reference ("?" for one no longer in the fight)."""
    return who(state, combatant_id) if state.has(combatant_id) else "?"


def seen_by_players(state: State, members: Iterable[str]) -> bool:
    """Whether the players see one of ``members``."""
    return any(not combatant.hidden for combatant in state.present(members))


def label_now(state: State, label: Msg, members: Iterable[str]) -> Msg:
    """A label kept in the fight state (an initiative entry's: a creature, a group, a side) as a log parameter
    now: the players' while they see one of ``members``, else the GM's alone (who is hidden may have changed
    since it was made; a label from before labels named by reference is marked as a whole)."""
    seen = seen_by_players(state, members)
    mark = "" if seen else GM
    if label.ref:
        return label if label.gm == mark else replace(label, gm=mark)
    inner = {key: value for key, value in label.params.items() if isinstance(value, Msg) and value.ref}
    if inner:
        return replace(label, params={**label.params, **{key: replace(value, gm=mark) for key, value in inner.items()}})
    return label if seen else Msg(id="{name}", params={"name": label}, gm=GM)


def is_lair(slot: Slot) -> bool:
    return not slot.combatants and slot.label.id == LAIR


def roll_arg(args: Mapping[str, Any], key: str, label: str) -> Roll:
    """A ``roll`` field of a form: a Roll as the app made it, or the same as a mapping from the journal."""
    try:
        return msgspec.convert(args[key], Roll)
    except (KeyError, msgspec.ValidationError):
        raise RuleError(_("{field} is missing.", field=_(label))) from None


def int_arg(args: Mapping[str, Any], key: str, default: int, label: str) -> int:
    value = args.get(key, default)
    if value in ("", None):
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise RuleError(_('{field}: "{value}" is not a whole number.', field=_(label), value=value)) from None


class Dnd5eBase(Ruleset[DndRound, DndFight]):
    id = "dnd5e"
    name = N_("D&D 5th edition")
    name_in = N_("in D&D 5th edition")
    round_state_type = DndRound
    fight_state_type = DndFight
    order_policy = "fight"
    surprise_scope = "combatant"
    options = (
        OptionSpec(
            key="initiative",
            label=N_("Initiative"),
            choices=(
                ("standard", N_("standard: d20 + Dex once, the order kept")),
                ("static", N_("static: 10 + Dex, no roll")),
                ("side", N_("side: one d20 per side")),
                ("speed_factor", N_("speed factor: declared actions, rolled every round")),
            ),
        ),
        OptionSpec(
            key="surprise",
            label=N_("Surprise"),
            choices=(
                ("2024", N_("disadvantage on initiative")),
                ("2014", N_("2014: the first turn is lost")),
            ),
        ),
        OptionSpec(
            key="side_surprise",
            label=N_("Surprise with side initiative"),
            choices=(
                ("plain", N_("no modifiers: a surprised side rolls its d20 as any other")),
                ("disadvantage", N_("a wholly surprised side rolls with disadvantage")),
            ),
        ),
        OptionSpec(
            key="lair",
            label=N_("Lair actions"),
            choices=(
                ("off", N_("none")),
                ("on", N_("at initiative 20, losing ties")),
            ),
        ),
        OptionSpec(
            key="difficulty",
            label=N_("Encounter difficulty"),
            choices=(
                ("2014", N_("2014: XP thresholds, multiplied for the number of monsters")),
                ("2024", N_("2024: XP budget per character")),
            ),
        ),
    )
    sheet_fields = SHEET_FIELDS

    def effect_names(self) -> tuple[str, ...]:
        """The SRD conditions of the data (the condition key keeps their rules; this is for a plain count)."""
        return tuple(data().conditions)

    def summary_columns(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return ((N_("AC"), ("ac",)), (N_("Attack bonus"), ("attack",)), (N_("Weapons"), ("weapons", "damage")))

    def prepare(self) -> None:
        data()

    def check_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        return check_sheet(sheet)

    # -- options ---------------------------------------------------------------------------------------
    @staticmethod
    def method(state: State) -> str:
        method = state.options.get("initiative", "standard")
        return method if method in METHODS else "standard"

    @staticmethod
    def surprise_rule(state: State) -> str:
        return "2014" if state.options.get("surprise") == "2014" else "2024"

    def order_method(self, state: State) -> str:
        """The method the current order is rolled with: the option as it was when the round started (a
        change waits for the next round)."""
        return self.fight_of(state).method or self.method(state)

    @staticmethod
    def side_surprise(state: State) -> bool:
        """Side initiative: a wholly surprised side rolls with disadvantage (an option; the seed's side
        variant takes no modifiers)."""
        return state.options.get("side_surprise") == "disadvantage"

    @staticmethod
    def lair_on(state: State) -> bool:
        return state.options.get("lair") == "on"

    # -- the round's shape -----------------------------------------------------------------------------
    def steps(self, state: State) -> tuple[StepDef, ...]:
        resolve = StepDef(
            id="resolve",
            label=N_("Turns"),
            kind="resolve",
            help=N_("Each creature in turn: action, bonus action, movement; reactions at any time."),
        )
        end = StepDef(id="end", label=N_("End of round"), kind="end")
        initiative = StepDef(id="initiative", label=N_("Initiative"), kind="initiative")
        shape = self.round_of(state).shape
        if shape == "declare":
            declare = StepDef(
                id="declare",
                label=N_("Actions"),
                kind="declare",
                help=N_("Each creature chooses its action: its speed-factor modifiers count on initiative."),
            )
            return (declare, initiative, resolve, end)
        if shape == "kept":
            return (resolve, end)
        return (initiative, resolve, end)

    def acting(self, state: State) -> tuple[str, ...]:
        """Who is taking a turn now (nobody outside the turns step)."""
        return state.acting_now() if self.step_kind(state) == "resolve" else ()

    # -- helpers ---------------------------------------------------------------------------------------
    @staticmethod
    def reorder(state: State, slots: Iterable[Slot]) -> State:
        """A new order with the turn staying with whoever is acting (the first of the new slots that holds
        one of them, so a tie split while it acts starts with the first of those who were tied)."""
        order = tuple(slots)
        if not order:
            return replace(state, order=order, cursor=0)
        acting = set(state.acting_now())
        current = state.order[state.cursor] if state.cursor < len(state.order) else None
        cursor = min(state.cursor, len(order) - 1)
        if acting:
            cursor = next((i for i, slot in enumerate(order) if acting & set(slot.combatants)), cursor)
        elif current is not None and is_lair(current):
            cursor = next((i for i, slot in enumerate(order) if is_lair(slot)), cursor)
        return replace(state, order=order, cursor=cursor)

    @staticmethod
    def combatant_choices(state: State, first: str | None = None) -> tuple[tuple[str, str], ...]:
        """Every combatant as a choice (id, name), ``first`` at the top."""
        ordered = sorted(state.combatants, key=lambda c: c.id != first)
        return tuple((c.id, c.name) for c in ordered)

    def fight_with(self, state: State, **changes: Any) -> State:
        return self.with_fight(state, replace(self.fight_of(state), **changes))

    def round_with(self, state: State, **changes: Any) -> State:
        return self.with_round(state, replace(self.round_of(state), **changes))


def advantage_dice(dice: str, edge: int) -> str:
    """``1d20`` with advantage (``edge`` > 0) is ``d20adv``, with disadvantage ``d20dis``."""
    if edge == 0:
        return dice
    sides = dice.strip().lower().removeprefix("1").removeprefix("d")
    if not sides.isdigit():
        return dice
    return f"d{sides}{'adv' if edge > 0 else 'dis'}"


def edge_of(advantage: str, disadvantage: bool) -> int:
    """+1 advantage, −1 disadvantage, 0 both or neither (they cancel, however many of each)."""
    has_advantage = advantage == "advantage"
    has_disadvantage = disadvantage or advantage == "disadvantage"
    return int(has_advantage) - int(has_disadvantage)


def msg(message_id: str, **params: Any) -> Msg:
    return Msg(id=message_id, params=params)
