"""The first step of an area effect: its targets, marked in a list of everyone in the fight.

Space marks the highlighted combatant (or unmarks him); ``*`` marks his whole side and ``+`` his group (again: they
are unmarked); ``-`` unmarks everyone. Typing a name moves to it as in every list of the app
(:class:`~tui_combat.widgets.type_ahead.TypeAhead`: "gob" goes to the first Goblin, "2" to Goblin 2, Backspace takes
a letter back); the marking keys are never typed. Enter goes on with those marked; Esc leaves, nothing changed.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui_combat.engine.contract import AnyRuleset
from tui_combat.engine.model import Combatant, State
from tui_combat.i18n import N_, _, ngettext
from tui_combat.textual_ext.frames import DrawnOnce
from tui_combat.widgets.glyphs import glyph
from tui_combat.widgets.translated_bindings import TranslatedBindings
from tui_combat.widgets.type_ahead import TypeAhead

__all__ = ["TargetPicker"]

SIDE_PREFIX = "side-"
MARK_KEYS = frozenset(" *+-")
"""Characters that are the picker's keys, never typed-ahead."""


class TargetPicker(DrawnOnce, TranslatedBindings, ModalScreen[tuple[str, ...] | None]):
    """Dismisses with the marked combatants' ids, in the list's order, or None on Escape."""

    CSS_PATH = ["dialogs.tcss", "area.tcss"]
    BINDINGS = [
        Binding("space", "mark", N_("Mark or unmark"), id="area.mark", priority=True),
        Binding("asterisk", "mark_side", N_("Mark the whole side"), id="area.side", priority=True),
        Binding("plus", "mark_group", N_("Mark the whole group"), id="area.group", priority=True),
        Binding("minus", "clear", N_("Unmark everyone"), id="area.clear", priority=True),
        Binding("enter", "done", N_("On to the effect"), id="area.next", priority=True),
        Binding("escape", "cancel", N_("Cancel"), id="area.cancel", priority=True),
        Binding("backspace", "erase", N_("Take back a letter typed"), id="area.erase", show=False, priority=True),
    ]

    def __init__(
        self,
        state: State,
        ruleset: AnyRuleset,
        title: str,
        marked: tuple[str, ...] = (),
        highlighted: str | None = None,
    ) -> None:
        super().__init__()
        self.fight = state
        self.ruleset = ruleset
        self.title_text = title
        self.marked: set[str] = {cid for cid in marked if state.has(cid)}
        self.start = highlighted
        self.names = [(c.id, c.name) for c in self._listed()]
        self.type_ahead = TypeAhead()
        """What was typed of a name, found among the rows' names (not their marks nor their health)."""

    def _listed(self) -> list[Combatant]:
        """Everyone, side by side, in the order the set-up lists them."""
        by_side: dict[str, list[Combatant]] = {}
        for combatant in self.fight.combatants:
            by_side.setdefault(combatant.side, []).append(combatant)
        return [c for side in self.fight.sides for c in by_side.get(side.id, [])]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self._title()), id="dialog-title")
            yield OptionList(*self._options(), id="area-targets")
            yield Static("", id="area-find")
            yield Static("", id="dialog-error")
            yield Static(
                Text(
                    _(
                        "space: mark · *: the whole side · +: the whole group · -: none · "
                        "type a name to find it · Enter: on · Esc: cancel"
                    )
                ),
                id="dialog-help",
            )

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.focus()
        first = self.start if self.start is not None and self.fight.has(self.start) else None
        if first is None and self.names:
            first = self.names[0][0]
        if first is not None:
            options.highlighted = options.get_option_index(first)
        self.type_ahead.use(
            [
                self.fight.combatant(option.id).name if option.id and self.fight.has(option.id) else ""
                for option in options.options
            ]
        )

    # -- the rows -------------------------------------------------------------------------------------------
    def _options(self) -> list[Option]:
        options: list[Option] = []
        by_side: dict[str, list[Combatant]] = {}
        for combatant in self._listed():
            by_side.setdefault(combatant.side, []).append(combatant)
        for side in self.fight.sides:
            members = by_side.get(side.id, [])
            if not members:
                continue
            options.append(Option(Text(f"── {side.name}", style="bold"), id=SIDE_PREFIX + side.id, disabled=True))
            options += [Option(self._row(c), id=c.id) for c in members]
        return options

    def _row(self, combatant: Combatant) -> Text:
        marked = combatant.id in self.marked
        text = Text("[x] " if marked else "[ ] ", style="bold" if marked else "")
        text.append(combatant.name, style="dim" if combatant.status != "active" else "")
        if combatant.hidden:
            text.append(f" {glyph('⊘')}", style="bold yellow")
        text.append(f"  {self.ruleset.health_shown(self.fight, combatant.id)}", style="cyan")
        if combatant.status != "active":
            text.append(f" {_(combatant.status)}", style="dim")
        return text

    def _title(self) -> str:
        count = len(self.marked)
        return f"{self.title_text} — " + ngettext("{n} marked", "{n} marked", count, n=count)

    def _redraw(self, combatant_ids: list[str]) -> None:
        options = self.query_one(OptionList)
        for combatant_id in combatant_ids:
            options.replace_option_prompt(combatant_id, self._row(self.fight.combatant(combatant_id)))
        self.query_one("#dialog-title", Static).update(Text(self._title()))
        self._say("")

    def _say(self, message: str) -> None:
        self.query_one("#dialog-error", Static).update(Text(message, style="bold red"))

    def highlighted_combatant(self) -> Combatant | None:
        option = self.query_one(OptionList).highlighted_option
        if option is None or option.id is None or not self.fight.has(option.id):
            return None
        return self.fight.combatant(option.id)

    # -- marking ----------------------------------------------------------------------------------------------
    def _toggle(self, combatant_ids: list[str]) -> None:
        """Mark them all, or, when all are marked already, unmark them."""
        if all(cid in self.marked for cid in combatant_ids):
            self.marked -= set(combatant_ids)
        else:
            self.marked |= set(combatant_ids)
        self._redraw(combatant_ids)

    def action_mark(self) -> None:
        combatant = self.highlighted_combatant()
        if combatant is not None:
            self._toggle([combatant.id])
            self.query_one(OptionList).action_cursor_down()
        self._forget_typed()

    def action_mark_side(self) -> None:
        combatant = self.highlighted_combatant()
        if combatant is not None:
            self._toggle([c.id for c in self.fight.combatants if c.side == combatant.side])
        self._forget_typed()

    def action_mark_group(self) -> None:
        combatant = self.highlighted_combatant()
        if combatant is None:
            return
        if not combatant.group:
            self._say(_("{name} is in no group: * marks the whole side.", name=combatant.name))
            return
        self._toggle([c.id for c in self.fight.combatants if c.group == combatant.group])
        self._forget_typed()

    def action_clear(self) -> None:
        was = list(self.marked)
        self.marked = set()
        self._redraw(was)
        self._forget_typed()

    def action_done(self) -> None:
        if not self.marked:
            self._say(_("Mark the targets first (space)."))
            return
        self.dismiss(tuple(cid for cid, _name in self.names if cid in self.marked))

    def action_cancel(self) -> None:
        self.dismiss(None)

    # -- type-ahead ---------------------------------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        character = event.character
        if character is None or not character.isprintable() or character in MARK_KEYS:
            if event.key != "backspace":
                self._forget_typed()
            return
        event.stop()
        event.prevent_default()
        options = self.query_one(OptionList)
        self._go(self.type_ahead.find(character, options.highlighted, self._headers()))

    def action_erase(self) -> None:
        if self.type_ahead.typed:
            self._go(self.type_ahead.back(self.query_one(OptionList).highlighted, self._headers()))

    def _headers(self) -> frozenset[int]:
        """The rows of the sides' names: never found."""
        return frozenset(i for i, option in enumerate(self.query_one(OptionList).options) if option.disabled)

    def _go(self, found: int | None) -> None:
        if found is not None:
            self.query_one(OptionList).highlighted = found
        typed = self.type_ahead.typed
        self.query_one("#area-find", Static).update(Text(_("Find: {typed}", typed=typed) if typed else ""))

    def _forget_typed(self) -> None:
        if self.type_ahead.typed:
            self.type_ahead.reset()
            self.query_one("#area-find", Static).update("")
