"""The built-in ruleset plugins (AD&D 2e, Trudvang …) and their data files.

Rulesets import the engine, never the other way round: the engine finds them through its registry
(:mod:`tui_combat.engine.registry`, entry-point group ``tui_combat.rulesets``).
"""

BUILT_IN = {
    "adnd2e": "tui_combat.rulesets.adnd2e:RULESET",
    "trudvang": "tui_combat.rulesets.trudvang:RULESET",
    "dnd5e": "tui_combat.rulesets.dnd5e:RULESET",
    "ose": "tui_combat.rulesets.ose:RULESET",
    "players_option": "tui_combat.rulesets.players_option:RULESET",
}
"""The built-in rulesets by id, as ``pyproject.toml`` lists their entry points (a test holds the two equal): the
app tells the registry of them (:func:`tui_combat.engine.registry.know`)."""
