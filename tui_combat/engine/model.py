"""The one state value of a fight: a tree of frozen msgspec Structs.

Nothing here is ever edited in place; :func:`tui_combat.engine.apply.apply` returns a new tree.

What belongs to a ruleset is kept in two fields the engine never writes inside: ``round_state`` (what
the ruleset tracks during a round) and ``fight_state`` (what it keeps for the whole fight). Each
ruleset declares its own msgspec Struct types for them; a state decoded from a file holds plain
mappings there until :func:`tui_combat.engine.registry.restore` converts them back. A combatant's sheet
stays a JSON-like mapping that the ruleset checks when it is entered.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, Generic, Literal, TypeVar

import msgspec
from msgspec.structs import replace

from tui_combat.engine.dice import Roll
from tui_combat.engine.messages import LOG_CHUNK, LogChunk, LogEntry, Msg, append_log
from tui_combat.i18n import N_

SCHEMA_VERSION = 3
"""3: who may read each log line is decided when it is written (:mod:`tui_combat.engine.audience`); a state of
schema 2 is brought up to it when read (:mod:`tui_combat.saves.migrate`)."""


Status = Literal["active", "down", "fled", "surrendered"]
STATUS_WORDS = (N_("active"), N_("down"), N_("fled"), N_("surrendered"))
"""The statuses, marked for translation: a screen shows ``_(combatant.status)``."""
JSONMap = dict[str, Any]

ROLLS_SHOWN = ("outcomes", "everything", "nothing")
"""What the players see of rolls (:data:`ROLLS_OPTION` in a fight's options): the outcome only (who hits whom),
every roll as the GM sees it, or nothing of the rolls."""
BEHIND_THE_SCREEN = "behind_the_screen"
"""A log line's fact (True) for a line without dice that states what the book keeps behind the GM's screen (a
monster's initiative modifiers): the players see it only when the GM shows them everything of the rolls."""
ROLLS_OPTION = "public_rolls"
"""The key of a fight's options that says what the players see of rolls (the engine's, whatever the ruleset)."""

__all__ = [
    "BEHIND_THE_SCREEN",
    "LOG_CHUNK",
    "ROLLS_OPTION",
    "ROLLS_SHOWN",
    "SCHEMA_VERSION",
    "Combatant",
    "Effect",
    "Initiative",
    "JSONMap",
    "LogChunk",
    "LogEntry",
    "RollRequest",
    "Side",
    "Slot",
    "State",
    "Status",
    "append_log",
    "changed_places",
]


class Side(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    is_party: bool = False


class Combatant(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    side: str
    hp: int
    max_hp: int
    group: str = ""
    """Combatants sharing a non-empty group roll initiative once, together."""
    status: Status = "active"
    sheet: JSONMap = msgspec.field(default_factory=dict)
    """The ruleset's fields for this combatant (weapon, speed, THAC0, skill values …)."""
    notes: str = ""
    secret_notes: str = ""
    hidden: bool = False
    """Kept from the players (the ambusher behind the door, reinforcements) until the GM reveals him: he takes
    part on the GM's screen and is absent from the players' screen and the public report."""


class Effect(msgspec.Struct, frozen=True, kw_only=True):
    """A condition or effect on a combatant for a number of rounds (blessed, stunned, held …), kept by the
    engine whatever the ruleset: counted down at the end of each round (or of the combatant's turn, if the
    ruleset says so) and gone, with a log line, when no round is left."""

    id: int
    combatant: str
    label: Msg
    rounds: int
    """Rounds left, counting the present one."""
    secret: bool = False
    """Put on during a secret step, or named after a secret: the players' screen does not show it."""
    held: bool = False
    """Secret only because its name names something said in secret: the GM may show it after all."""
    holder: str = ""
    """The combatant whose concentration holds it (5e: a spell on another), "" for none: the rules end it when
    that concentration ends (:func:`tui_combat.engine.effects.end_held`)."""


class Slot(msgspec.Struct, frozen=True, kw_only=True):
    """One place in the turn order: everyone in it acts simultaneously, or, in a ``free`` slot, in the
    order the GM picks."""

    label: Msg
    """What the GM calls out: "7", "countdown 15", "end of round"."""
    combatants: tuple[str, ...]
    value: int = 0
    free: bool = False


class RollRequest(msgspec.Struct, frozen=True, kw_only=True):
    """A roll the ruleset needs (initiative, surprise, a tie-break …), rolled by the app or typed in."""

    key: str
    label: Msg
    dice: str
    modifier: int = 0
    combatants: tuple[str, ...] = ()
    secret: bool = False
    """A GM-only roll (5e speed factor): kept out of the players' sight."""


class Initiative(msgspec.Struct, frozen=True, kw_only=True):
    """Initiative as it is being settled: every roll taken so far and the rolls the ruleset still asks for."""

    rolls: dict[str, Roll] = msgspec.field(default_factory=dict)
    pending: tuple[RollRequest, ...] = ()
    """Further rolls the ruleset asked for (a tie reroll, a roll-off, a critical event); empty when none."""
    settled: bool = False
    """True once the order stands (for the round, or for the fight)."""


T = TypeVar("T")


class _Made(Generic[T]):
    """What is worked out once for the combatants as they stand (None until then), shared by the tuples made
    from one another for which it is the same: worked out for one, it is there for all."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value: T | None = None


class _Index:
    """Where each combatant of one ``combatants`` tuple stands (id → position, the first one when an id
    repeats), id → name and the names of those hidden, each made the first time a state with that tuple is asked;
    and, for a tuple made from another by :meth:`State.with_combatant`, that one and the place that changed (what
    changed between two states is then found without comparing every combatant)."""

    __slots__ = ("at", "changed_at", "hidden", "made_from", "names")

    def __init__(
        self,
        at: dict[str, int],
        names: _Made[Mapping[str, str]] | None = None,
        hidden: _Made[frozenset[str]] | None = None,
        made_from: tuple[Combatant, ...] | None = None,
        changed_at: int = -1,
    ) -> None:
        self.at = at
        self.names: _Made[Mapping[str, str]] = names or _Made()
        self.hidden: _Made[frozenset[str]] = hidden or _Made()
        self.made_from = made_from
        self.changed_at = changed_at


_INDEXES: dict[int, tuple[tuple[Combatant, ...], _Index]] = {}
"""The index of the last few ``combatants`` tuples, by the tuple's identity. States are frozen and share
their tuple until a combatant changes, so every state an action goes through finds the same index; the
entry holds the tuple itself, so its identity cannot be reused while it is here (and a tuple made from another
holds that one: at most as many again). The last used is kept longest. Not part of the state: nothing of it is
saved."""
_KEPT = 16
_LOCK = threading.Lock()
_last_used = [0]
"""The key of the index last moved to the end of :data:`_INDEXES` (the others are moved there under the lock)."""


def _remember(combatants: tuple[Combatant, ...], index: _Index) -> _Index:
    with _LOCK:
        while len(_INDEXES) >= _KEPT:
            del _INDEXES[next(iter(_INDEXES))]
        _INDEXES[id(combatants)] = (combatants, index)
        _last_used[0] = id(combatants)
    return index


def _index(combatants: tuple[Combatant, ...]) -> _Index:
    key = id(combatants)
    found = _INDEXES.get(key)
    if found is not None and found[0] is combatants:
        if _last_used[0] != key:  # the last used kept longest: undo goes back to a tuple made before
            with _LOCK:
                if key in _INDEXES:
                    _INDEXES[key] = _INDEXES.pop(key)
                    _last_used[0] = key
        return found[1]
    at: dict[str, int] = {}
    for position, combatant in enumerate(combatants):
        at.setdefault(combatant.id, position)
    return _remember(combatants, _Index(at))


CHANGES_FOLLOWED = 64
"""How many combatants replaced one by one :func:`changed_places` follows back before it compares them all."""


def changed_places(before: tuple[Combatant, ...], after: tuple[Combatant, ...]) -> list[int] | None:
    """The places at which ``after`` holds other combatants than ``before`` (ascending), when one of the two was
    made from the other by :meth:`State.with_combatant` a few times (an action, or undo going back over it):
    found from what each of those remembered, whatever the number of combatants. None when that is not known
    (other tuples, or too far apart): the caller compares them."""
    if before is after:
        return []
    if len(before) != len(after):
        return None
    for newer, older in ((after, before), (before, after)):
        places = _places_back(newer, older)
        if places is not None:
            return sorted(place for place in places if before[place] is not after[place])
    return None


def _places_back(newer: tuple[Combatant, ...], older: tuple[Combatant, ...]) -> set[int] | None:
    places: set[int] = set()
    for _step in range(CHANGES_FOLLOWED):
        found = _INDEXES.get(id(newer))
        if found is None or found[0] is not newer or found[1].made_from is None:
            return None
        places.add(found[1].changed_at)
        newer = found[1].made_from
        if newer is older:
            return places
    return None


def _names(combatants: tuple[Combatant, ...]) -> Mapping[str, str]:
    index = _index(combatants)
    if index.names.value is None:
        index.names.value = MappingProxyType({combatant.id: combatant.name for combatant in combatants})
    return index.names.value


class State(msgspec.Struct, frozen=True, kw_only=True):
    schema: int = SCHEMA_VERSION
    name: str = ""
    ruleset: str = ""
    """The ruleset's id in the registry; "" until the set-up names one."""
    options: dict[str, str] = msgspec.field(default_factory=dict)
    """Ruleset options chosen at setup, e.g. ``{"initiative": "standard"}``."""
    seed: int = 0
    sides: tuple[Side, ...] = ()
    combatants: tuple[Combatant, ...] = ()
    next_id: int = 1
    phase: Literal["setup", "surprise", "round", "over"] = "setup"
    round: int = 0
    step: int = 0
    """Index into the ruleset's steps for the current round."""
    order: tuple[Slot, ...] = ()
    cursor: int = 0
    """Index of the slot acting now."""
    initiative: Initiative = msgspec.field(default_factory=Initiative)
    surprised: tuple[str, ...] = ()
    """Combatant ids the surprise roll (or the GM) found surprised; what that means is the ruleset's."""
    distance: Msg | None = None
    round_state: Any = None
    """The ruleset's own Struct for the current round (its declarations, budgets …)."""
    fight_state: Any = None
    """The ruleset's own Struct for the whole fight (what carries from round to round)."""
    log: tuple[LogChunk, ...] = ()
    """The newest entries of the log (:mod:`tui_combat.engine.log_window`: every one in a short fight), in
    chunks of :data:`LOG_CHUNK` so appending stays cheap in a long fight."""
    log_start: int = 0
    """How many entries of the fight's log came before the first one :attr:`log` holds."""
    effects: tuple[Effect, ...] = ()
    """Conditions and effects lasting some rounds, in the order they were put on."""
    next_effect: int = 1
    secret_words: tuple[str, ...] = ()
    """What the GM typed in secret (a declared spell, a plan, an effect's name in a secret step): a later free
    text that names one of them is held from the players (:mod:`tui_combat.engine.audience`)."""

    # -- small read helpers (pure) --------------------------------------------------------------
    def combatant(self, combatant_id: str) -> Combatant:
        return self.combatants[_index(self.combatants).at[combatant_id]]

    def has(self, combatant_id: str) -> bool:
        return combatant_id in _index(self.combatants).at

    def present(self, combatant_ids: Iterable[str]) -> list[Combatant]:
        """The combatants of ``combatant_ids`` who are in the fight, in that order, one look-up each (a slot of
        the order may hold 10,000)."""
        at, combatants = _index(self.combatants).at, self.combatants
        return [combatants[at[cid]] for cid in combatant_ids if cid in at]

    def position(self, combatant_id: str) -> int:
        """Where the combatant stands in :attr:`combatants` (KeyError when nobody has that id)."""
        return _index(self.combatants).at[combatant_id]

    def with_combatant(self, combatant: Combatant) -> State:
        """This state with ``combatant`` in place of the one with its id (the first, should an id repeat):
        found by the index, and the new tuple shares it (the same ids stand at the same places)."""
        index = _index(self.combatants)
        position = index.at[combatant.id]
        combatants = (*self.combatants[:position], combatant, *self.combatants[position + 1 :])
        old = self.combatants[position]
        same_name = old.name == combatant.name
        same_hidden = old.hidden == combatant.hidden and (same_name or not old.hidden)
        _remember(
            combatants,
            _Index(
                index.at,
                index.names if same_name else None,
                index.hidden if same_hidden else None,
                made_from=self.combatants,
                changed_at=position,
            ),
        )
        return replace(self, combatants=combatants)

    def side(self, side_id: str) -> Side:
        for side in self.sides:
            if side.id == side_id:
                return side
        raise KeyError(side_id)

    def names(self) -> Mapping[str, str]:
        """Id → name of every combatant (read-only, made once for the combatants as they stand)."""
        return _names(self.combatants)

    def hidden_names(self) -> frozenset[str]:
        """The names (casefolded) of the combatants kept from the players, made once for the combatants as they
        stand."""
        index = _index(self.combatants)
        if index.hidden.value is None:
            index.hidden.value = frozenset(c.name.casefold() for c in self.combatants if c.hidden)
        return index.hidden.value

    def log_entries(self) -> list[LogEntry]:
        """The entries of the log this state holds, oldest first (the newest ones: every entry of a short fight)."""
        return [entry for chunk in self.log for entry in chunk]

    @property
    def log_count(self) -> int:
        """How many entries the fight's log has, those before :attr:`log` included."""
        return self.log_start + sum(map(len, self.log))

    def acting_now(self) -> tuple[str, ...]:
        if 0 <= self.cursor < len(self.order):
            return self.order[self.cursor].combatants
        return ()
