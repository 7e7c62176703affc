"""The garbage collector's steps are taken between keys: the app takes the one Python would take, a few times
a second, and Python starts one on its own only past many more objects than it would."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator

import pytest

from tests.ui.steps import SIZE
from tests.waiting import settled, until
from tui_combat.app import CombatApp
from tui_combat.running.collecting import KEYS_QUIET, OLDER, ON_ITS_OWN, POSTPONED_AT, YOUNG, collect_step


@pytest.fixture
def collector_off() -> Iterator[None]:
    """The collector off, as ``__main__`` leaves it for the app; as it was afterwards."""
    thresholds, enabled = gc.get_threshold(), gc.isenabled()
    gc.disable()
    gc.collect()
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        if enabled:
            gc.enable()


def made(count: int) -> list[list[int]]:
    return [[number] for number in range(count)]


def test_no_step_until_young_objects_wait(collector_off: None) -> None:
    kept = made(YOUNG // 2)
    before = gc.get_count()[0]
    assert collect_step() is None
    assert gc.get_count()[0] >= before and kept


def test_a_step_collects_the_young_and_every_tenth_the_older(collector_off: None) -> None:
    kept = [made(YOUNG)]
    assert collect_step() == 0
    assert gc.get_count()[0] < YOUNG
    for _time in range(OLDER - 1):
        kept.append(made(YOUNG))
        assert collect_step() == 0
    kept.append(made(YOUNG))
    assert collect_step() == 1  # the tenth: the next generation with it
    assert gc.get_count()[1] == 0


def test_while_keys_come_the_older_step_waits_but_not_for_ever(collector_off: None) -> None:
    kept = []
    for _time in range(POSTPONED_AT):  # the tenth and those after it: only the newest, keys coming
        kept.append(made(YOUNG))
        assert collect_step(young_only=True) == 0
    assert gc.get_count()[1] == POSTPONED_AT
    kept.append(made(YOUNG))
    assert collect_step(young_only=True) == 1  # it has waited long enough
    assert gc.get_count()[1] == 0


async def test_the_app_takes_the_steps_once_its_first_screen_is_drawn(
    make_app: Callable[..., CombatApp], collector_off: None
) -> None:
    app = make_app(collects_between_keys=True)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: settled(app.screen) and gc.isenabled(), "the collector on")
        assert gc.get_threshold()[0] == ON_ITS_OWN
        kept = made(4 * YOUNG)
        await until(pilot, lambda: gc.get_count()[0] < YOUNG, "a step taken")
        assert kept


async def test_an_app_not_asked_leaves_the_collector_alone(
    make_app: Callable[..., CombatApp], collector_off: None
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: settled(app.screen), "the first screen")
        assert not gc.isenabled()


async def test_the_app_leaves_the_older_step_for_a_pause_in_the_keys(
    make_app: Callable[..., CombatApp], collector_off: None
) -> None:
    app = make_app(collects_between_keys=True)
    now = [1000.0]
    app.clock = lambda: now[0]  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: settled(app.screen) and app._collecting is not None, "the collector on")
        assert app._collecting is not None
        app._collecting.pause()  # the steps taken here, one at a time
        await pilot.press("down")  # a key (on the session list: the next row)
        kept = []  # (twice what a step waits for: the app frees some objects of its own meanwhile)
        for _time in range(OLDER):
            kept.append(made(2 * YOUNG))
            assert app.collect_between_keys() == 0
        kept.append(made(2 * YOUNG))
        assert app.collect_between_keys() == 0  # the older generation is due: the key came a moment ago
        now[0] += KEYS_QUIET
        kept.append(made(2 * YOUNG))
        assert app.collect_between_keys() == 1  # a pause: taken
        assert kept
