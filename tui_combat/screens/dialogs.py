"""Small modal dialogs: a form built from field specs, and a pick-one list.

Each dialog is a ``ModalScreen[T]`` that dismisses with its value, or ``None`` on Escape.
Validation happens in the dialog: a wrong value shows its message under the form and nothing closes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from tui_combat.i18n import _
from tui_combat.engine.contract import FieldSpec

Validator = Callable[[dict[str, Any]], "dict[str, Any] | str"]


def convert_fields(fields: tuple[FieldSpec, ...] | list[FieldSpec], raw: dict[str, Any]) -> dict[str, Any] | str:
    """Turn the form's strings into the fields' types, or return the message for the first bad one."""
    values: dict[str, Any] = {}
    for spec in fields:
        value = raw.get(spec.key, spec.default)
        if spec.kind == "int":
            text = str(value).strip().replace("−", "-")
            if text in ("", "-"):
                text = str(spec.default if spec.default != "" else 0)
            try:
                values[spec.key] = int(text)
            except ValueError:
                return _("{field}: \"{value}\" is not a whole number.", field=_(spec.label), value=str(value).strip())
        elif spec.kind == "bool":
            values[spec.key] = bool(value)
        else:
            values[spec.key] = "" if value is None else str(value).strip()
    return values


class FormDialog(ModalScreen[dict[str, Any] | None]):
    """A form of labelled fields. Enter goes to the next text field and submits from the last one;
    ctrl+s submits from anywhere; Escape cancels."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="dialog.cancel"),
        Binding("ctrl+s", "submit", "OK", id="dialog.submit"),
    ]

    def __init__(self, title: str, fields: tuple[FieldSpec, ...] | list[FieldSpec], values: dict[str, Any] | None = None,
                 validate: Validator | None = None, note: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.fields = tuple(fields)
        self.values = dict(values or {})
        self.validate = validate
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, id="dialog-title")
            if self.note:
                yield Static(self.note, id="dialog-note")
            with VerticalScroll(id="dialog-fields"):
                for spec in self.fields:
                    current = self.values.get(spec.key, spec.default)
                    with Horizontal(classes="field"):
                        yield Label(_(spec.label), classes="field-label")
                        if spec.kind == "bool":
                            yield Checkbox(_("yes"), value=bool(current), id=f"f-{spec.key}", compact=True)
                        elif spec.kind == "choice" and spec.choices:
                            options = [(_(text), value) for value, text in spec.choices]
                            known = {value for _t, value in options}
                            yield Select(options, value=current if current in known else spec.choices[0][0],
                                         allow_blank=False, id=f"f-{spec.key}", compact=True)
                        else:
                            yield Input(value="" if current is None else str(current), id=f"f-{spec.key}",
                                        placeholder=spec.help, compact=True)
            yield Static("", id="dialog-error")
            yield Static(_("Enter: next text field, OK on the last · ctrl+s: OK · Tab: next · Esc: cancel"), id="dialog-help")

    def on_mount(self) -> None:
        # The first field takes the keys, not the scrolling box around the fields.
        self.query_one("#dialog-fields", VerticalScroll).can_focus = False
        fields = [w for w in self.query("#dialog-fields .field > *") if w.focusable]
        if fields:
            fields[0].focus()

    def raw_values(self) -> dict[str, Any]:
        raw: dict[str, Any] = {}
        for spec in self.fields:
            widget = self.query_one(f"#f-{spec.key}")
            if isinstance(widget, (Input, Checkbox)):
                raw[spec.key] = widget.value
            elif isinstance(widget, Select):
                raw[spec.key] = widget.value
        return raw

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter moves on to the next text field (lists are reached with Tab) and submits on the last."""
        event.stop()
        inputs = list(self.query("#dialog-fields Input"))
        later = inputs[inputs.index(event.input) + 1:] if event.input in inputs else []
        if later:
            later[0].focus()
        else:
            self.action_submit()

    def action_submit(self) -> None:
        values = convert_fields(self.fields, self.raw_values())
        if isinstance(values, dict) and self.validate is not None:
            values = self.validate(values)
        if isinstance(values, str):
            self.query_one("#dialog-error", Static).update(f"[b red]{values}[/]")
            return
        self.dismiss(values)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChoiceDialog(ModalScreen[str | None]):
    """Pick one of several choices with the arrows and Enter (or its first letter)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="dialog.cancel")]

    def __init__(self, title: str, choices: list[tuple[str, str]], current: str | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, id="dialog-title")
            yield OptionList(*[Option(_(label), id=value) for value, label in self.choices], id="choices")
            yield Static(_("Enter: choose · Esc: cancel"), id="dialog-help")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        for index, (value, _label) in enumerate(self.choices):
            if value == self.current:
                options.highlighted = index

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
