"""The fight's log, stored as data: a message id with its parameters, rendered when shown.

A message id is the English text with ``{placeholders}`` (marked with :func:`N_` so the extractor finds
it). Parameters are plain values or nested :class:`Msg` (a word that itself needs translating, such as
"hit"); lists are rendered item by item and joined. Nothing here depends on the active language, so the
same journal gives the same state whatever language the GM or a player view uses.
"""

from __future__ import annotations

import msgspec

from tui_combat.engine.dice import Roll
from tui_combat.i18n import N_, _, ngettext

__all__ = [
    "LOG_CHUNK",
    "Fact",
    "LogChunk",
    "LogEntry",
    "Msg",
    "N_",
    "Param",
    "append_log",
    "msg",
    "plural_msg",
    "render",
    "render_param",
    "roll_param",
]

Fact = int | str | bool


class Msg(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A translatable message: its English id and its parameters.

    A message that stands for something of the fight (a combatant, a side, a group) names it by its id in
    :attr:`ref`; a message whose value is not everyone's to read says so in :attr:`gm`
    (:mod:`tui_combat.engine.audience`: who may read what is decided when the line is written)."""

    id: str
    params: dict[str, Param] = msgspec.field(default_factory=dict)
    plural: str = ""
    """The plural id of a message whose words follow a number, ``params["n"]`` (:func:`plural_msg`)."""
    ref: str = ""
    """The id of the combatant, side or group this message names ("" when it names none)."""
    gm: str = ""
    """Who may not read it: "" everyone; otherwise one of :data:`tui_combat.engine.audience.MARKS`."""
    sep: str = ""
    """What joins the items of its list parameters ("" for ", ")."""

    def __str__(self) -> str:
        return render(self)


Param = str | int | float | bool | None | Msg | list[str | int | Msg]


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
            return Msg(
                id=N_("{expr} (typed): {faces} = {total}"),
                params={"expr": roll.expr, "faces": faces, "total": roll.total},
            )
        return Msg(id=N_("{expr} (typed): {total}"), params={"expr": roll.expr, "total": roll.total})
    return format_roll(roll)


def render_param(value: Param, sep: str = ", ") -> str:
    if isinstance(value, Msg):
        return render(value)
    if isinstance(value, list):
        return sep.join(render_param(item) for item in value)
    if value is None:
        return ""
    return str(value)


_WHOLE = frozenset(("{name}", "{text}", "{value}"))
"""Messages made of one parameter: a name, a text typed, a value; shown as they are, never translated."""


def render(message: Msg | str) -> str:
    """The message in the active language."""
    if isinstance(message, str):
        return _(message)
    if message.id in _WHOLE and len(message.params) == 1:
        return render_param(next(iter(message.params.values())))
    sep = message.sep or ", "
    if message.plural:
        count = message.params.get("n")
        rendered = {key: render_param(value, sep) for key, value in message.params.items()}
        return ngettext(message.id, message.plural, count if isinstance(count, int) else 0, **rendered)
    if not message.params:
        return _(message.id)
    return _(message.id, **{key: render_param(value, sep) for key, value in message.params.items()})


class LogEntry(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One line of the fight's log, with who may read it decided when it was written
    (:func:`tui_combat.engine.audience.decided`): the GM reads :attr:`msg`; the players read nothing of a
    :attr:`secret` or :attr:`unseen` line, and :attr:`public` in place of :attr:`msg` where it is set."""

    round: int
    msg: Msg
    secret: bool = False
    """The GM's alone (🔒 on his screen): said in secret, about someone hidden, or naming a secret."""
    rolls: tuple[Roll, ...] = ()
    """The dice behind the entry, faces included."""
    facts: dict[str, Fact] = msgspec.field(default_factory=dict)
    """Structured results a reader can use without parsing text: ``needed``, ``hit``, ``sv`` …"""
    held: bool = False
    """Secret only because a text in it names something the GM said in secret: he may show it after all."""
    unseen: bool = False
    """Not for the players, though no secret: what the GM's setting keeps of the rolls behind his screen."""
    public: Msg | None = None
    """What the players read in place of :attr:`msg`, when that holds what is not theirs."""

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
