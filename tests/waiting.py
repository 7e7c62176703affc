"""The one way a test waits (for a condition, never for time alone): the app's public testing kit's
(:mod:`tui_combat.testing.waiting`), where it lives; imported from here by the tests written before it moved."""

from __future__ import annotations

from tui_combat.testing.waiting import (
    DEFAULT_DEADLINE,
    NOT_YET,
    STEP,
    deadline,
    eventually,
    settled,
    until,
    until_screen,
    until_widget,
)

__all__ = [
    "DEFAULT_DEADLINE",
    "NOT_YET",
    "STEP",
    "deadline",
    "eventually",
    "settled",
    "until",
    "until_screen",
    "until_widget",
]
