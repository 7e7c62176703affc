"""What the screens show: the budget lines, a combatant's details, the forms of the actions and of the
declaration. All of it is computed when shown (so it is translated with ``_``), never stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msgspec.structs import replace

from tui_combat.engine.audience import whos
from tui_combat.engine.contract import BudgetLine, DamageDue, FieldSpec, new_facts
from tui_combat.engine.dice import Dice, DiceError, parse
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, render_param
from tui_combat.engine.model import State
from tui_combat.i18n import N_, _, data_word, ngettext
from tui_combat.rulesets.trudvang.actions import ATTACKS, DEFENCES
from tui_combat.rulesets.trudvang.budget import cp_available, cp_left, usable_pools
from tui_combat.rulesets.trudvang.data import DODGE, SHIELD, SKILL_FIELDS, UNARMED, WRESTLING, norm
from tui_combat.rulesets.trudvang.health import ARMOUR, Wounds
from tui_combat.rulesets.trudvang.state import AttackRecord, Turn, Used

__all__ = ["TrudvangView"]

KIND_LABELS = {"attack": N_("attack"), "grapple": N_("grapple"), "glima": N_("Glima")}
POOL_LABELS = {
    "general": N_("CP"),
    "any_weapon": N_("CP any weapon"),
    "ranged": N_("CP ranged"),
    "unarmed": N_("CP unarmed"),
    "brawl": N_("CP brawling"),
    "wrestling": N_("CP wrestling"),
}


class TrudvangView(Wounds):
    # -- budget --------------------------------------------------------------------------------------
    def pool_label(self, pool: str) -> str:
        kind, _sep, target = pool.partition(":")
        if kind in POOL_LABELS:
            return _(POOL_LABELS[kind])
        if kind == "group":
            target = _(next((w.group for w in self.data.weapons.values() if norm(w.group) == target), target))
        elif kind == "weapon":
            target = _(
                next(
                    (w.name for k, w in self.data.weapons.items() if norm(k) == target or norm(w.name) == target),
                    target,
                )
            )
        return _("CP {target}", target=target)

    def budget(self, state: State, combatant_id: str) -> tuple[BudgetLine, ...]:
        """One line per CP pool, then the weapon actions of each weapon and the shield, then the unarmed attacks."""
        budget = self.budget_of(state, self.round_of(state), combatant_id)
        sheet = self.sheet(state, combatant_id)
        lines = [
            BudgetLine(label=self.pool_label(pool), left=meter.left, total=meter.total)
            for pool, meter in budget.pools.items()
        ]
        for item, meter in budget.actions.items():
            name = self.data.shields[sheet.shield].name if item == SHIELD and sheet.shield else item
            lines.append(BudgetLine(label=_("{item} actions", item=_(name)), left=meter.left, total=meter.total))
        lines.append(BudgetLine(label=_("Unarmed attacks"), left=budget.unarmed.left, total=budget.unarmed.total))
        return tuple(lines)

    def cp_left(self, state: State, combatant_id: str, what: str) -> int:
        """CP the combatant can still put into an action with ``what`` (see :func:`usable_pools`) this round."""
        sheet = self.sheet(state, combatant_id)
        budget = self.budget_of(state, self.round_of(state), combatant_id)
        return cp_left(budget, usable_pools(sheet, what, data=self.data))

    # -- details ---------------------------------------------------------------------------------------
    def details(self, state: State, combatant_id: str) -> tuple[tuple[str, str], ...]:
        combatant = state.combatant(combatant_id)
        sheet = self.sheet_of(combatant)
        data = self.data
        lines: list[tuple[str, str]] = [(_("Combat SV"), str(sheet.sv))]
        cp = [f"{_(w.name)} {cp_available(sheet, w.name, data)}" for w in sheet.weapons]
        if sheet.shield:
            cp.append(f"{_(data.shields[sheet.shield].name)} {cp_available(sheet, SHIELD, data)}")
        cp.append(f"{_('unarmed')} {cp_available(sheet, UNARMED, data)}")
        if sheet.wrestling:
            cp.append(f"{_('wrestling')} {cp_available(sheet, WRESTLING, data)}")
        lines.append((_("CP by weapon"), " · ".join(cp)))
        level = self.level_text(combatant)
        if level:
            lines.insert(0, (_("Damage level"), level))
        if sheet.race:
            race = data.races[sheet.race]
            lines.append(
                (
                    _("Body Points"),
                    _(
                        "{hp}/{max} ({race} {base}, Constitution {con:+d}, Strength {str:+d})",
                        hp=combatant.hp,
                        max=combatant.max_hp,
                        race=_(race.name),
                        base=race.bp,
                        con=sheet.con_mod,
                        str=sheet.str_mod,
                    ),
                )
            )
        for weapon in sheet.weapons:
            text = ngettext(
                "IM {im:+d}, {n} action, {group}",
                "IM {im:+d}, {n} actions, {group}",
                weapon.actions,
                im=weapon.im,
                group=_(weapon.group),
            )
            text += ", " + _("ranged") if weapon.ranged else ""
            lines.append(
                (_(weapon.name), text + ", " + _("damage {dice}", dice=self.weapon_damage(sheet, weapon.name)))
            )
        if sheet.shield:
            shield = data.shields[sheet.shield]
            text = ngettext(
                "{name}: IM {im:+d}, {n} action",
                "{name}: IM {im:+d}, {n} actions",
                shield.actions,
                name=_(shield.name),
                im=shield.im,
            )
            lines.append((_("Shield"), text + ", " + self.protection(state, combatant_id, SHIELD)))
        if sheet.armour:
            armour = data.armour[sheet.armour]
            lines.append(
                (
                    _("Armour"),
                    _("{name}: IM {im:+d}", name=_(armour.name), im=armour.im)
                    + ", "
                    + self.protection(state, combatant_id, ARMOUR),
                )
            )
        skills = [f"{_(s.name)} {s.level}" for s in (*sheet.disciplines, *sheet.specialties)]
        for field in SKILL_FIELDS:
            level = getattr(sheet, field)
            skill = data.field_skill(field)
            if level:
                skills.append(f"{_(skill.name) if skill else field} {level}")
        if skills:
            lines.append((_("Skills"), ", ".join(skills)))
        if sheet.wrestling:
            lines.append((_("Wrestling SV"), str(sheet.wrestling)))
        if state.phase == "round":
            lines += self._round_details(state, combatant_id)
        return tuple(lines)

    def protection(self, state: State, cid: str, item: str) -> str:
        """ "PV 5, BV 50" (worn: "PV 5, BV 43 of 50")."""
        bv, new = self.bv_now(state, cid, item), self.new_bv(self.sheet(state, cid), item)
        if bv == new:
            return _("PV {pv}, BV {bv}", pv=self.pv_now(state, cid, item), bv=bv)
        return _("PV {pv}, BV {bv} of {new}", pv=self.pv_now(state, cid, item), bv=bv, new=new)

    def _round_details(self, state: State, combatant_id: str) -> list[tuple[str, str]]:
        flags = self.round_flags(state, combatant_id)
        this_round = [(_("This round"), "; ".join(render_param(flag) for flag in flags))] if flags else []
        try:
            parts = self.im_parts(state, combatant_id)
        except RuleError as error:
            return [(_("Initiative modifier"), str(error)), *this_round]
        info = self.round_of(state)
        lines: list[tuple[str, str]] = []
        total = sum(v for _l, v in parts)
        listed = " (" + ", ".join(f"{data_word(label)} {value:+d}" for label, value in parts) + ")" if parts else ""
        lines.append((_("Initiative modifier"), f"{total:+d}{listed}"))
        value = self.value_of(state, info, combatant_id)
        if value is not None:
            lines.append((_("Initiative"), _("{total} (call {call})", total=value, call=self.call_label(value))))
        return lines + this_round

    public_reads = frozenset({"round_state", "fight_state", "round", "surprised", "others"})
    """His turn this round (the round state), grapples (the fight state), surprise in round 1, and those who hold
    him or whom he holds (others: their names, whether they are hidden)."""

    def public_conditions(self, state: State, combatant_id: str) -> tuple[str | Msg, ...]:
        """What the card says of him this round (surprised, holding, held by …), without working out the rest
        of the card; a note naming someone hidden from the players is left out for them."""
        flags = self.round_flags(state, combatant_id) if state.phase == "round" else []
        if not flags:
            return ()
        return (Msg(id="{label}: {flags}", params={"label": Msg(id=N_("This round")), "flags": flags}, sep="; "),)

    def round_flags(self, state: State, combatant_id: str) -> list[str | int | Msg]:
        """Surprised, holding his action, gave up his turn, held by or holding someone: this round (translated
        now, but the notes that name someone: those by reference)."""
        data = self.data
        turn = self.round_of(state).turns.get(combatant_id, Turn())
        flags: list[str | int | Msg] = []
        if self.surprised_now(state, combatant_id):
            flags.append(_("surprised ({penalty:+d})", penalty=data.rules.surprise_penalty))
        if turn.held:
            flags.append(_("holding his action"))
        if turn.acted_held:
            flags.append(_("acting held ({penalty:+d})", penalty=data.rules.held_penalty))
        if turn.skipped:
            flags.append(_("gave up his turn"))
        grappled = self.holders(state)
        if combatant_id in grappled:
            flags.append(Msg(id=N_("held by {name}"), params={"name": self.named(state, grappled[combatant_id])}))
        holding = whos(state, (victim for victim, holder in grappled.items() if holder == combatant_id))
        if holding:
            flags.append(Msg(id=N_("holding {names}"), params={"names": holding}))
        return flags

    def turn_marker(self, state: State, combatant_id: str, slot: int | None) -> str:
        """ "skipped" for one who gave up his turn this round (he is out of the countdown)."""
        if self.round_of(state).turns.get(combatant_id, Turn()).skipped:
            return _("skipped")
        return super().turn_marker(state, combatant_id, slot)

    # -- forms -----------------------------------------------------------------------------------------
    def action_fields(self, state: State, name: str, combatant_id: str) -> tuple[FieldSpec, ...]:
        """The form for a ruleset action; the screen adds ``combatant`` (the selected one). A ``roll`` field
        is the d20: left empty the app rolls it, or the GM types what his die showed."""
        names = state.names()
        if not combatant_id or combatant_id not in names:
            return ()
        combatant = state.combatant(combatant_id)
        self.sheet_of(combatant)  # a sheet that cannot be read says so, whatever the action
        info = self.round_of(state)
        roll = FieldSpec(key="roll", label=N_("d20"), kind="roll", default=self.data.rules.action_dice)
        modifier = FieldSpec(key="modifier", label=N_("Situational modifier"), kind="int", default=0)
        active = [c for c in state.combatants if c.id != combatant_id and c.status == "active"]
        others = tuple((c.id, c.name) for c in active)
        enemies = tuple((c.id, c.name) for c in active if c.side != combatant.side)
        target = FieldSpec(
            key="target",
            label=N_("Target"),
            kind="choice",
            default=(enemies or others or (("", ""),))[0][0],
            choices=others,
        )
        hits = [r for r in reversed(info.attacks) if r.target == combatant_id and r.hit and not r.defended]

        def against(kinds: tuple[str, ...]) -> FieldSpec:
            choices = tuple(
                (
                    str(r.id),
                    f"#{r.id} {names.get(r.attacker, '?')} ({_(KIND_LABELS[r.kind])}, "
                    f"{self.item_label(state, r.item, owner=r.attacker)})",
                )
                for r in hits
                if r.kind in kinds
            )
            return FieldSpec(
                key="attack",
                label=N_("Against"),
                kind="choice",
                default=choices[0][0] if choices else "",
                choices=choices,
            )

        cp = FieldSpec(key="cp", label=N_("CP to spend"), kind="int", default=0)
        sv = FieldSpec(key="sv", label=N_("SV to buy"), kind="int", default=0)
        grip = FieldSpec(
            key="hand",
            label=N_("Hands"),
            kind="choice",
            default="both",
            choices=(
                ("both", N_("both hands")),
                ("weapon", N_("weapon hand only")),
                ("shield", N_("shield hand only")),
            ),
        )
        if name == "attack":
            return (target, *self._weapon_fields(state, name, combatant_id, cp), modifier, roll)
        if name == "parry":
            return (against(("attack", "grapple")), *self._weapon_fields(state, name, combatant_id, cp), modifier, roll)
        if name == "dodge":
            return (
                against(("attack", "grapple")),
                replace(cp, default=self.suggested_cp(state, combatant_id, name, DODGE)),
                modifier,
                roll,
            )
        if name == "grapple":
            return (target, sv, grip, modifier, roll)
        if name == "break_free":
            return (sv, modifier, roll)
        if name == "glima":
            held = tuple(
                (victim, names[victim])
                for victim, holder in self.holders(state).items()
                if holder == combatant_id and victim in names
            )
            return (
                FieldSpec(
                    key="target", label=N_("Throw"), kind="choice", default=held[0][0] if held else "", choices=held
                ),
                sv,
                grip,
                FieldSpec(key="drop", label=N_("Drop onto him (1d6, he stays held)"), kind="bool", default=False),
                modifier,
                roll,
            )
        if name == "glima_defence":
            return (against(("glima",)), sv, modifier, roll)
        if name == "act_held":
            return self._act_held_fields(state, combatant_id)
        if name == "change_action":
            return self.declaration_fields(state, combatant_id)
        return ()

    def _weapon_fields(self, state: State, name: str, combatant_id: str, cp: FieldSpec) -> tuple[FieldSpec, ...]:
        """An attack's or a parry's weapon, CP and hand (and, for an attack with a bow, long range): the weapons
        he attacks with as declared, or every weapon of his (and his shield) for a parry."""
        sheet = self.sheet_of(state.combatant(combatant_id))
        try:
            used = self.used(state, combatant_id)
        except RuleError:
            used = Used(weapon=None, offhand=None, shield=False, spell_im=0, other_im=0)
        items = [w for w in (used.weapon, used.offhand) if w is not None] if name == "attack" else list(sheet.weapons)
        choices = [(w.name, w.name) for w in items]
        if sheet.shield and (used.shield or name == "parry"):
            choices.append((SHIELD, _(self.data.shields[sheet.shield].name)))
        choices.append((UNARMED, N_("unarmed")))
        weapon = FieldSpec(key="weapon", label=N_("With"), kind="choice", default=choices[0][0], choices=tuple(choices))
        cp = replace(cp, default=self.suggested_cp(state, combatant_id, name, choices[0][0]))
        hand = FieldSpec(
            key="hand",
            label=N_("Hand"),
            kind="choice",
            default="",
            choices=(("", N_("as declared")), ("main", N_("main hand")), ("off", N_("off hand"))),
        )
        if name == "attack" and any(w.ranged for w in items):  # a hunting bow deals half damage at long range
            far = FieldSpec(
                key="long_range",
                label=N_("At long range"),
                kind="bool",
                default=False,
                help=N_("a hunting bow deals half damage there"),
            )
            return (weapon, cp, hand, far)
        return (weapon, cp, hand)

    def _act_held_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        names = state.names()
        info = self.round_of(state)
        held_others = [
            names[cid] for cid, turn in info.turns.items() if turn.held and cid != combatant_id and cid in names
        ]
        if not held_others:
            return ()
        return (
            FieldSpec(
                key="together",
                label=N_("Acting at the same moment"),
                kind="str",
                default="",
                help=", ".join(held_others),
            ),
            FieldSpec(
                key="tiebreak",
                label=N_("1d10 tie-break"),
                kind="str",
                default="",
                help=_("name roll, … (only for equal Combat SV)"),
            ),
            FieldSpec(key="after", label=N_("After the current slot"), kind="bool", default=False),
        )

    def suggested_cp(self, state: State, cid: str, name: str, item: str) -> int:
        """What the form offers to spend: the CP he put into his last action of this kind in the fight, or
        else an even share of what he has left for the item over the weapon actions it has left (all of
        it for a dodge or an unarmed parry); never more than he has left."""
        try:
            left = self.cp_left(state, cid, item)
            budget = self.budget_of(state, self.round_of(state), cid)
        except RuleError:
            return 0
        if left <= 0:
            return 0
        last = self.last_cp(state, cid, name)
        if last:
            return min(last, left)
        if item == UNARMED:
            actions = budget.unarmed.left if name == "attack" else 1
        else:
            meter = budget.actions.get(item)
            actions = meter.left if meter is not None else 1
        return max(left // max(actions, 1), 1)

    @staticmethod
    def last_cp(state: State, cid: str, name: str, within: int = 2000) -> int:
        """The CP ``cid`` put into his last ``name`` (attack, parry, dodge) of the fight; 0 for none."""
        seen = 0
        for chunk in reversed(state.log):
            for entry in reversed(chunk):
                facts = entry.facts
                if "cp" in facts and "sv_bought" not in facts:
                    if name == "attack" and facts.get("attacker") == cid and "defence" not in facts:
                        return int(facts["cp"])
                    if name != "attack" and facts.get("defender") == cid and facts.get("defence") == name:
                        return int(facts["cp"])
                seen += 1
                if seen >= within:
                    return 0
        return 0

    # -- the attack flow ------------------------------------------------------------------------------
    def form_preview(self, state: State, name: str, combatant_id: str, values: Mapping[str, Any]) -> str:
        """The SV this attack or defence buys with everything that modifies it, and the chance of rolling it
        (a 1 always succeeds, a 20 always fails); or why it cannot be done as filled in."""
        if name not in ATTACKS and name not in DEFENCES and name != "break_free":
            return ""
        neutral = {"expr": self.data.rules.action_dice, "total": 2, "faces": [2]}
        try:
            after = self.apply_action(state, name, {**values, "combatant": combatant_id, "roll": neutral})
        except RuleError as refusal:
            return str(refusal)
        facts = next((f for f in new_facts(state, after) if "sv" in f), None)
        if facts is None:
            return ""
        sv = int(facts["sv"])
        chance = 5 * (1 + max(0, min(sv, 19) - 1))
        return _("SV {sv}: needs {sv} or less on the d20: {chance}% to succeed.", sv=sv, chance=chance)

    def damage_due(self, before: State, after: State, name: str, args: Mapping[str, Any]) -> DamageDue | None:
        """A hit asks for its damage at once (the weapon's open-ended d10 + Strength), saying the target may
        defend first; after a defence: a failed one asks for it again, a parry with a weapon or a shield
        asks for the damage that goes onto it, an unarmed parry of an armed attack for the damage the app
        halves. Nothing once it has been dealt."""
        facts = next((f for f in new_facts(before, after) if "attack" in f), None)
        attacks = self.round_of(after).attacks
        if facts is None or not 1 <= int(facts["attack"]) <= len(attacks):
            return None
        record = attacks[int(facts["attack"]) - 1]
        if record.kind == "grapple" or not record.hit or record.damaged:
            return None
        due = DamageDue(
            target=record.target,
            dice=self.damage_dice(after, record),
            what=self.item_label(after, record.item, owner=record.attacker),
        )
        target = after.combatant(record.target).name
        armour = self.open_note(due.dice) + self.armour_note(after, record.target)
        if record.long_range:
            armour = " " + _("At long range: half of it reaches him.") + armour
        if name in ATTACKS:
            if record.kind == "glima":
                return replace(due, note=_("{name}'s Glima defence may stop it first.", name=target) + armour)
            if record.ranged:
                return replace(
                    due,
                    note=_("{name} may dodge first: Esc, and the damage is asked for if the dodge fails.", name=target)
                    + armour,
                )
            return replace(
                due,
                note=_("{name} may parry or dodge first: Esc, and the damage is asked for if it fails.", name=target)
                + armour,
            )
        if not facts.get("saved"):
            return replace(due, note=armour.strip())
        if record.parried_with == UNARMED and not record.unarmed:
            return replace(due, note=_("An unarmed parry of an armed attack: half of it reaches him.") + armour)
        if record.parried_with and record.parried_with != UNARMED:
            item = record.parried_with
            return replace(
                due,
                note=_(
                    "Parried: the damage goes onto the {item} (PV {pv}, BV {bv}), not onto {name}.",
                    item=self.item_label(after, item, owner=record.target),
                    name=target,
                    pv=self.pv_now(after, record.target, item),
                    bv=self.bv_now(after, record.target, item),
                ),
            )
        return None

    @staticmethod
    def open_note(dice: str) -> str:
        """ " A 10 rolls again: type the dice one by one (10 4)." for an open-ended damage die ("" for none)."""
        try:
            parsed = parse(dice) if dice else None
        except DiceError:
            return ""
        die = next((t for t in parsed.terms if isinstance(t, Dice) and t.explode), None) if parsed is not None else None
        if die is None:
            return ""
        if die.threshold == die.sides:
            return " " + _("A {face} rolls again: type the dice one by one ({face} 4).", face=die.sides)
        return " " + _(
            "{low}–{high} roll again: type the dice one by one ({low} 4).", low=die.threshold, high=die.sides
        )

    def armour_note(self, state: State, cid: str) -> str:
        """ " His chain mail absorbs 5." for the damage form ("" without armour)."""
        sheet = self.sheet(state, cid)
        if not sheet.armour:
            return ""
        return " " + _(
            "{armour} absorbs {pv} (BV {bv}).",
            armour=_(self.data.armour[sheet.armour].name),
            pv=self.pv_now(state, cid, ARMOUR),
            bv=self.bv_now(state, cid, ARMOUR),
        )

    def damage_dice(self, state: State, record: AttackRecord) -> str:
        """What a hit deals: a Glima's fall (1d4, 1d6 when the thrower drops onto him), a fist (1d6 +
        Strength for a medium creature), a weapon's open-ended d10 (+ Strength in melee)."""
        if record.kind == "glima":
            return "1d6" if record.drop else "1d4"
        return self.weapon_damage(self.sheet_of(state.combatant(record.attacker)), record.item)

    def item_label(self, state: State, item: str, *, owner: str) -> str:
        """An item's name as the GM knows it: the shield's own name, "unarmed"."""
        if item == UNARMED:
            return _("unarmed")
        if item == SHIELD:
            sheet = self.sheet(state, owner) if owner in state.names() else None
            return _(self.data.shields[sheet.shield].name) if sheet is not None and sheet.shield else _("shield")
        return _(item)

    def declaration_fields(self, state: State, combatant_id: str) -> tuple[FieldSpec, ...]:
        sheet = self.sheet(state, combatant_id)
        weapons = tuple((w.name, f"{_(w.name)} ({w.im:+d})") for w in sheet.weapons)
        fields = [
            FieldSpec(
                key="weapon",
                label=N_("Weapon"),
                kind="choice",
                default=sheet.weapons[0].name if sheet.weapons else UNARMED,
                choices=(*weapons, (UNARMED, N_("unarmed (0)"))),
            ),
        ]
        if len(sheet.weapons) > 1:
            fields.append(
                FieldSpec(
                    key="offhand",
                    label=N_("Off-hand weapon"),
                    kind="choice",
                    default="none",
                    choices=(("none", N_("none")), *weapons),
                )
            )
        if sheet.shield:
            shield = self.data.shields[sheet.shield]
            fields.append(
                FieldSpec(
                    key="shield",
                    label=N_("Use the shield"),
                    kind="bool",
                    default=True,
                    help=f"{_(shield.name)} {shield.im:+d}",
                )
            )
        fields.append(FieldSpec(key="spell_im", label=N_("Spell / divine power IM"), kind="int", default=0))
        fields.append(
            FieldSpec(
                key="other_im", label=N_("Other IM"), kind="int", default=0, help=_("fatigue, damage, stress, drugs")
            )
        )
        return tuple(fields)
