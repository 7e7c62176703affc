"""The parts of :class:`~tui_combat.app.CombatApp`, one concern each: opening a session in a worker, leaving
it (and the app) without losing actions, dispatching to it, the GM's settings, the command palette.

Each part is an :class:`~textual.app.App` the app inherits from; :mod:`tui_combat.running.base` declares
what they share.
"""
