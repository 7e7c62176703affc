"""Encounter set-up: ruleset and its options, sides, combatants (``5 orc`` adds a group of five, from the GM's
library or the ruleset's bestiary when one of them has an orc), the library both ways, and the set-up saved as
an encounter file."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import fight_options
from tui_combat.engine.contract import FieldSpec, OptionSpec, shown_value
from tui_combat.engine.errors import RuleError
from tui_combat.engine.keys import shown_key
from tui_combat.engine.model import Combatant, State
from tui_combat.fight.library import Finder, default_side, entry_action, parse_count, summary
from tui_combat.i18n import N_, _
from tui_combat.screens.dialogs import ChoiceDialog, FormDialog, choice_value, health_field
from tui_combat.screens.host import host_of
from tui_combat.screens.library import LibraryPicker, open_library_picker, save_to_library_dialog
from tui_combat.screens.paste import paste_stat_block
from tui_combat.screens.round_foot import AskedAtTheFoot
from tui_combat.screens.session_screen import SessionScreen, session_bindings, undo_key
from tui_combat.widgets.footer import KeyFooter
from tui_combat.widgets.glyphs import glyph

_GROUP = re.compile(r"^\s*([0-9]{1,6})\s*[x×]?\s+(\S.*)$")  # a count of 7 digits or more is part of the name


def split_group(text: str) -> tuple[int, str]:
    """``"5 orc"`` → ``(5, "Orc")``; ``"Raf"`` → ``(1, "Raf")``."""
    match = _GROUP.match(text)
    if not match:
        return 1, text.strip()
    name = match.group(2).strip()
    return int(match.group(1)), name[:1].upper() + name[1:]


def combatant_fields(state: State, with_side: bool) -> list[FieldSpec]:
    fields = [FieldSpec(key="name", label=N_("Name"), kind="str", help=_('"5 orc" adds Orc 1…Orc 5'))]
    if with_side:
        fields.append(
            FieldSpec(key="side", label=N_("Side"), kind="choice", choices=tuple((s.id, s.name) for s in state.sides))
        )
    ruleset = registry.get(state.ruleset)
    fields.append(health_field(ruleset))
    fields.extend(ruleset.sheet_fields)
    return fields


HIDDEN_FIELD = "\0hidden"
"""The add form's tick for a combatant kept from the players (not a sheet field: no ruleset's key looks so)."""
HIDDEN_MARK = "⊘"
"""Beside a hidden combatant's name on the GM's screens."""


class AddCombatantDialog(FormDialog):
    """The add form, with a key to the library picker: it opens over the form with the name typed so far,
    and the form closes when the picker added someone (Escape in the picker comes back to the form)."""

    BINDINGS = [Binding("ctrl+l", "library", N_("From the library"), id="dialog.library")]

    def __init__(self, *args: Any, side: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.side = side

    def help_line(self) -> str:
        return _("ctrl+l: from the library") + " · " + super().help_line()

    def action_library(self) -> None:
        pick_from_library(self, self.raw_values(), self.side, lambda: self.dismiss(None))


def pick_from_library(owner: Screen[Any], typed: dict[str, Any], side: str | None, close: Callable[[], object]) -> None:
    """The library picker over an add form (the dialog, or the form at the foot of the round screen), for the
    side chosen in it (else ``side``) and the name typed so far: ``close`` closes the form when the picker
    added someone; Escape in the picker comes back to the form."""
    host = host_of(owner)
    if host.store is None:
        return
    state = host.store.state
    chosen = typed.get("side")
    picker = LibraryPicker(
        Finder.load(host.data_root, state.ruleset),
        state,
        chosen if isinstance(chosen, str) else side,
        str(typed.get("name") or ""),
        hidden=bool(typed.get(HIDDEN_FIELD)),
    )

    def added(done: bool | None) -> None:
        if done:
            close()

    owner.app.push_screen(picker, added)


def add_combatant_dialog(screen: SessionScreen, side: str | None) -> None:
    """Ask for a combatant (or a group: "5 orc") and add it with its ruleset fields. A name found in the GM's
    library or the ruleset's starter bestiary brings that entry's HP, sheet and notes (and group size, when
    no number is typed); what the GM changed in the form wins. ctrl+l opens the library picker instead.

    The side is ``side`` (the row's) in the set-up, where the party is added one by one; mid-fight, a side
    that is not the party's (who comes in then is most often the monsters' reinforcement). Either way a name
    found in the library or the bestiary moves a side left at the party's to the monsters', in the form,
    until the GM chooses the side himself."""
    state = screen.state
    if not state.sides:
        screen.notify(_("Add a side first (s)."), severity="warning")
        return
    finder = Finder.load(screen.host.data_root, state.ruleset)
    fields = combatant_fields(state, with_side=True)
    fields.append(
        FieldSpec(
            key=HIDDEN_FIELD,
            label=N_("Hidden from the players"),
            kind="bool",
            default=False,
            help=N_("until you reveal him (H): the ambusher behind the door"),
        )
    )
    defaults = {spec.key: spec.default for spec in fields}

    def validate(values: dict[str, Any]) -> dict[str, Any] | str:
        if not str(values["name"]).strip():
            return _("A combatant needs a name.")
        if values["hp"] < 0:
            return _("HP cannot be negative.")
        count, _name = split_group(values["name"])
        if not 1 <= count <= 500:
            return _("A group has from 1 to {max} members.", max=500)
        return values

    def add(values: dict[str, Any]) -> str | None:
        sheet = dict(values)
        typed = str(sheet.pop("name"))
        count, name = split_group(typed)
        hp = sheet.pop("hp")
        side_id = sheet.pop("side")
        hidden = bool(sheet.pop(HIDDEN_FIELD, False))
        typed_count, typed_name = parse_count(typed)
        entry = finder.find(typed_name)
        if entry is None:
            action = a.AddCombatants(side=side_id, name=name, hp=hp, count=count, sheet=sheet)
        else:
            changed = {key: value for key, value in sheet.items() if value != defaults.get(key)}
            # Found by any of its names ("5 wight", "5 умертвие"): added under its name in the GM's language; a
            # monster's hit points left to the dice are rolled with the app's.
            store = screen.host.store
            action = entry_action(
                entry,
                side_id,
                count=typed_count,
                hp=None if hp == defaults["hp"] else hp,
                sheet=changed,
                rng=store.rng if store is not None else None,
            )
        return screen.host.refusal(msgspec.structs.replace(action, hidden=True) if hidden else action)

    def preview(raw: dict[str, Any]) -> str:
        entry = finder.find(parse_count(str(raw.get("name") or ""))[1])
        if entry is None:
            return ""
        where = _("your library") if entry.source == "library" else _("the starter bestiary")
        ruleset = registry.get(state.ruleset)
        return _(
            "{entry} from {where}: {summary}. What you change here wins.",
            entry=entry.label(),
            where=where,
            summary=summary(entry, ruleset.sheet_fields, ruleset.health_label, ruleset.shown_sheet_value),
        )

    if finder.problems:
        screen.notify(
            "\n".join(finder.problems[:5]), title=_("Your library has mistakes"), severity="warning", timeout=10
        )
    mid_fight = isinstance(screen, AskedAtTheFoot)
    values = {"side": default_side(state, side) if mid_fight else side or state.sides[0].id}
    proposed = state.side(values["side"])

    def follow(raw: dict[str, Any]) -> dict[str, Any]:
        if not proposed.is_party:
            return {}
        found = finder.find(parse_count(str(raw.get("name") or ""))[1]) is not None
        return {"side": default_side(state, None) if found else proposed.id}

    if not isinstance(screen, AskedAtTheFoot):
        screen.app.push_screen(
            AddCombatantDialog(
                _("Add combatant"), fields, values, validate, submit=add, preview=preview, follow=follow, side=side
            )
        )
        return

    # Mid-fight, the form is at the foot of the round screen, made once and filled in anew each time: a dialog
    # of some twenty fields took a quarter of a second to make, and redrew the whole terminal.
    panel = screen.add_panel
    screen._form(
        _("Add combatant"),
        fields,
        values,
        panel=panel,
        validate=validate,
        submit=add,
        preview=preview,
        follow=follow,
        library=lambda typed: pick_from_library(screen, typed, side, lambda: panel.close(None)),
    )


def options_dialog(screen: SessionScreen) -> None:
    """Choose the fight's options (the ruleset's: initiative method …; what the players see of rolls); in
    set-up or between rounds alike."""
    state = screen.state
    ruleset = registry.get(state.ruleset)
    fields = [
        FieldSpec(key=o.key, label=o.label, kind="choice", choices=o.choices, default=o.choices[0][0])
        for o in fight_options(ruleset)
    ]
    if not fields:
        screen.notify(_("This ruleset has no options."))
        return

    def chosen(values: dict[str, Any] | None) -> None:
        if values is None or screen.host.store is None:
            return
        for key, value in values.items():
            if screen.state.options.get(key) != value:
                screen.host.dispatch(a.SetOption(key=key, value=value))

    screen.app.push_screen(FormDialog(_("Options"), fields, dict(state.options)), chosen)


def save_encounter_dialog(screen: SessionScreen) -> None:
    """Write the set-up as an encounter file (what ``tui-combat new FILE`` reads), by default in the data
    folder's ``encounters``; a file that exists is replaced only when the GM ticks it."""
    from tui_combat.fight.encounter_file import EncounterFileError, default_path, save_encounter

    fields = [
        FieldSpec(key="path", label=N_("File")),
        FieldSpec(key="replace", label=N_("Replace it if it exists"), kind="bool", default=False),
    ]

    def submit(values: dict[str, Any]) -> str | None:
        typed = str(values["path"]).strip()
        if not typed:
            return _("Give a file name.")
        try:
            saved = save_encounter(screen.state, Path(typed), replace=bool(values["replace"]))
        except EncounterFileError as error:
            return str(error)
        where = saved.path.absolute()
        message = _(
            "Saved in {path}. Start it again with: tui-combat new {quoted}", path=where, quoted=shlex.quote(str(where))
        )
        if saved.warnings:
            message += "\n" + _(
                "Not saved exactly as they are now (a group is written with its first member's "
                "numbers, and numbered anew): {names}.",
                names=", ".join(saved.warnings),
            )
        screen.notify(
            message, title=_("Encounter saved"), severity="warning" if saved.warnings else "information", timeout=12
        )
        return None

    default = default_path(screen.host.data_root, screen.state.name)
    screen.app.push_screen(
        FormDialog(
            _("Save the set-up as an encounter file"),
            fields,
            {"path": str(default), "replace": False},
            submit=submit,
            note=_("The same file tui-combat new reads: the sides, the combatants, the options."),
        )
    )


def _group_names(state: State) -> dict[str, str]:
    """Group id → what the GM calls the group ("Orc ×6"), never the id itself."""
    members: dict[str, list[str]] = {}
    for combatant in state.combatants:
        if combatant.group:
            members.setdefault(combatant.group, []).append(combatant.name)
    return {group: f"{names[0].rsplit(' ', 1)[0]} ×{len(names)}" for group, names in members.items()}


def edit_values(combatant: Combatant, fields: list[FieldSpec]) -> dict[str, Any]:
    """What the edit form shows: the name, the HP and the sheet, its text fields in the GM's language as the
    set-up table shows them ("полуторный меч (двумя руками)", "Вооружённый бой 1; Безоружный бой 1"); the
    ruleset reads them back as it reads what the GM types."""
    values: dict[str, Any] = {"name": combatant.name, "hp": combatant.max_hp, **combatant.sheet}
    for spec in fields:
        stored = values.get(spec.key)
        if spec.kind == "str" and spec.key not in ("name", "hp") and isinstance(stored, str):
            values[spec.key] = shown_value(spec, stored)
    return values


def edit_action(combatant: Combatant, fields: list[FieldSpec], result: dict[str, Any]) -> a.EditCombatant:
    """The edit a form's values make: only what the GM changed. A sheet field left as it was stays exactly as
    it was stored (a value the form shows under another spelling or in the GM's language included), and one
    the form does not show is never touched."""
    changed: dict[str, Any] = {}
    for spec in fields:
        if spec.key in ("name", "hp") or spec.key not in result:
            continue
        value = result[spec.key]
        stored = combatant.sheet.get(spec.key, spec.default)
        if spec.kind == "choice" and spec.choices and choice_value(spec, stored) == value:
            continue
        if (
            spec.kind == "str"
            and isinstance(value, str)
            and value.strip() in (str(stored).strip(), shown_value(spec, stored).strip())
        ):  # level 4 is "4" in the form
            continue
        if value != stored:
            changed[spec.key] = value
    hp = int(result["hp"])
    name = str(result["name"])
    return a.EditCombatant(
        combatant=combatant.id,
        name=name if name != combatant.name else None,
        hp=hp if hp != combatant.max_hp else None,
        max_hp=hp if hp != combatant.max_hp else None,
        sheet=changed or None,
    )


class SetupScreen(SessionScreen):
    CSS_PATH = "setup.tcss"
    BINDINGS = [
        Binding("a", "add", N_("Add"), id="setup.add"),
        Binding("e", "edit", N_("Edit"), id="setup.edit"),
        Binding("delete,x", "remove", N_("Remove"), id="setup.remove"),
        Binding("H", "hide", N_("Hide from the players, or reveal"), id="setup.hide", show=False),
        Binding("s", "add_side", N_("Side"), id="setup.side"),
        Binding("r", "ruleset", N_("Ruleset"), id="setup.ruleset"),
        Binding("o", "options", N_("Options"), id="setup.options", show=False),  # the summary shows them
        Binding("c", "begin", N_("Continue"), id="setup.continue"),
        Binding("q", "app.quit", N_("Quit"), id="setup.quit"),
        Binding("home", "first", N_("First"), id="setup.first", show=False),
        Binding("end", "last", N_("Last"), id="setup.last", show=False),
        Binding("f2", "rename", N_("Rename"), id="setup.rename", show=False),
        Binding("l", "library", N_("Add from the library"), id="setup.library", show=False),
        Binding("p", "paste", N_("Paste a stat block"), id="setup.paste", show=False),
        Binding("L", "save_to_library", N_("Save to the library"), id="setup.save_to_library", show=False),
        Binding("w", "save_encounter", N_("Save as an encounter file"), id="setup.save_encounter", show=False),
        *session_bindings("setup"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="setup-summary")
        yield DataTable(id="setup-combatants", cursor_type="row", zebra_stripes=True)
        yield Static(
            _(
                '{add} adds a combatant ("5 orc": a group of five) · {next} when ready · {quit} quits',
                add=shown_key("setup.add", "a"),
                next=shown_key("setup.continue", "c"),
                quit=shown_key("setup.quit", "q"),
            ),
            id="setup-hint",
        )
        yield KeyFooter(compact=True)

    _columns_of: str | None = None
    """The ruleset whose columns the table has."""

    _ids_shown: frozenset[str] | None = None
    """The combatants the table showed last (None before it first showed any)."""

    def prepare(self) -> None:
        self._columns_of = None
        self._ids_shown = None

    def show(self, state: State) -> None:
        if state.phase != "setup":
            return
        ruleset = registry.get(state.ruleset)
        options = " · ".join(
            _("{option}: {value}", option=_(option.label), value=_option_shown(option, state.options.get(option.key)))
            for option in fight_options(ruleset)
        ) or _("none")
        sides = " · ".join(side.name for side in state.sides) or _("no sides yet")
        try:
            difficulty = ruleset.difficulty(state)
        except RuleError:
            difficulty = None
        self.query_one("#setup-summary", Static).update(
            f"[b]{escape(state.name)}[/]  —  {escape(_(ruleset.name))}\n{_('Options')}: {escape(options)}\n"
            f"{_('Sides')}: {escape(sides)}" + (f"\n{escape(difficulty)}" if difficulty else "")
        )
        table = self.query_one(DataTable)
        row = table.cursor_row
        if self._columns_of != state.ruleset:  # each ruleset has columns of its own (class and level, AC …)
            table.clear(columns=True)
            table.add_columns(
                _("Side"),
                _("Name"),
                _(ruleset.health_label),
                _("Group"),
                *(_(label) for label, _keys in ruleset.summary_columns()),
            )
            self._columns_of = state.ruleset
        else:
            table.clear()
        group_names = _group_names(state)
        for combatant in state.combatants:
            try:
                cells = ruleset.summary(state, combatant.id)
            except RuleError:
                cells = ()
            side = state.side(combatant.side).name
            name = f"{combatant.name} {glyph(HIDDEN_MARK)}" if combatant.hidden else combatant.name
            table.add_row(
                escape(side),
                escape(name),
                ruleset.health_shown(state, combatant.id, brief=True),
                escape(group_names.get(combatant.group, "")),
                *(escape(cell[:30]) for cell in cells),
                key=combatant.id,
            )
        shown_before, ids = self._ids_shown, [combatant.id for combatant in state.combatants]
        self._ids_shown = frozenset(ids)
        added = [] if shown_before is None else [i for i, cid in enumerate(ids) if cid not in shown_before]
        if table.row_count:  # on what was just added (l, p, a; u bringing one back), in sight; else where it was
            table.move_cursor(row=added[0] if added else min(row, table.row_count - 1))
        table.focus()

    # -- combatants -----------------------------------------------------------------------------------
    def action_add(self) -> None:
        selected = self.selected_row()
        add_combatant_dialog(self, self.state.combatant(selected).side if selected else None)

    def action_edit(self) -> None:
        selected = self.selected_row()
        if selected is None:
            return
        combatant = self.state.combatant(selected)
        fields = combatant_fields(self.state, with_side=False)
        values = edit_values(combatant, fields)
        self.app.push_screen(
            FormDialog(
                _("Edit {name}", name=combatant.name),
                fields,
                values,
                submit=lambda result: self.host.refusal(edit_action(combatant, fields, result)),
            )
        )

    def action_library(self) -> None:
        selected = self.selected_row()
        side = self.state.side(self.state.combatant(selected).side) if selected else None
        # The library holds monsters and NPCs: they join the row's side unless that is the party.
        open_library_picker(self, side.id if side is not None and not side.is_party else None)

    def action_paste(self) -> None:
        selected = self.selected_row()
        paste_stat_block(self, self.state.combatant(selected).side if selected else None)

    def action_save_to_library(self) -> None:
        save_to_library_dialog(self, self.selected_row())

    def action_save_encounter(self) -> None:
        save_encounter_dialog(self)

    def action_first(self) -> None:
        table = self.query_one(DataTable)
        if table.row_count:
            table.move_cursor(row=0)

    def action_last(self) -> None:
        """The last row (the table's own End scrolled it sideways: the next key, a Delete, hit an unseen row)."""
        table = self.query_one(DataTable)
        if table.row_count:
            table.move_cursor(row=table.row_count - 1)

    def action_remove(self) -> None:
        selected = self.selected_row()
        if selected is None:
            return
        name = self.state.combatant(selected).name
        if self.host.dispatch(a.RemoveCombatant(combatant=selected)):
            self.notify(_("{name} removed — {undo} brings him back", name=name, undo=undo_key("setup")), timeout=6)

    def action_hide(self) -> None:
        selected = self.selected_row()
        if selected is not None:
            self.host.dispatch(a.SetHidden(combatant=selected, hidden=not self.state.combatant(selected).hidden))

    def action_add_side(self) -> None:
        fields = [
            FieldSpec(key="name", label=N_("Side name")),
            FieldSpec(key="party", label=N_("Player characters"), kind="bool"),
        ]

        self.app.push_screen(
            FormDialog(
                _("Add side"),
                fields,
                submit=lambda values: self.host.refusal(a.AddSide(name=values["name"], is_party=values["party"])),
            )
        )

    def action_rename(self) -> None:
        self.app.push_screen(
            FormDialog(
                _("Rename the fight"),
                [FieldSpec(key="name", label=N_("Name"))],
                {"name": self.state.name},
                submit=lambda values: self.host.refusal(a.SetName(name=values["name"])),
            )
        )

    # -- ruleset --------------------------------------------------------------------------------------
    def action_ruleset(self) -> None:
        choices = []
        for ruleset_id in registry.available():
            try:
                choices.append((ruleset_id, registry.get(ruleset_id).name))
            except RuleError:
                continue

        def chosen(value: str | None) -> None:
            if not value or value == self.state.ruleset:
                return
            before = registry.get(self.state.ruleset).name
            if self.host.dispatch(a.SetRuleset(ruleset=value)):
                self.notify(
                    _(
                        "Rules: {ruleset}, its options as the book sets them — {undo} goes back to {before}",
                        ruleset=_(registry.get(value).name),
                        undo=undo_key("setup"),
                        before=_(before),
                    ),
                    timeout=6,
                )

        self.app.push_screen(ChoiceDialog(_("Ruleset"), choices, self.state.ruleset), chosen)

    def action_options(self) -> None:
        options_dialog(self)

    def action_begin(self) -> None:
        self.host.dispatch(a.BeginSurprise())


def _option_shown(option: OptionSpec, value: object) -> str:
    """An option as the set-up summary names it: the chosen value's label, the default's when none was
    chosen."""
    labels = dict(option.choices)
    label = labels.get(str(value)) if value is not None else None
    return _(label if label is not None else option.choices[0][1]) if option.choices else ""
