"""AD&D 2nd edition: the combat round of the Player's Handbook.

Round: the DM decides monsters' actions in secret → players declare → initiative → resolve in
initiative order → end of round. Initiative methods (option ``initiative``):

* ``standard`` — one 1d10 per side plus the side's Table 55 modifiers; lowest first; tied sides act
  simultaneously (one slot).
* ``group`` — one 1d10 per side; each combatant adds his own Table 55 situations and the Table 56
  modifier of his declared action (weapon speed, casting time, natural weapons by size, magic items).
* ``individual`` — every combatant rolls (a group such as "5 orc" shares one roll) and adds the same
  modifiers as ``group``.

Readings settled here (the book leaves them to the DM):

* A spell with a casting time of one round or more needs no initiative: its caster gets a slot
  "end of round" after every other action.
* A caster hit before his slot comes up loses the spell; a hit in the *same* slot is simultaneous and
  does not disrupt it (the seed's round 3: the troll at 7 disrupts Delsenora at 10).
* A second attack (3/2 in even rounds by default, 2/1, or haste) comes after every first attack, in the
  same order, as its own slots labelled "2nd".
* Hasted casters get no haste modifier in the round they cast (seed, round 3).
* Surprised sides are left out of the order of round 1 (the free round).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
from msgspec.structs import replace

from tui_combat.engine.model import Combatant, Slot, State
from tui_combat.i18n import _
from tui_combat.engine.contract import (
    ActionKey,
    BudgetLine,
    FieldSpec,
    OptionSpec,
    RollRequest,
    RuleError,
    Situation,
    StepDef,
    SurpriseModifier,
)
from tui_combat.rulesets.data_loading import DATA_DIR, load_table


# -- the data file ---------------------------------------------------------------------------------
class _Labelled(msgspec.Struct, frozen=True):
    label: str
    value: int
    source: str
    id: str = ""


class _Distance(msgspec.Struct, frozen=True):
    id: str
    label: str
    dice: str
    multiplier: int
    unit: str
    source: str


class _Surprise(msgspec.Struct, frozen=True):
    dice: str
    surprised_up_to: int
    source: str
    modifiers: list[_Labelled]


class _Initiative(msgspec.Struct, frozen=True):
    dice: str
    source: str
    situations: list[_Labelled]
    actions: dict[str, int | str]
    natural_by_size: dict[str, int | str]
    magic_items: dict[str, int | str]


class _Thac0(msgspec.Struct, frozen=True):
    rates: dict[str, list[int] | str]
    monsters: dict[str, list[list[int]] | str]


class Tables(msgspec.Struct, frozen=True):
    schema: int
    surprise: _Surprise
    distance: list[_Distance]
    initiative: _Initiative
    weapon_speeds: dict[str, int | str]
    thac0: _Thac0
    attacks: dict[str, list[list[int | str]] | str]

    def numbers(self, table: dict[str, int | str]) -> dict[str, int]:
        return {key: value for key, value in table.items() if isinstance(value, int)}


@cache
def tables() -> Tables:
    return load_table(DATA_DIR / "adnd2e.toml", Tables)


# -- a combatant's sheet and declaration -------------------------------------------------------------
CLASSES = ("warrior", "wizard", "priest", "rogue", "monster")
SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")
ACTIONS = ("weapon", "spell", "item", "natural", "breath", "innate", "move", "other")
ITEMS = ("misc", "potion", "ring", "rod", "scroll", "staff", "wand")


class Sheet(msgspec.Struct, frozen=True, kw_only=True):
    cls: str = "warrior"
    level: int = 1
    """Level for characters; Hit Dice for monsters (extra hit points of +3 or more count one more die)."""
    thac0: int = 0
    """0 means: work it out from class and level (or Hit Dice)."""
    ac: int = 10
    weapon: str = ""
    speed: int = -1
    """−1 means: look the weapon up in the speed table."""
    magic: int = 0
    size: str = "medium"
    natural: bool = False
    attacks: str = "1/1"
    spells: str = ""
    """"name casting-time" pairs separated by commas: "acid arrow 2, haste 3, fireball 3"."""


class Declaration(msgspec.Struct, frozen=True, kw_only=True):
    action: str = "weapon"
    text: str = ""
    spell: str = ""
    casting: str = ""
    """A number (added to initiative) or "1 round", "2 rounds" …"""
    item: str = "misc"
    situations: str = ""
    """Table 55 situation ids, comma-separated."""


def sheet_of(combatant: Combatant) -> Sheet:
    try:
        return msgspec.convert(combatant.sheet, Sheet, strict=False)
    except msgspec.ValidationError as error:
        raise RuleError(_("{name}: {error}", name=combatant.name, error=error)) from None


def declaration_of(state: State, combatant_id: str) -> Declaration:
    raw = state.round_data.get("declarations", {}).get(combatant_id)
    if raw is None:
        return Declaration()
    try:
        declaration = msgspec.convert(raw, Declaration, strict=False)
    except msgspec.ValidationError as error:
        raise RuleError(str(error)) from None
    if declaration.action == "spell" and declaration.spell and not declaration.casting:
        spells = parse_spells(sheet_of(state.combatant(combatant_id)).spells)
        declaration = replace(declaration, casting=spells.get(declaration.spell, "1"))
    return declaration


def thac0(sheet: Sheet) -> int:
    if sheet.thac0:
        return sheet.thac0
    data = tables().thac0
    if sheet.cls == "monster":
        rows = data.monsters["table"]
        assert isinstance(rows, list)
        for max_hd, value in rows:
            if sheet.level <= max_hd:
                return value
        return 5
    rate = data.rates.get(sheet.cls, [1, 1])
    assert isinstance(rate, list)
    points, levels = rate
    return 20 - points * ((max(sheet.level, 1) - 1) // levels)


def weapon_speed(sheet: Sheet) -> int:
    base = sheet.speed
    if base < 0:
        speeds = tables().numbers(tables().weapon_speeds)
        base = speeds.get(sheet.weapon.strip().lower(), 0)
    return max(base - max(sheet.magic, 0), 0)


def parse_spells(text: str) -> dict[str, str]:
    """"acid arrow 2, haste 3" → {"acid arrow": "2", "haste": "3"}; a spell without a number takes 1."""
    spells: dict[str, str] = {}
    for part in text.split(","):
        words = part.strip().split()
        if not words:
            continue
        if len(words) > 1 and (words[-1].isdigit() or words[-1].endswith("r") and words[-1][:-1].isdigit()):
            spells[" ".join(words[:-1])] = words[-1]
        else:
            spells[" ".join(words)] = "1"
    return spells


def casting_rounds(casting: str) -> int:
    """Rounds of a casting time such as "1 round" or "2r"; 0 for a bare number."""
    text = casting.strip().lower()
    digits = "".join(ch for ch in text if ch.isdigit())
    if not digits or text.isdigit():
        return 0
    return int(digits)


def casting_modifier(casting: str) -> int:
    text = casting.strip()
    return int(text) if text.isdigit() else 0


def attacks_this_round(sheet: Sheet, round_number: int, three_halves: str, hasted: bool) -> int:
    rate = sheet.attacks.strip()
    number, _sep, per = rate.partition("/")
    try:
        attacks, rounds = int(number), int(per or "1")
    except ValueError:
        attacks, rounds = 1, 1
    if rounds == 2:
        extra_in_even = three_halves == "even"
        base = attacks // 2 + (1 if (round_number % 2 == 0) == extra_in_even else 0)
    else:
        base = attacks // max(rounds, 1)
    return max(base, 1) * (2 if hasted else 1)


# -- the ruleset ---------------------------------------------------------------------------------------
class ADnD2e:
    id = "adnd2e"
    name = "AD&D 2nd edition"
    surprise_effect = "Surprised, they lose this round: {names}."
    options = (
        OptionSpec(
            key="initiative",
            label="Initiative",
            choices=(
                ("standard", "standard: 1d10 per side"),
                ("group", "group-modified: 1d10 per side + own modifiers"),
                ("individual", "individual: 1d10 each"),
            ),
        ),
        OptionSpec(
            key="three_halves",
            label="3/2 attacks",
            choices=(("even", "two attacks in even rounds"), ("odd", "two attacks in odd rounds")),
        ),
    )
    sheet_fields = (
        FieldSpec(key="cls", label="Class", kind="choice", default="warrior", choices=tuple((c, c) for c in CLASSES)),
        FieldSpec(key="level", label="Level / HD", kind="int", default=1),
        FieldSpec(key="ac", label="AC", kind="int", default=10),
        FieldSpec(key="thac0", label="THAC0 (0 = from level)", kind="int", default=0),
        FieldSpec(key="weapon", label="Weapon", kind="str", default=""),
        FieldSpec(key="speed", label="Speed (−1 = from table)", kind="int", default=-1),
        FieldSpec(key="magic", label="Weapon bonus", kind="int", default=0),
        FieldSpec(key="natural", label="Natural weapons", kind="bool", default=False),
        FieldSpec(key="size", label="Size", kind="choice", default="medium", choices=tuple((s, s) for s in SIZES)),
        FieldSpec(key="attacks", label="Attacks", kind="str", default="1/1", help="1/1, 3/2, 2/1"),
        FieldSpec(key="spells", label="Spells", kind="str", default="", help="acid arrow 2, haste 3"),
    )

    # -- steps ---------------------------------------------------------------------------------
    def steps(self, state: State) -> tuple[StepDef, ...]:
        return (
            StepDef(id="intent", label="Monsters", kind="declare", secret=True,
                    help="The DM decides, secretly, what every monster and NPC does."),
            StepDef(id="declare", label="Players", kind="declare",
                    help="The players declare; spells cannot be changed once initiative is rolled."),
            StepDef(id="initiative", label="Initiative", kind="initiative"),
            StepDef(id="resolve", label="Resolve", kind="resolve"),
            StepDef(id="end", label="End of round", kind="end"),
        )

    def check_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(sheet) - set(Sheet.__struct_fields__))
        if unknown:
            raise RuleError(_("Unknown field {fields}; AD&D 2e sheets have: {known}.",
                              fields=", ".join(unknown), known=", ".join(Sheet.__struct_fields__)))
        try:
            checked = msgspec.convert(sheet, Sheet, strict=False)
        except msgspec.ValidationError as error:
            raise RuleError(_("Sheet: {error}", error=error)) from None
        if checked.cls not in CLASSES:
            raise RuleError(_("Class \"{cls}\" is not one of {known}.", cls=checked.cls, known=", ".join(CLASSES)))
        if checked.size not in SIZES:
            raise RuleError(_("Size \"{size}\" is not one of {known}.", size=checked.size, known=", ".join(SIZES)))
        return sheet

    def declare(self, state: State, combatant_id: str, declaration: dict[str, Any]) -> State:
        from tui_combat.engine.apply import store_declaration

        if state.order:
            raise RuleError(_("Declarations are fixed once initiative is rolled (spells cannot be changed)."))
        try:
            checked = msgspec.convert(declaration, Declaration, strict=False)
        except msgspec.ValidationError as error:
            raise RuleError(_("Declaration: {error}", error=error)) from None
        if checked.action not in ACTIONS:
            raise RuleError(_("Action \"{action}\" is not one of {known}.", action=checked.action, known=", ".join(ACTIONS)))
        return store_declaration(state, combatant_id, declaration)

    # -- set-up ----------------------------------------------------------------------------------
    def surprise_dice(self) -> str:
        return tables().surprise.dice

    def surprise_modifiers(self) -> tuple[SurpriseModifier, ...]:
        return tuple(SurpriseModifier(label=m.label, value=m.value) for m in tables().surprise.modifiers)

    def is_surprised(self, total: int) -> bool:
        return total <= tables().surprise.surprised_up_to

    def distance_situations(self) -> tuple[Situation, ...]:
        return tuple(
            Situation(id=d.id, label=d.label, dice=d.dice, multiplier=d.multiplier, unit=d.unit)
            for d in tables().distance
        )

    # -- initiative ----------------------------------------------------------------------------
    def _acting(self, state: State) -> list[Combatant]:
        skip = set(state.surprised) if state.round == 1 else set()
        return [c for c in state.combatants if c.status == "active" and c.side not in skip]

    def situation_total(self, ids: str | list[str]) -> int:
        wanted = [i.strip() for i in (ids.split(",") if isinstance(ids, str) else ids) if i.strip()]
        values = {s.id: s.value for s in tables().initiative.situations}
        return sum(values.get(i, 0) for i in wanted)

    def side_situations(self, state: State, side_id: str) -> list[str]:
        return list(state.round_data.get("side_situations", {}).get(side_id, []))

    def _rolls_at_end(self, state: State, combatant: Combatant) -> bool:
        declaration = declaration_of(state, combatant.id)
        return declaration.action == "spell" and casting_rounds(declaration.casting) > 0

    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        method = state.options.get("initiative", "standard")
        dice = tables().initiative.dice
        acting = [c for c in self._acting(state) if not self._rolls_at_end(state, c)]
        if method == "individual":
            requests: dict[str, RollRequest] = {}
            for combatant in acting:
                key = combatant.group or combatant.id
                label = combatant.name.rsplit(" ", 1)[0] if combatant.group else combatant.name
                if key in requests:
                    previous = requests[key]
                    requests[key] = replace(previous, combatants=(*previous.combatants, combatant.id))
                else:
                    requests[key] = RollRequest(key=key, label=label, dice=dice, combatants=(combatant.id,))
            return tuple(requests.values())
        result = []
        for side in state.sides:
            members = tuple(c.id for c in acting if c.side == side.id)
            if not members:
                continue
            modifier = self.situation_total(self.side_situations(state, side.id)) if method == "standard" else 0
            result.append(RollRequest(key=side.id, label=side.name, dice=dice, modifier=modifier, combatants=members))
        return tuple(result)

    def action_modifier(self, state: State, combatant: Combatant) -> int:
        """Table 55 (own situations) + Table 56 (declared action) for group and individual initiative."""
        sheet = sheet_of(combatant)
        declaration = declaration_of(state, combatant.id)
        data = tables().initiative
        situations = [s.strip() for s in declaration.situations.split(",") if s.strip()]
        situations += self.side_situations(state, combatant.side)
        if declaration.action == "spell":
            situations = [s for s in situations if s != "hasted"]
        modifier = self.situation_total(situations)
        action = declaration.action
        if action == "weapon" and sheet.natural and not sheet.weapon:
            action = "natural"
        if action == "weapon":
            modifier += weapon_speed(sheet)
        elif action == "natural":
            modifier += tables().numbers(data.natural_by_size).get(sheet.size, 0)
        elif action == "spell":
            modifier += casting_modifier(declaration.casting)
        elif action == "item":
            if declaration.item == "scroll":
                modifier += casting_modifier(declaration.casting)
            else:
                modifier += tables().numbers(data.magic_items).get(declaration.item, 0)
        elif action in ("breath", "innate"):
            modifier += tables().numbers(data.actions).get(action, 0)
        return modifier

    def order(self, state: State, totals: dict[str, int]) -> tuple[Slot, ...]:
        method = state.options.get("initiative", "standard")
        by_id = {combatant.id: combatant for combatant in state.combatants}
        values: dict[str, int] = {}
        for request in self.initiative_requests(state):
            for combatant_id in request.combatants:
                value = totals[request.key]
                if method != "standard":
                    value += self.action_modifier(state, by_id[combatant_id])
                values[combatant_id] = value
        first = _slots(values, "")
        hasted = self._hasted(state)
        seconds = {
            cid: value
            for cid, value in values.items()
            if self._attacks(state, by_id[cid], hasted) > 1
        }
        end = tuple(c.id for c in self._acting(state) if self._rolls_at_end(state, c))
        slots = [*first, *_slots(seconds, _("2nd") + " · ")]
        if end:
            slots.append(Slot(label=_("end of round"), combatants=end, value=99))
        return tuple(slots)

    def _hasted(self, state: State) -> set[str]:
        hasted = set()
        for combatant in state.combatants:
            own = declaration_of(state, combatant.id).situations
            if "hasted" in own or "hasted" in self.side_situations(state, combatant.side):
                hasted.add(combatant.id)
        return hasted

    def _attacks(self, state: State, combatant: Combatant, hasted: set[str]) -> int:
        declaration = declaration_of(state, combatant.id)
        if declaration.action not in ("weapon", "natural"):
            return 1
        return attacks_this_round(
            sheet_of(combatant), state.round, state.options.get("three_halves", "even"), combatant.id in hasted
        )

    # -- the round's budget --------------------------------------------------------------------
    def start_round(self, state: State) -> State:
        return state

    def end_round(self, state: State) -> State:
        return state

    def _spent(self, state: State, combatant_id: str) -> dict[str, int]:
        return dict(state.round_data.get("spent", {}).get(combatant_id, {}))

    def _totals(self, state: State, combatant: Combatant) -> dict[str, int]:
        """What the combatant may do this round: ``attacks`` and one ``main`` action."""
        return {"attacks": self._attacks(state, combatant, self._hasted(state)), "main": 1}

    def _left(self, state: State, combatant: Combatant, what: str) -> int:
        return max(self._totals(state, combatant)[what] - self._spent(state, combatant.id).get(what, 0), 0)

    def budget(self, state: State, combatant_id: str) -> tuple[BudgetLine, ...]:
        combatant = state.combatant(combatant_id)
        totals = self._totals(state, combatant)
        return (
            BudgetLine(label=_("Attacks"), left=self._left(state, combatant, "attacks"), total=totals["attacks"]),
            BudgetLine(label=_("Main action"), left=self._left(state, combatant, "main"), total=totals["main"]),
        )

    def _spend(self, state: State, combatant_id: str, what: str) -> State:
        all_spent = dict(state.round_data.get("spent", {}))
        mine = dict(all_spent.get(combatant_id, {}))
        mine[what] = mine.get(what, 0) + 1
        all_spent[combatant_id] = mine
        return replace(state, round_data={**state.round_data, "spent": all_spent})

    def on_damage(self, state: State, combatant_id: str, amount: int) -> State:
        from tui_combat.engine.apply import log

        declaration = declaration_of(state, combatant_id)
        if declaration.action != "spell" or self.spell_lost(state, combatant_id):
            return state
        if self._has_acted(state, combatant_id):
            return state
        lost = {**state.round_data.get("spell_lost", {}), combatant_id: True}
        state = replace(state, round_data={**state.round_data, "spell_lost": lost})
        name = state.combatant(combatant_id).name
        spell = declaration.spell or _("the spell")
        return log(state, _("{name} is hit before casting: {spell} is lost.", name=name, spell=spell))

    def spell_lost(self, state: State, combatant_id: str) -> bool:
        return bool(state.round_data.get("spell_lost", {}).get(combatant_id))

    def _has_acted(self, state: State, combatant_id: str) -> bool:
        steps = self.steps(state)
        if steps[state.step].kind == "end":
            return True
        if steps[state.step].kind != "resolve":
            return False
        for index, slot in enumerate(state.order):
            if combatant_id in slot.combatants:
                return index <= state.cursor
        return False

    # -- ruleset actions -----------------------------------------------------------------------
    def round_actions(self, state: State) -> tuple[ActionKey, ...]:
        if self.steps(state)[state.step].kind != "resolve":
            if self.steps(state)[state.step].kind in ("declare", "initiative"):
                return (ActionKey(name="side_situations", key="m", label=_("Sides")),)
            return ()
        return (
            ActionKey(name="attack", key="a", label=_("Attack")),
            ActionKey(name="main_action", key="c", label=_("Main action")),
        )

    def apply_action(self, state: State, name: str, args: dict[str, Any]) -> State:
        from tui_combat.engine.apply import log

        if name == "side_situations":
            side = str(args.get("side", ""))
            try:
                state.side(side)
            except KeyError:
                raise RuleError(_("No side with id {id}.", id=side)) from None
            raw = args.get("situations", [])
            ids = [i.strip() for i in raw.split(",") if i.strip()] if isinstance(raw, str) else [str(i) for i in raw]
            known = {s.id for s in tables().initiative.situations}
            unknown = [i for i in ids if i not in known]
            if unknown:
                raise RuleError(_("Unknown situation: {ids}. Known: {known}.", ids=", ".join(unknown), known=", ".join(sorted(known))))
            situations = {**state.round_data.get("side_situations", {}), side: ids}
            return replace(state, round_data={**state.round_data, "side_situations": situations})
        if state.phase != "round":
            raise RuleError(_("That cannot be done now."))
        combatant_id = str(args.get("combatant", ""))
        try:
            combatant = state.combatant(combatant_id)
        except KeyError:
            raise RuleError(_("No combatant with id {id}.", id=combatant_id)) from None
        if combatant.status != "active":
            raise RuleError(_("{name} is out of the fight.", name=combatant.name))
        if name == "attack":
            if self._left(state, combatant, "attacks") <= 0:
                raise RuleError(_("{name} has no attacks left this round.", name=combatant.name))
            state = self._spend(state, combatant_id, "attacks")
            roll = args.get("roll")
            if roll is None:
                return log(state, _("{name} attacks.", name=combatant.name))
            natural = int(roll["total"])
            target_ac = int(args.get("target_ac", 10))
            bonus = int(args.get("bonus", 0))
            needed = thac0(sheet_of(combatant)) - target_ac
            hit = natural == 20 or (natural != 1 and natural + bonus >= needed)
            return log(
                state,
                _(
                    "{name} attacks AC {ac}: d20 {roll}{bonus} vs {needed} — {result}.",
                    name=combatant.name,
                    ac=target_ac,
                    roll=natural,
                    bonus=f" {bonus:+d}" if bonus else "",
                    needed=needed,
                    result=_("hit") if hit else _("miss"),
                ),
            )
        if name == "main_action":
            if self._left(state, combatant, "main") <= 0:
                raise RuleError(_("{name} has already taken the main action this round.", name=combatant.name))
            declaration = declaration_of(state, combatant_id)
            if declaration.action == "spell" and self.spell_lost(state, combatant_id):
                raise RuleError(_("{name}'s spell was lost this round.", name=combatant.name))
            state = self._spend(state, combatant_id, "main")
            what = declaration.spell or declaration.text or _(declaration.action)
            return log(state, _("{name}: {what}.", name=combatant.name, what=what))
        raise RuleError(_("Unknown action {name}.", name=name))

    # -- what the screens show -------------------------------------------------------------------
    def details(self, state: State, combatant_id: str) -> tuple[tuple[str, str], ...]:
        combatant = state.combatant(combatant_id)
        sheet = sheet_of(combatant)
        declaration = declaration_of(state, combatant_id)
        lines = [
            (_("Class"), f"{sheet.cls} {sheet.level}"),
            (_("THAC0 / AC"), f"{thac0(sheet)} / {sheet.ac}"),
        ]
        if sheet.weapon or sheet.natural:
            weapon = sheet.weapon or _("natural weapons")
            bonus = f" +{sheet.magic}" if sheet.magic else ""
            lines.append((_("Weapon"), f"{weapon}{bonus} ({_('speed')} {weapon_speed(sheet)})"))
        if sheet.spells:
            lines.append((_("Spells"), sheet.spells))
        declared = declaration.spell or declaration.text or _(declaration.action)
        if combatant_id in state.round_data.get("declarations", {}):
            lines.append((_("Declared"), declared))
        if self.spell_lost(state, combatant_id):
            lines.append((_("Spell"), _("LOST")))
        return tuple(lines)

    def declaration_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        sheet = sheet_of(state.combatant(combatant_id))
        spells = tuple((name, f"{name} ({time})") for name, time in parse_spells(sheet.spells).items())
        return (
            FieldSpec(key="action", label="Action", kind="choice", default="weapon", choices=tuple((a, a) for a in ACTIONS)),
            FieldSpec(key="spell", label="Spell", kind="choice" if spells else "str", default="", choices=spells),
            FieldSpec(key="item", label="Magic item", kind="choice", default="misc", choices=tuple((i, i) for i in ITEMS)),
            FieldSpec(key="situations", label="Situations (Table 55)", kind="str", default="", help=", ".join(s.id for s in tables().initiative.situations)),
            FieldSpec(key="text", label="Note", kind="str", default=""),
        )

    def action_fields(self, state: State, name: str, combatant_id: str) -> tuple[FieldSpec, ...]:
        if name == "attack":
            return (
                FieldSpec(key="target_ac", label="Target AC", kind="int", default=10),
                FieldSpec(key="bonus", label="Attack bonus", kind="int", default=0),
                FieldSpec(key="roll", label="d20 (empty: app rolls)", kind="str", default="1d20"),
            )
        if name == "side_situations":
            ids = ", ".join(s.id for s in tables().initiative.situations)
            return (
                FieldSpec(key="side", label="Side", kind="choice", choices=tuple((s.id, s.name) for s in state.sides)),
                FieldSpec(key="situations", label="Situations (Table 55)", kind="str", help=ids),
            )
        return ()


def _slots(values: dict[str, int], prefix: str) -> list[Slot]:
    by_value: dict[int, list[str]] = {}
    for combatant_id, value in values.items():
        by_value.setdefault(value, []).append(combatant_id)
    return [
        Slot(label=f"{prefix}{value}", combatants=tuple(ids), value=value) for value, ids in sorted(by_value.items())
    ]


RULESET = ADnD2e()
