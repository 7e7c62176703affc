"""A line of text being typed, and where its cursor is: the editing keys of a one-line field, worked out without
drawing anything (the amount prompt draws it on the footer's row; see
:class:`~tui_combat.widgets.amount_prompt.AmountPrompt`).

The keys are those a Textual ``Input`` binds (``EDITING_KEYS``), so a GM's fingers do the same in every field of
the app; a word is a run of characters other than spaces."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["EDITING_KEYS", "LineEdit"]

EDITING_KEYS: dict[str, str] = {
    "left": "left",
    "right": "right",
    "ctrl+left": "word_left",
    "ctrl+right": "word_right",
    "home": "home",
    "ctrl+a": "home",
    "end": "end",
    "ctrl+e": "end",
    "backspace": "delete_left",
    "delete": "delete_right",
    "ctrl+d": "delete_right",
    "ctrl+w": "delete_left_word",
    "ctrl+u": "delete_left_all",
    "ctrl+k": "delete_right_all",
    "ctrl+backspace": "delete_right_word",
    "alt+backspace": "delete_right_word",
}
"""Each editing key, and the method of :class:`LineEdit` it runs."""

_WORD_START = re.compile(r"(?<=\s)\S|^\S")


@dataclass
class LineEdit:
    """``value`` with its ``cursor`` (0 … len(value)); every method keeps the cursor within the value."""

    value: str = ""
    cursor: int = 0

    def set(self, value: str) -> None:
        """The whole value replaced, the cursor after it."""
        self.value, self.cursor = value, len(value)

    def insert(self, text: str) -> None:
        """``text`` typed (or pasted) at the cursor, line breaks as spaces."""
        text = text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
        self.value = self.value[: self.cursor] + text + self.value[self.cursor :]
        self.cursor += len(text)

    def left(self) -> None:
        self.cursor = max(self.cursor - 1, 0)

    def right(self) -> None:
        self.cursor = min(self.cursor + 1, len(self.value))

    def home(self) -> None:
        self.cursor = 0

    def end(self) -> None:
        self.cursor = len(self.value)

    def _word_start_before(self) -> int:
        starts = [match.start() for match in _WORD_START.finditer(self.value) if match.start() < self.cursor]
        return starts[-1] if starts else 0

    def _word_start_after(self) -> int:
        return next(
            (match.start() for match in _WORD_START.finditer(self.value) if match.start() > self.cursor),
            len(self.value),
        )

    def word_left(self) -> None:
        self.cursor = self._word_start_before()

    def word_right(self) -> None:
        self.cursor = self._word_start_after()

    def delete_left(self) -> None:
        if self.cursor:
            self.value = self.value[: self.cursor - 1] + self.value[self.cursor :]
            self.cursor -= 1

    def delete_right(self) -> None:
        self.value = self.value[: self.cursor] + self.value[self.cursor + 1 :]

    def delete_left_word(self) -> None:
        start = self._word_start_before()
        self.value, self.cursor = self.value[:start] + self.value[self.cursor :], start

    def delete_right_word(self) -> None:
        self.value = self.value[: self.cursor] + self.value[self._word_start_after() :]

    def delete_left_all(self) -> None:
        self.value, self.cursor = self.value[self.cursor :], 0

    def delete_right_all(self) -> None:
        self.value = self.value[: self.cursor]

    def edit(self, key: str) -> bool:
        """Run the editing ``key``; False when it is none."""
        name = EDITING_KEYS.get(key)
        if name is None:
            return False
        getattr(self, name)()
        return True
