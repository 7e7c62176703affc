"""What the round screen shows in words: the next move under the phase bar, the card of the selected combatant
(name, health, the live budget, the ruleset's details, effects) and the roll log. Mixed into
:class:`~tui_combat.screens.round.RoundScreen`, which makes the widgets named here and yields them."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from tui_combat.engine import registry
from tui_combat.engine.contract import ActionSpec, AnyRuleset
from tui_combat.engine.effects import effects_of
from tui_combat.engine.errors import RuleError
from tui_combat.engine.keys import ruleset_binding_id, shown_key
from tui_combat.engine.log import LogEntry, render
from tui_combat.engine.model import RollRequest, State
from tui_combat.i18n import _, ngettext
from tui_combat.screens.round_asks import RoundAsks
from tui_combat.widgets.budget import BudgetMeter
from tui_combat.widgets.glyphs import glyph
from tui_combat.widgets.lines import TextLines
from tui_combat.widgets.redraw import RoundLog

LOG_LINES = 200
LOG_ENTRY_CHARS = 600


def request_label(request: RollRequest) -> str:
    """What a roll request is called on screen, with its modifier: "Party +1"."""
    label = render(request.label)
    return f"{label} {request.modifier:+d}" if request.modifier else label


def shortened(text: str) -> str:
    """A log entry as the log shows it: cut at :data:`LOG_ENTRY_CHARS` (the order of 2,000 combatants runs
    to many screens; the turn list shows it in full)."""
    return text if len(text) <= LOG_ENTRY_CHARS else text[: LOG_ENTRY_CHARS - 1] + "…"


def last_entries(state: State, count: int) -> list[LogEntry]:
    """The last ``count`` entries of the log, oldest first, without going through the whole log."""
    entries: list[LogEntry] = []
    for chunk in reversed(state.log):
        entries[:0] = chunk[max(len(chunk) - (count - len(entries)), 0) :]
        if len(entries) >= count:
            break
    return entries


class CardAndLog:
    """Mixed into the round screen, which makes the widgets named here and yields them."""

    asks: RoundAsks
    round_log: RoundLog
    card_head: TextLines
    card: TextLines
    budget: BudgetMeter
    _log_count: int
    _entry_lines: dict[int, tuple[LogEntry, str]]
    _card_shows: tuple[State, str] | None
    # The screen's own, typed here for the mixin.
    selected: Any
    notify: Any

    @property
    def state(self) -> State:
        raise NotImplementedError

    def next_move(self, state: State, ruleset: AnyRuleset) -> Text:
        """What to do next: the keys first, then the step's own help, wrapped onto the next line where the two
        do not fit on one (the list below gives up a row for it)."""
        steps = ruleset.steps(state)
        step = steps[state.step] if 0 <= state.step < len(steps) else None
        if state.phase == "over" or step is None:
            keys = _(
                "The fight is over: {undo} undoes, {leave} goes back to the sessions.",
                undo=shown_key("round.undo"),
                leave=shown_key("round.leave"),
            )
        elif state.initiative.pending:
            keys = _(
                "{roll} rolls the further initiative rolls, {typed} takes them from real dice",
                roll=shown_key("round.roll"),
                typed=shown_key("round.type"),
            )
        elif step.kind == "declare":
            keys = _(
                "{declare} on each combatant, {next} when done",
                declare=shown_key("round.declare"),
                next=shown_key("round.next"),
            )
        elif step.kind == "initiative" and not state.initiative.settled and not step.dice:
            # The ruleset settles the order itself (an opener the GM picks): its help says how.
            keys = _("{next} once the order stands", next=shown_key("round.next"))
        elif step.kind == "initiative" and not state.initiative.settled:
            keys = _(
                "{roll} rolls initiative, {typed} takes it from real dice",
                roll=shown_key("round.roll"),
                typed=shown_key("round.type"),
            )
        elif step.kind == "resolve" and state.order:
            # The same line all through the step (who acts is in the list and the phase bar): a turn moving on
            # sends nothing for it.
            first = state.acting_now()[0] if state.acting_now() else None
            own = [
                f"{shown_key(ruleset_binding_id(ruleset.id, spec.name), spec.key)} {_(spec.label).lower()}"
                for spec in ruleset.actions
                if spec.footer and self._ruleset_key_applies(ruleset, state, spec, first)
            ]
            damage = _("{key} damage", key=shown_key("round.damage"))
            keys = _(
                "{keys} for those acting now, {next} when done",
                keys=", ".join([*own[:3], damage]),
                next=shown_key("round.next"),
            )
        elif step.kind == "end":
            keys = _("{next} starts round {n}", next=shown_key("round.next"), n=state.round + 1)
        else:
            keys = _("{next} goes on", next=shown_key("round.next"))
        text = Text()
        reminders = self.asks.reminders(state, ruleset) if state.phase == "round" else []
        if reminders:
            text.append(" · ".join(reminders) + " · ", style="bold yellow")
        text.append(keys, style="bold")
        if step is not None and step.help and state.phase != "over":
            text.append(f" · {_(step.help)}", style="dim")
        return text

    @staticmethod
    def _ruleset_key_applies(ruleset: AnyRuleset, state: State, spec: ActionSpec, combatant_id: str | None) -> bool:
        try:
            return ruleset.action_available(state, spec.name, combatant_id)
        except RuleError:
            return False

    def _show_log(self, state: State) -> None:
        """Append the entries the log does not show yet (all at once: one layout, one scroll); write it anew only
        when an undo took entries away."""
        total = state.log_count
        log = self.round_log
        if total < self._log_count:
            log.write_anew([self._entry_line(entry) for entry in last_entries(state, min(total, LOG_LINES))])
            self._log_count = total
            return
        new = min(total - self._log_count, LOG_LINES)
        if new > 0:
            entries = last_entries(state, new)
            log.add_lines("\n".join(self._entry_line(entry) for entry in entries))
            if self._log_count and any(entry.held for entry in entries):
                self.notify(
                    _(
                        "Kept from the players: it names what was said in secret. {key} shows it to them.",
                        key=shown_key("round.show_held"),
                    )
                )
        self._log_count = total

    def _entry_line(self, entry: LogEntry) -> str:
        """``entry`` as the log shows it; worked out once for each entry (an undo writes the log again with the
        entries it had, the very objects: a state's log shares them with the states before it)."""
        known = self._entry_lines.get(id(entry))
        if known is not None and known[0] is entry:
            return known[1]
        line = (glyph("🔒") + " " if entry.secret else "") + shortened(entry.text)
        if len(self._entry_lines) > 4 * LOG_LINES:
            self._entry_lines.clear()
        self._entry_lines[id(entry)] = (entry, line)
        return line

    def show_card(self) -> None:
        """The selected combatant: name and HP, then the live budget, then the ruleset's details. Names and
        details are text, never markup; a part that did not change is not redrawn."""
        state = self.state
        combatant_id = self.selected()
        meter = self.budget
        pending: list[Text] = []
        if state.initiative.pending:
            pending.append(
                Text(
                    _(
                        "Initiative waits for more rolls ({roll} rolls, {typed} takes real dice):",
                        roll=shown_key("round.roll"),
                        typed=shown_key("round.type"),
                    ),
                    style="yellow",
                )
            )
            ruleset = registry.get(state.ruleset)
            pending += [
                Text(f"  {request_label(r)}: {ruleset.initiative_help(state, r)}", style="yellow")
                for r in state.initiative.pending
            ]
        self._card_shows = None
        if combatant_id is None:
            self.card_head.show(Text(_("Nobody selected.")))
            self.card.show(Text("\n").join(pending))
            meter.show_budget(())
            return
        combatant = state.combatant(combatant_id)
        ruleset = registry.get(state.ruleset)
        head = Text.assemble(
            (combatant.name, "bold"),
            f"  {state.side(combatant.side).name}  ",
            f"{_(ruleset.health_label)} {ruleset.health_shown(state, combatant_id)}  {_(combatant.status)}",
        )
        try:
            lines = [Text(f"{label}: {value}") for label, value in ruleset.details(state, combatant_id)]
            budget = ruleset.budget(state, combatant_id)
            stat_block = ruleset.sheet_notes(combatant.sheet, combatant.max_hp)
        except RuleError as error:  # a sheet the ruleset cannot read must not break the screen
            lines = [Text(str(error), style="red")]
            budget = ()
            stat_block = ""
        for effect in effects_of(state, combatant_id):
            lines.append(
                Text(
                    (glyph("🔒") + " " if effect.secret else "")
                    + ngettext(
                        "{effect}: {n} round left",
                        "{effect}: {n} rounds left",
                        effect.rounds,
                        effect=render(effect.label),
                    ),
                    style="magenta",
                )
            )
        lines[:0] = self.asks.card_lines(state, combatant_id)
        if stat_block:
            lines.append(Text(stat_block, style="dim"))
        if combatant.notes:
            lines.append(Text(combatant.notes, style="dim"))
        if combatant.hidden:
            lines.insert(
                0,
                Text(
                    _("Hidden from the players ({key} reveals him)", key=shown_key("round.hide")), style="bold yellow"
                ),
            )
        self.card_head.show(head)
        self.card.show(Text("\n").join(pending + lines))
        meter.show_budget(budget)
        self._card_shows = (state, combatant_id)
