"""The small ``.po`` → ``.mo`` compiler the app runs at first use, checked against Babel's (the reference),
and the cache it fills: keyed by the ``.po``'s hash, written once, never required."""

from __future__ import annotations

import io
from gettext import GNUTranslations
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from tui_combat.i18n import catalog
from tui_combat.i18n.catalog import compiled, po_path
from tui_combat.i18n.po import CatalogError, compile_mo, parse_po

SAMPLE = r"""# A translator's comment
msgid ""
msgstr ""
"Language: ru\n"
"Content-Type: text/plain; charset=utf-8\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\n"

#: tui_combat/engine/apply.py
msgid "Round {n} begins."
msgstr "Начинается раунд {n}."

#, fuzzy
msgid "Orc"
msgstr "Гоблин"

msgid "Untranslated"
msgstr ""

msgid "A \"quoted\" word,\n"
"and a second line"
msgstr "«Слово» в кавычках,\n"
"и вторая строка"

msgctxt "range"
msgid "medium"
msgstr "средняя"

msgid "medium"
msgstr "средний"

msgid "{n} orc"
msgid_plural "{n} orcs"
msgstr[0] "{n} орк"
msgstr[1] "{n} орка"
msgstr[2] "{n} орков"

#~ msgid "Gone"
#~ msgstr "Ушло"
"""


def ours(text: str) -> GNUTranslations:
    return GNUTranslations(io.BytesIO(compile_mo(parse_po(text))))


def babels(text: str) -> GNUTranslations:
    buffer = io.BytesIO()
    write_mo(buffer, read_po(io.StringIO(text)))
    buffer.seek(0)
    return GNUTranslations(buffer)


@pytest.mark.parametrize("build", [ours, babels], ids=["ours", "babel"])
def test_the_sample_reads_the_same_with_both_compilers(build: object) -> None:
    translations = build(SAMPLE)  # type: ignore[operator]
    assert translations.gettext("Round {n} begins.") == "Начинается раунд {n}."
    assert translations.gettext("Orc") == "Orc"  # fuzzy: not used
    assert translations.gettext("Untranslated") == "Untranslated"
    assert translations.gettext('A "quoted" word,\nand a second line') == "«Слово» в кавычках,\nи вторая строка"
    assert translations.pgettext("range", "medium") == "средняя"
    assert translations.gettext("medium") == "средний"
    assert [translations.ngettext("{n} orc", "{n} orcs", n) for n in (1, 2, 5, 11, 21, 22, 25)] == [
        "{n} орк",
        "{n} орка",
        "{n} орков",
        "{n} орков",
        "{n} орк",
        "{n} орка",
        "{n} орков",
    ]
    assert translations.gettext("Gone") == "Gone"


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_shipped_catalogs_compile_to_what_babel_compiles(lang: str) -> None:
    """Every message of the real catalogs looks up the same through our .mo as through Babel's."""
    text = po_path(lang).read_text(encoding="utf-8")
    mine, reference = ours(text), babels(text)
    messages = [m for m in read_po(io.StringIO(text)) if m.id]
    assert len(messages) > 1000
    for message in messages:
        if isinstance(message.id, str):
            if message.context:
                assert mine.pgettext(message.context, message.id) == reference.pgettext(message.context, message.id)
            else:
                assert mine.gettext(message.id) == reference.gettext(message.id)
        else:
            for n in (1, 2, 5, 21):
                assert mine.ngettext(message.id[0], message.id[1], n) == reference.ngettext(
                    message.id[0], message.id[1], n
                )


def test_a_broken_catalog_names_the_line() -> None:
    with pytest.raises(CatalogError, match="ru.po:3"):
        parse_po('msgid "a"\nmsgstr "b"\nmsgfoo "c"\n', "ru.po")
    with pytest.raises(CatalogError, match="ru.po:2"):
        parse_po('msgid "a"\nmsgstr "unterminated\n', "ru.po")


def test_the_cache_is_keyed_by_the_po_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(catalog.CACHE_ENV_VAR, str(tmp_path / "cache"))
    po = tmp_path / "ru.po"
    po.write_text(SAMPLE, encoding="utf-8")
    first = compiled("ru", po)
    files = sorted((tmp_path / "cache" / "i18n").iterdir())
    assert len(files) == 1 and files[0].read_bytes() == first
    assert compiled("ru", po) == first  # read back, not written again
    assert sorted((tmp_path / "cache" / "i18n").iterdir()) == files

    po.write_text(SAMPLE.replace("Начинается раунд", "Начало раунда"), encoding="utf-8")
    second = compiled("ru", po)
    assert second != first
    assert len(list((tmp_path / "cache" / "i18n").iterdir())) == 2  # an edited catalog gets a file of its own
    assert GNUTranslations(io.BytesIO(second)).gettext("Round {n} begins.") == "Начало раунда {n}."


def test_a_cache_that_cannot_be_written_is_no_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would go")
    monkeypatch.setenv(catalog.CACHE_ENV_VAR, str(blocked))
    po = tmp_path / "uk.po"
    po.write_text(SAMPLE, encoding="utf-8")
    assert GNUTranslations(io.BytesIO(compiled("uk", po))).gettext("medium") == "средний"
