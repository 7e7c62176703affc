"""The fight report from inside the app, at 80×24: the form asks the format, whether it is for the players and
the file; the report is written there and the GM told where; a file that cannot be written keeps the form
open with the reason."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, Select

from tests.ui.fights import messages, opened, saved_round
from tests.ui.steps import SIZE, dialog_error, until_form
from tests.waiting import until
from tui_combat.screens.dialogs import FormDialog, TickBox
from tui_combat.screens.export import export_dialog, report_path
from tui_combat.screens.round import RoundScreen


async def open_export(pilot: Pilot[None]) -> FormDialog:
    await opened(pilot)
    assert isinstance(pilot.app.screen, RoundScreen)
    export_dialog(pilot.app.screen, pilot.app)
    form = await until_form(pilot, "the report form")
    assert isinstance(form, FormDialog) and form.title_text == "Fight report"
    return form


async def test_the_report_goes_to_the_reports_folder_by_default(make_app, data_root: Path) -> None:
    saved_round(data_root, "ambush", ["Ada", "Bo"], 3)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        form = await open_export(pilot)
        default = data_root / "reports" / "ambush.md"
        assert form.query_one("#f-format", Select).value == "md"
        assert form.query_one("#f-path", Input).value == str(default)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: f"Report written to {default}." in messages(app), "the report written")
        assert isinstance(app.screen, RoundScreen), dialog_error(app) if isinstance(app.screen, FormDialog) else ""
        # the players' report beside it, not over it
        export_dialog(app.screen, app)
        await until_form(pilot, "the report form")
        await pilot.press("tab", "space", "ctrl+s")
        players = data_root / "reports" / "ambush-players.md"
        await until(
            pilot, lambda: f"Players' report written to {players}." in messages(app), "the players' report written"
        )
    text = default.read_text(encoding="utf-8")
    assert text.startswith("# Ambush\n") and "1. **3**: Ada, Bo\n2. **7**: Orc 1, Orc 2, Orc 3" in text
    assert "- Orc 1: 8/8 HP, active" in text
    assert "- Orc 1: unhurt" in players.read_text(encoding="utf-8")


async def test_enter_moves_past_a_list_as_past_any_field(make_app, data_root: Path) -> None:
    """The form's hint says Enter goes to the next field: on a closed list too (↓ opens it). Enter, Space,
    Enter: the format kept, the tick box ticked, the report written."""
    saved_round(data_root, "ambush", ["Ada"], 2)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        form = await open_export(pilot)
        assert app.focused is form.query_one("#f-format", Select)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.focused, TickBox), "the tick box after the list")
        assert form.query_one("#f-format", Select).value == "md" and not form.query_one("#f-format", Select).expanded
        await pilot.press("space", "enter", "enter")
        players = data_root / "reports" / "ambush-players.md"
        await until(
            pilot, lambda: f"Players' report written to {players}." in messages(app), "the players' report written"
        )


async def test_a_public_web_page_where_the_gm_says(make_app, data_root: Path, tmp_path: Path) -> None:
    saved_round(data_root, "ambush", ["Ada"], 2)
    app = make_app(resume="ambush")
    target = tmp_path / "out" / "for-the-table"
    async with app.run_test(size=SIZE) as pilot:
        form = await open_export(pilot)
        await pilot.press("down", "down", "enter")  # ↓ opens the list of formats; the next one: a web page
        await until(pilot, lambda: form.query_one("#f-format", Select).value == "html", "the web page format chosen")
        await pilot.press("tab", "space")  # for the players
        assert form.query_one(TickBox).value is True
        await pilot.press("tab", "ctrl+u", *str(target), "ctrl+s")
        written = target.with_name("for-the-table.html")
        await until(pilot, lambda: f"Players' report written to {written}." in messages(app), "the report written")
        assert isinstance(app.screen, RoundScreen), dialog_error(app) if isinstance(app.screen, FormDialog) else ""
    page = written.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "nothing secret is in this report" in page
    assert "<td>Orc 1</td><td>unhurt</td>" in page and "8/8" not in page


async def test_a_file_that_cannot_be_written_keeps_the_form_open(make_app, data_root: Path, tmp_path: Path) -> None:
    saved_round(data_root, "ambush", ["Ada"], 2)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        form = await open_export(pilot)
        form.query_one("#f-path", Input).value = str(blocker / "report.md")
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.screen is form and dialog_error(app), "the form's complaint")
        assert dialog_error(app).startswith(f"Cannot write the report to {blocker / 'report.md'}")
        await pilot.press("escape")
        assert isinstance(app.screen, RoundScreen)
    assert blocker.read_text(encoding="utf-8") == ""


def test_the_file_follows_the_format_unless_the_gm_named_it(tmp_path: Path) -> None:
    default_md = str(tmp_path / "reports" / "ambush.md")
    assert report_path(default_md, "json", tmp_path, "Ambush") == tmp_path / "reports" / "ambush.json"
    assert report_path("", "html", tmp_path, "Ambush") == tmp_path / "reports" / "ambush.html"
    assert report_path(default_md, "md", tmp_path, "Ambush", public=True) == tmp_path / "reports" / "ambush-players.md"
    players_json = str(tmp_path / "reports" / "ambush-players.json")
    assert report_path(players_json, "html", tmp_path, "Ambush") == tmp_path / "reports" / "ambush.html"
    assert report_path("/x/notes.txt", "html", tmp_path, "Ambush") == Path("/x/notes.txt")
    assert report_path("/x/notes", "json", tmp_path, "Ambush") == Path("/x/notes.json")
