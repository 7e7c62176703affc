"""A ruleset plugin that fails with anything (its module does not compile, its ``prepare()`` raises) is named
with what went wrong and where, and every command goes on: ``check`` and ``new`` of a file that names it say so
in a line, ``check`` and ``list`` of anything else work as ever, and F3 in a fight opens the settings."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.common import encounter_file
from tests.plugins.broken import PREPARE_ERROR, SYNTAX_ERROR, broken_plugins, install
from tests.ui.steps import SIZE, to_round
from tests.waiting import until_screen
from tui_combat.app import CombatApp
from tui_combat.engine.encounter import ENCOUNTER_DIR
from tui_combat.screens.settings import SettingsScreen

ROOT = Path(__file__).resolve().parents[1]


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``tui-combat ARGS`` with the broken plugins installed beside it."""
    site = tmp_path / "site"
    if not site.exists():
        install(site)
    env = {key: value for key, value in os.environ.items() if not key.startswith("TEXTUAL")}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT)])
    return subprocess.run(
        [sys.executable, "-m", "tui_combat", "--data-dir", str(tmp_path / "data"), *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
        env=env,
        cwd=ROOT,
    )


def naming(tmp_path: Path, ruleset: str) -> Path:
    return encounter_file(
        tmp_path,
        f'name = "Ambush"\nruleset = "{ruleset}"\n[[sides]]\nname = "Party"\n'
        '[[sides.combatants]]\nname = "Raf"\nhp = 9\n',
        name=f"{ruleset}.toml",
    )


@pytest.mark.parametrize(("ruleset", "error"), [(SYNTAX_ERROR, "SyntaxError at "), (PREPARE_ERROR, "RuntimeError at ")])
@pytest.mark.parametrize("command", ["check", "new"])
def test_check_and_new_name_the_plugin_and_its_error(tmp_path: Path, command: str, ruleset: str, error: str) -> None:
    result = run(tmp_path, command, str(naming(tmp_path, ruleset)))
    assert result.returncode == 2
    assert f"The ruleset plugin {ruleset}:RULESET could not be loaded: {error}" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_other_commands_go_on(tmp_path: Path) -> None:
    result = run(tmp_path, "check", str(ENCOUNTER_DIR / "demo_ose.toml"))
    assert result.returncode == 0 and result.stdout.endswith("OK.\n"), result.stderr
    result = run(tmp_path, "list")
    assert result.returncode == 0 and "Traceback" not in result.stderr


@pytest.fixture
def broken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    yield from broken_plugins(tmp_path, monkeypatch)


@pytest.mark.slow
async def test_f3_in_a_fight_opens_the_settings(broken: Path) -> None:
    app = CombatApp(broken.parent / "data", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        await pilot.press("f3")
        await until_screen(pilot, SettingsScreen, "the settings")
