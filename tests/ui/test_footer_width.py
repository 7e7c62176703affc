"""The footer keeps room for the palette key (^p) at 60 and 80 columns, on every screen of a fight in every
ruleset: the keys that apply now come first, and none pushes the palette off the edge.

The footer composes its keys a refresh after the screen's bindings are known (a busy machine shows an empty
or a stale footer for a while): each screen's footer is read once it shows that screen's keys, laid out."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from tests.ui.steps import footer_text, until_footer, until_round, until_setup
from tui_combat.app import CombatApp
from tui_combat.engine.encounter import ENCOUNTER_DIR
from tui_combat.session import DEMOS


def palette_fits(app: CombatApp, width: int) -> bool:
    keys = [key for key in app.screen.query_one(Footer).query(FooterKey) if key.key == "ctrl+p"]
    return len(keys) == 1 and keys[0].region.right <= width and keys[0].region.width > 0


@pytest.mark.parametrize("size", [(60, 20), (80, 24)])
@pytest.mark.parametrize("demo", DEMOS, ids=[demo.ruleset for demo in DEMOS])
async def test_the_palette_key_stays_on_screen(demo: object, size: tuple[int, int],
                                               make_app: Callable[..., CombatApp]) -> None:
    app = make_app(encounter=ENCOUNTER_DIR / demo.file_name)  # type: ignore[attr-defined]
    async with app.run_test(size=size) as pilot:
        await until_setup(pilot)
        await until_footer(pilot)
        assert palette_fits(app, size[0]), footer_text(app)
        await pilot.press("c", "c")
        await until_round(pilot)
        await until_footer(pilot)
        assert palette_fits(app, size[0]), footer_text(app)
