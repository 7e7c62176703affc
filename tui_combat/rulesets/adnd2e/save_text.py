"""What a sheet writes of an AD&D saving throw, read: a monster's own five numbers ("12 14 13 15 15") and a
multi-class character's other classes ("wizard 6, priest 4")."""

from __future__ import annotations

import re
from typing import Final

from tui_combat.engine.errors import RuleError
from tui_combat.i18n import _, english_word

__all__ = ["GROUPS", "Five", "class_levels", "own_saves"]

GROUPS: Final = ("warrior", "wizard", "priest", "rogue")
"""The class groups of PHB Table 60 (a monster saves on the warrior's rows)."""

Five = tuple[int, int, int, int, int]
"""The five numbers of Table 60, in its order."""

_CLASS = re.compile(r"^\s*(.*?)\s*(\d+)\s*$")


def class_levels(text: str) -> tuple[tuple[str, int], ...]:
    """ "wizard 6, priest 4" (in any language of the interface) → (("wizard", 6), ("priest", 4)). Raises
    :class:`RuleError` for a part that is not a class group and a level."""
    found = []
    for part in re.split(r"[,;/]", text):
        if not part.strip():
            continue
        match = _CLASS.match(part)
        group = english_word(match.group(1), GROUPS) if match else None
        if match is None or group is None:
            raise RuleError(
                _(
                    'Other classes: "{part}" is not a class and a level, such as "wizard 6" ({known}).',
                    part=part.strip(),
                    known=", ".join(_(word) for word in GROUPS),
                )
            )
        found.append((group, int(match.group(2))))
    return tuple(found)


def own_saves(text: str) -> Five | None:
    """A monster's own five numbers, in Table 60's order ("12 14 13 15 15", commas or slashes allowed); None
    when the sheet gives none. Raises :class:`RuleError` when they are not five numbers from 1 to 20."""
    if not text.strip():
        return None
    parts = [part for part in re.split(r"[\s,;/]+", text.strip()) if part]
    try:
        numbers = [int(part) for part in parts]
    except ValueError:
        numbers = []
    if len(numbers) != 5 or not all(1 <= number <= 20 for number in numbers):
        raise RuleError(
            _(
                'Saving throws "{text}": five numbers from 1 to 20, in Table 60\'s order (paralyzation, '
                'rod, petrification, breath, spell), such as "12 14 13 15 15".',
                text=text.strip(),
            )
        )
    return (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4])
