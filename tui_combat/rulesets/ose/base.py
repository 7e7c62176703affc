"""The round's shape, sheets, declarations, surprise and distance, and the helpers the rest shares."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast, get_args

import msgspec
from msgspec.structs import asdict, replace

from tui_combat.engine.audience import side_ref, typed, who
from tui_combat.engine.contract import FieldSpec, OptionSpec, Ruleset, Situation, StepDef
from tui_combat.engine.dice import DiceError, Roll, parse
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, log
from tui_combat.engine.mistakes import convert_sheet, refuse, validation_text
from tui_combat.engine.model import Combatant, RollRequest, State
from tui_combat.i18n import N_, _
from tui_combat.rulesets.hit_dice import read_hit_dice
from tui_combat.rulesets.ose.data import tables
from tui_combat.rulesets.ose.saves import CLASS_WORDS, class_name, read_save_as, read_save_line
from tui_combat.rulesets.ose.state import Declaration, Intent, OseFight, OseRound, Phase, Sheet

INTENT_LABELS: dict[str, str] = {
    "none": N_("nothing"),
    "spell": N_("a spell"),
    "rune": N_("a fairy rune"),
    "flee": N_("fleeing from melee"),
}
PHASE_LABELS: dict[str, str] = {
    "morale": N_("morale"),
    "movement": N_("movement"),
    "missile": N_("missiles"),
    "magic": N_("magic"),
    "melee": N_("melee"),
    "slow": N_("slow weapons"),
}
INTENTS: tuple[str, ...] = get_args(Intent)
PHASES: tuple[str, ...] = get_args(Phase)


class OseBase(Ruleset[OseRound, OseFight]):
    id = "ose"
    name = N_("Old-School Essentials / Dolmenwood")
    name_in = N_("in Old-School Essentials / Dolmenwood")
    round_state_type = OseRound
    fight_state_type = OseFight
    options = (
        OptionSpec(
            key="rules",
            label=N_("Rules"),
            choices=(
                ("dolmenwood", N_("Dolmenwood: fairy runes; morale at the end of the round")),
                ("ose", N_("Old-School Essentials: spells only; morale at the start of each side's turn")),
            ),
        ),
        OptionSpec(
            key="ties",
            label=N_("Tied initiative"),
            choices=(
                ("reroll", N_("tied sides roll again")),
                ("simultaneous", N_("tied sides act simultaneously")),
            ),
        ),
        OptionSpec(
            key="tied_disruption",
            label=N_("Spells in a simultaneous turn"),
            choices=(
                ("simultaneous", N_("a hit in the shared turn does not disrupt: nobody lost initiative")),
                ("phases", N_("a hit before the shared magic phase disrupts, as the phases come")),
            ),
        ),
        OptionSpec(
            key="initiative",
            label=N_("Initiative"),
            choices=(
                ("side", N_("1d6 per side")),
                ("individual", N_("individual: 1d6 + Dexterity modifier each")),
            ),
        ),
        OptionSpec(
            key="slow_weapons",
            label=N_("Slow weapons"),
            choices=(
                ("off", N_("slow weapons act with their side")),
                ("on", N_("slow weapons act last in the round")),
            ),
        ),
    )
    sheet_fields = (
        FieldSpec(key="ac", label=N_("Armour class (ascending)"), kind="int", default=10),
        FieldSpec(key="shield", label=N_("Shield's part of AC"), kind="int", default=0),
        FieldSpec(key="attack", label=N_("Attack bonus"), kind="int", default=0),
        FieldSpec(key="damage", label=N_("Damage dice"), default="1d6"),
        FieldSpec(key="weapon", label=N_("Weapon"), default=""),
        FieldSpec(key="dex", label=N_("Dexterity"), kind="int", default=10),
        FieldSpec(
            key="morale",
            label=N_("Morale (2–12, 0: none)"),
            kind="int",
            default=0,
            help=N_("Monsters and NPCs; player characters decide for themselves."),
        ),
        FieldSpec(
            key="cls",
            label=N_("Character class"),
            kind="choice",
            default="",
            choices=(("", N_("none (a monster)")), *((word, word) for word in CLASS_WORDS)),
        ),
        FieldSpec(key="level", label=N_("Level"), kind="int", default=1),
        FieldSpec(key="hd", label=N_("Hit Dice"), default="", help=N_("a monster's: 1-1, 4+1; its HP are rolled")),
        FieldSpec(key="save_as", label=N_("Saves as"), default="", help=N_("F1, MU5, T1, NH (normal human)")),
        FieldSpec(
            key="saves",
            label=N_("Saving throws"),
            default="",
            help=N_("its own: D12 W13 P14 B15 S16; Dolmenwood D12 R13 H14 B15 S16"),
        ),
    )

    def prepare(self) -> None:
        tables()

    def effect_names(self) -> tuple[str, ...]:
        return (N_("asleep"), N_("held"), N_("blinded"))

    def summary_columns(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return ((N_("AC"), ("ac",)), (N_("Attack bonus"), ("attack",)), (N_("Weapon"), ("weapon", "damage")))

    # -- options -----------------------------------------------------------------------------------
    @staticmethod
    def dolmenwood(state: State) -> bool:
        return state.options.get("rules", "dolmenwood") == "dolmenwood"

    @staticmethod
    def individual(state: State) -> bool:
        return state.options.get("initiative", "side") == "individual"

    def phases(self, state: State) -> tuple[Phase, ...]:
        """The phases of each side's turn, in order."""
        if self.dolmenwood(state):
            return ("movement", "missile", "magic", "melee")
        return ("morale", "movement", "missile", "magic", "melee")

    # -- the round's shape -------------------------------------------------------------------------
    def steps(self, state: State) -> tuple[StepDef, ...]:
        last = (
            StepDef(
                id="morale",
                label=N_("Morale"),
                kind="end",
                help=N_("The referee checks morale for monsters and NPCs where a trigger called for it."),
            )
            if self.dolmenwood(state)
            else StepDef(id="end", label=N_("End of round"), kind="end")
        )
        return (
            StepDef(
                id="declare",
                label=N_("Declarations"),
                kind="declare",
                help=N_("Spells, fairy runes and fleeing from melee are declared before initiative."),
            ),
            StepDef(id="initiative", label=N_("Initiative"), kind="initiative"),
            StepDef(
                id="resolve",
                label=N_("Sides act"),
                kind="resolve",
                help=N_("Each side in turn: movement, missiles, magic, melee."),
            ),
            last,
        )

    # -- sheets ------------------------------------------------------------------------------------
    def check_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        """The sheet checked (every field of the wrong kind or unknown, and each other mistake, refused)."""
        checked, mistakes = convert_sheet(sheet, Sheet, strict=True)
        if checked.morale != 0 and not 2 <= checked.morale <= 12:
            mistakes.append(_("Morale is from 2 to 12 (0: none), not {value}.", value=checked.morale))
        if checked.shield < 0:
            mistakes.append(_("The shield's part of AC cannot be negative."))
        try:
            parse(checked.damage)
        except DiceError as error:
            mistakes.append(_("Damage dice: {error}", error=error))
        if checked.level < 0:
            mistakes.append(_("Level cannot be negative."))
        cls = class_name(checked.cls) if checked.cls else ""
        if cls is None:
            mistakes.append(
                _(
                    'Class "{cls}" is not one of {known}.',
                    cls=checked.cls,
                    known=", ".join(_(word) for word in tables().saves.classes),
                )
            )
        for check, text in (
            (read_hit_dice, checked.hd),
            (read_save_as, checked.save_as),
            (read_save_line, checked.saves),
        ):
            try:
                check(text) if text.strip() else None
            except RuleError as error:
                mistakes.append(str(error))
        refuse(mistakes)
        return asdict(replace(checked, cls=cls) if cls is not None and cls != checked.cls else checked)

    @staticmethod
    def sheet_of(combatant: Combatant) -> Sheet:
        try:
            return msgspec.convert(combatant.sheet, Sheet)
        except msgspec.ValidationError as error:
            raise RuleError(
                _("{name}: {error}", name=combatant.name, error=validation_text(error, combatant.sheet))
            ) from None

    # -- declarations ------------------------------------------------------------------------------
    def declaration_of(self, state: State, combatant_id: str) -> Declaration:
        return self.round_of(state).declarations.get(combatant_id, Declaration())

    def casting(self, state: State, combatant_id: str) -> bool:
        return self.declaration_of(state, combatant_id).intent in ("spell", "rune")

    def fleeing(self, state: State, combatant_id: str) -> bool:
        return self.declaration_of(state, combatant_id).intent == "flee"

    def declaration_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        intents = [i for i in INTENTS if i != "rune" or self.dolmenwood(state)]
        return (
            FieldSpec(
                key="intent",
                label=N_("Declares"),
                kind="choice",
                default="none",
                choices=tuple((i, INTENT_LABELS[i]) for i in intents),
            ),
            FieldSpec(key="what", label=N_("Spell or rune"), default="", help=N_("its name (optional)")),
        )

    def declaration(self, state: State, combatant_id: str) -> dict[str, Any]:
        stored = self.round_of(state).declarations.get(combatant_id)
        return {} if stored is None else {"intent": stored.intent, "what": stored.what}

    def declare(self, state: State, combatant_id: str, declaration: dict[str, Any]) -> State:
        combatant = self.actor(state, combatant_id)
        if state.initiative.rolls or state.initiative.settled:
            raise RuleError(_("Declarations are made before initiative is rolled."))
        if self.surprised_now(state, combatant_id):
            raise RuleError(_("{name} is surprised and loses this round.", name=combatant.name))
        intent = str(declaration.get("intent", "none") or "none")
        what = str(declaration.get("what", "") or "").strip()
        if intent not in INTENTS:
            raise RuleError(
                _(
                    '"{intent}" cannot be declared; choose one of: {known}.',
                    intent=intent,
                    known=", ".join(_(INTENT_LABELS[i]) for i in INTENTS),
                )
            )
        if intent == "rune" and not self.dolmenwood(state):
            raise RuleError(_("Fairy runes are Dolmenwood's: choose the Dolmenwood rules to declare one."))
        current = self.round_of(state)
        declarations = dict(current.declarations)
        if intent == "none":
            declarations.pop(combatant_id, None)
        else:
            declarations[combatant_id] = Declaration(intent=cast(Intent, intent), what=what if intent != "flee" else "")
        state = self.with_round(state, replace(current, declarations=declarations))
        return log(
            state,
            N_("{name} declares {intent}{what}."),
            facts={"intent": intent},
            name=who(state, combatant),
            intent=Msg(id=INTENT_LABELS[intent]),
            what=typed_after(": ", what) if intent != "flee" else "",
        )

    # -- surprise and distance ---------------------------------------------------------------------
    def surprise_dice(self) -> str:
        return tables().surprise.dice

    def is_surprised(self, total: int) -> bool:
        return total <= tables().surprise.surprised_up_to

    def surprise_requests(self, state: State) -> tuple[RollRequest, ...]:
        """1d6 per side, each side named by reference: a side the players see nobody of rolls for the GM alone."""
        dice = self.surprise_dice()
        return tuple(
            RollRequest(
                key=side.id,
                label=side_ref(state, side.id),
                dice=dice,
                combatants=tuple(c.id for c in state.combatants if c.side == side.id),
            )
            for side in state.sides
        )

    def surprise_effect(self) -> str:
        return N_("Surprised, they lose this round: {names}.")

    def distance_situations(self) -> tuple[Situation, ...]:
        return tuple(
            Situation(id=d.id, label=d.label, dice=d.dice, multiplier=d.multiplier, unit=d.unit)
            for d in tables().distance
        )

    def settle_surprise(self, state: State, rolls: Mapping[str, Roll], modifiers: Mapping[str, int]) -> State:
        """The default (both sides surprised: the effects cancel), and whether both were, for the distance."""
        state = super().settle_surprise(state, rolls, modifiers)
        rolled = [r for r in self.surprise_requests(state) if r.key in rolls]
        both = len(rolled) > 1 and all(self.is_surprised(rolls[r.key].total + modifiers.get(r.key, 0)) for r in rolled)
        return self.with_fight(state, replace(self.fight_of(state), both_surprised=both))

    def encounter_distances(self, state: State) -> tuple[Situation, ...]:
        """The rows that apply to the surprise result: in the wilderness 4d6 × 10 yards, or 1d4 × 10 yards
        when either side is surprised — both sides too, whose surprise cancels (the dungeon's 2d6 × 10 ft either
        way)."""
        result = "surprised" if state.surprised or self.fight_of(state).both_surprised else "none"
        wanted = {d.id for d in tables().distance if d.surprise in ("any", result)}
        return tuple(s for s in self.distance_situations() if s.id in wanted)

    @staticmethod
    def surprised_now(state: State, combatant_id: str) -> bool:
        """Surprised combatants lose the first round."""
        return state.round <= 1 and combatant_id in state.surprised

    # -- the order's slots -------------------------------------------------------------------------
    def slot_phase(self, state: State, index: int) -> str:
        """The phase of ``state.order[index]`` ("" when out of range)."""
        keys = self.round_of(state).slot_keys
        return keys[index].rpartition(":")[2] if 0 <= index < len(keys) else ""

    def phase_now(self, state: State) -> str:
        """The phase the cursor is on in the resolve step, else ""."""
        return self.slot_phase(state, state.cursor) if self.step_kind(state) == "resolve" else ""

    def phase_index(self, state: State, combatant_id: str, phase: str) -> int | None:
        """Where in the order the combatant's ``phase`` comes (None when he has no such slot)."""
        keys = self.round_of(state).slot_keys
        for index, slot in enumerate(state.order):
            if index < len(keys) and keys[index].rpartition(":")[2] == phase and combatant_id in slot.combatants:
                return index
        return None

    def acting_in(self, state: State, combatant_id: str | None, *phases: str) -> bool:
        """The combatant is in the slot acting now, and that slot is one of ``phases``."""
        return combatant_id is not None and self.phase_now(state) in phases and combatant_id in state.acting_now()


def typed_after(before: str, text: str) -> Msg | str:
    """What the GM typed (a spell's name) as a log parameter after ``before`` (": Sleep"), or "" for nothing."""
    return Msg(id=before + "{text}", params={"text": typed(text)}) if text else ""
