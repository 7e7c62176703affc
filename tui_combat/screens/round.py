"""The round: phase bar, turn order with the acting slot, the selected combatant, the roll log.

Keys are generic (next, roll, damage …, from :data:`tui_combat.engine.keys.ROUND_KEYS`) plus the
active ruleset's own actions from its static catalogue (``Ruleset.actions``), which the class of the screen
made for the ruleset binds (:func:`with_ruleset_keys`, from the
ruleset's catalogue: :mod:`tui_combat.screens.round_keys`); every one of them runs through
:meth:`RoundScreen.action_ruleset`. The footer shows what applies now (``check_action`` asks the
ruleset); help and the palette list every key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import msgspec
from textual import events
from textual.actions import parse as parse_action
from textual.app import ComposeResult
from textual.binding import Binding

from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import OUT_OF_TURN, initiative_asked, initiative_stage
from tui_combat.engine.audience import anything_held, held_items
from tui_combat.engine.contract import ActionSpec, AnyRuleset, DamageDue, FieldSpec, last_target
from tui_combat.engine.dice import DiceError, Roll
from tui_combat.engine.effects import MAX_ROUNDS, find_effect
from tui_combat.engine.errors import RuleError
from tui_combat.engine.keys import ROUND_KEYS
from tui_combat.engine.log import LogEntry, render
from tui_combat.engine.model import RollRequest, State
from tui_combat.i18n import N_, _
from tui_combat.screens.area_flow import AreaFlow
from tui_combat.screens.damage_prompt import ask_amount, ask_hit_damage
from tui_combat.screens.damage_prompt import read_amount as read_amount  # (where it was found before)
from tui_combat.screens.dialogs import ChoiceDialog, ConfirmDialog, FormDialog
from tui_combat.screens.form_panel import FormPanel
from tui_combat.screens.help_panel import HelpPanel
from tui_combat.screens.round_asks import RoundAsks
from tui_combat.screens.round_card import LOG_LINES, CardAndLog, request_label, shortened
from tui_combat.screens.round_foot import AskedAtTheFoot
from tui_combat.screens.round_keys import ruleset_bindings, with_bindings
from tui_combat.screens.saving_throw import ask_saving_throw
from tui_combat.screens.session_screen import SessionScreen, session_bindings, undo_key
from tui_combat.textual_ext.frames import LaidOutInPlace
from tui_combat.widgets.amount_prompt import AmountPrompt
from tui_combat.widgets.budget import BudgetMeter
from tui_combat.widgets.containers import Column, Row, ScrollColumn
from tui_combat.widgets.footer import KeyFooter
from tui_combat.widgets.glyphs import glyph
from tui_combat.widgets.lines import TextLines
from tui_combat.widgets.order_list import OrderList
from tui_combat.widgets.order_rows import FILTER_ACTING, FILTER_ALL
from tui_combat.widgets.phase_bar import PhaseBar
from tui_combat.widgets.read_only import ReadOnlyBar
from tui_combat.widgets.redraw import RoundLog
from tui_combat.widgets.translated_bindings import merged_bindings


def _key(binding_id: str) -> str:
    return ROUND_KEYS[binding_id]


def roll_fields(requests: tuple[RollRequest, ...]) -> list[FieldSpec]:
    """One roll field per request: typed from real dice, or left for the app to roll."""
    return [FieldSpec(key=r.key, label=render(r.label), kind="roll", default=r.dice) for r in requests]


def roll_arg(value: Roll) -> dict[str, Any]:
    """A roll as a ruleset action's argument: plain data, exactly as the journal gives it back (lists,
    not tuples), so that the action dispatched now equals the action replayed after a restart."""
    return dict(msgspec.json.decode(msgspec.json.encode(value)))


class RoundScreen(LaidOutInPlace, SessionScreen, AskedAtTheFoot, CardAndLog):
    CSS_PATH = "round.tcss"
    BINDINGS = [
        Binding(_key("round.next"), "next", N_("Next"), id="round.next"),
        Binding(_key("round.back"), "back", N_("Back"), id="round.back", show=False),
        Binding(_key("round.roll"), "roll", N_("Roll"), id="round.roll"),
        Binding(_key("round.type"), "type_rolls", N_("Typed"), id="round.type"),
        Binding(_key("round.declare"), "declare", N_("Declare"), id="round.declare"),
        Binding(_key("round.damage"), "damage", N_("Damage"), id="round.damage"),
        Binding(_key("round.heal"), "heal", N_("Heal"), id="round.heal", show=False),
        Binding(_key("round.status"), "status", N_("Status"), id="round.status", show=False),
        Binding(_key("round.add"), "add", N_("Add"), id="round.add", show=False),
        Binding(_key("round.bring_in"), "bring_in", N_("Bring in"), id="round.bring_in"),
        *session_bindings("round", undo_in_footer=True, keys=ROUND_KEYS),
        Binding(_key("round.save_as"), "save_as", N_("Save as"), id="round.save_as", show=False),
        Binding(_key("round.options"), "options", N_("Options (initiative method …)"), id="round.options", show=False),
        Binding(_key("round.quit"), "app.quit", N_("Quit"), id="round.quit", show=False),
        Binding(_key("round.search"), "search", N_("Find in the turn list"), id="round.search", show=False),
        Binding(
            _key("round.filter"), "filter", N_("List: everyone, acting now, one side"), id="round.filter", show=False
        ),
        Binding(_key("round.group"), "fold_group", N_("Fold or unfold a group"), id="round.group", show=False),
        Binding(
            _key("round.effect"), "effect", N_("Condition or effect for some rounds"), id="round.effect", show=False
        ),
        Binding(_key("round.hide"), "hide", N_("Hide from the players, or reveal"), id="round.hide", show=False),
        Binding(_key("round.show_held"), "show_held", N_("Show held"), id="round.show_held"),
        Binding(_key("round.export"), "export", N_("Fight report"), id="round.export", show=False),
        Binding(
            _key("round.save_to_library"),
            "save_to_library",
            N_("Save to the library"),
            id="round.save_to_library",
            show=False,
        ),
    ]

    ruleset_keys_of: ClassVar[str | None] = None
    """The ruleset whose own keys the class binds (:func:`with_ruleset_keys`); None for the generic screen."""

    def __new__(cls, ruleset_id: str) -> RoundScreen:
        # The round screen of a fight is one of its ruleset: its class binds the ruleset's own keys too.
        made = cls if cls.ruleset_keys_of == ruleset_id else with_ruleset_keys(cls, ruleset_id)
        return super().__new__(made)

    def __init__(self, ruleset_id: str) -> None:
        super().__init__()
        # Made once and kept: a key's redraw reaches each of them without a search of the screen (some twenty
        # searches on a damage's Enter).
        self.help_panel = HelpPanel(id="help-panel")
        self.key_footer = KeyFooter(compact=True)
        self.amount_prompt = AmountPrompt(self.key_footer, id="amount-prompt")
        self.form_panel = FormPanel(id="form-panel")
        self.add_panel = FormPanel(id="add-panel")
        self.order_list = OrderList(id="order")
        self.read_only_bar = ReadOnlyBar(id="read-only-bar")
        self.phase_bar = PhaseBar(id="phase-bar")
        self.step_hint = TextLines(id="step-hint")
        self.card_head = TextLines(id="card-head")
        self.budget = BudgetMeter(id="budget")
        self.card = TextLines(id="card")
        self.round_log = RoundLog(id="log", max_lines=LOG_LINES, min_width=20)
        self.area = AreaFlow(self)
        self.asks = RoundAsks(self)

    def compose(self) -> ComposeResult:
        # The forms and the prompt first: Textual numbers the painting order of a screen's widgets from its last
        # one, so one shown after them would renumber every one, and every one would be redrawn (over the
        # footer on a layer of its own, it needs no place in the order). The help too, over the whole screen.
        yield self.help_panel
        yield self.form_panel
        yield self.add_panel
        yield self.amount_prompt
        yield self.read_only_bar
        yield self.phase_bar
        yield self.step_hint
        with Row(id="round-main"):
            yield self.order_list
            with Column(id="round-side"):
                yield self.card_head
                yield self.budget
                with ScrollColumn(id="card-box"):
                    yield self.card
                with Column(id="log-box"):
                    yield self.round_log
        yield self.key_footer

    def prepare(self) -> None:
        self._log_count = 0
        self._entry_lines: dict[int, tuple[LogEntry, str]] = {}
        """Each entry's line in the log, by the entry's identity (see :meth:`_entry_line`)."""
        self._card_shows: tuple[State, str] | None = None
        """The state and the combatant the card was last drawn for."""
        self._available: frozenset[tuple[str, bool | None]] | None = None
        self._initiative_for: tuple[State, tuple[RollRequest, ...] | None] | None = None
        """The state :meth:`initiative_requests` was last worked out for, and its answer."""
        self.keys_refreshed = 0
        """How many times the keys that apply changed (and the footer was redrawn); for tests."""
        self.order_list.focus()

    # -- reading the state --------------------------------------------------------------------------
    @property
    def ruleset(self) -> AnyRuleset:
        return registry.get(self.state.ruleset)

    def step_kind(self) -> str:
        state = self.state
        if state.phase != "round":
            return ""
        steps = self.ruleset.steps(state)
        return steps[state.step].kind if state.step < len(steps) else ""

    def selected(self) -> str | None:
        return self.order_list.selected_combatant()

    def initiative_requests(self) -> tuple[RollRequest, ...] | None:
        """The rolls initiative asks for now (the first ones, or pending follow-ups such as a tie
        reroll); ``()`` when the order needs no roll; None when no roll applies now. Worked out once for
        each state: the rules work it out from every combatant (10,000 in a mass battle)."""
        state = self.state
        known = self._initiative_for
        if known is not None and known[0] is state:
            return known[1]
        requests = initiative_asked(self.ruleset, state)[0] if self.initiative_applies() else None
        self._initiative_for = (state, requests)
        return requests

    def initiative_applies(self) -> bool:
        """Whether Roll and Typed apply now (:meth:`initiative_requests` is not None), told without working out
        the rolls: the footer asks it of every key it shows."""
        state = self.state
        return state.phase == "round" and initiative_stage(self.ruleset, state) in ("fresh", "pending")

    # -- rendering ----------------------------------------------------------------------------------
    def show(self, state: State) -> None:
        if state.phase not in ("round", "over"):
            return
        ruleset = registry.get(state.ruleset)
        steps = ruleset.steps(state)
        kind = steps[state.step].kind if state.step < len(steps) else ""
        extra = ""
        if state.initiative.pending:
            extra = (
                glyph("⚄")
                + " "
                + _("initiative waits for {rolls}", rolls=", ".join(request_label(r) for r in state.initiative.pending))
            )
        elif kind == "resolve" and state.order:
            extra = glyph("▶") + " " + render(state.order[min(state.cursor, len(state.order) - 1)].label)
        self.read_only_bar.show_read_only(self.store.read_only, damaged=self.store.damaged)
        self.phase_bar.show_step(state.round, steps, state.step, extra)
        self.order_list.show(state, kind == "resolve", ruleset)
        self.asks.seen(state, ruleset)
        self.step_hint.show(self.next_move(state, ruleset))
        self._show_log(state)
        self.show_card()
        self.refresh_keys()
        if self.asks.pending:
            self.call_later(self.asks.run)

    def show_help(self) -> None:
        """Help (F1): the panel over the screen (see :class:`HelpPanel`)."""
        self.help_panel.open()

    def hold_key(self, event: events.Key) -> bool:
        """While the help is open it takes the keys; else the prompt or the form at the foot may hold them."""
        return self.help_panel.take_key(event) or super().hold_key(event)

    def on_screen_resume(self) -> None:
        if self.asks.pending:  # what the state asked for while a dialog lay over the screen
            self.call_later(self.asks.run)

    def on_order_list_highlighted(self, event: OrderList.Highlighted) -> None:
        shows = self._card_shows
        if shows is not None and shows[0] is self.state and shows[1] == self.selected():
            return  # the turn moved the selection: the action's own redraw has shown it already
        self.show_card()
        self.refresh_keys()

    # -- which keys apply now -----------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """False hides a key from the footer (it stays in help and the palette) and stops it. While the amount
        prompt or the form at the foot is open, the screen's keys are theirs to type."""
        if self.amount_prompt.is_open or self.form_panel.is_open or self.add_panel.is_open:
            return False
        return self._allowed(action, parameters)

    def _allowed(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.host.store is None:
            return True
        if action in ("roll", "type_rolls"):
            return self.initiative_applies()
        if action == "declare":
            return self.step_kind() == "declare"
        if action == "bring_in":
            return self.check_bring_in()
        if action == "show_held":
            return anything_held(self.state)
        if action == "area":  # the turns: an area may be anyone's, at any time of them
            return self.step_kind() == "resolve"
        if action == "abilities":
            return bool(self.area.abilities_of(self.selected()))
        if action == "saving_throw":
            return self.state.phase == "round" and bool(self.ruleset.save_kinds(self.state))
        if action == "undo":  # shown dimmed while there is nothing to undo: the row of keys stays where it is
            return self.store.can_undo or None
        if action == "redo":
            return self.store.can_redo
        if action == "ruleset":
            spec = self.action_spec(str(parameters[0]) if parameters else "")
            if spec is None:
                return False
            selected = self.selected()
            if spec.needs_combatant and selected is None:
                return False
            try:
                offered = bool(self.asks.offered(spec.name))  # a legendary action, offered for another
                return self.ruleset.action_available(self.state, spec.name, selected) or offered
            except RuleError:
                return False
        return True

    def refresh_keys(self) -> None:
        """Redraw the footer only when the keys that apply, or which of them are dimmed, have changed."""
        available = frozenset(
            (binding.action, applies)
            for bindings in merged_bindings(type(self)).key_to_bindings.values()
            for binding in bindings
            if (applies := self._action_applies(binding.action)) is not False
        )
        if available != self._available:
            first, self._available = self._available is None, available
            if not first:  # the footer works out the keys of a screen when it is first shown
                self.keys_refreshed += 1
                self.refresh_bindings()

    def _action_applies(self, action: str) -> bool | None:
        """True, None when its key is shown dimmed, False when it is left out."""
        _target, name, parameters = parse_action(action)
        return self._allowed(name, parameters)

    # -- generic actions ----------------------------------------------------------------------------
    def action_next(self) -> None:
        self.host.dispatch(a.NextStep())

    def action_filter(self) -> None:
        """The turn list shows everyone, then only those acting now, then each side in turn, then everyone."""
        order = self.order_list
        choices = [FILTER_ALL, FILTER_ACTING, *(side.id for side in self.state.sides)]
        shown = choices[(choices.index(order.filter) + 1) % len(choices)] if order.filter in choices else FILTER_ALL
        order.show_only(shown)
        if shown == FILTER_ALL:
            self.notify(_("The list shows everyone."), timeout=3)
        elif shown == FILTER_ACTING:
            self.notify(_("The list shows those acting now."), timeout=3)
        else:
            self.notify(_("The list shows {side}.", side=self.state.side(shown).name), timeout=3)
        self.show_card()
        self.refresh_keys()

    def action_search(self) -> None:
        """A name typed at the foot; Enter selects the next row of the turn list that shows it, Esc leaves."""

        def find(typed: str) -> str | None:
            if not typed.strip():
                return None
            if self.order_list.find(typed) is None:
                return _("Nobody in the turn list is called “{name}”.", name=typed.strip())
            return None

        self._prompt(
            _("Find"),
            find,
            placeholder=_("a name"),
            keys=_("Enter: go to · Esc: close"),
            typed_keys=_("Enter: go to · Esc: close"),
        )

    def action_fold_group(self) -> None:
        """The selected group becomes one row in the turn list, or one row per member again."""
        folded = self.order_list.fold_or_unfold()
        if folded is None:
            self.notify(_("Select a group or one of its members to fold or unfold it."), timeout=3)
            return
        self.show_card()
        self.refresh_keys()

    def action_back(self) -> None:
        self.host.dispatch(a.PreviousStep())

    def action_area(self) -> None:
        self.area.start()

    def action_abilities(self) -> None:
        self.area.choose_ability()

    def action_saving_throw(self) -> None:
        """A save owed first (the oldest); else one the GM calls for, of the selected combatant."""
        if self.asks.ask_due():
            return
        selected = self.selected()
        if selected is not None:
            ask_saving_throw(self, selected)

    def reroll_asks(self, then: Callable[[], None]) -> None:
        """Run ``then`` (a new initiative roll); when this round's order is settled already and someone may
        have acted on it, only once the GM confirms."""
        state = self.state
        if not (state.initiative.settled and state.order and not state.initiative.pending):
            then()
            return

        def answered(again: bool | None) -> None:
            if again:
                then()

        self.app.push_screen(
            ConfirmDialog(
                _("Roll initiative again?"),
                _("This round's order is settled and may have been acted on; a new roll replaces it."),
                confirm=_("Roll again"),
                cancel=_("Keep the order"),
            ),
            answered,
        )

    def action_roll(self) -> None:
        if not self.initiative_applies():
            return
        self.reroll_asks(self._roll)

    def _roll(self) -> None:
        requests = self.initiative_requests()
        if requests is None:
            return
        try:
            rolls = self.ruleset.draw_initiative(self.state, requests, self.store.rng)
        except (DiceError, RuleError) as error:
            self.notify(str(error), severity="error")
            return
        self.host.dispatch(a.RollInitiative(rolls=rolls))

    def action_type_rolls(self) -> None:
        if not self.initiative_applies():
            return
        self.reroll_asks(self._type_rolls)

    def _type_rolls(self) -> None:
        requests = self.initiative_requests()
        if requests is None:
            return
        if not requests:
            self.host.dispatch(a.RollInitiative(rolls={}))
            return

        def submit(values: dict[str, Any]) -> str | None:
            return self.host.refusal(a.RollInitiative(rolls=values))

        if any(self.ruleset.draws_initiative(self.state, request) for request in requests):
            from tui_combat.screens.initiative_form import initiative_form

            self.app.push_screen(initiative_form(self.ruleset, self.state, requests, self.store.rng, submit))
            return
        title = (
            _("Initiative rolled on real dice")
            if not self.state.initiative.pending
            else _("Initiative: the further rolls, on real dice")
        )

        modifiers = {r.key: r.modifier for r in requests if r.modifier}
        self.app.push_screen(
            FormDialog(title, roll_fields(requests), rng=self.store.rng, roll_modifiers=modifiers, submit=submit)
        )

    def check_bring_in(self) -> bool:
        """Whether someone waits outside the order and may come in now (during the turns of the round)."""
        state = self.state
        if state.phase != "round" or self.step_kind() != "resolve" or not state.order:
            return False
        try:
            return any(state.combatant(w.combatant).status == "active" for w in self.ruleset.out_of_order(state))
        except (RuleError, KeyError):
            return False

    def action_bring_in(self) -> None:
        """One who waits outside the order (on hold, a Joker) acts now: the GM picks him (the selected one first)."""
        if not self.check_bring_in():
            return
        state = self.state
        waiting = [w for w in self.ruleset.out_of_order(state) if state.combatant(w.combatant).status == "active"]
        choices = [(w.combatant, f"{state.combatant(w.combatant).name} — {render(w.label)}") for w in waiting]
        selected = self.selected()

        def chosen(value: str | None) -> None:
            if value:
                self.host.refusal(a.BringIn(combatant=value))

        self.app.push_screen(
            ChoiceDialog(_("Who comes in now?"), choices, selected if selected in dict(choices) else None), chosen
        )

    def action_declare(self) -> None:
        combatant_id = self.selected()
        if combatant_id is None:
            return
        state = self.state
        fields = self.ruleset.declaration_fields(state, combatant_id)
        current = self.ruleset.declaration(state, combatant_id)
        name = state.combatant(combatant_id).name

        self.app.push_screen(
            FormDialog(
                _("Declaration: {name}", name=name),
                fields,
                current,
                rng=self.store.rng,
                submit=lambda values: self.host.refusal(a.Declare(combatant=combatant_id, declaration=values)),
            )
        )

    def _ask_amount(
        self, title: str, what: str, then: Callable[[str, dict[str, Any]], str | None], *, typed_kind: bool = False
    ) -> None:
        ask_amount(self, title, what, then, typed_kind=typed_kind)

    def action_damage(self) -> None:
        self._ask_amount(
            _("Damage to {name}", name="{name}"),
            _("Damage"),
            lambda cid, v: self.host.refusal(
                a.Damage(combatant=cid, amount=v["amount"], roll=v["roll"], kind=v["kind"])
            ),
            typed_kind=True,
        )

    def action_heal(self) -> None:
        self._ask_amount(
            _("Heal {name}", name="{name}"),
            _("Healing"),
            lambda cid, v: self.host.refusal(a.Heal(combatant=cid, amount=v["amount"])),
        )

    def action_status(self) -> None:
        combatant_id = self.selected()
        if combatant_id is None:
            return
        combatant = self.state.combatant(combatant_id)
        choices = [
            ("active", _("in the fight")),
            ("down", _("down")),
            ("fled", _("fled")),
            ("surrendered", _("surrendered")),
        ]

        def chosen(value: str | None) -> None:
            if not value:
                return
            changed = value != self.state.combatant(combatant_id).status
            done = self.host.dispatch(a.SetStatus(combatant=combatant_id, status=value))  # type: ignore[arg-type]
            if done and changed and value != "active":  # out of the fight: say how to bring him back
                self.notify(
                    _(
                        "{name}: {status} — {undo} takes it back",
                        name=combatant.name,
                        status=dict(choices)[value],
                        undo=undo_key("round"),
                    ),
                    timeout=6,
                )

        self.app.push_screen(
            ChoiceDialog(_("Status of {name}", name=combatant.name), choices, combatant.status), chosen
        )

    def action_hide(self) -> None:
        """Hide the selected combatant from the players, or reveal him ("X appears" in their log)."""
        combatant_id = self.selected()
        if combatant_id is not None:
            self.host.dispatch(
                a.SetHidden(combatant=combatant_id, hidden=not self.state.combatant(combatant_id).hidden)
            )

    def action_show_held(self) -> None:
        """Show the players a line or an effect held from them because it names a secret: the one there is, or
        the one the GM picks (newest first)."""
        items = held_items(self.state)
        if len(items) == 1:
            self.host.dispatch(a.ShowToPlayers(entries=items[0].entries, effects=items[0].effects))
            return
        choices = [(str(index), shortened(render(item.text))) for index, item in enumerate(items)]
        choices.append(("all", _("all of them")))

        def chosen(value: str | None) -> None:
            if value is None:
                return
            picked = items if value == "all" else [items[int(value)]]
            self.host.dispatch(
                a.ShowToPlayers(
                    entries=tuple(e for item in picked for e in item.entries),
                    effects=tuple(e for item in picked for e in item.effects),
                )
            )

        if items:
            self.app.push_screen(ChoiceDialog(_("Show the players"), choices, choices[0][0]), chosen)

    def action_effect(self) -> None:
        """A condition or effect on the selected combatant: a name (typed, or one of the ruleset's) and how
        many rounds it lasts; 0 rounds ends the one of that name."""
        combatant_id = self.selected()
        if combatant_id is None:
            return
        known = self.ruleset.effect_names()
        fields = [
            FieldSpec(
                key="name",
                label=N_("Condition or effect"),
                suggestions=known,
                help=_("→ completes: {names}", names=", ".join(_(name) for name in known)) if known else "",
            ),
            FieldSpec(
                key="rounds", label=N_("Rounds (0 ends it)"), kind="int", default=1, minimum=0, maximum=MAX_ROUNDS
            ),
        ]

        def submit(values: dict[str, Any]) -> str | None:
            name, rounds = str(values["name"]), int(values["rounds"])
            if rounds > 0:
                return self.host.refusal(a.AddEffect(combatant=combatant_id, name=name, rounds=rounds))
            effect = find_effect(self.state, combatant_id, name, known)
            who = self.state.combatant(combatant_id).name
            if effect is None:
                return _("{name} has no effect called {effect}.", name=who, effect=name.strip())
            refusal = self.host.refusal(a.EndEffect(effect=effect.id))
            if refusal is None:
                self.notify(
                    _(
                        "{name}: {effect} ended — {undo} brings it back",
                        name=who,
                        effect=render(effect.label),
                        undo=undo_key("round"),
                    ),
                    timeout=6,
                )
            return refusal

        title = _("Condition or effect on {name}", name=self.state.combatant(combatant_id).name)
        self.app.push_screen(FormDialog(title, fields, {"name": "", "rounds": 1}, submit=submit))

    def action_export(self) -> None:
        from tui_combat.screens.export import export_dialog

        export_dialog(self, self.host)

    def action_save_to_library(self) -> None:
        from tui_combat.screens.library import save_to_library_dialog

        save_to_library_dialog(self, self.selected())

    def action_add(self) -> None:
        from tui_combat.screens.setup import add_combatant_dialog

        selected = self.selected()
        add_combatant_dialog(self, self.state.combatant(selected).side if selected else None)

    def action_options(self) -> None:
        from tui_combat.screens.setup import options_dialog

        options_dialog(self)

    def action_save_as(self) -> None:
        from tui_combat.fight.session import SessionError, save_as

        def submit(values: dict[str, Any]) -> str | None:
            store = self.host.store
            if store is None:
                return None
            try:
                save_as(store, self.host.data_root, values["name"])
            except SessionError as error:
                return str(error)
            self.notify(_("Saved as {name}.", name=values["name"]))
            return None

        self.app.push_screen(
            FormDialog(
                _("Save as"),
                [FieldSpec(key="name", label=N_("Name"))],
                {"name": self.state.name},
                validate=lambda v: v if v["name"] else _("A name cannot be empty."),
                submit=submit,
            )
        )

    # -- ruleset actions ----------------------------------------------------------------------------
    def action_spec(self, name: str) -> ActionSpec | None:
        return next((spec for spec in self.ruleset.actions if spec.name == name), None)

    def action_ruleset(self, name: str) -> None:
        """A ruleset action of the selected combatant. One that belongs to a turn (``in_turn``) taken by
        someone who does not act now asks the GM first; confirmed, it is logged as out of turn."""
        spec = self.action_spec(name)
        if spec is None:
            return
        combatant_id = self.selected()
        offered = self.asks.offered(spec.name)
        if offered and not self._ruleset_key_applies(self.ruleset, self.state, spec, combatant_id):
            combatant_id = offered[0]  # offered now (a legendary action) to another than the one selected
        if (
            spec.in_turn
            and spec.needs_combatant
            and combatant_id
            and not self.ruleset.acts_now(self.state, combatant_id)
        ):
            combatant = self.state.combatant(combatant_id)
            acting = ", ".join(self.state.combatant(cid).name for cid in self.state.acting_now()) or _("nobody")

            def answered(anyway: bool | None) -> None:
                if anyway:
                    self.ruleset_form(spec, combatant_id, out_of_turn=True)

            self.app.push_screen(
                ConfirmDialog(
                    _("{name} does not act now", name=combatant.name),
                    _(
                        "Acting now: {names}. {action} by {name} out of turn? The log will say so.",
                        names=acting,
                        action=_(spec.label),
                        name=combatant.name,
                    ),
                    confirm=_("Yes, out of turn"),
                    cancel=_("No"),
                ),
                answered,
            )
            return
        self.ruleset_form(spec, combatant_id)

    def ruleset_form(self, spec: ActionSpec, combatant_id: str | None, *, out_of_turn: bool = False) -> None:
        """The action's form (none when it has no fields); a refusal stays in the form with what was typed.
        The target is the one this combatant attacked last, while the form shows what he needs and the
        chance of it; a hit that calls for damage asks for it next (:meth:`ask_damage`)."""
        state = self.state
        ruleset = self.ruleset
        fields = ruleset.action_fields(state, spec.name, combatant_id or "")
        taken: dict[str, Any] = {}

        def submit(values: dict[str, Any]) -> str | None:
            args: dict[str, Any] = {"combatant": combatant_id or ""} if spec.needs_combatant else {}
            for key, value in values.items():
                args[key] = roll_arg(value) if isinstance(value, Roll) else value
            if out_of_turn:
                args[OUT_OF_TURN] = True
            before = self.state
            refusal = self.host.refusal(a.RulesetAction(name=spec.name, args=args))
            if refusal is None:
                taken.update(before=before, args=args)
            return refusal

        def then(_values: dict[str, Any] | None = None) -> None:
            if taken:
                self.ask_damage(ruleset.damage_due(taken["before"], self.state, spec.name, taken["args"]))

        if not fields:
            refusal = submit({})
            if refusal is not None:
                self.notify(refusal, severity="warning", timeout=6)
            then()
            return
        # An action that is not about the selected combatant (needs_combatant=False) is titled by itself: the
        # selected row only hints its form's defaults (his side, say).
        who = state.combatant(combatant_id).name if combatant_id and spec.needs_combatant else ""
        title = f"{_(spec.label)} — {who}" if who else _(spec.label)
        defaults = {f.key: f.default for f in fields if f.kind != "roll"}
        target_field = next((f for f in fields if f.key == "target" and f.kind == "choice"), None)
        if target_field is not None and combatant_id:
            last = last_target(state, combatant_id)
            if last is not None and any(value == last for value, _label in target_field.choices):
                defaults["target"] = last

        def preview(values: dict[str, Any]) -> str:
            return ruleset.form_preview(self.state, spec.name, combatant_id or "", values)

        def dice(values: dict[str, Any]) -> Mapping[str, str]:
            return ruleset.form_dice(self.state, spec.name, combatant_id or "", values)

        self._form(title, fields, defaults, then, rng=self.store.rng, submit=submit, preview=preview, dice=dice)

    def ask_damage(self, due: DamageDue | None) -> None:
        """The damage a hit calls for, asked in the prompt (see :func:`ask_hit_damage`)."""
        ask_hit_damage(self, due)


AFTER_THE_RULESET = [
    Binding(_key("round.abilities"), "abilities", N_("Abilities"), id="round.abilities"),
    Binding(_key("round.area"), "area", N_("Area"), id="round.area"),
    Binding(_key("round.save"), "saving_throw", N_("Saving throw"), id="round.save", show=False),
]
"""The round's keys placed after the ruleset's own (a footer too full leaves them out first; the card and the
step line name them when they matter)."""


def with_ruleset_keys(screen_class: type[RoundScreen], ruleset_id: str) -> type[RoundScreen]:
    """``screen_class`` with the bindings of the ruleset's own actions added after its own (their keys are
    none of its keys): a class made once for each ruleset and its actions."""
    return with_bindings(screen_class, ruleset_id, (*ruleset_bindings(registry.get(ruleset_id)), *AFTER_THE_RULESET))
