"""The round screen's containers, laid out without being drawn twice.

Upstream: when a layout changes a widget's size, Textual sets the widget's virtual size, and a widget's virtual
size asks, when it changes, for a repaint of the whole widget and for a second layout. The layout's own frame has
drawn every widget that moved or changed size already; the second layout finds nothing moved, but the repaint of a
container redraws every widget in it: a step of the round that changes the height of its hint (and with it the
height of the turn list and the side) wrote the whole screen twice, 11 KB. These containers (and
:class:`tui_combat.widgets.lines.TextLines`) ask only for that second layout: a widget whose look changes asks
for its own repaint, as it always does.
"""

from __future__ import annotations

from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.reactive import Reactive


class Row(Horizontal):
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=True, repaint=False)


class Column(Vertical):
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=True, repaint=False)


class ScrollColumn(VerticalScroll):
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=True, repaint=False)
