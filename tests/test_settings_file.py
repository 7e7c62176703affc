"""The GM's ``settings.toml``: read without ever raising, written in one step, keeping what it was not asked
to change (unknown keys included); and the TOML it writes reads back equal."""

from __future__ import annotations

import datetime
import os
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_combat.settings.config import SettingsProblem, health_settings_path, read_settings, write_settings
from tui_combat.settings.toml_write import toml_text

SETTINGS = """\
language = "ru"
theme = "nord"
future_option = [1, 2, 3]

[keys]
"round.next" = "y"

[health]
wounded_below = 90

[health.words]
bloodied = "reeling"

[plugins.skirmish]
colour = "red"
"""


def test_a_missing_file_is_no_settings(tmp_path: Path) -> None:
    settings = read_settings(tmp_path / "settings.toml")
    assert settings.document == {} and settings.problem is None and settings.keys == {} and settings.theme is None


def test_the_file_is_read_as_written(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(SETTINGS, encoding="utf-8")
    settings = read_settings(path)
    assert settings.problem is None
    assert settings.language == "ru"
    assert settings.theme == "nord"
    assert settings.keys == {"round.next": "y"}
    assert settings.health == {"wounded_below": 90, "words": {"bloodied": "reeling"}}


def test_a_broken_file_is_a_problem_not_an_exception(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('language = "ru"\n[keys\n', encoding="utf-8")
    settings = read_settings(path)
    assert settings.document == {}
    assert settings.problem is not None and str(path) in str(settings.problem) and "line 2" in str(settings.problem)
    path.write_bytes(b'language = "\xff"\n')
    assert "UTF-8" in str(read_settings(path).problem)


def test_writing_changes_only_what_it_is_asked_to(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(SETTINGS, encoding="utf-8")
    write_settings({"theme": "gruvbox", "keys": {"round.next": "y", "round.damage": "k"}}, path)
    assert tomllib.loads(path.read_text(encoding="utf-8")) == {
        "language": "ru",
        "theme": "gruvbox",
        "future_option": [1, 2, 3],
        "keys": {"round.next": "y", "round.damage": "k"},
        "health": {"wounded_below": 90, "words": {"bloodied": "reeling"}},
        "plugins": {"skirmish": {"colour": "red"}},
    }
    write_settings({"keys": None}, path)  # None takes a key out
    assert "keys" not in tomllib.loads(path.read_text(encoding="utf-8"))
    assert [name for name in os.listdir(tmp_path) if name != "settings.toml"] == []  # no temporary file left


COMMENTED = """\
# My table's settings
language = "ru"   # Russian for the players
theme = "nord"    # dark, for the evening

# keys I moved
[keys]
"round.next" = "j"  # j, like vim
"round.damage" = "k"

[health]
wounded_below = 90
[health.words]
bloodied = "reeling"  # our word
"""


def test_the_gm_s_comments_and_order_survive_a_write(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(COMMENTED, encoding="utf-8")
    write_settings({"theme": "gruvbox", "keys": {"round.next": "j", "round.undo": "z"}}, path)
    assert path.read_text(encoding="utf-8") == COMMENTED.replace('"nord"', '"gruvbox"').replace(
        '"round.damage" = "k"', '"round.undo" = "z"'
    )


def test_a_file_that_is_not_toml_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text("language = \n", encoding="utf-8")
    with pytest.raises(SettingsProblem):
        write_settings({"theme": "nord"}, path)
    assert path.read_text(encoding="utf-8") == "language = \n"


def test_a_new_file_and_its_folder_are_made(tmp_path: Path) -> None:
    path = tmp_path / "config" / "tui-combat" / "settings.toml"
    write_settings({"theme": "nord"}, path)
    assert path.read_text(encoding="utf-8") == 'theme = "nord"\n'


def test_the_players_screen_reads_settings_toml_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TUI_COMBAT_CONFIG_DIR", str(tmp_path))
    assert health_settings_path() == tmp_path / "settings.toml"
    (tmp_path / "players-view.toml").write_text("[health]\nbloodied_at = 40\n", encoding="utf-8")
    assert health_settings_path() == tmp_path / "players-view.toml"  # an older set-up keeps its words
    (tmp_path / "settings.toml").write_text("[health]\nbloodied_at = 30\n", encoding="utf-8")
    assert health_settings_path() == tmp_path / "settings.toml"


def test_awkward_text_and_keys_round_trip() -> None:
    document = {
        "quoted key": 'a "quote", a \\ backslash,\na new line, a tab\t, a bell \x07 and DEL \x7f',
        "ключ": "значення",
        "numbers": [0, -3, 1.5, float("inf")],
        "when": datetime.date(2024, 2, 29),
        "mixed": [1, "two", {"three": 3}],
        "empty": {},
        "monsters": [{"name": "Orc", "sheet": {"hd": 1}}, {"name": "Ogre"}],
        "deep": {"er": {"est": True}},
    }
    assert tomllib.loads(toml_text(document)) == document


_keys = st.text(min_size=1, max_size=8)
_scalars = st.one_of(
    st.text(max_size=12), st.integers(-(10**6), 10**6), st.booleans(), st.floats(allow_nan=False, allow_infinity=True)
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_keys, inner, max_size=3)),
    max_leaves=8,
)


@given(st.dictionaries(_keys, _values, max_size=5))
def test_any_document_round_trips(document: dict[str, object]) -> None:
    assert tomllib.loads(toml_text(document)) == document


def test_the_config_folder_is_created_private(tmp_path: Path) -> None:
    import os
    import stat

    from tui_combat.settings.config import write_settings

    path = tmp_path / "new" / "config" / "settings.toml"
    previous = os.umask(0o022)
    try:
        write_settings({"theme": "nord"}, path)
    finally:
        os.umask(previous)
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.parent.parent.stat().st_mode) == 0o700
