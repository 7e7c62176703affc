"""Writing to the fight's log: :func:`log` adds a line, with who may read it decided as it is written.

The lines themselves are data (:mod:`tui_combat.engine.messages`, re-exported here): a message id with its
parameters, rendered when shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from tui_combat.engine.audience import decided
from tui_combat.engine.dice import Roll
from tui_combat.engine.messages import (
    LOG_CHUNK,
    Fact,
    LogChunk,
    LogEntry,
    Msg,
    Param,
    append_log,
    msg,
    plural_msg,
    render,
    render_param,
    roll_param,
)
from tui_combat.engine.model import State
from tui_combat.i18n import N_

__all__ = [
    "LOG_CHUNK",
    "Fact",
    "LogChunk",
    "LogEntry",
    "Msg",
    "N_",
    "Param",
    "append_log",
    "log",
    "msg",
    "plural_msg",
    "render",
    "render_param",
    "roll_param",
]

S = TypeVar("S", bound=State)


def log(
    state: S,
    message_id: str | Msg,
    /,
    *,
    secret: bool = False,
    rolls: tuple[Roll, ...] = (),
    facts: Mapping[str, Fact] | None = None,
    public: Msg | None = None,
    **params: Param,
) -> S:
    """``state`` with one more log entry (``message_id`` marked with :func:`N_`), who may read it decided now
    (:func:`tui_combat.engine.audience.decided`): ``public`` is what the players read when the line holds what is
    not theirs (a monster's exact hit points, a stat) or, for a line of dice, its outcome as they may read it
    ("Raf saves: half damage")."""
    message = message_id if isinstance(message_id, Msg) else Msg(id=message_id, params=params)
    entry = LogEntry(round=state.round, msg=message, secret=secret, rolls=rolls, facts=dict(facts or {}))
    return cast(S, decided(cast(Any, state), entry, public))
