"""The contract between the engine and a ruleset plugin: :class:`Ruleset`, and the shapes it speaks in (defined in
:mod:`tui_combat.engine.shapes`, named here too).

A ruleset subclasses :class:`Ruleset`, overrides what its book does differently, and is registered under
the entry-point group ``tui_combat.rulesets``. Every hook has a default, so a small ruleset is small.
``docs/writing-a-ruleset.md`` shows how each of the five families maps onto the hooks.

What the engine does and what it asks the ruleset:

* **Steps**: :meth:`Ruleset.steps` lists the round's steps; the engine walks them with ``next``/``back``.
  A step of kind ``resolve`` walks the turn order slot by slot, firing :meth:`Ruleset.on_turn_start` and
  :meth:`Ruleset.on_turn_end` as the cursor moves.
* **Surprise**: :meth:`Ruleset.surprise_requests` (per side or per combatant) and
  :meth:`Ruleset.settle_surprise` decide who is surprised; what surprise *does* (a lost round,
  disadvantage on initiative, a lost first turn) is up to the ruleset's other hooks.
* **Initiative in stages**: :meth:`Ruleset.initiative_requests` gives the first rolls;
  :meth:`Ruleset.settle_initiative` receives every roll taken so far (faces and totals) and either
  settles the order (:func:`~tui_combat.engine.initiative.settle`) or asks for more rolls
  (:func:`~tui_combat.engine.initiative.ask`): a tie reroll, a roll-off, a critical event. Pending
  requests live in the state and survive a restart.
* **Results that are not dice**: :meth:`Ruleset.draws_initiative` says a request's result is the ruleset's
  own (a playing card); :meth:`Ruleset.draw_initiative` draws it, :meth:`Ruleset.read_initiative` reads what
  the GM typed, :meth:`Ruleset.initiative_line` logs it and :meth:`Ruleset.initiative_value` orders it.
* **Outside the order**: :meth:`Ruleset.out_of_order` lists who waits (on hold, a Joker); the GM brings one
  in (:class:`~tui_combat.engine.actions.BringIn`) and :meth:`Ruleset.bring_in` keeps the ruleset's account.
* **The players' screen**: :meth:`Ruleset.public_conditions` is what it lists under a combatant.
* **Order policy**: ``order_policy = "round"`` rolls every round; ``"fight"`` keeps the settled order for
  the whole fight, and :meth:`Ruleset.on_join` places a newcomer (or asks for his roll).
* **Actions**: ``actions`` is the static catalogue of the ruleset's own actions (key, label);
  :meth:`Ruleset.action_available` says which apply now; :meth:`Ruleset.apply_action` applies one.
  A key that collides with a generic key or another action is refused when the ruleset is loaded.
* **Forms**: :meth:`Ruleset.action_fields` returns the fields of an action's form; a field of kind
  ``roll`` is a die roll whose ``default`` is the dice expression (several rolls in one form are fine).
* **Typed state**: ``round_state_type`` and ``fight_state_type`` are the ruleset's own Structs; the
  engine stores them in ``State.round_state`` / ``State.fight_state`` and never writes inside them.
* **The log** is data (:mod:`tui_combat.engine.log`): ``log(state, N_("{name} attacks."), name=…)``.
* **The attack flow**: an attack's log entry carries the facts ``attacker`` and ``target`` (combatant ids),
  so the next attack form names the last one attacked first (:func:`last_target`);
  :meth:`Ruleset.form_preview` says, while the form is filled in, what is needed and the chance of it;
  :meth:`Ruleset.damage_due` says, after the action, whom the damage goes to and with which dice, and
  the screen asks for it (pre-filled, rolled or typed) and applies it with the engine's ``Damage``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, Generic, Literal, TypeVar

import msgspec
from msgspec.structs import replace

from tui_combat.engine.audience import side_ref, who
from tui_combat.engine.dice import DiceError, Roll, physical, roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.initiative import group_slots as group_slots  # (where rulesets have found it)
from tui_combat.engine.log import Msg, log, render, roll_param
from tui_combat.engine.log_window import last_target as last_target  # (where rulesets have found them)
from tui_combat.engine.log_window import new_attack as new_attack
from tui_combat.engine.log_window import new_facts as new_facts
from tui_combat.engine.model import Combatant, RollRequest, Slot, State, Status
from tui_combat.engine.saves import SavingRules
from tui_combat.engine.shapes import (
    ActionSpec,
    BudgetLine,
    DamageDue,
    FieldKind,
    FieldSpec,
    Health,
    NoState,
    OptionSpec,
    Situation,
    StepDef,
    StepKind,
    SurpriseModifier,
    Waiting,
    shown_value,
)
from tui_combat.i18n import N_, _

OrderPolicy = Literal["round", "fight"]
SurpriseScope = Literal["side", "combatant"]

__all__ = [
    "CONDITION_LABELS",
    "HP",
    "ActionSpec",
    "AnyRuleset",
    "BudgetLine",
    "DamageDue",
    "Health",
    "Waiting",
    "last_target",
    "new_attack",
    "new_facts",
    "FieldKind",
    "FieldSpec",
    "OptionSpec",
    "listed_health",
    "fallen",
    "FALLEN_ALIVE",
    "OrderPolicy",
    "RollRequest",
    "Ruleset",
    "RuleError",
    "Situation",
    "StepDef",
    "StepKind",
    "SurpriseModifier",
    "SurpriseScope",
    "group_slots",
    "NoState",
    "shown_value",
]


HP = N_("HP")
"""The engine's word for a combatant's health (:attr:`Ruleset.health_label` by default)."""


# Not AD&D's "Effects": an effect is named after a declared spell, and the monsters declare in secret.
CONDITION_LABELS: tuple[str, ...] = (N_("Condition"), N_("Surprised"), N_("This round"))
"""Labels of a ruleset's details (:meth:`Ruleset.details`) that the players see by default
(:meth:`Ruleset.public_conditions`): conditions and effects with the time they have left, surprise. Every other
detail (declarations, spells being cast, morale, sheets) stays the GM's."""


def listed_health(ruleset: AnyRuleset, state: State, combatant_id: str) -> str:
    """A combatant's health as the turn list and the players' screen show it beside his name: the ruleset's
    :meth:`~Ruleset.health_shown` ("12/30"), after its word for health where that is not hit points ("Wounds
    0/3", "BP 13/20")."""
    shown = ruleset.health_shown(state, combatant_id)
    return shown if ruleset.health_label == HP else f"{_(ruleset.health_label)} {shown}"


FALLEN_ALIVE = frozenset({N_("dying"), N_("stable"), N_("unconscious")})
"""The words of :meth:`Ruleset.condition_word` for one who is down but alive (the turn list marks him ♥, not ✝)."""


def fallen(ruleset: AnyRuleset, state: State, combatant_id: str) -> Literal["", "dying", "dead"]:
    """How one who is down lies: "dying" while alive (dying, stable, bound: his book's word says so), "dead"
    otherwise (a book that names no such word counts the fallen out for good); "" while he is not down."""
    combatant = state.combatant(combatant_id)
    if combatant.status != "down":
        return ""
    return "dying" if ruleset.condition_word(state, combatant_id) in FALLEN_ALIVE else "dead"


R = TypeVar("R", bound=msgspec.Struct)
F = TypeVar("F", bound=msgspec.Struct)


class Ruleset(SavingRules, Generic[R, F]):
    """Subclass, set the class attributes, override the hooks your book needs."""

    id: ClassVar[str]
    name: ClassVar[str]
    name_in: ClassVar[str] = ""
    """The book's name as a sentence puts it after "in" (a message id: ``N_("in D&D 5th edition")``), which
    Russian and Ukrainian decline ("в D&D 5-й редакции"); "" for the general "in the rules {ruleset}"."""
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    sheet_fields: ClassVar[tuple[FieldSpec, ...]] = ()
    actions: ClassVar[tuple[ActionSpec, ...]] = ()
    order_policy: ClassVar[OrderPolicy] = "round"
    surprise_scope: ClassVar[SurpriseScope] = "side"
    library: ClassVar[str] = ""
    """The id of the ruleset whose GM's library this one shares (the same stat blocks): "" for its own."""
    health_label: ClassVar[str] = HP
    """The book's short word for a combatant's health (a message id): the card, the set-up table's column and
    the add form's field say it (Trudvang's Body Points: "BP")."""
    health_help: ClassVar[str] = ""
    """A hint under the add form's health field (a message id), for a book whose sheet decides it."""
    demo: ClassVar[Path | None] = None
    """A demo fight of the plugin's own: an encounter file it ships (package data). The session list offers it
    beside the app's demos ("Demo: <the encounter's name>") when the plugin is installed. None: none."""
    catalogs: ClassVar[Path | None] = None
    """A plugin's own translations: the folder of its ``<language>.po`` catalogs (``ru.po``, ``uk.po``), read
    when the ruleset is loaded; its messages are looked up after the app's. None: the app's catalogs only."""
    round_state_type: type[R]
    fight_state_type: type[F]

    def in_ruleset(self) -> str:
        """ "in D&D 5th edition", translated: where a sentence names the book (:attr:`name_in`)."""
        if self.name_in:
            return _(self.name_in)
        return _("in the rules {ruleset}", ruleset=_(self.name))

    def prepare(self) -> None:
        """Load and check the ruleset's data (house rules included) when the ruleset is loaded, so a bad
        file is reported once, with its name, instead of failing in the middle of a fight."""

    # -- typed state -------------------------------------------------------------------------------
    def round_of(self, state: State) -> R:
        """This ruleset's round state (a fresh one when the round has none yet)."""
        value = state.round_state
        if isinstance(value, self.round_state_type):
            return value
        if value is None:
            return self.round_state_type()
        return msgspec.convert(value, self.round_state_type)

    def fight_of(self, state: State) -> F:
        value = state.fight_state
        if isinstance(value, self.fight_state_type):
            return value
        if value is None:
            return self.fight_state_type()
        return msgspec.convert(value, self.fight_state_type)

    def with_round(self, state: State, value: R) -> State:
        return replace(state, round_state=value)

    def with_fight(self, state: State, value: F) -> State:
        return replace(state, fight_state=value)

    def restore(self, state: State) -> State:
        """A state read from a file holds plain mappings where this ruleset keeps its Structs: convert them."""
        round_state = None if state.round_state is None else self.round_of(state)
        fight_state = None if state.fight_state is None else self.fight_of(state)
        if round_state is state.round_state and fight_state is state.fight_state:
            return state
        return replace(state, round_state=round_state, fight_state=fight_state)

    # -- the round's shape -------------------------------------------------------------------------
    def steps(self, state: State) -> tuple[StepDef, ...]:
        return (
            StepDef(id="initiative", label=N_("Initiative"), kind="initiative"),
            StepDef(id="resolve", label=N_("Resolve"), kind="resolve"),
            StepDef(id="end", label=N_("End of round"), kind="end"),
        )

    # -- set-up ------------------------------------------------------------------------------------
    def check_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """Check a combatant's sheet when it is entered; raise :class:`RuleError` naming the bad field."""
        return sheet

    # -- surprise and distance ---------------------------------------------------------------------
    def surprise_dice(self) -> str:
        """The surprise roll, or "" when the book has none (the GM marks who is surprised)."""
        return ""

    def surprise_modifiers(self) -> tuple[SurpriseModifier, ...]:
        return ()

    def is_surprised(self, total: int) -> bool:
        return False

    def surprise_requests(self, state: State) -> tuple[RollRequest, ...]:
        """The surprise rolls: by default one per side (or per combatant, by ``surprise_scope``)."""
        dice = self.surprise_dice()
        if not dice:
            return ()
        if self.surprise_scope == "combatant":
            return tuple(
                RollRequest(key=c.id, label=who(state, c), dice=dice, combatants=(c.id,))
                for c in state.combatants
                if c.status == "active"
            )
        return tuple(
            RollRequest(
                key=side.id,
                label=side_ref(state, side.id),
                dice=dice,
                combatants=tuple(c.id for c in state.combatants if c.side == side.id),
            )
            for side in state.sides
        )

    def settle_surprise(self, state: State, rolls: Mapping[str, Roll], modifiers: Mapping[str, int]) -> State:
        """Record who is surprised (``State.surprised``, combatant ids) from the rolls; log each."""
        surprised: list[str] = []
        requests = [r for r in self.surprise_requests(state) if r.key in rolls]
        for request in requests:
            roll = rolls[request.key]
            modifier = modifiers.get(request.key, 0)
            total = roll.total + modifier
            hit = self.is_surprised(total)
            if hit:
                surprised.extend(request.combatants)
            state = log(
                state,
                N_("Surprise — {who}: {roll}{modifier}: {result}."),
                rolls=(roll,),
                facts={"total": total, "surprised": hit},
                who=request.label,
                roll=roll_param(roll),
                modifier=f" {modifier:+d} → {total}" if modifier else "",
                result=Msg(id=N_("surprised") if hit else N_("not surprised")),
            )
        everyone = {cid for request in self.surprise_requests(state) for cid in request.combatants}
        if surprised and len(requests) > 1 and set(surprised) >= everyone:
            state = log(state, N_("Every side is surprised: the effects cancel."))
            surprised = []
        return replace(state, surprised=tuple(surprised))

    def surprise_effect(self) -> str | Msg:
        """What surprise does, logged as the fight starts: a message id with ``{names}`` (or a :class:`Msg`
        whose other parameters the ruleset fills in); "" to say nothing."""
        return ""

    def distance_situations(self) -> tuple[Situation, ...]:
        """Every encounter-distance situation of the book. One without dice asks the GM for the figure:
        ``RollDistance.roll`` is then a typed roll whose total is that figure."""
        return ()

    def encounter_distances(self, state: State) -> tuple[Situation, ...]:
        """The situations that apply now (a book whose distance follows the surprise result narrows them
        to that result's rows); by default all of :meth:`distance_situations`."""
        return self.distance_situations()

    # -- initiative --------------------------------------------------------------------------------
    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        """The first rolls needed to order the round (empty when the order needs no roll)."""
        return ()

    def settle_initiative(self, state: State, rolls: Mapping[str, Roll]) -> State:
        """Every roll taken so far → the state with the order settled
        (:func:`~tui_combat.engine.initiative.settle`) or more rolls asked for
        (:func:`~tui_combat.engine.initiative.ask`). By default: totals → :meth:`order`."""
        from tui_combat.engine.initiative import settle

        values = {
            request.key: self.initiative_value(state, request, rolls[request.key])
            for request in self.initiative_requests(state)
            if request.key in rolls
        }
        return settle(state, self.order(state, values))

    def draws_initiative(self, state: State, request: RollRequest) -> bool:
        """True when ``request``'s result is not a dice roll but the ruleset's own (a playing card): the app then
        draws it with :meth:`draw_initiative` and reads what the GM types with :meth:`read_initiative`, and the
        typed form shows :meth:`initiative_help` instead of dice. False by default: ``request.dice`` is rolled."""
        return False

    def draw_initiative(
        self,
        state: State,
        requests: tuple[RollRequest, ...],
        rng: random.Random,
        taken: Mapping[str, Roll] | None = None,
    ) -> dict[str, Roll]:
        """The results the app draws for ``requests`` (the roll key, or a typed form's empty fields), by request
        key. ``taken`` holds what the GM typed in the same form (cards already out of the deck). Only
        ``rng.randint`` and ``rng.shuffle`` may be used, so a seeded generator gives the same draw. By default
        each request's dice rolled."""
        return {request.key: roll(request.dice, rng) for request in requests}

    def read_initiative(self, state: State, request: RollRequest, typed: str) -> Roll:
        """What the GM typed for ``request`` ("K♠", "Joker") as a result; raise :class:`RuleError` saying what
        is expected. By default what real dice showed (:func:`~tui_combat.engine.dice.physical`)."""
        try:
            return physical(request.dice, typed)
        except DiceError as error:
            raise RuleError(str(error)) from None

    def initiative_help(self, state: State, request: RollRequest) -> str:
        """What the GM types for ``request`` (translated, short: "a card: K♠, 10♥, Joker"); by default its dice."""
        return request.dice

    def initiative_line(self, state: State, request: RollRequest, result: Roll) -> Msg:
        """The log line of one initiative result, as data (a message id and its parameters). By default
        "Initiative — {label}: {roll}{modifier}." with the roll's faces and the request's modifier."""
        total = result.total + request.modifier
        return Msg(
            id=N_("Initiative — {label}: {roll}{modifier}."),
            params={
                "label": request.label,
                "roll": roll_param(result),
                "modifier": f" {request.modifier:+d} = {total}" if request.modifier else "",
            },
        )

    def initiative_value(self, state: State, request: RollRequest, result: Roll) -> int:
        """The sort key of one initiative result, as the default :meth:`settle_initiative` and :meth:`order` use
        it (higher first) and the log's fact ``total`` gives it: by default the total plus the request's
        modifier; a card: its rank, then its suit."""
        return result.total + request.modifier

    def order(self, state: State, totals: dict[str, int]) -> tuple[Slot, ...]:
        """The order from request totals, highest first, ties sharing a slot."""
        values = {
            cid: totals[r.key] for r in self.initiative_requests(state) if r.key in totals for cid in r.combatants
        }
        return tuple(group_slots(values, descending=True))

    # -- hooks -------------------------------------------------------------------------------------
    def on_fight_start(self, state: State) -> State:
        """The fight begins (round 1 starts right after this)."""
        return state

    def on_round_start(self, state: State) -> State:
        """A round begins: by default a fresh round state."""
        return replace(state, round_state=self.round_state_type())

    def on_round_end(self, state: State) -> State:
        """The end step is reached: effects at the end of the round, what carries over."""
        return state

    def on_turn_start(self, state: State, slot: int) -> State:
        """The cursor reaches ``state.order[slot]``."""
        return state

    def on_turn_end(self, state: State, slot: int) -> State:
        """The cursor leaves ``state.order[slot]``."""
        return state

    def on_join(self, state: State, combatant_ids: tuple[str, ...]) -> State:
        """Combatants joined after the fight started: place them in the order, or ask for their rolls."""
        return state

    def on_status(self, state: State, combatant_id: str, before: Status) -> State:
        """A combatant's status changed (down, fled, surrendered, back in the fight)."""
        return state

    def on_damage(self, state: State, combatant_id: str, amount: int, *, critical: bool = False) -> State:
        """A combatant took damage (after HP and status are updated); ``critical`` when the hit was a
        critical hit."""
        return state

    def on_healing(self, state: State, combatant_id: str, amount: int) -> State:
        """A combatant was healed ``amount`` (after HP and status are updated, and :meth:`on_status` when it
        changed): the ruleset's own account of it (a box of stress cleared, a wound tended). Nothing by default."""
        return state

    def may_end_turn(self, state: State, slot: int) -> str | None:
        """Whether the turn of ``state.order[slot]`` may end now (*next* in a resolve step): None lets it; a reason,
        translated, refuses *next* with it ("Ada passes the turn first: key p."). By default None."""
        return None

    # -- health ------------------------------------------------------------------------------------
    def starting_hp(self, sheet: dict[str, Any], typed: int) -> int:
        """The hit points a combatant joins with: by default the figure typed; a book that works them out
        from the sheet (Trudvang's Body Points: the race's base + Constitution + Strength) says so here."""
        return typed

    def after_damage(self, state: State, combatant: Combatant, amount: int, *, critical: bool = False) -> Health:
        """What ``amount`` damage leaves of ``combatant``: hit points and status, before :meth:`on_damage`.
        The default lets hit points go below 0 and puts an active combatant down at 0 or less; a book that
        stops at 0, kills at 0 or lets characters lie dying says so here."""
        hp = combatant.hp - amount
        return Health(hp=hp, status="down" if hp <= 0 and combatant.status == "active" else combatant.status)

    def after_healing(self, state: State, combatant: Combatant, amount: int) -> Health:
        """What ``amount`` healing leaves of ``combatant``. The default: up to the maximum (or the current
        hit points when above it), and a combatant who is down is back in the fight above 0."""
        hp = min(combatant.hp + amount, max(combatant.max_hp, combatant.hp))
        return Health(hp=hp, status="active" if combatant.status == "down" and hp > 0 else combatant.status)

    def health_shown(self, state: State, combatant_id: str, *, brief: bool = False) -> str:
        """A combatant's health after :attr:`health_label`, in the GM's language: by default "12/30" on the
        card (what he has of his most) and, ``brief``, "30" in the set-up table."""
        combatant = state.combatant(combatant_id)
        return str(combatant.hp) if brief else f"{combatant.hp}/{combatant.max_hp}"

    def condition_word(self, state: State, combatant_id: str) -> str | None:
        """A message id for the state of a combatant's health the book names ("dying", "stable", "dead",
        "seriously injured"), shown on the card and, translated, on the players' screen; None when the
        book names none (the players' screen then words the hit points by its own scale)."""
        return None

    def death_saves(self, state: State, combatant_id: str) -> tuple[int, int] | None:
        """(successes, failures) of the death saving throws of one who is dying, for a book that counts them
        (three of either end it); None otherwise, and by default."""
        return None

    # -- out of the order ----------------------------------------------------------------------------
    def out_of_order(self, state: State) -> tuple[Waiting, ...]:
        """Who waits outside the order and may come in when the GM says: on hold, a Joker who acts when he likes.
        The turn list shows them with their label, so do the players' screen, and the GM's *bring in* key
        (:class:`~tui_combat.engine.actions.BringIn`) lets one act now. None by default."""
        return ()

    def bring_in(self, state: State, combatant_id: str) -> State:
        """``combatant_id`` (one of :meth:`out_of_order`) comes in: the ruleset's own bookkeeping (he is no longer
        on hold, his Joker is spent). The engine then puts him in a slot of his own at the cursor, before the
        slot that was acting (which acts after him, and whose :meth:`on_turn_start` fires again then), and fires
        :meth:`on_turn_start` for him. By default nothing to keep."""
        return state

    # -- declarations ------------------------------------------------------------------------------
    def declaration_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        return (FieldSpec(key="text", label=N_("Intention")),)

    def declaration(self, state: State, combatant_id: str) -> dict[str, Any]:
        """The current declaration as form values (to edit it)."""
        return {}

    def declare(self, state: State, combatant_id: str, declaration: dict[str, Any]) -> State:
        raise RuleError(_("There are no declarations {in_ruleset}.", in_ruleset=self.in_ruleset()))

    # -- the ruleset's own actions -----------------------------------------------------------------
    def action_available(self, state: State, name: str, combatant_id: str | None) -> bool:
        """Whether the action applies now (shown in the footer, accepted by the key)."""
        return state.phase == "round"

    def action_fields(self, state: State, name: str, combatant_id: str) -> tuple[FieldSpec, ...]:
        return ()

    def apply_action(self, state: State, name: str, args: dict[str, Any]) -> State:
        raise RuleError(_("Unknown action {name}.", name=name))

    def form_preview(self, state: State, name: str, combatant_id: str, values: Mapping[str, Any]) -> str:
        """A line shown in the action's form as it is filled in (``values``: the fields as typed, strings
        not yet checked): for an attack, the number needed and the chance of it. "" for none."""
        return ""

    def form_dice(self, state: State, name: str, combatant_id: str, values: Mapping[str, Any]) -> Mapping[str, str]:
        """The dice of the action form's ``roll`` fields as the form now stands (``values``: the fields as
        typed, strings not yet checked), by field key, where they differ from the field's ``default``: an
        attack with advantage from the target chosen is rolled with ``d20adv``. Empty by default."""
        return {}

    def damage_due(self, before: State, after: State, name: str, args: Mapping[str, Any]) -> DamageDue | None:
        """The damage the action just applied (``before`` → ``after``) calls for, which the screen then
        asks for: a hit that is not yet damage. None when there is none."""
        return None

    def current_step(self, state: State) -> StepDef | None:
        """The round's step the fight is at; None outside a round."""
        steps = self.steps(state)
        return steps[state.step] if state.phase == "round" and 0 <= state.step < len(steps) else None

    def step_kind(self, state: State) -> str:
        """The kind of :meth:`current_step` ("" outside a round)."""
        step = self.current_step(state)
        return step.kind if step is not None else ""

    def acts_now(self, state: State, combatant_id: str) -> bool:
        """Whether ``combatant_id`` may take an ``in_turn`` action now without it being out of turn: by
        default, outside a resolve step everyone may, inside it those in the acting slot."""
        step = self.current_step(state)
        return step is None or step.kind != "resolve" or combatant_id in state.acting_now()

    # -- what the screens show ---------------------------------------------------------------------
    def public_conditions(self, state: State, combatant_id: str) -> tuple[str | Msg, ...]:
        """What the players' screen lists under a combatant (translated, computed when shown): by default his
        :meth:`details` labelled with one of :data:`CONDITION_LABELS` ("Condition: prone" shows as "prone").
        A ruleset whose condition is its own (Shaken) returns it here. A condition that names others or holds a
        stat is a :class:`Msg` naming them by :func:`~tui_combat.engine.audience.who` (held by someone hidden) or
        marking the stat: the players read it as they read a log line. The engine adds the effects the GM put on
        that are theirs to see."""
        labels = {_(label) for label in CONDITION_LABELS}
        return tuple(
            f"{label}: {value}" if label != _("Condition") else value
            for label, value in self.details(state, combatant_id)
            if label in labels
        )

    public_reads: ClassVar[frozenset[str] | None] = None
    """What :meth:`public_conditions`, :meth:`condition_word` and :meth:`health_shown` read of the state besides
    the combatant himself: names of :class:`~tui_combat.engine.model.State`'s fields ("fight_state", "round",
    "surprised" …), and "others" when they read anyone else's name or whether he is hidden. The players' view
    then asks the rules again about a combatant only when he or one of those changed (besides what the engine
    reads itself: the sides, the phase, the effects, the options), not about everyone at every turn of a mass
    battle. None, the default: they may read anything, and the view asks about everyone after every change."""

    def budget(self, state: State, combatant_id: str) -> tuple[BudgetLine, ...]:
        return ()

    budget_ignores_the_turn: ClassVar[bool] = False
    """True when :meth:`budget` reads nothing of the state but the combatant himself, the round and fight
    states, the round number, the step, the options and the sides: not the cursor, the order, the effects, the
    log or anyone else. The turn list then works a budget out again only when one of those changed, not at
    every turn of a mass battle. Leave it False unless that holds."""

    def details(self, state: State, combatant_id: str) -> tuple[tuple[str, str], ...]:
        return ()

    def sheet_notes(self, sheet: Mapping[str, Any], hp: int) -> str:
        """What a stat block says beside the figures the forms take, made from the sheet's fields in the GM's
        language (5e: "CR 17. HP 256 (19d12 + 133). Speed fly 80 ft. Multiattack: …"); "" for nothing. ``hp``:
        the hit points it goes with. The card shows it above the GM's notes, the library picker under an entry."""
        return ""

    def shown_sheet_value(self, field: FieldSpec, value: object) -> str:
        """A sheet value as the GM reads it in a summary (the library picker, the add form): by default
        :func:`shown_value`; a ruleset whose field has words of its own (5e's abilities) says them in his
        language."""
        return shown_value(field, value)

    def difficulty(self, state: State) -> str | None:
        """The fight's difficulty by the book, for the set-up (translated, one line; 5e: the monsters' XP
        against the party's thresholds); None where the book has no measure, or it cannot be worked out."""
        return None

    effects_count_down: ClassVar[Literal["round", "turn"]] = "round"
    """When the engine counts down conditions and effects: at the end of each round, or at the end of the
    turn of the slot the combatant acts in (a combatant outside the order then at the round's end)."""

    def effect_names(self) -> tuple[str, ...]:
        """The ruleset's conditions and effects the GM can pick by name (message ids); he may type others."""
        return ()

    def summary_columns(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The set-up table's columns of a combatant's sheet: a label (a message id, translated when shown)
        and the sheet fields shown in it, side by side ("Class" ← class and level). By default the first
        three sheet fields, one column each."""
        return tuple((field.label, (field.key,)) for field in self.sheet_fields[:3])

    def summary(self, state: State, combatant_id: str) -> tuple[str, ...]:
        """One cell per :meth:`summary_columns` for a combatant, as the GM reads it (translated; a choice by
        its label, never the sheet's own key)."""
        sheet = state.combatant(combatant_id).sheet
        fields = {field.key: field for field in self.sheet_fields}
        cells: list[str] = []
        for _label, keys in self.summary_columns():
            words = (shown_value(fields[key], sheet.get(key, fields[key].default)) for key in keys if key in fields)
            cells.append(" ".join(word for word in words if word))
        return tuple(cells)

    def slot_marker(self, state: State, slot: int) -> str:
        """A word for a slot's header in the turn list during a resolve step (translated, short): by default
        "acted", "now" or "to come" by where the cursor is."""
        if slot < state.cursor:
            return _("acted")
        return _("now") if slot == state.cursor else _("to come")

    def turn_marker(self, state: State, combatant_id: str, slot: int | None) -> str:
        """A word for a combatant's row in the turn list during a resolve step (translated, short); ``slot``
        is the index of the slot the row is in, None for one not in the order. The list shows it only when
        it differs from :meth:`slot_marker`: a ruleset whose combatants hold or skip says so here ("holds",
        "skips"). By default the slot's word; out of the order, the label of :meth:`out_of_order`, or ""."""
        if slot is None:
            waiting = next((w for w in self.out_of_order(state) if w.combatant == combatant_id), None)
            return render(waiting.label) if waiting is not None else ""
        return self.slot_marker(state, slot)

    # -- helpers for subclasses --------------------------------------------------------------------
    @staticmethod
    def actor(state: State, combatant_id: str) -> Combatant:
        """The combatant named by an action's ``combatant`` argument, or a clear refusal."""
        try:
            combatant = state.combatant(combatant_id)
        except KeyError:
            raise RuleError(_("Select a combatant first.")) from None
        if combatant.status != "active":
            raise RuleError(_("{name} is out of the fight.", name=combatant.name))
        return combatant


AnyRuleset = Ruleset[Any, Any]
"""A ruleset of whatever state types (what the registry hands out)."""
