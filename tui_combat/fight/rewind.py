"""Looking back at a saved fight, and going on from any point of it as a new fight; no Textual.

:func:`look_back` reads a saved session without changing it (no lock is taken, nothing is written, so a GM
who has it open goes on undisturbed) and gives its :class:`Timeline`: the state before the first action
and the actions done, as undo and redo left them, indexed by action and by round. :func:`branch` starts a
new session whose history is those actions up to a chosen point, under a name of its own; the original's
files are only read.

A timeline replays the whole fight once, when it is made, and keeps only every
:data:`CHECKPOINT_EVERY`-th state (a fight's states share everything an action did not change, so each
costs little beyond its own changes); any other state is replayed from the checkpoint before it, so a step
back costs at most that many actions and a step forward one. A fight of 10,000 actions and 2,000
combatants holds some 200 states, not 10,000.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tui_combat.fight.session import SessionError, free_name
from tui_combat.i18n import _

if TYPE_CHECKING:
    from tui_combat.engine.actions import Action
    from tui_combat.engine.log import LogEntry
    from tui_combat.engine.model import State
    from tui_combat.fight.store import Store

__all__ = ["CHECKPOINT_EVERY", "Timeline", "branch", "branch_name", "look_back", "where_label"]

CHECKPOINT_EVERY = 50
"""A state is kept every this many actions: a step back replays at most this many."""

Apply = Callable[["State", "Action"], "State"]
_PHASES = ("setup", "surprise", "round", "over")


def where_label(phase: str, round_number: int) -> str:
    """Where a fight stands, as the session list says it: "set-up", "surprise", "round 2"."""
    if phase == "setup":
        return _("set-up")
    if phase == "surprise":
        return _("surprise")
    return _("round {n}", n=round_number)


def _default_apply() -> Apply:
    from tui_combat.engine.apply import apply

    return apply


class Timeline:
    """A fight as it went: position 0 is the state before the first action, position ``n`` the state after
    the first ``n`` actions, and the last position (:attr:`last`) where the fight was left."""

    def __init__(
        self,
        base: State,
        actions: Sequence[Action],
        *,
        apply: Apply | None = None,
        checkpoint_every: int = CHECKPOINT_EVERY,
    ) -> None:
        """Replays ``actions`` from ``base`` once. Raises whatever the rules raise on an action that does not
        replay (:func:`look_back` turns it into a :class:`SessionError`)."""
        if checkpoint_every < 1:
            raise ValueError("checkpoint_every must be at least 1")
        self.base = base
        self.actions: tuple[Action, ...] = tuple(actions)
        self._apply = apply or _default_apply()
        self._every = checkpoint_every
        self._rounds = array("i")
        self._phases = bytearray()
        self._log_counts = array("q")
        """How many log entries the state at each position holds."""
        self._checkpoints: dict[int, State] = {}
        self.warnings: list[str] = []
        """What reading the session found to say (a torn last line skipped, a replay that ends differently)."""
        self.final = self._replay_all()
        self._cached: tuple[int, State] = (self.last, self.final)
        self._round_starts = [
            position
            for position in range(len(self._rounds))
            if position == 0 or self._segment(position) != self._segment(position - 1)
        ]

    def _note(self, position: int, state: State) -> None:
        self._rounds.append(state.round)
        self._phases.append(_PHASES.index(state.phase))
        self._log_counts.append(state.log_count)
        if position % self._every == 0:
            self._checkpoints[position] = state

    def _replay_all(self) -> State:
        state = self.base
        self._note(0, state)
        for position, action in enumerate(self.actions, start=1):
            state = self._apply(state, action)
            self._note(position, state)
        return state

    # -- reading ------------------------------------------------------------------------------------
    @property
    def last(self) -> int:
        """The last position: the number of actions."""
        return len(self.actions)

    @property
    def kept_states(self) -> int:
        """How many states the timeline holds (its checkpoints, the last one shown and the final one)."""
        return len(self._checkpoints) + 2

    @property
    def name(self) -> str:
        """The fight's name where it was left."""
        return self.final.name

    def _check(self, position: int) -> None:
        if not 0 <= position <= self.last:
            raise IndexError(f"position {position} is outside 0..{self.last}")

    def state_at(self, position: int) -> State:
        """The state after the first ``position`` actions: replayed from the nearest state kept before it
        (the last one asked for, when it is nearer)."""
        self._check(position)
        if position == self.last:
            return self.final
        start = position - position % self._every
        state = self._checkpoints[start]
        cached_at, cached = self._cached
        if start <= cached_at <= position:
            start, state = cached_at, cached
        for index in range(start, position):
            state = self._apply(state, self.actions[index])
        self._cached = (position, state)
        return state

    def round_at(self, position: int) -> int:
        self._check(position)
        return self._rounds[position]

    def phase_at(self, position: int) -> str:
        self._check(position)
        return _PHASES[self._phases[position]]

    def where(self, position: int) -> str:
        """Where the fight stands at ``position``: "set-up", "surprise", "round 2"."""
        return where_label(self.phase_at(position), self.round_at(position))

    def _segment(self, position: int) -> tuple[str, int]:
        """What a round start separates: set-up, surprise, each round (a fight over stays in its round)."""
        phase = self.phase_at(position)
        return ("round", self._rounds[position]) if phase in ("round", "over") else (phase, 0)

    @property
    def round_starts(self) -> tuple[int, ...]:
        """The first position of the set-up, of the surprise and of each round, in order."""
        return tuple(self._round_starts)

    def round_start_before(self, position: int) -> int:
        """The last round start before ``position`` (0 when there is none): one round back."""
        self._check(position)
        return max((start for start in self._round_starts if start < position), default=0)

    def round_start_after(self, position: int) -> int:
        """The first round start after ``position`` (the last position when there is none): one round on."""
        self._check(position)
        return min((start for start in self._round_starts if start > position), default=self.last)

    def position_of_round(self, round_number: int) -> int | None:
        """The first position in round ``round_number`` (None when the fight never reached it)."""
        return next(
            (position for position in self._round_starts if self._segment(position) == ("round", round_number)), None
        )

    def logged_by(self, position: int) -> list[LogEntry]:
        """The log entries the action that led to ``position`` wrote (none for position 0)."""
        self._check(position)
        if position == 0:
            return []
        first, end = self._log_counts[position - 1], self._log_counts[position]
        if end <= first:
            return []
        from tui_combat.engine.log_window import logged_since

        state = self.state_at(position)
        if first >= state.log_start:
            return logged_since(state, first)
        # More entries than a state holds (the order of a mass battle): the action is applied again to say them all.
        from tui_combat.engine.apply import apply_logged

        return apply_logged(self.state_at(position - 1), self.actions[position - 1])[1]


# -- reading a saved session ------------------------------------------------------------------------------
def look_back(data_root: Path, key: str) -> Timeline:
    """The timeline of the saved session ``key``, read without changing anything on disk (read-only: no
    lock is taken, so a copy of tui-combat that has it open goes on as it was). Raises :class:`SessionError`
    when it cannot be read or its history does not replay. The store's warnings (a torn last line skipped …)
    are in :attr:`Timeline.warnings`."""
    from tui_combat.fight.session import resume
    from tui_combat.saves.errors import SaveError

    title = _("Cannot look back at the session")
    try:
        store = resume(data_root, key, read_only=True)
    except SessionError as error:
        raise SessionError(title, str(error)) from None
    try:
        base, actions, saved = store.base, store.done_actions(), store.state
        warnings = [warning for warning in store.warnings if warning != store.read_only_reason]
    except SaveError as error:  # a history block is missing or damaged
        raise SessionError(title, str(error)) from None
    finally:
        store.close()
    try:
        timeline = Timeline(base, actions)
    except Exception as error:  # the rules are plugins: whatever they raise means the history no longer replays
        reason = str(error) if _is_refusal(error) else f"{type(error).__name__}: {error}"
        raise SessionError(title, _("Its history no longer replays ({error}).", error=reason)) from None
    if timeline.final != saved:
        warnings.append(
            _(
                "Replayed with the rules as they are now, this fight ends differently from how it was "
                "saved (its ruleset or house rules have changed since): the states shown are the replayed ones."
            )
        )
    timeline.warnings = warnings + timeline.warnings
    return timeline


def _is_refusal(error: Exception) -> bool:
    from tui_combat.engine.dice import DiceError
    from tui_combat.engine.errors import RuleError

    return isinstance(error, (RuleError, DiceError))


# -- going on from a point ------------------------------------------------------------------------------
def branch_name(timeline: Timeline, position: int) -> str:
    """The name a fight continued from ``position`` is offered: "Ambush (branch, round 2)"."""
    return _("{name} (branch, {where})", name=timeline.name, where=timeline.where(position))


def branch(data_root: Path, timeline: Timeline, position: int, name: str, *, seed: int | None = None) -> Store:
    """A new session, called ``name`` (or the next free name: "… 2"), whose history is the timeline's
    actions up to ``position``, then its new name; it opens at the state of that point. The session the
    timeline was read from is not touched. The whole history is written at once (one snapshot and its
    history blocks), and a session that could not be written leaves nothing behind.

    Its dice are its own: seeded from the fight's seed, the point and ``seed`` (the app's, in tests), so
    going on twice from one point with the same ``seed`` rolls the same."""
    from tui_combat.engine.actions import SetName
    from tui_combat.fight.session import new_session_folder
    from tui_combat.fight.store import Store
    from tui_combat.saves.errors import SaveError
    from tui_combat.saves.session_folders import remove_new_folder

    title = _("Cannot continue from here")
    name = name.strip()
    if not name:
        raise SessionError(title, _("A name cannot be empty."))
    if not 0 <= position <= timeline.last:
        raise ValueError(f"position {position} is outside 0..{timeline.last}")
    name = free_name(data_root, name)
    store = Store.create(timeline.base, None)  # in memory first: one write at the end, not one per action
    try:
        for action in timeline.actions[:position]:
            store.dispatch(action)
        store.dispatch(SetName(name=name))
    except Exception as error:  # the rules are plugins: whatever they raise means the history no longer replays
        reason = str(error) if _is_refusal(error) else f"{type(error).__name__}: {error}"
        raise SessionError(title, _("Its history no longer replays ({error}).", error=reason)) from None
    folder = new_session_folder(data_root, name, title)
    try:
        store.save_as(folder)
    except SaveError as error:
        store.close()
        remove_new_folder(folder)
        raise SessionError(title, str(error)) from None
    store.rng = random.Random(
        f"{store.state.seed}:{position}:{seed if seed is not None else random.SystemRandom().random()}"
    )
    return store
