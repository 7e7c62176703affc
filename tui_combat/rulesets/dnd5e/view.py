"""What the round screen shows of a 5e creature beside its budget (computed when shown, so translated here)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from msgspec.structs import replace

from tui_combat.engine.contract import FieldSpec
from tui_combat.engine.log import render, render_param
from tui_combat.engine.model import State
from tui_combat.i18n import NC_, _, after_name
from tui_combat.rulesets.dnd5e.base import unit_of
from tui_combat.rulesets.dnd5e.health import save_marks
from tui_combat.rulesets.dnd5e.initiative import speed_parts
from tui_combat.rulesets.dnd5e.kinds import DAMAGE_TYPES, parse_types, saves_text
from tui_combat.rulesets.dnd5e.legendary import Dnd5eLegendary
from tui_combat.rulesets.dnd5e.sheet import DEFENCES, dex_modifier, sheet_of
from tui_combat.rulesets.dnd5e.stat_words import abilities_text, ability_name, area_text, sheet_notes

__all__ = ["CONDITIONS_AFTER_A_NAME", "Dnd5eView"]

CONDITIONS_AFTER_A_NAME = (
    NC_("after a name", "blinded"),
    NC_("after a name", "charmed"),
    NC_("after a name", "deafened"),
    NC_("after a name", "frightened"),
    NC_("after a name", "grappled"),
    NC_("after a name", "incapacitated"),
    NC_("after a name", "invisible"),
    NC_("after a name", "paralyzed"),
    NC_("after a name", "petrified"),
    NC_("after a name", "poisoned"),
    NC_("after a name", "prone"),
    NC_("after a name", "restrained"),
    NC_("after a name", "stunned"),
    NC_("after a name", "unconscious"),
    NC_("after a name", "concentrating"),
)
"""The conditions as the players' screen shows them after a name ("Лия  · без сознания"): a condition's name in
the book is an adjective ("бессознательный") that would say whether he or she is meant."""


class Dnd5eView(Dnd5eLegendary):
    def details(self, state: State, combatant_id: str) -> tuple[tuple[str, str], ...]:
        combatant = state.combatant(combatant_id)
        sheet = sheet_of(combatant)
        lines: list[tuple[str, str]] = []
        entry = next((e for e in self.live_entries(state).values() if combatant_id in e.combatants), None)
        if entry is not None:
            tied = any(
                combatant_id in self.live_entries(state)[k].combatants
                for keys in self.undecided_ties(state)
                for k in keys
            )
            lines.append((_("Initiative"), f"{entry.value}" + (f" ({_('tie')})" if tied else "")))
        attacks = f" ×{sheet.attacks}" if sheet.attacks > 1 else ""
        lines.append((_("AC / attack"), f"{sheet.ac} / {sheet.attack:+d}{attacks} ({sheet.damage})"))
        lines.append((_("Dexterity"), f"{sheet.dex} ({dex_modifier(sheet.dex):+d})"))
        if self.round_of(state).shape == "declare":
            declaration = self.round_of(state).declarations.get(unit_of(combatant))
            if declaration is None:
                lines.append((_("Declared"), _("nothing yet")))
            else:
                what = render(self.action_text(declaration.action, declaration.weapon, declaration.spell_level))
                bonus = render_param(self.bonus_text(declaration))
                total = sum(value for _label, value in speed_parts(sheet, declaration))
                lines.append((_("Declared"), f"{what}{bonus} ({total:+d})"))
        lines += self.fight_details(state, combatant_id)
        record = self.dying_of(state, combatant_id)
        word = self.condition_word(state, combatant_id)
        if record is not None and not record.dead:
            successes, failures = save_marks(record)
            lines.append(
                (
                    _("Death saves"),
                    _(
                        "{word}: successes {successes}, failures {failures}",
                        word=_(word or ""),
                        successes=successes,
                        failures=failures,
                    ),
                )
            )
        return tuple(lines) + self._conditions(state, combatant_id, word if record is None or record.dead else None)

    def fight_details(self, state: State, combatant_id: str) -> list[tuple[str, str]]:
        """Saves, damage types, temporary hit points, a concentration save owed, abilities ready or not: the DM's."""
        combatant = state.combatant(combatant_id)
        sheet = sheet_of(combatant)
        lines: list[tuple[str, str]] = []
        if sheet.saves:  # else only Dexterity's, from the score shown above
            lines.append(
                (
                    _("Saving throws"),
                    saves_text({kind: self.save_bonus(combatant, kind) for kind, _label in self.save_kinds(state)}),
                )
            )
        labels = dict(DAMAGE_TYPES)
        for key, label in DEFENCES:
            kinds = parse_types(getattr(sheet, key), label)
            if kinds:
                lines.append((_(label), ", ".join(_(labels[kind]) for kind in kinds)))
        if sheet.evasion:
            lines.append((_("Evasion"), _("yes")))
        temporary = self.temp_hp(state, combatant_id)
        if temporary:
            lines.append((_("Temporary hit points"), str(temporary)))
        owed = [due for due in self.saves_due(state) if due.combatant == combatant_id]
        if owed:
            lines.append((_("Concentration"), ", ".join(_("Constitution save DC {dc}", dc=due.dc) for due in owed)))
        for ability, ready in self.abilities_now(state, combatant_id):  # named and placed in the GM's language
            note = self.ability_note(replace(ability, area=area_text(ability.area)), ready)
            lines.append((ability_name(ability.name), render(note) if note else _("ready")))
        return lines

    def sheet_notes(self, sheet: Mapping[str, Any], hp: int) -> str:
        return sheet_notes(sheet, hp)

    def shown_sheet_value(self, field: FieldSpec, value: object) -> str:
        if field.key == "abilities" and isinstance(value, str):
            return abilities_text(value)
        return super().shown_sheet_value(field, value)

    public_reads = frozenset({"fight_state", "options", "sides", "surprised", "others"})
    """Temporary hit points, death saves, conditions and who has had his first turn (the fight state); the rule
    of surprise (the options) and who was surprised; his side (a monster at 0 is dead); and the one whose turn
    ends a condition (others: his name, whether he is hidden)."""

    def health_shown(self, state: State, combatant_id: str, *, brief: bool = False) -> str:
        """Hit points, and the temporary ones after a plus ("27/27 +5")."""
        shown = super().health_shown(state, combatant_id, brief=brief)
        temporary = self.temp_hp(state, combatant_id)
        return f"{shown} +{temporary}" if temporary else shown

    def public_conditions(self, state: State, combatant_id: str) -> tuple[str, ...]:
        """His health's word when he is not making death saves, surprise, and his conditions with their time
        left: what the card says of them (the death saves themselves stay the DM's)."""
        record = self.dying_of(state, combatant_id)
        word = self.condition_word(state, combatant_id) if record is None or record.dead else None
        return tuple(
            value if label == _("Condition") else f"{label}: {value}"
            for label, value in self._conditions(state, combatant_id, word, after_name, for_players=True)
        )

    def _conditions(
        self,
        state: State,
        combatant_id: str,
        word: str | None,
        shown: Callable[[str], str] = _,
        *,
        for_players: bool = False,
    ) -> tuple[tuple[str, str], ...]:
        """The card's lines of his conditions; ``shown``: how a condition's name is put (after his name, on the
        players' screen: :func:`~tui_combat.i18n.after_name`), whose turn ends it left out for the players while
        they do not see him."""
        lines: list[tuple[str, str]] = []
        if word:
            lines.append((_("Condition"), shown(word)))
        if self.waits_for_first_turn(state, combatant_id):
            lines.append((_("Surprised"), _("loses the first turn")))
        for condition in self.conditions_of(state, combatant_id):
            unseen = for_players and (not state.has(condition.anchor) or state.combatant(condition.anchor).hidden)
            duration = "" if unseen and condition.anchor else render(self.duration_text(state, condition))
            lines.append((_("Condition"), shown(condition.name) + duration))
        return tuple(lines)
