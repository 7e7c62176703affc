"""A bar saying that the session on screen is read-only, and why; hidden otherwise. (Each refused key
says it again, in full.)"""

from __future__ import annotations

from rich.text import Text

from tui_combat.i18n import _
from tui_combat.widgets.lines import TextLines


class ReadOnlyBar(TextLines):
    DEFAULT_CSS = """
    ReadOnlyBar { height: auto; padding: 0 1; background: $warning 25%; text-style: bold; display: none; }
    ReadOnlyBar.-shown { display: block; }
    """

    def show_read_only(self, read_only: bool, *, damaged: bool = False) -> None:
        """Shown while the session is read-only: another copy holds it, or part of it is ``damaged``."""
        self.set_class(read_only, "-shown")
        if read_only and damaged:
            self.show(Text(_("Read-only: part of this session is damaged · r in the session list rebuilds it")))
        elif read_only:
            self.show(Text(_("Read-only: open in another copy of tui-combat · ctrl+s saves a copy")))
