"""A one-line prompt at the bottom of the round screen, in place of the footer's keys, for an amount given to a
combatant (damage, healing, the damage a hit calls for, a saving throw's roll), or a name searched for: typed as a
number, or as dice the app rolls.

The prompt's line is drawn on the footer's row (:meth:`KeyFooter.draw_over`), and the prompt never takes the
focus: the round screen hands it each key before anything else (:meth:`AmountPrompt.take_key`), as it does the
help panel. So opening it, each key typed and Enter send the cells of that line that changed and what the amount
changed, whatever the size of the fight: nothing is laid out, restyled or focused anew (a prompt of widgets, a
focused field among them, cost a layout of the screen and some twenty messages at each opening and each Enter).
The keys are taken in the order typed: a Backspace between two digits acts between them, and the keys typed
just after Enter reach the screen once what was typed before it was read.

Enter reads what was typed, Esc or Tab leaves the prompt. A refusal (a wrong dice expression, a negative amount,
a rule) is shown above the line, as a note of the amount is (a critical hit's dice twice), and what was typed
stays to be mended. The app's own keys (quit, the palette) still reach the app.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.actions import parse as parse_action
from textual.app import RenderResult
from textual.binding import Binding, BindingsMap
from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget

from tui_combat.i18n import N_, _
from tui_combat.widgets.footer import KeyFooter
from tui_combat.widgets.line_edit import LineEdit
from tui_combat.widgets.translated_bindings import keymapped

Submit = Callable[[str], str | None]
"""Given what was typed: None when it was taken (the prompt closes), else the refusal to show."""

FIELD_WIDTH = 14
"""The cells of the field, between the title and the keys."""


class Completion(Protocol):
    """Completes what is typed: the whole value with the rest of the word being typed, or None."""

    def complete(self, value: str) -> str | None: ...


class AmountPrompt(Widget):
    """Opened with :meth:`ask`; draws its line on ``footer``'s row, and above it (a widget docked over the foot of
    the screen, shown only then) a refusal or a note."""

    DEFAULT_CSS = """
    AmountPrompt { dock: bottom; layer: foot; height: auto; margin-bottom: 1; display: none; background: $panel;
                   padding: 0 1; }
    AmountPrompt > .amount-prompt--error { color: $text-error; text-style: bold; }
    AmountPrompt > .amount-prompt--note { color: $text-warning; }
    AmountPrompt > .amount-prompt--line { background: $panel; color: $foreground; }
    AmountPrompt > .amount-prompt--title { text-style: bold; }
    AmountPrompt > .amount-prompt--field { background: $surface; background-tint: $foreground 5%; color: $foreground; }
    AmountPrompt > .amount-prompt--cursor { background: $input-cursor-background; color: $input-cursor-foreground;
                                             text-style: $input-cursor-text-style; }
    AmountPrompt > .amount-prompt--placeholder { background: $surface; background-tint: $foreground 5%;
                                                  color: $text-disabled; }
    AmountPrompt > .amount-prompt--keys { color: $text-muted; }
    AmountPrompt:ansi {
        & > .amount-prompt--field { background: ansi_default; color: ansi_default; }
        & > .amount-prompt--cursor { background: ansi_white; color: ansi_black; }
        & > .amount-prompt--placeholder { text-style: dim; color: ansi_default; }
    }
    """
    COMPONENT_CLASSES = {
        "amount-prompt--error",
        "amount-prompt--note",
        "amount-prompt--line",
        "amount-prompt--title",
        "amount-prompt--field",
        "amount-prompt--cursor",
        "amount-prompt--placeholder",
        "amount-prompt--keys",
    }
    # Taken through :meth:`take_key` (the prompt never has the focus), under ids: the GM's keymap moves them.
    BINDINGS = [
        Binding("enter", "apply", N_("Apply"), id="prompt.apply", show=False),
        Binding("escape,tab,shift+tab", "cancel", N_("Cancel"), id="prompt.cancel", show=False),
    ]
    can_focus = False

    def __init__(self, footer: KeyFooter, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.footer = footer
        self.edit = LineEdit()
        self._submit: Submit | None = None
        self._on_close: Callable[[], None] | None = None
        self._resized: Callable[[], None] | None = None
        self._title = self._note = self._error = self._placeholder = ""
        self._keys_when_empty = self._keys_typed = ""
        self._completion: Completion | None = None
        self._suggested: str | None = None
        self._scroll = 0
        """The first character of the value in sight in the field."""
        self._keys: BindingsMap | None = None
        self._app_keys: BindingsMap | None = None

    # -- what it shows -------------------------------------------------------------------------------
    @property
    def is_open(self) -> bool:
        return self._submit is not None

    @property
    def value(self) -> str:
        """What is typed."""
        return self.edit.value

    @property
    def placeholder(self) -> str:
        """What the empty field shows (the dice a hit calls for, "7 or 2d6+1")."""
        return self._placeholder

    @property
    def cursor(self) -> int:
        """Where the cursor is in what is typed."""
        return self.edit.cursor

    @property
    def scrolled(self) -> int:
        """The first character of what is typed in sight in the field (it scrolls to keep the cursor in sight)."""
        return self._scroll

    @property
    def error_text(self) -> str:
        return self._error

    @property
    def title_text(self) -> str:
        return self._title

    @property
    def keys_text(self) -> str:
        """What the line says Enter and Esc do."""
        typed_keys = self._keys_typed or _("Enter: apply · Esc: cancel")
        return self._keys_when_empty if self._keys_when_empty and not self.edit.value else typed_keys

    def ask(
        self,
        title: str,
        submit: Submit,
        on_close: Callable[[], None],
        placeholder: str = "",
        *,
        keys: str = "",
        note: str = "",
        typed_keys: str = "",
        completion: Completion | None = None,
        resized: Callable[[], None] | None = None,
    ) -> None:
        """Open with ``title`` and an empty field, which takes the keys at once (a key typed right after the
        one that opened the prompt lands in it). ``keys`` says what Enter does while nothing is typed, and
        ``typed_keys`` once something is (by default: it applies it); ``note`` (a rule of this amount: a critical
        hit's dice twice) shows above the line; ``completion`` completes the words typed.
        ``on_close`` runs when it closes, taken or left; ``resized`` each time the lines above it are laid out
        at a new size while open."""
        self._submit, self._on_close, self._resized = submit, on_close, resized
        self._title, self._note, self._error = title, note, ""
        self._placeholder = placeholder or _("7 or 2d6+1")
        self._keys_when_empty, self._keys_typed = keys, typed_keys
        self._completion, self._suggested = completion, None
        self.edit.set("")
        self._scroll = 0
        self._keys, self._app_keys = keymapped(self), keymapped(self.app)
        self._show_notes()
        self.footer.draw_over(self.line)

    def close(self) -> None:
        if not self.is_open:
            return
        self._submit = None
        self._error = self._note = ""
        self.edit.set("")
        self._show_notes()
        self.footer.show_row()
        on_close, self._on_close, self._resized = self._on_close, None, None
        if on_close is not None:
            on_close()

    # -- keys ----------------------------------------------------------------------------------------
    def take_key(self, event: events.Key) -> bool:
        """While open: Enter applies, Esc (and Tab) leaves, the editing keys edit, a character is typed, the
        app's own keys go on to the app, any other does nothing. Closed: takes none."""
        if not self.is_open or self._keys is None or self._app_keys is None:
            return False
        for key in event.aliases:
            for binding in self._keys.key_to_bindings.get(key, ()):
                _target, name, _parameters = parse_action(binding.action)
                getattr(self, f"action_{name}")()
                return True
        edit = self.edit
        before = (edit.value, edit.cursor)
        if event.key in ("right", "end") and self._suggested and edit.cursor == len(edit.value):
            edit.set(self._suggested)
        elif not edit.edit(event.key):
            if not (event.is_printable and event.character is not None):
                return not any(key in self._app_keys.key_to_bindings for key in event.aliases)
            edit.insert(event.character)
        if (edit.value, edit.cursor) != before:
            self._typed()
        return True

    def take_paste(self, text: str) -> bool:
        """Text pasted while open is typed at the cursor."""
        if not self.is_open:
            return False
        self.edit.insert(text)
        self._typed()
        return True

    def _typed(self) -> None:
        """What is typed, or where its cursor is, changed: the completion offered worked out again, and the
        line redrawn where it differs."""
        completion, value = self._completion, self.edit.value
        suggested = completion.complete(value) if completion is not None and value else None
        self._suggested = suggested if suggested is not None and len(suggested) > len(value) else None
        self.footer.redraw_over()

    def action_apply(self) -> None:
        if self._submit is None:
            return
        refusal = self._submit(self.edit.value)
        if refusal is None:
            self.close()
        else:
            self._error = refusal
            self._show_notes()

    def action_cancel(self) -> None:
        self.close()

    # -- the line ------------------------------------------------------------------------------------
    def line(self, width: int) -> Strip:
        """The prompt's line at ``width`` cells: the title, the field, the keys."""
        style = self.get_component_rich_style
        base = style("amount-prompt--line")
        places = self._places(width)
        title = Text(self._title, no_wrap=True)
        title.truncate(places["title"][1] - places["title"][0], overflow="ellipsis")
        keys = Text(self.keys_text, no_wrap=True)
        keys.truncate(places["keys"][1] - places["keys"][0], overflow="ellipsis", pad=True)
        segments = [
            Segment(" ", base),
            Segment(title.plain, base + style("amount-prompt--title")),
            Segment(" ", base),
            *self._field(base),
            Segment(" ", base),
            Segment(keys.plain, base + style("amount-prompt--keys")),
            Segment(" ", base),
        ]
        return Strip(segments).crop_extend(0, width, base).simplify()

    def shown(self, part: str) -> str:
        """What the prompt shows of ``part`` on the terminal: "title", "field" or "keys" of its line (as cut to
        their room), "note" or "error" above it; "" when closed or not shown."""
        if not self.is_open:
            return ""
        if part in ("note", "error"):
            return " ".join(line.plain for line in self._wrapped(self.content_region.width)) if self.display else ""
        width = self.footer.size.width
        start, end = self._places(width)[part]
        return self.line(width).crop(start, end).text.strip()

    def _places(self, width: int) -> dict[str, tuple[int, int]]:
        """Where the title, the field and the keys lie on the line (start, end): a cell before and after each;
        the title has half the line at most, the keys what is left."""
        title_end = 1 + max(min(cell_len(self._title), width // 2), 0)
        field_end = title_end + 1 + FIELD_WIDTH
        return {
            "title": (1, title_end),
            "field": (title_end + 1, field_end),
            "keys": (field_end + 1, max(width - 1, field_end + 1)),
        }

    def _field(self, base: Style) -> list[Segment]:
        """The field's cells: what is typed (scrolled to keep the cursor in sight), the completion offered after
        it, or the placeholder; the cursor on its cell."""
        style = self.get_component_rich_style
        field = base + style("amount-prompt--field")
        dim = base + style("amount-prompt--placeholder")
        cursor_look = field + style("amount-prompt--cursor")
        value, cursor = self.edit.value, self.edit.cursor
        if not value:
            shown = self._placeholder[:FIELD_WIDTH].ljust(FIELD_WIDTH)
            return [Segment(shown[0], cursor_look), Segment(shown[1:], dim)]
        self._scroll = min(self._scroll, cursor)
        if cursor - self._scroll >= FIELD_WIDTH:
            self._scroll = cursor - FIELD_WIDTH + 1
        start = self._scroll
        cells = [Segment(character, field) for character in value[start : start + FIELD_WIDTH]]
        rest = (self._suggested or "")[len(value) :]
        cells += [Segment(character, dim) for character in rest[: max(FIELD_WIDTH - len(cells), 0)]]
        cells += [Segment(" ", field)] * (FIELD_WIDTH - len(cells))
        at = cursor - start
        cells[at] = Segment(cells[at].text, cursor_look)
        return list(Strip(cells).crop_extend(0, FIELD_WIDTH, field))  # (wide characters take two cells)

    # -- the lines above it --------------------------------------------------------------------------
    def _notes(self) -> list[tuple[str, str]]:
        return [(text, part) for text, part in ((self._error, "error"), (self._note, "note")) if text]

    def _show_notes(self) -> None:
        """The refusal and the note shown above the line (the widget hidden when there are none)."""
        shown = bool(self._notes()) and self.is_open
        if shown:
            self.refresh(layout=True)
        if self.display != shown:
            self.display = shown

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._wrapped(width))

    def _wrapped(self, width: int) -> list[Text]:
        lines: list[Text] = []
        for text, part in self._notes():
            words = Text(text, style=self.get_component_rich_style(f"amount-prompt--{part}"))
            lines.extend(words.wrap(self.app.console, max(width, 1)))
        return lines

    def render(self) -> RenderResult:
        return Text("\n").join(self._wrapped(self.content_region.width or self.size.width))

    def on_resize(self, event: events.Resize) -> None:
        if self.is_open and self._resized is not None:
            self._resized()
