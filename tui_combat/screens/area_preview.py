"""The last step of an area effect: what it would do to each target, before anything is applied.

One row a target: his save's roll with his modifier, what he needs, his chance, whether he saves, what reaches him
and his health after; under the rows, why (the rules' reasons) and what the log will say of the highlighted one. The
saves are rolled by the app as the preview opens; ``t`` takes the highlighted one's die (or the one roll for all) as
real dice showed it, ``d`` the damage dice's, ``r`` rolls the app's dice again. Where a Legendary Resistance is left,
``l`` turns the highlighted one's failure into a success; ``c`` gives him cover where the rules take it. Enter applies
the whole area as one action (one undo); ``e`` goes back to the form; Esc leaves it, nothing applied.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Label, Static

from tui_combat.engine import actions as a
from tui_combat.engine.contract import AnyRuleset
from tui_combat.engine.dice import DiceError
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.i18n import N_, _
from tui_combat.screens.area_draft import (
    COVER_WORDS,
    AreaDraft,
    AreaRolls,
    Outcome,
    TargetRow,
    damage_roll,
    next_cover,
    outcome,
    roll_saves,
    target_odds,
    typed_group,
    typed_save,
)
from tui_combat.textual_ext.frames import DrawnOnce
from tui_combat.widgets.text_field import TextField
from tui_combat.widgets.translated_bindings import TranslatedBindings

__all__ = ["APPLIED", "EDIT", "AreaPreview"]

APPLIED, EDIT = "applied", "edit"
"""What the preview is dismissed with: the area was applied, or the GM goes back to the form (None: left)."""
NAME_CELLS = 16
"""A target's name in the rows is cut after this many cells (the whole of it is under the rows, in his lines)."""
COLUMNS = (N_("Target"), N_("Save"), N_("Needs"), N_("Chance"), N_("Result"), N_("Takes"))


class AreaPreview(DrawnOnce, TranslatedBindings, ModalScreen[str | None]):
    CSS_PATH = ["dialogs.tcss", "area.tcss"]
    BINDINGS = [
        Binding("enter", "apply", N_("Apply to every target"), id="preview.apply", priority=True),
        Binding("escape", "cancel", N_("Cancel"), id="preview.cancel", priority=True),
        Binding("t", "type_save", N_("Type the save's die"), id="preview.type_save"),
        Binding("d", "type_damage", N_("Type the damage dice"), id="preview.type_damage"),
        Binding("r", "roll_again", N_("Roll the saves again"), id="preview.roll_again"),
        Binding("l", "legendary", N_("Legendary Resistance"), id="preview.legendary"),
        Binding("c", "cover", N_("Cover"), id="preview.cover"),
        Binding("e", "edit", N_("Back to the form"), id="preview.edit"),
    ]

    def __init__(
        self,
        state: State,
        ruleset: AnyRuleset,
        draft: AreaDraft,
        rolls: AreaRolls,
        rng: random.Random,
        submit: Callable[[a.Action], str | None],
        title: str,
    ) -> None:
        super().__init__()
        self.fight = state
        self.ruleset = ruleset
        self.draft = draft
        self.rolls = rolls
        self.rng = rng
        self.submit = submit
        self.title_text = title
        self.shown: Outcome | None = None
        self.typing: str = ""
        """What the line under the rows takes now: "save", "group", "damage", or "" when it is closed."""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text), id="dialog-title")
            yield Static("", id="area-header")
            table: DataTable[Text | str] = DataTable(id="area-rows", cursor_type="row", zebra_stripes=False)
            yield table
            yield Static("", id="area-detail")
            with Horizontal(id="area-typed"):
                yield Label("", id="area-typed-label")
                yield TextField(id="area-typed-field", compact=True, select_on_focus=False)
            yield Static("", id="dialog-error")
            yield Static(Text(self.help_line()), id="dialog-help")

    def help_line(self) -> str:
        parts = [_("Enter: apply")]
        if self.draft.save:
            parts.append(_("t: type the die") if not self.draft.group_roll else _("t: type the roll for all"))
        if self.draft.dice:
            parts.append(_("d: type the damage"))
        if self.draft.save:
            parts.append(_("r: roll again"))
        parts += [_("e: edit"), _("Esc: cancel")]
        return " · ".join(parts)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        columns: tuple[str, ...] = COLUMNS if self.draft.save else (COLUMNS[0], COLUMNS[-1])
        if self.draft.save and self.draft.dc:  # one DC for all, in the header: the column would repeat it
            columns = tuple(column for column in columns if column != COLUMNS[2])
        table.add_columns(*(_(column) for column in columns), _(self.ruleset.health_label))
        table.focus()
        self.show_outcome()

    # -- showing what it would do -----------------------------------------------------------------------------
    def show_outcome(self) -> None:
        """Work the area out again with the dice as they are, and show it (a refusal of the rules instead)."""
        table = self.query_one(DataTable)
        keep = table.cursor_row
        try:
            found = outcome(self.ruleset, self.fight, self.draft, self.rolls)
        except (RuleError, DiceError) as error:
            self.shown = None
            self.query_one("#area-header", Static).update(Text(str(error), style="bold red"))
            return
        self.shown = found
        self.query_one("#area-header", Static).update(Text(found.header))
        table.clear()
        for row in found.rows:
            name = Text(row.name)
            name.truncate(NAME_CELLS, overflow="ellipsis")
            if not self.draft.save:
                table.add_row(name, row.takes, row.health, key=row.combatant)
                continue
            result = Text(row.result, style="bold red" if row.failed and not row.legendary else "bold")
            needed = () if self.draft.dc else (row.needed,)
            table.add_row(name, row.total, *needed, row.chance, result, row.takes, row.health, key=row.combatant)
        if found.rows:
            table.move_cursor(row=min(keep, len(found.rows) - 1))
        self.show_detail()

    def highlighted_row(self) -> TargetRow | None:
        if self.shown is None or not self.shown.rows:
            return None
        row = self.query_one(DataTable).cursor_row
        return self.shown.rows[row] if 0 <= row < len(self.shown.rows) else None

    def show_detail(self) -> None:
        """Under the rows: the highlighted target's reasons, the keys that apply to him, and the log's lines of him."""
        row = self.highlighted_row()
        text = Text()
        if row is not None:
            said = [part for part in (row.why, _(COVER_WORDS[row.cover]) if row.cover else "") if part]
            hints = []
            if row.failed and row.legendary_left and not row.legendary:
                hints.append(_("l: Legendary Resistance ({left} left)", left=row.legendary_left))
            elif row.legendary:
                hints.append(_("l: no Legendary Resistance"))
            if next_cover(self.ruleset, self.fight, self.draft, row.combatant, row.cover) is not None:
                hints.append(_("c: cover"))
            keys = " · ".join(hints)
            if said:
                text.append(f"{row.name}: ", style="bold")
                text.append("; ".join(said) + (" · " if keys else ""))
            if keys:
                text.append(keys, style="bold yellow")
            for line in row.lines:
                text.append(("\n" if text.plain else "") + line, style="dim")
        self.query_one("#area-detail", Static).update(text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_detail()

    def _say(self, message: str) -> None:
        self.query_one("#dialog-error", Static).update(Text(message, style="bold red"))

    # -- the keys ---------------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.typing and action not in ("apply", "cancel"):
            return False
        if action in ("type_save", "roll_again"):
            return bool(self.draft.save)
        if action == "type_damage":
            return bool(self.draft.dice)
        if action == "legendary":
            row = self.highlighted_row()
            return row is not None and (row.legendary or (row.failed and row.legendary_left > 0))
        if action == "cover":
            row = self.highlighted_row()
            return row is not None and (
                next_cover(self.ruleset, self.fight, self.draft, row.combatant, row.cover) is not None
            )
        return True

    def action_apply(self) -> None:
        if self.typing:
            self._take_typed()
            return
        if self.shown is None:
            self._say(_("The rules refuse it as it stands: e goes back to the form."))
            return
        refusal = self.submit(self.shown.action)
        if refusal is not None:
            self._say(refusal)
            return
        self.dismiss(APPLIED)

    def action_cancel(self) -> None:
        if self.typing:
            self._close_typed()
            return
        self.dismiss(None)

    def action_edit(self) -> None:
        self.dismiss(EDIT)

    def action_roll_again(self) -> None:
        self.rolls = roll_saves(self.ruleset, self.fight, self.draft, self.rolls, self.rng, again=True)
        self._say("")
        self.show_outcome()

    def action_legendary(self) -> None:
        row = self.highlighted_row()
        if row is None:
            return
        turned = self.rolls.legendary ^ {row.combatant}
        self.rolls = replace(self.rolls, legendary=turned)
        self.show_outcome()

    def action_cover(self) -> None:
        row = self.highlighted_row()
        if row is None:
            return
        cover = next_cover(self.ruleset, self.fight, self.draft, row.combatant, row.cover)
        if cover is None:
            return
        self.rolls = roll_saves(
            self.ruleset,
            self.fight,
            self.draft,
            replace(self.rolls, cover={**self.rolls.cover, row.combatant: cover}),
            self.rng,
        )
        self.show_outcome()

    def action_type_save(self) -> None:
        if self.draft.group_roll:
            self._open_typed("group", _("One roll for all (a d20; two where some have advantage or disadvantage):"))
            return
        row = self.highlighted_row()
        if row is None:
            return
        try:
            odds = target_odds(self.ruleset, self.fight, self.draft, row.combatant, row.cover)
        except RuleError as error:
            self._say(str(error))
            return
        if odds is None or odds.auto:
            self._say(_("{name} needs no roll.", name=row.name))
            return
        self._open_typed("save", _("{name}'s save ({dice}):", name=row.name, dice=odds.dice))

    def action_type_damage(self) -> None:
        self._open_typed("damage", _("Damage ({dice}):", dice=self.draft.dice))

    # -- the line for real dice -------------------------------------------------------------------------------
    def _open_typed(self, what: str, label: str) -> None:
        self.typing = what
        self.query_one("#area-typed-label", Label).update(Text(label))
        field = self.query_one("#area-typed-field", Input)
        field.value = ""
        self.query_one("#area-typed").add_class("-open")
        field.focus()
        self._say("")
        self.refresh_bindings()

    def _close_typed(self) -> None:
        self.typing = ""
        self.query_one("#area-typed").remove_class("-open")
        self.query_one(DataTable).focus()
        self.refresh_bindings()

    def _take_typed(self) -> None:
        text = self.query_one("#area-typed-field", Input).value.strip()
        if not text:
            self._close_typed()
            return
        row, what = self.highlighted_row(), self.typing
        try:
            if what == "damage":
                self.rolls = replace(self.rolls, damage=damage_roll(self.draft.dice, None, text))
            elif what == "group":
                self.rolls = typed_group(self.ruleset, self.fight, self.draft, self.rolls, text)
            elif row is not None:
                self.rolls = typed_save(self.ruleset, self.fight, self.draft, self.rolls, row.combatant, text)
        except (DiceError, RuleError) as error:
            self._say(str(error))
            return
        self._close_typed()
        self.show_outcome()
        if what == "save":
            self.query_one(DataTable).action_cursor_down()  # on to the next one's die
