"""The first screen: saved sessions, newest first, and the built-in demo encounters.

Each row: the session's name, its ruleset, where the fight stands (round and step) and when it was saved;
never a folder name or another internal id. ``e`` renames the selected session, ``x`` deletes it (after
asking). Opening a demo that has a saved session already asks whether to resume that one or start another.
A damaged session is listed as such; ``r`` rebuilds one that can be recovered into a new session beside
it (the damaged folder is only read) and opens that. ``w`` looks back at the selected fight, read-only, and
can go on from any point of it as a new fight. Names are shown as text, never as markup.
"""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static
from textual.widgets.data_table import RowDoesNotExist

from tui_combat.engine.keys import shown_key
from tui_combat.fight import session
from tui_combat.i18n import N_, _
from tui_combat.saves.session_folders import format_time
from tui_combat.screens.host import Host, host_of
from tui_combat.screens.opening import ShowsOpening
from tui_combat.widgets.footer import KeyFooter
from tui_combat.widgets.glyphs import glyph
from tui_combat.widgets.session_table import FIRST_ROWS, SessionTable
from tui_combat.widgets.translated_bindings import KeysInWrittenOrder, TranslatedBindings

DEMO_PREFIX = "\0demo:"
PROBLEM_WORDS = (N_("damaged"), N_("damaged, can be recovered"), N_("newer version"), N_("symbolic link, refused"))
"""What the list says of a session it cannot open as it is (:mod:`tui_combat.saves.session_folders` names them)."""
CELL_PADDING = 2
"""Columns a DataTable adds around each cell."""
SCROLLBAR = 2
LIMITS = (0, 24, 26, 18)
"""The most each column but the name takes: ruleset, where the fight stands, when it was saved."""
MIN_NAME = 12


class ListedRow(NamedTuple):
    """A row of the list as text: made into the table's cells only when it is added (the first screenful
    before the first frame, the rest after)."""

    key: str
    name: str
    ruleset: str
    where: str
    saved: str
    problem: bool = False
    """``where`` says what is wrong with the session (shown in red)."""
    where_short: str = ""
    """``where`` without the step ("round 2"), for a screen too narrow for the names beside the whole of it."""


def column_widths(width: int, headers: tuple[str, ...], rows: list[tuple[int, int, int, int]]) -> list[int]:
    """Widths of the Name, Ruleset, Where and Saved columns for a screen ``width`` wide: each of the last
    three as wide as its widest cell (or header) up to its limit, the name the rest (at least
    :data:`MIN_NAME`); when even that does not fit, the other columns give way in turn."""
    natural = [max([len(headers[i])] + [row[i] for row in rows]) for i in range(4)]
    others = [min(natural[i], LIMITS[i]) for i in (1, 2, 3)]
    room = width - SCROLLBAR - CELL_PADDING * 4
    name = max(min(natural[0], room - sum(others)), MIN_NAME)
    excess = name + sum(others) - room
    for i in (0, 1, 2):  # the ruleset gives way first, then where, then the time
        if excess <= 0:
            break
        cut = min(excess, others[i] - len(headers[i + 1]))
        if cut > 0:
            others[i] -= cut
            excess -= cut
    return [max(name, 1), *others]


class SessionsScreen(ShowsOpening, KeysInWrittenOrder, TranslatedBindings, Screen[None]):
    CSS_PATH = "sessions.tcss"
    BINDINGS = [
        Binding("enter", "open", N_("Open"), id="sessions.open"),
        Binding("n", "new", N_("New fight"), id="sessions.new"),
        Binding("d", "demo", N_("Demo"), id="sessions.demo", show=False),  # the demos are rows of the list
        Binding("e,f2", "rename", N_("Rename"), id="sessions.rename"),
        Binding("x,delete", "delete", N_("Delete"), id="sessions.delete"),
        Binding("r", "recover", N_("Recover"), id="sessions.recover"),
        Binding("w", "rewind", N_("Look back"), id="sessions.rewind"),
        Binding("q", "app.quit", N_("Quit"), id="sessions.quit"),
        Binding("home", "first", N_("First"), id="sessions.first", show=False),
        Binding("end", "last", N_("Last"), id="sessions.last", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.sessions: dict[str, session.SessionInfo] = {}
        """The saved sessions listed, by key."""
        self._rows: list[ListedRow] = []
        self._laid_out_for = 0
        self._demos: tuple[session.Demo, ...] = session.DEMOS
        """The demos listed: the app's, then (once the list is on the screen) the installed plugins'."""

    @property
    def host(self) -> Host:
        return host_of(self)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="sessions-hint")
        yield SessionTable(id="sessions")
        yield KeyFooter(compact=True)

    def on_mount(self) -> None:
        # Seen first as the index last saw it (500 sessions' files stat-ed took some 10 ms of the start), then
        # checked against the files once that frame is drawn.
        # The plugins' demos are found (every plugin loaded) once the first frame is drawn: it does not wait for them.
        indexed = session.indexed_sessions(self.host.data_root)
        if indexed is None:
            self.reload()
            self.call_after_refresh(self._check_sessions, False)
            return
        self._show_sessions(indexed)
        self.call_after_refresh(self._check_sessions)

    def _check_sessions(self, read: bool = True) -> None:
        """The list as the sessions' files say (``read``), in place of the index's when they differ, and the
        installed plugins' demos below the app's; the cursor stays on the same row."""
        sessions = session.list_sessions(self.host.data_root, steps=True) if read else list(self.sessions.values())
        demos = (*session.DEMOS, *session.plugin_demos())
        if sessions == list(self.sessions.values()):
            if demos != self._demos:  # below the sessions: the cursor stays on its row, the rest still come later
                self._demos = demos
                self._show_sessions(sessions, keep_cursor=True)
            return
        self._demos = demos
        selected = self.selected_key()
        self._show_sessions(sessions)
        if selected is not None:
            self.select_key(selected)

    def on_resize(self) -> None:
        if self._rows and self._laid_out_for != self.size.width:
            self._fill(keep_cursor=True)

    def reload(self) -> None:
        self._show_sessions(session.list_sessions(self.host.data_root, steps=True))

    def _show_sessions(self, sessions: list[session.SessionInfo], keep_cursor: bool = False) -> None:
        self.sessions = {info.key: info for info in sessions}
        rows: list[ListedRow] = []
        for info in sessions:
            where = _(info.problem) if info.problem else session.progress_label(info)
            short = where if info.problem else session.fight_progress(info.phase, info.round) if info.round else where
            rows.append(
                ListedRow(
                    info.key,
                    info.name,
                    session.ruleset_label(info.ruleset),
                    where,
                    format_time(info.saved_at),
                    bool(info.problem),
                    short,
                )
            )
        for demo in self._demos:
            rows.append(
                ListedRow(
                    DEMO_PREFIX + demo.file_name,
                    glyph("▶") + " " + demo.shown(),
                    session.ruleset_label(demo.ruleset),
                    "—",
                    "",
                )
            )
        self._rows = rows
        self._fill(keep_cursor=keep_cursor)
        self._show_hint()
        self.query_one(DataTable).focus()
        self.refresh_bindings()

    def _fill(self, keep_cursor: bool = False) -> None:
        """The table, its columns sized to the screen: where, ruleset and time whole (up to a limit each),
        the name in what is left, cut with "…" only when it must be; where a fight stands says its round
        without the step when that leaves the names whole."""
        table = self.query_one(SessionTable)
        row = table.cursor_row
        width = self.size.width or self.app.size.width
        self._laid_out_for = width
        headers = (_("Name"), _("Ruleset"), _("Where"), _("Saved"))
        widths = column_widths(
            width, headers, [(cell_len(r.name), len(r.ruleset), cell_len(r.where), len(r.saved)) for r in self._rows]
        )
        longest = max((cell_len(r.name) for r in self._rows), default=0)
        short = False
        if widths[0] < longest and any(r.where_short and r.where_short != r.where for r in self._rows):
            narrower = column_widths(
                width,
                headers,
                [
                    (cell_len(r.name), len(r.ruleset), cell_len(r.where_short or r.where), len(r.saved))
                    for r in self._rows
                ],
            )
            short = narrower[0] >= longest
            widths = narrower if short else widths
        table.clear(columns=True)
        for header, column_width in zip(headers, widths):
            table.add_column(Text(header), width=column_width)
        rows = self._rows

        def make_row(index: int) -> tuple[str, list[Text]]:
            row = rows[index]
            where = (row.where_short or row.where) if short else row.where
            cells = [
                Text(row.name),
                Text(row.ruleset),
                Text(where, style="red" if row.problem else ""),
                Text(row.saved),
            ]
            for cell, column_width in zip(cells, widths):
                cell.truncate(column_width, overflow="ellipsis")
            return row.key, cells

        table.fill(len(rows), make_row, at_once=keep_cursor and row >= FIRST_ROWS)  # the cursor's row drawn now
        if keep_cursor and table.row_count:
            table.move_cursor(row=min(row, table.row_count - 1))

    def action_first(self) -> None:
        self.query_one(SessionTable).first()

    def action_last(self) -> None:
        self.query_one(SessionTable).last()

    def _show_hint(self, opening: bool = False) -> None:
        hint = self.query_one("#sessions-hint", Static)
        from tui_combat.saves.session_folders import sessions_problem

        problem = sessions_problem(self.host.data_root)
        if opening:
            text = _("Opening the session… (a long fight takes a moment)")
        elif problem:
            text = problem  # the same refusal every command gives
        elif not self.sessions:
            text = _(
                "No saved sessions yet. Press {open} to play the demo encounter, or {new} for a new fight.",
                open=shown_key("sessions.open", "enter"),
                new=shown_key("sessions.new", "n"),
            )
        else:
            text = _(
                "Saved sessions, newest first. {open} opens one; {new} starts a new fight; {demo} the demo; "
                "{rename} renames, {delete} deletes; {rewind} looks back at a fight.",
                open=shown_key("sessions.open", "enter"),
                new=shown_key("sessions.new", "n"),
                demo=shown_key("sessions.demo", "d"),
                rename=shown_key("sessions.rename", "e"),
                delete=shown_key("sessions.delete", "x"),
                rewind=shown_key("sessions.rewind", "w"),
            )
            if any(info.recoverable for info in self.sessions.values()):
                text += "\n" + _(
                    "A damaged session stays as it is: {recover} rebuilds it into a new session beside it.",
                    recover=shown_key("sessions.recover", "r"),
                )
        hint.update(Text(text))

    def show_opening(self, opening: bool) -> None:
        """While a session opens (and it takes a while): a loading indicator over the list, and a word."""
        self.query_one(DataTable).loading = opening
        self._show_hint(opening)

    def selected_key(self) -> str | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``r`` applies (and shows in the footer) on a damaged session that can be recovered."""
        if action == "recover":
            info = self.sessions.get(self.selected_key() or "")
            return info is not None and info.recoverable
        if action in ("rename", "delete"):
            return self.selected_key() in self.sessions
        if action == "rewind":
            info = self.sessions.get(self.selected_key() or "")
            return info is not None and not info.problem
        return True

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.refresh_bindings()

    def action_recover(self) -> None:
        """Rebuild the selected damaged session into a new one beside it, and open that."""
        info = self.sessions.get(self.selected_key() or "")
        if info is not None and info.recoverable:
            self.host.open_session(partial(session.recover, self.host.data_root, info.key))

    def action_rewind(self) -> None:
        """The selected session, read-only, at any point of its history; it can go on from there as a new fight."""
        from tui_combat.screens.rewind import RewindScreen

        info = self.sessions.get(self.selected_key() or "")
        if info is not None and not info.problem:
            self.app.push_screen(RewindScreen(info.key, info.name))

    def action_open(self) -> None:
        key = self.selected_key()
        if key and key.startswith(DEMO_PREFIX):
            self.open_demo(key.removeprefix(DEMO_PREFIX))
        elif key:
            self.host.open_session(partial(session.resume, self.host.data_root, key))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()

    def action_new(self) -> None:
        ruleset = session.usual_ruleset(self.host.data_root, self.sessions.values())
        self.host.open_session(partial(session.new_empty, self.host.data_root, seed=self.host.seed, ruleset=ruleset))

    def action_demo(self) -> None:
        self.open_demo(session.DEMOS[0].file_name)

    def open_demo(self, file_name: str) -> None:
        """Start the demo; when a session of it is saved already, ask first: resume that one, or start another."""
        from tui_combat.screens.dialogs import ChoiceDialog  # the dialogs load when first asked for

        existing = session.existing_session_for_demo(self.host.data_root, file_name)
        start = partial(
            self.host.open_session, partial(session.open_demo, self.host.data_root, file_name, seed=self.host.seed)
        )
        if existing is None:
            start()
            return

        def chosen(answer: str | None) -> None:
            if answer == "resume" and existing is not None:
                self.host.open_session(partial(session.resume, self.host.data_root, existing.key))
            elif answer == "new":
                start()

        self.app.push_screen(
            ChoiceDialog(
                _("This demo has a saved session: {name}", name=existing.name),
                [
                    (
                        "resume",
                        _("Resume {name} ({where})", name=existing.name, where=session.progress_label(existing)),
                    ),
                    ("new", _("Start another")),
                ],
                "resume",
            ),
            chosen,
        )

    # -- rename and delete ----------------------------------------------------------------------------
    def action_rename(self) -> None:
        from tui_combat.engine.contract import FieldSpec
        from tui_combat.screens.dialogs import FormDialog

        info = self.sessions.get(self.selected_key() or "")
        if info is None:
            return
        data_root = self.host.data_root

        def submit(values: dict[str, Any]) -> str | None:
            try:
                key = session.rename(data_root, info.key, str(values["name"]))
            except session.SessionError as error:
                return str(error)
            self.reload()
            self.select_key(key)
            return None

        self.app.push_screen(
            FormDialog(
                _("Rename {name}", name=info.name),
                [FieldSpec(key="name", label=N_("Name"))],
                {"name": info.name},
                submit=submit,
            )
        )

    def action_delete(self) -> None:
        from tui_combat.screens.dialogs import ConfirmDialog

        info = self.sessions.get(self.selected_key() or "")
        if info is None:
            return

        def answered(delete: bool | None) -> None:
            if not delete or info is None:
                return
            try:
                session.delete(self.host.data_root, info.key)
            except session.SessionError as error:
                self.notify(str(error), title=error.title, severity="error", timeout=10)
                return
            self.notify(_("{name} is deleted.", name=info.name))
            self.reload()

        self.app.push_screen(
            ConfirmDialog(
                _("Delete {name}?", name=info.name),
                _("The fight, its log and its history are removed for good."),
                confirm=_("Delete it"),
                cancel=_("Keep it"),
            ),
            answered,
        )

    def select_key(self, key: str) -> None:
        """Put the cursor on the row of ``key`` (when it is listed)."""
        table = self.query_one(DataTable)
        try:
            table.move_cursor(row=table.get_row_index(key))
        except RowDoesNotExist:
            pass
