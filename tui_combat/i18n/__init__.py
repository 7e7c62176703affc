"""One translation function for every user-facing string, on standard gettext catalogs.

Messages are written in English in the code and looked up by their English text. The catalogs are
``ru.po`` and ``uk.po`` beside this module (plain gettext catalogs: Poedit and Weblate open them); they are
compiled for :class:`gettext.GNUTranslations` when first used (see :mod:`tui_combat.i18n.catalog`).
A missing translation falls back to English, so a half-translated catalog never breaks the app.

* ``_("{name} attacks.", name=...)`` — translate now and fill the ``{placeholders}``;
* ``ngettext("{n} round", "{n} rounds", count)`` — the form that goes with ``count`` (Russian and
  Ukrainian have three: 1 раунд, 2 раунда, 5 раундов); ``{n}`` is the count;
* ``N_("...")`` — mark a message id that is stored and translated when shown (the log, labels in data);
* ``pgettext("range", "medium")`` — a word whose translation depends on where it is used (a medium range
  is not a medium size in Russian); ``NC_("range", "medium")`` marks one for later;
* ``after_name("unconscious")`` — a condition or a state of health as shown right after a combatant's name,
  in a form that does not say whether the combatant is a man or a woman (context :data:`AFTER_A_NAME`).

The language is chosen when the app starts (:func:`choose_language`: ``--lang``, then ``language`` in the
user's ``settings.toml``, then ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``). Nothing is translated
when a module is imported: a class's key descriptions are message ids (``N_``), translated as a screen shows
them (:mod:`tui_combat.widgets.translated_bindings`), so a screen shown after :func:`set_language` shows the
new language.

Updating the catalogs after strings changed in the code is one command (it needs Babel, from the test
extras)::

    .venv/bin/python -m tui_combat.i18n.update

It extracts every message (``_``, ``N_``, ``ngettext``, ``plural_msg``, and the labels of the data and demo
files) and merges the result into ``ru.po`` and ``uk.po``; then translate what it lists as new.
"""

from __future__ import annotations

import re
from gettext import GNUTranslations, NullTranslations
from pathlib import Path
from typing import Final

import tui_combat
from tui_combat.i18n.choose import KNOWN_LANGUAGES, UnknownLanguage, choose_language, language_argument

__all__ = [
    "AFTER_A_NAME",
    "KNOWN_LANGUAGES",
    "NC_",
    "N_",
    "after_name",
    "UnknownLanguage",
    "_",
    "add_catalogs",
    "choose_language",
    "data_word",
    "english_word",
    "data_words",
    "language",
    "language_argument",
    "CatalogInUse",
    "localize_argparse",
    "ngettext",
    "pgettext",
    "play_catalogs",
    "set_language",
    "spellings",
    "use_catalog",
    "words_in_use",
]

ENGLISH: Final = "en"


class _DictTranslations(NullTranslations):
    """An in-memory catalog (tests, and messages loaded from elsewhere): English plural rule."""

    def __init__(self, messages: dict[str, str]) -> None:
        super().__init__()
        self._messages = dict(messages)

    def gettext(self, message: str) -> str:
        return self._messages.get(message, message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self._messages.get(msgid1 if n == 1 else msgid2, msgid1 if n == 1 else msgid2)


_translations: NullTranslations = NullTranslations()
_language = ENGLISH


_plugin_folders: list[Path] = []
"""The folders of the plugins' own catalogs (:func:`add_catalogs`), in the order they were added."""


def set_language(language: str, po_file: Path | None = None) -> None:
    """Switch the catalog ("en" is the code's own text). An unknown language raises
    :class:`UnknownLanguage`; ``po_file`` reads another ``.po`` (a translator trying a change)."""
    global _translations, _language, _app_po
    if language == ENGLISH and po_file is None:
        _translations, _language, _app_po = NullTranslations(), ENGLISH, None
        return
    if po_file is None and language not in KNOWN_LANGUAGES:
        raise UnknownLanguage(language)
    _language, _app_po = language, po_file
    _translations = _layered()


_in_play: Path | None = None
"""The catalogs of the ruleset whose fight is shown (:func:`play_catalogs`): looked up before the app's."""
_app_po: Path | None = None
"""The ``.po`` the app's catalog was read from, when not its own (:func:`set_language`'s ``po_file``)."""


def add_catalogs(folder: Path) -> None:
    """A plugin's own catalogs: ``folder`` holds a ``<language>.po`` for each language it speaks (``ru.po``,
    ``uk.po``), in the language of the interface now and after any change of it; a language it has no catalog for
    shows its English. Its messages are looked up after the app's, except in the fight of its own ruleset
    (:func:`play_catalogs`), where they come first. The catalog of the language in use is read now: one that
    cannot be read raises (OSError, :class:`~tui_combat.i18n.po.CatalogError`, UnicodeDecodeError) and the folder
    is not added; after a change of language it is passed over."""
    global _translations
    if folder in _plugin_folders:
        return
    if _language != ENGLISH:
        plugin = _plugin_catalog(folder, strict=True)
        if plugin is not None:
            _translations.add_fallback(plugin)
    _plugin_folders.append(folder)


def play_catalogs(folder: Path | None) -> None:
    """The catalogs of the ruleset in play (its ``catalogs`` folder, None for one without): its messages are
    looked up there before the app's, so that a word it shares with the app ("acted") reads as it translates it,
    in its fight. The app puts the ruleset of the fight it shows in play
    (:func:`tui_combat.engine.registry.in_play`); every other plugin's catalog stays behind the app's."""
    global _in_play, _translations
    if folder == _in_play:
        return
    _in_play = folder
    if _language != ENGLISH and isinstance(_translations, GNUTranslations):
        _translations = _layered()


def _layered() -> NullTranslations:
    """The plugin in play's catalog, then the app's, then every other plugin's, in the order they were added."""
    from tui_combat.i18n.catalog import translations

    app = translations(_language, _app_po)
    for folder in _plugin_folders:
        if folder != _in_play:
            plugin = _plugin_catalog(folder)
            if plugin is not None:
                app.add_fallback(plugin)
    front = _plugin_catalog(_in_play) if _in_play is not None else None
    if front is None:
        return app
    front.add_fallback(app)
    return front


def _plugin_catalog(folder: Path, strict: bool = False) -> NullTranslations | None:
    from tui_combat.i18n.catalog import translations
    from tui_combat.i18n.po import CatalogError

    po_file = folder / f"{_language}.po"
    if not po_file.is_file():
        return None  # none for this language: the plugin speaks English
    try:
        return translations(_language, po_file)
    except (OSError, CatalogError, UnicodeDecodeError):
        if strict:
            raise
        return None


def language() -> str:
    return _language


def words_in_use() -> tuple[object, int]:
    """The catalogs in use, as a value that differs after any change of the language, of the ruleset in play or
    of the plugins' catalogs: what keeps text made in the active language knows by it whether that text holds."""
    return _translations, len(_plugin_folders)


class CatalogInUse:
    """An in-memory catalog switched on by :func:`use_catalog`: in force from the call on; as a context manager
    (``with use_catalog("xx", {...}):``), until the block ends, when the language and catalog of before come back."""

    def __init__(self, language: str, messages: dict[str, str]) -> None:
        global _translations, _language
        self._before = (_translations, _language)
        _language = language
        _translations = _DictTranslations(messages) if messages else NullTranslations()

    def __enter__(self) -> CatalogInUse:
        return self

    def __exit__(self, *exc: object) -> None:
        self.restore()

    def restore(self) -> None:
        """The language and catalog in force before this one."""
        global _translations, _language
        _translations, _language = self._before


def use_catalog(language: str, messages: dict[str, str]) -> CatalogInUse:
    """Switch to an in-memory catalog (``messages``: English id → translation; for tests, and for catalogs loaded
    from elsewhere). In force at once; used with ``with``, only inside the block::

        with use_catalog("xx", {"Round {n} begins.": "Runde {n}."}):
            ...
    """
    return CatalogInUse(language, messages)


def N_(message: str, /) -> str:
    """Mark a message id for extraction without translating it (it is stored, and rendered when shown)."""
    return message


def NC_(context: str, message: str, /) -> str:
    """Mark a message id of a given context (see :func:`pgettext`) without translating it."""
    return message


def _fill(text: str, english: str, params: dict[str, object]) -> str:
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError, AttributeError):  # a broken translation: show the English
        return english.format(**params)


def _(message: str, /, **params: object) -> str:
    """Translate ``message`` and fill ``{name}`` placeholders from ``params``. The empty message is the
    empty string (gettext would give the catalog's header)."""
    if not message:
        return ""
    text = _translations.gettext(message)
    return _fill(text, message, params) if params else text


tui_combat.translate = _


def english_word(word: str, words: tuple[str, ...], /, context: str | None = None) -> str | None:
    """Which of ``words`` (English message ids: "warrior", "large") ``word`` is, written in English or in
    any language of the interface ("воитель", "Великий"), case aside; None when it is none of them. A file
    written by a Russian GM reads the same whatever language the program runs in. ``context``: the words'
    context in the catalogs (see :func:`pgettext`)."""
    wanted = " ".join(word.split()).casefold()
    for english in words:
        if english.casefold() == wanted:
            return english
    for english in words:
        if any(" ".join(spelt.split()).casefold() == wanted for spelt in spellings(english, context)[1:]):
            return english
    return None


def spellings(message: str, context: str | None = None, /) -> tuple[str, ...]:
    """``message`` (a message id) as every language of the interface writes it: the English first, then each
    catalog's translation (the same one more than once when languages share it)."""
    found = [message]
    for catalog in _catalogs():
        found.append(catalog.gettext(message) if context is None else catalog.pgettext(context, message))
    return tuple(found)


_read: dict[str, tuple[tuple[int, int], NullTranslations]] = {}
"""Each language's catalog as last read, by language, with the size and time of its ``.po``."""


def _catalogs() -> list[NullTranslations]:
    """The catalog of every language of the interface but English, read again only when its ``.po`` changed."""
    from tui_combat.i18n.catalog import po_path, translations

    found = []
    for code in KNOWN_LANGUAGES:
        if code == ENGLISH:
            continue
        try:
            stat = po_path(code).stat()
            seen = (stat.st_size, stat.st_mtime_ns)
            kept = _read.get(code)
            if kept is None or kept[0] != seen:
                kept = _read[code] = (seen, translations(code))
        except OSError:
            continue
        found.append(kept[1])
    return found


def data_word(word: str, /) -> str:
    """A name from the data or a sheet ("hardened leather", "Long spear") in the GM's language: the
    catalog's entry, whatever its case there ("Hardened leather"); as written when the catalog has none.
    The translation takes the case of the word's first letter as written."""
    text = word.strip()
    if not text:
        return word
    for candidate in (text, text[:1].upper() + text[1:], text[:1].lower() + text[1:], text.lower()):
        found = _translations.gettext(candidate)
        if found != candidate:
            if found[1:2].islower() and text[:1].isalpha():  # not an abbreviation ("AC") nor "1st-level …": as found
                return (found[:1].lower() if text[:1].islower() else found[:1].upper()) + found[1:]
            return found
    return text


_SEPARATOR = re.compile(r"\s*[,;]\s*")
_FIGURES = re.compile(r"^(?P<name>.*?\S)(?P<figures>(?:\s+[+\-−]?[0-9][^\s,;()]*)+)$")
_QUALIFIED = re.compile(r"^(?P<name>[^()]*?\S)\s*(?P<qualifier>\([^()]*\))$")


def data_words(text: str, /) -> str:
    """A list of data names as a sheet writes them, each in the GM's language (:func:`data_word`), the rest
    as written: "longsword, heavy crossbow", "action surge 1", "Armed combat 1; Unarmed combat 1", "javelin
    (thrown) +4 1d6+2" (the figures after a name, and the commas and semicolons between, stay as they are; a
    name's part in parentheses is looked up with its parentheses). A text the catalog has whole is translated
    whole."""
    if not text or _translations.gettext(text) != text:
        return _(text)
    parts: list[str] = []
    depth = start = 0
    for index, char in enumerate(text):  # separators outside parentheses only ("Club (im -2, actions 3)")
        depth += (char == "(") - (char == ")")
        if depth == 0 and char in ",;":
            parts += [text[start:index], char]
            start = index + 1
    parts.append(text[start:])
    return "".join(part if part in (",", ";") else _data_item(part) for part in parts)


def _data_item(item: str) -> str:
    """One item of :func:`data_words`, its spaces around kept."""
    core = item.strip()
    if not core:
        return item
    lead, trail = item[: len(item) - len(item.lstrip())], item[len(item.rstrip()) :]
    shown = data_word(core)
    if shown == core:
        figures = _FIGURES.match(core)
        name, after = (figures["name"], figures["figures"]) if figures else (core, "")
        shown = data_word(name)
        if shown == name:
            qualified = _QUALIFIED.match(name)
            if qualified is not None:
                shown = f"{data_word(qualified['name'])} {_(qualified['qualifier'])}"
        shown += after
    return lead + shown + trail


def ngettext(singular: str, plural: str, count: int, /, **params: object) -> str:
    """The translation of ``singular``/``plural`` whose form goes with ``count``; ``{n}`` is the count
    unless ``params`` give another ``n``."""
    params.setdefault("n", count)
    return _fill(_translations.ngettext(singular, plural, count), singular if count == 1 else plural, params)


def pgettext(context: str, message: str, /, **params: object) -> str:
    """Translate ``message`` as used in ``context`` and fill its placeholders."""
    if not message:
        return ""
    text = _translations.pgettext(context, message)
    return _fill(text, message, params) if params else text


AFTER_A_NAME: Final = "after a name"
"""The context of a word shown right after a combatant's name (the players' screen: "Лия  · без сознания"):
the app does not know whether he or she is meant, so the word there must not say ("бессознательный" would)."""


def after_name(word: str, /) -> str:
    """``word`` (a message id: a condition, a state of health) as shown right after a combatant's name: its
    translation in the context :data:`AFTER_A_NAME` where the catalog has one, else its usual translation."""
    shown = pgettext(AFTER_A_NAME, word)
    return shown if shown != word else _(word)


def localize_argparse() -> None:
    """Give :mod:`argparse`'s own words ("usage:", "options", its errors) from the active catalog: it looks
    them up through the module-level ``_``/``ngettext`` it imported from :mod:`gettext`, which know
    nothing of this package's catalogs. Its messages are listed in :mod:`tui_combat.i18n.argparse_words`."""
    import argparse

    def gettext(message: str) -> str:
        return _translations.gettext(message)

    def plural(singular: str, plural: str, count: int) -> str:
        return _translations.ngettext(singular, plural, count)

    setattr(argparse, "_", gettext)
    setattr(argparse, "ngettext", plural)
