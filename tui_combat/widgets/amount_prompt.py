"""A one-line prompt at the bottom of the round screen, over the footer, for an amount given to a
combatant (damage, healing, the damage a hit calls for): typed as a number, or as dice the app rolls.

A modal form over the turn list redraws every cell of the terminal when it opens and again when it closes
(some 14 KB at 80×24, slow over SSH); the prompt lies over the footer's line on a layer of its own, so
opening and applying it send that line and what the amount changed, whatever the size of the fight, and the
footer's keys stay where they are under it (neither hidden nor shown and laid out again).

It lives while it has the focus: Enter reads what was typed (once the field has taken every key typed
before the Enter), Esc, or the focus going elsewhere, leaves it. A refusal (a wrong dice expression, a
negative amount, a rule) is shown above the line, and what was typed stays to be mended.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Self

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.geometry import Region
from textual.reactive import reactive
from textual.widgets import Input, Static

from tui_combat.i18n import N_, _
from tui_combat.widgets.text_field import TextField

Submit = Callable[[str], str | None]
"""Given what was typed: None when it was taken (the prompt closes), else the refusal to show."""


class AmountField(TextField):
    """The prompt's field: editing keys in order with the characters (see :class:`TextField`)."""

    cursor_blink = reactive(False, init=False)
    """A steady cursor: a blinking one is a frame every half second, sent over SSH too, and a key typed just
    after one waits for the next frame Textual allows (up to 1/60 s)."""

    restyled = 0
    """How many times the field's styles were worked out; for tests."""

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        # Its size is fixed (``#prompt-field``), so what is typed never moves anything: Textual's Input asks for
        # a layout of the whole screen at each character typed (its virtual size follows the text), some
        # 1.7 ms of every key. Redrawing the field is enough; the prompt lays itself out as it opens.
        return super().refresh(*regions, repaint=repaint or layout, layout=False, recompose=recompose)

    _styled_focused = False
    """The field's styles were last worked out while it had the focus."""

    def update_node_styles(self, animate: bool = True) -> None:
        # The focus leaves the field as its prompt closes, on the key that applies: hidden, it need not look
        # unfocused (Textual would restyle the field and its parts for nothing, a millisecond of that key).
        if any(isinstance(node, AmountPrompt) and not node.display for node in self.ancestors):
            return
        self.restyled += 1
        super().update_node_styles(animate)

    def watch_has_focus(self, has_focus: bool) -> None:
        # Shown only while it has the focus, the field keeps the styles it was last given focused (see
        # update_node_styles): worked out again as the prompt opens, they would come out the same.
        if has_focus and self._styled_focused:
            return
        super().watch_has_focus(has_focus)

    def notify_style_update(self) -> None:
        self._styled_focused = self.has_focus  # (however its styles were worked out: a new theme, say)
        super().notify_style_update()


class AmountPrompt(Vertical):
    DEFAULT_CSS = """
    AmountPrompt { dock: bottom; layer: foot; height: auto; display: none; background: $panel; }
    AmountPrompt #prompt-error { height: auto; padding: 0 1; color: $text-error; text-style: bold; display: none; }
    AmountPrompt #prompt-note { height: auto; padding: 0 1; color: $text-warning; display: none; }
    AmountPrompt #prompt-row { height: 1; }
    AmountPrompt #prompt-title { width: auto; max-width: 50%; margin: 0 1; text-wrap: nowrap; text-overflow: ellipsis;
                                 text-style: bold; }
    AmountPrompt #prompt-field { width: 14; }
    AmountPrompt #prompt-keys { width: 1fr; padding: 0 1; color: $text-muted; text-wrap: nowrap;
                                text-overflow: ellipsis; }
    """
    # Taken as they arrive, before the field sees them: the keys typed just after Enter are held until what
    # was typed before it is read (see :meth:`hold_key`).
    BINDINGS = [
        Binding("enter", "apply", N_("Apply"), id="prompt.apply", show=False, priority=True),
        Binding("escape", "cancel", N_("Cancel"), id="prompt.cancel", show=False, priority=True),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._submit: Submit | None = None
        self._on_close: Callable[[], None] | None = None
        self._resized: Callable[[], None] | None = None
        self._held: list[events.Key] | None = None
        """Keys typed after Enter while what was typed before it is read; None when not reading."""
        self._lines: dict[str, str] = {}
        """What the prompt's lines show (a Static rewrites its whole line at each update, and asks for a layout)."""
        self._keys_when_empty = self._keys_typed = ""
        self.field = AmountField(id="prompt-field", compact=True, select_on_focus=False)
        self._parts = {
            name: Static("", id=name[1:]) for name in ("#prompt-error", "#prompt-note", "#prompt-title", "#prompt-keys")
        }
        """The prompt's lines, by selector: made once and kept (no search of the screen at each key)."""

    def compose(self) -> ComposeResult:
        yield self._parts["#prompt-error"]
        yield self._parts["#prompt-note"]
        with Horizontal(id="prompt-row"):
            yield self._parts["#prompt-title"]
            yield self.field
            keys = self._lines["#prompt-keys"] = _("Enter: apply · Esc: cancel")
            self._parts["#prompt-keys"].update(keys)
            yield self._parts["#prompt-keys"]

    @property
    def is_open(self) -> bool:
        return self._submit is not None

    @property
    def error_text(self) -> str:
        error = self._parts["#prompt-error"]
        return str(error.render()) if error.display else ""

    def ask(
        self,
        title: str,
        submit: Submit,
        on_close: Callable[[], None],
        placeholder: str = "",
        *,
        keys: str = "",
        note: str = "",
        typed_keys: str = "",
        resized: Callable[[], None] | None = None,
    ) -> None:
        """Open with ``title`` and an empty field, which takes the keys at once (a key typed right after the
        one that opened the prompt lands in it). ``keys`` says what Enter does while nothing is typed, and
        ``typed_keys`` once something is (by default: it applies it); ``note`` (a rule of this amount: a critical
        hit's dice twice) shows above the line.
        ``on_close`` runs when it closes, taken or left; ``resized`` each time it is laid out at a new size
        while open (shown, a note or a refusal above its line)."""
        self._submit, self._on_close, self._resized = submit, on_close, resized
        self._show_line("#prompt-title", title, always=True)
        self._show_error("")
        self._show_line("#prompt-note", note)
        self._keys_when_empty, self._keys_typed = keys, typed_keys
        self._show_keys("")
        field = self.field
        field.value = ""
        field.placeholder = placeholder or _("7 or 2d6+1")
        self.display = True
        self.screen.set_focus(field, scroll_visible=False)

    def _show_keys(self, typed: str) -> None:
        """What Enter does: ``keys`` of :meth:`ask` while nothing is typed (roll the hit's dice), else apply."""
        when_empty = self._keys_when_empty
        typed_keys = self._keys_typed or _("Enter: apply · Esc: cancel")
        self._show_line("#prompt-keys", when_empty if when_empty and not typed else typed_keys, always=True)

    def on_resize(self, event: events.Resize) -> None:
        if self.is_open and self._resized is not None:
            self._resized()

    def on_input_changed(self, event: Input.Changed) -> None:
        if self.is_open:
            self._show_keys(event.value)

    def _show_line(self, selector: str, text: str, *, always: bool = False) -> None:
        """A line of the prompt shown with ``text`` (hidden when there is none), redrawn only when it changed."""
        line = self._parts[selector]
        if self._lines.get(selector) != text:
            self._lines[selector] = text
            line.update(Text(text))
        line.display = always or bool(text)

    def close(self) -> None:
        if not self.is_open:
            return
        self._submit, self._held = None, None
        self.display = False  # hidden, nothing reaches the field: neither Tab nor the mouse
        # Emptied once the frame of the key that closed it is out: a new value goes through the field's
        # watchers and its Changed message up to the app, some half a millisecond of an Enter.
        self.call_after_refresh(self._empty_when_closed)
        on_close, self._on_close, self._resized = self._on_close, None, None
        if on_close is not None:
            on_close()

    def _empty_when_closed(self) -> None:
        if not self.is_open:
            self.field.value = ""

    def _show_error(self, message: str) -> None:
        self._show_line("#prompt-error", message)

    def hold_key(self, event: events.Key) -> bool:
        """Keep a key that arrives while what was typed before Enter is being read; the app asks before it
        handles each key. They are handled after: on the round screen when the amount was taken, in the field
        when it was refused."""
        if self._held is None:
            return False
        self._held.append(events.Key(event.key, event.character))
        return True

    def action_apply(self) -> None:
        if self._held is not None:
            return
        self._held = []
        self.field.call_later(self._apply_now)  # after the field has taken the keys typed before the Enter

    async def _apply_now(self) -> None:
        held, self._held = self._held or [], None
        if self._submit is None:
            return
        refusal = self._submit(self.field.value)
        if refusal is None:
            self.close()
        else:
            self._show_error(refusal)
        for key in held:
            await self.app.on_event(key)

    def action_cancel(self) -> None:
        self.close()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        # The focus went elsewhere (Tab, help): the prompt is left, as Esc leaves it.
        if self.is_open and self._held is None and self.screen.focused is not self.field:
            self.close()
