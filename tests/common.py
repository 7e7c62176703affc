"""Helpers shared by the test folders: dice that show the faces we choose and rolls built by hand, short
readers of a state, a ruleset registered for one test (the public testing kit's, :mod:`tui_combat.testing.rules`),
house rules in a config folder of our own, and the Skirmish plugin's bridge encounter written to a file."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

import pytest

from tui_combat.engine.dice import Roll
from tui_combat.engine.encounter import ENCOUNTER_DIR
from tui_combat.settings.config import CONFIG_ENV_VAR
from tui_combat.testing.rules import Faces, die, ids, labels, order_names, registered, rolled, typed

DEMO = ENCOUNTER_DIR / "demo_adnd2e.toml"
"""The AD&D 2e demo encounter, which many tests start from."""


# -- dice, reading a state, a ruleset for one test: the public testing kit's (imported above) -----------------
def d10(total: int) -> Roll:
    return die("1d10", total)


# -- house rules --------------------------------------------------------------------------------------------
class Cached(Protocol):
    """A ruleset's cached tables (``functools.cache``)."""

    def cache_clear(self) -> None: ...


@contextmanager
def config_folder(folder: Path, monkeypatch: pytest.MonkeyPatch, tables: Cached) -> Iterator[Path]:
    """``folder`` as the GM's config folder; the cached ``tables`` are read again from it, and again after."""
    monkeypatch.setenv(CONFIG_ENV_VAR, str(folder))
    tables.cache_clear()
    try:
        yield folder
    finally:
        tables.cache_clear()


def house_rules_file(config_dir: Path, ruleset_id: str, text: str, tables: Cached) -> Path:
    """``rulesets/<ruleset_id>.toml`` in the config folder holds ``text``; the cached tables are dropped."""
    path = config_dir / "rulesets" / f"{ruleset_id}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    tables.cache_clear()
    return path


# -- encounters on disk -------------------------------------------------------------------------------------
BRIDGE = """
name = "Bridge"
ruleset = "skirmish"
[[sides]]
name = "Party"
party = true
[[sides.combatants]]
name = "Ada"
hp = 10
sheet = { attack = 2, ac = 12, damage = "1d8" }
[[sides]]
name = "Bandits"
[[sides.combatants]]
name = "Bandit"
hp = 9
sheet = { attack = 1, ac = 14, damage = "1d6" }
"""
"""Skirmish (``tests/plugins/skirmish.py``): Ada (c2, attack +2, AC 12, 1d8) against a bandit (c4, 9 HP, AC 14)."""


def encounter_file(folder: Path, text: str, name: str = "encounter.toml") -> Path:
    """The encounter ``text`` written to ``folder / name``."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


__all__ = [
    "BRIDGE",
    "DEMO",
    "Cached",
    "Faces",
    "config_folder",
    "d10",
    "die",
    "encounter_file",
    "house_rules_file",
    "ids",
    "labels",
    "order_names",
    "registered",
    "rolled",
    "typed",
]
