"""AD&D 2e with Player's Option: Combat & Tactics: encounter range in squares, placement, five steps per
round and five action phases.

Round: **monster actions** (the DM, secretly) → **hero declarations** → **initiative** (one 1d10 per
side, lowest wins) → **resolve** in phase order → **end of round**, whose four parts (fatigue, retreat,
morale, status) the GM walks with ``k``.

Phases: very fast, fast, average, slow, very slow. A combatant's phase is the later of his base
initiative (fast; natural-weapon creatures by size; movement 18+ one faster, 6 or less one slower;
encumbrance 1–3 slower) and his weapon's speed class (from the data file, or set on the sheet; a +2/+3
weapon one class faster, +4 or more two), then one phase later for a half move and two for a full one.
A side's 1 shifts all its phases one faster, a 10 one slower; every shift stops at the ends. In each
phase the winning side goes first; within a side's part of a phase attacks and spells come before
movement (a combatant who declared a move).

Readings settled here (the seed leaves them open):

* A tie of the side rolls raises a critical event: the engine asks for a d20 on the critical events
  table (the tied faces are in its label) and for a new d10 for one of the tied sides (option
  ``tie_reroll``: the monsters' side by default). The reroll only orders the tied sides; the 1/10 shifts
  come from the sides' first rolls. A tie on the reroll asks for another reroll, not another event.
* The GM can set the phase of an action the tables do not time (a spell, an item) in its declaration;
  the side's roll still shifts it.
* All of a combatant's attacks happen in his phase (the seed says nothing of repeated attacks here).
* A combatant who abandons his declared action (``z``) acts at the very end of the round, in a slot of
  its own after the very slow phase; only before his phase is over.
* A spell acts in the phase its casting time gives (the data file's ``[spells]``: 1–3 fast, 4–6 average,
  7–9 slow, more or a round and longer very slow), from the caster's spell list; the side's 1 or 10 shifts
  it; the GM's phase in the declaration wins; a spell not on the list takes his base initiative. The table is
  not in the seed nor in the rules digest (``players-option.md``, ``gaps.md``): a default, so it is an option
  (``spell_phase``): "gm" leaves every spell's phase to the GM's declaration (else the caster's base
  initiative).
* Surprise, THAC0, weapons, armour, attacks, one main action a round, death, damage against large
  targets, effects with a duration: as AD&D 2e (``adnd2e.toml``).
* Placement: a side that was surprised, or that the other spotted unseen (option ``spotted``: the party
  spotted the others, or the others the party), places its figures first, then the other side; otherwise
  the DM places everyone.
* What the players read: a side none of whose members they see is in none of their lines (its roll, its 1
  or 10, a tie with it and the critical event it raises, the placement); the face of a side's 1 or 10 only
  when the GM shows them every roll (else what it does); the end-of-round checklist is the DM's, and so are
  the monsters' effects it lists and what a monster does instead when he changes his action.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec
from msgspec.structs import replace

from tui_combat.engine.audience import GM, behind, gm_only, side_ref, typed, who
from tui_combat.engine.contract import ActionSpec, FieldSpec, OptionSpec, StepDef
from tui_combat.engine.dice import Roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.initiative import ask, fresh_key, settle
from tui_combat.engine.log import Msg, Param, log
from tui_combat.engine.mistakes import validation_text
from tui_combat.engine.model import Combatant, RollRequest, Slot, State
from tui_combat.i18n import N_, _, after_name
from tui_combat.rulesets.adnd2e.data import Distance, tables
from tui_combat.rulesets.adnd2e.death import BIND_ACTION, DEATH_OPTION
from tui_combat.rulesets.adnd2e.family import EFFECT_ACTION, AdndFamily, Plan
from tui_combat.rulesets.adnd2e.sheet import (
    attack_plan,
    canonical_sheet,
    check_sheet_values,
    level_text,
    natural_forms,
    thac0,
    uses_natural_weapons,
)
from tui_combat.rulesets.adnd2e.state import RoundBase, parse_spells
from tui_combat.rulesets.players_option.data import PoTables, po_tables
from tui_combat.rulesets.players_option.phases import (
    ENCUMBRANCE,
    MOVES,
    PO_ACTIONS,
    PoDeclaration,
    PoSheet,
    Reading,
    phase_of,
)

__all__ = ["RULESET", "PlayersOption", "PoDeclaration", "PoRound", "PoSheet", "po_tables"]


class PoRound(RoundBase, frozen=True, kw_only=True):
    """What Player's Option tracks during one round (a fresh one every round)."""

    declarations: dict[str, PoDeclaration] = msgspec.field(default_factory=dict)
    ranking: tuple[str, ...] = ()
    """Side ids, the initiative's winner first (set when the order is settled)."""
    shifts: dict[str, int] = msgspec.field(default_factory=dict)
    """Side id → −1 (rolled 1: every phase one faster) or +1 (rolled 10: one slower)."""
    event_asked: bool = False
    events: tuple[str, ...] = ()
    """The critical events rolled this round (their labels)."""
    abandoned: tuple[str, ...] = ()
    """Who changed his action: he acts at the very end of the round."""
    checked: int = 0
    """Parts of the end of the round the GM has gone through."""


def _base_key(key: str) -> tuple[str, int]:
    """``"s1#3"`` → ``("s1", 3)``; ``"s1"`` → ``("s1", 1)``."""
    base, _sep, number = key.partition("#")
    return base, int(number) if number.isdigit() else 1


class PlayersOption(AdndFamily[PoRound]):
    id = "players_option"
    name = N_("AD&D 2e: Player's Option (Combat & Tactics)")
    name_in = N_("in Player's Option (Combat & Tactics)")
    library = "adnd2e"  # the same stat blocks: the GM's monsters serve both
    round_state_type = PoRound
    sheet_type = PoSheet
    options = (
        OptionSpec(
            key="tie_reroll",
            label=N_("Tied initiative"),
            choices=(("monsters", N_("the monsters' side rolls again")), ("party", N_("the party rolls again"))),
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
        OptionSpec(
            key="spotted",
            label=N_("Spotted unseen"),
            choices=(
                ("nobody", N_("nobody: surprise decides who places first")),
                ("party", N_("the party spotted the others unseen")),
                ("others", N_("the others spotted the party unseen")),
            ),
        ),
        OptionSpec(
            key="spell_phase",
            label=N_("A spell's phase"),
            choices=(
                ("casting_time", N_("by its casting time (a default table: not in the book's seed)")),
                ("gm", N_("the GM's, set in the declaration (else the caster's base initiative)")),
            ),
        ),
        DEATH_OPTION,
    )
    actions = (
        ActionSpec(name="attack", key="a", label=N_("Attack"), in_turn=True),
        ActionSpec(name="main_action", key="c", label=N_("Main action"), in_turn=True),
        ActionSpec(name="abandon", key="z", label=N_("Change action"), footer=False),
        ActionSpec(name="check", key="k", label=N_("Check"), needs_combatant=False),
        EFFECT_ACTION,
        BIND_ACTION,
    )

    def prepare(self) -> None:
        tables()
        po_tables()

    @property
    def data(self) -> PoTables:
        return po_tables()

    # -- the sheet -------------------------------------------------------------------------------------
    @property
    def sheet_fields(self) -> tuple[FieldSpec, ...]:  # type: ignore[override]  # the choices come from the data
        classes = (("", N_("from the table")), *((p.id, p.label) for p in self.data.phases))
        return (
            *self.base_sheet_fields(),
            FieldSpec(key="movement", label=N_("Movement rate"), kind="int", default=12),
            FieldSpec(
                key="encumbrance",
                label=N_("Encumbrance"),
                kind="choice",
                default="none",
                choices=tuple((e, e) for e in ENCUMBRANCE),
            ),
            FieldSpec(key="weapon_class", label=N_("Weapon speed class"), kind="choice", default="", choices=classes),
        )

    def effect_names(self) -> tuple[str, ...]:
        """The family's, and what the end-of-round status check follows: an ongoing spell, poison."""
        return (*super().effect_names(), N_("ongoing spell"), N_("poisoned"))

    def check_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        checked = check_sheet_values(sheet, PoSheet)
        if checked.encumbrance not in self.data.base.encumbrance:
            raise RuleError(
                _(
                    'Encumbrance "{load}" is not one of {known}.',
                    load=checked.encumbrance,
                    known=", ".join(_(load) for load in self.data.base.encumbrance),
                )
            )
        if checked.weapon_class:
            self.data.phase_index(checked.weapon_class)
        return canonical_sheet(sheet)

    def po_sheet(self, combatant: Combatant) -> PoSheet:
        try:
            return msgspec.convert(combatant.sheet, PoSheet, strict=False)
        except msgspec.ValidationError as error:
            raise RuleError(
                _("{name}: {error}", name=combatant.name, error=validation_text(error, combatant.sheet))
            ) from None

    # -- steps -------------------------------------------------------------------------------------------
    def steps(self, state: State) -> tuple[StepDef, ...]:
        return (
            StepDef(
                id="monsters",
                label=N_("Monsters"),
                kind="declare",
                secret=True,
                help=N_("The DM decides, secretly, what the monsters do, and sticks to it."),
            ),
            StepDef(
                id="heroes", label=N_("Heroes"), kind="declare", help=N_("Each player declares his hero's action.")
            ),
            StepDef(id="initiative", label=N_("Initiative"), kind="initiative"),
            StepDef(
                id="resolve",
                label=N_("Resolve"),
                kind="resolve",
                help=N_("Phase by phase; a changed action happens at the very end of the round."),
            ),
            StepDef(
                id="end",
                label=N_("End of round"),
                kind="end",
                help=N_("Fatigue, retreat, morale, status: k walks them."),
            ),
        )

    # -- declarations -----------------------------------------------------------------------------------
    def declaration_of(self, state: State, combatant_id: str) -> PoDeclaration:
        return self.round_of(state).declarations.get(combatant_id, PoDeclaration())

    def declared_action(self, state: State, combatant_id: str) -> str:
        action = self.declaration_of(state, combatant_id).action
        if action == "attack":
            return "natural" if uses_natural_weapons(self.sheet(state.combatant(combatant_id))) else "weapon"
        return action

    def declared_spell(self, state: State, combatant_id: str) -> str:
        declaration = self.declaration_of(state, combatant_id)
        return (declaration.spell or "spell") if declaration.action == "spell" else ""

    def declared_what(self, state: State, combatant_id: str) -> Param:
        declaration = self.declaration_of(state, combatant_id)
        if declaration.action == "attack":
            plan = self.attack_plan_of(state, state.combatant(combatant_id))
            return Msg(id=N_("attacks with {weapons}"), params={"weapons": [Msg(id=f) for f in dict.fromkeys(plan[0])]})
        if declaration.action == "spell":
            return typed(declaration.spell) if declaration.spell else Msg(id=N_("a spell"))
        return typed(declaration.text) if declaration.text else Msg(id=declaration.action)

    def attack_plan_of(self, state: State, combatant: Combatant) -> Plan:
        if self.declaration_of(state, combatant.id).action != "attack":
            return ()
        plan = attack_plan(self.sheet(combatant), state.round, state.options.get("three_halves", "even"), False)
        return (tuple(form for routine in plan for form in routine),)

    def declaration_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        sheet = self.sheet(state.combatant(combatant_id))
        spells = tuple((name, name) for name in parse_spells(sheet.spells))
        phases = (("", N_("worked out")), *((p.id, p.label) for p in self.data.phases))
        return (
            FieldSpec(
                key="action",
                label=N_("Action"),
                kind="choice",
                default="attack",
                choices=tuple((a, a) for a in PO_ACTIONS),
            ),
            FieldSpec(
                key="movement", label=N_("Moving"), kind="choice", default="none", choices=tuple((m, m) for m in MOVES)
            ),
            FieldSpec(
                key="spell",
                label=N_("Spell"),
                kind="choice" if spells else "str",
                default="",
                choices=(("", N_("— (no spell)")), *spells) if spells else (),
            ),
            FieldSpec(key="phase", label=N_("Phase (the GM's)"), kind="choice", default="", choices=phases),
            FieldSpec(key="text", label=N_("Note"), kind="str", default=""),
        )

    def declaration(self, state: State, combatant_id: str) -> dict[str, Any]:
        stored = self.round_of(state).declarations.get(combatant_id)
        return {} if stored is None else msgspec.structs.asdict(stored)

    def declare(self, state: State, combatant_id: str, declaration: dict[str, Any]) -> State:
        if state.initiative.settled or state.order:
            raise RuleError(_("Declarations are fixed once initiative is rolled: change the action instead (z)."))
        self.refuse_party_in_secret_step(state, combatant_id)
        try:
            checked = msgspec.convert(declaration, PoDeclaration, strict=False)
        except msgspec.ValidationError as error:
            raise RuleError(_("Declaration: {error}", error=validation_text(error, declaration))) from None
        if checked.action not in PO_ACTIONS:
            raise RuleError(
                _('Action "{action}" is not one of {known}.', action=checked.action, known=", ".join(PO_ACTIONS))
            )
        if checked.movement not in MOVES:
            raise RuleError(_('Moving "{move}" is not one of {known}.', move=checked.movement, known=", ".join(MOVES)))
        if checked.phase:
            self.data.phase_index(checked.phase)
        self.refuse_spell_in_free_round(state, combatant_id, checked.action == "spell")
        if checked.action != "spell":
            checked = replace(checked, spell="")
        current = self.round_of(state)
        return self.with_round(state, replace(current, declarations={**current.declarations, combatant_id: checked}))

    # -- encounter range and placement ---------------------------------------------------------------------
    def distance_rows(self) -> tuple[Distance, ...]:
        unit = self.data.scale.unit
        return tuple(
            Distance(id=r.id, label=r.label, dice=r.dice, multiplier=1, unit=unit, surprise=r.surprise, source=r.source)
            for r in self.data.range
        )

    def on_fight_start(self, state: State) -> State:
        """Placement: a side surprised, or spotted unseen by the other (option ``spotted``), places its
        figures first; otherwise the DM places everyone."""
        surprised = {state.combatant(cid).side for cid in state.surprised}
        spotted = state.options.get("spotted", "nobody")
        unseen = {s.id for s in state.sides if spotted != "nobody" and s.is_party == (spotted == "others")}
        unaware = surprised | unseen
        if not unaware or len(unaware) == len(state.sides):
            return log(state, N_("Placing the figures: the DM places everyone, the heroes in their marching order."))
        # By reference: the players' line leaves out a side they see nobody of (none left: no line for them).
        first: list[str | int | Msg] = [side_ref(state, s.id) for s in state.sides if s.id in unaware]
        then: list[str | int | Msg] = [side_ref(state, s.id) for s in state.sides if s.id not in unaware]
        if surprised >= unaware:
            return log(
                state,
                N_("Placing the figures: {first} first (surprised), then {then}, at the rolled range."),
                first=first,
                then=then,
            )
        return log(
            state,
            N_("Placing the figures: {first} first (spotted unseen), then {then}, at the rolled range."),
            first=first,
            then=then,
        )

    # -- initiative --------------------------------------------------------------------------------------
    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        acting = self.acting(state)
        result = []
        for side in state.sides:
            members = tuple(c.id for c in acting if c.side == side.id)
            if members:
                result.append(
                    RollRequest(
                        key=side.id, label=side_ref(state, side.id), dice=self.data.initiative.dice, combatants=members
                    )
                )
        return tuple(result)

    def settle_initiative(self, state: State, rolls: Mapping[str, Roll]) -> State:
        data = self.data
        requests = {r.key: r for r in self.initiative_requests(state)}
        latest: dict[str, tuple[int, int]] = {}
        events: list[tuple[int, Roll]] = []
        for key, roll in rolls.items():
            base, number = _base_key(key)
            if base in requests and number >= latest.get(base, (0, 0))[0]:
                latest[base] = (number, roll.total)
            elif base == "event":
                events.append((number, roll))
        # Sides by reference: one the players see nobody of is not theirs, nor is a tie it is in.
        refs = {side_id: side_ref(state, side_id) for side_id in requests}
        first_ties: dict[int, list[str]] = {}
        for side_id in requests:
            if side_id in rolls:
                first_ties.setdefault(rolls[side_id].total, []).append(side_id)
        unseen_tie = any(len(group) > 1 and any(refs[s].gm == GM for s in group) for group in first_ties.values())
        state = self._log_events(state, [roll for _number, roll in sorted(events, key=lambda e: e[0])], unseen_tie)
        current = {side: total for side, (_number, total) in latest.items()}
        ties: dict[int, list[str]] = {}
        for side_id in requests:
            ties.setdefault(current[side_id], []).append(side_id)
        tied = [group for group in ties.values() if len(group) > 1]
        if tied:
            asked: list[RollRequest] = []
            for group in tied:
                for side_id in self._rerolled(state, group):
                    asked.append(
                        RollRequest(
                            key=fresh_key(state, side_id),
                            dice=data.initiative.dice,
                            combatants=requests[side_id].combatants,
                            label=Msg(
                                id=N_("{side}: roll again (tie at {face})"),
                                params={"side": refs[side_id], "face": current[side_id]},
                            ),
                        )
                    )
            round_state = self.round_of(state)
            if not round_state.event_asked:
                faces: list[str | int | Msg] = [
                    Msg(id="{side} {face}", params={"side": refs[s], "face": current[s]})
                    for group in tied
                    for s in group
                ]
                unseen = any(refs[s].gm == GM for group in tied for s in group)
                asked.append(
                    RollRequest(
                        key=fresh_key(state, "event"),
                        dice=data.initiative.event_dice,
                        label=Msg(
                            id=N_("Critical event (tie: {faces})"),
                            params={"faces": faces},
                            sep=" = ",
                            gm=GM if unseen else "",
                        ),
                    )
                )
                state = self.with_round(state, replace(round_state, event_asked=True))
            return ask(state, asked)
        ranking = tuple(sorted(requests, key=lambda side_id: current[side_id]))
        shifts: dict[str, int] = {}
        for side_id in ranking:
            first = rolls[side_id].total
            # The face is a die of initiative: the players read what it does, and the face only with every roll.
            side = refs[side_id]
            if first == data.initiative.faster_on:
                shifts[side_id] = -1
                state = log(
                    state,
                    N_("{side} rolled {face}: every phase of the side one faster."),
                    facts={"shift": -1},
                    side=side,
                    face=behind(first),
                    public=Msg(id=N_("Every phase of {side} is one faster this round."), params={"side": side}),
                )
            elif first == data.initiative.slower_on:
                shifts[side_id] = 1
                state = log(
                    state,
                    N_("{side} rolled {face}: every phase of the side one slower."),
                    facts={"shift": 1},
                    side=side,
                    face=behind(first),
                    public=Msg(id=N_("Every phase of {side} is one slower this round."), params={"side": side}),
                )
        state = log(state, N_("Initiative goes to {side}."), side=refs[ranking[0]])
        state = self.with_round(state, replace(self.round_of(state), ranking=ranking, shifts=shifts))
        return settle(state, self.build_order(state))

    def _rerolled(self, state: State, group: list[str]) -> list[str]:
        """Which of the tied sides roll again: all but one, the kept one by the ``tie_reroll`` option."""
        party = {side.id for side in state.sides if side.is_party}
        if state.options.get("tie_reroll", "monsters") == "party":
            keep = next((s for s in group if s not in party), group[-1])
        else:
            keep = next((s for s in group if s in party), group[0])
        return [s for s in group if s != keep]

    def _log_events(self, state: State, rolled: list[Roll], unseen_tie: bool) -> State:
        """The critical events rolled (those not logged yet): the GM's alone when the tie was with a side the
        players see nobody of."""
        current = self.round_of(state)
        events = list(current.events)
        for roll in rolled[len(events) :]:
            event = self.data.event(roll.total)
            label = event.label if event is not None else "?"
            events.append(label)
            state = log(
                state,
                N_("Critical event — {roll}: {event}. The GM applies it."),
                rolls=(roll,),
                secret=unseen_tie,
                facts={"event": label, "roll": roll.total},
                roll=roll.total,
                event=Msg(id=label),
            )
        return self.with_round(state, replace(self.round_of(state), events=tuple(events)))

    def reading(self, state: State, combatant: Combatant) -> Reading:
        shift = self.round_of(state).shifts.get(combatant.side, 0)
        return phase_of(
            self.po_sheet(combatant),
            self.declaration_of(state, combatant.id),
            self.data,
            shift,
            by_casting_time=state.options.get("spell_phase", "casting_time") == "casting_time",
        )

    def build_order(self, state: State) -> tuple[Slot, ...]:
        """Phase by phase; in each, the sides in initiative order; within a side, attacks and spells, then
        movement; a changed action at the very end."""
        data = self.data
        current = self.round_of(state)
        abandoned = set(current.abandoned)
        acting = [c for c in self.acting(state) if c.id not in abandoned]
        refs = {side_id: side_ref(state, side_id) for side_id in current.ranking}
        keyed: dict[tuple[int, int, int], list[str]] = {}
        for combatant in acting:
            if combatant.side not in current.ranking:
                continue  # joined after the roll: he waits for the next one
            part = 1 if self.declaration_of(state, combatant.id).action == "move" else 0
            key = (self.reading(state, combatant).index, current.ranking.index(combatant.side), part)
            keyed.setdefault(key, []).append(combatant.id)
        slots = []
        for (phase, rank, part), members in sorted(keyed.items()):
            params: dict[str, Param] = {"phase": Msg(id=data.phases[phase].label), "side": refs[current.ranking[rank]]}
            label = Msg(id=N_("{phase} · {side} · moving") if part else N_("{phase} · {side}"), params=params)
            slots.append(Slot(label=label, combatants=tuple(members), value=phase * 100 + rank * 2 + part))
        late = tuple(c.id for c in state.combatants if c.id in abandoned and c.status == "active")
        if late:
            slots.append(Slot(label=Msg(id=N_("end of round (changed action)")), combatants=late, value=999))
        return tuple(slots)

    # -- ruleset actions ------------------------------------------------------------------------------------
    def action_available(self, state: State, name: str, combatant_id: str | None) -> bool:
        if state.phase != "round":
            return False
        kind = self.step_kind(state)
        known = combatant_id is not None and combatant_id in state.names()
        standing = known and state.combatant(str(combatant_id)).status != "down"  # not dead, nor dying (option −10)
        if name in ("attack", "main_action"):
            return kind == "resolve" and standing
        if name == "abandon":
            return kind == "resolve" and standing and combatant_id not in self.round_of(state).abandoned
        if name == "check":
            return kind == "end" and self.round_of(state).checked < len(self.data.end_of_round)
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
        if name == "abandon":
            return (FieldSpec(key="text", label=N_("The new action"), kind="str", default=""),)
        return ()

    def apply_action(self, state: State, name: str, args: dict[str, Any]) -> State:
        if name == "check":
            return self._check(state)
        if name == "bind":
            return self.bind_wounds(state, self.anyone(state, str(args.get("combatant", ""))))
        combatant = self.actor(state, str(args.get("combatant", "")))
        if name == "attack":
            return self.attack(state, combatant, args)
        if name == "main_action":
            return self.main_action(state, combatant, args)
        if name == "abandon":
            return self._abandon(state, combatant, str(args.get("text") or "").strip())
        if name == "effect":
            return self.start_effect(state, combatant, args)
        raise RuleError(_("Unknown action {name}.", name=name))

    def _abandon(self, state: State, combatant: Combatant, text: str) -> State:
        positions = self.slots_of(state, combatant.id)
        if not positions:
            raise RuleError(_("{name} has no place in this round's order.", name=combatant.name))
        if positions[0] < state.cursor:
            raise RuleError(_("{name} has already acted this round.", name=combatant.name))
        current = self.round_of(state)
        state = self.with_round(state, replace(current, abandoned=(*current.abandoned, combatant.id)))
        cursor_id = state.order[state.cursor].combatants if state.cursor < len(state.order) else ()
        order = self.build_order(state)
        # Keep the turn where it was: on the slot of whoever acts now, or, if he was alone in it, the next one.
        cursor = next(
            (i for i, slot in enumerate(order) if set(slot.combatants) & (set(cursor_id) - {combatant.id})),
            min(state.cursor, len(order) - 1),
        )
        state = replace(state, order=order, cursor=cursor)
        name = who(state, combatant)
        # What a monster does instead is the DM's, as what he declared was: the players read that he changed it.
        secret = bool(text) and self.declared_in_secret(state, combatant.id)
        what = (gm_only(typed(text)) if secret else typed(text)) if text else Msg(id=N_("another action"))
        public = (
            Msg(id=N_("{name} changes his action: he acts at the very end of the round."), params={"name": name})
            if secret
            else None
        )
        return log(
            state,
            N_("{name} changes his action ({what}): he acts at the very end of the round."),
            facts={"abandoned": True},
            public=public,
            name=name,
            what=what,
        )

    def _check(self, state: State) -> State:
        current = self.round_of(state)
        parts = self.data.end_of_round
        if current.checked >= len(parts):
            raise RuleError(_("Every part of the end of the round is done."))
        part = parts[current.checked]
        state = self.with_round(state, replace(current, checked=current.checked + 1))
        # The DM's checklist, a reminder to him alone.
        state = log(
            state,
            N_("End of round, {part} ({n}/{total}): {question}"),
            secret=True,
            facts={"part": part.id},
            part=Msg(id=part.label),
            n=current.checked + 1,
            total=len(parts),
            question=Msg(id=part.question),
        )
        if part.id == "status":
            for combatant in state.combatants:
                lines = self._effect_lines(state, combatant)
                # The effects on a monster are the DM's, as the lines that put them on were.
                secret = bool(lines) and self.declared_in_secret(state, combatant.id)
                for line in lines:
                    state = log(state, line, secret=secret)
        return state

    def _effect_lines(self, state: State, combatant: Combatant) -> list[Msg]:
        return [
            Msg(id=N_("{name}: {effect}."), params={"name": who(state, combatant), "effect": effect})
            for effect in self.effects_on(state, combatant.id)
        ]

    def on_round_end(self, state: State) -> State:
        state = self.tick_effects(self.bleed(state))
        return log(state, N_("End of the round: {parts}."), parts=[Msg(id=p.label) for p in self.data.end_of_round])

    # -- what the screens show ------------------------------------------------------------------------------
    def public_conditions(self, state: State, combatant_id: str) -> tuple[str, ...]:
        """The book's word for his health ("dying", "dead"): the one condition of the card the players see."""
        word = self.condition_word(state, combatant_id)
        return (after_name(word),) if word else ()

    def details(self, state: State, combatant_id: str) -> tuple[tuple[str, str], ...]:
        combatant = state.combatant(combatant_id)
        sheet = self.po_sheet(combatant)
        lines = [
            (_("Class"), f"{_(sheet.cls)} {level_text(sheet)}"),
            (_("THAC0 / AC"), f"{thac0(sheet)} / {sheet.ac}" + (f" ({_(sheet.armour)})" if sheet.armour else "")),
        ]
        if sheet.weapon:
            lines.append(
                (
                    _("Weapon"),
                    _(sheet.weapon)
                    + (f" +{sheet.magic}" if sheet.magic else "")
                    + (f", {_(sheet.weapon2)}" if sheet.weapon2 else ""),
                )
            )
        elif sheet.forms or sheet.natural:
            lines.append((_("Weapon"), ", ".join(_(form) for form in natural_forms(sheet)) or _("natural weapons")))
        reading = self.reading(state, combatant)
        lines.append((_("Phase"), f"{_(self.data.phases[reading.index].label)} ({'; '.join(reading.steps)})"))
        current = self.round_of(state)
        if combatant_id in current.declarations:
            lines.append((_("Declared"), str(self.declared_what(state, combatant_id))))
        if combatant_id in current.abandoned:
            lines.append((_("Action"), _("changed: at the end of the round")))
        if self.spell_lost(state, combatant_id):
            lines.append((_("Spell"), _("LOST")))
        effects = self.effects_on(state, combatant_id)
        if effects:
            lines.append((_("Effects"), "; ".join(str(effect) for effect in effects)))
        word = self.condition_word(state, combatant_id)
        if word:
            lines.append((_("Condition"), _(word)))
        if self.step_kind(state) == "end":
            parts = self.data.end_of_round
            marks = [("✓ " if index < current.checked else "☐ ") + _(part.label) for index, part in enumerate(parts)]
            lines.append((_("End of round"), " · ".join(marks)))
        return tuple(lines)


RULESET = PlayersOption()
