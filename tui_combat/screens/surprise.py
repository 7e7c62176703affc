"""Before the first round: who is surprised, and how far apart the sides are.

With a surprise roll, the rows are the rolls the ruleset asks for (one per side, or one per combatant);
without one, the rows are the sides or the combatants (by the ruleset's ``surprise_scope``) and the GM
marks who is surprised. Either way ``s`` rules the selected row surprised, or not.

``g`` takes the encounter distance from the situations that apply now
(:meth:`~tui_combat.engine.contract.Ruleset.encounter_distances`, which may follow the surprise result):
the GM picks one when several apply, then rolls its dice (or types real dice), or, for a situation
without dice, gives the figure himself.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Header, RichLog, Static

from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.contract import AnyRuleset, FieldSpec, Situation, SurpriseModifier
from tui_combat.engine.dice import DiceError, Roll, roll
from tui_combat.engine.keys import shown_key
from tui_combat.engine.log import render
from tui_combat.engine.model import RollRequest, State
from tui_combat.i18n import N_, _, ngettext
from tui_combat.screens.dialogs import ChoiceDialog, FormDialog, read_whole_number
from tui_combat.screens.session_screen import SessionScreen, session_bindings
from tui_combat.widgets.footer import KeyFooter
from tui_combat.widgets.glyphs import glyph


class Row:
    """One line of the table: a surprise roll, or (without a roll) a side or a combatant."""

    __slots__ = ("combatants", "key", "label", "request")

    def __init__(self, key: str, label: str, combatants: tuple[str, ...], request: RollRequest | None = None) -> None:
        self.key = key
        self.label = label
        self.combatants = combatants
        self.request = request


def modifier_label(modifier: SurpriseModifier) -> str:
    """One of the book's surprise modifiers as the GM ticks it: "in darkness -4"."""
    return f"{_(modifier.label)} {modifier.value:+d}"


def surprise_rows(ruleset: AnyRuleset, state: State) -> list[Row]:
    requests = ruleset.surprise_requests(state)
    if requests:
        return [Row(r.key, render(r.label), r.combatants, r) for r in requests]
    if ruleset.surprise_scope == "combatant":
        return [Row(c.id, c.name, (c.id,)) for c in state.combatants]
    return [Row(s.id, s.name, tuple(c.id for c in state.combatants if c.side == s.id)) for s in state.sides]


MAX_GM_DISTANCE = 9999
"""The largest figure the GM may give for a situation without dice, in its unit: room for the longest
missile range in feet or squares, while a slip that runs to five digits is caught."""


def situation_reading(situation: Situation) -> str:
    """How a situation's dice read as a distance: "2d6 × 10 ft", "1d6 squares of 5 ft"."""
    if situation.multiplier == 1:
        return _("{dice} {unit}", dice=situation.dice, unit=_(situation.unit))
    return _(
        "{dice} × {multiplier} {unit}", dice=situation.dice, multiplier=situation.multiplier, unit=_(situation.unit)
    )


def situation_choice(situation: Situation) -> str:
    """A situation as the GM picks it: its name and what it rolls, or that the GM gives the figure."""
    if situation.dice:
        return _("{situation} — {reading}", situation=_(situation.label), reading=situation_reading(situation))
    return _("{situation} — the GM gives the figure", situation=_(situation.label))


def distance_offer(situations: tuple[Situation, ...]) -> str:
    """What ``g`` offers now, for the summary: the one situation that applies, or how many do."""
    if len(situations) == 1:
        return _(situations[0].label)
    if not situations:
        return _("none applies now")
    return ngettext("{n} situation", "{n} situations", len(situations))


class SurpriseScreen(SessionScreen):
    CSS_PATH = "surprise.tcss"
    BINDINGS = [
        Binding("s", "mark", N_("Surprised"), id="surprise.mark"),
        Binding("space", "toggle_rolls", N_("Rolls or not"), id="surprise.toggle", show=False),
        Binding("m", "modifier", N_("Modifier"), id="surprise.modifier", show=False),
        Binding("r", "roll", N_("Roll"), id="surprise.roll"),
        Binding("t", "type", N_("Typed"), id="surprise.type"),
        Binding("g", "distance", N_("Distance"), id="surprise.distance"),
        Binding("c", "start", N_("Fight!"), id="surprise.start"),
        Binding("q", "app.quit", N_("Quit"), id="surprise.quit"),
        *session_bindings("surprise"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.exposed: dict[str, bool] = {}
        """Row key → whether it rolls for surprise (space: those who cannot be surprised do not)."""
        self.modifiers: dict[str, int] = {}
        """Row key → its surprise modifier in all."""
        self.modifier_choices: dict[str, tuple[frozenset[int], int]] = {}
        """Row key → the book's modifiers ticked for it (by place in the list) and the GM's own figure."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="surprise-summary")
        yield DataTable(id="surprise-sides", cursor_type="row")
        yield RichLog(id="surprise-log", wrap=True, markup=False, min_width=20)
        yield KeyFooter(compact=True)  # (room for Quit beside the five keys of the step, at 80 columns)

    @property
    def ruleset(self) -> AnyRuleset:
        return registry.get(self.state.ruleset)

    def rows(self) -> list[Row]:
        return surprise_rows(self.ruleset, self.state)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A book without a surprise roll (the GM marks who is surprised) has no roll, typed roll,
        modifier or "rolls or not" key; one without encounter distances has no distance key."""
        if self.host.store is None:
            return True
        if action in ("roll", "type", "modifier", "toggle_rolls"):
            return bool(self.ruleset.surprise_dice())
        if action == "distance":
            return bool(self.ruleset.distance_situations())
        return True

    def prepare(self) -> None:
        first = _("Combatant") if self.ruleset.surprise_scope == "combatant" else _("Side")
        self.query_one(DataTable).add_columns(first, _("Can be surprised"), _("Modifier"), _("Result"))

    def show(self, state: State) -> None:
        if state.phase != "surprise":
            return
        ruleset = registry.get(state.ruleset)
        table = self.query_one(DataTable)
        row_index = table.cursor_row
        table.clear()
        surprised = set(state.surprised)
        # Once rolled (or ruled by the GM), every row has its result: those not surprised say so.
        decided = self.host.store is not None and any(
            isinstance(done, (a.RollSurprise, a.SetSurprised)) for done in self.host.store.done_actions()
        )
        for row in surprise_rows(ruleset, state):
            hit = bool(row.combatants) and set(row.combatants) <= surprised
            table.add_row(
                Text(row.label),
                _("yes") if self.exposed.get(row.key, True) else _("no"),
                f"{self.modifiers.get(row.key, 0):+d}",
                _("surprised") if hit else _("not surprised") if decided and row.combatants else "",
                key=row.key,
            )
        table.move_cursor(row=min(max(row_index, 0), max(table.row_count - 1, 0)))
        distance = render(state.distance) if state.distance is not None else _("not rolled")
        dice = ruleset.surprise_dice()
        if dice:
            keys = {
                "roll": shown_key("surprise.roll", "r"),
                "typed": shown_key("surprise.type", "t"),
                "mark": shown_key("surprise.mark", "s"),
            }
            how = _(
                "Each side that could be surprised rolls {dice}: {roll} rolls, {typed} takes real dice; "
                "space: this side cannot be surprised; {mark} marks a side by hand.",
                dice=dice,
                **keys,
            )
            if ruleset.surprise_scope == "combatant":
                how = _(
                    "Each combatant who could be surprised rolls {dice}: {roll} rolls, {typed} takes real dice; "
                    "space: this one cannot be surprised; {mark} marks one by hand.",
                    dice=dice,
                    **keys,
                )
        elif ruleset.surprise_scope == "combatant":
            how = _(
                "There is no surprise roll {in_ruleset}: {mark} marks the selected combatant surprised.",
                in_ruleset=ruleset.in_ruleset(),
                mark=shown_key("surprise.mark", "s"),
            )
        else:
            how = _(
                "There is no surprise roll {in_ruleset}: {mark} marks the selected side surprised.",
                in_ruleset=ruleset.in_ruleset(),
                mark=shown_key("surprise.mark", "s"),
            )
        if ruleset.distance_situations():
            where = _(
                "Distance: {distance} ({distance_key}: {offer}). {start} starts the fight.",
                distance=distance,
                distance_key=shown_key("surprise.distance", "g"),
                start=shown_key("surprise.start", "c"),
                offer=distance_offer(ruleset.encounter_distances(state)),
            )
        else:
            where = _("{start} starts the fight.", start=shown_key("surprise.start", "c"))
        summary = how + "\n" + where
        self.query_one("#surprise-summary", Static).update(Text(summary))
        log = self.query_one(RichLog)
        log.clear()
        for entry in state.log_entries()[-12:]:
            log.write((glyph("🔒") + " " if entry.secret else "") + entry.text)
        table.focus()

    def _selected(self) -> Row | None:
        key = self.selected_row()
        return next((row for row in self.rows() if row.key == key), None)

    def action_toggle_rolls(self) -> None:
        row = self._selected()
        if row is not None:
            self.exposed[row.key] = not self.exposed.get(row.key, True)
            self.show(self.state)

    def action_mark(self) -> None:
        """The GM rules the selected row surprised, or no longer surprised."""
        row = self._selected()
        if row is None or not row.combatants:
            return
        state = self.state
        now = set(state.surprised)
        members = set(row.combatants)
        now = now - members if members <= now else now | members
        if self.ruleset.surprise_scope == "side":
            sides = tuple(
                side.id
                for side in state.sides
                if (ids := {c.id for c in state.combatants if c.side == side.id}) and ids <= now
            )
            if {c.id for c in state.combatants if c.side in sides} == now:
                self.host.dispatch(a.SetSurprised(sides=sides))
                return
        self.host.dispatch(a.SetSurprised(combatants=tuple(c.id for c in state.combatants if c.id in now)))

    def action_modifier(self) -> None:
        """``m``: the selected row's modifier, as the book's list of situations to tick (each with its
        value) and a figure of the GM's own for anything else; the row's modifier is their sum."""
        row = self._selected()
        if row is None:
            return
        listed = self.ruleset.surprise_modifiers()
        ticked, other = self.modifier_choices.get(row.key, (frozenset(), self.modifiers.get(row.key, 0)))
        fields = [
            FieldSpec(key=f"m{index}", label=modifier_label(modifier), kind="bool", default=False)
            for index, modifier in enumerate(listed)
        ]
        fields.append(FieldSpec(key="other", label=N_("Any other modifier"), kind="int", default=0))
        values: dict[str, Any] = {f"m{index}": index in ticked for index in range(len(listed))}
        values["other"] = other

        def total(raw: dict[str, Any]) -> int:
            typed = read_whole_number(_("Any other modifier"), raw.get("other", 0))
            return sum(m.value for index, m in enumerate(listed) if raw.get(f"m{index}")) + (
                typed if isinstance(typed, int) else 0
            )

        def chosen(values: dict[str, Any] | None) -> None:
            if values is not None:
                self.modifier_choices[row.key] = (
                    frozenset(index for index in range(len(listed)) if values[f"m{index}"]),
                    values["other"],
                )
                self.modifiers[row.key] = total(values)
                self.show(self.state)

        self.app.push_screen(
            FormDialog(
                _("Surprise modifier for {side}", side=row.label),
                fields,
                values,
                preview=lambda raw: _("Modifier in all: {total}", total=f"{total(raw):+d}"),
            ),
            chosen,
        )

    def _rolling(self) -> list[RollRequest] | None:
        """The surprise rolls to take (those marked as not able to be surprised left out); None, with a
        word to the GM, when the book has no surprise roll."""
        requests = [row.request for row in self.rows() if row.request is not None and self.exposed.get(row.key, True)]
        if not self.ruleset.surprise_dice():
            self.notify(_("This book has no surprise roll: mark who is surprised with s."), severity="warning")
            return None
        return requests

    def _modifiers(self, requests: list[RollRequest]) -> dict[str, int]:
        return {r.key: self.modifiers[r.key] for r in requests if self.modifiers.get(r.key)}

    def action_roll(self) -> None:
        requests = self._rolling()
        if requests is None:
            return
        try:
            rolls = {r.key: roll(r.dice, self.store.rng) for r in requests}
        except DiceError as error:
            self.notify(str(error), severity="error")
            return
        self.host.dispatch(a.RollSurprise(rolls=rolls, modifiers=self._modifiers(requests)))

    def action_type(self) -> None:
        requests = self._rolling()
        if requests is None:
            return
        fields = [FieldSpec(key=r.key, label=render(r.label), kind="roll", default=r.dice) for r in requests]
        dice = ", ".join(sorted({r.dice for r in requests}))

        def typed(values: dict[str, Any] | None) -> None:
            if values is not None:
                self.host.dispatch(a.RollSurprise(rolls=values, modifiers=self._modifiers(requests)))

        self.app.push_screen(
            FormDialog(_("Surprise rolled on real dice ({dice})", dice=dice), fields, rng=self.store.rng), typed
        )

    def action_distance(self) -> None:
        """``g``: the encounter distance, from the rows that apply now (a book may narrow them to the
        surprise result's rows). Several rows: the GM picks one (the first is highlighted); one row: its
        form opens at once."""
        situations = self.ruleset.encounter_distances(self.state)
        if not situations:
            if self.ruleset.distance_situations():
                self.notify(_("No encounter distance applies now."), severity="warning")
            else:
                self.notify(_("This book gives no encounter distance roll."), severity="warning")
            return
        if len(situations) == 1:
            self._ask_distance(situations[0])
            return

        def chosen(situation_id: str | None) -> None:
            situation = next((s for s in situations if s.id == situation_id), None)
            if situation is not None:
                self._ask_distance(situation)

        choices = [(s.id, situation_choice(s)) for s in situations]
        self.app.push_screen(ChoiceDialog(_("Encounter distance: the situation"), choices, situations[0].id), chosen)

    def _ask_distance(self, situation: Situation) -> None:
        """The distance of one situation: its dice (rolled by the app, or typed from real dice), or, for a
        row without dice, the GM's own figure."""
        title = _("Encounter distance: {situation}", situation=_(situation.label))
        if situation.dice:
            fields = [FieldSpec(key="roll", label=N_("Dice"), kind="roll", default=situation.dice)]

            def rolled(values: dict[str, Any] | None) -> None:
                if values is not None:
                    self.host.dispatch(a.RollDistance(situation=situation.id, roll=values["roll"]))

            note = _(
                "Read as {reading}. Empty: the app rolls; or type what real dice showed.",
                reading=situation_reading(situation),
            )
            self.app.push_screen(FormDialog(title, fields, rng=self.store.rng, note=note), rolled)
            return
        unit = _(situation.unit) if situation.multiplier == 1 else f"× {situation.multiplier} {_(situation.unit)}"
        label = _("Distance")
        fields = [FieldSpec(key="figure", label=label, kind="int", default="", help=unit)]

        def checked(values: dict[str, Any]) -> dict[str, Any] | str:
            figure: int = values["figure"]
            if not 1 <= figure <= MAX_GM_DISTANCE:
                return _(
                    "{field}: a whole number from 1 to {most} ({unit}).", field=label, most=MAX_GM_DISTANCE, unit=unit
                )
            return values

        def given(values: dict[str, Any] | None) -> None:
            if values is not None:
                figure = Roll(expr="", total=values["figure"], physical=True)
                self.host.dispatch(a.RollDistance(situation=situation.id, roll=figure))

        note = _("The book gives no roll here: type how far apart the sides are, in {unit}.", unit=unit)
        self.app.push_screen(FormDialog(title, fields, validate=checked, note=note), given)

    def action_start(self) -> None:
        self.host.dispatch(a.StartFight())
