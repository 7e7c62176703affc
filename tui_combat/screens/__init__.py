"""The app's screens: each renders part of the store's state and turns keys into actions."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.screen import Screen


def screen_for_phase(phase: str, ruleset_id: str) -> Screen[None]:
    """The screen of a fight in ``phase`` ("setup", "surprise", "round"), loaded when first needed."""
    if phase == "setup":
        from tui_combat.screens.setup import SetupScreen

        return SetupScreen()
    if phase == "surprise":
        from tui_combat.screens.surprise import SurpriseScreen

        return SurpriseScreen()
    from tui_combat.screens.round import RoundScreen

    return RoundScreen(ruleset_id)
