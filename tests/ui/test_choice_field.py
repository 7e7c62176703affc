"""A form's list field draws its choice and its arrow itself, on one line; its list opens over the form."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import OptionList, Select, Static

from tests.waiting import until
from tui_combat.testing import visible_text
from tui_combat.widgets.choice_field import ChoiceField
from tui_combat.widgets.field_row import FieldRow

LONG = "a long sword of the dwarves of the northern mountains"
OPTIONS = [("war hammer", "hammer"), (LONG, "sword"), ("dagger", "dagger")]


class FieldApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("Attack")
        with FieldRow("With", 10):
            yield ChoiceField(OPTIONS, value="hammer", id="field", compact=True)


def open_list(field: ChoiceField) -> OptionList:
    return field.query_one(OptionList)


async def test_the_field_shows_its_choice_and_arrow_on_one_line_and_cuts_a_long_one_short() -> None:
    app = FieldApp()
    async with app.run_test(size=(50, 12)) as pilot:
        field = app.query_one(ChoiceField)
        await until(pilot, lambda: field.size.width == 40 and field.region.y == 1, "the field laid out")
        assert field.size.height == 1
        assert visible_text(field) == "war hammer" + " " * 27 + " ▼"
        assert [part for part in field.walk_children() if all(node.display for node in part.ancestors_with_self)] == []

        field.value = "sword"
        await until(pilot, lambda: "…" in visible_text(field), "the long choice cut short")
        shown = visible_text(field)
        assert shown.startswith("a long sword of the dwarves") and shown.endswith("… ▼") and len(shown) == 39
        assert field.shown_text == LONG and field.size.height == 1


async def test_the_list_opens_from_the_keyboard_and_the_mouse_and_the_arrow_turns() -> None:
    app = FieldApp()
    async with app.run_test(size=(50, 12)) as pilot:
        field = app.query_one(ChoiceField)
        field.focus()
        await pilot.press("enter")
        await until(pilot, lambda: field.expanded and open_list(field).display, "the list open")
        assert visible_text(field).endswith("▲")
        await pilot.press("down", "enter")
        await until(pilot, lambda: not field.expanded and field.value == "sword", "the second choice taken")
        assert visible_text(field).endswith("▼")

        await pilot.click(field)
        await until(pilot, lambda: field.expanded, "the list open by a click")
        assert open_list(field).region.y == field.region.y + 1  # under the field, as Textual's list opens
        await pilot.click(open_list(field), offset=(2, 3))  # (its border, then the third choice)
        await until(pilot, lambda: not field.expanded and field.value == "dagger", "a choice taken by a click")
        assert isinstance(field, Select)


async def test_in_the_terminal_s_own_colours_the_field_takes_them() -> None:
    """As Textual's list field does with a theme of the terminal's own colours (its :ansi look)."""
    app = FieldApp()
    async with app.run_test(size=(50, 12)) as pilot:
        field = app.query_one(ChoiceField)
        assert field.styles.background.ansi is None
        app.theme = "ansi-dark"
        await until(pilot, lambda: field.styles.background.ansi == -1, "the terminal's own background")
        assert field.styles.color.ansi == -1
