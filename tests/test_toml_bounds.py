"""Every TOML file is read within bounds: deep nesting, huge files and huge strings are refused with the file
and the line, never a traceback; mutated settings, library and house-rule files never crash their readers."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.common import CONFIG_ENV_VAR
from tui_combat.engine.errors import RuleError
from tui_combat.engine.toml_lines import key_lines
from tui_combat.fight.library import read_library
from tui_combat.fight.session import SessionError, check_encounter
from tui_combat.i18n.choose import settings_language
from tui_combat.rulesets import adnd2e
from tui_combat.rulesets.adnd2e.data import Tables, check_tables
from tui_combat.rulesets.data_loading import load_ruleset_data
from tui_combat.settings import toml_read
from tui_combat.settings.config import read_settings

SETTINGS = """\
language = "en"
theme = "nord"

[keys]
"round.next" = "y"
"app.quit" = ["ctrl+q", "f10"]

[health]
wounded_below = 90
bloodied_at = 40

[health.words]
bloodied = "reeling"
"""

LIBRARY = '''# My orcs and ogres.
[[combatants]]
name = "Orc"
hp = 5
notes = """Smells."""

[[combatants]]
name = "Dragon"
hp = 90
sheet = { cls = "dragon", level = 12, ac = -1 }
'''

HOUSE_RULES = """\
[weapon_speeds]
"long sword" = 4
dagger = 1

[thac0]
fighter = [20, 19, 18]
"""

DEEP = {
    "arrays": "x = " + "[" * 5000 + "]" * 5000 + "\n",
    "inline tables": "x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n",
    "unclosed": "x = " + "[" * 5000 + "\n",
    "headers": "[" * 5000 + "\n",
    "dotted keys": ".".join(["a"] * 5000) + " = 1\n",
    "dotted table": "[" + ".".join(["a"] * 5000) + "]\n",
}

# What a mutation inserts: TOML's own punctuation, runs of it, and odd characters.
PIECES = st.one_of(
    st.sampled_from(
        [
            "[",
            "]",
            "{",
            "}",
            '"',
            "'",
            '"""',
            "'''",
            "=",
            "\n",
            "#",
            ".",
            ",",
            "[[",
            "]]",
            "\\",
            "\0",
            "é",
            "1e999",
            "-inf",
            "nan",
            "1979-05-27T07:32:00Z",
            "a.b.c.d",
            "= {",
            "= [",
            "true",
            "0x1F",
        ]
    ),
    st.builds(
        lambda piece, count: piece * count,
        st.sampled_from(["[", "{a=", '"', "x.", "{", "[["]),
        st.integers(min_value=2, max_value=4000),
    ),
    st.text(max_size=6),
)
MUTATIONS = st.lists(
    st.tuples(
        st.sampled_from(["insert", "delete", "replace", "repeat"]),
        st.floats(min_value=0, max_value=1),
        PIECES,
        st.integers(min_value=1, max_value=40),
    ),
    min_size=1,
    max_size=4,
)


def mutated(text: str, mutations: list[tuple[str, float, str, int]]) -> str:
    for kind, where, piece, length in mutations:
        at = int(where * len(text))
        if kind == "insert":
            text = text[:at] + piece + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + length :]
        elif kind == "replace":
            text = text[:at] + piece + text[at + len(piece) :]
        else:
            text = text[:at] + text[at : at + length] * 50 + text[at:]
    return text


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "config"
    (folder / "rulesets").mkdir(parents=True)
    monkeypatch.setenv(CONFIG_ENV_VAR, str(folder))
    adnd2e.tables.cache_clear()
    yield folder
    adnd2e.tables.cache_clear()


# -- the bounds --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", sorted(DEEP))
def test_deep_nesting_is_refused_with_a_line_in_check_and_new(tmp_path: Path, case: str) -> None:
    path = tmp_path / "deep.toml"
    path.write_text('name = "Ford"\n' + DEEP[case], encoding="utf-8")
    with pytest.raises(SessionError) as refused:
        check_encounter(path)
    message = str(refused.value)
    assert f"{path}, line 2:" in message or f"{path}, line 1:" in message
    assert "nested more than 32 deep" in message


def test_a_huge_string_or_file_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "long-name.toml"
    path.write_text('ruleset = "adnd2e"\nname = "' + "x" * 10_000_000 + '"\n', encoding="utf-8")
    with pytest.raises(SessionError, match="longer than"):
        check_encounter(path)
    with pytest.raises(tomllib.TOMLDecodeError, match=r"a string is longer than .* \(line 2, column 8\)"):
        toml_read.loads('a = 1\nname = "' + "é" * (toml_read.MAX_STRING + 1) + '"\n')
    with pytest.raises(tomllib.TOMLDecodeError, match=r"line 1, column 1"):
        toml_read.loads("# " + "x" * toml_read.MAX_CHARS)
    assert toml_read.loads('a = "' + "x" * 1000 + '"\nb = [[1], {c = [2]}]\n# [[[[[[\n') == {
        "a": "x" * 1000,
        "b": [[1], {"c": [2]}],
    }


@pytest.mark.parametrize("case", sorted(DEEP))
def test_a_deeply_nested_settings_file_starts_on_the_defaults_and_says_why(config: Path, case: str) -> None:
    path = config / "settings.toml"
    path.write_text('language = "en"\n' + DEEP[case], encoding="utf-8")
    assert settings_language(path) in (None, "en")
    read = read_settings(path)
    assert read.problem is not None and str(path) in str(read.problem.params.get("path"))
    assert read.document == {}


def test_a_broken_settings_file_does_not_stop_list(
    config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui_combat.__main__ import main

    (config / "settings.toml").write_text("x = " + "[" * 5000 + "\n", encoding="utf-8")
    assert main(["--data-dir", str(tmp_path / "data"), "list"]) == 0
    assert "Traceback" not in capsys.readouterr().err


def test_deep_library_and_house_rules_are_refused_with_the_file(config: Path, tmp_path: Path) -> None:
    library = tmp_path / "library.toml"
    library.write_text(LIBRARY + DEEP["arrays"], encoding="utf-8")
    (problem,) = read_library(library, "adnd2e").problems
    assert str(library) in problem and "nested" in problem
    (config / "rulesets" / "adnd2e.toml").write_text(DEEP["inline tables"], encoding="utf-8")
    with pytest.raises(RuleError, match="nested"):
        load_ruleset_data("adnd2e", Tables)


# -- mutated files: never a traceback -------------------------------------------------------------------------
FUZZ = settings(
    max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)


@pytest.mark.slow  # a thousand files each: some two minutes
@FUZZ
@given(MUTATIONS)
def test_mutated_settings_never_crash_their_readers(config: Path, mutations: list[tuple[str, float, str, int]]) -> None:
    from tui_combat.screens.player_view import load_settings

    path = config / "settings.toml"
    path.write_text(mutated(SETTINGS, mutations), encoding="utf-8", errors="surrogatepass")
    try:
        settings_language(path)
    except ValueError:  # an unknown language is refused with its name: the caller says so
        pass
    read = read_settings(path)
    if read.text:
        key_lines(read.text)
    load_settings(path)


@pytest.mark.slow  # a thousand files each: some two minutes
@FUZZ
@given(MUTATIONS)
def test_mutated_library_files_never_crash_the_reader(
    tmp_path: Path, mutations: list[tuple[str, float, str, int]]
) -> None:
    path = tmp_path / "adnd2e.toml"
    path.write_text(mutated(LIBRARY, mutations), encoding="utf-8", errors="surrogatepass")
    library = read_library(path, "adnd2e")
    assert all(isinstance(problem, str) for problem in library.problems)


@pytest.mark.slow  # a thousand files each: some two minutes
@FUZZ
@given(MUTATIONS)
def test_mutated_house_rules_are_read_or_refused_never_a_crash(
    config: Path, mutations: list[tuple[str, float, str, int]]
) -> None:
    (config / "rulesets" / "adnd2e.toml").write_text(
        mutated(HOUSE_RULES, mutations), encoding="utf-8", errors="surrogatepass"
    )
    try:
        check_tables(load_ruleset_data("adnd2e", Tables), "house rules")
    except RuleError:
        pass
