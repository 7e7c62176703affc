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
from tui_combat.i18n import _, language, set_language, use_catalog


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


class Popcorn(Ruleset[Any, Any]):
    """A plugin whose word for a slot that has acted is its own ("acted" is one of the app's words too)."""

    id = "popcorn_words"
    name = "Popcorn words"


POPCORN_RU = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "acted"\nmsgstr "передал ход"\n'


def test_in_its_own_fight_a_plugin_s_word_shared_with_the_app_reads_as_it_translates_it(
    tmp_path: Path, speaking: None
) -> None:
    (tmp_path / "ru.po").write_text(POPCORN_RU, encoding="utf-8")
    Popcorn.catalogs = tmp_path
    set_language("ru")
    registry.register(Popcorn())
    try:
        assert _("acted") == "позади"  # loaded, but no fight of it is shown: the app's word
        registry.in_play("popcorn_words")
        assert _("acted") == "передал ход"
        assert _("Round {n} begins.", n=2) == "Начинается раунд 2."  # what it does not translate: the app's
        set_language("uk")
        set_language("ru")  # a change of language keeps it in play
        assert _("acted") == "передал ход"
        registry.in_play("adnd2e")
        assert _("acted") == "позади"
    finally:
        registry.in_play("")
        registry.forget()


def test_the_catalog_update_warns_of_a_plugin_message_the_app_has_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui_combat.i18n.update import main

    package = tmp_path / "popcorn"
    (package / "locale").mkdir(parents=True)
    (package / "__init__.py").write_text(
        'from tui_combat.i18n import _\n\n\ndef marker() -> str:\n    return _("acted")\n', encoding="utf-8"
    )
    (package / "locale" / "ru.po").write_text(POPCORN_RU, encoding="utf-8")
    assert main(["--plugin", str(package), "--check"]) == 0
    out = capsys.readouterr().out
    assert (
        "warning: 'acted' is one of the app's messages too: the plugin's translation is used in its fights, the "
        "app's elsewhere (ru: 'передал ход' here, 'позади' in the app)"
    ) in out


def test_an_in_memory_catalog_holds_inside_its_block_and_the_old_call_still_switches(speaking: None) -> None:
    set_language("ru")
    with use_catalog("xx", {"Round {n} begins.": "Runde {n}."}):
        assert (language(), _("Round {n} begins.", n=2)) == ("xx", "Runde 2.")
    assert (language(), _("Round {n} begins.", n=2)) == ("ru", "Начинается раунд 2.")
    use_catalog("xx", {"Round {n} begins.": "Runde {n}."})  # the old way: a switch that stays
    assert _("Round {n} begins.", n=3) == "Runde 3."
