"""Update the catalogs from the code: extract every message, merge into each ``.po``, report what needs work.

    .venv/bin/python -m tui_combat.i18n.update            # extract → merge into ru.po and uk.po
    .venv/bin/python -m tui_combat.i18n.update --check    # only report; exit 1 if anything needs work
    .venv/bin/python -m tui_combat.i18n.update --new pl   # start a catalog for another language
    .venv/bin/python -m tui_combat.i18n.update --plugin path/to/package   # a plugin's own, in its locale/

With ``--plugin`` (and ``--check``) it also warns of each of the plugin's messages that is one of the app's too
("acted"): in the plugin's fights its own translation is used for it, the app's elsewhere.

Extraction is Babel's: its Python extractor with the keywords below (and the calls inside f-strings, see
:mod:`tui_combat.i18n.extract`), and :func:`~tui_combat.i18n.extract.extract_toml` for the shown labels of
the ruleset data files and the demo encounters. Merging is Babel's
too: a message the code no longer uses is dropped, a new one is added untranslated, and one whose English
changed a little comes back marked fuzzy with the old translation, for a translator to check (a fuzzy
translation is not used, and the catalog test fails until it is checked). Locations are written without
line numbers, so that editing code does not rewrite the catalogs. Babel comes with the test extras
(``pip install -e '.[test]'``); the app itself does not need it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from tui_combat.i18n.catalog import CATALOG_DIR

PACKAGE_DIR = CATALOG_DIR.parent
ROOT = PACKAGE_DIR.parent
KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "plural_msg": (1, 2),
    "pgettext": ((1, "c"), 2),
    "NC_": ((1, "c"), 2),
}
"""The translation functions: ``_`` and ``N_`` take the message first; ``ngettext`` and
:func:`tui_combat.engine.log.plural_msg` take singular and plural."""

TOML = "tui_combat.i18n.extract:extract_toml"
METHODS: list[tuple[str, str]] = [
    ("**.py", "tui_combat.i18n.extract:extract_python"),
    ("rulesets/data/adnd2e.toml", TOML),
    ("rulesets/data/players_option.toml", TOML),
    ("rulesets/data/dnd5e.toml", TOML),
    ("rulesets/data/ose.toml", TOML),
    ("rulesets/data/trudvang.toml", TOML),
    ("encounters/*.toml", TOML),
    ("rulesets/data/bestiary/*.toml", TOML),
]
OPTIONS: dict[str, dict[str, str]] = {
    "rulesets/data/adnd2e.toml": {
        "values": "label unit",
        "keys_of": "weapon_speeds armour_types",
        "comment": "AD&D 2e data: a situation, a weapon or an armour",
    },
    "rulesets/data/players_option.toml": {
        "values": "label question unit",
        "keys_of": "weapons.classes",
        "comment": "Player's Option data: a phase, a range situation, a critical event, an end-of-round part",
    },
    "rulesets/data/dnd5e.toml": {
        "keys_of": "conditions weapons",
        "comment": "D&D 5e data: a condition or a weapon",
    },
    "rulesets/data/ose.toml": {
        "values": "label unit",
        "keys_of": "missile.ranges",
        "lists": "slow_weapons.weapons",
        "comment": "OSE / Dolmenwood data: a distance situation or a weapon",
    },
    "rulesets/data/trudvang.toml": {
        "values": "name group",
        "lowercase": "weapons shields",
        "comment": "Trudvang data: a weapon, shield, armour, discipline, specialty or weapon group",
    },
    "encounters/*.toml": {
        "values": "name notes weapon",
        "comment": "a demo encounter: its name, a side, a combatant, a note",
    },
    "rulesets/data/bestiary/*.toml": {
        "values": "name notes",
        "comment": "a starter bestiary: a creature's name or notes",
    },
}


PLUGIN_METHODS: list[tuple[str, str]] = [("**.py", "tui_combat.i18n.extract:extract_python")]
"""A ruleset plugin's messages: those of its code (its data and demo are its own business)."""


def plugin_catalog_dir(package: Path) -> Path:
    """Where a plugin package keeps its catalogs (its ruleset's ``catalogs``)."""
    return package / "locale"


def extract_catalog(package: Path = PACKAGE_DIR) -> Catalog:
    """Every message of the package (the app's, or a plugin's package folder), as a template catalog
    (locations relative to the package's parent)."""
    template = Catalog(project="tui-combat", fuzzy=False)
    own = package == PACKAGE_DIR
    found = extract_from_dir(
        str(package),
        method_map=METHODS if own else PLUGIN_METHODS,
        options_map=OPTIONS if own else {},
        keywords=KEYWORDS,
        comment_tags=("Translators:",),
        strip_comment_tags=True,
    )
    for file_name, line, message, comments, context in found:
        where = f"{package.name}/{file_name}"
        template.add(message, None, [(where, line)], auto_comments=comments, context=context)
    return template


def languages(folder: Path = CATALOG_DIR) -> list[str]:
    return sorted(path.stem for path in folder.glob("*.po"))


def read_catalog(language: str, folder: Path = CATALOG_DIR) -> Catalog:
    with (folder / f"{language}.po").open("rb") as handle:
        catalog = read_po(handle, locale=language)
    catalog.project, catalog.version, catalog.msgid_bugs_address = "tui-combat", "0.1", "tui-combat issues"
    return catalog


def write_catalog(catalog: Catalog, language: str, folder: Path = CATALOG_DIR) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / f"{language}.po").open("wb") as handle:
        write_po(handle, catalog, width=100, include_lineno=False, ignore_obsolete=True)


def needs_work(catalog: Catalog) -> list[Message]:
    """Messages without a translation (any plural form) or marked fuzzy."""
    result = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            result.append(message)
    return result


def merge(template: Catalog, language: str, folder: Path = CATALOG_DIR) -> Catalog:
    catalog = read_catalog(language, folder)
    catalog.update(template, update_header_comment=False, update_creation_date=False)  # no churn from dates
    brace_format(catalog)
    return catalog


PRINTF_FORMATTED = "argparse_words.py"
"""The one module whose messages are printf formats: argparse's own words, which argparse fills with ``%``."""


def brace_format(catalog: Catalog) -> None:
    """Mark the messages with ``{placeholders}`` as what they are. Babel guesses ``python-format`` from a
    ``%`` in the text ("% of max HP"), which makes ``msgfmt --check`` read them as printf formats; the
    messages of this package are filled with :meth:`str.format` (argparse's own words, which have no
    braces, keep their printf format)."""
    for message in catalog:
        if not message.id:
            continue
        if not any(where.endswith(PRINTF_FORMATTED) for where, _line in message.locations):
            message.flags.discard("python-format")
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        if any("{" in text for text in ids):
            message.flags.add("python-brace-format")


def new_catalog(template: Catalog, language: str, folder: Path = CATALOG_DIR) -> None:
    path = folder / f"{language}.po"
    if path.exists():
        raise SystemExit(f"{path} exists already")
    catalog = Catalog(locale=language, project="tui-combat", fuzzy=False)
    catalog.update(template)
    write_catalog(catalog, language, folder)


def _report(language: str, messages: Iterable[Message]) -> int:
    listed = list(messages)
    print(f"{language}.po: {len(listed)} to translate or check")
    for message in listed:
        mark = " (fuzzy)" if message.fuzzy else ""
        print(f"  {message.id!r}{mark}")
    return len(listed)


def _key(message: Message) -> tuple[str, str | None]:
    ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
    return str(ids[0]), message.context


def shared_with_the_app(template: Catalog, folder: Path) -> list[str]:
    """A warning for each of a plugin's messages (``template``, its catalogs in ``folder``) that is one of the app's
    too: in a fight of the plugin its own translation is used, and the app's elsewhere, so a word the two mean
    differently reads as each means it; one they mean alike is best translated alike (or worded apart)."""
    app = {language: {_key(m): m for m in read_catalog(language) if m.id} for language in languages()}
    ours = {language: {_key(m): m for m in read_catalog(language, folder) if m.id} for language in languages(folder)}
    known = set().union(*(set(found) for found in app.values())) if app else set()
    warnings = []
    for message in template:
        if not message.id or _key(message) not in known:
            continue
        differ = []
        for language, found in ours.items():
            mine, theirs = found.get(_key(message)), app.get(language, {}).get(_key(message))
            if mine is not None and theirs is not None and mine.string and mine.string != theirs.string:
                differ.append(f"{language}: {mine.string!r} here, {theirs.string!r} in the app")
        detail = f" ({'; '.join(differ)})" if differ else ""
        warnings.append(
            f"warning: {_key(message)[0]!r} is one of the app's messages too: the plugin's translation is "
            f"used in its fights, the app's elsewhere{detail}"
        )
    return warnings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tui_combat.i18n.update", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="report only, change no file")
    parser.add_argument("--new", metavar="LANG", help="start a catalog for another language")
    parser.add_argument(
        "--plugin",
        metavar="PACKAGE",
        type=Path,
        help="a ruleset plugin's package folder: its messages, its catalogs in PACKAGE/locale",
    )
    args = parser.parse_args(argv)
    package = args.plugin.resolve() if args.plugin else PACKAGE_DIR
    folder = plugin_catalog_dir(package) if args.plugin else CATALOG_DIR
    template = extract_catalog(package)
    if args.new:
        new_catalog(template, args.new, folder)
    pending = 0
    for language in languages(folder):
        catalog = merge(template, language, folder)
        if not args.check:
            write_catalog(catalog, language, folder)
        pending += _report(language, needs_work(catalog))
    if args.plugin:
        for warning in shared_with_the_app(template, folder):
            print(warning)
    print(f"{len(template)} messages in the code.")
    return 1 if args.check and pending else 0


if __name__ == "__main__":
    sys.exit(main())
