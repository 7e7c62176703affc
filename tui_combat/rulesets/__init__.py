"""Ruleset plugins and their registry.

Built-in rulesets are listed in ``pyproject.toml`` under the entry-point group ``tui_combat.rulesets``;
a third-party package adds its own there. The built-ins are also known here by module path so that
the app does not scan every installed distribution at start-up.
"""

from __future__ import annotations

import importlib

from tui_combat.i18n import _
from tui_combat.rulesets.base import Ruleset, RuleError

ENTRY_POINT_GROUP = "tui_combat.rulesets"

_BUILTIN: dict[str, str] = {
    "adnd2e": "tui_combat.rulesets.adnd2e:RULESET",
    "trudvang": "tui_combat.rulesets.trudvang:RULESET",
}
_loaded: dict[str, Ruleset] = {}
_discovered: dict[str, str] | None = None


def _load_target(target: str) -> Ruleset:
    module_name, _sep, attribute = target.partition(":")
    module = importlib.import_module(module_name)
    ruleset = getattr(module, attribute)
    if not isinstance(ruleset, Ruleset):
        raise RuleError(_("Ruleset plugin {target} does not implement the Ruleset protocol.", target=target))
    return ruleset


def _discover() -> dict[str, str]:
    global _discovered
    if _discovered is None:
        from importlib.metadata import entry_points  # slow to import: only when listing plugins

        found = dict(_BUILTIN)
        for entry in entry_points(group=ENTRY_POINT_GROUP):
            found.setdefault(entry.name, entry.value)
        _discovered = found
    return _discovered


def get(ruleset_id: str) -> Ruleset:
    """The ruleset registered under ``ruleset_id``; :class:`RuleError` if there is none."""
    ruleset = _loaded.get(ruleset_id)
    if ruleset is not None:
        return ruleset
    target = _BUILTIN.get(ruleset_id) or _discover().get(ruleset_id)
    if target is None:
        raise RuleError(_("Unknown ruleset \"{id}\".", id=ruleset_id))
    ruleset = _load_target(target)
    _loaded[ruleset_id] = ruleset
    return ruleset


def available() -> list[str]:
    """Ids of every registered ruleset, built-ins first."""
    return list(_discover())


__all__ = ["ENTRY_POINT_GROUP", "RuleError", "Ruleset", "available", "get"]
