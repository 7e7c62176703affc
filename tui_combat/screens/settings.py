"""The GM's settings (f3 on any screen): theme, language, the players' screen's words for health, and keys.

Every change is written to ``settings.toml`` at once (in one step, keeping every key the screen does not
change). The theme and the keys apply at once; the language on the next start (the labels of every key
are translated when their screen is first loaded). A key is changed by Enter on its row and then the new
key; one already used where that action runs is refused, with the reason, and the screen waits for
another (Esc gives up). Delete gives a row back its own keys.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Header, Input, Label, Select, Static
from textual.widgets.data_table import ColumnKey

from tui_combat.engine import keys
from tui_combat.engine.public import HEALTH_WORDS, HealthScale
from tui_combat.i18n import KNOWN_LANGUAGES, N_, _, language
from tui_combat.i18n.choose import NATIVE_NAMES
from tui_combat.screens.keymap import KeyTable, collect, key_refusal, keys_shown, normalized_keys
from tui_combat.settings.config import PLAYERS_VIEW_FILE, SettingsProblem, read_settings, write_settings
from tui_combat.widgets.footer import KeyFooter
from tui_combat.widgets.text_field import TextField
from tui_combat.widgets.translated_bindings import KeysInWrittenOrder, TranslatedBindings
from tui_combat.widgets.type_ahead import TypeAheadSelect

THRESHOLDS = ("wounded_below", "bloodied_at")
"""The ``[health]`` percentages, beside the words."""


KEY_WIDTH = 14
DOES_WIDTH = 34
"""Columns of the keys' list (where the action runs takes what is left of the line, and may be cut)."""


WORDS_PER_ROW = 2
"""Health words side by side: two leave room at 80 columns for the longest word as label and as hint."""


def cut(text: str, width: int) -> Text:
    return Text(text if len(text) <= width else text[: width - 1] + "…", no_wrap=True)


def _threshold_labels() -> dict[str, str]:
    return {"wounded_below": _("Wounded below, % of max HP"), "bloodied_at": _("Bloodied at, % of max HP")}


class KeysTable(DataTable[Text]):
    """The list of actions and their keys; Enter on one waits for its new key."""

    BINDINGS = [Binding("enter", "select_cursor", N_("Change the key"))]


class SettingsScreen(KeysInWrittenOrder, TranslatedBindings, Screen[None]):
    DEFAULT_CSS = """
    SettingsScreen #settings-hint { height: auto; padding: 0 1; color: $text-muted; }
    SettingsScreen .settings-row { height: 1; padding: 0 1; }
    SettingsScreen .settings-label { width: 22; height: 1; color: $text-muted; }
    SettingsScreen .settings-row Select { width: 30; }
    SettingsScreen .settings-title { height: auto; padding: 0 1; text-style: bold; }
    SettingsScreen #settings-health { height: auto; padding: 0 1; }
    SettingsScreen .settings-cell { width: 1fr; height: 1; }
    SettingsScreen .settings-cell Label { width: 14; height: 1; color: $text-muted; }
    SettingsScreen .settings-cell Input { width: 1fr; margin-right: 1; }
    SettingsScreen .settings-number Label { width: 1fr; padding-right: 1; }
    SettingsScreen .settings-number Input { width: 6; }
    SettingsScreen #settings-keys { height: 1fr; min-height: 4; overflow-x: hidden; }
    SettingsScreen #settings-message { height: auto; max-height: 3; padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape", "close", N_("Close"), id="settings.close"),
        Binding("delete", "default_key", N_("Its own key again"), id="settings.default_key"),
    ]

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        settings = read_settings(path)
        health = settings.health
        if health is None:  # the players' screen's own file of earlier versions, until this screen saves
            health = read_settings(path.parent / PLAYERS_VIEW_FILE).health
        self.health: dict[str, Any] = health or {}
        chosen = settings.language or language()
        self.language_chosen = chosen if chosen in KNOWN_LANGUAGES else "en"
        self.table: KeyTable | None = None
        self.key_column: ColumnKey | None = None
        self.capturing: str | None = None
        """The binding whose new key the screen waits for."""

    # -- layout -------------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(
            Text(
                _(
                    "The theme and the keys change at once, the language at the next start. Every change "
                    "is saved to {path}.",
                    path=self.path,
                )
            ),
            id="settings-hint",
        )
        with Horizontal(classes="settings-row"):
            yield Label(_("Theme"), classes="settings-label")
            yield TypeAheadSelect(
                [(name, name) for name in sorted(self.app.available_themes)],
                value=self.app.theme,
                allow_blank=False,
                compact=True,
                id="settings-theme",
            )
        with Horizontal(classes="settings-row"):
            yield Label(_("Language"), classes="settings-label")
            languages = [(NATIVE_NAMES.get(code, code), code) for code in KNOWN_LANGUAGES]
            yield TypeAheadSelect(
                languages, value=self.language_chosen, allow_blank=False, compact=True, id="settings-language"
            )
        yield Static(_("Players' screen: the words for health (empty: the usual word)"), classes="settings-title")
        found = self.health.get("words")
        words: dict[str, Any] = found if isinstance(found, dict) else {}
        with Vertical(id="settings-health"):
            names = list(HEALTH_WORDS)
            # Each word whole, as its label and as the hint of its empty field.
            label_width = max(cell_len(_(word)) for word in HEALTH_WORDS.values()) + 1
            for start in range(0, len(names), WORDS_PER_ROW):
                with Horizontal(classes="settings-row"):
                    for name in names[start : start + WORDS_PER_ROW]:
                        with Horizontal(classes="settings-cell"):
                            word_label = Label(_(HEALTH_WORDS[name]))
                            word_label.styles.width = label_width
                            yield word_label
                            yield TextField(
                                str(words.get(name, "")),
                                placeholder=_(HEALTH_WORDS[name]),
                                compact=True,
                                id=f"word-{name}",
                            )
            defaults = HealthScale()
            with Horizontal(classes="settings-row"):
                for name, label in _threshold_labels().items():
                    with Horizontal(classes="settings-cell settings-number"):
                        yield Label(label)
                        value = self.health.get(name, getattr(defaults, name))
                        yield TextField(str(value), type="integer", compact=True, id=f"number-{name}")
        yield Static(_("Keys: Enter on one, then its new key; Delete gives it back its own."), classes="settings-title")
        yield KeysTable(id="settings-keys", cursor_type="row", zebra_stripes=True)
        yield Static("", id="settings-message")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = _("Settings")
        self.table = collect(type(self.app))
        table = self.query_one("#settings-keys", DataTable)
        self.key_column = table.add_column(_("Key"), width=KEY_WIDTH)
        table.add_column(_("Does"), width=DOES_WIDTH)
        table.add_column(_("Screen"))
        for binding_id, binding in self.table.bindings().items():
            table.add_row(
                Text(self._keys_of(binding_id)),
                cut(binding.description, DOES_WIDTH),
                Text(self.table.screen_name(binding_id)),
                key=binding_id,
            )
        self.query_one("#settings-theme", Select).focus()

    def _keys_of(self, binding_id: str) -> str:
        assert self.table is not None
        in_force = keys.keymap().get(binding_id)
        return keys_shown(normalized_keys(in_force) if in_force else self.table.bindings()[binding_id].keys)

    def say(self, message: str, *, problem: bool = False) -> None:
        self.query_one("#settings-message", Static).update(Text(message, style="bold red" if problem else ""))

    # -- saving -------------------------------------------------------------------------------------------
    def save(self, changes: dict[str, Any]) -> bool:
        """Write ``changes`` into the settings file; what stops it is shown, and False returned."""
        try:
            write_settings(changes, self.path)
        except SettingsProblem as problem:
            refusal = _("Not saved: {problem}", problem=_(problem.message, **problem.params))
        except OSError as error:
            refusal = _("Not saved: {problem}", problem=f"{self.path}: {error.strerror or error}")
        else:
            return True
        self.say(refusal, problem=True)
        self.notify(refusal, severity="error", timeout=10)  # still seen once the screen is closed
        return False

    def _file_table(self, name: str) -> dict[str, Any]:
        """A table of the settings file as it is now (another program may have changed it meanwhile)."""
        table = read_settings(self.path).document.get(name)
        return dict(table) if isinstance(table, dict) else {}

    # -- theme and language -------------------------------------------------------------------------------
    def on_select_changed(self, event: Select.Changed) -> None:
        value = event.value
        if not isinstance(value, str):
            return
        if event.select.id == "settings-theme" and value != self.app.theme:
            self.app.theme = value
            if self.save({"theme": value}):
                self.say(_("Theme {theme}: saved.", theme=value))
        elif event.select.id == "settings-language" and value != self.language_chosen:
            self.language_chosen = value
            if self.save({"language": value}):
                self.say(
                    _(
                        "Language {language}: saved; it applies at the next start.",
                        language=NATIVE_NAMES.get(value, value),
                    )
                )

    # -- the players' screen's words ----------------------------------------------------------------------
    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._save_health()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if isinstance(event.widget, Input):
            self._save_health()

    def _health_from_fields(self) -> dict[str, Any] | str:
        """The ``[health]`` table the fields make (over the file's, keeping what they do not show), or what is
        wrong with them."""
        health = self._file_table("health")
        old_words = health.get("words")
        words: dict[str, Any] = dict(old_words) if isinstance(old_words, dict) else {}
        for name in HEALTH_WORDS:
            typed = self.query_one(f"#word-{name}", Input).value.strip()
            if typed:
                words[name] = typed
            else:
                words.pop(name, None)
        if words:
            health["words"] = words
        else:
            health.pop("words", None)
        numbers: dict[str, int] = {}
        labels = _threshold_labels()
        for name in THRESHOLDS:
            typed = self.query_one(f"#number-{name}", Input).value.strip()
            if not typed.isascii() or not typed.isdigit() or not 0 <= int(typed) <= 100:
                return _("{what}: a whole number from 0 to 100.", what=labels[name])
            numbers[name] = int(typed)
        if numbers["bloodied_at"] > numbers["wounded_below"]:
            return _("Bloodied at cannot be above wounded below.")
        defaults = HealthScale()
        for name, number in numbers.items():
            if number == getattr(defaults, name) and name not in health:
                continue
            health[name] = number
        return health

    def _save_health(self) -> None:
        health = self._health_from_fields()
        if isinstance(health, str):
            self.say(health, problem=True)
            return
        if health == self._file_table("health"):
            return
        if self.save({"health": health or None}):
            self.health = health
            self.say(_("The players' screen's words: saved; a players' screen opened from now on uses them."))

    # -- keys ---------------------------------------------------------------------------------------------
    def _selected_binding(self) -> str | None:
        table = self.query_one("#settings-keys", DataTable)
        if table.row_count == 0:
            return None
        row_key, _column = table.coordinate_to_cell_key(table.cursor_coordinate)
        return str(row_key.value) if row_key.value is not None else None

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on an action: the next key pressed is its new key."""
        event.stop()
        binding_id = self._selected_binding()
        if binding_id is None or self.table is None:
            return
        self.capturing = binding_id
        self.say(
            _(
                "Press the new key for {action} (Esc: leave it as it is).",
                action=self.table.bindings()[binding_id].description,
            )
        )

    def action_default_key(self) -> None:
        binding_id = self._selected_binding()
        if binding_id is None or self.table is None or binding_id not in keys.keymap():
            return
        keymap = keys.keymap()
        del keymap[binding_id]
        self._use(binding_id, keymap)

    def action_close(self) -> None:
        self._save_health()
        self.dismiss(None)

    async def on_key(self, event: events.Key) -> None:
        """While the screen waits for a new key, the next key is that key (no binding runs on it)."""
        binding_id = self.capturing
        if binding_id is None or self.table is None:
            return
        event.stop()
        event.prevent_default()
        if event.key == "escape":
            self.capturing = None
            self.say(_("The key stays as it was."))
            return
        key = event.key
        keymap = keys.keymap()
        refusal = key_refusal(binding_id, (key,), keymap, self.table)
        if refusal is not None:
            self.say(_("{reason} Press another key, or Esc.", reason=refusal), problem=True)
            return
        self.capturing = None
        if (key,) == self.table.bindings()[binding_id].keys:
            keymap.pop(binding_id, None)
        else:
            keymap[binding_id] = key
        self._use(binding_id, keymap)

    def _use(self, binding_id: str, keymap: dict[str, str]) -> None:
        """Put ``keymap`` in force and save the change of ``binding_id`` into the file's ``[keys]``."""
        assert self.table is not None
        keys.use_keymap(keymap)
        self.app.set_keymap(keymap)
        if self.key_column is not None:
            self.query_one("#settings-keys", DataTable).update_cell(
                binding_id, self.key_column, Text(self._keys_of(binding_id))
            )
        in_file = self._file_table("keys")
        if binding_id in keymap:
            in_file[binding_id] = keymap[binding_id]
        else:
            in_file.pop(binding_id, None)
        if self.save({"keys": in_file or None}):
            self.say(
                _(
                    "{action}: {keys}, saved.",
                    action=self.table.bindings()[binding_id].description,
                    keys=self._keys_of(binding_id),
                )
            )
