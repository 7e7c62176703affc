"""The catalogs match the code: every message the code uses (extracted now, with Babel, the way
``python -m tui_combat.i18n.update`` does) is translated and checked (not fuzzy) in every catalog, no
catalog keeps a message the code dropped, and every translation keeps its message's placeholders.
Plural forms are the language's own: three in Russian and Ukrainian, checked against hand-written words.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import string
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message

from tui_combat.i18n import language, ngettext, set_language
from tui_combat.i18n.update import PACKAGE_DIR, extract_catalog, languages, read_catalog

LANGUAGES = ("ru", "uk")


@pytest.fixture(scope="module")
def template() -> Catalog:
    return extract_catalog()


@pytest.fixture
def speaking() -> Iterator[None]:
    before = language()
    yield
    set_language(before)


def key(message: Message) -> tuple[str | None, str]:
    ident = message.id if isinstance(message.id, str) else message.id[0]
    return message.context, ident


def test_both_languages_have_a_catalog() -> None:
    assert set(LANGUAGES) <= set(languages())


def test_the_extraction_finds_the_code_and_the_data(template: Catalog) -> None:
    """Sanity of the extraction itself: a message of each kind of source is found."""
    found = {key(m) for m in template if m.id}
    assert (None, "Round {n} begins.") in found  # N_ in the engine
    assert (None, "{n} round") in found  # plural_msg
    assert (None, "{path}: {n} combatant, ruleset {ruleset}. OK.") in found  # ngettext in the CLI
    assert ("range", "medium") in found  # NC_ with a context
    assert (None, "war hammer") in found  # a weapon of adnd2e.toml
    assert (None, "set to receive a charge") in found  # Table 55
    assert (None, "knock down") in found  # a Player's Option critical event
    assert (None, "grappled") in found  # a 5e condition
    assert (None, "seax") in found  # a Trudvang weapon's name in lower case, for sentences
    assert (None, "Trolls and orcs in the tunnel") in found  # a demo encounter
    assert (None, "usage: ") in found  # argparse's own words
    assert len(found) > 1000


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_of_the_code_is_translated(template: Catalog, lang: str) -> None:
    catalog = read_catalog(lang)
    translated = {key(m): m for m in catalog if m.id}
    missing = [k for k in (key(m) for m in template if m.id) if k not in translated]
    assert not missing, f"{lang}.po lacks {len(missing)} messages; run python -m tui_combat.i18n.update: {missing[:10]}"
    untranslated, fuzzy = [], []
    for message in template:
        if not message.id:
            continue
        entry = translated[key(message)]
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if not all(strings):
            untranslated.append(key(message))
        if entry.fuzzy:
            fuzzy.append(key(message))
    assert not untranslated, f"{lang}.po: {len(untranslated)} untranslated: {untranslated[:10]}"
    assert not fuzzy, f"{lang}.po: {len(fuzzy)} fuzzy (check and clear the flag): {fuzzy[:10]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_catalog_keeps_a_message_the_code_dropped(template: Catalog, lang: str) -> None:
    used = {key(m) for m in template if m.id}
    stale = [key(m) for m in read_catalog(lang) if m.id and key(m) not in used]
    assert not stale, (
        f"{lang}.po holds messages the code no longer uses; run python -m tui_combat.i18n.update: {stale[:10]}"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_messages_keep_their_plural_in_the_catalog(template: Catalog, lang: str) -> None:
    plural = {key(m) for m in template if m.id and not isinstance(m.id, str)}
    catalog = {key(m): m for m in read_catalog(lang) if m.id}
    for k in plural:
        assert isinstance(catalog[k].string, tuple) and len(catalog[k].string) == 3, k


def _fields(text: str) -> set[str]:
    if re.search(r"%(\(\w+\))?[srd]", text):
        return set(re.findall(r"%(?:\(\w+\))?[srd]", text))
    return {field for _literal, field, _spec, _conversion in string.Formatter().parse(text) if field is not None}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_the_placeholders(lang: str) -> None:
    """A translation naming a placeholder the code does not pass would fall back to English at run time;
    one dropping a placeholder would hide a number. (A plural form may leave out ``{n}``: "one" in words.)"""
    wrong = []
    for message in read_catalog(lang):
        if not message.id:
            continue
        ids = (message.id,) if isinstance(message.id, str) else tuple(message.id)
        strings = (message.string,) if isinstance(message.string, str) else tuple(message.string)
        expected = _fields(ids[-1])
        for translation in strings:
            got = _fields(translation)
            if got != expected and not (len(ids) == 2 and got == expected - {"n"}):
                wrong.append((ids[0], translation))
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_says_its_plural_rule(lang: str) -> None:
    catalog = read_catalog(lang)
    assert catalog.num_plurals == 3
    assert "n%10==1" in catalog.plural_expr.replace(" ", "")


ROUNDS = {
    "ru": {
        1: "1 раунд",
        2: "2 раунда",
        5: "5 раундов",
        11: "11 раундов",
        21: "21 раунд",
        22: "22 раунда",
        25: "25 раундов",
    },
    "uk": {
        1: "1 раунд",
        2: "2 раунди",
        5: "5 раундів",
        11: "11 раундів",
        21: "21 раунд",
        22: "22 раунди",
        25: "25 раундів",
    },
}
COMBATANTS = {
    "ru": {
        1: "участник",
        2: "участника",
        5: "участников",
        11: "участников",
        21: "участник",
        22: "участника",
        25: "участников",
    },
    "uk": {
        1: "учасник",
        2: "учасники",
        5: "учасників",
        11: "учасників",
        21: "учасник",
        22: "учасники",
        25: "учасників",
    },
}
COMBAT_POINTS = {
    "ru": {
        1: "1 боевое очко",
        2: "2 боевых очка",
        5: "5 боевых очков",
        11: "11 боевых очков",
        21: "21 боевое очко",
        22: "22 боевых очка",
        25: "25 боевых очков",
    },
    "uk": {
        1: "1 бойове очко",
        2: "2 бойові очки",
        5: "5 бойових очок",
        11: "11 бойових очок",
        21: "21 бойове очко",
        22: "22 бойові очки",
        25: "25 бойових очок",
    },
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("count", [1, 2, 5, 11, 21, 22, 25])
def test_plural_forms(speaking: None, lang: str, count: int) -> None:
    set_language(lang)
    assert ngettext("{n} round", "{n} rounds", count) == ROUNDS[lang][count]
    assert ngettext("{n} CP", "{n} CP", count) == COMBAT_POINTS[lang][count]
    checked = ngettext(
        "{path}: {n} combatant, ruleset {ruleset}. OK.",
        "{path}: {n} combatants, ruleset {ruleset}. OK.",
        count,
        path="orcs.toml",
        ruleset="AD&D",
    )
    assert checked.startswith(f"orcs.toml: {count} {COMBATANTS[lang][count]} ")


@pytest.mark.parametrize("count", [1, 2, 5, 11, 21, 22, 25])
def test_english_plurals(speaking: None, count: int) -> None:
    set_language("en")
    assert ngettext("{n} round", "{n} rounds", count) == (f"{count} round" if count == 1 else f"{count} rounds")


def test_plural_log_entries_render_in_the_language_shown(speaking: None) -> None:
    """A stored plural message (``plural_msg``) picks its form when shown, in the language of the moment."""
    from tui_combat.rulesets.adnd2e.state import duration

    stored = [duration(rounds) for rounds in (1, 2, 5, 21, 25, 30, 32)]
    set_language("ru")
    assert [str(m) for m in stored] == [
        "1 раунд",
        "2 раунда",
        "5 раундов",
        "2 оборота 1 раунд",
        "2 оборота 5 раундов",
        "3 оборота",
        "3 оборота 2 раунда",
    ]
    set_language("uk")
    assert [str(m) for m in stored] == [
        "1 раунд",
        "2 раунди",
        "5 раундів",
        "2 обороти 1 раунд",
        "2 обороти 5 раундів",
        "3 обороти",
        "3 обороти 2 раунди",
    ]
    set_language("en")
    assert [str(m) for m in stored] == [
        "1 round",
        "2 rounds",
        "5 rounds",
        "2 turns 1 round",
        "2 turns 5 rounds",
        "3 turns",
        "3 turns 2 rounds",
    ]


MARKERS = {"_", "N_", "ngettext", "plural_msg", "pgettext", "NC_"}


def test_no_message_is_built_at_run_time() -> None:
    """The extractor only sees literal text: an f-string or a "+" given to a translation function would
    be a message no catalog can hold."""
    built = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = (
                node.func.id
                if isinstance(node.func, ast.Name)
                else node.func.attr
                if isinstance(node.func, ast.Attribute)
                else ""
            )
            if name in MARKERS and node.args and isinstance(node.args[0], (ast.JoinedStr, ast.BinOp)):
                built.append(f"{Path(path).relative_to(PACKAGE_DIR.parent)}:{node.lineno}")
    assert not built, built


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_empty_message_is_empty_in_every_language(code: str, speaking: None) -> None:
    """gettext's own ``gettext("")`` is the catalog's header ("Project-Id-Version: …"); a label left empty in
    the data must show as nothing."""
    from tui_combat.i18n import _, pgettext

    set_language(code)
    assert _("") == "" and pgettext("range", "") == ""


MSGFMT = shutil.which("msgfmt")


@pytest.mark.skipif(
    MSGFMT is None and not os.environ.get("CI"),
    reason="GNU gettext's msgfmt is not installed here (.ci/run installs it)",
)
@pytest.mark.parametrize("code", LANGUAGES)
def test_msgfmt_checks_the_catalog(code: str) -> None:
    """The catalogs go through translators' standard tools: ``msgfmt --check`` finds no error."""
    assert MSGFMT is not None, "msgfmt is needed in CI (Debian's gettext package)"
    result = subprocess.run(
        [MSGFMT, "--check", "--statistics", "-o", os.devnull, str(PACKAGE_DIR / "i18n" / f"{code}.po")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "fuzzy" not in result.stderr and "untranslated" not in result.stderr, result.stderr
