"""The round: phase bar, turn order with the acting slot, the selected combatant, the roll log.

Keys are generic (next, roll, damage …) plus the active ruleset's own actions (attack, parry …),
which :func:`round_screen` adds as bindings so that they show in the footer and the help screen.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, OptionList, RichLog, Static

from tui_combat.engine import registry
from tui_combat.engine import actions as a
from tui_combat.engine.dice import DiceError, Roll, parse, physical, roll
from tui_combat.engine.model import State
from tui_combat.i18n import _
from tui_combat.engine.contract import FieldSpec, Ruleset, RuleError
from tui_combat.screens.dialogs import ChoiceDialog, FormDialog
from tui_combat.screens.session_screen import SessionScreen, session_bindings
from tui_combat.widgets.budget import BudgetMeter
from tui_combat.widgets.order_list import OrderList
from tui_combat.widgets.phase_bar import PhaseBar

LOG_LINES = 200


class RoundScreen(SessionScreen):
    ruleset_keys: dict[str, str] = {}
    """Ruleset action name → key, filled in by :func:`round_screen`."""
    BINDINGS = [
        Binding("n,space", "next", _("Next"), id="round.next"),
        Binding("b", "back", _("Back"), id="round.back", show=False),
        Binding("r", "roll", _("Roll"), id="round.roll"),
        Binding("t", "type_rolls", _("Typed"), id="round.type"),
        Binding("e", "declare", _("Declare"), id="round.declare"),
        Binding("d", "damage", _("Damage"), id="round.damage"),
        Binding("h", "heal", _("Heal"), id="round.heal", show=False),
        Binding("x", "status", _("Status"), id="round.status", show=False),
        Binding("i", "add", _("Add"), id="round.add", show=False),
        *session_bindings("round", undo_in_footer=True),

        Binding("ctrl+s", "save_as", _("Save as"), id="round.save_as", show=False),
        Binding("O", "options", _("Options (initiative method …)"), id="round.options", show=False),

        Binding("q", "app.quit", _("Quit"), id="round.quit", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield PhaseBar(id="phase-bar")
        with Horizontal(id="round-main"):
            yield OrderList(id="order")
            with Vertical(id="round-side"):
                yield Static(id="card-head")
                yield BudgetMeter(id="budget")
                yield Static(id="card")
                yield RichLog(id="log", wrap=True, markup=False, max_lines=LOG_LINES, min_width=20)
        yield Footer(compact=True)

    def prepare(self) -> None:
        self._log_count = 0
        self.query_one(OrderList).focus()

    # -- reading the state --------------------------------------------------------------------------
    @property
    def ruleset(self) -> Ruleset:
        return registry.get(self.state.ruleset)

    def step_kind(self) -> str:
        state = self.state
        if state.phase != "round":
            return ""
        steps = self.ruleset.steps(state)
        return steps[state.step].kind if state.step < len(steps) else ""

    def selected(self) -> str | None:
        return self.query_one(OrderList).selected_combatant()

    # -- rendering ----------------------------------------------------------------------------------
    def show(self, state: State) -> None:
        if state.phase not in ("round", "over"):
            return
        ruleset = registry.get(state.ruleset)
        steps = ruleset.steps(state)
        kind = steps[state.step].kind if state.step < len(steps) else ""
        extra = ""
        if kind == "resolve" and state.order:
            extra = "▶ " + state.order[min(state.cursor, len(state.order) - 1)].label
        self.query_one(PhaseBar).show(state.round, steps, state.step, extra)
        self.query_one(OrderList).show(state, kind == "resolve")
        self._show_log(state)
        self.show_card()
        self.refresh_bindings()

    def _show_log(self, state: State) -> None:
        entries = state.log_entries()
        log = self.query_one(RichLog)
        if len(entries) < self._log_count:  # undo took entries away: redraw
            log.clear()
            self._log_count = 0
        for entry in entries[max(self._log_count, len(entries) - LOG_LINES):]:
            prefix = "🔒 " if entry.secret else ""
            log.write(f"{prefix}{entry.text}")
        self._log_count = len(entries)

    def show_card(self) -> None:
        """The selected combatant: name and HP, then the live budget, then the ruleset's details."""
        state = self.state
        combatant_id = self.selected()
        head = self.query_one("#card-head", Static)
        card = self.query_one("#card", Static)
        meter = self.query_one(BudgetMeter)
        if combatant_id is None:
            head.update(_("Nobody selected."))
            card.update("")
            meter.update("")
            return
        combatant = state.combatant(combatant_id)
        ruleset = registry.get(state.ruleset)
        head.update(f"[b]{_escape(combatant.name)}[/]  {_escape(state.side(combatant.side).name)}  "
                    f"HP {combatant.hp}/{combatant.max_hp}  {_(combatant.status)}")
        try:
            lines = [f"{_escape(label)}: {_escape(value)}" for label, value in ruleset.details(state, combatant_id)]
            budget = ruleset.budget(state, combatant_id)
        except RuleError as error:  # a sheet the ruleset cannot read must not break the screen
            lines = [f"[red]{_escape(str(error))}[/]"]
            budget = ()
        if combatant.notes:
            lines.append(f"[dim]{_escape(combatant.notes)}[/]")
        card.update("\n".join(lines))
        meter.show(budget)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.show_card()

    # -- which keys apply now -----------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        kind = self.step_kind()
        if action in ("roll", "type_rolls"):
            return kind in ("initiative", "declare")
        if action == "declare":
            return kind == "declare"
        if action == "undo":
            return self.app.store is not None and self.app.store.can_undo
        if action == "redo":
            return self.app.store is not None and self.app.store.can_redo
        if action == "ruleset":
            name = str(parameters[0]) if parameters else ""
            return any(key.name == name for key in self.ruleset.round_actions(self.state))
        return True

    # -- generic actions ----------------------------------------------------------------------------
    def action_next(self) -> None:
        self.app.dispatch(a.NextStep())

    def action_back(self) -> None:
        self.app.dispatch(a.PreviousStep())

    def action_roll(self) -> None:
        store = self.app.store
        assert store is not None
        requests = self.ruleset.initiative_requests(self.state)
        try:
            rolls = {request.key: roll(request.dice, store.rng) for request in requests}
        except DiceError as error:
            self.app.notify(str(error), severity="error")
            return
        self.app.dispatch(a.RollInitiative(rolls=rolls))

    def action_type_rolls(self) -> None:
        requests = self.ruleset.initiative_requests(self.state)
        if not requests:
            self.app.dispatch(a.RollInitiative(rolls={}))
            return
        fields = [FieldSpec(key=r.key, label=f"{r.label} ({r.dice}{f' {r.modifier:+d}' if r.modifier else ''})") for r in requests]

        def validate(values: dict[str, Any]) -> dict[str, Any] | str:
            try:
                return {r.key: physical(r.dice, values[r.key]) for r in requests}
            except DiceError as error:
                return str(error)

        def typed(values: dict[str, Any] | None) -> None:
            if values is not None:
                self.app.dispatch(a.RollInitiative(rolls=values))

        self.app.push_screen(FormDialog(_("Initiative rolled on real dice"), fields, validate=validate), typed)

    def action_declare(self) -> None:
        combatant_id = self.selected()
        if combatant_id is None:
            return
        state = self.state
        fields = self.ruleset.declaration_fields(state, combatant_id)
        current = state.round_data.get("declarations", {}).get(combatant_id, {})
        name = state.combatant(combatant_id).name

        def declared(values: dict[str, Any] | None) -> None:
            if values is not None:
                self.app.dispatch(a.Declare(combatant=combatant_id, declaration=values))

        self.app.push_screen(FormDialog(_("Declaration: {name}", name=name), fields, current), declared)

    def _amount_dialog(self, title: str, then: Any) -> None:
        combatant_id = self.selected()
        if combatant_id is None:
            return
        store = self.app.store
        assert store is not None

        def validate(values: dict[str, Any]) -> dict[str, Any] | str:
            text = str(values["amount"]).strip()
            if not text:
                return _("Type a number or a dice expression such as 2d6+1.")
            if text.lstrip("+").isdigit():
                return {"amount": int(text), "roll": None}
            try:
                rolled = roll(parse(text), store.rng)
            except DiceError as error:
                return str(error)
            return {"amount": max(rolled.total, 0), "roll": rolled}

        name = self.state.combatant(combatant_id).name
        fields = [FieldSpec(key="amount", label="Amount, or dice to roll (2d6+1)")]
        self.app.push_screen(
            FormDialog(title.format(name=name), fields, validate=validate),
            lambda values: then(combatant_id, values) if values is not None else None,
        )

    def action_damage(self) -> None:
        self._amount_dialog(
            _("Damage to {name}", name="{name}"),
            lambda cid, v: self.app.dispatch(a.Damage(combatant=cid, amount=v["amount"], roll=v["roll"])),
        )

    def action_heal(self) -> None:
        self._amount_dialog(
            _("Heal {name}", name="{name}"),
            lambda cid, v: self.app.dispatch(a.Heal(combatant=cid, amount=v["amount"])),
        )

    def action_status(self) -> None:
        combatant_id = self.selected()
        if combatant_id is None:
            return
        combatant = self.state.combatant(combatant_id)
        choices = [("active", _("in the fight")), ("down", _("down")), ("fled", _("fled")), ("surrendered", _("surrendered"))]

        def chosen(value: str | None) -> None:
            if value:
                self.app.dispatch(a.SetStatus(combatant=combatant_id, status=value))  # type: ignore[arg-type]

        self.app.push_screen(ChoiceDialog(_("Status of {name}", name=combatant.name), choices, combatant.status), chosen)

    def action_add(self) -> None:
        from tui_combat.screens.setup import add_combatant_dialog

        selected = self.selected()
        add_combatant_dialog(self.app, self.state, self.state.combatant(selected).side if selected else None)

    def action_options(self) -> None:
        from tui_combat.screens.setup import options_dialog

        options_dialog(self.app, self.state)

    def action_save_as(self) -> None:
        from tui_combat.saves.errors import SaveError
        from tui_combat.saves.library import new_session_folder

        def chosen(values: dict[str, Any] | None) -> None:
            store = self.app.store
            if values is None or store is None:
                return
            try:
                store.save_as(new_session_folder(self.app.data_root, values["name"]))
            except SaveError as error:
                self.app.notify(str(error), severity="error", timeout=10)
                return
            self.app.dispatch(a.SetName(name=values["name"]))
            self.app.notify(_("Saved as {name}.", name=values["name"]))

        self.app.push_screen(FormDialog(_("Save as"), [FieldSpec(key="name", label="Name")], {"name": self.state.name},
                                        validate=lambda v: v if v["name"] else _("A name cannot be empty.")), chosen)

    # -- ruleset actions ----------------------------------------------------------------------------
    def action_ruleset(self, name: str) -> None:
        combatant_id = self.selected()
        state = self.state
        ruleset = self.ruleset
        fields = ruleset.action_fields(state, name, combatant_id or "")
        store = self.app.store
        assert store is not None
        label = next((k.label for k in ruleset.round_actions(state) if k.name == name), name)

        def dispatch(values: dict[str, Any]) -> None:
            args = {"combatant": combatant_id or "", **values}
            if isinstance(values.get("roll"), Roll):
                args["roll"] = {"expr": values["roll"].expr, "total": values["roll"].total,
                                "faces": list(values["roll"].faces), "physical": values["roll"].physical}
            self.app.dispatch(a.RulesetAction(name=name, args=args))

        if not fields:
            dispatch({})
            return
        roll_field = next((f for f in fields if f.key == "roll"), None)

        def validate(values: dict[str, Any]) -> dict[str, Any] | str:
            if roll_field is None:
                return values
            dice = str(roll_field.default)
            try:
                typed = str(values.get("roll", "")).strip()
                values["roll"] = physical(dice, typed) if typed and typed != dice else roll(dice, store.rng)
            except DiceError as error:
                return str(error)
            return values

        defaults = {f.key: ("" if f.key == "roll" else f.default) for f in fields}
        who = state.combatant(combatant_id).name if combatant_id else ""
        self.app.push_screen(FormDialog(f"{_(label)} — {who}", fields, defaults, validate=validate),
                             lambda values: dispatch(values) if values is not None else None)


def _escape(text: str) -> str:
    return text.replace("[", r"\[")


_screen_classes: dict[str, type[RoundScreen]] = {}


def round_screen(ruleset_id: str) -> RoundScreen:
    """A round screen whose bindings include the ruleset's own actions."""
    cls = _screen_classes.get(ruleset_id)
    if cls is None:
        ruleset = registry.get(ruleset_id)
        taken = {key for b in RoundScreen.BINDINGS if isinstance(b, Binding) for key in b.key.split(",")}
        extra = []
        for state_probe in _probe_states(ruleset):
            for action_key in ruleset.round_actions(state_probe):
                if action_key.key in taken:
                    continue
                taken.add(action_key.key)
                extra.append(Binding(action_key.key, f"ruleset('{action_key.name}')", _(action_key.label),
                                     show=action_key.footer, id=f"{ruleset_id}.{action_key.name}"))
        cls = type(f"RoundScreen_{ruleset_id}", (RoundScreen,), {"BINDINGS": extra})
        _screen_classes[ruleset_id] = cls
    return cls()


def _probe_states(ruleset: Ruleset) -> list[State]:
    """States at each step of a round, to collect every action key the ruleset may offer."""
    from msgspec.structs import replace

    base = State(ruleset=ruleset.id, phase="round", round=1)
    return [replace(base, step=index) for index in range(len(ruleset.steps(base)))]
