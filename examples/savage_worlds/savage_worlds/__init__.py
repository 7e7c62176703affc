"""Savage Worlds for tui-combat: action cards, Jokers, holds, Shaken and wounds (:mod:`savage_worlds.ruleset`).

Installed, it is found under the entry point ``savage_worlds`` of the group ``tui_combat.rulesets``; its demo
fight is :data:`DEMO`, an encounter file (``tui-combat new`` it)."""

from __future__ import annotations

from pathlib import Path

from savage_worlds.ruleset import RULESET, SavageWorlds
from tui_combat.i18n import N_

DEMO = Path(__file__).with_name("demo.toml")
"""A shoot-out at the ford: two Wild Cards against a bandit chief and his gang of Extras."""
DEMO_NAME = N_("Shoot-out at the ford")
"""The demo's name (its ``name``), marked so that the plugin's catalogs give it in the GM's language: the session
list offers the demo as "Demo: <its name>"."""

__all__ = ["DEMO", "DEMO_NAME", "RULESET", "SavageWorlds"]
