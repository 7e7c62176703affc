"""A ruleset plugin speaks the GM's language when it ships its own catalogs (the ruleset's ``catalogs``: a
folder of ``<language>.po``): the Savage Worlds example ships Russian and Ukrainian, read when the registry
loads it, looked up after the app's own, whichever language is chosen before or after; a broken catalog is
refused when the plugin is loaded in that language, naming its file; in English none is read."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.plugins.savage import PACKAGE
from tui_combat.engine import registry
from tui_combat.engine.contract import AnyRuleset, Ruleset
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import plural_msg, render
from tui_combat.i18n import _, language, set_language


@pytest.fixture
def speaking() -> Iterator[None]:
    before = language()
    yield
    set_language(before)


def label(ruleset: AnyRuleset, name: str) -> str:
    (spec,) = [spec for spec in ruleset.actions if spec.name == name]
    return _(spec.label)


def test_the_plugin_speaks_russian_with_the_app(savage_worlds: AnyRuleset, speaking: None) -> None:
    set_language("ru")
    assert label(savage_worlds, "recover") == "Выйти из шока"
    assert _("Parry / Toughness") == "Защита / Стойкость"
    # Its plurals take the language's three forms.
    assert render(plural_msg("{n} wound and Shaken", "{n} wounds and Shaken", 1)) == "1 рана и шок"
    assert render(plural_msg("{n} wound and Shaken", "{n} wounds and Shaken", 3)) == "3 раны и шок"
    assert render(plural_msg("{n} wound and Shaken", "{n} wounds and Shaken", 5)) == "5 ран и шок"
    assert _("Round {n} begins.", n=2) == "Начинается раунд 2."  # the app's own words still first


def test_a_language_chosen_after_the_plugin_loaded_reaches_it(savage_worlds: AnyRuleset, speaking: None) -> None:
    set_language("en")
    assert label(savage_worlds, "recover") == "Recover from Shaken"
    set_language("uk")
    assert label(savage_worlds, "recover") == "Вийти з шоку"
    set_language("ru")
    assert label(savage_worlds, "recover") == "Выйти из шока"


def test_the_plugin_s_catalogs_match_its_code() -> None:
    from tui_combat.i18n.update import main

    assert main(["--plugin", str(PACKAGE), "--check"]) == 0


class Broken(Ruleset[Any, Any]):
    id = "broken_catalog"
    name = "Broken catalog"


def test_a_broken_catalog_is_refused_naming_its_file(tmp_path: Path, speaking: None) -> None:
    (tmp_path / "ru.po").write_text('msgid "Hold"\nmsgstr "Выжидание\n', encoding="utf-8")  # no closing quote
    Broken.catalogs = tmp_path
    set_language("ru")  # the catalog of the language in use is read as the plugin loads
    with pytest.raises(RuleError, match="ru.po"):
        registry.register(Broken())
    registry.forget()


def test_in_english_no_catalog_of_the_plugin_is_read(tmp_path: Path, speaking: None) -> None:
    """Nothing compiled nor cached for a plugin loaded in English (``tui-combat check``, a script)."""
    (tmp_path / "ru.po").write_text('msgid "Hold"\nmsgstr "Выжидание\n', encoding="utf-8")  # broken, never read
    Broken.catalogs = tmp_path
    set_language("en")
    registry.register(Broken())
    registry.forget()
