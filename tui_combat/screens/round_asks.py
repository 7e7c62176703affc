"""What the round screen asks for by itself as the fight goes on, and what it reminds the GM of in the step line.

* **Saves the rules ask for** (:meth:`~tui_combat.engine.saves.SavingRules.saves_due`: 5e's concentration after
  damage): asked on the footer's line as soon as they are owed, one after another; Esc leaves them, the step line
  says they are owed and the save key asks them again.
* **A roll the rules ask for at the start of a turn**: a log line that says so in its facts (:data:`ASKED_BY`: 5e's
  recharge) opens the form of the ruleset's action for the one it names, as if the GM had pressed its key.
* **Actions the rules offer others** at the end of a turn (:data:`OFFERED_BY`: 5e's legendary actions): named in the
  step line with their key, which then works for the one offered whoever is selected.

Everything is worked out from the state shown and the newest few lines of the log: nothing grows with the fight.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text

from tui_combat.engine.contract import AnyRuleset
from tui_combat.engine.errors import RuleError
from tui_combat.engine.keys import ruleset_binding_id, shown_key
from tui_combat.engine.log import LogEntry, Msg, Param, render
from tui_combat.engine.model import State
from tui_combat.engine.saves import SaveDue
from tui_combat.i18n import N_, _
from tui_combat.screens.saving_throw import ask_due_save, save_label

if TYPE_CHECKING:
    from tui_combat.screens.round_view import RoundView

__all__ = ["ASKED_BY", "OFFERED_BY", "RoundAsks"]

ASKED_BY: dict[str, str] = {"recharge_due": "recharge"}
"""A log line's fact → the ruleset action whose form is opened for the combatant the line names (5e: "a d6 for each
ability to recharge")."""
OFFERED_BY: dict[str, tuple[str, str]] = {"legendary_offered": ("legendary", N_("Legendary actions"))}
"""A log line's fact → the ruleset action offered to the combatants the line names, and the label of the budget line
that counts what they have left (5e: "Legendary actions may be taken now")."""
RECENT = 24
"""How many of the newest log lines are read for what they ask or offer."""


def newest(state: State, count: int) -> Iterator[LogEntry]:
    """The newest ``count`` entries of the log, newest first."""
    for chunk in reversed(state.log):
        for entry in reversed(chunk):
            if count <= 0:
                return
            count -= 1
            yield entry


def named(value: Param, state: State) -> list[str]:
    """The combatants a log line's message names, in its order."""
    found: list[str] = []
    if isinstance(value, Msg):
        if value.ref and state.has(value.ref):
            found.append(value.ref)
        for part in value.params.values():
            found += [ref for ref in named(part, state) if ref not in found]
    elif isinstance(value, list):
        for part in value:
            found += [ref for ref in named(part, state) if ref not in found]
    return found


def _due_key(due: SaveDue, index: int) -> tuple[str, str, int, str, int]:
    return due.combatant, due.kind, due.dc, due.source, index


class RoundAsks:
    """Made with the round screen; told of each state it shows (:meth:`seen`), it asks when the screen's foot is free
    (:meth:`run`)."""

    def __init__(self, screen: RoundView) -> None:
        self.screen = screen
        self.last_dc = 10
        """The DC last given to a saving throw or an area (the next form starts with it)."""
        self._log_count: int | None = None
        self._dues: frozenset[tuple[str, str, int, str, int]] = frozenset()
        self._chain = False
        """A due save was just taken: the next one owed is asked at once."""
        self._queue: list[Callable[[], bool]] = []
        self.offers: tuple[tuple[str, str], ...] = ()
        """(ruleset action, combatant) offered now."""

    @property
    def pending(self) -> bool:
        return bool(self._queue)

    def seen(self, state: State, ruleset: AnyRuleset) -> None:
        """A state shown: what it asks for is queued, what it offers noted."""
        if state.phase != "round":
            self._queue.clear()
            self._dues, self.offers, self._log_count = frozenset(), (), state.log_count
            return
        dues = self.dues(state, ruleset)
        keys = frozenset(_due_key(due, index) for index, due in enumerate(dues))
        if dues and (keys - self._dues or self._chain):
            self._queue.append(self.ask_due)
        self._chain = False
        self._dues = keys
        count = state.log_count
        if self._log_count is not None and count > self._log_count:
            for entry in reversed(list(newest(state, min(count - self._log_count, RECENT)))):
                for fact, action in ASKED_BY.items():
                    if entry.facts.get(fact):
                        self._queue += [partial(self.ask_action, action, ref) for ref in named(entry.msg, state)]
        self._log_count = count
        self.offers = self.find_offers(state, ruleset)

    @staticmethod
    def dues(state: State, ruleset: AnyRuleset) -> tuple[SaveDue, ...]:
        try:
            return ruleset.saves_due(state)
        except RuleError:
            return ()

    def run(self) -> None:
        """Ask the next thing queued, once nothing else is asked on the screen."""
        while self._queue and self.screen.foot_free():
            if self._queue.pop(0)():
                return

    # -- asking ---------------------------------------------------------------------------------------------------
    def ask_due(self) -> bool:
        """The oldest save owed, on the footer's line; True when it is asked."""
        screen = self.screen
        dues = self.dues(screen.state, screen.ruleset)
        if not dues:
            return False
        ask_due_save(screen, dues[0], self._taken)
        return True

    def _taken(self) -> None:
        self._chain = True

    def ask_action(self, action: str, combatant_id: str) -> bool:
        """The form of a ruleset action the rules ask for (a recharge roll), for ``combatant_id``, if it applies."""
        screen = self.screen
        spec = screen.action_spec(action)
        state = screen.state
        if spec is None or not state.has(combatant_id):
            return False
        try:
            if not screen.ruleset.action_available(state, action, combatant_id):
                return False
        except RuleError:
            return False
        screen.ruleset_form(spec, combatant_id)
        return True

    # -- offers and reminders ---------------------------------------------------------------------------------
    def find_offers(self, state: State, ruleset: AnyRuleset) -> tuple[tuple[str, str], ...]:
        if not OFFERED_BY or not ruleset.actions:
            return ()
        found: list[tuple[str, str]] = []
        for entry in newest(state, RECENT):
            for fact, (action, _label) in OFFERED_BY.items():
                if not entry.facts.get(fact):
                    continue
                for ref in named(entry.msg, state):
                    try:
                        if (action, ref) not in found and ruleset.action_available(state, action, ref):
                            found.append((action, ref))
                    except RuleError:
                        continue
            if found:
                break
        return tuple(found)

    def offered(self, action: str) -> list[str]:
        return [combatant for name, combatant in self.offers if name == action]

    def reminders(self, state: State, ruleset: AnyRuleset) -> list[str]:
        """What the step line says first: the saves owed (and the key that asks them), the actions offered."""
        said: list[str] = []
        dues = self.dues(state, ruleset)
        if dues:
            owed = ", ".join(
                _(
                    "{name} ({save}, DC {dc})",
                    name=state.combatant(due.combatant).name,
                    save=save_label(ruleset, state, due.kind),
                    dc=due.dc,
                )
                for due in dues[:3]
                if state.has(due.combatant)
            )
            said.append(_("{key}: saves owed: {owed}", key=shown_key("round.save"), owed=owed))
        for action, combatant_id in self.offers:
            spec = self.screen.action_spec(action)
            if spec is None:
                continue
            key = shown_key(ruleset_binding_id(ruleset.id, action), spec.key)
            label = next((counted for fact, (name, counted) in OFFERED_BY.items() if name == action), "")
            left = self._left(state, ruleset, combatant_id, label)
            name = state.combatant(combatant_id).name
            action_word = _(spec.label).lower()
            said.append(
                _("{name}: {action} ({left}) — {key}", name=name, action=action_word, left=left, key=key)
                if left
                else _("{name}: {action} — {key}", name=name, action=action_word, key=key)
            )
        return said

    @staticmethod
    def _left(state: State, ruleset: AnyRuleset, combatant_id: str, label: str) -> str:
        """ "2/3": what his budget line of that label has left."""
        if not label:
            return ""
        try:
            lines = ruleset.budget(state, combatant_id)
        except RuleError:
            return ""
        return next((f"{line.left}/{line.total}" for line in lines if line.label == _(label)), "")

    def card_lines(self, state: State, combatant_id: str) -> list[Text]:
        """The card's lines of what his concentration holds on others, and the keys of his special abilities and
        of a save he owes."""
        lines: list[Text] = []
        held = [effect for effect in state.effects if effect.holder == combatant_id and state.has(effect.combatant)]
        if held:
            lines.append(
                Text(
                    _(
                        "Holds: {effects}",
                        effects=", ".join(
                            _(
                                "{effect} on {name}",
                                effect=render(effect.label),
                                name=state.combatant(effect.combatant).name,
                            )
                            for effect in held
                        ),
                    ),
                    style="magenta",
                )
            )
        if self.screen.area.abilities_of(combatant_id):
            lines.append(
                Text(_("{key}: special abilities, ready or not", key=shown_key("round.abilities")), style="bold")
            )
        if any(due.combatant == combatant_id for due in self.dues(state, self.screen.ruleset)):
            lines.append(Text(_("{key}: a save owed", key=shown_key("round.save")), style="bold yellow"))
        return lines
