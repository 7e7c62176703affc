"""A text field whose editing keys keep their place among the characters typed around them."""

from __future__ import annotations

from textual import events
from textual.binding import BindingsMap
from textual.widgets import Input

from tui_combat.widgets.translated_bindings import merged_bindings

EDITING_KEYS = frozenset(BindingsMap(Input.BINDINGS).key_to_bindings)
"""The keys ``Input`` binds itself (not the scrolling keys it inherits, which give way to the screen's when
the field cannot scroll: the library's Down moves its list)."""


class TextField(Input):
    """An ``Input`` whose own keys (Backspace, ctrl+u, the arrows, Home …) act as the field takes them, in order
    with the characters typed before and after. A plain ``Input`` hands them on to the app, which runs them a
    moment later: "9", Backspace, "3" typed at once (a fast typist, a paste, a slow SSH link) left "3" or
    "93" depending on when the app got to the Backspace. Priority keys (a form's Enter) stay the app's."""

    async def on_key(self, event: events.Key) -> None:  # (runs before Input's own handler of a key)
        if event.key not in EDITING_KEYS:
            return
        for binding in merged_bindings(type(self)).key_to_bindings.get(event.key, ()):
            if not binding.priority and self.check_action(binding.action, ()) is not False:
                event.stop()
                event.prevent_default()
                await self.run_action(binding.action)
                return
