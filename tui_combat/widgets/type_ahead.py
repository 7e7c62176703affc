"""Finding a choice in a list by typing the start of its name: "pr" goes to "prone", as in the GM's language the
list shows it ("ле" to «лежит»), whichever list it is — a pick-one dialog (:class:`ChoiceList`), a form's list
field, closed or open (:class:`TypeAheadSelect`).

What was typed is kept until a key other than a letter comes (an arrow, Enter, Esc) or until it finds nothing:
the letter that found nothing starts a new search, so "pr" then "g" goes to "grappled". The same letter
again goes on to the next choice that begins with it. Nothing depends on how fast the keys come: a GM on a slow
link types as he likes. While a list has the focus its letters are its own, as a text field's are: none of
them runs a key of the screen (F1 still opens the help).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import events
from textual.widgets import OptionList, Select

__all__ = ["ChoiceList", "TypeAhead", "TypeAheadSelect", "label_text"]


def label_text(prompt: object) -> str:
    """The text a choice shows (a :class:`~rich.text.Text`, a string, or anything else drawn as text)."""
    return prompt.plain if isinstance(prompt, Text) else str(prompt)


def _word_starts(text: str) -> tuple[int, ...]:
    """Where each word of ``text`` begins (after a space or a mark such as "(", "—", "/")."""
    return tuple(i for i, char in enumerate(text) if char.isalnum() and (i == 0 or not text[i - 1].isalnum()))


class TypeAhead:
    """What has been typed in one list, and the choice it leads to (pure: it knows labels, not widgets)."""

    def __init__(self) -> None:
        self.typed = ""
        self._labels: tuple[str, ...] = ()
        self._folded: tuple[str, ...] = ()
        self._words: tuple[tuple[int, ...], ...] = ()

    def reset(self) -> None:
        self.typed = ""

    def use(self, labels: Sequence[str]) -> None:
        """The list's labels as it shows them (worked out again only when they change)."""
        labels = tuple(labels)
        if labels != self._labels:
            self._labels = labels
            self._folded = tuple(label.casefold() for label in labels)
            self._words = tuple(_word_starts(label) for label in self._folded)
            self.typed = ""

    def _search(self, query: str, start: int, skip: frozenset[int]) -> int | None:
        """The first choice from ``start`` on (round the list) whose label begins with ``query``; else the
        first with a word that does ("sw" finds "long sword")."""
        count = len(self._folded)
        order = [(start + step) % count for step in range(count)]
        for index in order:
            if index not in skip and self._folded[index].startswith(query):
                return index
        for index in order:
            if index not in skip and any(self._folded[index].startswith(query, at) for at in self._words[index][1:]):
                return index
        return None

    def find(self, character: str, current: int | None, skip: frozenset[int] = frozenset()) -> int | None:
        """The choice ``character`` leads to, typed after what was typed before, the highlight on ``current``;
        None when it leads nowhere (what was typed stays as it was). ``skip``: choices that cannot be chosen."""
        if not self._folded or not character:
            return None
        char = character.casefold()
        here = 0 if current is None else current
        if self.typed:
            query = self.typed + char
            found = self._search(query, here, skip)
            if found is not None:
                self.typed = query
                return found
            if set(query) == {char}:  # the same letter again: the next choice that begins with it
                found = self._search(char, here + 1, skip)
                if found is not None:
                    self.typed = query
                    return found
        if char.isspace():
            return None
        found = self._search(char, here + 1 if current is not None else 0, skip)
        if found is not None:
            self.typed = char
        return found

    def back(self, current: int | None, skip: frozenset[int] = frozenset()) -> int | None:
        """Backspace: the last letter taken back; the choice what is left leads to (None: it stays)."""
        self.typed = self.typed[:-1]
        if not self.typed:
            return None
        return self._search(self.typed, 0 if current is None else current, skip)


def _typed_character(event: events.Key, typing: bool) -> str | None:
    """The character a key types into a search, or None when it is no letter for it (a space only once a
    search has begun: before, it is the list's own key)."""
    character = event.character
    if not event.is_printable or not character:
        return None
    if character == " " and not typing:
        return None
    return character


def _takes(character: str | None) -> bool:
    """Whether a list takes a key of this character for its search (a space is the list's own key until a search
    has begun): no key of the screen is run by it meanwhile (Textual's ``check_consume_key``)."""
    return character is not None and character.isprintable() and character != " "


class ChoiceList(OptionList):
    """A pick-one list that goes to the choice whose name the GM types (see :class:`TypeAhead`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.type_ahead = TypeAhead()

    def _skip(self) -> frozenset[int]:
        return frozenset(i for i, option in enumerate(self.options) if option.disabled)

    def on_key(self, event: events.Key) -> None:
        self.type_ahead.use([label_text(option.prompt) for option in self.options])
        character = _typed_character(event, bool(self.type_ahead.typed))
        if character is None:
            if event.key == "backspace" and self.type_ahead.typed:
                event.stop()
                event.prevent_default()
                found = self.type_ahead.back(self.highlighted, self._skip())
                if found is not None:
                    self.highlighted = found
            else:
                self.type_ahead.reset()
            return
        found = self.type_ahead.find(character, self.highlighted, self._skip())
        if found is None:
            return
        event.stop()
        event.prevent_default()
        self.highlighted = found

    def on_blur(self, event: events.Blur) -> None:
        self.type_ahead.reset()

    def check_consume_key(self, key: str, character: str | None = None) -> bool:
        return _takes(character)


class TypeAheadSelect(Select[Any]):
    """A list field that goes to the choice whose name the GM types: closed, the field takes that choice at once
    (Enter goes on to the next field); open, the highlight moves to it (Enter takes it). Textual's own search
    of an open list (a part of a name anywhere, forgotten after a pause) is replaced by this one."""

    def __init__(self, options: Any, **kwargs: Any) -> None:
        kwargs["type_to_search"] = False
        options = list(options)
        super().__init__(options, **kwargs)
        self.type_ahead = TypeAhead()
        self._values: list[Any] = []
        self._labels: list[str] = []
        self._remember(options)

    def _remember(self, options: list[Any]) -> None:
        self._values = [value for _prompt, value in options]
        self._labels = [label_text(prompt) for prompt, _value in options]
        self.type_ahead.use(self._labels)

    def set_options(self, options: Any) -> None:
        options = list(options)
        super().set_options(options)
        self._remember(options)

    def _overlay(self) -> OptionList:
        return self.query_one(OptionList)

    def _current(self) -> int | None:
        if self.expanded:
            highlighted = self._overlay().highlighted
            return None if highlighted is None else highlighted - self._blank_rows()
        return next((i for i, value in enumerate(self._values) if value == self.value), None)

    def _blank_rows(self) -> int:
        """The open list's rows before the first choice (the blank one of a field that may be left empty)."""
        return self._overlay().option_count - len(self._values)

    def _go(self, index: int) -> None:
        if self.expanded:
            overlay = self._overlay()
            overlay.highlighted = index + self._blank_rows()
            overlay.scroll_to_highlight()
        else:
            self.value = self._values[index]

    def on_key(self, event: events.Key) -> None:
        character = _typed_character(event, bool(self.type_ahead.typed))
        if character is None:
            if event.key == "backspace" and self.type_ahead.typed:
                event.stop()
                event.prevent_default()
                found = self.type_ahead.back(self._current())
                if found is not None:
                    self._go(found)
            else:
                self.type_ahead.reset()
            return
        found = self.type_ahead.find(character, self._current())
        if found is None:
            return
        event.stop()
        event.prevent_default()
        self._go(found)

    def check_consume_key(self, key: str, character: str | None = None) -> bool:
        return _takes(character)
