"""The round's log (:class:`~tui_combat.widgets.redraw.RoundLog`) draws a row only for a line it has not drawn
lately at its look: a new line scrolls the others up without drawing them again, and the log written again
after an undo draws nothing it showed a moment before. What it shows is always what Textual draws afresh."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.pilot import Pilot
from textual.strip import Strip

from tests.ui.test_changed_cells import cells_of
from tests.waiting import until
from tui_combat.widgets.lines import _look, joined
from tui_combat.widgets.redraw import LogView, RoundLog

WIDTH, HEIGHT = 30, 8
ROWS = HEIGHT - 2
"""The rows of lines: the log has a row of padding above and below them."""


class Log(App[None]):
    CSS = """
    RoundLog { width: 30; height: 8; padding: 1 1; scrollbar-size-vertical: 0; }
    RoundLog.warm { color: red; background: blue; }
    """

    def compose(self) -> ComposeResult:
        yield RoundLog(id="log", max_lines=200, min_width=10)


def cells(strips: list[Strip]) -> list[list[tuple[str, tuple[object, ...]]]]:
    """Each cell's character and how it looks (its colours and attributes: not where a click on it lands)."""
    return [[(character, _look(style)) for character, style in cells_of(strip, WIDTH)] for strip in strips]


def drawn_afresh(log: RoundLog) -> list[list[tuple[str, tuple[object, ...]]]]:
    """The rows as Textual draws them with nothing kept (the log's own keeping left out), in as few pieces
    as they look, as the log always draws them."""
    log._styles_cache.clear()
    return cells([joined(strip) for strip in LogView.render_lines(log, Region(0, 0, WIDTH, HEIGHT))])


def shown(log: RoundLog) -> list[list[tuple[str, tuple[object, ...]]]]:
    return cells(log.render_lines(Region(0, 0, WIDTH, HEIGHT)))


async def at_its_end(pilot: Pilot[None], app: Log, text: str) -> RoundLog:
    """The log holding ``text``, laid out and scrolled to its end."""
    log = app.query_one(RoundLog)
    log.add_lines(text)
    await until(pilot, lambda: log.lines and log.scroll_offset.y == len(log.lines) - ROWS, "the log at its end")
    return log


# The log is drawn here as a frame draws it (``render_lines`` of the whole log), with no wait between a change
# and the drawing: no frame of the app's own comes in between to draw the rows first.
async def test_a_new_line_draws_its_own_row_only_and_every_row_is_as_drawn_afresh() -> None:
    app = Log()
    async with app.run_test(size=(40, 12)) as pilot:
        log = await at_its_end(pilot, app, "\n".join(f"Orc {n} takes {n} damage" for n in range(20)))
        shown(log)
        for n in range(20, 26):
            rows = log.rows_drawn
            log.add_lines(f"Raf heals {n} HP, a line long enough to wrap: {n}")
            assert shown(log) == drawn_afresh(log)
            assert log.rows_drawn - rows == 2  # the two rows of the new, wrapped line
        assert [strip.text.strip() for strip in log.lines[-2:]] == [
            "Raf heals 25 HP, a line long",
            "enough to wrap: 25",
        ]


async def test_the_log_written_again_draws_no_row_it_showed_lately_and_a_new_look_draws_all() -> None:
    app = Log()
    async with app.run_test(size=(40, 12)) as pilot:
        texts = [f"Orc {n} misses Raf" for n in range(12)]
        log = await at_its_end(pilot, app, "\n".join(texts))
        shown(log)
        log.add_lines("Raf takes 3 damage")
        shown(log)
        rows = log.rows_drawn
        log.write_anew(texts)  # an undo: the log is written again without its last line
        assert shown(log) == drawn_afresh(log)
        assert log.rows_drawn == rows  # the row back at the top was on the screen a line ago
        assert [strip.text for strip in log.lines] == texts
        before = shown(log)
        log.add_class("warm")  # another look: every row drawn again, in it
        await until(
            pilot,
            lambda: log.rich_style.color is not None and log.rich_style.color.triplet == (255, 0, 0),
            "the log's new colours worked out",
        )
        after = shown(log)
        assert after == drawn_afresh(log)
        assert after != before
        assert log.rows_drawn == rows + HEIGHT


async def test_the_log_written_again_wraps_no_text_again_and_holds_the_same_lines() -> None:
    app = Log()
    async with app.run_test(size=(40, 12)) as pilot:
        texts = [f"Orc {n} swings at Raf and misses him by a whisker" for n in range(30)]
        log = await at_its_end(pilot, app, "\n".join(texts))
        before = [strip.text for strip in log.lines]
        wrapped: list[str] = []
        wrap = log._wrap
        log._wrap = lambda text, width: wrapped.append(text) or wrap(text, width)  # type: ignore[method-assign]
        log.write_anew(texts[:-1])
        assert wrapped == []
        assert [strip.text for strip in log.lines] == before[:-2]  # each text took two lines
        log.add_lines("Raf falls")
        assert wrapped == ["Raf falls"]


async def test_lines_added_and_the_log_written_again_lay_nothing_out_and_show_the_newest() -> None:
    """The log's size does not follow its lines: a line added (a damage's Enter) or the log written again (an
    undo) scrolls and redraws it, and asks for no layout of the screen (Textual lays out the whole screen at
    each change of a widget's virtual size). A log that fits its lines shows them from the top; one past them
    follows the newest."""
    app = Log()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(RoundLog)
        log.add_lines("\n".join(f"Orc {n} misses Raf" for n in range(3)))
        await until(pilot, lambda: len(log.lines) == 3 and log.size.height == HEIGHT - 2, "the log laid out")
        layouts: list[bool] = []
        refresh = log.refresh

        def noted(*regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> RoundLog:
            layouts.append(layout)
            return refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

        log.refresh = noted  # type: ignore[method-assign]
        texts = [f"Orc {n} misses Raf" for n in range(12)]
        log.write_anew(texts)
        await until(pilot, lambda: log.scroll_offset.y == len(texts) - ROWS, "the log at its newest line")
        log.add_lines("Raf takes 3 damage")
        await until(pilot, lambda: log.scroll_offset.y == len(texts) + 1 - ROWS, "the new line in sight")
        assert shown(log) == drawn_afresh(log)
        log.write_anew(texts[:2])  # an undo: the log written again without its last lines
        await until(pilot, lambda: log.scroll_offset.y == 0, "the two lines left shown from the top")
        assert shown(log) == drawn_afresh(log)
        assert [strip.text for strip in log.lines] == texts[:2]
        assert layouts and not any(layouts)


async def test_the_log_written_anew_is_the_log_written_from_nothing() -> None:
    """After an undo the log holds what a log given the same texts from nothing holds: the lines, their width,
    the size it scrolls over, scrolled to the newest; past its most lines too, and with nothing left."""
    app = Log()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(RoundLog)
        log.add_lines("\n".join(f"Orc {n} swings at Raf and misses him by a whisker" for n in range(150)))
        await until(pilot, lambda: log.lines_dropped > 0, "more lines than the log keeps")
        for texts in (
            [f"Orc {n} misses" for n in range(12)],
            ["Raf falls", "A very long line of what the orcs shout at Raf as he falls to the ground"],
            [f"Orc {n} swings at Raf and misses him by a whisker" for n in range(120)],
            [],
        ):
            log.write_anew(texts)
            await until(pilot, lambda: log.scroll_offset.y == max(len(log.lines) - ROWS, 0), "at the newest line")
            kept = ([strip.text for strip in log.lines], log.widest_line, log.lines_dropped, log.virtual_size)
            log.forget()
            if texts:
                log.add_lines("\n".join(texts))
            assert kept == ([strip.text for strip in log.lines], log.widest_line, log.lines_dropped, log.virtual_size)
            assert shown(log) == drawn_afresh(log)
