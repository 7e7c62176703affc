"""The players' log (:class:`~tui_combat.widgets.redraw.WindowLog`): given the window of lines the players may
read at each update, it shows exactly that window, wrapped at its width. A window that goes on from the last
one only drops lines at the top and appends the new ones; any other change (an undo, a line that became
secret) draws the window again, so nothing the window no longer holds stays on screen."""

from __future__ import annotations

import random

from textual.app import App, ComposeResult

from tests.waiting import until
from tui_combat.widgets.redraw import WindowLog, _continued

WIDTH = 30


class Log(App[None]):
    CSS = "WindowLog { width: 30; height: 8; scrollbar-size-vertical: 0; }"

    def compose(self) -> ComposeResult:
        yield WindowLog(id="log", min_width=10)


def shown(log: WindowLog) -> str:
    """Every line the log holds, joined again where a text was wrapped (the texts here have no double spaces)."""
    return " ".join(strip.text.rstrip() for strip in log.lines)


def test_the_overlap_is_the_longest_end_of_the_old_window_that_begins_the_new() -> None:
    assert _continued(["a", "b", "c"], ["b", "c", "d"]) == 2
    assert _continued(["a", "b", "a", "b"], ["a", "b", "a", "b", "a"]) == 4
    assert _continued(["a", "b", "c"], ["x", "a", "b"]) == 0  # the last line undone: drawn again
    assert _continued(["a", "b", "c"], ["a", "c", "d"]) == 0  # "b" left the middle: drawn again
    assert _continued([], ["a"]) == 0


async def test_every_window_is_shown_as_it_is_whatever_came_before() -> None:
    chance = random.Random(7)
    words = ["Orc", "takes", "heals", "damage:", "Raf", "misses", "the", "ogre", "3/8", "HP.", "Round", "2."]

    def line() -> str:
        return " ".join(chance.choice(words) for _ in range(chance.randint(1, 12)))

    app = Log()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(WindowLog)
        window = [line() for _ in range(6)]
        log.show_window(window)
        await until(pilot, lambda: log.lines, "the log drawn at its width")
        for _ in range(60):
            move = chance.random()
            if move < 0.6:  # the fight went on: new lines, the oldest leave the window
                window = (window + [line() for _ in range(chance.randint(1, 3))])[-6:]
            elif move < 0.8:  # undone: the last line goes, an older one comes back at the top
                window = [line()] + window[:-1]
            else:  # a line in the middle became secret
                del window[chance.randrange(len(window))]
            before = log.lines_dropped
            log.show_window(window)
            assert log.texts == window
            assert shown(log) == " ".join(window)
            assert sum(log._heights) == len(log.lines)
            assert log.lines_dropped >= before or log.lines_dropped == 0  # scrolled on, or drawn again
            await pilot.pause()
        log.show_window(window)
        assert shown(log) == " ".join(window)


async def test_a_window_that_goes_on_keeps_the_lines_it_had_and_scrolls_to_the_newest() -> None:
    app = Log()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(WindowLog)
        window = [f"Orc {n} takes {n} damage and falls down in a heap." for n in range(10)]
        log.show_window(window)
        await until(pilot, lambda: log.lines and log.scroll_y == log.max_scroll_y > 0, "the log at its end")
        kept = log.lines[2:]
        log.show_window(window[1:] + ["Raf heals 3."])
        assert log.lines[: len(kept)] == kept  # the same strips: nothing wrapped again
        assert log.lines[-1].text.rstrip() == "Raf heals 3."
        assert log.scroll_y == log.max_scroll_y  # scrolled in the same update, not after a frame
        assert app.query_one(WindowLog).texts == window[1:] + ["Raf heals 3."]


async def test_a_new_width_wraps_the_window_again() -> None:
    app = Log()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(WindowLog)
        window = ["Raf takes 12 damage: 3/38 HP, and is bloodied."] * 3
        log.show_window(window)
        await until(pilot, lambda: len(log.lines) == 6, "each line wrapped in two at 30 columns")
        log.styles.width = 60
        await until(pilot, lambda: len(log.lines) == 3, "each line whole at 60 columns")
        assert sum(log._heights) == 3
        assert shown(log) == " ".join(window)
