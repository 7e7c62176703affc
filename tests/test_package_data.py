"""What the built package carries besides its modules: ``py.typed``, so that a ruleset plugin's strict type
check reads the app's hints with no ``MYPYPATH``, and the data files the app reads at run time (the stylesheets
too: the app's, and each screen's beside it)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_built_package_ships_py_typed_and_its_data(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "tui_combat", source / "tui_combat", ignore=shutil.ignore_patterns("__pycache__"))
    built = tmp_path / "built"
    result = subprocess.run(
        [sys.executable, "-c", "from setuptools import setup; setup()", "-q", "build_py", "-d", str(built)],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    package = built / "tui_combat"
    assert (package / "py.typed").is_file()
    stylesheets = sorted(path.relative_to(ROOT / "tui_combat") for path in (ROOT / "tui_combat").rglob("*.tcss"))
    assert Path("app.tcss") in stylesheets and Path("screens/round.tcss") in stylesheets, stylesheets
    assert sorted(path.relative_to(package) for path in package.rglob("*.tcss")) == stylesheets
    assert list((package / "i18n").glob("*.po"))
    assert list((package / "encounters").glob("*.toml"))
