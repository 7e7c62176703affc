"""The footer of every screen: the keys that apply now, each drawn whole, help always among them.

:class:`KeyFooter` is one line it draws itself from the screen's ``active_bindings`` and the app's
``get_key_display``: each key is a run of cells it makes (the key, its description, the space after them),
so what it measures is what it draws, whatever the theme, the language or the terminal. The palette key
(``^p``) stands at the right end; keys that do not fit beside it are left out whole from the right, never
help (``F1``), which lists them with the palette. The session list, the set-up and the round's steps of the
built-in rulesets show every key that applies at 80 columns in English, Russian and Ukrainian, but for the
busiest (a D&D 5e turn with a tie to decide, or a dying creature): there, and with a GM's longer keys, a
ruleset's longer words or a narrower terminal, the keys at the end of the row give way.

When the keys that apply change (a step taken, Undo after the first action), the footer is told at once and
redraws the cells of its line that changed, in the frame of the key that changed them. Under a dialog, or
while a form lies over it, it waits until it is seen again. The amount prompt is drawn on its row
(:meth:`KeyFooter.draw_over`): opening and closing it redraws the cells of one line, and nothing is laid out.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from itertools import groupby
from typing import Any, NamedTuple, Self

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import ActiveBinding, Binding
from textual.dom import DOMNode
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from tui_combat.textual_ext.frames import told_at_once
from tui_combat.widgets.lines import changed_span

KEPT_ACTIONS = frozenset({"app.help", "help"})
"""Keys the footer keeps whatever the room: help lists every other key."""
PALETTE_EDGE = "▏"
"""Drawn before the palette key, at the right end."""


class FooterItem(NamedTuple):
    """One key of the row as the footer draws it, or a group of keys under one label (``keys``: one entry
    per key, each (key, as shown, action))."""

    keys: tuple[tuple[str, str, str], ...]
    description: str
    disabled: bool
    tooltip: str
    palette: bool = False

    @property
    def actions(self) -> tuple[str, ...]:
        return tuple(action for _key, _shown, action in self.keys)


class ShownKey(NamedTuple):
    """A key drawn in the footer, where it is on the screen (what tests and the walk through the screens
    read)."""

    key: str
    key_display: str
    description: str
    action: str
    disabled: bool
    palette: bool
    region: Region

    @property
    def label(self) -> str:
        """The key and its words as drawn ("n Next")."""
        return f"{self.key_display} {self.description}".strip()


class Placed(NamedTuple):
    item: FooterItem
    x: int
    width: int
    key_cells: tuple[int, ...]
    """Where each of its keys starts, from the item's start."""


Drawn = tuple[Strip, list[Placed], tuple[str, ...]]
"""A row as drawn: its cells, where each key lies, the keys left out."""
ROWS_KEPT = 8


class KeyFooter(Widget):
    """A footer that never lets a key go under the palette key, nor cuts help (see the module's
    documentation)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"footer-key--key", "footer-key--description", "footer--palette-edge"}
    DEFAULT_CSS = """
    KeyFooter {
        dock: bottom;
        height: 1;
        width: 1fr;
        color: $footer-foreground;
        background: $footer-background;
        & > .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .footer--palette-edge { color: $foreground 20%; }
    }
    """

    def __init__(self, *, compact: bool = False, id: str | None = None) -> None:
        super().__init__(id=id, classes="-compact" if compact else "")
        self.compact = compact
        self.show_command_palette = True
        self.left_out: tuple[str, ...] = ()
        """The actions of the keys that apply now but are left out of the row for want of room."""
        self.covered = False
        """The keys are not in sight (a form at the foot of the screen lies over the row, or the row shows the
        amount prompt's line): the keys that change meanwhile are drawn when it is uncovered (:meth:`show_row`)."""
        self._items: tuple[FooterItem, ...] | None = None
        """The keys that apply, as last read from the screen (None: not yet read)."""
        self._placed: list[Placed] = []
        self._strip: Strip | None = None
        self._strip_for: tuple[int, Style, Style, Style, Style] | None = None
        self._strip_items: tuple[FooterItem, ...] | None = None
        self._stale = True
        self._look: tuple[int, Style, Style, Style, Style] | None = None
        """The width and the styles the row is drawn in, worked out once for each width, theme and restyle (from
        every widget above the footer: some 0.3 ms at each redraw)."""
        self._look_theme = ""
        self._drawn: dict[tuple[tuple[int, Style, Style, Style, Style], tuple[FooterItem, ...]], Drawn] = {}
        """The rows drawn last, by look and keys: the keys of a turn come back (a damage applied, then undone)."""
        self.rows_drawn = 0
        """How many times the row was worked out into cells; for tests."""
        self._over: Callable[[int], Strip] | None = None
        """What the row shows in place of the keys (the amount prompt's line, at a width); None: the keys."""
        self._over_drawn: Strip | None = None
        """That line as the terminal was last told to show it."""

    # -- being told ----------------------------------------------------------------------------------
    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed, immediate=True)
        self.app.screen_change_signal.subscribe(self, self._screen_changed)
        self.bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)
        self.app.screen_change_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[Any]) -> None:
        """The screen's keys may have changed: the row is brought up to date now, when it can be seen."""
        self._stale = True
        self._bring_up_to_date()

    @property
    def drawn_over(self) -> bool:
        """The row shows another line than the keys (:meth:`draw_over`)."""
        return self._over is not None

    def draw_over(self, line: Callable[[int], Strip]) -> None:
        """The row shows ``line`` (given the width) in place of the keys until :meth:`show_row`; the keys that
        change meanwhile wait, as under a form. Only the cells that differ from what the row showed are sent."""
        before = self._over_drawn if self._over is not None else self._shown_keys()
        self.covered = True
        self._over, self._over_drawn = line, None
        self._redraw_over(before)

    def redraw_over(self) -> None:
        """The line drawn over the row changed: the cells that differ are redrawn."""
        if self._over is not None:
            self._redraw_over(self._over_drawn)

    def _redraw_over(self, before: Strip | None) -> None:
        if self._over is None or not self.is_attached or not self.size.width:
            return
        self._over_drawn = self._over(self.size.width)
        if self._redraw_cells(before, self._over_drawn):
            told_at_once(self)

    def _redraw_cells(self, before: Strip | None, after: Strip) -> bool:
        """The cells of the row that differ between what the terminal shows (``before``; None: not known) and
        ``after`` redrawn, the whole row when their widths differ; whether any was. Covered, the row puts off
        any redraw (:meth:`refresh`) but that of the line drawn over it."""
        redraw = partial(Widget.refresh, self) if self.covered else self.refresh
        if before is None or before.cell_length != after.cell_length:
            redraw()
            return True
        span = changed_span(before, after, after.cell_length)
        if span is None:
            return False
        redraw(Region(span[0], 0, span[1] - span[0], 1))
        return True

    def _shown_keys(self) -> Strip | None:
        """The keys' line as the terminal shows it, when known."""
        look = self._look
        if self._strip is None or look is None or self._strip_for != look or look[0] != self.size.width:
            return None
        return self._strip

    def show_row(self) -> None:
        """Uncovered (the prompt or the form over it has closed): the keys that changed meanwhile are drawn in
        the same frame (the screen told now: told when the row next idles, it drew them in a frame of its own
        after the one that uncovered it — Undo lit by the first action of a fight, some 30 ms later). After
        the prompt's line, only the cells that differ from it."""
        over, self._over, self._over_drawn = self._over_drawn, None, None
        self.covered = False
        if over is not None and self._seen():
            self._dropped = False
            if self._stale:
                self._stale = False
                self._items = self._read_items()
            if self._redraw_cells(over, self._line(self.size.width)):
                told_at_once(self)
            return
        redrawn = self._dropped
        if self._dropped:
            self._dropped = False
            self._strip_for = None
            self.refresh()
        if self._bring_up_to_date() or redrawn:
            told_at_once(self)

    _dropped = False
    """A redraw was asked for while covered: the row is drawn whole when it is uncovered."""

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        """Covered, a redraw is put off until the row is seen (redrawn under the prompt, the prompt's line
        would be sent again: the terminal shows the prompt over it)."""
        if self.covered and not (layout or recompose):
            self._dropped = True
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _screen_changed(self, screen: Screen[Any]) -> None:
        if screen is self.screen:
            self._bring_up_to_date()

    def on_resize(self, event: events.Resize) -> None:
        self._stale = True
        if self._over is not None:
            self._over_drawn = None
            self.redraw_over()
            return
        self._bring_up_to_date()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strip_for = self._look = None

    def _seen(self) -> bool:
        """Whether the row can be seen: under a dialog, redrawing it would make the dialog's screen redraw
        every cell (a screen behind a modal one sends its changes to the top); hidden or covered, it waits
        too."""
        return (
            self.is_attached
            and self.app.screen is self.screen
            and self.display
            and not self.covered
            and self.size.width > 0
        )

    def _bring_up_to_date(self) -> bool:
        """Whether the row was redrawn."""
        if not self._stale or not self._seen():
            return False
        self._stale = False
        items = self._read_items()
        if items == self._items and self._strip_for is not None and self._strip_for[0] == self.size.width:
            return False
        self._items = items
        old = self._strip if self._strip_for is not None else None
        return self._redraw_cells(old, self._line(self.size.width))

    # -- the row -------------------------------------------------------------------------------------
    def _read_items(self) -> tuple[FooterItem, ...]:
        """The keys that apply now, as the row shows them: one per action (its first key), keys bound under
        one group label side by side, the palette key last."""
        app = self.app
        active: dict[str, ActiveBinding] = self.screen.active_bindings
        first_of: dict[str, tuple[Binding, bool, str]] = {}
        for _node, binding, enabled, tooltip in active.values():
            if binding.show:
                first_of.setdefault(binding.action, (binding, enabled, tooltip))
        items: list[FooterItem] = []
        for group, members_iterable in groupby(first_of.values(), lambda member: member[0].group):
            members = list(members_iterable)
            if group is not None and len(members) > 1:
                items.append(
                    FooterItem(
                        tuple(
                            (binding.key, app.get_key_display(binding), binding.action) for binding, _e, _t in members
                        ),
                        group.description,
                        not any(enabled for _b, enabled, _t in members),
                        "",
                    )
                )
                continue
            for binding, enabled, tooltip in members:
                items.append(
                    FooterItem(
                        ((binding.key, app.get_key_display(binding), binding.action),),
                        binding.description,
                        not enabled,
                        tooltip or binding.tooltip,
                    )
                )
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            palette = active.get(app.COMMAND_PALETTE_BINDING)
            if palette is not None:
                binding = palette.binding
                items = [item for item in items if binding.action not in item.actions]
                items.append(
                    FooterItem(
                        ((binding.key, app.get_key_display(binding), binding.action),),
                        binding.description,
                        not palette.enabled,
                        binding.tooltip or binding.description,
                        palette=True,
                    )
                )
        return tuple(items)

    def _pieces(self, item: FooterItem, key_style: Style, words_style: Style) -> list[Segment]:
        """The cells of one key as drawn: compact, "k Words" and a space; else " k " and "Words ". Keys of a
        group stand side by side before their label."""
        segments: list[Segment] = []
        pad = "" if self.compact else " "
        for _key, shown, _action in item.keys:
            segments.append(Segment(f"{pad}{shown}{pad}", key_style))
        if item.description:
            words = f" {item.description}" if self.compact else f"{item.description} "
            segments.append(Segment(words, words_style))
        if self.compact and not item.palette:
            segments.append(Segment(" ", self.rich_style))
        return segments

    def _line(self, width: int) -> Strip:
        """The row at ``width`` columns, those keys left out that do not fit (noted in :attr:`left_out`)."""
        look = self._look
        if look is None or look[0] != width or self._look_theme != self.app.theme:
            look = self._look = (
                width,
                self.rich_style,
                self.get_component_rich_style("footer-key--key"),
                self.get_component_rich_style("footer-key--description"),
                self.get_component_rich_style("footer--palette-edge"),
            )
            self._look_theme = self.app.theme
        _width, base, key_style, words_style, edge_style = look
        if self._items is None:
            self._items = self._read_items() if self.is_attached else ()
        if self._strip is not None and self._strip_for == look and self._strip_items is self._items:
            return self._strip
        drawn_before = self._drawn.get((look, self._items))
        if drawn_before is not None:
            self._strip, self._placed, self.left_out = drawn_before
            self._strip_for, self._strip_items = look, self._items
            return self._strip
        self.rows_drawn += 1
        dim = Style(dim=True)
        drawn: list[tuple[FooterItem, list[Segment]]] = []
        palette_segments: list[Segment] = []
        palette_item: FooterItem | None = None
        for item in self._items:
            keys, words = (key_style + dim, words_style + dim) if item.disabled else (key_style, words_style)
            pieces = self._pieces(item, keys, words)
            if item.palette:
                palette_item = item
                palette_segments = [Segment(PALETTE_EDGE, edge_style), *pieces]
            else:
                drawn.append((item, pieces))
        room = width - sum(cell_len(segment.text) for segment in palette_segments)
        widths = [sum(cell_len(segment.text) for segment in pieces) for _item, pieces in drawn]
        total = sum(widths)
        left_out: list[str] = []
        for index in reversed(range(len(drawn))):
            if total <= room:
                break
            item = drawn[index][0]
            if len(item.keys) == 1 and item.actions[0] not in KEPT_ACTIONS:
                left_out.extend(item.actions)
                total -= widths[index]
                widths[index] = -1
        self.left_out = tuple(left_out)
        segments: list[Segment] = []
        placed: list[Placed] = []
        x = 0
        for (item, pieces), item_width in zip(drawn, widths):
            if item_width < 0:
                continue
            placed.append(Placed(item, x, item_width, self._key_starts(item)))
            segments.extend(pieces)
            x += item_width
        if palette_item is not None:
            palette_width = width - room
            segments.append(Segment(" " * max(room - x, 0), base))
            placed.append(Placed(palette_item, width - palette_width, palette_width, self._key_starts(palette_item, 1)))
            segments.extend(palette_segments)
        self._placed = placed
        self._strip = Strip(segments).crop_extend(0, width, base).simplify()
        self._strip_for, self._strip_items = look, self._items
        if len(self._drawn) >= ROWS_KEPT:
            self._drawn.pop(next(iter(self._drawn)))
        self._drawn[look, self._items] = (self._strip, placed, self.left_out)
        return self._strip

    def _key_starts(self, item: FooterItem, offset: int = 0) -> tuple[int, ...]:
        starts, x = [], offset
        for _key, shown, _action in item.keys:
            starts.append(x)
            x += cell_len(shown) + (0 if self.compact else 2)
        return tuple(starts)

    def render_line(self, y: int) -> Strip:
        if self._over is not None:
            width = self.size.width
            if self._over_drawn is None or self._over_drawn.cell_length != width:
                self._over_drawn = self._over(width)
            return self._over_drawn
        return self._line(self.size.width)

    # -- what is drawn where -------------------------------------------------------------------------
    def room(self) -> int:
        """Columns of the footer's row."""
        return self.size.width or self.screen.size.width or self.app.size.width

    def shown(self) -> list[ShownKey]:
        """The keys drawn, each where it is on the screen (a group's keys each on its own cells)."""
        if not self.display or not self.region.width or self._over is not None:
            return []
        self._line(self.size.width)
        left, top = self.region.x, self.region.y
        keys: list[ShownKey] = []
        for placed in self._placed:
            item = placed.item
            for index, (key, shown, action) in enumerate(item.keys):
                if len(item.keys) == 1:
                    start, width = placed.x, placed.width
                else:
                    start = placed.x + placed.key_cells[index]
                    width = cell_len(shown)
                keys.append(
                    ShownKey(
                        key,
                        shown,
                        item.description,
                        action,
                        item.disabled,
                        item.palette,
                        Region(left + start, top, width, 1),
                    )
                )
        return keys

    def labels(self) -> list[str]:
        """Each key (or group of keys) as its words read on the row: "n Next", "←→ Action"."""
        if self._over is not None:
            return []
        self._line(self.size.width)
        return [
            f"{''.join(shown for _key, shown, _action in placed.item.keys)} {placed.item.description}".strip()
            for placed in self._placed
        ]

    def _at(self, x: int) -> Placed | None:
        if self._over is not None:
            return None
        return next((placed for placed in self._placed if placed.x <= x < placed.x + placed.width), None)

    def on_click(self, event: events.Click) -> None:
        placed = self._at(event.x)
        if placed is None:
            return
        event.stop()
        if placed.item.disabled:
            self.app.bell()
        else:
            self.app.simulate_key(placed.item.keys[0][0])

    def on_mouse_move(self, event: events.MouseMove) -> None:
        placed = self._at(event.x)
        tooltip = placed.item.tooltip if placed is not None else ""
        if (self.tooltip or "") != tooltip:
            self.tooltip = tooltip or None


def shown_keys(node: DOMNode) -> list[ShownKey]:
    """The footer keys drawn under ``node`` (a screen, a footer)."""
    footers = [node] if isinstance(node, KeyFooter) else list(node.query(KeyFooter))
    return [key for footer in footers for key in footer.shown()]
