"""A form's row: its label drawn by the row itself, its field beside it.

A label of its own made each row of a form two widgets and a container, each laid out, styled and drawn as the
form opens: the attack form at the foot of the round screen is five rows, and the widgets of a form are most of
what its opening costs. The row draws its label in the columns left of its field (wrapped within them, the row
as tall as the label's lines or the field, whichever is taller); the field is its only child."""

from __future__ import annotations

from typing import ClassVar

from textual.containers import Horizontal
from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget


class FieldRow(Horizontal):
    """A label ``width`` columns wide, and the field (the one child) after it."""

    DEFAULT_CSS = """
    FieldRow { height: auto; }
    FieldRow > .field-row--label { color: $text-muted; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"field-row--label"}

    def __init__(self, label: str, width: int, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._label = label
        self._width = width
        self._wrapped: tuple[str, int, list[Content]] | None = None
        """The label's lines, by the label and the width they were wrapped to."""

    @property
    def label(self) -> str:
        return self._label

    @property
    def label_width(self) -> int:
        return self._width

    def show_label(self, label: str, width: int | None = None) -> None:
        """The label shown (and the columns it takes, when given): redrawn, and laid out again only when the
        number of its lines or its width changed."""
        width = self._width if width is None else width
        if label == self._label and width == self._width:
            return
        lines_before = len(self._lines())
        moved = width != self._width
        self._label, self._width = label, width
        if moved:
            for child in self.children:
                child.styles.margin = (0, 0, 0, width)
        self.refresh(layout=moved or len(self._lines()) != lines_before)

    def compose_add_child(self, widget: Widget) -> None:
        widget.styles.margin = (0, 0, 0, self._width)
        super().compose_add_child(widget)

    def _lines(self) -> list[Content]:
        """The label wrapped within its columns, as a label of that width wraps it."""
        wrapped = self._wrapped
        if wrapped is None or wrapped[0] != self._label or wrapped[1] != self._width:
            lines = Content(self._label).wrap(max(self._width, 1)) or [Content()]
            wrapped = self._wrapped = (self._label, self._width, lines)
        return wrapped[2]

    def render(self) -> Content:
        return Content("\n").join(self._lines()).stylize(self.get_visual_style("field-row--label"))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(super().get_content_height(container, viewport, width), len(self._lines()))
