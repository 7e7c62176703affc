"""Help (F1, ?) on the round screen: every key of the screen, in a panel over all of it, drawn from lines made
once and kept.

The help of the other screens is a screen of its own (:class:`~tui_combat.screens.help.HelpScreen`): pushed, it
is laid out and styled whole, takes the focus, and its table draws every cell, then draws again in a second
frame; on the round screen that took some 40 ms at 80×24 (12× a bare Textual key). This panel is a widget of the
round screen on a layer over everything else, hidden until asked for: opening it shows that one widget and draws
its lines, kept from one opening to the next while the keys, the language, the width and the theme are the same.
It takes no focus (nothing under it is restyled, the footer's keys stay as they are): while it is open the
screen hands it every key before anything else (:meth:`HelpPanel.take_key`) but the app's own (quit, the
command palette, the settings)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.actions import parse as parse_action
from textual.binding import Binding, BindingsMap
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from tui_combat.engine.keys import shown_key
from tui_combat.i18n import N_, _
from tui_combat.screens.help import binding_rows
from tui_combat.widgets.lines import JoinedLines, joined
from tui_combat.widgets.translated_bindings import keymapped

HEAD_LINES = 2
"""The title and the columns' heads, over the rows."""
FOOT_LINES = 1
"""The line under the rows: how to close the help and scroll it."""


class HelpPanel(Widget):
    """Opened with :meth:`open`; Esc, F1, ? or q close it, ↑ ↓ PgUp PgDn Home End (and the mouse wheel) scroll
    its rows when they do not all fit."""

    DEFAULT_CSS = """
    HelpPanel { layer: help; dock: top; width: 100%; height: 100%; display: none; padding: 0 1;
                background: $panel; }
    HelpPanel > .help-panel--title { text-style: bold; }
    HelpPanel > .help-panel--head { color: $text-muted; text-style: bold; }
    HelpPanel > .help-panel--key { color: $accent; text-style: bold; }
    HelpPanel > .help-panel--hint { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"help-panel--title", "help-panel--head", "help-panel--key", "help-panel--hint"}
    # Taken through :meth:`take_key` (the panel never has the focus); the help screen's close key, under the
    # same id: the GM's keymap moves both.
    BINDINGS = [
        Binding("escape,f1,question_mark,q", "close", N_("Close"), id="help.close"),
        Binding("down", "scroll(1)", show=False),
        Binding("up", "scroll(-1)", show=False),
        Binding("pagedown", "page(1)", show=False),
        Binding("pageup", "page(-1)", show=False),
        Binding("home", "scroll(-1_000_000)", show=False),
        Binding("end", "scroll(1_000_000)", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[tuple[str, str]] = []
        """(keys, description) of each key the help lists."""
        self._top = 0
        """The first row in sight."""
        self._open = False
        self._keys: BindingsMap | None = None
        """The panel's keys, with the GM's keymap, worked out as it opens."""
        self._app_keys: BindingsMap | None = None
        """The app's, likewise: they go on to the app."""
        self._made_for: tuple[object, ...] | None = None
        self._lines: list[Strip] = []
        """The title, the heads and every row, drawn for :attr:`_made_for`."""
        self._hints: dict[tuple[int, int, str], Strip] = {}
        """The foot line, by the first row in sight, the rows in sight and the key that closes."""
        self._joined = JoinedLines()
        self.lines_made = 0
        """How many times the lines were drawn anew (the keys, the width or the look changed); for tests."""

    @property
    def is_open(self) -> bool:
        return self._open

    def open(self) -> None:
        """Show the screen's keys as they are now (the GM may have moved one since), from the first."""
        rows = binding_rows(self.screen)
        if rows != self.rows:
            self.rows = rows
            self._made_for = None
        self._keys, self._app_keys = keymapped(self), keymapped(self.app)
        self._top = 0
        self._open = True
        if self.display:
            self.refresh()
        self.display = True

    def action_close(self) -> None:
        self._open = False
        self.display = False

    # -- keys ---------------------------------------------------------------------------------------
    def take_key(self, event: events.Key) -> bool:
        """While open: a key of the panel does what it does, the app's own keys go on to the app, any other
        does nothing (as under a dialog). Closed: takes none."""
        if not self._open or self._keys is None or self._app_keys is None:
            return False
        for key in event.aliases:
            for binding in self._keys.key_to_bindings.get(key, ()):
                _target, name, parameters = parse_action(binding.action)
                action = getattr(self, f"action_{name}", None)
                if action is not None:
                    action(*parameters)
                return True
        return not any(key in self._app_keys.key_to_bindings for key in event.aliases)

    def action_scroll(self, rows: int) -> None:
        top = self._top_within(self._top + rows)
        if top != self._top:
            self._top = top
            self.refresh()

    def action_page(self, pages: int) -> None:
        self.action_scroll(pages * max(self._rows_in_sight() - 1, 1))

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.action_scroll(1)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.action_scroll(-1)

    # -- drawing ------------------------------------------------------------------------------------
    def _rows_in_sight(self) -> int:
        return max(self.content_region.height - HEAD_LINES - FOOT_LINES, 1)

    def _top_within(self, top: int) -> int:
        """``top`` as the first row in sight, moved so that no row is left blank below the last one."""
        return max(0, min(top, len(self.rows) - self._rows_in_sight()))

    def _look(self) -> tuple[object, ...]:
        return (
            self.rich_style,
            *(self.get_component_rich_style(name, partial=True) for name in sorted(self.COMPONENT_CLASSES)),
        )

    def _line(self, text: Text, width: int, base: Style) -> Strip:
        text.no_wrap, text.overflow = True, "ellipsis"
        console = self.app.console
        lines = console.render_lines(text, console.options.update_width(max(width, 1)), pad=False)
        line = lines[0] if lines else []
        return joined(Strip(Segment.apply_style(line, base)).crop_extend(0, width, base))

    def _made(self, width: int) -> list[Strip]:
        """The title, the heads and every row at ``width``, drawn once for the keys and the look they show."""
        look = self._look()
        made_for = (width, look)
        if made_for == self._made_for:
            return self._lines
        base = self.rich_style
        title, head, key_look = (
            self.get_component_rich_style(f"help-panel--{part}") for part in ("title", "head", "key")
        )
        key_width = min(max((cell_len(keys) for keys, _description in self.rows), default=0), max(width // 3, 1))

        def row(keys: str, description: str, key_look: Style, description_look: Style | str) -> Text:
            cell = Text(keys, style=key_look)
            cell.truncate(key_width, overflow="ellipsis", pad=True)
            return Text.assemble(cell, "  ", Text(description, style=description_look))

        self._lines = [
            self._line(Text(_("Keys — ctrl+p opens the command palette"), style=title), width, base),
            self._line(row(_("Key"), _("Does"), head, head), width, base),
            *(self._line(row(keys, description, key_look, ""), width, base) for keys, description in self.rows),
        ]
        self._hints = {}
        self._made_for = made_for
        self.lines_made += 1
        return self._lines

    def _hint(self, width: int) -> Strip:
        close, shown = shown_key("help.close", "escape"), self._rows_in_sight()
        hint = self._hints.get((self._top, shown, close))
        if hint is None:
            if len(self.rows) > shown:
                text = _(
                    "{key} closes · ↑ ↓ PgUp PgDn scroll ({first}–{last} of {count})",
                    key=close,
                    first=self._top + 1,
                    last=min(self._top + shown, len(self.rows)),
                    count=len(self.rows),
                )
            else:
                text = _("{key} closes", key=close)
            hint = self._hints[self._top, shown, close] = self._line(
                Text(text, style=self.get_component_rich_style("help-panel--hint")), width, self.rich_style
            )
        return hint

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines with their padding, each with as few pieces as it looks (see :func:`joined`)."""
        return self._joined(super().render_lines(crop))

    def render_line(self, y: int) -> Strip:
        self._top = self._top_within(self._top)  # (the terminal may have grown)
        width = self.content_region.width
        lines = self._made(width)
        height = self.content_region.height
        if y >= height - FOOT_LINES:
            return self._hint(width)
        if y < HEAD_LINES:
            return lines[y]
        index = HEAD_LINES + self._top + y - HEAD_LINES
        return lines[index] if index < len(lines) else Strip.blank(width, self.rich_style)
