"""What the GM sees at 80×24, compared with accepted SVG screenshots in ``__snapshots__/``.

Nothing shown here depends on the clock or on the data folder: the session list (which shows when
each session was saved) is not photographed. After a deliberate change of the screens, look at the
new pictures and accept them with ``pytest tests/ui/test_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.ui.fights import until_help
from tests.ui.steps import (
    SIZE,
    leave_damage,
    open_demo,
    to_round,
    type_initiative,
    until_closed,
    until_form,
    until_round,
    until_setup,
)
from tests.waiting import settled, until

pytestmark = pytest.mark.usefixtures("in_colour")


def test_setup_of_the_demo(snap_compare, make_app) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await open_demo(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_round_after_typed_initiative(snap_compare, make_app) -> None:
    """Round 1 of the seed: the party (7) acts before the monsters (10); Raf is selected."""

    async def run_before(pilot: Pilot[None]) -> None:
        await to_round(pilot)
        await type_initiative(pilot, "7", "10")

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_help_over_the_round(snap_compare, make_app) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await to_round(pilot)
        await type_initiative(pilot, "7", "10")
        await pilot.press("f1")
        await until_help(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_trudvang_countdown_after_an_attack(snap_compare, make_app) -> None:
    """Trudvang: the countdown with Fridgar's live CP bars after a 6-CP attack with the seax."""
    from tui_combat.engine.encounter import ENCOUNTER_DIR

    async def run_before(pilot: Pilot[None]) -> None:
        await until_setup(pilot)
        await pilot.press("c", "c")  # set-up → surprise → round
        await until_round(pilot)
        await pilot.press("n", "t")  # actions → initiative, typed from real dice
        form = await until_form(pilot, "the initiative form")
        await pilot.press("9", "tab", "8", "tab", "8", "tab", "1", "0", "space", "1", "enter")  # a 10 rolls again
        await until_closed(pilot, form, "the initiative typed in")
        await pilot.press("a")
        form = await until_form(pilot, "the attack form")
        await pilot.press("tab", "tab", "6", "tab", "tab", "tab", "3", "enter")  # target, with, CP, hand, modifier, d20
        # the damage the hit asks for: left until the target has tried to parry
        assert await leave_damage(pilot), "the hit asked for no damage"
        await until(pilot, lambda: settled(pilot.app.screen), "the round screen settled")

    app = make_app(encounter=ENCOUNTER_DIR / "demo_trudvang.toml")
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_attack_form_at_the_foot_of_the_round(snap_compare, make_app) -> None:
    """AD&D demo, round 1: Raf's attack asked at the foot of the screen, over the footer, with the turn order
    still in sight above it; the chance is shown before anything is rolled."""

    async def run_before(pilot: Pilot[None]) -> None:
        await to_round(pilot)
        await type_initiative(pilot, "7", "10")
        await pilot.press("a")
        form = await until_form(pilot, "the attack form")
        await until(
            pilot,
            lambda: settled(pilot.app.screen) and bool(form.query_one("#dialog-preview").render()),
            "the form and its chance drawn",
        )

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_the_dragon_breath_before_it_is_applied(snap_compare, make_app) -> None:
    """5e demo with an Adult Red Dragon from the bestiary: its Fire Breath on Brenna, Oswin and Lia, previewed — the
    damage and each one's save rolled with the app's dice (seed 1), the DC, the chance, what reaches him and his hit
    points after; nothing applied yet."""
    from tests.ui.steps import combatant_id, select
    from tests.ui.test_area_effects import DEMO_5E, rows, to_the_dragon
    from tests.waiting import until_screen
    from tui_combat.screens.area_preview import AreaPreview
    from tui_combat.screens.area_targets import TargetPicker
    from tui_combat.screens.dialogs import ChoiceDialog, FormDialog

    async def run_before(pilot: Pilot[None]) -> None:
        app = pilot.app
        await to_the_dragon(pilot, app)
        await select(pilot, combatant_id(app, "Adult Red Dragon"))
        await pilot.press("B")
        await until_screen(pilot, ChoiceDialog, "the dragon's abilities")
        await pilot.press("enter")
        await until_screen(pilot, TargetPicker, "the targets")
        await pilot.press("space", "space", "space", "enter")
        await until_screen(pilot, FormDialog, "the area form")
        await pilot.press("ctrl+s")
        preview = await until_screen(pilot, AreaPreview, "the preview")
        await until(
            pilot,
            lambda: preview.shown is not None and len(rows(preview)) == 3 and settled(preview),
            "the preview drawn",
        )

    assert snap_compare(make_app(encounter=DEMO_5E), terminal_size=SIZE, run_before=run_before)


def test_the_damage_prompt_with_a_refusal(snap_compare, make_app) -> None:
    """The damage prompt on the footer's row, "2d" typed and refused: the refusal above the line, what was typed
    kept in the field with the cursor after it, the keys after the field."""

    async def run_before(pilot: Pilot[None]) -> None:
        await to_round(pilot)
        await type_initiative(pilot, "7", "10")
        await pilot.press("d", "2", "d", "enter")
        app = pilot.app
        await until(
            pilot,
            lambda: app.screen.amount_prompt.error_text != "" and settled(app.screen),
            "the refusal over the prompt",
        )

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)
