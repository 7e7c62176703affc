"""What the engine refuses because it could not be saved: checked as each action is applied.

A fight is saved as JSON and read back into the types of :mod:`tui_combat.engine.model`: a log entry's facts are
each an ``int``, a ``str`` or a ``bool`` (:data:`~tui_combat.engine.messages.Fact`), a message's parameters are
what :data:`~tui_combat.engine.messages.Param` allows, and the ruleset's round and fight states are read back into
its ``round_state_type`` and ``fight_state_type``. A value outside them would be written without complaint and
fail only when the session is next opened (read-only, as damaged). So :func:`check` looks, once the outermost
action is applied, at the log lines it wrote and at the ruleset's states where they changed, and a value that
would not read back is refused with a :class:`RuleError` naming the ruleset, the action and the value: nothing
changes, and the session stays as it was saved.

What it costs an action: a look at each line the action wrote, and a JSON round trip of a ruleset state only when
the action replaced it (the same object otherwise).
"""

from __future__ import annotations

from typing import Any

import msgspec

from tui_combat.engine import actions as a
from tui_combat.engine.errors import RuleError
from tui_combat.engine.keys import KEY_LABELS
from tui_combat.engine.log_window import logged_since
from tui_combat.engine.messages import LogEntry, Msg
from tui_combat.engine.model import State
from tui_combat.i18n import N_, _

__all__ = ["FACT_TYPES", "PARAM_TYPES", "check", "entries_problem", "entry_problem", "state_problem"]

FACT_TYPES = (int, str, bool)
"""What a log entry's fact may be (``bool`` is an ``int`` to Python and stays a ``bool`` in the file)."""
PARAM_TYPES = (str, int, float, bool, type(None), Msg)
"""What a message's parameter may be, besides a list of ``str``, ``int`` and :class:`Msg`."""

_ACTION_WORDS: dict[type[a.Action], str] = {
    a.NextStep: KEY_LABELS["round.next"],
    a.PreviousStep: KEY_LABELS["round.back"],
    a.RollInitiative: N_("Initiative"),
    a.Declare: KEY_LABELS["round.declare"],
    a.Damage: KEY_LABELS["round.damage"],
    a.Heal: KEY_LABELS["round.heal"],
    a.SetStatus: KEY_LABELS["round.status"],
    a.AddCombatants: KEY_LABELS["round.add"],
    a.BringIn: KEY_LABELS["round.bring_in"],
    a.AddEffect: KEY_LABELS["round.effect"],
    a.StartFight: N_("Start of the fight"),
    a.RollSurprise: N_("Surprise"),
    a.SavingThrow: N_("Saving throw"),
    a.AreaEffect: N_("Area effect"),
}
"""The engine's actions that call the ruleset's hooks, as the GM knows them."""


def _action_word(action: a.Action, state: State) -> str:
    """The action as the GM knows it: a ruleset's by its label, the app's by its key's name."""
    if isinstance(action, a.RulesetAction):
        from tui_combat.engine.registry import get

        try:
            spec = next((s for s in get(state.ruleset).actions if s.name == action.name), None)
        except RuleError:
            spec = None
        return _(spec.label) if spec is not None else action.name
    word = _ACTION_WORDS.get(type(action))
    return _(word) if word else _("this action")


def _kind(value: object) -> str:
    return type(value).__name__


def _param_problem(value: object, where: str) -> str | None:
    """Why ``value``, a message's parameter at ``where``, would not read back (None: it would)."""
    if isinstance(value, Msg):
        return _msg_problem(value, where)
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, Msg):
                problem = _msg_problem(item, f"{where}[{index}]")
                if problem:
                    return problem
            elif not isinstance(item, (str, int)) or isinstance(item, bool):
                return _(
                    "the log line's parameter {field} holds a {kind}: a list parameter holds str, int and Msg.",
                    field=f"{where}[{index}]",
                    kind=_kind(item),
                )
        return None
    if not isinstance(value, PARAM_TYPES):
        return _(
            "the log line's parameter {field} is a {kind}: a parameter is a str, an int, a float, a bool, None, "
            "a Msg or a list of them.",
            field=where,
            kind=_kind(value),
        )
    return None


def _msg_problem(message: Msg, where: str = "") -> str | None:
    for key, value in message.params.items():
        problem = _param_problem(value, f"{where}.{key}" if where else key)
        if problem:
            return problem
    return None


def entry_problem(entry: LogEntry) -> str | None:
    """Why ``entry`` would not read back from a saved fight (None: it would)."""
    for key, value in entry.facts.items():
        if not isinstance(value, FACT_TYPES):
            return _(
                "the log fact {field} is a {kind}: a fact is an int, a str or a bool.", field=key, kind=_kind(value)
            )
    problem = _msg_problem(entry.msg)
    if problem is None and entry.public is not None:
        problem = _msg_problem(entry.public)
    return problem


def state_problem(value: Any, state_type: type[Any], part: str) -> str | None:
    """Why ``value``, a ruleset's round or fight state (``part``), would not read back into ``state_type`` from a
    saved fight (None: it would). Written and read as a snapshot writes and reads it: JSON, then converted."""
    if value is None:
        return None
    try:
        msgspec.convert(msgspec.json.decode(msgspec.json.encode(value)), state_type)
    except (msgspec.ValidationError, msgspec.EncodeError, TypeError, ValueError, OverflowError) as error:
        return _(
            "its {part} does not read back as {type}: {error}", part=_(part), type=state_type.__name__, error=str(error)
        )
    return None


_ENCODER = msgspec.json.Encoder()
_ENTRIES = msgspec.json.Decoder(list[LogEntry])


_PLAIN_PARAMS = frozenset((str, int, float, bool, type(None)))
_PLAIN_FACTS = frozenset((str, int, bool))
_LISTED = frozenset((str, int))


def _plain_params(params: dict[str, Any]) -> bool:
    """Whether every parameter is plainly one the file holds (exact types: a subclass is left to msgspec)."""
    for value in params.values():
        kind = type(value)
        if kind in _PLAIN_PARAMS:
            continue
        if kind is Msg:
            if not _plain_params(value.params):
                return False
        elif kind is list:
            for item in value:
                if type(item) not in _LISTED and not (type(item) is Msg and _plain_params(item.params)):
                    return False
        else:
            return False
    return True


def _plainly_fine(entry: LogEntry) -> bool:
    for value in entry.facts.values():
        if type(value) not in _PLAIN_FACTS:
            return False
    return _plain_params(entry.msg.params) and (entry.public is None or _plain_params(entry.public.params))


def entries_problem(entries: list[LogEntry] | tuple[LogEntry, ...]) -> str | None:
    """Why one of ``entries`` would not read back from a saved fight (None: they would): each looked at for the
    plain types alone (what nearly every line holds), and what holds another (a subclass of one, or something
    wrong) written and read back as the snapshot does."""
    if all(map(_plainly_fine, entries)):
        return None
    try:
        _ENTRIES.decode(_ENCODER.encode(entries))
    except (msgspec.ValidationError, msgspec.EncodeError, TypeError, ValueError, OverflowError) as error:
        found = (entry_problem(entry) for entry in entries)
        return next((problem for problem in found if problem), None) or _(
            "a log line does not read back: {error}", error=str(error)
        )
    return None


def _new_entries(before: State, after: State) -> list[LogEntry] | tuple[LogEntry, ...]:
    """The entries ``after`` has that ``before`` had not (nothing is cut from the log until the outermost action is
    done: :func:`tui_combat.engine.log_window.kept_recent`)."""
    count = after.log_count - before.log_count
    if count <= 0:
        return ()
    if count <= len(after.log[-1]):
        return after.log[-1][-count:]
    return logged_since(after, before.log_count)


def check(before: State, after: State, action: a.Action) -> None:
    """Refuse ``action`` (``before`` → ``after``) with a :class:`RuleError` when ``after`` could not be saved and
    read back: a log line it wrote with a fact or a parameter of a type the file cannot hold, a ruleset state that
    does not read back into its type."""
    problem = None
    if after.log is not before.log:
        problem = entries_problem(_new_entries(before, after))
    if (
        problem is None
        and after.ruleset
        and (after.round_state is not before.round_state or after.fight_state is not before.fight_state)
    ):
        from tui_combat.engine.registry import get

        ruleset = get(after.ruleset)
        if after.round_state is not before.round_state:
            problem = state_problem(after.round_state, ruleset.round_state_type, N_("round state"))
        if problem is None and after.fight_state is not before.fight_state:
            problem = state_problem(after.fight_state, ruleset.fight_state_type, N_("fight state"))
    if problem is None:
        return
    name = _(_ruleset_name(after))
    raise RuleError(
        _(
            "Ruleset {ruleset}: {action} is refused, as the fight could not be saved with it: {problem}",
            ruleset=name,
            action=_action_word(action, before),
            problem=problem,
        )
    )


def _ruleset_name(state: State) -> str:
    if not state.ruleset:
        return "tui-combat"
    from tui_combat.engine.registry import get

    try:
        return get(state.ruleset).name
    except RuleError:
        return state.ruleset
