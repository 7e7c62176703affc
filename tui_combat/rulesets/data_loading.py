"""A ruleset's tables: the packaged TOML file, with the GM's house rules laid over it.

A file of the same name in the house-rules folder (``~/.config/tui-combat/rulesets/adnd2e.toml`` on
Linux) overrides the packaged tables key by key; it only needs the keys it changes. Both are decoded
strictly, so ``"long sword" = "5"`` is refused with the file, the key and the expected type, never read
as 0.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from tui_combat.engine.tables import convert, load_table, merge, read_toml
from tui_combat.settings.config import house_rules_dir

DATA_DIR = Path(__file__).parent / "data"
T = TypeVar("T")

__all__ = ["DATA_DIR", "house_rules_path", "load_ruleset_data", "load_table"]


def house_rules_path(name: str) -> Path:
    return house_rules_dir() / f"{name}.toml"


def load_ruleset_data(name: str, kind: type[T], data_dir: Path = DATA_DIR) -> T:
    """The tables of ruleset data file ``name`` (``adnd2e``) from ``data_dir`` (a plugin passes its own),
    house rules included."""
    packaged = data_dir / f"{name}.toml"
    raw = read_toml(packaged)
    override = house_rules_path(name)
    if not override.exists():
        return convert(raw, kind, packaged)
    convert(raw, kind, packaged)  # the packaged file is right on its own: an error here is ours, not the GM's
    return convert(merge(raw, read_toml(override)), kind, override)
