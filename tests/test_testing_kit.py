"""The public testing kit (:mod:`tui_combat.testing`) is installed with the app and needs no test runner: importing it
imports neither pytest nor the app's own tests, pytest is no dependency of the app, and the example plugin's tests
reach the app through the kit alone (nothing of the app's ``tests/``)."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLUGIN_TESTS = ROOT / "examples" / "savage_worlds" / "tests"


def test_the_kit_imports_no_test_runner() -> None:
    code = (
        "import sys, tui_combat.testing as kit\n"
        "names = [getattr(kit, name) for name in kit.__all__]\n"
        "assert 'pytest' not in sys.modules, 'pytest imported'\n"
        "assert not [m for m in sys.modules if m == 'tests' or m.startswith('tests.')], 'the app tests imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT / "tui_combat", capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_pytest_is_no_dependency_of_the_app() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert not [need for need in project["dependencies"] if need.lower().startswith(("pytest", "hypothesis"))]


def test_the_example_plugin_s_tests_use_the_kit_and_nothing_of_the_app_s_tests() -> None:
    files = sorted(PLUGIN_TESTS.glob("*.py"))
    assert len(files) >= 3, files
    used_the_kit = False
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for module in modules:
                assert module != "tests" and not module.startswith("tests."), f"{path.name} imports {module}"
                used_the_kit |= module.startswith("tui_combat.testing")
    assert used_the_kit
