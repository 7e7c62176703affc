"""The footer of every screen: the keys that apply now, each drawn whole, help always among them.

Textual's footer lays its keys out in a row and docks the palette key (``^p``) over its right end: keys
that do not fit go on under the palette key, cut in the middle of a word, and help, which comes last, is
the first to disappear. :class:`KeyFooter` works out, before it composes, how many columns its keys take
(the key, its description and the spacing of the footer's style), and leaves out whole keys from the right
until the rest fit beside the palette key; help (``F1``) is never left out. What it leaves out stays in
help and in the palette. The session list, the set-up and the round's steps of the built-in rulesets show
every key that applies at 80 columns in English, Russian and Ukrainian, but for the busiest (a D&D 5e
turn with a tie to decide, or a dying creature): there, and with a GM's longer keys, a ruleset's longer
words or a narrower terminal, the keys at the end of the row give way.

When the keys that apply change (a step taken, Undo after the first action), Textual's footer composes its
row anew once the screen has refreshed: every key removed and mounted, in a frame of its own some 40 ms after
the key that changed them. :class:`KeyFooter` is told at once and changes the keys already drawn, showing
spare ones kept hidden for keys added, so that the row is drawn in the frame of that key.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any, NamedTuple

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.dom import DOMNode
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

SPARE_KEYS = 3
"""Keys composed hidden beside those drawn, shown when keys come (Undo after the first action, a step's keys):
mounting one would land in a frame of its own."""

KEPT_ACTIONS = frozenset({"app.help", "help"})
"""Keys the footer keeps whatever the room: help lists every other key."""


def key_width(key_display: str, description: str, compact: bool) -> int:
    """Columns a footer key takes, with the space after it (Textual's footer style, compact or not)."""
    if compact:  # "k Description" then a margin of one
        return cell_len(key_display) + (1 + cell_len(description) if description else 0) + 1
    return 1 + cell_len(key_display) + 1 + (cell_len(description) + 1 if description else 0)  # " k Description "


def group_width(key_displays: list[str], label: str, compact_group: bool) -> int:
    """Columns a group of keys under one label takes ("←→ One action"), with the space after it: a compact
    group's keys side by side after a space, others each with a space either side."""
    keys = sum(cell_len(display) for display in key_displays)
    if compact_group:
        return 1 + keys + 1 + cell_len(label) + 1
    return keys + 4 * len(key_displays) + cell_len(label) + 1


def palette_width(key_display: str, description: str, compact: bool) -> int:
    """Columns the palette key takes at the right end: a border, "^p", a space and its word (and a space
    after it when the footer is not compact)."""
    return 1 + cell_len(key_display) + 1 + cell_len(description) + (0 if compact else 1)


class SteadyKey(FooterKey):
    """A footer key whose new size asks for no second layout once it is laid out: Textual's ``virtual_size``
    would, and the row would be sent again, the same, in a frame of its own some 20 ms later (a key changes
    width when it takes on another key)."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)


class KeyFooter(Footer):
    """A footer that never lets a key go under the palette key (see the module's documentation)."""

    DEFAULT_CSS = """
    KeyFooter.-compact FooterKey.-command-palette { margin-right: 0; padding-right: 0; }
    KeyFooter FooterKey.-command-palette { margin-right: 0; padding-right: 1; }
    """
    # The palette key ends at the right edge: a compact footer gave it the margin of the other keys, and
    # there the key under it showed through ("меню" then a letter of the key under it).

    def __init__(self, *, compact: bool = False, id: str | None = None) -> None:
        super().__init__(compact=compact, id=id)
        self.left_out: tuple[str, ...] = ()
        """The actions of the keys that apply now but are left out of the row for want of room."""
        self._composed_for = 0
        self._stale = False
        """The keys changed since the row was last worked out (while a dialog covered it, it waits)."""
        self._composed_row: tuple[object, ...] = ()
        """The keys the row was composed from (:meth:`keys_shown`)."""
        self.covered = False
        """Something lies over the row (the amount prompt or a form at the foot of the screen): as when it is
        hidden, the keys that change meanwhile are drawn when it is uncovered (:meth:`show_row`)."""

    def bindings_changed(self, screen: Screen[Any]) -> None:
        self._bindings_ready = True
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self._stale = True
            self._bring_up_to_date()

    def show_row(self) -> None:
        """Uncovered (the prompt or the form over it has closed): the keys that changed meanwhile are drawn in
        the same frame."""
        self.covered = False
        if self._stale:
            self._bring_up_to_date()

    def _bring_up_to_date(self) -> None:
        if not self._update_now():
            self.call_after_refresh(self._recompose_if_shown)

    def _stale_and_seen(self) -> bool:
        """Stale, and to be seen: under a dialog the footer cannot be seen, and redrawing it there would make
        the dialog's screen redraw every cell (a screen behind a modal one sends its changes to the top); it
        is worked out again when its screen is shown. Hidden or covered (a prompt or a form over it), it waits
        too."""
        return self._stale and self.is_attached and self.app.screen is self.screen and self.display and not self.covered

    def _update_now(self) -> bool:
        """The row brought up to date in the frame being made, when it can be; False when it waits (see
        :meth:`_stale_and_seen`) or is to be composed anew."""
        if not self._stale_and_seen():
            return False
        active = self.screen.active_bindings  # (worked out anew at each call: once here)
        shown = self.keys_shown(active)
        if shown == self._composed_row:  # the keys came back as they were: the row drawn stands
            self._stale = False
            return True
        if self._update_in_place(active, shown):
            self._stale = False
            return True
        return False

    async def _recompose_if_shown(self) -> None:
        if not self._update_now() and self._stale_and_seen():
            self._stale = False
            with self._context():  # (asked for while the screen's callbacks run: the keys bind to this footer)
                await self.recompose()

    def _update_in_place(self, active: dict[str, ActiveBinding], shown: tuple[object, ...]) -> bool:
        """The row made again from the keys already there: each drawn key takes on the key now in its place,
        spare keys (hidden) are shown for keys added and keys no longer there are hidden as spares. Composing
        the row anew (Textual's way) removes and mounts every key, and a key mounted lands in a frame of its
        own, some 40 ms after the key that changed the row (Undo after the first action); a spare one lands
        in the same frame. False, and nothing changed, when keys are grouped under one label (those are
        composed anew)."""
        present = [widget for widget in self.children if isinstance(widget, SteadyKey)]
        grouped = any(binding.group is not None for _node, binding, _enabled, _tooltip
                      in active.values() if binding.show)
        if grouped or len(present) != len(self.children):
            return False
        wanted = self._wanted_keys(active, shown)
        old_palette = [key for key in present if key.has_class("-command-palette")]
        new_palette = [key for key in wanted if key.palette]
        if len(old_palette) != len(new_palette):  # (the first row, or the palette key came or went)
            self._composed_row = ()  # not made: composed anew
            return False
        drawn = [key for key in present if key.display and not key.has_class("-command-palette")]
        spare = [key for key in present if not key.display]
        new_keys = [key for key in wanted if not key.palette]
        for old, new in (*zip(drawn, new_keys), *zip(old_palette, new_palette)):
            _take_over(old, new)
        added = new_keys[len(drawn):]
        # The keys shown come first among the others (the palette key is docked apart): the first hidden ones
        # are shown in order, the last shown hidden, and keys mounted go at the end.
        for key, new in zip(spare, added):
            _take_over(key, new)
            key.display = True
        if len(added) > len(spare):  # more keys than ever: mounted (a frame of their own)
            with self._context():  # (the keys bind to this footer's ``compact``, as when Textual composes it)
                self.mount_all([_made(new) for new in added[len(spare):]])
        for gone in drawn[len(new_keys):]:
            gone.display = False
        # Each key would tell the screen of its change when it next idles, which may come after the frame
        # being made (then the row comes again in a frame of its own): told now, they make that frame.
        for widget in (self, *present):
            widget._check_refresh()
        return True

    def keys_shown(self, active: dict[str, ActiveBinding] | None = None) -> tuple[object, ...]:
        """What the row is made of: each key shown, as drawn and whether it applies, and the room."""
        app = self.app
        return (self.room(), *((app.get_key_display(binding), binding.action, binding.description, enabled)
                               for _node, binding, enabled, _tooltip
                               in (self.screen.active_bindings if active is None else active).values()
                               if binding.show))

    # Textual calls Footer's own on_mount and on_unmount too (each class's handler of an event runs): calling
    # them here as well would subscribe to the keys' changes twice.
    def on_mount(self) -> None:
        self.app.screen_change_signal.subscribe(self, self._screen_changed)
        self.call_later(self._told_at_once)

    def _told_at_once(self) -> None:
        # Footer's own subscription is told of new keys only once the footer's messages come round, after the
        # frame of the key that changed them: told at once, the keys are drawn in that frame.
        signal = self.screen.bindings_updated_signal
        signal.unsubscribe(self)
        signal.subscribe(self, self.bindings_changed, immediate=True)

    def on_unmount(self) -> None:
        self.app.screen_change_signal.unsubscribe(self)

    def _screen_changed(self, screen: Screen[Any]) -> None:
        if self._stale and screen is self.screen and self.is_attached:
            self.call_after_refresh(self._recompose_if_shown)

    def room(self) -> int:
        """Columns of the footer's row."""
        return self.size.width or self.screen.size.width or self.app.size.width

    def compose(self) -> ComposeResult:
        yield from self._row()
        if self._bindings_ready:
            for _ in range(SPARE_KEYS):
                yield _spare()

    def _row(self) -> ComposeResult:
        """The keys of the row (Textual's footer's, each key a :class:`SteadyKey`), those that do not fit left
        out; noted as the row composed."""
        if self._bindings_ready:
            active = self.screen.active_bindings
            self._note_row(active, self.keys_shown(active))
        else:
            self.left_out, self._composed_for, self._composed_row = (), self.room(), ()
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.action in self.left_out:
                continue
            yield _steady(widget) if type(widget) is FooterKey else widget

    def _wanted_keys(self, active: dict[str, ActiveBinding], shown: tuple[object, ...]) -> list[WantedKey]:
        """The keys of a row without groups, as :meth:`_row` would compose them, but not made into widgets
        (a dozen made and thrown away took some 2 ms of a key that changed the row); noted as the row
        composed."""
        self._note_row(active, shown)
        app = self.app
        first_of: dict[str, tuple[Binding, bool, str]] = {}
        for _node, binding, enabled, tooltip in active.values():
            if binding.show:
                first_of.setdefault(binding.action, (binding, enabled, tooltip))
        wanted = [WantedKey(binding.key, app.get_key_display(binding), binding.description, action, not enabled,
                            tooltip or None)
                  for action, (binding, enabled, tooltip) in first_of.items() if action not in self.left_out]
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            palette = active.get(app.COMMAND_PALETTE_BINDING)
            if palette is not None:
                _node, binding, enabled, _tooltip = palette
                wanted.append(WantedKey(binding.key, app.get_key_display(binding), binding.description,
                                        binding.action, not enabled, binding.tooltip or binding.description,
                                        palette=True))
        return wanted

    def _note_row(self, active: dict[str, ActiveBinding], shown: tuple[object, ...]) -> None:
        """Note the row as composed now: the keys left out, the room, what it is made of (``shown``)."""
        self.left_out = self._left_out(active)
        self._composed_for = self.room()
        self._composed_row = shown

    def _left_out(self, active: dict[str, ActiveBinding] | None = None) -> tuple[str, ...]:
        """The actions to leave out, from the right end of the row, so that the rest fits; never help."""
        app = self.app
        active = self.screen.active_bindings if active is None else active
        by_action: dict[str, list[Binding]] = {}
        for _node, binding, _enabled, _tooltip in active.values():
            if binding.show:
                by_action.setdefault(binding.action, []).append(binding)
        # As the footer lays them out: a group of several keys under one label, each other key on its own.
        items: list[tuple[str | None, int]] = []  # (the action one may leave out, or None; columns)
        for group, members_iterable in groupby(by_action.values(), lambda bindings: bindings[0].group):
            members = list(members_iterable)
            if group is not None and len(members) > 1:
                items.append((None, group_width([app.get_key_display(m[0]) for m in members], group.description,
                                                group.compact)))
            else:
                for bindings in members:
                    first = bindings[0]
                    items.append((first.action, key_width(app.get_key_display(first), first.description,
                                                          self.compact)))
        room = self.room()
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            palette = active.get(app.COMMAND_PALETTE_BINDING)
            if palette is not None:
                room -= palette_width(app.get_key_display(palette.binding), palette.binding.description,
                                      self.compact)
        left_out: list[str] = []
        total = sum(width for _action, width in items)
        for action, width in reversed(items):
            if total <= room:
                break
            if action is None or action in KEPT_ACTIONS:
                continue
            left_out.append(action)
            total -= width
        return tuple(left_out)

    def _on_resize(self, event: events.Resize) -> None:
        if self._bindings_ready and self.is_attached and event.size.width != self._composed_for:
            self.call_after_refresh(self.recompose)


class WantedKey(NamedTuple):
    """A key of the row as Textual's footer would compose it."""
    key: str
    key_display: str
    description: str
    action: str
    disabled: bool
    tooltip: str | None
    palette: bool = False


def _take_over(drawn: FooterKey, wanted: WantedKey) -> None:
    """``drawn`` shows ``wanted``: its key, words, action and state; redrawn, and laid out again when its width
    changes, only when it differs."""
    shown = (drawn.key, drawn.key_display, drawn.description, drawn.action, drawn._disabled, drawn.tooltip)
    if shown == (wanted.key, wanted.key_display, wanted.description, wanted.action, wanted.disabled, wanted.tooltip):
        return
    width = cell_len(drawn.key_display) + cell_len(drawn.description)
    drawn.key, drawn.key_display, drawn.description, drawn.action = (
        wanted.key, wanted.key_display, wanted.description, wanted.action)
    drawn._disabled = wanted.disabled
    drawn.set_class(wanted.disabled, "-disabled")
    drawn.tooltip = wanted.tooltip
    drawn.refresh(layout=width != cell_len(wanted.key_display) + cell_len(wanted.description))


def _made(wanted: WantedKey, classes: str = "") -> SteadyKey:
    """A key for ``wanted``, bound to the footer's ``compact`` as Textual's footer binds its keys (made under the
    footer's context); the palette key is not."""
    if wanted.palette:
        classes = f"{classes} -command-palette".strip()
    key = SteadyKey(wanted.key, wanted.key_display, wanted.description, wanted.action, disabled=wanted.disabled,
                    tooltip=wanted.tooltip or "", classes=classes)
    return key if wanted.palette else key.data_bind(compact=Footer.compact)


def _spare() -> SteadyKey:
    """A hidden key, ready to take on a key that comes (composed by the footer: it takes the footer's style)."""
    key = SteadyKey("", "", "", "").data_bind(compact=Footer.compact)
    key.display = False
    return key


def _steady(key: FooterKey) -> SteadyKey:
    """``key`` as Textual's footer composes it (never mounted), as a :class:`SteadyKey`."""
    palette = key.has_class("-command-palette")
    wanted = WantedKey(key.key, key.key_display, key.description, key.action, key._disabled,
                       key.tooltip if isinstance(key.tooltip, str) else None, palette=palette)
    return _made(wanted, classes=" ".join(key.classes - {"-disabled", "-command-palette"}))


def shown_keys(node: DOMNode) -> list[FooterKey]:
    """The footer keys drawn under ``node`` (a screen, a footer): not the spare ones, hidden."""
    return [key for key in node.query(FooterKey) if key.display]
