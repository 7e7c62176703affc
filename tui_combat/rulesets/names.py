"""The names a GM may type for a table's entries (weapons, armour): the table's own name, or an alias the
data file gives, in any language ("боевой молот", "бойовий молот" for the war hammer). Case, spacing and
ё/е do not matter. A name that matches nothing gets suggestions from every name and alias, so a typo in
Russian is answered in Russian."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar, cast

__all__ = ["NameTable", "made_once", "name_key"]


def name_key(name: str) -> str:
    """``" War  Hammer "`` → ``"war hammer"``; ``"Копьё"`` → ``"копье"``."""
    return " ".join(name.strip().lower().replace("ё", "е").split())


class NameTable:
    def __init__(self, known: Iterable[str], aliases: Mapping[str, str] | None = None) -> None:
        self.known = tuple(known)
        self._by_key: dict[str, str] = {name_key(name): name for name in self.known}
        self._written: dict[str, str] = {name_key(name): name for name in self.known}
        for alias, target in (aliases or {}).items():
            canonical = self._by_key.get(name_key(target))
            if canonical is not None:
                self._by_key.setdefault(name_key(alias), canonical)
                self._written.setdefault(name_key(alias), alias)

    def find(self, name: str) -> str | None:
        """The table's own name for ``name`` (itself or an alias); None when nothing matches."""
        return self._by_key.get(name_key(name))

    def close(self, name: str, n: int = 3) -> list[str]:
        """Up to ``n`` names or aliases, as the data file writes them, that look like ``name``."""
        keys = difflib.get_close_matches(name_key(name), list(self._written), n=n, cutoff=0.6)
        return [self._written[key] for key in keys]


def unknown_aliases(known: Iterable[str], aliases: Mapping[str, str]) -> list[str]:
    """The aliases whose target is not one of ``known`` (a typo in a data or house-rules file)."""
    keys = {name_key(name) for name in known}
    return [alias for alias, target in aliases.items() if name_key(target) not in keys]


T = TypeVar("T")
_made: dict[tuple[int, str], tuple[object, Any]] = {}


def made_once(tables: object, which: str, make: Callable[[], T]) -> T:
    """What ``make`` builds from a ruleset's ``tables`` (a name table, an index), called ``which``: built once
    for as long as those tables are in use (house rules read again are other tables, with their own)."""
    made = _made.get((id(tables), which))
    if made is None or made[0] is not tables:
        made = _made[(id(tables), which)] = (tables, make())
    return cast(T, made[1])
