"""The garbage collector between keys rather than in them.

Python looks for garbage among the newest objects each time 700 more have been made than freed, and
applying a damage at 2,000 combatants makes about that many: nearly every such key paid some 0.4 ms for it,
in the middle of the key, before its frame. While the app runs it takes these steps itself, a few times a
second, when one is due: between keys, which take a few milliseconds each. Python is left to start a
collection on its own only past :data:`ON_ITS_OWN` objects (a burst, as the end of a round at 10,000
combatants makes).

A step of the older generations walks every object kept since the last one: at 2,000 combatants some 60,000
(the lines drawn, kept with their caches), 23–28 ms on a slow machine, long enough to hold up a key that comes
meanwhile. While keys come in a run (a GM stepping through the turns) only the newest generation is collected;
the older step waits for a pause of :data:`KEYS_QUIET`, or until it has waited :data:`POSTPONED_AT` steps.
"""

from __future__ import annotations

import gc
import time

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
KEYS_QUIET = 0.5
"""Seconds without a key after which a step of the older generations may be taken."""
POSTPONED_AT = 4 * OLDER
"""Collections of the newest generation after which the next older one is taken even while keys come."""


def collect_step(young_only: bool = False) -> int | None:
    """The collection Python would make now, made: none while fewer than :data:`YOUNG` new objects wait,
    else the newest generation, with the next older one every :data:`OLDER` times (counted by Python);
    ``young_only`` (keys are coming): the newest generation only, unless the older one has waited
    :data:`POSTPONED_AT` of its steps. Returns the oldest generation collected."""
    young, middle, old = gc.get_count()
    if young < YOUNG:
        return None
    generation = 2 if old >= OLDER else 1 if middle >= OLDER else 0
    if young_only and middle < POSTPONED_AT:
        generation = 0
    gc.collect(generation)
    return generation


class CollectingPart(AppBase):
    collects_between_keys: bool
    """The app takes the collector's steps (``__main__`` asks; the collector is off until the first screen
    is drawn). Otherwise it leaves the collector as it found it."""
    _collecting: Timer | None = None
    _last_key_at = float("-inf")
    clock = staticmethod(time.monotonic)
    """Where the time since the last key is read (a test gives its own)."""

    def key_came(self) -> None:
        """A key arrived: the collector's older steps wait for a pause (see :func:`collect_step`)."""
        self._last_key_at = self.clock()

    def collect_between_keys(self) -> int | None:
        """The step due, the older generations left for a pause in the keys."""
        return collect_step(young_only=self.clock() - self._last_key_at < KEYS_QUIET)

    def _first_screen_drawn(self) -> None:
        """The collector on once the first screen is drawn (``__main__`` turned it off: starting up makes ever
        more objects, and each collection would walk them all again), taking its steps between keys."""
        if not self.collects_between_keys or self._collecting is not None:
            return
        gc.set_threshold(ON_ITS_OWN, *gc.get_threshold()[1:])
        gc.enable()
        self._collecting = self.set_interval(STEP_EVERY, self.collect_between_keys, name="collect between keys")
