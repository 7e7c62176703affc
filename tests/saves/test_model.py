"""Actions, undo, redo, snapshots and restarts in any order give what a plain list of states gives."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import tui_combat.fight.store as store_module
from tests.saves.helpers import small_fight
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.fight.store import Store


class Model:
    """Undo history the obvious way: every state kept, the redo stack a list."""

    def __init__(self, start: State, done: list[a.Action]) -> None:
        self.states = [start]
        for action in done:
            self.states.append(apply(self.states[-1], action))
        self.actions = list(done)
        self.redo: list[a.Action] = []

    def do(self, action: a.Action) -> None:
        self.states.append(apply(self.states[-1], action))
        self.actions.append(action)
        self.redo.clear()

    def undo(self) -> None:
        self.states.pop()
        self.redo.append(self.actions.pop())

    def redo_one(self) -> None:
        action = self.redo.pop()
        self.states.append(apply(self.states[-1], action))
        self.actions.append(action)


class HistoryMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.saved_sizes = (store_module.BLOCK_SIZE, store_module.SNAPSHOT_EVERY)
        store_module.BLOCK_SIZE, store_module.SNAPSHOT_EVERY = 3, 4
        self.root = Path(tempfile.mkdtemp(prefix="tui-combat-model-"))
        self.folder = self.root / "fight"
        self.store = small_fight(self.folder)
        self.model = Model(self.store.base, self.store.done_actions())

    def teardown(self) -> None:
        self.store.close()
        store_module.BLOCK_SIZE, store_module.SNAPSHOT_EVERY = self.saved_sizes
        shutil.rmtree(self.root, ignore_errors=True)

    @rule(combatant=st.sampled_from(["c3", "c5", "c6", "c99"]), amount=st.integers(0, 20), heal=st.booleans())
    def act(self, combatant: str, amount: int, heal: bool) -> None:
        self._do(a.Heal(combatant=combatant, amount=amount) if heal else a.Damage(combatant=combatant, amount=amount))

    @rule(text=st.text(min_size=1, max_size=8))
    def note(self, text: str) -> None:
        self._do(a.Note(text=text))

    def _do(self, action: a.Action) -> None:
        """Dispatch; what the rules refuse changes neither the store nor the model."""
        try:
            self.store.dispatch(action)
        except RuleError:
            event("refused")
            return
        self.model.do(action)

    @precondition(lambda self: len(self.model.actions) > 0)
    @rule(times=st.integers(1, 9))
    def undo(self, times: int) -> None:
        for _ in range(min(times, len(self.model.actions))):
            self.store.undo()
            self.model.undo()

    @precondition(lambda self: len(self.model.redo) > 0)
    @rule(times=st.integers(1, 9))
    def redo(self, times: int) -> None:
        for _ in range(min(times, len(self.model.redo))):
            self.store.redo()
            self.model.redo_one()

    @rule()
    def save_now(self) -> None:
        self.store.save_now()

    @rule()
    def restart(self) -> None:
        self.store.close()
        self.store = Store.resume(self.folder)
        assert not self.store.read_only and self.store.warnings == []
        event(
            f"restarted with {len(self.model.actions) // 3} sealed blocks"
            if len(self.model.actions) < 30
            else "restarted, 10+ blocks"
        )

    @invariant()
    def same_as_the_model(self) -> None:
        assert self.store.state == self.model.states[-1]
        assert self.store.can_undo == bool(self.model.actions)
        assert self.store._redo == self.model.redo
        assert len(self.store._history) == len(self.model.actions)

    @invariant()
    def everything_is_saved(self) -> None:
        assert not self.store.unsaved, self.store.save_problem

    def check_full_history(self) -> None:
        assert self.store.done_actions() == self.model.actions
        assert self.store.base == self.model.states[0]


HistoryMachine.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestHistoryMachine = pytest.mark.slow(HistoryMachine.TestCase)


class FullHistoryMachine(HistoryMachine):
    """The same, also comparing the whole history read back from disk after every step (slower, fewer runs)."""

    @invariant()
    def whole_history_matches(self) -> None:
        self.check_full_history()


FullHistoryMachine.TestCase.settings = settings(
    max_examples=15,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestFullHistoryMachine = FullHistoryMachine.TestCase
