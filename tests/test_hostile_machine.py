"""The tests are green on a machine whose user has made the app his own (:mod:`tests.hostile_machine`): his
settings in Ukrainian with another theme and every key moved, his library and a saved fight in his real
user folders, Ukrainian, colours, a plain narrow terminal and a far time zone in his environment.

First the machine is shown to be hostile: the app itself, started on that environment without the test
suite's isolation, would speak Ukrainian, find the saved fight and the library, and move every key. Then a
slice of the suite (where saves go, settings, the library, the session list, opening a fight and the keys)
runs in a separate pytest on that machine and must pass. ``.ci/run`` runs the whole suite on such a machine.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile_machine import environment_of, every_binding_id

ROOT = Path(__file__).resolve().parents[1]
SLICE = (
    "tests/saves/test_paths.py",
    "tests/test_settings_file.py",
    "tests/test_library.py",
    "tests/test_cli_sessions.py",
    "tests/ui/test_opening.py",
    "tests/ui/test_keymap.py",
    "tests/i18n/test_choose.py",
)
"""Tests that would notice: they press default keys, list sessions, read the library and the settings."""


APP_ON_THE_MACHINE = """
from tui_combat.app import CombatApp
from tui_combat.settings.config import read_settings, settings_path
from tui_combat.i18n.choose import choose_language
from tui_combat.fight.library import read_library, library_path
from tui_combat.saves.session_folders import list_sessions
from tui_combat.saves.locations import data_dir
print(choose_language())
from tui_combat.screens.keymap import check_keymap, collect
check = check_keymap(read_settings(settings_path()).document["keys"], collect(CombatApp))
print(len(check.keymap), len(check.problems))
print(", ".join(info.name for info in list_sessions(data_dir())))
print(len(read_library(library_path(data_dir(), "adnd2e"), "adnd2e").entries))
"""


@pytest.mark.slow
def test_the_suite_is_green_on_a_machine_made_the_users_own(tmp_path: Path) -> None:
    environment = environment_of(tmp_path)
    seen = subprocess.run(
        [sys.executable, "-c", APP_ON_THE_MACHINE],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert seen.returncode == 0, seen.stderr
    assert seen.stdout.split("\n")[:4] == ["uk", f"{len(every_binding_id())} 0", "The user's own fight", "2"], (
        seen.stdout
    )

    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *SLICE],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "skipped" not in run.stdout.rsplit("\n", 2)[-2], run.stdout[-2000:]
