"""The dispatch of actions: the handler of each kind of action is registered on :func:`act` (by
:mod:`tui_combat.engine.apply` and :mod:`tui_combat.engine.setup_actions`), with the checks the handlers share."""

from __future__ import annotations

from functools import singledispatch

from tui_combat.engine import actions as a
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import Combatant, State
from tui_combat.i18n import _

__all__ = ["act", "find_combatant", "replace_combatant", "require_phase"]


def replace_combatant(state: State, combatant: Combatant) -> State:
    return state.with_combatant(combatant)


@singledispatch
def act(action: a.Action, state: State) -> State:  # pragma: no cover - every action is registered
    raise RuleError(_("Unknown action {name}.", name=type(action).__name__))


def require_phase(state: State, *phases: str) -> None:
    if state.phase not in phases:
        raise RuleError(_("That cannot be done now."))


def find_combatant(state: State, combatant_id: str) -> Combatant:
    try:
        return state.combatant(combatant_id)
    except KeyError:
        raise RuleError(_("No such combatant.")) from None
