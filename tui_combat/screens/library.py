"""The combatant library on screen: pick an entry to add (incremental search), and save a combatant into it.

:class:`LibraryPicker` lists the GM's library and the ruleset's starter bestiary; typing narrows the list as
each letter comes ("5 orc" adds five of the highlighted entry), the arrows move in it, Enter adds. It is
opened from the set-up screen and from the add form (ctrl+l), in set-up and mid-fight alike.
:func:`save_to_library_dialog` saves a combatant, or his whole group, into the library.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from tui_combat.engine import registry
from tui_combat.engine.contract import AnyRuleset, FieldSpec, shown_value
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.fight.library import (
    Entry,
    Finder,
    LibraryError,
    base_name,
    default_side,
    entry_action,
    entry_from_state,
    library_path,
    parse_count,
    save_entry,
    summary,
)
from tui_combat.i18n import N_, _
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.host import Host, host_of
from tui_combat.screens.session_screen import SessionScreen
from tui_combat.textual_ext.frames import DrawnOnce
from tui_combat.widgets.text_field import TextField
from tui_combat.widgets.translated_bindings import TranslatedBindings
from tui_combat.widgets.type_ahead import TypeAheadSelect

__all__ = ["LibraryPicker", "default_side", "open_library_picker", "save_to_library_dialog"]


def source_word(entry: Entry) -> str:
    return _("your library") if entry.source == "library" else _("bestiary")


ROWS_MOST = 50
"""Rows the picker lists at most (the SRD bestiary has hundreds): the rest are counted, found by typing."""


def fitted(text: Text, width: int, lines: int) -> Text:
    """``text`` in at most ``lines`` lines of ``width`` cells, its last line ending in "…" when it is longer (a
    dragon's stat block: the card has it whole); as it is while its width is not known yet."""
    if width <= 0:
        return text
    wrapped = Content.from_rich_text(text).wrap(width)
    if len(wrapped) <= lines:
        return text
    kept = [line.plain.rstrip() for line in wrapped[:lines]]
    kept[-1] = kept[-1][: width - 1].rstrip() + "…"
    return Text("\n".join(kept), style=text.style)


class LibraryPicker(DrawnOnce, TranslatedBindings, ModalScreen[bool]):
    """Find an entry and add it; dismisses with True when something was added, False on Escape."""

    CSS_PATH = "dialogs.tcss"
    DEFAULT_CSS = """
    LibraryPicker .library-row { height: 1; }
    LibraryPicker .library-label { width: 8; height: 1; color: $text-muted; }
    LibraryPicker #library-query, LibraryPicker #library-side { width: 1fr; }
    LibraryPicker #library-entries { height: auto; max-height: 8; }
    LibraryPicker #library-detail { height: auto; max-height: 5; color: $text-muted; }
    """
    LIST_LINES = 8
    DETAIL_LINES = 5
    """The lines of the list (its frame included) and of the entry's detail at most at 24 rows: what the list
    leaves of its lines, and every row a taller terminal has, the detail may have."""
    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel"), id="library.cancel"),
        Binding("ctrl+t", "paste", N_("Paste a stat block"), id="library.paste"),
        Binding("ctrl+g", "hidden", N_("Hidden from the players, or not"), id="library.hidden"),
        # The arrows move in the list while the keys stay in the search field (no ids: they are the focus keys).
        Binding("down", "move(1)", show=False),
        Binding("up", "move(-1)", show=False),
        Binding("pagedown", "move(8)", show=False),
        Binding("pageup", "move(-8)", show=False),
    ]

    def __init__(
        self, finder: Finder, state: State, side: str | None = None, query: str = "", *, hidden: bool = False
    ) -> None:
        super().__init__()
        self.hidden = hidden
        """Whether what is added is kept from the players (the add form's tick, or ctrl+g here)."""
        self.finder = finder
        self.sides = [(s.id, s.name) for s in state.sides]
        self.side = default_side(state, side)
        self.query_text = query
        self.fields: tuple[FieldSpec, ...] = ()
        self.health_label = N_("HP")
        self.ruleset: AnyRuleset | None = None
        try:
            self.ruleset = registry.get(state.ruleset)
            self.fields = tuple(self.ruleset.sheet_fields)
            self.health_label = self.ruleset.health_label
        except RuleError:
            pass
        self.shown: list[Entry] = []
        self.list_lines = self.LIST_LINES
        """The lines the list takes now, its frame included."""
        self.chosen: Entry | None = None
        """The entry the GM moved to with the arrows."""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(_("Add from the library")), id="dialog-title")
            with Horizontal(classes="library-row"):
                yield Label(_("Find"), classes="library-label")
                yield TextField(
                    value=self.query_text,
                    placeholder=_('a name; "5 orc" adds five'),
                    id="library-query",
                    compact=True,
                    select_on_focus=False,
                )
            with Horizontal(classes="library-row"):
                yield Label(_("Side"), classes="library-label")
                yield TypeAheadSelect(
                    [(Text(name), side_id) for side_id, name in self.sides],
                    value=self.side,
                    allow_blank=False,
                    id="library-side",
                    compact=True,
                )
            yield Static(self.hidden_text(), id="library-hidden")
            yield OptionList(id="library-entries")
            yield Static("", id="library-detail")
            yield Static("", id="dialog-error")
            yield Static(
                _(
                    "type to search · ↑↓ choose · Enter: add · ctrl+g: hidden · ctrl+t: paste a stat block · "
                    "Esc: cancel"
                ),
                id="dialog-help",
            )

    def hidden_text(self) -> Text:
        if self.hidden:
            return Text(_("Hidden from the players (ctrl+g: seen)"), style="bold yellow")
        return Text(_("Seen by the players (ctrl+g: hidden)"), style="dim")

    def action_hidden(self) -> None:
        self.hidden = not self.hidden
        self.query_one("#library-hidden", Static).update(self.hidden_text())

    def on_mount(self) -> None:
        self.query_one("#library-entries", OptionList).can_focus = False  # the keys stay in the search field
        self.query_one("#library-query", Input).focus()
        self.refresh_list()
        self.call_after_refresh(self.show_detail)  # fitted once the detail has its width

    # -- the list --------------------------------------------------------------------------------------
    def typed(self) -> tuple[int | None, str]:
        return parse_count(self.query_one("#library-query", Input).value)

    def refresh_list(self) -> None:
        """The entries the query finds; the one the GM moved to stays highlighted whenever it is among them
        (typing the count in front of the name keeps his choice), else the first."""
        _count, query = self.typed()
        found = self.finder.search(query)
        self.shown = found[:ROWS_MOST]
        options = self.query_one("#library-entries", OptionList)
        options.clear_options()
        rows = [Option(self.row(entry), id=str(index)) for index, entry in enumerate(self.shown)]
        if len(found) > len(self.shown):
            rows.append(
                Option(
                    Text(_("… {count} more: type more of the name", count=len(found) - len(self.shown)), style="dim"),
                    disabled=True,
                )
            )
        options.add_options(rows)
        if self.shown:
            options.highlighted = next((i for i, entry in enumerate(self.shown) if entry is self.chosen), 0)
        self.list_lines = min(len(rows) + 2, self.LIST_LINES)  # the rows within the list's frame
        self.show_detail()

    def row(self, entry: Entry) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"{entry.label()[:30]:<31}")
        text.append(f"{_(self.health_label)} {entry.hp_dice or entry.hp}".ljust(9))
        text.append(source_word(entry), style="dim")
        return text

    def highlighted(self) -> Entry | None:
        index = self.query_one("#library-entries", OptionList).highlighted
        return self.shown[index] if index is not None and 0 <= index < len(self.shown) else None

    def show_detail(self) -> None:
        entry = self.highlighted()
        count, query = self.typed()
        if entry is None:
            if query:
                line = _('Nothing in the library or the bestiary is called "{query}".', query=query)
            else:
                line = _("The library and the bestiary are empty.")
        else:
            many = entry.count if count is None else count
            side = dict(self.sides).get(self.selected_side(), "")
            line = _("Enter adds {count} × {name} to {side}.", count=many, name=entry.shown_name(), side=side)
            shown = self.ruleset.shown_sheet_value if self.ruleset is not None else shown_value
            line = "\n".join(
                part
                for part in (line, summary(entry, self.fields, self.health_label, shown), self.notes(entry))
                if part
            )
        detail = self.query_one("#library-detail", Static)
        room = self.DETAIL_LINES + self.LIST_LINES - self.list_lines + max(0, self.app.size.height - 24)
        detail.styles.max_height = room
        detail.update(fitted(Text(line), detail.size.width, room))
        self.query_one("#dialog-error", Static).update("")

    def on_resize(self) -> None:
        self.call_after_refresh(self.show_detail)  # the detail fitted to its new room

    def notes(self, entry: Entry) -> str:
        """What the entry's stat block and its notes say beside the summary's figures, in the GM's language."""
        try:
            made = self.ruleset.sheet_notes(entry.shown_sheet(), entry.hp) if self.ruleset is not None else ""
        except RuleError:
            made = ""
        return " ".join(text for text in (made, entry.shown_notes()) if text)

    def selected_side(self) -> str:
        value = self.query_one("#library-side", Select).value
        return value if isinstance(value, str) else self.side

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.refresh_list()

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        self.show_detail()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self.show_detail()

    def action_move(self, step: int) -> None:
        options = self.query_one("#library-entries", OptionList)
        if not self.shown:
            return
        current = options.highlighted or 0
        options.highlighted = max(0, min(len(self.shown) - 1, current + step))
        self.chosen = self.highlighted()

    # -- adding ----------------------------------------------------------------------------------------
    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.add()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.add()

    @property
    def host(self) -> Host:
        return host_of(self)

    def add(self) -> None:
        entry = self.highlighted()
        if entry is None:
            self.show_error(_("Nothing to add: type another name, or Esc and add it by hand."))
            return
        count, _query = self.typed()
        store = self.host.store  # hit points left to the dice are rolled with the app's
        action = entry_action(entry, self.selected_side(), count=count, rng=store.rng if store is not None else None)
        refusal = self.host.refusal(msgspec.structs.replace(action, hidden=True) if self.hidden else action)
        if refusal is not None:
            self.show_error(refusal)
            return
        self.dismiss(True)

    def show_error(self, message: str) -> None:
        self.query_one("#dialog-error", Static).update(Text(message, style="bold red"))

    def action_cancel(self) -> None:
        self.dismiss(False)

    def action_paste(self) -> None:
        """Paste a stat block instead: the picker closes once the pasted creature is added."""
        from tui_combat.screens.paste import paste_stat_block

        screen = next((s for s in reversed(self.app.screen_stack) if isinstance(s, SessionScreen)), None)
        if screen is None:
            return

        def added(done: bool) -> None:
            if done:
                self.dismiss(True)

        paste_stat_block(screen, self.selected_side(), added, hidden=self.hidden)


def open_library_picker(
    screen: SessionScreen,
    side: str | None,
    query: str = "",
    then: Callable[[bool | None], None] | None = None,
    *,
    hidden: bool = False,
) -> None:
    """Open the picker over ``screen`` for its fight (what is wrong in the GM's library is said first, the
    good entries are offered all the same); ``then`` gets whether something was added."""
    state = screen.state
    if not state.sides:
        screen.notify(_("Add a side first (s)."), severity="warning")
        return
    finder = Finder.load(screen.host.data_root, state.ruleset)
    if finder.problems:
        screen.notify(
            "\n".join(finder.problems[:5]), title=_("Your library has mistakes"), severity="warning", timeout=10
        )
    screen.app.push_screen(LibraryPicker(finder, state, side, query, hidden=hidden), then)


def save_to_library_dialog(screen: SessionScreen, combatant_id: str | None) -> None:
    """Ask under which name to keep the combatant ``combatant_id`` (or his whole group) in the library of the
    fight's ruleset, and save him there; an entry of that name is replaced."""
    state = screen.state
    if combatant_id is None:
        screen.notify(_("Select a combatant first."), severity="warning")
        return
    combatant = state.combatant(combatant_id)
    members = [c for c in state.combatants if c.group == combatant.group] if combatant.group else [combatant]
    fields = [FieldSpec(key="name", label=N_("Name in the library"))]
    values: dict[str, object] = {"name": base_name(combatant.name) if combatant.group else combatant.name}
    if len(members) > 1:
        fields.append(
            FieldSpec(
                key="group",
                label=N_("The whole group"),
                kind="bool",
                default=True,
                help=_("{count} of them", count=len(members)),
            )
        )
        values["group"] = True
    data_root = screen.host.data_root
    try:
        path = library_path(data_root, state.ruleset)
    except LibraryError as error:
        screen.notify(str(error), severity="error")
        return

    def submit(form: dict[str, object]) -> str | None:
        entry = entry_from_state(
            screen.state, combatant_id, whole_group=bool(form.get("group", False)), name=str(form["name"])
        )
        try:
            save_entry(data_root, screen.state.ruleset, entry)
        except LibraryError as error:
            return str(error)
        screen.notify(_("{entry} is in your library: {path}", entry=entry.label(), path=path))
        return None

    note = _("Kept in {path}; an entry of the same name is replaced.", path=path)
    screen.app.push_screen(
        FormDialog(_("Save {name} to the library", name=combatant.name), fields, values, note=note, submit=submit)
    )
