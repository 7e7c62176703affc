"""A form's row draws its label itself, wrapped within its columns, and puts its field after them."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widgets import Input

from tests.waiting import until
from tui_combat.widgets.field_row import FieldRow

LONG = "Attack roll against the armour class of the target (1d20)"


class RowApp(App[None]):
    def compose(self) -> ComposeResult:
        with FieldRow(LONG, 20, id="row"):
            yield Input(id="field", compact=True)


def label_lines(row: FieldRow) -> list[str]:
    """What the row itself draws in the label's columns, line by line (its field is drawn over the rest)."""
    return [strip.text[: row.label_width].rstrip() for strip in row.render_lines(Region(0, 0, *row.size))]


async def test_the_label_wraps_within_its_columns_and_the_field_follows_them() -> None:
    app = RowApp()
    async with app.run_test(size=(60, 10)) as pilot:
        row, field = app.query_one(FieldRow), app.query_one("#field", Input)
        await until(pilot, lambda: row.size.height == 3, "the row as tall as its label")
        assert field.region.x == row.region.x + 20 and field.region.y == row.region.y
        lines = label_lines(row)
        assert lines == ["Attack roll against", "the armour class of", "the target (1d20)"]
        assert " ".join(lines).split() == LONG.split()

        row.show_label("Target")
        await until(pilot, lambda: row.size.height == 1, "the row one line again")
        assert label_lines(row) == ["Target"]

        row.show_label("Other modifiers", 26)  # wider: the field moves with it
        await until(pilot, lambda: field.region.x == row.region.x + 26, "the field after the wider label")
        assert row.label == "Other modifiers" and row.label_width == 26
