"""What the round screen shows of a combatant: his budget (move and one action) and his details."""

from __future__ import annotations

from tui_combat.engine.contract import BudgetLine
from tui_combat.engine.model import State
from tui_combat.i18n import _, data_words, ngettext
from tui_combat.rulesets.ose.actions import OseActions
from tui_combat.rulesets.ose.base import INTENT_LABELS
from tui_combat.rulesets.ose.data import dex_modifier, tables
from tui_combat.rulesets.ose.morale import chance_text


class OseView(OseActions):
    def budget(self, state: State, combatant_id: str) -> tuple[BudgetLine, ...]:
        spent = self.spent(state, combatant_id)
        if self.casting(state, combatant_id):
            label = _("Spell") if self.declaration_of(state, combatant_id).intent == "spell" else _("Fairy rune")
            left = 0 if spent.acted or self.disrupted(state, combatant_id) else 1
            return (
                BudgetLine(label=_("No move: casting"), left=0, total=0),
                BudgetLine(label=label, left=left, total=1),
            )
        if self.fleeing(state, combatant_id):
            return (
                BudgetLine(label=_("Move (fleeing)"), left=0 if spent.moved else 1, total=1),
                BudgetLine(label=_("No attack: fleeing"), left=0, total=0),
            )
        return (
            BudgetLine(label=_("Move"), left=0 if spent.moved else 1, total=1),
            BudgetLine(label=_("Action"), left=0 if spent.acted else 1, total=1),
        )

    public_reads = frozenset({"round", "surprised"})
    """Surprise in the first round; his health word is his hit points'."""

    def public_conditions(self, state: State, combatant_id: str) -> tuple[str, ...]:
        """Surprised: the one line of the card the players see."""
        return (f"{_('Surprised')}: {_('loses this round')}",) if self.surprised_now(state, combatant_id) else ()

    def details(self, state: State, combatant_id: str) -> tuple[tuple[str, str], ...]:
        combatant = state.combatant(combatant_id)
        sheet = self.sheet_of(combatant)
        shield = _(" (shield {shield})", shield=sheet.shield) if sheet.shield else ""
        lines = [(_("AC / attack"), f"{sheet.ac}{shield} / {sheet.attack:+d}")]
        weapon = f"{data_words(sheet.weapon)}, {sheet.damage}" if sheet.weapon else sheet.damage
        if self.slow_attacker(state, combatant_id):
            weapon += " — " + _("slow: acts last")
        lines.append((_("Weapon"), weapon))
        if self.individual(state):
            lines.append((_("Initiative"), f"{tables().initiative.dice} {dex_modifier(sheet.dex):+d}"))
        if self.surprised_now(state, combatant_id):
            lines.append((_("Surprised"), _("loses this round")))
        declaration = self.declaration_of(state, combatant_id)
        if declaration.intent != "none":
            what = f" ({declaration.what})" if declaration.what else ""
            lines.append((_("Declared"), _(INTENT_LABELS[declaration.intent]) + what))
        if self.disrupted(state, combatant_id):
            lines.append(
                (_("Disrupted"), _("the spell is lost") if declaration.intent == "spell" else _("the rune is used up"))
            )
        if self.fleeing(state, combatant_id):
            lines.append(
                (_("Fleeing melee"), _("opponents +{bonus} to hit, shield ignored", bonus=tables().fleeing.to_hit))
            )
        lines += self.morale_details(state, combatant_id)
        return tuple(lines)

    def morale_details(self, state: State, combatant_id: str) -> list[tuple[str, str]]:
        combatant = state.combatant(combatant_id)
        score = self.sheet_of(combatant).morale
        if not score:
            return []
        data = tables().morale
        fight = self.fight_of(state)
        if combatant_id in fight.broken:
            return [
                (
                    _("Morale"),
                    _(
                        "{score}: broken in round {round}, flees or surrenders",
                        score=score,
                        round=fight.broken[combatant_id],
                    ),
                )
            ]
        if score >= data.never_checks:
            return [(_("Morale"), _("{score}: fights to the death, never checks", score=score))]
        passes = fight.passes.get(combatant_id, 0)
        if passes >= data.passes_to_stop:
            return [
                (
                    _("Morale"),
                    ngettext(
                        "{score}: {n} check passed, fights to the death",
                        "{score}: {n} checks passed, fights to the death",
                        passes,
                        score=score,
                    ),
                )
            ]
        lines = [(_("Morale"), f"{score} — {chance_text(score)}")]
        if passes:
            lines.append((_("Morale checks passed"), f"{passes}/{data.passes_to_stop}"))
        due = self.open_prompts(state, combatant.side)
        if due:
            lines.append((_("Morale check due"), ", ".join(_(p.reason) for p in due)))
        return lines
