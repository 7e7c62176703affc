"""The Trudvang ruleset's foundation: its data, sheets, declarations and IMs, the round's shape, surprise,
the typed round and fight state, and the checks every action shares (who acts, whose turn it is).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec
from msgspec.structs import replace

from tui_combat.engine.audience import behind, who, whos
from tui_combat.engine.contract import FieldSpec, Ruleset, Situation, StepDef
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, Param, log
from tui_combat.engine.mistakes import validation_text
from tui_combat.engine.model import Combatant, State
from tui_combat.engine.saves import SaveOdds
from tui_combat.i18n import N_, _
from tui_combat.rulesets.trudvang.budget import Budget, cp_pools, find_weapon, fresh_budget
from tui_combat.rulesets.trudvang.data import SKILL_FIELDS, UNARMED, TrudvangData, default_data, norm
from tui_combat.rulesets.trudvang.sheet import SHEET_LABELS, TrudvangSheet, Weapon, is_none, sheet_from_fields
from tui_combat.rulesets.trudvang.state import Carry, Declaration, RoundInfo, Turn, Used

__all__ = ["TrudvangBase", "convert_args", "signed"]

Args = TypeVar("Args", bound=msgspec.Struct)


def signed(value: int) -> str:
    """``+5`` / ``-5``: a modifier as a log parameter (log parameters carry no format specs)."""
    return f"{value:+d}"


def convert_args(raw: Mapping[str, Any], kind: type[Args], action: str) -> Args:
    """Typed arguments; a value left empty in a form ("") means the default. A roll arrives as a dict."""
    try:
        return msgspec.convert({k: v for k, v in raw.items() if v != ""}, kind, strict=False)
    except msgspec.ValidationError as error:
        raise RuleError(_("{action}: {error}", action=action, error=validation_text(error, raw))) from None


class TrudvangBase(Ruleset[RoundInfo, Carry]):
    id = "trudvang"
    name = N_("Trudvang Chronicles")
    name_in = N_("in the Trudvang Chronicles")
    health_label = N_("BP")
    health_help = N_("Body Points: worked out from the race when the sheet has one")
    round_state_type = RoundInfo
    fight_state_type = Carry

    def __init__(self, data: TrudvangData | None = None) -> None:
        """``data``: tables of its own; None: the packaged tables with the GM's house rules."""
        self._own_data = data
        self._sheets: dict[bytes, TrudvangSheet] = {}
        self._sheets_from: TrudvangData | None = None
        self._fields: tuple[TrudvangData, tuple[FieldSpec, ...]] | None = None

    @property
    def data(self) -> TrudvangData:
        return self._own_data if self._own_data is not None else default_data()

    def prepare(self) -> None:
        self.data  # noqa: B018 - read (and check) the tables now, not in the middle of a fight

    def save_odds(self, state: State, combatant_id: str, kind: str, dc: int, *, cover: int = 0) -> SaveOdds:
        """Trudvang's combat chapter has no saving throws (``save_kinds`` is empty): an area deals its damage to
        each target, and resisting something is a skill or attribute roll of the game's own."""
        raise RuleError(
            _(
                "Trudvang has no saving throws: resisting is a skill or attribute roll of the game's own. "
                "An area deals its damage to each target, with no save."
            )
        )

    @property
    def sheet_fields(self) -> tuple[FieldSpec, ...]:  # type: ignore[override]  # the choices come from the data
        data = self.data
        if self._fields is None or self._fields[0] is not data:
            self._fields = (data, self._sheet_fields())
        return self._fields[1]

    def _sheet_fields(self) -> tuple[FieldSpec, ...]:
        data = self.data
        shields = (("none", N_("No shield")), *((key, s.name) for key, s in data.shields.items()))
        armour = (("none", N_("No armour")), *((key, a.name) for key, a in data.armour.items()))
        races = (("none", N_("none (BP = the HP typed)")), *((key, r.name) for key, r in data.races.items()))
        labels = SHEET_LABELS
        return (
            FieldSpec(
                key="sv", label=labels["sv"], kind="int", default=0, help=N_("The Combat skill value: the minimum CP.")
            ),
            FieldSpec(
                key="weapons",
                label=labels["weapons"],
                kind="str",
                default="",
                help=N_(
                    "broadsword, seax — another: Club (im -2, actions 3, group "
                    "one-handed heavy); a second of a kind: Left seax (like seax)"
                ),
            ),
            FieldSpec(key="shield", label=labels["shield"], kind="choice", default="none", choices=shields),
            FieldSpec(key="armour", label=labels["armour"], kind="choice", default="none", choices=armour),
            FieldSpec(
                key="race",
                label=labels["race"],
                kind="choice",
                default="none",
                choices=races,
                help=N_("Body Points = the race's base + Constitution + Strength"),
            ),
            FieldSpec(key="con_mod", label=labels["con_mod"], kind="int", default=0),
            FieldSpec(
                key="disciplines",
                label=labels["disciplines"],
                kind="str",
                default="",
                help=N_("Armed combat 1; Unarmed combat 1"),
            ),
            FieldSpec(
                key="specialties",
                label=labels["specialties"],
                kind="str",
                default="",
                help=N_("One-handed light weapons 2; Brawler 1"),
            ),
            FieldSpec(
                key="wrestling",
                label=labels["wrestling"],
                kind="int",
                default=0,
                help=N_("Caps the SV bought for grapple and Glima; 0: cannot grapple."),
            ),
            FieldSpec(key="ambidexter", label=labels["ambidexter"], kind="int", default=0),
            FieldSpec(key="shield_bearer", label=labels["shield_bearer"], kind="int", default=0),
            FieldSpec(key="body_control", label=labels["body_control"], kind="int", default=0),
            FieldSpec(key="str_mod", label=labels["str_mod"], kind="int", default=0),
            FieldSpec(key="agi_mod", label=labels["agi_mod"], kind="int", default=0),
            FieldSpec(
                key="fear", label=labels["fear"], kind="int", default=0, help=N_("0–5: fear 2 −1, 3 −3, 4 −5, 5 −7 IM")
            ),
        )

    # -- sheets ----------------------------------------------------------------------------------------
    def check_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        sheet_from_fields(sheet, self.data)
        return sheet

    def sheet_of(self, combatant: Combatant) -> TrudvangSheet:
        if self._sheets_from is not self.data:  # house rules read again: every sheet resolves anew
            self._sheets.clear()
            self._sheets_from = self.data
        key = msgspec.json.encode(combatant.sheet, order="deterministic")
        sheet = self._sheets.get(key)
        if sheet is None:
            try:
                sheet = sheet_from_fields(combatant.sheet, self.data)
            except RuleError as error:
                raise RuleError(_("{name}: {error}", name=combatant.name, error=error)) from None
            if len(self._sheets) > 4096:
                self._sheets.clear()
            self._sheets[key] = sheet
        return sheet

    def sheet(self, state: State, cid: str) -> TrudvangSheet:
        return self.sheet_of(state.combatant(cid))

    def effect_names(self) -> tuple[str, ...]:
        """What the seed names as lasting penalties (fear, fatigue, stress) and being held."""
        return (N_("fear"), N_("fatigue"), N_("stress"), N_("held"))

    def summary_columns(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return ((SHEET_LABELS["sv"], ("sv",)), (N_("CP"), ()), (SHEET_LABELS["armour"], ("armour",)))

    def summary(self, state: State, combatant_id: str) -> tuple[str, ...]:
        """SV and armour from the sheet; CP, the combat points of a fresh round (all pools together)."""
        sv, _cp, armour = super().summary(state, combatant_id)
        try:
            points = sum(cp_pools(self.sheet(state, combatant_id), self.data).values())
        except RuleError:
            return sv, "", armour
        return sv, str(points), armour

    # -- declarations and initiative modifiers ---------------------------------------------------------
    def read_declaration(
        self, state: State, cid: str, raw: Mapping[str, Any] | Declaration | None
    ) -> tuple[Declaration, Used]:
        """A declaration (form values or stored) checked against the sheet."""
        combatant = state.combatant(cid)
        sheet = self.sheet_of(combatant)
        if isinstance(raw, Declaration):
            declaration = raw
        else:
            try:
                declaration = msgspec.convert(dict(raw or {}), Declaration, strict=False)
            except msgspec.ValidationError as error:
                raise RuleError(
                    _(
                        "{name}'s declaration: {error}",
                        name=combatant.name,
                        error=validation_text(error, dict(raw or {})),
                    )
                ) from None

        def pick(name: str, default: Weapon | None) -> Weapon | None:
            if not name.strip():
                return default
            if is_none(name) or norm(name) == UNARMED:
                return None
            weapon = find_weapon(sheet, name, self.data)
            if weapon is None:
                known = ", ".join(w.name for w in sheet.weapons) or _("none")
                raise RuleError(
                    _(
                        '{name} has no "{weapon}" on his sheet (his weapons: {known}).',
                        name=combatant.name,
                        weapon=name,
                        known=known,
                    )
                )
            return weapon

        weapon = pick(declaration.weapon, sheet.weapons[0] if sheet.weapons else None)
        offhand = pick(declaration.offhand, None)
        if weapon is not None and offhand is not None and norm(weapon.name) == norm(offhand.name):
            raise RuleError(
                _("{name} cannot hold the same {weapon} in both hands.", name=combatant.name, weapon=weapon.name)
            )
        shield = bool(sheet.shield) if declaration.shield is None else declaration.shield and bool(sheet.shield)
        used = Used(
            weapon=weapon, offhand=offhand, shield=shield, spell_im=declaration.spell_im, other_im=declaration.other_im
        )
        return declaration, used

    def used(self, state: State, cid: str) -> Used:
        """What the combatant uses this round: his declaration, or his first weapon and his shield."""
        return self.read_declaration(state, cid, self.round_of(state).declarations.get(cid))[1]

    def declaration(self, state: State, combatant_id: str) -> dict[str, Any]:
        stored = self.round_of(state).declarations.get(combatant_id)
        return msgspec.to_builtins(stored) if stored is not None else {}

    def carried_bonus(self, state: State, cid: str) -> int:
        """The bonus on his initiative this round for a turn he skipped last round."""
        bonus = self.fight_of(state).init_bonus.get(cid)
        return bonus.value if bonus is not None and bonus.round == state.round else 0

    def im_parts(
        self, state: State, cid: str, used: Used | None = None, *, bonus: bool = True
    ) -> list[tuple[str, int]]:
        """The initiative modifiers of the combatant's declared action, as (label, value), non-zero only;
        ``bonus``: with the bonus for a skipped turn."""
        sheet = self.sheet(state, cid)
        used = used or self.used(state, cid)
        data = self.data
        parts: list[tuple[str, int]] = []
        if sheet.armour:
            parts.append((data.armour[sheet.armour].name, data.armour[sheet.armour].im))
        for weapon in (used.weapon, used.offhand):
            if weapon is not None:
                parts.append((weapon.name, weapon.im))
        if used.shield and sheet.shield:
            parts.append((data.shields[sheet.shield].name, data.shields[sheet.shield].im))
        parts.append((_("spell"), used.spell_im))
        parts.append((_("other"), used.other_im))
        parts.append((_("Agility"), sheet.agi_mod))
        for field in SKILL_FIELDS:
            skill = data.field_skill(field)
            if skill is not None and skill.im_per_level:
                parts.append((skill.name, getattr(sheet, field) * skill.im_per_level))
        parts.append((_("fear"), data.rules.fear_im[min(sheet.fear, len(data.rules.fear_im) - 1)]))
        parts.append((_("damage"), self.damage_im(state, cid)))
        if bonus:
            parts.append((_("skipped turn"), self.carried_bonus(state, cid)))
        return [(label, value) for label, value in parts if value]

    def damage_im(self, state: State, cid: str) -> int:
        """The damage level's penalty on his initiative this round (:mod:`.health`)."""
        return 0

    def action_penalty(self, state: State, cid: str) -> int:
        """The damage level's penalty on his combat actions now (:mod:`.health`)."""
        return 0

    def init_modifier(self, state: State, cid: str, used: Used | None = None, *, bonus: bool = True) -> int:
        return sum(value for _label, value in self.im_parts(state, cid, used, bonus=bonus))

    # -- the round's shape, surprise, distance ---------------------------------------------------------
    def steps(self, state: State) -> tuple[StepDef, ...]:
        return (
            StepDef(
                id="declare",
                label=N_("actions"),
                kind="declare",
                help=N_("Each combatant chooses weapon, shield and spell: their IMs count."),
            ),
            StepDef(id="initiative", label=N_("initiative"), kind="initiative", help=N_("1d10, open-ended, + IMs.")),
            StepDef(
                id="countdown",
                label=N_("countdown"),
                kind="resolve",
                help=N_("20, 15, 10, 9 … 1, ≤0: higher initiative first."),
            ),
            StepDef(id="end", label=N_("end (CP refresh)"), kind="end"),
        )

    def surprise_effect(self) -> Msg:
        """The seed has no surprise roll (the GM marks who is surprised); a surprised combatant acts in
        round 1 with the data's penalty (−5) on every combat action, not on his initiative."""
        return Msg(
            id=N_("Surprised, they act this round with {penalty} on every combat action: {names}."),
            params={"penalty": f"{self.data.rules.surprise_penalty:+d}"},
        )

    def surprised_now(self, state: State, cid: str) -> bool:
        return state.round == 1 and cid in state.surprised

    def distance_situations(self) -> tuple[Situation, ...]:
        return (Situation(id="gm", label=N_("as the GM describes")),)

    # -- round start and end ---------------------------------------------------------------------------
    def on_round_start(self, state: State) -> State:
        carry = self.fight_of(state)
        bonuses = {cid: bonus for cid, bonus in carry.init_bonus.items() if bonus.round >= state.round}
        state = self.with_fight(state, replace(carry, init_bonus=bonuses))
        for combatant in state.combatants:
            bonus = bonuses.get(combatant.id)
            if bonus is not None and bonus.round == state.round and bonus.value and combatant.status == "active":
                state = log(
                    state,
                    N_("{name} skipped last round's turn: {bonus} to initiative."),
                    facts={"bonus": bonus.value},
                    name=who(state, combatant),
                    bonus=signed(bonus.value),
                )
        return self.with_round(state, RoundInfo())

    def on_round_end(self, state: State) -> State:
        info = self.round_of(state)
        skipped = whos(state, (cid for cid, turn in info.turns.items() if turn.skipped))
        if skipped:
            state = log(
                state,
                N_("Skipped their turn, {bonus} to initiative next round: {names}."),
                facts={"bonus": self.data.rules.skip_bonus},
                bonus=signed(self.data.rules.skip_bonus),
                names=skipped,
            )
        return log(state, N_("Combat points refresh for the next round."))

    # -- the typed round state -------------------------------------------------------------------------
    def budget_of(self, state: State, info: RoundInfo, cid: str) -> Budget:
        budget = info.budgets.get(cid)
        return budget if budget is not None else fresh_budget(self.sheet(state, cid), self.data)

    @staticmethod
    def with_budget(info: RoundInfo, cid: str, budget: Budget) -> RoundInfo:
        return replace(info, budgets={**info.budgets, cid: budget})

    @staticmethod
    def with_turn(info: RoundInfo, cid: str, turn: Turn) -> RoundInfo:
        return replace(info, turns={**info.turns, cid: turn})

    def holders(self, state: State) -> dict[str, str]:
        """Victim id → the id of whoever holds him in a grapple."""
        return self.fight_of(state).grappled

    def with_holders(self, state: State, grappled: dict[str, str]) -> State:
        return self.with_fight(state, replace(self.fight_of(state), grappled=grappled))

    # -- checks every action shares --------------------------------------------------------------------
    def acting(self, state: State, cid: str) -> Combatant:
        """The combatant who acts: in the fight, and the fight is on."""
        if state.phase != "round":
            raise RuleError(_("The fight has not started."))
        return self.actor(state, cid)

    def slot_index(self, state: State, cid: str) -> int | None:
        for index, slot in enumerate(state.order):
            if cid in slot.combatants:
                return index
        return None

    def called(self, state: State, cid: str, info: RoundInfo | None = None) -> bool:
        """Whether the combatant's call has come this round (his turn is now or past)."""
        kind = self.step_kind(state)
        if kind == "end":
            return True
        if kind != "resolve":
            return False
        turn = (info or self.round_of(state)).turns.get(cid, Turn())
        if turn.held or turn.skipped or turn.acted_held:
            return True
        index = self.slot_index(state, cid)
        return index is not None and index <= state.cursor

    def own_turn(self, state: State, combatant: Combatant, info: RoundInfo) -> Turn:
        """Refuse unless it is the combatant's turn now; his Turn record."""
        kind = self.step_kind(state)
        if kind != "resolve":
            raise RuleError(
                _("The countdown has not started: roll initiative first.") if kind != "end" else _("The round is over.")
            )
        turn = info.turns.get(combatant.id, Turn())
        if turn.skipped:
            raise RuleError(_("{name} gave up his turn this round: he may only parry.", name=combatant.name))
        if turn.held:
            raise RuleError(_("{name} is holding his action: act held first.", name=combatant.name))
        if combatant.id not in state.acting_now():
            index = self.slot_index(state, combatant.id)
            if index is None:
                raise RuleError(_("{name} has no place in the countdown this round.", name=combatant.name))
            now = str(state.order[state.cursor].label) if state.cursor < len(state.order) else _("the end")
            call = str(state.order[index].label)
            if index > state.cursor:
                raise RuleError(
                    _(
                        "It is not {name}'s turn: his call is {call}, the countdown is at {now}.",
                        name=combatant.name,
                        call=call,
                        now=now,
                    )
                )
            raise RuleError(_("{name}'s turn has passed (his call was {call}).", name=combatant.name, call=call))
        return turn

    def target_of(self, state: State, cid: str, attacker: Combatant) -> Combatant:
        if not cid:
            raise RuleError(_("Choose whom {name} attacks.", name=attacker.name))
        try:
            target = state.combatant(cid)
        except KeyError:
            raise RuleError(_("Select a combatant first.")) from None
        if target.id == attacker.id:
            raise RuleError(_("{name} cannot attack himself.", name=attacker.name))
        return target

    def not_grappled(self, state: State, combatant: Combatant) -> None:
        grappler = self.holders(state).get(combatant.id)
        if grappler is not None:
            raise RuleError(
                _(
                    "{name} is held by {holder}: he can only try to break free.",
                    name=combatant.name,
                    holder=self.name_of(state, grappler),
                )
            )

    @staticmethod
    def name_of(state: State, cid: str) -> str:
        """A combatant's name, also for one removed from the fight since (never his id)."""
        return state.names().get(cid) or _("someone who has left")

    @staticmethod
    def named(state: State, cid: str) -> Msg:
        """A combatant as a log parameter (:func:`~tui_combat.engine.audience.who`), also one removed from the
        fight since."""
        return who(state, cid) if state.has(cid) else Msg(id=N_("someone who has left"))

    @staticmethod
    def figure(state: State, cid: str, value: Param) -> Param:
        """A figure of his sheet or his health as a log parameter (an armour's PV and BV, the Body Points he lost,
        his damage level's penalty, his IMs): the party's are the players' own; anyone else's stay behind the GM's
        screen (:func:`~tui_combat.engine.audience.behind`)."""
        combatant = state.combatant(cid)
        try:
            party = state.side(combatant.side).is_party
        except KeyError:
            party = False
        return value if party else behind(value)
