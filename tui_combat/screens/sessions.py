"""The first screen: saved sessions, newest first, and the built-in demo encounter."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from tui_combat.i18n import _
from tui_combat.saves.library import SessionInfo, format_time, list_sessions

if TYPE_CHECKING:
    from tui_combat.app import CombatApp

DEMO_PREFIX = "\0demo:"
DEMOS = (
    ("demo_adnd2e.toml", "▶ Demo: trolls and orcs in the tunnel (AD&D 2e)", "adnd2e"),
    ("demo_trudvang.toml", "▶ Demo: Fridgar at the ford (Trudvang)", "trudvang"),
)


class SessionsScreen(Screen[None]):
    app: CombatApp
    BINDINGS = [
        Binding("enter", "open", _("Open"), id="sessions.open"),
        Binding("n", "new", _("New fight"), id="sessions.new"),
        Binding("d", "demo", _("Demo"), id="sessions.demo"),
        Binding("q", "app.quit", _("Quit"), id="sessions.quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="sessions-hint")
        yield DataTable(id="sessions", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(_("Name"), _("Ruleset"), _("Round"), _("Saved"))
        self.reload()

    def reload(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        sessions: list[SessionInfo] = list_sessions(self.app.data_root)
        for info in sessions:
            name = info.name + (f" [red]({_(info.problem)})[/]" if info.problem else "")
            table.add_row(name, info.ruleset, str(info.round), format_time(info.saved_at), key=info.key)
        for file_name, label, ruleset in DEMOS:
            table.add_row(_(label), ruleset, "—", "", key=DEMO_PREFIX + file_name)
        hint = self.query_one("#sessions-hint", Static)
        if sessions:
            hint.update(_("Saved sessions, newest first. Enter opens one; n starts a new fight; d the demo."))
        else:
            hint.update(_("No saved sessions yet. Press Enter to play the demo encounter, or n for a new fight."))
        table.focus()

    def action_open(self) -> None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        if key and key.startswith(DEMO_PREFIX):
            self.open_demo(key.removeprefix(DEMO_PREFIX))
        elif key:
            self.app.resume_session(key)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_new(self) -> None:
        self.app.new_empty()

    def action_demo(self) -> None:
        self.open_demo(DEMOS[0][0])

    def open_demo(self, file_name: str) -> None:
        from tui_combat.engine.encounter import ENCOUNTER_DIR

        self.app.new_from_file(ENCOUNTER_DIR / file_name)
