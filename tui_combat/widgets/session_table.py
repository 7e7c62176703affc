"""The session list's table: a long list draws as fast as a short one.

A :class:`~textual.widgets.DataTable` measures every cell of every row it is given before it draws, so
500 saved fights would cost their 2,000 cells before the first frame. This table is given its first
screens of rows at once and the rest after the frame, a batch after each refresh; a key that goes past
the rows it has (down on the last one, page down, end, ctrl+end) and a look-up of a row by its key add the
rest first, so the GM never meets the end of a list that is still coming.

Home and End go to the first and the last row (a DataTable's own scroll sideways, and this list is never
wider than the screen).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

FIRST_ROWS = 30
"""Rows drawn at once: more than a screen's worth at 80×24 (page down brings the rest first)."""
BATCH = 100
"""Rows added after each refresh while the rest come."""

Row = tuple[str, list[Text]]
"""A row's key and its cells."""


class SessionTable(DataTable[Text]):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self._make_row: Callable[[int], Row] = _no_row
        self._next = 0
        self._count = 0
        self._filling = 0
        """Which fill the batches on their way belong to: a later fill drops the earlier one's."""

    def fill(self, count: int, make_row: Callable[[int], Row], *, at_once: bool = False) -> None:
        """Rows 0 … ``count`` - 1, each made by ``make_row`` when it is added (the columns are set already):
        the first :data:`FIRST_ROWS` now, the others after the next refreshes (all now when ``at_once``)."""
        self._filling += 1
        self._make_row, self._next, self._count = make_row, 0, count
        self._add(count if at_once else FIRST_ROWS)
        if self.pending:
            self.call_after_refresh(self._add_batch, self._filling)

    @property
    def pending(self) -> bool:
        """Some rows are still to come."""
        return self._next < self._count

    def complete(self) -> None:
        """Every row, now."""
        self._add(self._count - self._next)

    def _add(self, rows: int) -> None:
        end = min(self._next + rows, self._count)
        for index in range(self._next, end):
            key, cells = self._make_row(index)
            self.add_row(*cells, key=key)
        self._next = end

    def _add_batch(self, filling: int) -> None:
        if filling != self._filling or not self.pending:
            return
        self._add(BATCH)
        if self.pending:
            self.call_after_refresh(self._add_batch, filling)

    def get_row_index(self, row_key: RowKey | str) -> int:
        self.complete()
        return super().get_row_index(row_key)

    def action_cursor_down(self) -> None:
        if self.cursor_row >= self.row_count - 1:
            self.complete()
        super().action_cursor_down()

    def action_page_down(self) -> None:
        self.complete()
        super().action_page_down()

    def action_scroll_bottom(self) -> None:
        self.complete()
        super().action_scroll_bottom()

    def action_scroll_home(self) -> None:
        self.first()

    def action_scroll_end(self) -> None:
        self.last()

    def first(self) -> None:
        """The cursor on the first row."""
        self.move_cursor(row=0)

    def last(self) -> None:
        """The cursor on the last row, every row added first."""
        self.complete()
        self.move_cursor(row=max(self.row_count - 1, 0))


def _no_row(index: int) -> Row:
    raise IndexError(index)
