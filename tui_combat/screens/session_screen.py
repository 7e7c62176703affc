"""What every screen of an open session shares: it follows the store, and undo, redo and leaving."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable

from tui_combat.engine.model import State
from tui_combat.i18n import _

if TYPE_CHECKING:
    from tui_combat.app import CombatApp


def session_bindings(screen_id: str, undo_in_footer: bool = False) -> list[Binding]:
    """Undo, redo and back to the session list, for a screen's BINDINGS (placed where its footer wants them)."""
    return [
        Binding("u", "undo", _("Undo"), id=f"{screen_id}.undo", show=undo_in_footer),
        Binding("U,ctrl+y", "redo", _("Redo"), id=f"{screen_id}.redo", show=False),
        Binding("escape", "leave", _("Sessions"), id=f"{screen_id}.leave", show=False),
    ]


class SessionScreen(Screen[None]):
    """Subclasses fill in :meth:`prepare` (one-off set-up) and :meth:`show` (render a new state)."""

    app: CombatApp
    _unsubscribe: Callable[[], None] | None = None

    def on_mount(self) -> None:
        self.prepare()
        store = self.app.store
        if store is not None:
            self._unsubscribe = store.subscribe(self.show)
            self.show(store.state)

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    def prepare(self) -> None:
        """Set up widgets once, before the first :meth:`show`."""

    def show(self, state: State) -> None:
        raise NotImplementedError

    @property
    def state(self) -> State:
        assert self.app.store is not None
        return self.app.store.state

    def selected_row(self) -> str | None:
        """The key of the row under the cursor of the screen's table, if it has one."""
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def action_undo(self) -> None:
        self.app.undo()

    def action_redo(self) -> None:
        self.app.redo()

    def action_leave(self) -> None:
        self.app.leave_session()
