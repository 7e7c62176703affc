"""The engine, the rulesets, the save code, the store and the session lifecycle never import Textual
(they run headless)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import importlib, json, pkgutil, sys

import tui_combat.engine.apply
import tui_combat.fight.store
import tui_combat.fight.session
import tui_combat.rulesets
import tui_combat.saves

imported = ["tui_combat.fight.store", "tui_combat.fight.session"]
for package in (tui_combat.rulesets, tui_combat.saves, tui_combat.engine):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(info.name)
        imported.append(info.name)

textual = sorted(name for name in sys.modules if name == "textual" or name.startswith("textual."))
print(json.dumps({"imported": imported, "textual": textual}))
"""


def test_engine_rulesets_saves_store_and_session_do_not_import_textual() -> None:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["textual"] == [], f"Textual was imported: {report['textual']}"
    imported = set(report["imported"])
    assert {
        "tui_combat.rulesets.adnd2e",
        "tui_combat.rulesets.data_loading",
        "tui_combat.saves.journal",
        "tui_combat.saves.codec",
        "tui_combat.saves.session_folders",
        "tui_combat.saves.migrate",
        "tui_combat.engine.apply",
        "tui_combat.engine.contract",
        "tui_combat.engine.registry",
        "tui_combat.fight.store",
        "tui_combat.fight.session",
    } <= imported
