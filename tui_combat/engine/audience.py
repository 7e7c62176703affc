"""Who may read what: decided once, when a log line is written, from where each of its values came.

A line names the combatants, sides and groups of the fight by id (:func:`who`, :func:`side_ref`,
:func:`group_ref`), and marks each value that is not everyone's (:data:`MARKS`): someone hidden from the players,
a stat behind the GM's screen, a hint to the GM, the dice behind an amount. When the line is logged,
:func:`decided` works out what the players read of it under the GM's setting for rolls at that moment
(:data:`~tui_combat.engine.model.ROLLS_OPTION`) and records it in the entry: nothing (:attr:`LogEntry.secret`,
:attr:`LogEntry.unseen`), the line itself, or another line (:attr:`LogEntry.public`: without the stat, or the
outcome of a roll). Nothing is decided later by searching the rendered text, so a name may hold any character,
and changing the setting for rolls changes only the lines written after.

The one thing matched by words is free text (a note, an effect's name, a text a ruleset's form took), against
what the GM said in secret (:attr:`State.secret_words`) and the names of those hidden: a text that names one as a
whole word, in any case, in the plural or after a count, is held (:attr:`LogEntry.held`: secret, with a key for
the GM to show it after all).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator
from typing import Final, NamedTuple

from msgspec.structs import replace

from tui_combat.engine.messages import LogEntry, Msg, Param, append_log
from tui_combat.engine.model import BEHIND_THE_SCREEN, ROLLS_OPTION, ROLLS_SHOWN, Combatant, State
from tui_combat.i18n import N_

__all__ = [
    "BEHIND",
    "DICE",
    "GM",
    "HINT",
    "MARKS",
    "Held",
    "anything_held",
    "behind",
    "decided",
    "dice",
    "gm_only",
    "group_ref",
    "held_items",
    "held_phrases",
    "hint",
    "names_a_secret",
    "players_line",
    "reading",
    "rolls_shown",
    "secret_word",
    "shown_after_all",
    "side_ref",
    "typed",
    "typed_texts",
    "who",
    "whos",
    "with_secret_words",
]

GM: Final = "gm"
"""Never the players': someone hidden from them, what was said in secret, a monster's exact hit points."""
BEHIND: Final = "behind"
"""Behind the GM's screen: a stat, a score, a number needed, a DC. The players read it only when the GM shows them
everything of the rolls."""
HINT: Final = "hint"
"""A hint to the GM (the key that does it): the players read the line without it."""
DICE: Final = "dice"
"""The dice behind an amount (" (2d6: [3, 4] = 7)"): the players read the amount, and the dice when the GM shows
them everything of the rolls."""
MARKS = (GM, BEHIND, HINT, DICE)


# -- naming what is in the fight ------------------------------------------------------------------------
def who(state: State, combatant: Combatant | str) -> Msg:
    """A combatant as a log parameter: his name, his id, and whether the players may read it (not while he is
    hidden from them)."""
    found = combatant if isinstance(combatant, Combatant) else state.combatant(combatant)
    return Msg(id="{name}", params={"name": found.name}, ref=found.id, gm=GM if found.hidden else "")


def whos(state: State, combatant_ids: Iterable[str]) -> list[str | int | Msg]:
    """Combatants as a list parameter ("Orc 1, Orc 2"): the players read those they may see."""
    return [who(state, combatant) for combatant in state.present(combatant_ids)]


def side_ref(state: State, side_id: str) -> Msg:
    """A side as a log parameter: for the players, a side none of whose members they see does not exist."""
    side = state.side(side_id)
    seen = any(c.side == side_id and not c.hidden for c in state.combatants)
    return Msg(id="{name}", params={"name": side.name}, ref=side.id, gm="" if seen else GM)


def group_ref(state: State, name: str, member_ids: Iterable[str], ref: str = "") -> Msg:
    """A group of combatants by one name ("Goblins", a group's base name): the players' only while they see one
    of them."""
    members = state.present(member_ids)
    seen = any(not member.hidden for member in members)
    return Msg(
        id="{name}", params={"name": name}, ref=ref or (members[0].group if members else ""), gm="" if seen else GM
    )


def behind(value: Param) -> Msg:
    """A stat behind the GM's screen (an armour value, a morale score, a DC, a save bonus)."""
    return Msg(id="{value}", params={"value": value}, gm=BEHIND)


def gm_only(value: Param) -> Msg:
    """A value that is never the players' (a monster's exact hit points)."""
    return Msg(id="{value}", params={"value": value}, gm=GM)


def hint(message: Msg) -> Msg:
    """A hint to the GM inside a line (" (key v)"): left out of the players' line."""
    return replace(message, gm=HINT)


def dice(message: Msg | str) -> Msg | str:
    """The dice behind an amount (" (2d6: [3, 4] = 7)"), left out of the players' line unless the GM shows them
    everything of the rolls; "" stays ""."""
    return replace(message, gm=DICE) if isinstance(message, Msg) else message


def typed(text: str) -> Msg:
    """A text the GM typed, as a log parameter: shown as typed, never translated."""
    return Msg(id="{text}", params={"text": text})


# -- secret words -----------------------------------------------------------------------------------------
_WORD = re.compile(r"\w+")
_ENDINGS = tuple(
    sorted(
        (
            "es",
            "s",  # English plurals
            "ами",
            "ями",
            "ого",
            "его",
            "ому",
            "ему",
            "ыми",
            "ими",
            "ых",
            "их",
            "ов",
            "ев",
            "ей",
            "ий",
            "ый",
            "ой",
            "ая",
            "яя",
            "ое",
            "ее",
            "ые",
            "ие",
            "ам",
            "ям",
            "ах",
            "ях",
            "ом",
            "ем",
            "ою",
            "ею",
            "ів",
            "їв",
            "ові",
            "еві",
            "і",
            "ї",
            "а",
            "я",
            "ы",
            "и",
            "у",
            "ю",
            "е",
            "о",
            "ь",
            "й",  # Russian and Ukrainian case and number endings
        ),
        key=len,
        reverse=True,
    )
)
_TIMES = frozenset(
    (
        "round",
        "turn",
        "segment",
        "minute",
        "hour",
        "day",
        "phase",
        "time",
        "раунд",
        "ход",
        "сегмент",
        "минут",
        "час",
        "ден",
        "фаз",
        "раз",
        "хід",
        "ходів",
        "хвилин",
        "годин",
        "дн",
        "день",
    )
)
"""Words of time: "2 rounds" typed in secret is the spell's duration, not a secret."""
_MIN_LETTERS = 3


def _stem(word: str) -> str:
    if word[:1].isdigit():  # "3s", "2nd": the number
        return word.rstrip("abcdefghijklmnopqrstuvwxyz") or word
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= _MIN_LETTERS:
            return word[: -len(ending)]
    return word


def _words(text: str) -> list[str]:
    return [_stem(word.casefold()) for word in _WORD.findall(text)]


_TIMES_STEMS = frozenset(_stem(word) for word in _TIMES)


def secret_word(text: str, names: Iterable[str] = ()) -> tuple[str, ...]:
    """The words of ``text`` typed in secret as they are matched later (stems, without a count before them), or
    () when it is no secret word: fewer than three letters, a number, a time ("2 rounds"), or one of ``names``
    (those in the fight: their lines name them by id)."""
    words = _words(text)
    while words and words[0].isdigit():
        words = words[1:]
    if sum(len(word) for word in words if not word.isdigit()) < _MIN_LETTERS:
        return ()
    if len(words) == 1 and words[0] in _TIMES_STEMS:
        return ()
    if any(_words(name) == words for name in names):
        return ()
    return tuple(words)


class _Phrases:
    """The phrases held back, with the first word of each for a quick look-up."""

    __slots__ = ("by_first",)

    def __init__(self, phrases: Iterable[tuple[str, ...]]) -> None:
        self.by_first: dict[str, list[tuple[str, ...]]] = {}
        for phrase in set(phrases):
            if phrase:
                self.by_first.setdefault(phrase[0], []).append(phrase)

    def found_in(self, text: str) -> bool:
        words = _words(text)
        for start, word in enumerate(words):
            for phrase in self.by_first.get(word, ()):
                if tuple(words[start : start + len(phrase)]) == phrase:
                    return True
        return False


_CACHE: dict[tuple[tuple[str, ...], frozenset[str]], _Phrases] = {}
_CACHE_LOCK = threading.Lock()


def held_phrases(state: State) -> _Phrases | None:
    """What a text must not name to be the players': the words said in secret and the names of those hidden
    (None when there is nothing)."""
    hidden = state.hidden_names()
    if not state.secret_words and not hidden:
        return None
    key = (state.secret_words, hidden)
    found = _CACHE.get(key)
    if found is None:
        phrases = [secret_word(word) for word in state.secret_words] + [tuple(_words(name)) for name in hidden]
        found = _Phrases(phrases)
        with _CACHE_LOCK:
            if len(_CACHE) > 32:
                _CACHE.clear()
            _CACHE[key] = found
    return found


def _free_texts(value: Param) -> Iterator[str]:
    """The texts of a parameter that are not the fight's own names (a combatant by id is his name, exactly)."""
    if isinstance(value, Msg):
        if value.ref:
            return
        for inner in value.params.values():
            yield from _free_texts(inner)
    elif isinstance(value, str):
        if value:
            yield value
    elif isinstance(value, list):
        for inner in value:
            yield from _free_texts(inner)


def names_a_secret(message: Msg, phrases: _Phrases | None) -> bool:
    """Whether a free text of ``message`` names a word said in secret or someone hidden."""
    if phrases is None:
        return False
    return any(phrases.found_in(text) for text in _free_texts(message))


def typed_texts(value: Param) -> Iterator[str]:
    """What the GM typed in a message (the ``{text}`` parameters)."""
    if isinstance(value, Msg):
        if value.id == "{text}" and isinstance(value.params.get("text"), str):
            yield str(value.params["text"])
        for inner in value.params.values():
            yield from typed_texts(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from typed_texts(inner)


def with_secret_words(state: State, texts: Iterable[str]) -> State:
    """``state`` with ``texts`` among the words said in secret (those that are secret words at all)."""
    names = None
    added: list[str] = []
    for text in texts:
        if names is None:
            names = [c.name for c in state.combatants] + [s.name for s in state.sides]
        if secret_word(text, names) and text.strip() not in state.secret_words:
            added.append(text.strip())
    if not added:
        return state
    return replace(state, secret_words=tuple(dict.fromkeys((*state.secret_words, *added))))


# -- what the players read ---------------------------------------------------------------------------------
class _Dropped:
    """A value the players may not read, and why (:data:`GM` or :data:`BEHIND`)."""

    __slots__ = ("why",)

    def __init__(self, why: str) -> None:
        self.why = why


_BY_GM = _Dropped(GM)
_BY_SETTING = _Dropped(BEHIND)


def reading(value: Param, shown: str) -> Param | _Dropped:
    """``value`` as the players read it under ``shown`` (what they see of rolls): itself, the same without what
    is not theirs (a hint, the dice, someone hidden from a list), or dropped (with why)."""
    if isinstance(value, Msg):
        mark = value.gm
        if mark:
            if mark == GM:
                return _BY_GM
            if mark == BEHIND and shown != "everything":
                return _BY_SETTING
            if mark == HINT or (mark == DICE and shown != "everything"):
                return ""
        if not value.params:
            return value
        params: dict[str, Param] | None = None
        for key, inner in value.params.items():
            read = reading(inner, shown)
            if isinstance(read, _Dropped):
                return read
            if read is not inner:
                if params is None:
                    params = dict(value.params)
                params[key] = read
        return value if params is None else replace(value, params=params)
    if isinstance(value, list):
        kept: list[str | int | Msg] = []
        why: _Dropped | None = None
        changed = False
        for item in value:
            read = reading(item, shown)
            if isinstance(read, _Dropped):
                why = why if why is _BY_GM else read
            elif isinstance(read, (str, int, Msg)):
                kept.append(read)
                changed = changed or read is not item
        if why is None:
            return kept if changed else value
        return kept if kept else why
    return value


def _has_mark(value: Param, mark: str) -> bool:
    if isinstance(value, Msg):
        return value.gm == mark or any(_has_mark(inner, mark) for inner in value.params.values())
    if isinstance(value, list):
        return any(_has_mark(inner, mark) for inner in value)
    return False


def rolls_shown(state: State) -> str:
    """What the players see of rolls now (:data:`~tui_combat.engine.model.ROLLS_SHOWN`)."""
    shown = state.options.get(ROLLS_OPTION, ROLLS_SHOWN[0])
    return shown if shown in ROLLS_SHOWN else ROLLS_SHOWN[0]


_HITS = {
    True: (N_("{name} hits {target}."), N_("{name} hits.")),
    False: (N_("{name} misses {target}."), N_("{name} misses.")),
}


def _named(state: State, value: object) -> Param | None:
    """A name of the fight as a parameter: a reference, or a combatant's id or name in a fact."""
    if isinstance(value, Msg):
        return value if value.ref or value.id == "{name}" else None
    if isinstance(value, str) and value:
        return who(state, value) if state.has(value) else value
    return None


def _outcome(state: State, entry: LogEntry) -> Msg | None:
    """A line of dice as the players read it when they see outcomes only: who hits whom (the number needed, the
    modifiers, a morale score stay behind the screen), or nothing when the line tells no hit or miss."""
    hit = entry.facts.get("hit")
    if not isinstance(hit, bool):
        return None
    params = entry.msg.params
    name = _named(state, params.get("name", params.get("attacker"))) or _named(state, entry.facts.get("attacker"))
    if name is None:
        return None
    target = _named(state, params.get("target")) or _named(state, entry.facts.get("target"))
    with_target, alone = _HITS[hit]
    if target is None:
        return Msg(id=alone, params={"name": name})
    return Msg(id=with_target, params={"name": name, "target": target})


_DEALT = frozenset(("damage", "heal"))
"""The facts of a line that deals damage or heals: the players read the amount whatever they see of rolls."""


def _for_players(state: State, entry: LogEntry, alternative: Msg | None, shown: str) -> LogEntry:
    names_gm = isinstance(reading(entry.msg, "everything"), _Dropped)
    if entry.facts.get(BEHIND_THE_SCREEN) is True and shown != "everything":
        return replace(entry, secret=True) if names_gm else replace(entry, unseen=True)
    candidates: tuple[Msg | None, ...]
    if (
        entry.rolls
        and shown != "everything"
        and not _has_mark(entry.msg, DICE)
        and not _DEALT.intersection(entry.facts)
    ):
        # A line of dice: its outcome, or nothing of it. (Damage and healing are outcomes: their dice are aside.)
        candidates = () if shown == "nothing" else (alternative if alternative is not None else _outcome(state, entry),)
    else:
        candidates = (entry.msg, alternative)
    for candidate in candidates:
        if candidate is None:
            continue
        read = reading(candidate, shown)
        if isinstance(read, Msg):
            return entry if read is entry.msg else replace(entry, public=read)
    return replace(entry, secret=True) if names_gm else replace(entry, unseen=True)


def decided(state: State, entry: LogEntry, alternative: Msg | None = None) -> State:
    """``state`` with ``entry`` logged, who may read it decided: a secret line stays the GM's (what the GM typed in
    it joins the words said in secret); a line whose free text names a secret is held; any other is read by the
    players as :func:`reading` gives it under the setting for rolls, or as ``alternative`` where the line holds
    what is not theirs."""
    if entry.secret:
        state = with_secret_words(state, typed_texts(entry.msg))
    elif names_a_secret(entry.msg, held_phrases(state)):
        entry = replace(entry, secret=True, held=True)
    else:
        entry = _for_players(state, entry, alternative, rolls_shown(state))
    return replace(state, log=append_log(state.log, entry))


def shown_after_all(state: State, entry: LogEntry) -> LogEntry:
    """A held line as the players read it once the GM shows it to them (under the setting for rolls now)."""
    return _for_players(state, replace(entry, secret=False, held=False), None, rolls_shown(state))


def players_line(entry: LogEntry) -> Msg | None:
    """What the players read of a log line (None: nothing)."""
    if entry.secret or entry.unseen:
        return None
    return entry.public if entry.public is not None else entry.msg


def made_secret(entry: LogEntry) -> LogEntry:
    """``entry`` as the GM's alone (done in a secret step)."""
    if entry.secret and not entry.held:
        return entry
    return replace(entry, secret=True, held=False, unseen=False, public=None)


# -- what is held, for the GM to show ------------------------------------------------------------------------
class Held(NamedTuple):
    """Something held from the players because it names a secret: log lines (by their place in the fight's
    log) and effects (by id), with what the GM reads of it."""

    text: Msg
    entries: tuple[int, ...] = ()
    effects: tuple[int, ...] = ()


_CHUNK_HOLDS: dict[int, tuple[tuple[LogEntry, ...], bool]] = {}


def _holds(chunk: tuple[LogEntry, ...]) -> bool:
    """Whether a chunk of the log holds a held line (worked out once per chunk: chunks are never changed)."""
    known = _CHUNK_HOLDS.get(id(chunk))
    if known is not None and known[0] is chunk:
        return known[1]
    found = any(entry.held for entry in chunk)
    with _CACHE_LOCK:
        if len(_CHUNK_HOLDS) > 4096:
            _CHUNK_HOLDS.clear()
        _CHUNK_HOLDS[id(chunk)] = (chunk, found)
    return found


def anything_held(state: State) -> bool:
    """Whether the GM has something to show the players (cheap: asked at every key)."""
    return any(effect.held for effect in state.effects) or any(_holds(chunk) for chunk in state.log)


def held_items(state: State) -> list[Held]:
    """What is held from the players, newest first: a held effect together with the line that put it on."""
    items: list[Held] = []
    effects = {effect.id: effect for effect in state.effects if effect.held}
    position = state.log_start
    for chunk in state.log:
        if _holds(chunk):
            for offset, entry in enumerate(chunk):
                if entry.held:
                    items.append(Held(text=entry.msg, entries=(position + offset,)))
        position += len(chunk)
    for effect in effects.values():
        line = next(
            (
                index
                for index, item in enumerate(items)
                if any(isinstance(p, Msg) and p == effect.label for p in item.text.params.values())
            ),
            None,
        )
        if line is None:
            items.append(Held(text=effect.label, effects=(effect.id,)))
        else:
            items[line] = items[line]._replace(effects=(effect.id,))
    return items[::-1]
