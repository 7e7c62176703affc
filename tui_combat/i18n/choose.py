"""Which language the interface speaks: ``--lang``, then the user's settings file, then the environment.

* ``--lang ru`` on the command line;
* ``language = "ru"`` in ``settings.toml`` in the user's config folder (``~/.config/tui-combat`` on Linux,
  or ``$TUI_COMBAT_CONFIG_DIR``);
* the environment, read as :func:`gettext.find` reads it: the first of ``LANGUAGE``, ``LC_ALL``,
  ``LC_MESSAGES``, ``LANG`` that is set decides (``LANGUAGE`` may list several, ``uk:ru``; the first known
  one wins). ``ru_RU.UTF-8`` is Russian; ``C`` and ``POSIX`` are English.

A language asked for by name (``--lang``, the settings file) that has no catalog is an error listing the
known ones. One the environment names but that has no catalog (``de_DE.UTF-8``) gives English, as any
program with no catalog for the user's locale does.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import tui_combat

CATALOG_DIR = Path(__file__).resolve().parent
NATIVE_NAMES = {"en": "English", "ru": "русский", "uk": "українська"}
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
SETTINGS_FILE = "settings.toml"
SETTINGS_LIMIT = 1 << 20
"""Bytes: a longer settings file is not read for its language (it is refused when the app reads it)."""


def _known() -> tuple[str, ...]:
    return ("en", *sorted(path.stem for path in CATALOG_DIR.glob("*.po")))


KNOWN_LANGUAGES: tuple[str, ...] = _known()
"""English (the code's own text) and every language with a catalog beside this module."""


class UnknownLanguage(ValueError):
    def __init__(self, language: str, where: str = "") -> None:
        self.language = language
        self.where = where
        super().__init__(language)

    def __str__(self) -> str:
        _ = tui_combat.translate
        known = ", ".join(f"{code} ({NATIVE_NAMES.get(code, code)})" for code in KNOWN_LANGUAGES)
        if self.where:
            return _(
                '{where}: unknown language "{language}". Known languages: {known}.',
                where=self.where,
                language=self.language,
                known=known,
            )
        return _('Unknown language "{language}". Known languages: {known}.', language=self.language, known=known)


def normalize(name: str) -> str:
    """``ru_RU.UTF-8@euro`` → ``ru``; ``uk-UA`` → ``uk``; ``C``/``POSIX`` → ``en``."""
    base = name.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return "en" if base in ("c", "posix") else base


def language_argument(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` in a command line (``--lang ru`` or ``--lang=ru``), read before the parser is
    built, since the parser's own help is written in that language."""
    for index, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
        if word.startswith("--lang="):
            return word.partition("=")[2]
    return None


def settings_path() -> Path:
    from tui_combat.settings.config import config_dir

    return config_dir() / SETTINGS_FILE


def settings_language(path: Path) -> str | None:
    """``language`` from the settings file, if the file exists and says one."""
    try:
        if path.stat().st_size > SETTINGS_LIMIT:
            return None
        import tomllib  # once there is a file to read

        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except (OSError, ValueError, RecursionError):
        # Missing, unreadable or not TOML: the interface starts in the language of the environment, and the
        # app says what is wrong with the file (tui_combat.settings.config.read_settings reads it again for that).
        return None
    value = data.get("language")
    if value is None:
        return None
    if not isinstance(value, str):
        raise UnknownLanguage(str(value), str(path))
    return value


def environment_language(environ: Mapping[str, str]) -> str:
    for variable in ENVIRONMENT:
        value = environ.get(variable, "")
        if value:
            for item in value.split(":"):
                code = normalize(item)
                if code in KNOWN_LANGUAGES:
                    return code
            return "en"
    return "en"


def choose_language(
    requested: str | None = None, *, environ: Mapping[str, str] | None = None, settings: Path | None = None
) -> str:
    """The language to use: ``requested`` (``--lang``), else the settings file's, else the environment's."""
    if requested:
        code = normalize(requested)
        if code not in KNOWN_LANGUAGES:
            raise UnknownLanguage(requested)
        return code
    path = settings if settings is not None else settings_path()
    from_settings = settings_language(path)
    if from_settings:
        code = normalize(from_settings)
        if code not in KNOWN_LANGUAGES:
            raise UnknownLanguage(from_settings, str(path))
        return code
    return environment_language(os.environ if environ is None else environ)
