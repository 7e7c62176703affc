"""Ruleset plugins that fail as a third party's may: one whose module does not compile, one whose ``prepare()``
raises. Installed the way :mod:`tests.plugins.savage` installs a copy of Savage Worlds (a site folder with a
``dist-info`` naming their entry points), so that the registry finds them as any plugin, in this process or in
a ``tui-combat`` started with that folder on its ``PYTHONPATH``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui_combat.engine import registry

SYNTAX_ERROR = "broken_syntax"
PREPARE_ERROR = "broken_prepare"
MODULES = {
    SYNTAX_ERROR: "from tests.plugins.skirmish import RULESET\ndef prepare(:\n    pass\n",
    PREPARE_ERROR: (
        "from tests.plugins.skirmish import Skirmish\n\n\n"
        "class Broken(Skirmish):\n"
        "    id = 'broken_prepare'\n"
        "    name = 'Broken'\n\n"
        "    def prepare(self) -> None:\n"
        "        raise RuntimeError('its tables are missing')\n\n\n"
        "RULESET = Broken()\n"
    ),
}


def install(site: Path) -> Path:
    """The two plugins in the site folder ``site``; returns it."""
    for module, text in MODULES.items():
        (site / f"{module}.py").parent.mkdir(parents=True, exist_ok=True)
        (site / f"{module}.py").write_text(text, encoding="utf-8")
    dist_info = site / "tui_combat_broken-0.1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: tui-combat-broken\nVersion: 0.1.0\n", encoding="utf-8"
    )
    (dist_info / "entry_points.txt").write_text(
        "[tui_combat.rulesets]\n" + "".join(f"{module} = {module}:RULESET\n" for module in MODULES), encoding="utf-8"
    )
    return site


def broken_plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Both installed for this test (the registry reads the entry points afresh, and forgets them after);
    the site folder."""
    site = install(tmp_path / "broken-site")
    monkeypatch.syspath_prepend(str(site))
    for module in MODULES:
        monkeypatch.delitem(sys.modules, module, raising=False)
    registry.forget()
    try:
        yield site
    finally:
        registry.forget()
