"""The Savage Worlds example plugin (``examples/savage_worlds``) as the tests reach it.

Installed (CI installs it, ``pip install -e examples/savage_worlds``), the tests use that installation, found
through its entry point like any plugin. From a fresh clone with only tui-combat installed (the README's test
command), a copy of the package goes into a temporary site folder with a ``dist-info`` naming its entry point,
which the registry finds the same way. Under ``CI=true`` the real installation must be there: its absence
fails the test instead of being papered over.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import pytest

from tui_combat.engine import registry
from tui_combat.engine.contract import AnyRuleset

PACKAGE = Path(__file__).resolve().parents[2] / "examples" / "savage_worlds" / "savage_worlds"
DISTRIBUTION = "tui-combat-savage-worlds"
ENTRY_POINT = "savage_worlds = savage_worlds:RULESET"


def installed_for_real() -> bool:
    try:
        distribution(DISTRIBUTION)
    except PackageNotFoundError:
        return False
    return True


def savage_worlds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AnyRuleset]:
    """The plugin's ruleset, loaded by the registry through its entry point; the registry forgets it after."""
    if not installed_for_real():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{DISTRIBUTION} is not installed: CI installs examples/savage_worlds (.ci/run).")
        site = tmp_path / "site-packages"
        shutil.copytree(PACKAGE, site / "savage_worlds", ignore=shutil.ignore_patterns("__pycache__"))
        dist_info = site / "tui_combat_savage_worlds-0.1.0.dist-info"
        dist_info.mkdir()
        (dist_info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {DISTRIBUTION}\nVersion: 0.1.0\n", encoding="utf-8"
        )
        (dist_info / "entry_points.txt").write_text(f"[tui_combat.rulesets]\n{ENTRY_POINT}\n", encoding="utf-8")
        monkeypatch.syspath_prepend(str(site))
        for name in [name for name in sys.modules if name == "savage_worlds" or name.startswith("savage_worlds.")]:
            monkeypatch.delitem(sys.modules, name)
    registry.forget()
    try:
        yield registry.get("savage_worlds")
    finally:
        registry.forget()
