"""Small modal dialogs: a form built from field specs, and a pick-one list.

Each dialog is a ``ModalScreen[T]`` that dismisses with its value, or ``None`` on Escape.
Validation happens in the dialog: a wrong value shows its message under the form and nothing closes. A form
given a ``submit`` callback hands it the values and closes only when it accepts them: a refusal (the rules
saying no to an attack of 99 CP) is shown in the form, with everything that was typed still there.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from typing import Any

import msgspec
from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widget import Widget
from textual.widgets import Checkbox, Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from tui_combat.engine.contract import AnyRuleset, FieldSpec
from tui_combat.engine.dice import DiceError, Roll, physical, roll
from tui_combat.engine.errors import RuleError
from tui_combat.i18n import N_, _
from tui_combat.textual_ext.frames import DrawnOnce
from tui_combat.widgets.choice_field import ChoiceField
from tui_combat.widgets.field_row import FieldRow
from tui_combat.widgets.text_field import TextField
from tui_combat.widgets.translated_bindings import TranslatedBindings
from tui_combat.widgets.type_ahead import ChoiceList

Validator = Callable[[dict[str, Any]], "dict[str, Any] | str"]
Submitter = Callable[[dict[str, Any]], "str | None"]
Previewer = Callable[[dict[str, Any]], str]
"""Takes the form's values as typed (unchecked strings) and gives the line shown above the keys: for an
attack, the number needed and the chance of it."""
"""Takes a form's values: None when they were accepted (the form closes), else the refusal to show in it."""
DiceOf = Callable[[dict[str, Any]], Mapping[str, str]]
"""Takes the form's values as typed and gives the dice of its roll fields that follow them (field key → dice)."""
Follower = Callable[[dict[str, Any]], Mapping[str, Any]]
"""Takes the form's values as typed and gives the values some of its list fields follow (field key → value), until
the GM chooses one of them himself: the add form's side, which goes to the monsters for a name found in the
bestiary."""

LABEL_WIDTH = (26, 42)
"""A form's label column: at least this wide, and at most (a longer label wraps onto a second line)."""
MAX_DIGITS = 9
"""The longest whole number a form takes: more is a slip of the finger, and could not be saved."""
NUMBER_RANGE = (-999, 9999)
"""What a whole-number field takes when its spec gives no range of its own: modifiers, AC, feet, levels."""
AMOUNT_RANGE = (0, 9999)
"""Damage, healing, hit points."""
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
"""ASCII digits only: ``²`` and ``①`` count as digits to Python's ``isdigit`` but are no number to ``int``."""


def health_field(ruleset: AnyRuleset) -> FieldSpec:
    """The add form's field for a combatant's health, in the book's word (:attr:`Ruleset.health_label`)."""
    return FieldSpec(
        key="hp",
        label=ruleset.health_label,
        kind="int",
        default=1,
        minimum=AMOUNT_RANGE[0],
        maximum=AMOUNT_RANGE[1],
        help=ruleset.health_help,
    )


def shown_value(value: object, most: int = 24) -> str:
    """What the GM typed, as a message quotes it: cut short when it is long."""
    text = str(value).strip()
    return text if len(text) <= most else text[: most - 1] + "…"


def read_whole_number(
    label: str, typed: object, default: object = 0, bounds: tuple[int, int] | None = None
) -> int | str:
    """A whole number from a form field (empty, or a lone minus: ``default``), or the message saying
    why it is not one; with ``bounds`` (lowest, highest) a number outside them is refused too."""
    text = str(typed).strip().replace("−", "-")
    if text in ("", "-"):
        text = str(default if default not in ("", None) else 0)
    if not _WHOLE_NUMBER.fullmatch(text):
        return _('{field}: "{value}" is not a whole number.', field=label, value=shown_value(typed))
    if len(text.lstrip("+-")) > MAX_DIGITS:
        return _("{field}: a whole number of at most {digits} digits.", field=label, digits=MAX_DIGITS)
    number = int(text)
    if bounds is not None and not bounds[0] <= number <= bounds[1]:
        if bounds[0] == 0 and number < 0:
            return _("{field} cannot be negative.", field=label)
        return _("{field}: a number from {low} to {high}.", field=label, low=bounds[0], high=bounds[1])
    return number


def field_bounds(spec: FieldSpec) -> tuple[int, int]:
    """The range a whole-number field takes: its own, or :data:`NUMBER_RANGE`."""
    low = NUMBER_RANGE[0] if spec.minimum is None else spec.minimum
    high = NUMBER_RANGE[1] if spec.maximum is None else spec.maximum
    return low, high


def roll_label(spec: FieldSpec, modifier: int = 0) -> str:
    """A roll field's label with its dice, and the modifier added to them if any: "To hit (1d20)",
    "Fridgar (1d10! -4)"."""
    return f"{_(spec.label)} ({spec.default}{f' {modifier:+d}' if modifier else ''})"


def take_roll(spec: FieldSpec, typed: str, rng: random.Random | None, modifier: int = 0) -> Roll | str:
    """A roll field's value: what the GM typed from real dice, or (left empty) a roll of the app's dice;
    the message for the GM when it cannot be either."""
    dice = str(spec.default)
    text = typed.strip()
    try:
        if text and text.replace(" ", "") != dice.replace(" ", ""):
            return physical(dice, text)
        if rng is None:
            return _("{field}: type what the dice showed.", field=roll_label(spec, modifier))
        return roll(dice, rng)
    except DiceError as error:
        return f"{roll_label(spec, modifier)}: {error}"


def convert_fields(
    fields: tuple[FieldSpec, ...] | list[FieldSpec],
    raw: dict[str, Any],
    rng: random.Random | None = None,
    modifiers: Mapping[str, int] | None = None,
) -> dict[str, Any] | str:
    """Turn the form's strings into the fields' types, or return the message for the first bad one.

    Roll fields come last, once every other field is right, so a refused form rolls no dice: each is
    what the GM typed (``physical``), or, left empty, rolled here with ``rng``."""
    values: dict[str, Any] = {}
    for spec in fields:
        value = raw.get(spec.key, spec.default)
        if spec.kind == "roll":
            continue
        if spec.kind == "int":
            number = read_whole_number(_(spec.label), value, spec.default, field_bounds(spec))
            if isinstance(number, str):
                return number
            values[spec.key] = number
        elif spec.kind == "bool":
            values[spec.key] = bool(value)
        else:
            values[spec.key] = "" if value is None else str(value).strip()
    for spec in fields:
        if spec.kind == "roll":
            taken = take_roll(spec, str(raw.get(spec.key) or ""), rng, (modifiers or {}).get(spec.key, 0))
            if isinstance(taken, str):
                return taken
            values[spec.key] = taken
    return {spec.key: values[spec.key] for spec in fields}


def choice_value(spec: FieldSpec, current: object) -> str | None:
    """Which of a choice field's values ``current`` is: the value itself, or one whose label (in English or
    in the GM's language) it spells, case aside; the first choice when it is empty; None when it is none
    of them (the form then keeps it as it is, rather than silently putting the first choice in its place)."""
    if current in ("", None):
        return spec.choices[0][0]
    if any(value == current for value, _label in spec.choices):
        return str(current)
    text = str(current).strip().casefold()
    for value, label in spec.choices:
        if value == current or text in (value.casefold(), label.casefold(), _(label).casefold()):
            return value
    return None


_PLAIN_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _widget_id(index: int, key: str) -> str:
    """``f-KEY`` for the field's widget; a key that cannot be a widget id (a roll key such as "s1#2") is
    replaced by the field's position."""
    return f"f-{key}" if _PLAIN_KEY.match(key) else f"field-{index}"


class TickBox(Checkbox, inherit_bindings=False):
    """A checkbox that reads without colour: ``[x]`` ticked, ``[ ]`` not. Space ticks it; Enter moves on,
    as in every other field of a form."""

    BINDINGS = [Binding("space", "toggle_button", N_("Tick"), show=False)]

    def render(self) -> Content:
        button = Content.assemble(("[x]" if self.value else "[ ]", self.get_visual_style("toggle--button")))
        return Content.assemble(button, self.label.pad(1, 1).stylize_before(self.get_visual_style("toggle--label")))


def _in_open_list(focused: Widget | None) -> bool:
    """Whether the focus is in the open list of a list field (its overlay: inside the field, not the field)."""
    return (
        focused is not None
        and not isinstance(focused, Select)
        and any(isinstance(node, Select) for node in focused.ancestors)
    )


class FieldsForm:
    """What a form of labelled fields does, wherever it is shown (a dialog over the screen, or the round
    screen's own form at its foot): its rows, their values, the preview and the dice that follow them, Enter
    from field to field, and the values checked and handed on. The host gives :meth:`_accepted` (the values
    were taken) and :meth:`_live` (the form still takes keys)."""

    fields: tuple[FieldSpec, ...]
    values: dict[str, Any]
    rng: random.Random | None
    roll_modifiers: dict[str, int]
    submit: Submitter | None
    preview: Previewer | None
    dice: DiceOf | None
    validate: Validator | None
    follow: Follower | None = None

    _held: list[events.Key] | None = None
    """Keys typed while the form opened (before its first field could take them), in order; None once it
    takes keys itself."""

    # The host is a Textual DOM node; these are its, typed here for the mixin.
    app: Any
    screen: Any
    is_mounted: Any
    query: Any
    query_one: Any

    def _accepted(self, values: dict[str, Any]) -> None:
        raise NotImplementedError

    def _live(self) -> bool:
        raise NotImplementedError

    def hold_key(self, event: events.Key) -> bool:
        """Keep a key that arrives while the form opens, for the form to take once its first field has the focus
        (the app asks, for each key, before it handles it); False once the form takes keys itself."""
        if self._held is None:
            return False
        self._held.append(events.Key(event.key, event.character))
        return True

    async def _take_held_keys(self) -> None:
        """The keys held while the form opened, handled as the app handles any key (in the app's own turn: a
        key typed after them waits behind them)."""
        keys, self._held = self._held or [], None
        for key in keys:
            if not self._live():  # an Escape or a last Enter among them closed the form
                break
            await self.app.on_event(key)

    def labels(self) -> list[str]:
        return [
            roll_label(spec, self.roll_modifiers.get(spec.key, 0)) if spec.kind == "roll" else _(spec.label)
            for spec in self.fields
        ]

    @staticmethod
    def label_width(labels: list[str]) -> int:
        """Wide enough for the longest label (within reason), so that the fields line up and few labels wrap."""
        return min(LABEL_WIDTH[1], max([LABEL_WIDTH[0], *(cell_len(label) + 1 for label in labels)]))

    def field_rows(self) -> ComposeResult:
        """A row per field: its label, and the widget that takes its value."""
        labels = self.labels()
        label_width = self.label_width(labels)
        for index, spec in enumerate(self.fields):
            widget_id = _widget_id(index, spec.key)
            current = self.values.get(spec.key, "" if spec.kind == "roll" else spec.default)
            with FieldRow(labels[index], label_width, classes="field", id=f"label-{widget_id}"):
                if spec.kind == "roll":
                    yield TextField(
                        value="" if current is None else str(current),
                        id=widget_id,
                        placeholder=self.roll_hint(spec),
                        compact=True,
                    )
                elif spec.kind == "bool":
                    yield TickBox(_("yes"), value=bool(current), id=widget_id, compact=True)
                elif spec.kind == "choice" and spec.choices:
                    options, chosen = self.choice_options(spec, current)
                    yield ChoiceField(options, value=chosen, id=widget_id, compact=True)
                else:
                    suggester = (
                        SuggestFromList([_(word) for word in spec.suggestions], case_sensitive=False)
                        if spec.suggestions
                        else None
                    )
                    yield TextField(
                        value="" if current is None else str(current),
                        id=widget_id,
                        placeholder=_(spec.help) if spec.help else "",
                        compact=True,
                        suggester=suggester,
                    )

    def roll_hint(self, spec: FieldSpec) -> str:
        return _("empty: rolled for you") if self.rng is not None else str(spec.default)

    @staticmethod
    def choice_options(
        spec: FieldSpec, current: object, with_options: bool = True
    ) -> tuple[list[tuple[Text, str]], str]:
        """A choice field's options (none unless ``with_options``), and the one ``current`` is."""
        # a side's name is text, not markup
        options = [(Text(_(text)), value) for value, text in spec.choices] if with_options else []
        chosen = choice_value(spec, current)
        if chosen is None:  # a value the list does not know (an alias in a file): kept as it is
            chosen = str(current)
            if with_options:
                options.append((Text(chosen), chosen))
        return options, chosen

    def help_line(self) -> str:
        """The keys of this form, in one line: only those that do something in it."""
        parts = [_("Enter: next field, OK on the last"), _("ctrl+s: OK")]
        if any(spec.kind == "bool" for spec in self.fields):
            parts.append(_("Space: tick"))
        if any(spec.kind == "choice" and spec.choices for spec in self.fields):
            parts.append(_("↓ opens a list"))
        parts.append(_("Esc: cancel"))
        return " · ".join(parts)

    def _lines_shown(self) -> dict[str, Text]:
        """What each line was last given, by its selector (kept on the instance: the mixin has no __init__)."""
        lines: dict[str, Text] = self.__dict__.setdefault("_form_lines_shown", {})
        return lines

    def show_line(self, selector: str, text: Text, shown: bool | None = None) -> None:
        """A line of the form (``shown`` or hidden, when given) given ``text``, redrawn only when it changed: a
        line whose height follows its text asks for the screen to be laid out again at each update."""
        lines = self._lines_shown()
        line = self.query_one(selector, Static)
        if lines.get(selector) != text:
            lines[selector] = text
            line.update(text)
        if shown is not None:
            line.display = shown

    def field_widgets(self) -> list[Widget]:
        # (each field's row is a child of the box of fields: read from it, not matched by a query of every
        # widget of the form, the lists' options among them)
        box = self.query_one("#dialog-fields")
        return [widget for row in box.children if row.has_class("field") for widget in row.children if widget.focusable]

    def focused_field(self, fields: list[Widget]) -> int | None:
        """Which of ``fields`` has the focus (or holds it: a list's open overlay), if one does."""
        focused = self.screen.focused
        return next(
            (
                i
                for i, widget in enumerate(fields)
                if focused is widget or (focused is not None and widget in focused.ancestors)
            ),
            None,
        )

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.show_hint()

    def show_hint(self) -> None:
        """The focused field's hint in full under the fields, when the field is too narrow to show it."""
        focused = self.screen.focused
        hint = ""
        if (
            isinstance(focused, Input)
            and focused.placeholder
            and cell_len(focused.placeholder) > focused.content_size.width
        ):
            hint = focused.placeholder
        self.show_line("#dialog-hint", Text(hint), shown=bool(hint))

    def update_dice(self) -> None:
        """The roll fields' dice as the other fields now stand (their labels follow)."""
        if self.dice is None or not self.is_mounted:
            return
        try:
            wanted = self.dice(self.raw_values())
        except (RuleError, DiceError, ValueError, KeyError):  # a half-typed value: the dice stay as they were
            return
        fields = list(self.fields)
        for index, spec in enumerate(fields):
            if spec.kind == "roll" and spec.key in wanted and wanted[spec.key] != spec.default:
                fields[index] = msgspec.structs.replace(spec, default=wanted[spec.key])
                label = roll_label(fields[index], self.roll_modifiers.get(spec.key, 0))
                self.query_one(f"#label-{_widget_id(index, spec.key)}", FieldRow).show_label(label)
                if self.rng is None:
                    self.query_one(f"#{_widget_id(index, spec.key)}", Input).placeholder = wanted[spec.key]
        self.fields = tuple(fields)

    def _following(self) -> tuple[dict[str, Any], set[str]]:
        """The value the form last gave each list field that follows the others, and the fields the GM has
        chosen himself since (kept on the instance: the mixin has no __init__)."""
        followed: dict[str, Any] = self.__dict__.setdefault("_form_followed", {})
        chosen: set[str] = self.__dict__.setdefault("_form_chosen", set())
        return followed, chosen

    def forget_following(self) -> None:
        """A form opened anew: its list fields follow the others again."""
        followed, chosen = self._following()
        followed.clear()
        chosen.clear()

    def update_followers(self) -> None:
        """The list fields that follow the other fields set as they now ask, but for those the GM chose himself."""
        if self.follow is None or not self.is_mounted:
            return
        try:
            wanted = self.follow(self.raw_values())
        except (RuleError, ValueError, KeyError):  # a half-typed value: the fields stay as they are
            return
        followed, chosen = self._following()
        for index, spec in enumerate(self.fields):
            if spec.key not in wanted or spec.key in chosen:
                continue
            widget = self.query_one(f"#{_widget_id(index, spec.key)}")
            if isinstance(widget, Select) and widget.value != wanted[spec.key]:
                followed[spec.key] = wanted[spec.key]
                widget.value = wanted[spec.key]

    def _note_choice(self, select: Select[Any], value: object) -> None:
        """A list field changed: by the GM himself unless it took the value the form gave it (or had at first)."""
        if self.follow is None:
            return
        key = next(
            (spec.key for index, spec in enumerate(self.fields) if _widget_id(index, spec.key) == select.id), None
        )
        followed, chosen = self._following()
        if key is not None and value != followed.get(key, self.values.get(key)):
            chosen.add(key)

    def update_preview(self) -> None:
        self.update_followers()
        self.update_dice()
        if self.preview is None or not self.is_mounted:
            return
        try:
            line = self.preview(self.raw_values())
        except (RuleError, DiceError, ValueError, KeyError):  # a half-typed value: no line yet, the form goes on
            line = ""
        self.show_line("#dialog-preview", Text(line, style="bold"))

    def on_input_changed(self, event: Input.Changed) -> None:
        self.update_preview()

    def on_select_changed(self, event: Select.Changed) -> None:
        self._note_choice(event.select, event.value)
        self.update_preview()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self.update_preview()

    def raw_values(self) -> dict[str, Any]:
        raw: dict[str, Any] = {}
        for index, spec in enumerate(self.fields):
            widget = self.query_one(f"#{_widget_id(index, spec.key)}")
            if isinstance(widget, (Input, Checkbox)):
                raw[spec.key] = widget.value
            elif isinstance(widget, Select):
                raw[spec.key] = widget.value
        return raw

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_next_field()

    def action_next_field(self) -> None:
        """Enter: on to the next field (a text field, a tick box or a list), OK on the last one. In an open list
        it chooses; on a closed one it moves on like any field (↓ opens the list, as the form's hint says)."""
        if _in_open_list(self.screen.focused):
            raise SkipAction()
        fields = self.field_widgets()
        position = self.focused_field(fields)
        if position is not None and position + 1 < len(fields):
            self.screen.set_focus(fields[position + 1])
        else:
            self.action_submit()

    def show_error(self, message: str) -> None:
        self.show_line("#dialog-error", Text(message, style="bold red"), shown=True)
        if self.preview is not None:  # the preview line saying the same refusal: said once, in red
            preview = self.query_one("#dialog-preview", Static)
            if str(preview.render()).strip() == message.strip():
                self.show_line("#dialog-preview", Text(""))

    def action_submit(self) -> None:
        """OK (Enter on the last field, ctrl+s): the values are read once every field has handled the keys
        sent to it before — typed fast, a digit may still be on its way to its field when the Enter behind it
        is handled (it is handled as it arrives, so that the keys after it go to the next field)."""
        self._after_fields(self.field_widgets(), self.submit_now)

    def _after_fields(self, fields: list[Widget], then: Callable[[], None]) -> None:
        """Run ``then`` after each of ``fields`` has handled what was sent to it so far (while the form is open)."""
        if fields:
            fields[0].call_later(self._after_fields, fields[1:], then)
        elif self._live():
            then()

    def submit_now(self) -> None:
        """Read the values as they stand, check them and hand them on; the form closes when they are accepted."""
        values = convert_fields(self.fields, self.raw_values(), self.rng, self.roll_modifiers)
        if isinstance(values, dict) and self.validate is not None:
            values = self.validate(values)
        if isinstance(values, str):
            self.show_error(values)
            return
        if self.submit is not None:
            refusal = self.submit(values)
            if refusal is not None:
                self.show_error(refusal)
                return
        self._accepted(values)


class FormDialog(FieldsForm, DrawnOnce, TranslatedBindings, ModalScreen[dict[str, Any] | None]):
    """A form of labelled fields. Enter goes to the next field and submits from the last one; ctrl+s
    submits from anywhere; Escape cancels.

    A ``roll`` field (any number of them) shows its dice in the label; typed, it is what real dice showed;
    left empty, the form rolls it with ``rng`` when it is submitted. Its value is a :class:`Roll`.
    ``roll_modifiers`` (field key → modifier) are shown beside the dice; the value is the roll alone.

    ``submit``, when given, receives the checked values: it returns None when it accepted them (the form
    closes with them) or the refusal, shown in the form, which stays open with what was typed.

    ``preview``, when given, is asked again as each field changes, and its line is shown under the fields.

    ``dice``, when given, is asked the same way for the dice of the roll fields that follow the other fields
    (advantage from the target chosen): the label shows them, and the form rolls (or checks what is typed
    against) them.

    ``follow``, when given, is asked the same way for the values of list fields that follow the other fields
    (:data:`Follower`) until the GM chooses one of them himself.

    Keys typed while the form opens (in the same burst as the key that opened it: ``t4``, Enter, ``7``) are
    held by the app (:meth:`hold_key`) and given to the form, in the order typed, once its first field has
    the focus: they land where they would have had the form been open already."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel"), id="dialog.cancel"),
        Binding("ctrl+s", "submit", N_("OK"), id="dialog.submit"),
        # Handled as the key arrives, before the field sees it: keys typed right after Enter go to the next
        # field even on a busy machine (a text field's own Enter would move on only a moment later).
        Binding("enter", "next_field", N_("Next field"), id="dialog.next", show=False, priority=True),
    ]

    def __init__(
        self,
        title: str,
        fields: tuple[FieldSpec, ...] | list[FieldSpec],
        values: dict[str, Any] | None = None,
        validate: Validator | None = None,
        note: str = "",
        rng: random.Random | None = None,
        roll_modifiers: Mapping[str, int] | None = None,
        submit: Submitter | None = None,
        preview: Previewer | None = None,
        dice: DiceOf | None = None,
        follow: Follower | None = None,
    ) -> None:
        super().__init__()
        self.dice = dice
        self.follow = follow
        self.submit = submit
        self.preview = preview
        self.title_text = title
        self.fields = tuple(fields)
        self.values = dict(values or {})
        self.validate = validate
        self.note = note
        self.rng = rng
        self.roll_modifiers = dict(roll_modifiers or {})
        self._held = []

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text), id="dialog-title")
            if self.note:
                yield Static(Text(self.note), id="dialog-note")
            # The first field takes the keys (the screen's own first focus), not the scrolling box around them.
            with VerticalScroll(id="dialog-fields", can_focus=False):
                yield from self.field_rows()
            yield Static("", id="dialog-hint")
            if self.preview is not None:
                yield Static("", id="dialog-preview")
            yield Static("", id="dialog-error")
            yield Static(self.help_line(), id="dialog-help")

    def on_mount(self) -> None:
        fields = self.field_widgets()
        if fields and self.focused is not fields[0]:  # a focus that moves redraws the whole dialog's screen
            fields[0].focus()
        # The first field focused and drawn: the keys typed meanwhile are taken, in the app's turn.
        self.call_after_refresh(self.app.call_later, self._take_held_keys)
        self.call_after_refresh(self.show_hint)  # the fields' widths are known once they are laid out
        # Not yet mounted while its own mount runs: the line comes once it is (a form of tick boxes only
        # has no change before the GM presses a key).
        self.call_after_refresh(self.update_preview)

    def _accepted(self, values: dict[str, Any]) -> None:
        self.dismiss(values)

    def _live(self) -> bool:
        return self.is_current

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChoiceDialog(DrawnOnce, TranslatedBindings, ModalScreen[str | None]):
    """Pick one of several choices with the arrows and Enter, or by typing the start of its name."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [Binding("escape", "cancel", N_("Cancel"), id="dialog.cancel")]

    def __init__(self, title: str, choices: list[tuple[str, str]], current: str | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text), id="dialog-title")
            yield ChoiceList(*[Option(Text(_(label)), id=value) for value, label in self.choices], id="choices")
            yield Static(_("type a name to go to it · Enter: choose · Esc: cancel"), id="dialog-help")

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


class ConfirmDialog(DrawnOnce, TranslatedBindings, ModalScreen[bool]):
    """A question with two answers: ``cancel`` (highlighted first, and Escape) or ``confirm``."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [Binding("escape", "cancel", N_("Cancel"), id="dialog.cancel")]

    def __init__(self, title: str, message: str, *, confirm: str, cancel: str) -> None:
        super().__init__()
        self.title_text = title
        self.message = message
        self.answers = ((False, cancel), (True, confirm))

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text), id="dialog-title")
            yield Static(Text(self.message), id="dialog-note")
            yield ChoiceList(
                *[Option(Text(label), id="yes" if answer else "no") for answer, label in self.answers], id="choices"
            )
            yield Static(_("Enter: choose · Esc: cancel"), id="dialog-help")

    def on_mount(self) -> None:
        self.query_one(OptionList).highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id == "yes")

    def action_cancel(self) -> None:
        self.dismiss(False)
