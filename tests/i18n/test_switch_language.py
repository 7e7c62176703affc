"""The language is the one active when a screen shows its keys, not when its module was imported: the screens
are imported once, in English, and a switch to another language shows in every key's description after it —
in the footer, in help, on every screen and for each ruleset's own keys."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.dom import DOMNode

from tests.i18n.interface import SIZE, footer_keys, make_app, to_round
from tests.ui.fights import until_help
from tui_combat import app as app_module
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import apply
from tui_combat.engine.model import State
from tui_combat.fight.library import Finder, Library
from tui_combat.fight.store import new_state
from tui_combat.i18n import set_language
from tui_combat.i18n.catalog import translations
from tui_combat.screens.area_draft import AreaDraft, AreaRolls
from tui_combat.screens.area_preview import AreaPreview
from tui_combat.screens.area_targets import TargetPicker
from tui_combat.screens.dialogs import ChoiceDialog, ConfirmDialog, FormDialog, TickBox
from tui_combat.screens.help import HelpScreen
from tui_combat.screens.keymap import _own_screen_classes
from tui_combat.screens.library import LibraryPicker
from tui_combat.screens.opening import OpeningScreen
from tui_combat.screens.paste import PasteDialog
from tui_combat.screens.player_view import PlayerViewApp
from tui_combat.screens.rewind import RewindScreen
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.session_screen import SessionScreen
from tui_combat.screens.sessions import SessionsScreen
from tui_combat.screens.settings import KeysTable, SettingsScreen
from tui_combat.screens.setup import AddCombatantDialog, SetupScreen
from tui_combat.screens.surprise import SurpriseScreen
from tui_combat.widgets.translated_bindings import described

Descriptions = dict[tuple[str, str, str], str]


def _with_a_side() -> State:
    return apply(new_state(seed=1, ruleset="adnd2e"), a.AddSide(name="Monsters"))


def _nodes() -> list[Callable[[], DOMNode]]:
    makers: list[Callable[[], DOMNode]] = [
        SessionsScreen,
        SetupScreen,
        SurpriseScreen,
        lambda: RewindScreen("key", "name"),
        lambda: SettingsScreen(Path("settings.toml")),
        KeysTable,
        lambda: FormDialog("", []),
        lambda: AddCombatantDialog("", []),
        lambda: ChoiceDialog("", []),
        lambda: ConfirmDialog("", "", confirm="", cancel=""),
        lambda: HelpScreen(SessionsScreen()),
        TickBox,
        lambda: LibraryPicker(Finder(Library(path=Path("mine")), Library(path=Path("bestiary"))), _with_a_side()),
        lambda: PasteDialog("adnd2e"),
        OpeningScreen,
        lambda: TargetPicker(_with_a_side(), registry.get("adnd2e"), ""),
        lambda: AreaPreview(
            _with_a_side(), registry.get("adnd2e"), AreaDraft(), AreaRolls(), random.Random(1), lambda _action: None, ""
        ),
        lambda: app_module.CombatApp(Path("unused")),
        lambda: PlayerViewApp(Path("unused")),
    ]
    makers += [lambda ruleset_id=ruleset_id: RoundScreen(ruleset_id) for ruleset_id in registry.available()]
    return makers


def _descriptions(made: list[type[DOMNode]] | None = None) -> Descriptions:
    """Every described binding of every screen (and app) as shown now: (node, key, action) → description."""
    found: Descriptions = {}
    for make in _nodes():
        node = make()
        if made is not None:
            made.append(type(node))
        for key, bindings in described(node).key_to_bindings.items():
            for binding in bindings:
                if binding.description:
                    found[(type(node).__name__, key, binding.action)] = binding.description
                if binding.group is not None:
                    found[(type(node).__name__, key, "group")] = binding.group.description
    return found


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_key_of_a_screen_made_after_the_switch_is_in_the_new_language(lang: str) -> None:
    set_language("en")
    made: list[type[DOMNode]] = []
    english = _descriptions(made)
    made_or_based_on = {base for cls in made for base in cls.__mro__}  # (a round screen's class: its ruleset's)
    unchecked = set(_own_screen_classes()) - made_or_based_on - {SessionScreen}  # the base of the session's screens
    assert not unchecked, f"screens not checked here: {unchecked}"
    set_language(lang)
    shown = _descriptions()
    catalog = translations(lang)
    for ruleset_id in registry.available():  # a plugin's keys in its own catalog, after the app's
        folder = registry.get(ruleset_id).catalogs
        if folder is not None and (folder / f"{lang}.po").exists():
            catalog.add_fallback(translations(lang, folder / f"{lang}.po"))
    assert shown.keys() == english.keys()
    assert {where: catalog.gettext(text) for where, text in english.items()} == shown
    changed = [where for where in english if shown[where] != english[where]]
    assert len(changed) > 100, "hardly any key description changed language"
    set_language("en")
    assert _descriptions() == english


async def test_the_footer_and_help_show_the_language_switched_to(data_root: Path) -> None:
    """English first, then Russian in the same process, then English again: each app shows its own."""
    for run, (lang, next_word, help_word) in enumerate(
        (("en", "Next", "Fight report"), ("ru", "Далее", "Отчёт о бое"), ("en", "Next", "Fight report"))
    ):
        set_language(lang)
        app = make_app(app_module, data_root / str(run))
        async with app.run_test(size=SIZE) as pilot:
            await to_round(pilot)
            footer = [description for _key, description in footer_keys(pilot)]
            assert next_word in footer, footer
            await pilot.press("f1")
            described = [description for _keys, description in await until_help(pilot)]
            assert help_word in described, described
            assert ("Attack" in described) == (lang == "en"), described  # the ruleset's own key too


def test_a_binding_is_kept_as_its_message_id_in_the_class() -> None:
    """What the class holds is English, whatever language is active when it is imported or read."""
    set_language("ru")
    ids = {binding.description for binding in Binding.make_bindings(RoundScreen.BINDINGS)}
    assert "Next" in ids and "Далее" not in ids
