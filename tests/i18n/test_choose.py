"""Choosing the language: ``--lang``, then ``settings.toml``, then ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
``LANG``; an unknown language asked for by name is an error listing the known ones. And the command line
itself (its ``--help`` and its messages) speaks the language chosen."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tui_combat.i18n import UnknownLanguage, choose_language, language_argument
from tui_combat.i18n.choose import KNOWN_LANGUAGES, environment_language, normalize

ROOT = Path(__file__).resolve().parents[2]
NO_ENV: dict[str, str] = {}


@pytest.fixture
def settings(tmp_path: Path) -> Path:
    return tmp_path / "settings.toml"


def test_the_known_languages() -> None:
    assert KNOWN_LANGUAGES == ("en", "ru", "uk")


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ru", "ru"),
        ("ru_RU.UTF-8", "ru"),
        ("uk_UA", "uk"),
        ("uk-UA", "uk"),
        ("RU", "ru"),
        ("en_GB.UTF-8@euro", "en"),
        ("C", "en"),
        ("POSIX", "en"),
        ("C.UTF-8", "en"),
        ("de_DE.UTF-8", "de"),
    ],
)
def test_normalize(name: str, code: str) -> None:
    assert normalize(name) == code


def test_the_command_line_wins(settings: Path) -> None:
    settings.write_text('language = "uk"\n')
    assert choose_language("ru", environ={"LANG": "uk_UA.UTF-8"}, settings=settings) == "ru"


def test_then_the_settings_file(settings: Path) -> None:
    settings.write_text('# the GM\'s choice\nlanguage = "uk"\n')
    assert choose_language(None, environ={"LANGUAGE": "ru", "LANG": "ru_RU.UTF-8"}, settings=settings) == "uk"


def test_a_settings_file_without_a_language_leaves_it_to_the_environment(settings: Path) -> None:
    settings.write_text("[something_else]\nvalue = 1\n")
    assert choose_language(None, environ={"LANG": "uk_UA.UTF-8"}, settings=settings) == "uk"


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANGUAGE": "uk", "LC_ALL": "ru_RU.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8", "LANG": "ru_RU.UTF-8"}, "uk"),
        ({"LC_ALL": "uk_UA.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8", "LANG": "ru_RU.UTF-8"}, "uk"),
        ({"LC_MESSAGES": "uk_UA.UTF-8", "LANG": "ru_RU.UTF-8"}, "uk"),
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANGUAGE": "de:uk:ru"}, "uk"),  # a list: the first one with a catalog
        ({"LANGUAGE": "", "LANG": "uk_UA.UTF-8"}, "uk"),  # an empty variable does not count
        ({"LANG": "de_DE.UTF-8"}, "en"),  # no catalog for German: English, as any program without one
        ({"LANGUAGE": "de", "LANG": "ru_RU.UTF-8"}, "en"),  # the first variable set decides, as gettext.find does
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_then_the_environment(settings: Path, environ: dict[str, str], expected: str) -> None:
    assert environment_language(environ) == expected
    assert choose_language(None, environ=environ, settings=settings) == expected


def test_an_unknown_language_on_the_command_line_lists_the_known_ones(settings: Path) -> None:
    with pytest.raises(UnknownLanguage) as caught:
        choose_language("xx", environ=NO_ENV, settings=settings)
    assert str(caught.value) == 'Unknown language "xx". Known languages: en (English), ru (русский), uk (українська).'


def test_an_unknown_language_in_the_settings_names_the_file(settings: Path) -> None:
    settings.write_text('language = "klingon"\n')
    with pytest.raises(UnknownLanguage) as caught:
        choose_language(None, environ=NO_ENV, settings=settings)
    assert str(caught.value).startswith(f'{settings}: unknown language "klingon". Known languages: en (English)')


@pytest.mark.parametrize("text", ["language = ru\n", "language = " + "[" * 5000 + "\n"], ids=["not TOML", "deep"])
def test_a_broken_settings_file_leaves_the_language_to_the_environment(settings: Path, text: str) -> None:
    settings.write_text(
        text
    )  # the app starts and says what is wrong with the file (tui_combat.settings.config.read_settings)
    assert choose_language(None, environ={"LANG": "uk_UA.UTF-8"}, settings=settings) == "uk"


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--lang", "ru", "list"], "ru"),
        (["--lang=uk", "list"], "uk"),
        (["list"], None),
        (["--lang"], None),
        (["roll", "--", "--lang", "ru"], None),
    ],
)
def test_the_language_is_read_before_the_parser_is_built(argv: list[str], expected: str | None) -> None:
    assert language_argument(argv) == expected


def run_cli(
    *args: str, env: dict[str, str] | None = None, config: Path | None = None
) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    environ.update(env or {})
    if config is not None:
        environ["TUI_COMBAT_CONFIG_DIR"] = str(config)
    return subprocess.run(
        [sys.executable, "-m", "tui_combat", *args], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60
    )


def test_cli_unknown_language_is_an_error(tmp_path: Path) -> None:
    result = run_cli("--lang", "xx", "list", config=tmp_path)
    assert result.returncode == 2
    assert 'Unknown language "xx"' in result.stderr and "ru (русский)" in result.stderr


def test_cli_help_in_russian_and_ukrainian(tmp_path: Path) -> None:
    russian = run_cli("--lang", "ru", "--help", config=tmp_path)
    assert russian.returncode == 0
    assert russian.stdout.startswith("использование: tui-combat")
    assert "Менеджер боя для Мастера." in russian.stdout
    assert "показать эту справку и выйти" in russian.stdout
    assert "начать сессию из файла столкновения" in russian.stdout
    ukrainian = run_cli("--help", env={"LANG": "uk_UA.UTF-8"}, config=tmp_path)
    assert ukrainian.stdout.startswith("використання: tui-combat")
    assert "параметри:" in ukrainian.stdout and "почати сесію з файлу сутички" in ukrainian.stdout


def test_cli_settings_file_chooses_the_language(tmp_path: Path) -> None:
    (tmp_path / "settings.toml").write_text('language = "uk"\n')
    result = run_cli("check", "tui_combat/encounters/demo_adnd2e.toml", env={"LANG": "ru_RU.UTF-8"}, config=tmp_path)
    assert result.returncode == 0, result.stderr
    # 3 + 3 trolls + 6 orcs = 12 combatants: "12 учасників" (Ukrainian plural for 5–20).
    assert (
        result.stdout.strip()
        == "tui_combat/encounters/demo_adnd2e.toml: 12 учасників бою, правила AD&D 2-га редакція. Усе гаразд."
    )


def test_cli_errors_of_argparse_are_translated(tmp_path: Path) -> None:
    result = run_cli("--lang", "ru", "roll", config=tmp_path)
    assert result.returncode == 2
    assert "tui-combat roll: ошибка: нужны следующие аргументы: ВЫРАЖЕНИЕ" in result.stderr


def help_texts() -> dict[str, str]:
    """The help of the command and of each of its subcommands, in the language active now."""
    import argparse

    from tui_combat.__main__ import _parser
    from tui_combat.i18n import localize_argparse

    localize_argparse()
    parser = _parser()
    texts = {"": parser.format_help()}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            texts.update({name: sub.format_help() for name, sub in action.choices.items()})
    return texts


def placeholders() -> set[str]:
    """The English placeholders of the command's arguments (FILE, NAME, HOST …)."""
    import argparse

    from tui_combat.__main__ import _parser

    found: set[str] = set()
    parsers = [_parser()]
    while parsers:
        parser = parsers.pop()
        for action in parser._actions:
            if isinstance(action.metavar, str):
                found.add(action.metavar)
            if isinstance(action, argparse._SubParsersAction):
                parsers += action.choices.values()
    return found


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_help_names_an_argument_as_its_placeholder_does(lang: str) -> None:
    """``tui-combat --lang ru export --help`` shows "-o ФАЙЛ" and says "записать отчёт в ФАЙЛ": the placeholders
    inside the help's sentences are those argparse shows beside the options, never the English ones."""
    from tui_combat.i18n import _, set_language

    set_language("en")
    english = placeholders()
    set_language(lang)
    translated = {word for word in english if _(word) != word} - {"LANG"}  # LANG is also a variable the help names
    assert {"FILE", "HOST", "PORT", "NAME"} <= translated
    texts = help_texts()
    left = {
        command: sorted(word for word in translated if re.search(rf"(?<![\w$]){word}(?!\w)", text))
        for command, text in texts.items()
    }
    assert not any(left.values()), {command: words for command, words in left.items() if words}
    export = " ".join(texts["export"].split())
    assert f"-o {_('FILE')}" in export and f"{_('FILE')} (" in export, export
