"""Every key of the screen underneath, generated from its bindings."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Static

from tui_combat.i18n import _


def described_bindings(node: DOMNode) -> list[tuple[str, Binding]]:
    """(keys, binding) for every described binding of ``node``, its keys joined ("n, space")."""
    grouped: dict[tuple[str, str], tuple[list[str], Binding]] = {}
    for key, bindings in node._bindings.key_to_bindings.items():
        for binding in bindings:
            if not binding.description or binding.system or not binding.id:  # ours all have ids
                continue
            keys, _first = grouped.setdefault((binding.action, binding.description), ([], binding))
            keys.append(node.app.get_key_display(Binding(key, binding.action)))
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


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,f1,question_mark,q", "close", _("Close"), id="help.close")]

    def __init__(self, target: Screen[object]) -> None:
        super().__init__()
        self.target = target

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(_("Keys — ctrl+p opens the command palette"), id="dialog-title")
            yield DataTable(id="help-keys", cursor_type="row", show_cursor=True)
            yield Static(_("Esc closes"), id="dialog-help")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(_("Key"), _("Does"))
        for keys, description in binding_rows(self.target):
            table.add_row(Text(keys), Text(description))
        table.focus()

    def action_close(self) -> None:
        self.dismiss(None)
