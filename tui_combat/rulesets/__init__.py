"""The built-in ruleset plugins (AD&D 2e, Trudvang …) and their data files.

Rulesets import the engine, never the other way round: the engine finds them through its registry
(:mod:`tui_combat.engine.registry`, entry-point group ``tui_combat.rulesets``).
"""
