"""Every key of the screen underneath, generated from its bindings."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import DataTable, Static

from tui_combat.engine.keys import shown_key
from tui_combat.i18n import N_, _
from tui_combat.textual_ext.frames import DrawnOnce
from tui_combat.widgets.translated_bindings import TranslatedBindings, keymapped


def described_bindings(node: DOMNode) -> list[tuple[str, Binding]]:
    """(keys, binding) for every described binding of ``node``, its keys joined ("n, space"): the keys in
    force, the GM's where his keymap moved a binding."""
    grouped: dict[tuple[str, str], tuple[list[str], Binding]] = {}
    for key, bindings in keymapped(node).key_to_bindings.items():
        for binding in bindings:
            if not binding.description or binding.system or not binding.id:  # ours all have ids
                continue
            keys, _first = grouped.setdefault((binding.action, binding.description), ([], binding))
            shown = node.app.get_key_display(Binding(key, binding.action))
            if shown not in keys:  # a keymap entry can list a binding under one key twice
                keys.append(shown)
    return [(", ".join(keys), binding) for keys, binding in grouped.values()]


def binding_rows(screen: Screen[object]) -> list[tuple[str, str]]:
    """(keys, description) for the screen's bindings and then the app's; never a binding's internal id."""
    rows: list[tuple[str, str]] = []
    seen: set[str] = set()
    for node in (screen, screen.app):
        for keys, binding in described_bindings(node):
            if binding.action in seen:
                continue
            seen.add(binding.action)
            rows.append((keys, binding.description))
    return rows


class KeysTable(DataTable[Text]):
    """The help's table, drawn from the rows it made last time while it looks the same: Textual's table forgets
    every row it drew whenever its styles are worked out again (as the help opens, as the focus comes back to
    it), and drew them all anew through Rich at each opening, some two thirds of the frame's time."""

    _look: tuple[object, ...] | None = None
    """The styles the rows kept were drawn with."""

    def _current_look(self) -> tuple[object, ...]:
        return (
            self.rich_style,
            self.size,
            *(self.get_component_rich_style(name, partial=True) for name in sorted(self.COMPONENT_CLASSES)),
        )

    def notify_style_update(self) -> None:
        try:
            look: tuple[object, ...] | None = self._current_look()
        except KeyError:  # its parts not styled yet (it is being mounted)
            look = None
        if look is not None and look == self._look:
            Widget.notify_style_update(self)  # not the table's own, which forgets the rows drawn
            return
        self._look = look
        super().notify_style_update()


class HelpScreen(DrawnOnce, TranslatedBindings, ModalScreen[None]):
    CSS_PATH = ["dialogs.tcss", "help.tcss"]
    BINDINGS = [Binding("escape,f1,question_mark,q", "close", N_("Close"), id="help.close")]

    def __init__(self, target: Screen[object]) -> None:
        super().__init__()
        self.target = target
        self._rows: list[tuple[str, str]] = []
        """The rows the table shows."""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(_("Keys — ctrl+p opens the command palette"), id="dialog-title")
            yield KeysTable(id="help-keys", cursor_type="row", show_cursor=True)
            yield Static(_("{key} closes", key=shown_key("help.close", "escape")), id="dialog-help")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(_("Key"), _("Does"))
        self._show_rows()
        table.focus()

    def on_screen_resume(self) -> None:
        """Opened again (the app keeps the help of the screen it was last opened on): the keys as they are now,
        should the GM have moved one meanwhile."""
        self._show_rows()

    def _show_rows(self) -> None:
        rows = binding_rows(self.target)
        if rows == self._rows:
            return
        self._rows = rows
        table = self.query_one(DataTable)
        table.clear()
        for keys, description in rows:
            table.add_row(Text(keys), Text(description))

    def action_close(self) -> None:
        self.dismiss(None)
