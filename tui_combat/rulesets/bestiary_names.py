"""The names of an open bestiary's monsters in the GM's language, kept beside it in files of their own.

A ruleset's SRD bestiary (``rulesets/data/srd/<ruleset>.toml``) is generated from an English dataset and may be
generated again and extended; its names in other languages live in ``<ruleset>.names.<language>.toml`` beside it,
keyed by the English names, so that neither file has to change with the other::

    [monsters]
    "Wight" = "Умертвие"

    [attacks]
    "Necrotic Sword" = "некротический меч"

    [abilities]
    "Life Drain" = "Высасывание жизни"

    [multiattack]
    "Wight" = "Умертвие совершает две атаки …"

A monster is shown and added under its name in the language of the fight, its attacks (the names in its sheet's
``attack_list``) and its Multiattack's words (``multiattack``, by the monster's English name) too; every name stays
a name to find it by, in every language. The names of its special abilities and legendary actions (``abilities``,
``legendary_actions``) stay English in its sheet, where the rules find them by name, and are shown in the GM's
language wherever a screen names them.

The module reads files and nothing of the app: the rules' own screens (5e's card) use it as well as the library.
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

__all__ = ["Names", "names_files", "read_names", "translated_attacks"]

_FILE = re.compile(r"^(?P<ruleset>[A-Za-z0-9_][A-Za-z0-9_.-]*?)\.names\.(?P<language>[a-z]{2,3})\.toml$")


class Names(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One language's names: the monsters' and their attacks', by English name."""

    monsters: dict[str, str] = msgspec.field(default_factory=dict)
    attacks: dict[str, str] = msgspec.field(default_factory=dict)
    abilities: dict[str, str] = msgspec.field(default_factory=dict)
    """Special abilities and legendary actions, by their English name (the use limit aside: "Dominate Mind")."""
    multiattack: dict[str, str] = msgspec.field(default_factory=dict)
    """Each monster's Multiattack, by the monster's English name."""


def names_files(folder: Path, ruleset_id: str) -> dict[str, Path]:
    """The names files of ``ruleset_id``'s bestiary in ``folder``, by language."""
    found: dict[str, Path] = {}
    for path in sorted(folder.glob(f"{ruleset_id}.names.*.toml")):
        match = _FILE.match(path.name)
        if match is not None and match["ruleset"] == ruleset_id:
            found[match["language"]] = path
    return found


def read_names(folder: Path, ruleset_id: str) -> tuple[dict[str, Names], list[str]]:
    """Every language's names of ``ruleset_id``'s bestiary in ``folder``, and what could not be read (one line
    each, naming its file)."""
    names: dict[str, Names] = {}
    problems: list[str] = []
    for language, path in names_files(folder, ruleset_id).items():
        try:
            names[language] = msgspec.toml.decode(path.read_bytes(), type=Names)
        except (OSError, msgspec.DecodeError, msgspec.ValidationError) as error:
            problems.append(f"{path}: {error}")
    return names, problems


def translated_attacks(attack_list: str, attacks: dict[str, str]) -> str:
    """``attack_list`` ("Bite +6 2d10+4, Claws +6 1d8+4") with each attack's name as ``attacks`` gives it
    ("укус +6 2d10+4, когти +6 1d8+4"); a name it lacks, and whatever is not "name +bonus dice", as written."""
    parts = []
    for part in attack_list.split(","):
        words = part.split()
        name = " ".join(words[:-2])
        shown = attacks.get(name) if len(words) >= 3 else None
        parts.append(" ".join([shown, *words[-2:]]) if shown and "," not in shown else part.strip())
    return ", ".join(parts)
