"""The garbage collector between keys rather than in them.

Python looks for garbage among the newest objects each time 700 more have been made than freed, and
applying a damage at 2,000 combatants makes about that many: nearly every such key paid some 0.4 ms for it,
in the middle of the key, before its frame. While the app runs it takes these steps itself, a few times a
second, when one is due: between keys, which take a few milliseconds each. Python is left to start a
collection on its own only past :data:`ON_ITS_OWN` objects (a burst, as the end of a round at 10,000
combatants makes).
"""

from __future__ import annotations

import gc

from textual.timer import Timer

from tui_combat.running.base import AppBase

YOUNG = 700
"""A step collects once this many more objects have been made than freed since the last one (Python's own
threshold for its newest objects)."""
OLDER = 10
"""Every tenth collection of a generation takes the next older one with it, as Python's own thresholds say."""
ON_ITS_OWN = 20_000
"""Python's threshold while the app takes the steps: it starts a collection itself only past this many."""
STEP_EVERY = 1 / 3
"""Seconds between the app's looks at whether a step is due."""


def collect_step() -> int | None:
    """The collection Python would make now, made: none while fewer than :data:`YOUNG` new objects wait,
    else the newest generation, with the next older one every :data:`OLDER` times (counted by Python).
    Returns the oldest generation collected."""
    young, middle, old = gc.get_count()
    if young < YOUNG:
        return None
    generation = 2 if old >= OLDER else 1 if middle >= OLDER else 0
    gc.collect(generation)
    return generation


class CollectingPart(AppBase):
    collects_between_keys: bool
    """The app takes the collector's steps (``__main__`` asks; the collector is off until the first screen
    is drawn). Otherwise it leaves the collector as it found it."""
    _collecting: Timer | None = None

    def _first_screen_drawn(self) -> None:
        """The collector on once the first screen is drawn (``__main__`` turned it off: starting up makes ever
        more objects, and each collection would walk them all again), taking its steps between keys."""
        if not self.collects_between_keys or self._collecting is not None:
            return
        gc.set_threshold(ON_ITS_OWN, *gc.get_threshold()[1:])
        gc.enable()
        self._collecting = self.set_interval(STEP_EVERY, collect_step, name="collect between keys")
