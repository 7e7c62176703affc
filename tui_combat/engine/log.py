"""The fight's log, stored as data: a message id with its parameters, rendered when shown.

A message id is the English text with ``{placeholders}`` (marked with :func:`N_` so the extractor finds
it). Parameters are plain values or nested :class:`Msg` (a word that itself needs translating, such as
"hit"); lists are rendered item by item and joined. Nothing here depends on the active language, so the
same journal gives the same state whatever language the GM or a player view uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, TypeVar, Union, cast

import msgspec
from msgspec.structs import replace

from tui_combat.engine.dice import Roll
from tui_combat.i18n import N_, _, ngettext

__all__ = ["Fact", "LogEntry", "Msg", "N_", "Param", "log", "msg", "plural_msg", "render", "render_param", "roll_param"]

Fact = Union[int, str, bool]


class Msg(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A translatable message: its English id and its parameters."""

    id: str
    params: dict[str, Param] = msgspec.field(default_factory=dict)
    plural: str = ""
    """The plural id of a message whose words follow a number, ``params["n"]`` (:func:`plural_msg`)."""

    def __str__(self) -> str:
        return render(self)


Param = Union[str, int, float, bool, None, Msg, list[Union[str, int, Msg]]]


def msg(message_id: str, /, **params: Param) -> Msg:
    return Msg(id=message_id, params=params)


def plural_msg(singular: str, plural: str, count: int, /, **params: Param) -> Msg:
    """A message whose words follow ``count`` ("{n} round" / "{n} rounds"; Russian and Ukrainian have three
    forms), rendered with :func:`~tui_combat.i18n.ngettext`; ``{n}`` is the count."""
    return Msg(id=singular, params={"n": count, **params}, plural=plural)


def roll_param(roll: Roll) -> Param:
    """A roll as a log parameter: its faces and total ("1d10: [7] = 7"), or "typed" for real dice."""
    from tui_combat.engine.dice import faces_text, format_roll

    if roll.physical:
        faces = faces_text(roll) if roll.faces else None
        if faces is not None:
            return Msg(id=N_("{expr} (typed): {faces} = {total}"), params={"expr": roll.expr, "faces": faces,
                                                                           "total": roll.total})
        return Msg(id=N_("{expr} (typed): {total}"), params={"expr": roll.expr, "total": roll.total})
    return format_roll(roll)


def render_param(value: Param) -> str:
    if isinstance(value, Msg):
        return render(value)
    if isinstance(value, list):
        return ", ".join(render_param(item) for item in value)
    if value is None:
        return ""
    return str(value)


def render(message: Msg | str) -> str:
    """The message in the active language."""
    if isinstance(message, str):
        return _(message)
    if message.plural:
        count = message.params.get("n")
        rendered = {key: render_param(value) for key, value in message.params.items()}
        return ngettext(message.id, message.plural, count if isinstance(count, int) else 0, **rendered)
    if not message.params:
        return _(message.id)
    return _(message.id, **{key: render_param(value) for key, value in message.params.items()})


class LogEntry(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    round: int
    msg: Msg
    secret: bool = False
    rolls: tuple[Roll, ...] = ()
    """The dice behind the entry, faces included."""
    facts: dict[str, Fact] = msgspec.field(default_factory=dict)
    """Structured results a reader can use without parsing text: ``needed``, ``hit``, ``sv`` …"""

    @property
    def text(self) -> str:
        """The entry in the active language."""
        return render(self.msg)


LogChunk = tuple[LogEntry, ...]
LOG_CHUNK = 64


def append_log(chunks: tuple[LogChunk, ...], entry: LogEntry) -> tuple[LogChunk, ...]:
    if chunks and len(chunks[-1]) < LOG_CHUNK:
        return (*chunks[:-1], (*chunks[-1], entry))
    return (*chunks, (entry,))


class Logged(Protocol):
    """What :func:`log` needs of a state (typed here so that this module does not import the model,
    which imports it)."""

    @property
    def round(self) -> int: ...

    @property
    def log(self) -> tuple[LogChunk, ...]: ...


S = TypeVar("S", bound=Logged)


def log(state: S, message_id: str | Msg, /, *, secret: bool = False, rolls: tuple[Roll, ...] = (),
        facts: Mapping[str, Fact] | None = None, **params: Param) -> S:
    """``state`` (a :class:`~tui_combat.engine.model.State`) with one more log entry (``message_id``
    marked with :func:`N_`)."""
    message = message_id if isinstance(message_id, Msg) else Msg(id=message_id, params=params)
    entry = LogEntry(round=state.round, msg=message, secret=secret, rolls=rolls, facts=dict(facts or {}))
    return cast(S, replace(cast(msgspec.Struct, state), log=append_log(state.log, entry)))

