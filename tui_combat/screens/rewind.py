"""Looking back at a saved fight: step through it action by action or round by round, seeing the turn
order, hit points, statuses, effects and the log as they were then (everything the GM saw, secrets
included), and go on from any point as a new fight.

The session is only read (:func:`tui_combat.fight.rewind.look_back`: no lock, nothing written), in a worker
thread; the screen is read-only and changes nothing in it. "Continue from here" asks for a name and opens
the new fight (:func:`tui_combat.fight.rewind.branch`) through the host, as any session opens, in place of this
screen.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from tui_combat.engine import registry
from tui_combat.engine.contract import FieldSpec
from tui_combat.engine.effects import effects_of
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import LogEntry, render
from tui_combat.engine.model import State
from tui_combat.fight import rewind
from tui_combat.fight.session import SessionError, free_name
from tui_combat.i18n import N_, _, ngettext
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.host import Host, host_of
from tui_combat.screens.player_view import phase_title
from tui_combat.screens.round_card import LOG_LINES, last_entries, shortened
from tui_combat.widgets.footer import KeyFooter
from tui_combat.widgets.glyphs import glyph
from tui_combat.widgets.lines import TextLines
from tui_combat.widgets.order_list import OrderList
from tui_combat.widgets.phase_bar import PhaseBar
from tui_combat.widgets.redraw import RoundLog
from tui_combat.widgets.translated_bindings import KeysInWrittenOrder, TranslatedBindings

__all__ = ["RewindScreen", "card_text", "position_text"]

BACK_ACTIONS = frozenset({"step(-1)", "round(-1)", "first"})
FORWARD_ACTIONS = frozenset({"step(1)", "round(1)", "last"})


def _entry_text(entry: LogEntry) -> str:
    return (glyph("🔒") + " " if entry.secret else "") + shortened(entry.text)


def position_text(timeline: rewind.Timeline, position: int, state: State) -> Text:
    """ "Round 2 · action 14 of 57 · <what that action logged>", on two lines where one does not hold it."""
    text = Text()
    text.append(phase_title(state.phase, state.round), style="bold")
    text.append(" · ")
    if position == 0:
        text.append(_("before the first action, {total} in all", total=timeline.last))
    else:
        text.append(_("action {n} of {total}", n=position, total=timeline.last))
    logged = timeline.logged_by(position)
    if logged:
        text.append(" · ")
        text.append(_entry_text(logged[0]), style="bold" if not logged[0].secret else "bold magenta")
    elif position:
        text.append(" · ")
        text.append(_("nothing logged"), style="dim")
    return text


def card_text(state: State, combatant_id: str) -> tuple[Text, Text]:
    """The selected combatant as the GM sees him: name, side, HP and status; then the ruleset's details,
    his effects, what his stat block says beside them, his notes and his secret notes."""
    combatant = state.combatant(combatant_id)
    ruleset = registry.get(state.ruleset)
    head = Text.assemble(
        (combatant.name, "bold"),
        f"  {state.side(combatant.side).name}  ",
        f"{_(ruleset.health_label)} {ruleset.health_shown(state, combatant_id)}  {_(combatant.status)}",
    )
    lines: list[Text] = []
    stat_block = ""
    try:
        lines += [Text(f"{label}: {value}") for label, value in ruleset.details(state, combatant_id)]
        stat_block = ruleset.sheet_notes(combatant.sheet, combatant.max_hp)
    except RuleError as error:  # a sheet the ruleset cannot read must not break the screen
        lines.append(Text(str(error), style="red"))
    for effect in effects_of(state, combatant_id):
        lines.append(
            Text(
                ngettext(
                    "{effect}: {n} round left", "{effect}: {n} rounds left", effect.rounds, effect=render(effect.label)
                ),
                style="magenta",
            )
        )
    if stat_block:
        lines.append(Text(stat_block, style="dim"))
    if combatant.notes:
        lines.append(Text(combatant.notes, style="dim"))
    if combatant.secret_notes:
        lines.append(Text(f"{glyph('🔒')} {combatant.secret_notes}", style="dim"))
    return head, Text("\n").join(lines)


_ACTION = Binding.Group(N_("Action"), compact=True)
_ROUND = Binding.Group(N_("Round"), compact=True)


class RewindScreen(KeysInWrittenOrder, TranslatedBindings, Screen[None]):
    """A saved fight, read-only, at any point of its history."""

    CSS_PATH = "round.tcss"  # the round's layout
    DEFAULT_CSS = """
    #rewind-head { height: auto; max-height: 2; padding: 0 1; background: $boost; text-style: bold; }
    #rewind-where { height: 2; padding: 0 1; }  /* two lines always: stepping through the actions moves nothing */
    RewindScreen #phase-bar { background: $panel; }
    """
    # The arrows and the page keys before the focused turn list, which would take them to scroll. The page
    # keys are bindings of their own: the footer shows the brackets.
    BINDINGS = [
        Binding("left,comma", "step(-1)", N_("One action back"), id="rewind.back", group=_ACTION, priority=True),
        Binding("right,full_stop", "step(1)", N_("One action on"), id="rewind.forward", group=_ACTION, priority=True),
        Binding("left_square_bracket", "round(-1)", N_("One round back"), id="rewind.round_back", group=_ROUND),
        Binding("right_square_bracket", "round(1)", N_("One round on"), id="rewind.round_forward", group=_ROUND),
        Binding("pageup", "round(-1)", N_("One round back"), id="rewind.round_back_page", show=False, priority=True),
        Binding("pagedown", "round(1)", N_("One round on"), id="rewind.round_forward_page", show=False, priority=True),
        Binding("home", "first", N_("The beginning"), id="rewind.first", show=False, priority=True),
        Binding("end", "last", N_("Where it was left"), id="rewind.last", show=False, priority=True),
        Binding("c", "branch", N_("Continue here"), id="rewind.branch"),
        Binding("escape", "leave", N_("Sessions"), id="rewind.leave"),
        Binding("q", "app.quit", N_("Quit"), id="rewind.quit"),
    ]

    def __init__(self, key: str, name: str) -> None:
        super().__init__()
        self.key = key
        self.session_name = name
        self.timeline: rewind.Timeline | None = None
        self.position = 0
        self._log_count = 0
        self._edges: tuple[bool, bool] | None = None
        self._reading: Worker[rewind.Timeline | SessionError] | None = None

    @property
    def host(self) -> Host:
        return host_of(self)

    def compose(self) -> ComposeResult:
        yield TextLines(id="rewind-head")
        yield TextLines(id="rewind-where")
        yield PhaseBar(id="phase-bar")
        with Horizontal(id="round-main"):
            yield OrderList(id="order")
            with Vertical(id="round-side"):
                yield TextLines(id="card-head")
                with VerticalScroll(id="card-box"):
                    yield TextLines(id="card")
                with Vertical(id="log-box"):
                    yield RoundLog(id="log", max_lines=LOG_LINES, min_width=20)
        yield KeyFooter(compact=True)

    def on_mount(self) -> None:
        head = Text()  # on two lines where one does not hold it
        head.append(_("Looking back at {name}", name=self.session_name))
        head.append(" · " + _("read-only: nothing here changes it"), style="dim")
        self.query_one("#rewind-head", TextLines).show(head)
        self.query_one("#rewind-where", TextLines).show(Text(_("Reading the fight's history…"), style="dim"))
        self.query_one("#round-main").loading = True
        self._reading = self.run_worker(
            partial(_read, self.host.data_root, self.key), name="look-back", thread=True, exit_on_error=False
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self._reading:
            return
        event.stop()
        if event.state not in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
            return
        self._reading = None
        result = event.worker.result
        if event.state == WorkerState.ERROR:  # a bug must not end the app: say what it was
            self.notify(_("Unexpected error: {error}", error=repr(event.worker.error)), severity="error", timeout=15)
        elif isinstance(result, SessionError):
            self.notify(str(result), title=result.title, severity="error", timeout=15)
        elif result is not None:
            self.shown(result)
            return
        if self.app.screen is self:
            self.dismiss()

    def shown(self, timeline: rewind.Timeline) -> None:
        """The history is read: show where the fight was left."""
        self.timeline = timeline
        self.position = timeline.last
        self.query_one("#round-main").loading = False
        for warning in timeline.warnings:
            self.notify(warning, severity="warning", timeout=8)
        self.query_one(OrderList).focus()
        self.show()

    # -- showing the state at the position --------------------------------------------------------------
    def state(self) -> State | None:
        return self.timeline.state_at(self.position) if self.timeline is not None else None

    def show(self) -> None:
        timeline = self.timeline
        if timeline is None:
            return
        state = timeline.state_at(self.position)
        self.query_one("#rewind-where", TextLines).show(position_text(timeline, self.position, state))
        ruleset = registry.get(state.ruleset)
        bar = self.query_one(PhaseBar)
        in_resolve = False
        if state.phase in ("round", "over"):
            steps = ruleset.steps(state)
            in_resolve = state.step < len(steps) and steps[state.step].kind == "resolve"
            extra = (
                glyph("▶") + " " + render(state.order[min(state.cursor, len(state.order) - 1)].label)
                if in_resolve and state.order
                else ""
            )
            bar.show_step(state.round, steps, state.step, extra)
        bar.display = state.phase in ("round", "over")
        self.query_one(OrderList).show(state, in_resolve, ruleset)
        self._show_log(state)
        self.show_card()
        edges = (self.position == 0, self.position == timeline.last)
        if edges != self._edges:
            self._edges = edges
            self.refresh_bindings()

    def _show_log(self, state: State) -> None:
        """The log up to the position: appended to when stepping on, written again when stepping back."""
        total = state.log_count
        log = self.query_one(RoundLog)
        if total < self._log_count:
            log.forget()
            self._log_count = 0
        new = min(total - self._log_count, LOG_LINES)
        if new > 0:
            log.add_lines("\n".join(_entry_text(entry) for entry in last_entries(state, new)))
        self._log_count = total

    def show_card(self) -> None:
        state = self.state()
        selected = self.query_one(OrderList).selected_combatant()
        if state is None or selected is None:
            self.query_one("#card-head", TextLines).show(Text(_("Nobody selected.")))
            self.query_one("#card", TextLines).show(Text())
            return
        head, body = card_text(state, selected)
        self.query_one("#card-head", TextLines).show(head)
        self.query_one("#card", TextLines).show(body)

    def on_order_list_highlighted(self, event: OrderList.Highlighted) -> None:
        self.show_card()

    # -- keys ---------------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Until the history is read only Esc does something; at the first and the last position the keys
        that would go beyond them are shown dimmed."""
        if action in ("step", "round", "first", "last", "branch"):
            if self.timeline is None:
                return None
            called = f"{action}({parameters[0]})" if parameters else action
            if called in BACK_ACTIONS and self.position == 0:
                return None
            if called in FORWARD_ACTIONS and self.position == self.timeline.last:
                return None
        return True

    def go(self, position: int) -> None:
        if self.timeline is None:
            return
        position = max(0, min(position, self.timeline.last))
        if position != self.position:
            self.position = position
            self.show()

    def action_step(self, delta: int) -> None:
        self.go(self.position + delta)

    def action_round(self, delta: int) -> None:
        if self.timeline is None:
            return
        timeline = self.timeline
        self.go(timeline.round_start_after(self.position) if delta > 0 else timeline.round_start_before(self.position))

    def action_first(self) -> None:
        self.go(0)

    def action_last(self) -> None:
        if self.timeline is not None:
            self.go(self.timeline.last)

    def action_leave(self) -> None:
        self.dismiss()

    def action_branch(self) -> None:
        """Ask for the new fight's name (a free one is offered), then open it from this point."""
        timeline = self.timeline
        if timeline is None:
            return
        position = self.position
        data_root = self.host.data_root
        offered = free_name(data_root, rewind.branch_name(timeline, position))
        note = _(
            "A new fight goes on from here ({where}, action {n} of {total}); {name} stays as it is.",
            where=timeline.where(position),
            n=position,
            total=timeline.last,
            name=self.session_name,
        )

        def checked(values: dict[str, Any]) -> dict[str, Any] | str:
            return values if str(values["name"]).strip() else _("A name cannot be empty.")

        def chosen(values: dict[str, Any] | None) -> None:
            if values is not None:
                self.continue_as(timeline, position, str(values["name"]))

        self.app.push_screen(
            FormDialog(
                _("Continue from here as a new fight"),
                [FieldSpec(key="name", label=N_("Name"))],
                {"name": offered},
                validate=checked,
                note=note,
            ),
            chosen,
        )

    def continue_as(self, timeline: rewind.Timeline, position: int, name: str) -> None:
        """Leave this screen for the session list, where the new fight opens as any session does."""
        host = self.host
        if self.app.screen is self:
            self.dismiss()
        host.open_session(partial(rewind.branch, host.data_root, timeline, position, name, seed=host.seed))


def _read(data_root: Path, key: str) -> rewind.Timeline | SessionError:
    """Run in the worker thread: the timeline, or the refusal to show."""
    try:
        return rewind.look_back(data_root, key)
    except SessionError as error:
        return error
