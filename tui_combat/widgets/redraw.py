"""Scrolling widgets that redraw no more than they must: a new layout of the screen (a card that grew a
line) should not redraw the scroll bars of every list on it."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Self

from rich.cells import cell_len
from rich.segment import Segment
from rich.text import Text
from textual.events import Resize
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.widget import Widget

from tui_combat.textual_ext.scroll_bars import SteadyScrollBars
from tui_combat.widgets.lines import joined


class LogView(ScrollView, can_focus=True):
    """Lines of text in a scrolling view of their own (Textual's line API): ``lines`` holds each line of the
    screen as a strip, the oldest dropped past ``max_lines``."""

    DEFAULT_CSS = """
    LogView { background: $surface; color: $foreground; overflow-y: scroll; }
    """

    def __init__(
        self,
        *,
        max_lines: int | None = None,
        min_width: int = 78,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.max_lines = max_lines
        self.min_width = min_width
        self.lines: list[Strip] = []
        self.widest_line = 0
        """The cells of the widest line held (the view's width)."""
        self.lines_dropped = 0
        """How many lines were dropped from the top since the view was last cleared."""

    def clear(self) -> Self:
        self._drop_lines()
        self.hold(Size(0, 0))
        return self

    def _drop_lines(self) -> None:
        """Every line dropped and the view to be drawn again; its size left as it is (see :meth:`clear`)."""
        self.lines.clear()
        self.widest_line = self.lines_dropped = 0
        self.refresh()

    def hold(self, size: Size) -> None:
        """``size`` as the view's virtual size (the lines it holds). Upstream: Textual lays the whole screen out
        again at each change of a widget's virtual size. A view whose size does not follow its lines and whose
        scroll bars stay as they are only scrolls differently: it is redrawn and its scroll position kept within
        the lines (a line added to the round's log, at a damage's Enter or an undo, cost a layout of the screen)."""
        if not self._bars_stay(size):
            self.virtual_size = size
            return
        self.set_reactive(Widget.virtual_size, size)
        bar = self.vertical_scrollbar
        bar.set_reactive(ScrollBar.window_virtual_size, size.height)
        if self.styles.scrollbar_visibility == "visible":  # (a hidden bar redrawn is taken for a new widget)
            bar.refresh()
        self.scroll_target_y = self.validate_scroll_target_y(self.scroll_target_y)
        self.scroll_y = self.validate_scroll_y(self.scroll_y)
        self.refresh()

    def _bars_stay(self, size: Size) -> bool:
        """Whether holding ``size`` leaves the view and its scroll bars as they are: its size is not worked out
        from what it holds (no ``auto``), the vertical bar is always there, and no horizontal one comes."""
        styles = self.styles
        if styles.overflow_y != "scroll" or styles.auto_dimensions:
            return False
        if styles.overflow_x == "hidden":
            return True
        fits = size.width <= self.scrollable_content_region.width
        return styles.overflow_x == "auto" and not self.show_horizontal_scrollbar and fits

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        index = scroll_y + y
        if not 0 <= index < len(self.lines):
            return Strip.blank(width, self.rich_style)
        return self.lines[index].crop_extend(scroll_x, scroll_x + width, self.rich_style).apply_style(self.rich_style)


class RoundLog(SteadyScrollBars, LogView):
    """The roll log: lines are appended, never redrawn all at once, and the log follows the newest; when
    its width changes it wraps what it holds again at the new width (``RichLog`` wraps a line once, when
    it is written).

    The lines are plain text (never markup), so the log draws them itself: a line that fits is drawn as it
    is, and only a longer one is wrapped by Rich (Textual's ``RichLog.write`` has Rich measure and wrap all
    of them: opening a long fight filled the log with its last :attr:`max_lines` entries in some 9 ms)."""

    def __init__(
        self,
        *,
        max_lines: int | None = None,
        min_width: int = 78,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(max_lines=max_lines, min_width=min_width, name=name, id=id, classes=classes)

    _texts: deque[str] | None = None
    _wrapped_at = 0
    """The width the lines were drawn at; 0 until the log's size is known (they are drawn then)."""

    def add_lines(self, text: str) -> None:
        """Append ``text`` (lines separated by newlines) and scroll to it."""
        if self._texts is None:
            self._texts = deque(maxlen=self.max_lines)
        lines = text.split("\n")
        self._texts.extend(lines)
        if self._wrapped_at:
            self._draw(lines)

    def on_resize(self, event: Resize) -> None:
        width = self.scrollable_content_region.width
        if not width:
            return
        if width != self._wrapped_at:  # the first time, or wrapped again at a new width
            drawn, self._wrapped_at = self._wrapped_at, width
            if drawn:
                self.clear()
            self._draw(self._texts or ())

    _wrapped: dict[str, list[Strip]] | None = None
    """The lines each text held takes, at the width drawn: the log written again after an undo wraps none again."""
    _wrapped_for = 0

    def _draw(self, texts: Iterable[str]) -> None:
        """Append the lines of ``texts`` at the log's width (a longer one wrapped as Rich wraps it)."""
        width = max(self._wrapped_at, self.min_width)
        if self._wrapped is None or self._wrapped_for != width:
            self._wrapped, self._wrapped_for = {}, width
        wrapped = self._wrapped
        strips: list[Strip] = []
        for text in texts:
            lines = wrapped.get(text)
            if lines is None:
                lines = wrapped[text] = self._wrap(text, width)
            strips.extend(lines)
        if len(wrapped) > 2 * len(self._texts or ()) + 64:  # only what the log holds is kept
            held = set(self._texts or ())
            self._wrapped = {text: lines for text, lines in wrapped.items() if text in held}
        self._append_strips(strips)

    def _wrap(self, text: str, width: int) -> list[Strip]:
        """The lines ``text`` takes at ``width``: itself when it fits, else as Rich wraps it."""
        cells = cell_len(text)
        if cells <= width and text.isprintable():
            return [Strip([Segment(text)], cells)]
        rich_text = Text(text)
        rich_text.expand_tabs()
        console = self.app.console
        return [Strip(line) for line in console.render_lines(rich_text, console.options.update_width(width), pad=False)]

    def _append_strips(self, strips: list[Strip]) -> None:
        if not strips:
            return
        lines = self.lines
        lines.extend(strips)
        if self.max_lines is not None and len(lines) > self.max_lines:
            self.lines_dropped += len(lines) - self.max_lines
            del lines[: len(lines) - self.max_lines]
            self.refresh()
        self.widest_line = max(self.widest_line, *(strip.cell_length for strip in strips))
        self.hold(Size(self.widest_line, len(lines) + self._foot_lines))
        # Scrolled at once when the log has its size: scrolled after the next refresh, it drew every line
        # twice (the new size at the old place, then at the new one).
        self.scroll_end(animate=False, immediate=bool(self.size.height), x_axis=False)

    _foot_lines = 0
    """Blank lines after the last while something lies over the foot of the log: room to scroll the newest
    lines up above it."""

    def keep_above(self, covered: int) -> None:
        """The newest lines scrolled up into sight above the ``covered`` lines at the foot of the log (a prompt's
        note or refusal lies over them), when the log follows the newest; 0 once nothing does.
        A log whose lines all fit above them stays as it is."""
        covered = max(covered, 0) if len(self.lines) > self.scrollable_content_region.height - covered else 0
        if covered == self._foot_lines:
            return
        following = self.scroll_offset.y >= self.max_scroll_y
        self._foot_lines = covered
        self.hold(Size(self.widest_line, len(self.lines) + covered))
        if following:
            self.scroll_end(animate=False, immediate=bool(self.size.height), x_axis=False)

    _finished: dict[tuple[object, ...], Strip] | None = None
    """Lines as last drawn on the screen (padding, colours, as few pieces as they look), by what they hold."""
    _finished_look: tuple[object, ...] | None = None
    _style_changes = 0
    drawings = 0
    """How many times the log was asked for its lines; for tests."""
    rows_drawn = 0
    """How many rows of those Textual drew (the others were taken as drawn before); for tests."""

    def notify_style_update(self) -> None:
        self._style_changes += 1
        super().notify_style_update()

    def render_lines(self, crop: Region) -> list[Strip]:
        """Each line as few pieces as it looks (:func:`~tui_combat.widgets.lines.joined`): its padding, text
        and the blank after it would be sent as four, each with its whole colour code.

        A new line scrolls every other one up a row, which Textual would draw again, row by row (some 2 ms
        for the log of the round screen), and an undo writes the log again: a line drawn lately at this
        look is taken as it was drawn, and only rows with other lines are drawn."""
        self.drawings += 1
        look = (
            crop.x,
            crop.width,
            self.size,
            self.scroll_offset.x,
            self.rich_style,
            self.background_colors,
            self._style_changes,
        )
        if look != self._finished_look or self._finished is None:
            self._finished, self._finished_look = {}, look
        finished = self._finished
        keys = [self._row_key(y) for y in crop.line_range]
        missing = [y for y, key in zip(crop.line_range, keys) if key is None or key not in finished]
        fresh: dict[int, Strip] = {}
        if missing:  # one stretch of rows drawn by Textual, from the first row missing to the last
            first, last = min(missing), max(missing) + 1
            self.rows_drawn += last - first
            drawn = [joined(strip) for strip in super().render_lines(Region(crop.x, first, crop.width, last - first))]
            fresh = dict(zip(range(first, last), drawn))
        lines: list[Strip] = []
        for y, key in zip(crop.line_range, keys):
            strip = fresh[y] if key is None or y in fresh else finished.pop(key)
            if key is not None:
                finished[key] = strip  # the newest last
            lines.append(strip)
        while len(finished) > 3 * max(crop.height, 1):  # the oldest go: what scrolled out of sight a while ago
            del finished[next(iter(finished))]
        return lines

    def _row_key(self, y: int) -> tuple[object, ...] | None:
        """What row ``y`` of the log (padding included) shows, as a key to its drawing: the line there, the
        padding's row, or None for a row below the last line (a line will come there)."""
        gutter = self.gutter
        if y < gutter.top or y >= self.outer_size.height - gutter.bottom:
            return ("gutter", y)
        index = self.scroll_offset.y + y - gutter.top
        return tuple(self.lines[index]) if 0 <= index < len(self.lines) else None

    def forget(self) -> None:
        """Empty the log and what it would wrap again."""
        self.write_anew([])

    def write_anew(self, texts: list[str]) -> None:
        """The log holding ``texts`` (each lines separated by newlines) in place of what it held, scrolled to its
        end. In one go: emptied first, it was given a size of nothing, its scroll bar and scroll position worked
        out for it, then for the new lines (an undo: some 0.3 ms)."""
        self._drop_lines()
        if self._texts is not None:
            self._texts.clear()
        if texts:
            self.add_lines("\n".join(texts))
        else:
            self.hold(Size(0, 0))


class WindowLog(RoundLog):
    """A log shown as a window on the newest lines, given whole at each update (the players' view: the last
    lines they may read). When the new window goes on from the one shown, the lines that left it are dropped
    from the top and the new ones appended, scrolled to in the same frame; otherwise (an undo, a line that
    became secret) the window is drawn again. It never shows a line the window no longer holds."""

    def __init__(self, *, id: str | None = None, min_width: int = 20) -> None:
        super().__init__(id=id, max_lines=None, min_width=min_width)
        self._heights: deque[int] = deque()
        """How many lines of the screen each text of the window takes at the width drawn."""

    @property
    def texts(self) -> list[str]:
        return list(self._texts or ())

    def show_window(self, texts: list[str]) -> None:
        shown = self.texts
        if texts == shown:
            return
        kept = _continued(shown, texts)
        if not kept or not self._wrapped_at:
            self._texts = deque(texts)
            if self._wrapped_at:
                self.clear()
                self._draw(texts)
            return
        dropped = len(shown) - kept
        assert self._texts is not None
        for _ in range(dropped):
            self._texts.popleft()
        gone = sum(self._heights.popleft() for _ in range(dropped))
        if gone:
            del self.lines[:gone]
            self.lines_dropped += gone
            self.refresh()
        added = texts[kept:]
        self._texts.extend(added)
        self._draw(added)
        if not added:
            self.virtual_size = Size(self.widest_line, len(self.lines))

    def _drop_lines(self) -> None:
        self._heights.clear()
        super()._drop_lines()

    def _draw(self, texts: Iterable[str]) -> None:
        width = max(self._wrapped_at, self.min_width)
        strips: list[Strip] = []
        for text in texts:
            wrapped = self._wrap(text, width)
            self._heights.append(len(wrapped))
            strips.extend(wrapped)
        self._append_strips(strips)


def _continued(shown: list[str], texts: list[str]) -> int:
    """How many of the last lines of ``shown`` begin ``texts`` (the most that do; 0 when none)."""
    for start in range(len(shown)):
        kept = len(shown) - start
        if kept <= len(texts) and shown[start:] == texts[:kept]:
            return kept
    return 0
