"""The players' turn order of a mass battle (:class:`~tui_combat.widgets.many_lines.ManyLines`): only the lines on the
screen are drawn, and an update draws only the lines that changed and marks dirty only their changed cells, however
long the order is."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult

from tests.waiting import until
from tui_combat.widgets.many_lines import ManyLines


class Lines(App[None]):
    def compose(self) -> ComposeResult:
        yield ManyLines(id="lines")


def orcs(wounded: int = -1) -> list[Text]:
    return [Text(f"  Orc {n}  " + ("wounded" if n == wounded else "unhurt"), style="magenta") for n in range(2_000)]


async def test_one_changed_line_of_two_thousand_is_all_that_is_drawn_again() -> None:
    app = Lines()
    async with app.run_test(size=(80, 24)) as pilot:
        lines = app.query_one(ManyLines)
        lines.show_lines(orcs())
        await until(pilot, lambda: lines.virtual_size.height == 2_000, "the lines laid out")
        await until(pilot, lambda: lines.lines_drawn >= 24, "the lines in sight drawn")
        assert lines.lines_drawn <= 4 * 24  # those in sight only (drawn again once the scroll bar took its column)
        drawn: list[Any] = []
        console = app.console
        render_lines = console.render_lines

        def counted(*args: Any, **kwargs: Any) -> Any:
            drawn.append(args[0])
            return render_lines(*args, **kwargs)

        console.render_lines = counted  # type: ignore[method-assign]
        before = lines.cells_redrawn
        lines.show_lines(orcs(wounded=5))
        assert [str(text) for text in drawn] == ["  Orc 5  wounded"]
        assert 0 < lines.cells_redrawn - before <= len("wounded")
        lines.show_lines(orcs(wounded=5))  # the same again: nothing
        assert len(drawn) == 1
