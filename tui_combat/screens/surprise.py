"""Before the first round: who is surprised, and how far apart the sides are."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Footer, Header, RichLog, Static

from tui_combat.engine import registry
from tui_combat.engine import actions as a
from tui_combat.engine.dice import DiceError, Roll, physical, roll
from tui_combat.engine.model import State
from tui_combat.i18n import _
from tui_combat.engine.contract import FieldSpec
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.session_screen import SessionScreen, session_bindings


class SurpriseScreen(SessionScreen):
    BINDINGS = [
        Binding("s", "mark", _("Surprised"), id="surprise.mark"),
        Binding("space", "toggle_rolls", _("Rolls or not"), id="surprise.toggle", show=False),
        Binding("m", "modifier", _("Modifier"), id="surprise.modifier", show=False),
        Binding("r", "roll", _("Roll"), id="surprise.roll"),
        Binding("t", "type", _("Typed"), id="surprise.type"),
        Binding("g", "distance", _("Distance"), id="surprise.distance"),
        Binding("c", "start", _("Fight!"), id="surprise.start"),
        *session_bindings("surprise"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.exposed: dict[str, bool] = {}
        self.modifiers: dict[str, int] = {}

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="surprise-summary")
        yield DataTable(id="surprise-sides", cursor_type="row")
        yield RichLog(id="surprise-log", wrap=True, markup=False, min_width=20)
        yield Footer()

    def prepare(self) -> None:
        self.query_one(DataTable).add_columns(_("Side"), _("Can be surprised"), _("Modifier"), _("Result"))

    def show(self, state: State) -> None:
        if state.phase != "surprise":
            return
        ruleset = registry.get(state.ruleset)
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        for side in state.sides:
            result = _("surprised") if side.id in state.surprised else ""
            table.add_row(
                side.name,
                _("yes") if self.exposed.get(side.id, True) else _("no"),
                f"{self.modifiers.get(side.id, 0):+d}",
                result,
                key=side.id,
            )
        table.move_cursor(row=min(max(row, 0), max(table.row_count - 1, 0)))
        distance = state.distance or _("not rolled")
        dice = ruleset.surprise_dice()
        if dice:
            how = _("Each side that could be surprised rolls {dice}: r rolls, t takes real dice; "
                    "space: this side cannot be surprised; s marks a side by hand.", dice=dice)
        else:
            how = _("{ruleset} has no surprise roll: s marks the selected side surprised.", ruleset=ruleset.name)
        self.query_one("#surprise-summary", Static).update(
            f"{how}\n" + _("Distance: {distance} (g). c starts the fight.", distance=distance)
        )
        log = self.query_one(RichLog)
        log.clear()
        for entry in state.log_entries()[-12:]:
            log.write(entry.text)
        table.focus()

    def action_toggle_rolls(self) -> None:
        side = self.selected_row()
        if side:
            self.exposed[side] = not self.exposed.get(side, True)
            self.show(self.state)

    def action_mark(self) -> None:
        """The GM rules the selected side surprised, or not (books without a surprise roll)."""
        side = self.selected_row()
        if side is None:
            return
        surprised = set(self.state.surprised) ^ {side}
        self.app.dispatch(a.SetSurprised(sides=tuple(s.id for s in self.state.sides if s.id in surprised)))

    def action_modifier(self) -> None:
        side = self.selected_row()
        if side is None:
            return
        ruleset = registry.get(self.state.ruleset)
        table = ", ".join(f"{_(m.label)} {m.value:+d}" for m in ruleset.surprise_modifiers())

        def chosen(values: dict[str, Any] | None) -> None:
            if values is not None:
                self.modifiers[side] = values["modifier"]
                self.show(self.state)

        self.app.push_screen(
            FormDialog(_("Surprise modifier for {side}", side=self.state.side(side).name),
                       [FieldSpec(key="modifier", label="Modifier", kind="int", default=0)],
                       {"modifier": self.modifiers.get(side, 0)}, note=table),
            chosen,
        )

    def _sides(self) -> list[str]:
        return [side.id for side in self.state.sides if self.exposed.get(side.id, True)]

    def _no_roll(self, dice: str) -> bool:
        if not dice:
            self.app.notify(_("This book has no surprise roll: mark surprised sides with s."), severity="warning")
        return not dice

    def action_roll(self) -> None:
        store = self.app.store
        assert store is not None
        dice = registry.get(self.state.ruleset).surprise_dice()
        if self._no_roll(dice):
            return
        rolls = {side: roll(dice, store.rng) for side in self._sides()}
        self.app.dispatch(a.RollSurprise(rolls=rolls, modifiers=dict(self.modifiers)))

    def action_type(self) -> None:
        dice = registry.get(self.state.ruleset).surprise_dice()
        if self._no_roll(dice):
            return
        sides = self._sides()
        fields = [FieldSpec(key=side, label=self.state.side(side).name, kind="str") for side in sides]

        def validate(values: dict[str, Any]) -> dict[str, Any] | str:
            try:
                return {side: physical(dice, values[side]) for side in sides}
            except DiceError as error:
                return str(error)

        def typed(values: dict[str, Any] | None) -> None:
            if values is not None:
                self.app.dispatch(a.RollSurprise(rolls=values, modifiers=dict(self.modifiers)))

        self.app.push_screen(FormDialog(_("Surprise rolled on real dice ({dice})", dice=dice), fields, validate=validate), typed)

    def action_distance(self) -> None:
        situations = registry.get(self.state.ruleset).distance_situations()
        fields = [
            FieldSpec(key="situation", label="Situation", kind="choice", choices=tuple((s.id, s.label) for s in situations)),
            FieldSpec(key="typed", label="Rolled on real dice (empty: the app rolls)", kind="str"),
        ]

        def validate(values: dict[str, Any]) -> dict[str, Any] | str:
            situation = next(s for s in situations if s.id == values["situation"])
            if not situation.dice:
                return {"situation": situation.id, "roll": None}
            try:
                if values["typed"]:
                    return {"situation": situation.id, "roll": physical(situation.dice, values["typed"])}
                assert self.app.store is not None
                return {"situation": situation.id, "roll": roll(situation.dice, self.app.store.rng)}
            except DiceError as error:
                return str(error)

        def chosen(values: dict[str, Any] | None) -> None:
            if values is not None:
                rolled: Roll | None = values["roll"]
                self.app.dispatch(a.RollDistance(situation=values["situation"], roll=rolled))

        self.app.push_screen(FormDialog(_("Encounter distance"), fields, validate=validate), chosen)

    def action_start(self) -> None:
        self.app.dispatch(a.StartFight())
