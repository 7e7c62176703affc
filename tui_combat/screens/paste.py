"""A stat block pasted from a book or a web page, made a combatant: paste, see what was read, fix, add.

:class:`PasteDialog` is a multi-line field; under it, as the text changes, what was read and what was not
understood (:mod:`tui_combat.fight.statblock`). ctrl+s takes the reading to the add form, filled in, where the GM
fixes what he wants, chooses the side and how many, and may keep the creature in his library as well.

The text is read in a worker thread, once the GM has stopped changing it for :data:`READ_AFTER` seconds: a
long paste never stops the screen, and a paste that arrives in pieces is read once. The field takes at most
:data:`~tui_combat.fight.statblock.MAX_CHARS` characters (the rest of a longer paste is left out, and that is said).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import msgspec
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Static, TextArea
from textual.worker import Worker, WorkerState

from tui_combat.engine import registry
from tui_combat.engine.contract import FieldSpec
from tui_combat.engine.errors import RuleError
from tui_combat.fight.library import Entry, LibraryError, default_side, entry_action, save_entry
from tui_combat.fight.statblock import MAX_CHARS, cut_note
from tui_combat.fight.statblock_sheet import Reading, read_for
from tui_combat.i18n import N_, _
from tui_combat.screens.dialogs import FormDialog, health_field
from tui_combat.screens.session_screen import SessionScreen
from tui_combat.textual_ext.frames import DrawnOnce
from tui_combat.widgets.translated_bindings import TranslatedBindings

__all__ = ["READ_AFTER", "PasteDialog", "PasteField", "paste_stat_block", "reading_lines"]

READ_AFTER = 0.15
"""Seconds the text must stay as it is before it is read."""


def reading_lines(reading: Reading) -> tuple[str, str]:
    """What was read ("Name Goblin · HP 7 (2d6) · …") and what was not understood, for the GM."""
    read = " · ".join(f"{_(label)} {value}" for label, value in reading.read)
    unread = "; ".join(_(item) for item in reading.unread)
    return read, unread


class PasteField(TextArea):
    """The paste field: a paste that would make it hold more than :data:`MAX_CHARS` characters is cut there
    (laying out a megabyte of text froze the screen for seconds), and :attr:`cut` says so."""

    cut = False

    async def on_paste(self, event: events.Paste) -> None:
        # (Textual runs TextArea's own handler of the paste after this one, unless its default is prevented.)
        start, end = sorted(self.selection)
        room = max(MAX_CHARS - len(self.text) + len(self.get_text_range(start, end)), 0)
        if len(event.text) <= room or self.read_only:
            return
        self.cut = True
        event.prevent_default()
        self.move_cursor(self.replace(event.text[:room], start, end).end_location)


class PasteDialog(DrawnOnce, TranslatedBindings, ModalScreen[Reading | None]):
    """Paste a stat block; dismisses with its reading (ctrl+s) or None (Escape)."""

    CSS_PATH = "dialogs.tcss"
    DEFAULT_CSS = """
    PasteDialog #paste-text { height: 9; }
    PasteDialog #paste-read { height: auto; max-height: 4; color: $accent; }
    PasteDialog #paste-unread { height: auto; max-height: 3; color: $warning; }
    """
    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel"), id="paste.cancel"),
        Binding("ctrl+s", "read", N_("Read it"), id="paste.read"),
    ]

    def __init__(self, ruleset_id: str) -> None:
        super().__init__()
        self.ruleset_id = ruleset_id
        self.reading_of: tuple[str, Reading] | None = None
        """The text last read, and its reading."""
        self.readings = 0
        """How many times a text was read (for tests: a paste that arrives in pieces is read once)."""
        self._timer: Timer | None = None
        self._worker: Worker[tuple[str, Reading]] | None = None
        self._take_when_read = False
        """ctrl+s came before the text it saw was read: the reading is taken once it is."""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(_("Paste a stat block")), id="dialog-title")
            yield PasteField(id="paste-text", soft_wrap=True, tab_behavior="focus")
            yield Static("", id="paste-read")
            yield Static("", id="paste-unread")
            yield Static("", id="dialog-error")
            yield Static(
                _("5e, OSE or AD&D; English, Russian or Ukrainian · ctrl+s: read it · Esc: cancel"), id="dialog-help"
            )

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    @property
    def text(self) -> str:
        return self.query_one(PasteField).text

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(READ_AFTER, self._read)
        self._error("")

    def _read(self) -> None:
        """Read the text as it is now, in a worker thread (a reading still going on is left to end unheard)."""
        self._timer = None
        text = self.text
        if self.reading_of is not None and self.reading_of[0] == text:
            self._show(self.reading_of[1])
            return
        self.readings += 1
        self._worker = self.run_worker(
            partial(_read_text, text, self.ruleset_id),
            name="paste-reading",
            group="paste",
            thread=True,
            exit_on_error=False,
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self._worker or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        self._worker = None
        if event.state == WorkerState.ERROR:  # a bug in the reader must not end the app: say what it was
            self._take_when_read = False
            self._error(_("Unexpected error: {error}", error=repr(event.worker.error)))
            return
        result = event.worker.result
        if result is None:
            return
        self.reading_of = result
        if result[0] != self.text:  # changed meanwhile: the new text is read once it stays as it is
            if self._take_when_read and self._timer is None:
                self._read()
            return
        self._show(result[1])
        if self._take_when_read:
            self._take_when_read = False
            self.action_read()

    def _show(self, reading: Reading) -> None:
        read, unread = reading_lines(reading)
        if self.query_one(PasteField).cut:
            unread = "; ".join(part for part in (unread, cut_note()) if part)
        self.query_one("#paste-read", Static).update(Text(_("Read: {what}", what=read) if read else ""))
        self.query_one("#paste-unread", Static).update(
            Text(_("Not understood: {what}", what=unread) if unread and self.text.strip() else "")
        )
        self._error(reading.refused)

    def _error(self, message: str) -> None:
        self.query_one("#dialog-error", Static).update(Text(message, style="bold red"))

    def action_read(self) -> None:
        """Take the reading of the text as it is now (read first, when it has not been yet)."""
        if self.reading_of is None or self.reading_of[0] != self.text:
            self._take_when_read = True
            if self._worker is None:
                if self._timer is not None:
                    self._timer.stop()
                self._read()
            return
        reading = self.reading_of[1]
        if reading.refused:
            self._error(reading.refused)
        elif not reading.layout:
            self._error(_("Nothing here reads as a stat block: paste the whole block, from its name to its attacks."))
        else:
            self.dismiss(reading)

    def action_cancel(self) -> None:
        self.dismiss(None)


def _read_text(text: str, ruleset_id: str) -> tuple[str, Reading]:
    """Run in a worker thread: the text, and its reading."""
    return text, read_for(text, ruleset_id)


def _fields(screen: SessionScreen) -> list[FieldSpec]:
    state = screen.state
    return [
        FieldSpec(key="name", label=N_("Name")),
        FieldSpec(key="side", label=N_("Side"), kind="choice", choices=tuple((s.id, s.name) for s in state.sides)),
        FieldSpec(key="count", label=N_("How many"), kind="int", default=1, minimum=1, maximum=500),
        health_field(registry.get(state.ruleset)),
        *registry.get(state.ruleset).sheet_fields,
        FieldSpec(key="notes", label=N_("Notes")),
        FieldSpec(key="keep", label=N_("Also keep it in your library"), kind="bool", default=False),
        FieldSpec(
            key="hidden",
            label=N_("Hidden from the players"),
            kind="bool",
            default=False,
            help=N_("until you reveal him (H): the ambusher behind the door"),
        ),
    ]


def fix_dialog(
    screen: SessionScreen,
    reading: Reading,
    side: str | None,
    then: Callable[[bool], None] | None = None,
    *,
    hidden: bool = False,
) -> None:
    """The add form filled in from ``reading``: the GM fixes it, and it adds the creature, as many as the block
    says (and keeps it in his library when he ticks it). Where the rules roll a monster's hit points from its Hit
    Dice, each one's are rolled unless the GM types another figure; where the line lists each one's, each has his."""
    state = screen.state
    fields = _fields(screen)
    start_hp = reading.hp if reading.hp is not None else 1
    values: dict[str, Any] = {
        "name": reading.name,
        "side": default_side(state, side),
        "count": min(max(reading.count or 1, 1), 500),
        "hp": start_hp,
        **reading.sheet,
        "notes": reading.notes,
        "hidden": hidden,
    }
    _read, unread = reading_lines(reading)
    note = (
        _("Not understood: {what}. Fix it here.", what=unread)
        if unread
        else _("Everything in the block was read; check it and fix what you want.")
    )
    if reading.hp_dice:
        note += " " + _(
            "Leave {hp} to roll each one's hit points ({dice}, from the Hit Dice), or type another figure "
            "for them all.",
            hp=start_hp,
            dice=reading.hp_dice,
        )
    elif len(reading.hps) > 1:
        note += " " + _(
            "Leave {hp} and {count} to give each one the hit points listed ({hps}), or type another figure "
            "for them all.",
            hp=start_hp,
            count=len(reading.hps),
            hps=", ".join(map(str, reading.hps)),
        )
    data_root = screen.host.data_root
    rules = registry.get(state.ruleset)

    def submit(form: dict[str, Any]) -> str | None:
        values = dict(form)
        name = str(values.pop("name")).strip()
        if not name:
            return _("A combatant needs a name.")
        side_id, count, hp = values.pop("side"), int(values.pop("count")), int(values.pop("hp"))
        notes, keep, hidden = str(values.pop("notes")), bool(values.pop("keep")), bool(values.pop("hidden"))
        try:
            sheet = rules.check_sheet(values)
        except RuleError as error:
            return str(error)
        left = hp == start_hp  # the figure the block gave, or their average: not one the GM typed
        rolled = rules.hit_point_dice(sheet) if reading.hp_dice and left else ""  # (the Hit Dice as he left them)
        entry = Entry(name=name, hp=hp, hp_dice=rolled, ruleset=state.ruleset, sheet=sheet, notes=notes)
        store = screen.host.store
        action = entry_action(entry, side_id, count=count, rng=store.rng if store is not None else None)
        if not rolled and left and len(reading.hps) == count > 1:
            action = msgspec.structs.replace(action, hp=reading.hps[0], hps=reading.hps)
        refusal = screen.host.refusal(msgspec.structs.replace(action, hidden=True) if hidden else action)
        if refusal is not None:
            return refusal
        if keep:
            try:
                save_entry(data_root, state.ruleset, entry)
            except LibraryError as error:
                screen.notify(str(error), severity="error")
            else:
                screen.notify(_("{entry} is in your library.", entry=entry.label()))
        return None

    def closed(result: dict[str, Any] | None) -> None:
        if then is not None:
            then(result is not None)

    screen.app.push_screen(
        FormDialog(
            _("Add {name}", name=reading.name or _("the pasted creature")), fields, values, note=note, submit=submit
        ),
        closed,
    )


def paste_stat_block(
    screen: SessionScreen, side: str | None, then: Callable[[bool], None] | None = None, *, hidden: bool = False
) -> None:
    """Open the paste field over ``screen`` for its fight; ``then`` gets whether a creature was added."""
    state = screen.state
    if not state.sides:
        screen.notify(_("Add a side first (s)."), severity="warning")
        return

    def read(reading: Reading | None) -> None:
        if reading is None:
            if then is not None:
                then(False)
            return
        fix_dialog(screen, reading, side, then, hidden=hidden)

    screen.app.push_screen(PasteDialog(state.ruleset), read)
