"""What the terminal shows is what the screen holds: the frames of changed cells a run of keys sends, applied
one after another to what the terminal showed before them, give the screen as Textual would draw it whole.
A frame asks only the widgets that lie on the widgets redrawn for their lines (the footer and the log are not
asked on a next turn), and leaves the cells between them as the terminal has them."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.cells import cell_len

from tests.ui.fights import opened_round, saved_round
from tests.ui.steps import SIZE, until_prompt
from tests.waiting import settled, until
from tui_combat.app import CombatApp

MOVE = re.compile(r"\x1b\[(\d+);(\d+)H")
OTHER_CODES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


class Terminal:
    """The cells of an 80×24 terminal, written by cursor moves and text (colours left out)."""

    def __init__(self, lines: list[str]) -> None:
        width, height = SIZE
        self.cells = [[" "] * width for _ in range(height)]
        for y, line in enumerate(lines):
            self.write(0, y, line)

    def write(self, x: int, y: int, text: str) -> int:
        for character in text:
            self.cells[y][x] = character
            if cell_len(character) == 2:
                self.cells[y][x + 1] = ""
            x += cell_len(character)
        return x

    def apply(self, output: str) -> None:
        x = y = 0
        for piece in re.split(r"(\x1b\[\d+;\d+H)", output):
            move = MOVE.fullmatch(piece)
            if move:
                y, x = int(move[1]) - 1, int(move[2]) - 1
                continue
            for line_number, text in enumerate(OTHER_CODES.sub("", piece).split("\r\n")):
                if line_number:
                    x, y = 0, y + 1
                x = self.write(x, y, text.replace("\n", ""))

    def lines(self) -> list[str]:
        return ["".join(row) for row in self.cells]


def drawn_whole(app: CombatApp) -> list[str]:
    return Terminal([strip.text for strip in app.screen._compositor.render_strips()]).lines()


async def test_the_frames_of_a_run_of_keys_add_up_to_the_screen(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    saved_round(data_root, "ambush", ["Ada", "Bo", "Cy"], 6)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        await until(pilot, lambda: settled(screen), "the round drawn")
        terminal = Terminal(drawn_whole(app))
        asked: list[str] = []
        display = app._display

        def shown(on: Any, update: Any) -> None:
            if update is not None:
                terminal.apply(update.render_segments(app.console))
            display(on, update)

        def noting(widget: Any) -> None:
            render_lines = widget.render_lines

            def noted(crop: Any) -> Any:
                asked.append(type(widget).__name__)
                return render_lines(crop)

            widget.render_lines = noted

        noting(screen.key_footer)
        noting(screen.round_log)
        app._display = shown  # type: ignore[method-assign]
        keys_run = (["n"], ["b"], ["n"], ["n", "n"], ["d"], ["3", "enter"], ["u"], ["a"], ["escape"], ["b", "b"])
        for number, keys in enumerate(keys_run):
            asked.clear()
            await pilot.press(*keys)
            if keys == ["d"]:
                await until_prompt(pilot)
            else:
                await until(pilot, lambda: not screen.amount_prompt.is_open, f"{keys} done")
            await until(pilot, lambda: settled(screen), f"{keys} drawn")
            if number == 2:  # the turn moved on again: neither the footer (Undo lit by now) nor the log changed
                assert asked == [], asked
            assert terminal.lines() == drawn_whole(app), keys
