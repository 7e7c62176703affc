"""A form at the foot of the round screen, over the footer, for what a combatant does (an attack, a spell,
a move): the same fields, keys and checks as a :class:`FormDialog`, with the turn order still in sight
above it.

A dialog over the turn list is made anew each time it opens, and redraws every cell of the terminal as it
opens and as it closes: some hundred milliseconds and 14 KB at 80×24, whatever the size of the fight. This
form is made once and kept: opened again with fields of the same kinds (the same action, another
combatant), it is filled in anew. It lies on a layer of its own over the screen's foot, so that nothing
under it moves: opening it draws its own lines, closing it the lines it covered.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Checkbox, Input, Select, Static

from tui_combat.engine.contract import FieldSpec
from tui_combat.i18n import N_, _
from tui_combat.screens.dialogs import (
    DiceOf,
    FieldsForm,
    Follower,
    Previewer,
    Submitter,
    TickBox,
    Validator,
    _widget_id,
    choice_value,
)
from tui_combat.widgets.choice_field import ChoiceField
from tui_combat.widgets.field_row import FieldRow

Shape = tuple[tuple[str, str, bool], ...]
"""What a form's rows are made of: each field's key, kind, and whether it has choices or suggestions.
Two forms of one shape share their widgets."""


def shape_of(fields: tuple[FieldSpec, ...]) -> Shape:
    return tuple((spec.key, spec.kind, bool(spec.choices) or bool(spec.suggestions)) for spec in fields)


class FormPanel(FieldsForm, Vertical):
    """Opened with :meth:`ask`; Enter goes from field to field and submits from the last, ctrl+s submits,
    Esc leaves it, and so does the focus going elsewhere on the screen (a screen over it, help, does not)."""

    # The border above the form and the blank column on each side are drawn by its lines and rows, not by the
    # form: covered whole by them, it is never asked for lines of its own as it opens (see frames.Cover).
    DEFAULT_CSS = """
    FormPanel { layer: foot; dock: bottom; height: auto; max-height: 75%; display: none; background: $panel; }
    FormPanel > * { padding: 0 1; }
    FormPanel #dialog-title { text-style: bold; border-top: solid $accent; }
    FormPanel #dialog-note { color: $text-muted; height: auto; max-height: 3; }
    FormPanel #dialog-fields { height: auto; max-height: 10; padding: 0; }
    FormPanel #dialog-fields > FieldRow { padding: 0 1; }
    FormPanel #dialog-fields Input, FormPanel #dialog-fields Select { width: 1fr; }
    FormPanel #dialog-fields Checkbox { width: auto; }
    FormPanel #dialog-hint { height: auto; max-height: 4; color: $text-muted; display: none; }
    FormPanel #dialog-preview { height: auto; color: $accent; }
    FormPanel #dialog-error { height: auto; }
    FormPanel #dialog-help { height: auto; color: $text-muted; }
    """
    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel"), id="dialog.cancel"),
        Binding("ctrl+s", "submit", N_("OK"), id="dialog.submit"),
        # Taken as the key arrives, before the field sees it, as in a dialog (see FormDialog).
        Binding("enter", "next_field", N_("Next field"), id="dialog.next", show=False, priority=True),
        # Tab goes round the form's fields, as in a dialog: out of them, the focus would leave the form. Taken
        # as it arrives too: what is typed after it goes to the field it moved to.
        Binding("tab", "cycle(1)", N_("Next field"), id="form.tab", show=False, priority=True),
        Binding("shift+tab", "cycle(-1)", N_("Previous field"), id="form.back_tab", show=False, priority=True),
        # The add form's: the library picker, over the form, with what was typed (see :meth:`ask`).
        Binding("ctrl+l", "library", N_("From the library"), id="dialog.library"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.fields = ()
        self.values = {}
        self.rng: random.Random | None = None
        self.roll_modifiers = {}
        self.submit = None
        self.preview = None
        self.dice = None
        self.validate = None
        self._shape: Shape | None = None
        self._open = False
        self._on_close: Callable[[dict[str, Any] | None], None] | None = None
        self._library: Callable[[dict[str, Any]], None] | None = None
        self._choices_shown: dict[str, tuple[tuple[tuple[str, str], ...], str]] = {}
        """Each list's choices as last given to it (a long list of targets is not made again for nothing),
        with the value it was given that is none of them ("" when there was none)."""
        self.rows_made = 0
        """How many times the rows were made anew (not refilled); for tests."""

    def compose(self) -> ComposeResult:
        yield Static("", id="dialog-title")
        yield Static("", id="dialog-note")
        yield VerticalScroll(id="dialog-fields", can_focus=False)
        yield Static("", id="dialog-hint")
        yield Static("", id="dialog-preview")
        yield Static("", id="dialog-error")
        yield Static("", id="dialog-help")

    @property
    def is_open(self) -> bool:
        return self._open

    @property
    def takes_keys(self) -> bool:
        """The form takes keys itself (its rows are made): none is held for it."""
        return self._held is None

    @property
    def title_text(self) -> str:
        return str(self.query_one("#dialog-title", Static).render())

    def ask(
        self,
        title: str,
        fields: tuple[FieldSpec, ...] | list[FieldSpec],
        values: dict[str, Any] | None,
        on_close: Callable[[dict[str, Any] | None], None],
        *,
        submit: Submitter | None = None,
        validate: Validator | None = None,
        note: str = "",
        rng: random.Random | None = None,
        roll_modifiers: Mapping[str, int] | None = None,
        preview: Previewer | None = None,
        dice: DiceOf | None = None,
        library: Callable[[dict[str, Any]], None] | None = None,
        follow: Follower | None = None,
    ) -> None:
        """Open the form, its first field taking the keys. ``on_close`` is given the accepted values, or None
        when the form was left. Keys typed while new rows are made are held (:meth:`hold_key`) and given to
        them, in order, once the first has the focus. ``library``, when given, is what ctrl+l does, given
        what was typed so far."""
        self.fields, self.values = tuple(fields), dict(values or {})
        self.rng, self.roll_modifiers = rng, dict(roll_modifiers or {})
        self.submit, self.validate, self.preview, self.dice = submit, validate, preview, dice
        self.follow = follow
        self.forget_following()
        self._library = library
        self._on_close, self._open = on_close, True
        self.show_line("#dialog-title", Text(title), shown=True)
        self.show_line("#dialog-note", Text(note), shown=bool(note))
        self.show_line("#dialog-help", Text(self.help_line()), shown=True)
        self.show_line("#dialog-error", Text(""), shown=False)
        shape = shape_of(self.fields)
        refilled = shape == self._shape and self._held is None
        if refilled and preview is not None:
            # (worked out below, from the values filled in: emptied first, the line would be laid out twice,
            # and the form with it, for a line that is often the same as the last time)
            self.query_one("#dialog-preview", Static).display = True
        else:
            self.show_line("#dialog-preview", Text(""), shown=preview is not None)
        self.display = True
        if refilled:
            with self.prevent(Input.Changed, Select.Changed, Checkbox.Changed):
                self._refill()
            self._focus_first()
            self.update_preview()
            return
        self._shape, self._held = shape, []
        self._choices_shown = {
            _widget_id(index, spec.key): self._made_from(spec)
            for index, spec in enumerate(self.fields)
            if spec.kind == "choice" and spec.choices
        }
        self.rows_made += 1
        self.call_later(self._make_rows, self.fields)

    async def _make_rows(self, fields: tuple[FieldSpec, ...]) -> None:
        """The rows made for ``fields`` (in place of the last form's), then the keys held meanwhile taken."""
        box = self.query_one("#dialog-fields", VerticalScroll)
        await box.remove_children()
        if fields is not self.fields:  # opened again meanwhile: that one makes its own
            return
        await box.mount_compose(self.field_rows())
        self.call_after_refresh(self._rows_made)

    def _rows_made(self) -> None:
        if not self._open:
            self._held = None
            return
        self._focus_first()
        self.update_preview()
        self.app.call_later(self._take_held_keys)

    def _focus_first(self) -> None:
        fields = self.field_widgets()
        if fields:
            self.screen.set_focus(fields[0], scroll_visible=False)
            self.query_one("#dialog-fields", VerticalScroll).scroll_home(animate=False)
        for field in fields[1:]:  # left focused-looking as the form closed (the first is restyled as it gains it)
            if isinstance(field, ChoiceField) and field.looks_stale:
                field.restyle(False)

    def _refill(self) -> None:
        """The rows as they are, given this form's labels, choices and values."""
        labels = self.labels()
        width = self.label_width(labels)
        for index, spec in enumerate(self.fields):
            widget_id = _widget_id(index, spec.key)
            self.query_one(f"#label-{widget_id}", FieldRow).show_label(labels[index], width)
            widget = self.query_one(f"#{widget_id}")
            current = self.values.get(spec.key, "" if spec.kind == "roll" else spec.default)
            if isinstance(widget, TickBox):
                widget.value = bool(current)
            elif isinstance(widget, Select):
                made_from = self._made_from(spec)
                options, chosen = self.choice_options(
                    spec, current, with_options=made_from != self._choices_shown.get(widget_id)
                )
                if options:
                    widget.set_options(options)
                    self._choices_shown[widget_id] = made_from
                widget.value = chosen
            elif isinstance(widget, Input):
                widget.value = "" if current is None else str(current)
                widget.placeholder = (
                    self.roll_hint(spec) if spec.kind == "roll" else (_(spec.help) if spec.help else "")
                )
                widget.cursor_position = len(widget.value)

    def _made_from(self, spec: FieldSpec) -> tuple[tuple[tuple[str, str], ...], str]:
        current = self.values.get(spec.key, spec.default)
        return spec.choices, str(current) if choice_value(spec, current) is None else ""

    def action_cycle(self, step: int) -> None:
        """Tab, shift+Tab: the next or the previous field, round the form."""
        fields = self.field_widgets()
        position = self.focused_field(fields)
        if fields:
            self.screen.set_focus(fields[0 if position is None else (position + step) % len(fields)])

    def help_line(self) -> str:
        keys = super().help_line()
        return _("ctrl+l: from the library") + " · " + keys if self._library is not None else keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self._library is not None if action == "library" else True

    def action_library(self) -> None:
        if self._library is not None:
            self._library(self.raw_values())

    def _live(self) -> bool:
        return self._open

    def _accepted(self, values: dict[str, Any]) -> None:
        self.close(values)

    def action_cancel(self) -> None:
        self.close(None)

    def close(self, values: dict[str, Any] | None = None) -> None:
        if not self._open:
            return
        self._open, self._held = False, None
        self.display = False  # hidden, nothing reaches its fields: neither Tab nor the mouse
        on_close, self._on_close = self._on_close, None
        self.submit = self.preview = self.dice = self.validate = self._library = self.follow = None
        if on_close is not None:
            on_close(values)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        # The focus went elsewhere on this screen (Tab out, a click on the list): the form is left, as Esc
        # leaves it. A screen over this one (the help) takes the focus for a while; the form stays.
        if not self._open or self._held is not None or not self.screen.is_current:
            return
        focused = self.screen.focused
        if focused is None or self not in focused.ancestors:
            self.close(None)
