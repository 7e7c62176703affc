"""What every screen of an open session shares: it follows the store, and undo, redo and leaving."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable

from tui_combat.engine.keys import shown_key
from tui_combat.engine.model import State
from tui_combat.i18n import N_
from tui_combat.screens.host import Host, host_of
from tui_combat.widgets.translated_bindings import KeysInWrittenOrder, TranslatedBindings, class_bindings

if TYPE_CHECKING:
    from tui_combat.fight.store import Store

SESSION_KEYS: dict[str, str] = {"undo": "u", "redo": "U,ctrl+y", "leave": "escape"}


def session_bindings(
    screen_id: str, undo_in_footer: bool = False, keys: Mapping[str, str] | None = None
) -> list[Binding]:
    """Undo, redo and back to the session list, for a screen's BINDINGS (placed where its footer wants them).
    ``keys`` maps binding ids (``round.undo`` …) to keys, for a screen whose keys come from a table."""

    def key(name: str) -> str:
        return (keys or {}).get(f"{screen_id}.{name}", SESSION_KEYS[name])

    return [
        Binding(key("undo"), "undo", N_("Undo"), id=f"{screen_id}.undo", show=undo_in_footer),
        Binding(key("redo"), "redo", N_("Redo"), id=f"{screen_id}.redo", show=False),
        Binding(key("leave"), "leave", N_("Sessions"), id=f"{screen_id}.leave", show=False),
    ]


def undo_key(screen_id: str) -> str:
    """The key that takes back what was just done on the screen ``screen_id`` ("u", or the GM's own), as the
    message that says how to take it back names it."""
    return shown_key(f"{screen_id}.undo", SESSION_KEYS["undo"])


FOCUS_ACTIONS = frozenset({"app.focus_next", "app.focus_previous"})
"""The actions of Tab and shift+Tab."""


def taken_first(binding: Binding) -> Binding:
    """``binding`` taken as its key arrives, before the focused list or table sees the key (see
    :class:`SessionScreen`)."""
    return replace(binding, priority=True)


class SessionScreen(KeysInWrittenOrder, TranslatedBindings, Screen[None]):
    """Subclasses fill in :meth:`prepare` (one-off set-up) and :meth:`show` (render a new state).

    The screen's keys are taken as they arrive, before the focused list or table sees them (it has no text
    field, and its keys are none of the list's): a key that opens a form has opened it before the app
    handles the key after it, so that what the GM types at once (``t4``, Enter, ``7``) reaches the form,
    which holds it until its first field can take it (:meth:`FormDialog.hold_key`). Handled after the list,
    as a key is otherwise, the keys typed behind it went to the list first and were lost."""

    _unsubscribe: Callable[[], None] | None = None
    _host: Host | None = None
    _last_state: State | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Every key of the screen, those of its bases too, taken first (its class's bindings, which Textual merges
        # as the class is made). Tab and shift+Tab move the focus, as on any screen: a form at the foot of the
        # screen keeps them among its own fields.
        cls.BINDINGS = [
            binding if binding.action in FOCUS_ACTIONS else taken_first(binding)
            for bindings in class_bindings(cls).key_to_bindings.values()
            for binding in bindings
        ]
        super().__init_subclass__(**kwargs)

    @property
    def host(self) -> Host:
        if self._host is None:
            self._host = host_of(self)
        return self._host

    @property
    def store(self) -> Store:
        store = self.host.store
        if store is None:
            raise RuntimeError("no session is open")
        return store

    def on_mount(self) -> None:
        self.prepare()
        store = self.host.store
        if store is not None:
            self._unsubscribe = store.subscribe(self._follow)
            self._follow(store.state)

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    def _follow(self, state: State) -> None:
        self._last_state = state
        self.show(state)

    def prepare(self) -> None:
        """Set up widgets once, before the first :meth:`show`."""

    def show(self, state: State) -> None:
        raise NotImplementedError

    @property
    def state(self) -> State:
        store = self.host.store
        if store is None and self._last_state is not None:
            # The fight closed (q, Esc, a hang-up) while a message for this screen, which is going, was on its
            # way (a row highlighted by the n before the q): it reads the fight as last shown.
            return self._last_state
        return self.store.state

    def selected_row(self) -> str | None:
        """The key of the row under the cursor of the screen's table, if it has one."""
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def action_undo(self) -> None:
        self.host.undo()

    def action_redo(self) -> None:
        self.host.redo()

    def action_leave(self) -> None:
        self.host.leave_session()
