"""The first screen: saved sessions, newest first, and the built-in demo encounters."""

from __future__ import annotations

from functools import partial

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from tui_combat import session
from tui_combat.i18n import _
from tui_combat.saves.library import format_time
from tui_combat.screens.host import Host, host_of

DEMO_PREFIX = "\0demo:"


class SessionsScreen(Screen[None]):
    BINDINGS = [
        Binding("enter", "open", _("Open"), id="sessions.open"),
        Binding("n", "new", _("New fight"), id="sessions.new"),
        Binding("d", "demo", _("Demo"), id="sessions.demo"),
        Binding("q", "app.quit", _("Quit"), id="sessions.quit"),
    ]

    @property
    def host(self) -> Host:
        return host_of(self)

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
        sessions = session.list_sessions(self.host.data_root)
        for info in sessions:
            name = info.name.replace("[", r"\[") + (f" [red]({_(info.problem)})[/]" if info.problem else "")
            table.add_row(name, info.ruleset, str(info.round), format_time(info.saved_at), key=info.key)
        for demo in session.DEMOS:
            table.add_row("▶ " + _(demo.label), demo.ruleset, "—", "", key=DEMO_PREFIX + demo.file_name)
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
            self.host.open_session(partial(session.resume, self.host.data_root, key))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_new(self) -> None:
        self.host.open_session(partial(session.new_empty, self.host.data_root, seed=self.host.seed))

    def action_demo(self) -> None:
        self.open_demo(session.DEMOS[0].file_name)

    def open_demo(self, file_name: str) -> None:
        self.host.open_session(partial(session.open_demo, self.host.data_root, file_name, seed=self.host.seed))
