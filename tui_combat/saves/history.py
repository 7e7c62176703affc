"""Undo history of unlimited depth that does not keep every state.

The actions done so far are cut into *blocks* of ``block_size``: each sealed block is the state before it
(a checkpoint) and its actions; the open run after the last one is a checkpoint, the actions since, and the
states after the newest of those actions — every one done since the history was made or resumed. An undo
steps back to a state it holds; the block sealed last keeps the states of its newest :data:`SEALED_STATES`
actions, so an undo just after a seal steps back without a replay too. Only an undo past what is held (an
action done before a resume, or deeper into a sealed block) rebuilds the states, by replaying at most
``block_size`` actions from a checkpoint, wherever it lands.

Sealed blocks are written to disk once (at the next snapshot) and then dropped from memory; they are
read back only when an undo reaches them. Each is named by its index and the seq of the journal entry
that sealed it, so a block rewritten after an undo never overwrites the one an older snapshot refers to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tui_combat.engine.actions import Action
from tui_combat.engine.model import State

Apply = Callable[[State, Action], State]
LoadBlock = Callable[[int, int], tuple[State, list[Action]]]
"""(index, tag) → the block's starting state and actions, read from disk."""
LoadActions = Callable[[int, int], list[Action]]
"""(index, tag) → the block's actions only, read from disk (its starting state not decoded)."""
SEALED_STATES = 20
"""States of the newest actions of the block sealed last that stay in memory after it is sealed."""


@dataclass
class Block:
    index: int
    tag: int
    """The seq of the journal entry that sealed it: with ``index``, its file name."""
    start: State | None
    """None once written and dropped from memory."""
    actions: list[Action] | None
    saved: bool = False


@dataclass(frozen=True)
class _KeptBlock:
    block: Block
    start: State
    actions: list[Action]
    states: list[State]
    """The states after its newest actions, as in :attr:`History._states`."""


class History:
    def __init__(
        self,
        start: State,
        apply: Apply,
        block_size: int,
        load: LoadBlock | None = None,
        load_actions: LoadActions | None = None,
    ) -> None:
        if block_size < 1:
            raise ValueError("block_size must be at least 1")
        self.apply = apply
        self.block_size = block_size
        self.load = load
        self.load_actions = load_actions
        self.sealed: list[Block] = []
        self.checkpoint = start
        self.run: list[Action] = []
        self._states: list[State] = [start]
        """The states after the newest actions of ``run`` (the last is :attr:`current`): ``_states[-k - 1]`` is the
        state before ``run[-k]``; the state before every action of ``run`` once an undo needed them."""
        self._last_sealed: _KeptBlock | None = None
        """The block sealed last, with its checkpoint, actions and newest states, while it is ``sealed[-1]``."""
        self.current = start

    @classmethod
    def restore(
        cls,
        *,
        apply: Apply,
        block_size: int,
        sealed: list[int],
        checkpoint: State,
        run: list[Action],
        current: State,
        load: LoadBlock | None,
        load_actions: LoadActions | None = None,
    ) -> History:
        """A history as a snapshot saved it: sealed blocks on disk, the open run's states not yet rebuilt."""
        history = cls(checkpoint, apply, block_size, load, load_actions)
        history.sealed = [Block(index, tag, None, None, saved=True) for index, tag in enumerate(sealed)]
        history.run = list(run)
        history._states = [current]
        history.current = current
        return history

    # -- reading -------------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.sealed) * self.block_size + len(self.run)

    @property
    def base(self) -> State:
        """The state before the first action."""
        if not self.sealed:
            return self.checkpoint
        return self._content(self.sealed[0])[0]

    def actions(self) -> list[Action]:
        """Every action done, oldest first (reads every sealed block: for tests and exports, not per key)."""
        done: list[Action] = []
        for block in self.sealed:
            if block.actions is None and self.load_actions is not None:
                done += self.load_actions(block.index, block.tag)
            else:
                done += self._content(block)[1]
        return done + self.run

    def _content(self, block: Block) -> tuple[State, list[Action]]:
        if block.start is not None and block.actions is not None:
            return block.start, block.actions
        if self.load is None:
            raise LookupError(f"block {block.index} is not in memory and there is no disk to read it from")
        return self.load(block.index, block.tag)

    def unsaved_blocks(self) -> list[tuple[Block, State, list[Action]]]:
        return [(block, *self._content(block)) for block in self.sealed if not block.saved]

    # -- changing ------------------------------------------------------------------------------------
    def push(self, action: Action, after: State, tag: int) -> None:
        """Record ``action``, which led to ``after``; ``tag`` is the seq of the journal entry recording it."""
        self.run.append(action)
        self._states.append(after)
        self.current = after
        if len(self.run) >= self.block_size:
            block = Block(len(self.sealed), tag, self.checkpoint, self.run)
            self.sealed.append(block)
            self._last_sealed = _KeptBlock(block, self.checkpoint, self.run, self._states[-SEALED_STATES - 1 :])
            self.checkpoint = after
            self.run = []
            self._states = [after]

    def pop(self) -> tuple[Action, State]:
        """Take back the last action: (that action, the state before it). Changes nothing if it raises
        (``IndexError`` when there is nothing to undo, or whatever reading or replaying a block raises)."""
        if self.run:
            checkpoint, run, states = self.checkpoint, self.run, self._states
            if len(states) < 2:
                states = self._replay(checkpoint, run)
            reopened = False
        else:
            if not self.sealed:
                raise IndexError("nothing to undo")
            kept = self._last_sealed
            if kept is not None and kept.block is self.sealed[-1]:
                checkpoint, actions, states = kept.start, kept.actions, list(kept.states)
            else:
                checkpoint, actions = self._content(self.sealed[-1])
                states = []
            run = list(actions)
            if len(states) < 2:
                states = self._replay(checkpoint, run)
            reopened = True
        if reopened:
            self.sealed.pop()
            self._last_sealed = None
        self.checkpoint, self.run, self._states = checkpoint, run, states
        action = run.pop()
        states.pop()
        self.current = states[-1]
        return action, self.current

    def _replay(self, start: State, actions: list[Action]) -> list[State]:
        states = [start]
        for action in actions:
            states.append(self.apply(states[-1], action))
        return states

    # -- saving --------------------------------------------------------------------------------------
    def mark_saved(self, keep_in_memory: bool) -> None:
        """Every sealed block is on disk now; unless asked to keep them, forget their states and actions."""
        for block in self.sealed:
            block.saved = True
            if not keep_in_memory:
                block.start = None
                block.actions = None

    def keep_readable(self, readable: Callable[[Block], bool]) -> int:
        """Forget the sealed blocks up to the last one that cannot be read (``readable`` is False), so that
        the history starts after it; the rest is brought into memory, numbered from 0 and marked unsaved.
        Returns how many actions were forgotten (0 when every block reads)."""
        bad = [position for position, block in enumerate(self.sealed) if not readable(block)]
        if not bad:
            return 0
        kept = self.sealed[bad[-1] + 1 :]
        for block in kept:
            block.start, block.actions = self._content(block)
            block.saved = False
        for position, block in enumerate(kept):
            block.index = position
        self.sealed = kept
        return (bad[-1] + 1) * self.block_size

    def load_all(self) -> None:
        """Bring every sealed block into memory and mark it unsaved (before writing them all elsewhere)."""
        for block in self.sealed:
            block.start, block.actions = self._content(block)
            block.saved = False
