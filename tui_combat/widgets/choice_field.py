"""A form's list field, drawn by itself: the choice taken and the arrow on one line.

Textual's list field shows its choice through a part of three widgets (the choice's text and two arrows), each
laid out, styled and drawn as a form opens: the attack form's two lists were eight of its twenty-one widgets on
the screen. This field keeps those parts (Textual's list looks for them) but hidden, and draws the line they drew
itself: the choice's text in the columns left of the arrow (cut short with "…" when it is longer), ``▼``, or
``▲`` while the list is open. Its open list is Textual's own, shown over the form as before."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.content import Content
from textual.dom import DOMNode
from textual.widget import Widget
from textual.widgets import OptionList

from tui_combat.textual_ext.frames import told_at_once
from tui_combat.widgets.type_ahead import TypeAheadSelect

ARROW_WIDTH = 3
"""The columns right of the choice: a blank, the arrow, a blank (as Textual's compact list field draws them)."""


class ChoiceField(TypeAheadSelect):
    """A form's list field; typing a choice's name goes to it (:class:`TypeAheadSelect`). It always holds one of
    its choices (a form's list has no blank one). Its look as it gains or loses the focus is worked out once for
    each look (see :meth:`restyle`)."""

    DEFAULT_CSS = """
    ChoiceField { height: 1; background: $surface; color: $foreground; }
    ChoiceField:focus { background-tint: $foreground 5%; }
    ChoiceField > OptionList { offset: 0 1; }
    ChoiceField > .choice-field--arrow { color: $foreground 50%; }
    ChoiceField:ansi { background: ansi_default; color: ansi_default; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"choice-field--arrow"}

    def __init__(self, options: Any, **kwargs: Any) -> None:
        self._shown: dict[Any, str] = {}
        """Each choice's text, by its value."""
        super().__init__(options, **{**kwargs, "allow_blank": False})
        self._looks: dict[tuple[object, ...], tuple[object, dict[tuple[Any, ...], Any]]] = {}
        """The rules the field was given, by the focus and the classes of the field and those around it, while
        the stylesheet is the same (its rules are made anew when the theme or the CSS changes)."""

    _given: tuple[tuple[object, ...], object, list[DOMNode]] | None = None
    """The look (the focus first), the stylesheet's rules and the parts shown it was last restyled with."""

    def _remember(self, options: list[Any]) -> None:
        super()._remember(options)
        self._shown = dict(zip(self._values, self._labels, strict=True))

    def compose(self) -> ComposeResult:
        # Textual's parts: the one that shows the choice is kept (the list updates it) but never drawn; the open
        # list is shown as the field opens.
        for part in super().compose():
            if not isinstance(part, OptionList):
                part.display = False
            yield part

    @property
    def shown_text(self) -> str:
        """The text of the choice taken, whole (the field may show it cut short)."""
        return self._shown.get(self.value, "")

    def render(self) -> Content:
        width = self.content_size.width
        room = max(width - ARROW_WIDTH, 0)
        text = Content(self.shown_text)
        if text.cell_length > room:
            text = text.truncate(room, ellipsis=True)
        arrow = Content("▲" if self.expanded else "▼").stylize(self.get_visual_style("choice-field--arrow"))
        return Content.assemble(text.pad_right(room - text.cell_length), " ", arrow, " ")

    def watch_value(self, value: object) -> None:
        self.refresh()

    def watch_expanded(self, expanded: bool) -> None:
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        # (a click on a choice of the open list is the list's own)
        if event.widget is not self:
            return
        event.stop()
        if self.expanded:
            self.expanded = False
        else:
            self.action_show_overlay()

    @property
    def looks_stale(self) -> bool:
        """The focus left while the field was hidden (its form closed) and it was not restyled: it still looks
        focused, until :meth:`restyle` (see :meth:`FormPanel.ask`)."""
        return self._given is not None and self._given[0][0] is True and not self.has_focus

    def watch_has_focus(self, value: bool) -> None:
        # A field hidden with its form (closed) is not restyled as the focus leaves it: nobody sees it, and
        # restyled again as the form opens on it, it would be drawn anew. One opened again without the focus is
        # restyled then.
        if not value and not all(node.display for node in self.ancestors_with_self):
            return
        self.restyle(value)

    def restyle(self, value: bool) -> None:
        # Textual's own restyles the field and all its parts, its list of choices too; the list is hidden and
        # looks the same with the focus or without (it is restyled as it opens). The field's rules are worked
        # out once for each look, and given again as they were after. A restyle tells the screen when it next
        # idles, which may come after the screen has drawn the frame of the key that moved the focus (a form
        # opened: its list field drawn focused in a second frame, some 20 ms later); told at once, it makes that
        # frame.
        parts = [part for child in self.children if child.display for part in child.walk_children(with_self=True)]
        stylesheet = self.app.stylesheet
        look = (value, *(node.classes for node in self.ancestors_with_self))
        kept = self._looks.get(look)
        if kept is None or kept[0] is not stylesheet.rules_map:
            kept = self._looks[look] = (stylesheet.rules_map, {})
        last = self._given
        if last is not None and last[0] == look and last[1] is stylesheet.rules_map and last[2] == parts:
            return  # (left looking focused as its form closed, and focused again as it opens: it looks so)
        self._given = (look, stylesheet.rules_map, parts)
        for node in (self, *parts):
            stylesheet.apply(node, animate=True, cache=kept[1])
        for node in (self, *parts):
            if isinstance(node, Widget):
                told_at_once(node)
