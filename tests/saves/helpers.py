"""Sessions on disk for the save tests, and a fingerprint of a folder to prove that opening changed nothing."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from tui_combat.engine import actions as a
from tui_combat.fight.store import Store, new_state


def fingerprint(folder: Path) -> dict[str, tuple[str, int]]:
    """Every file under ``folder`` (links not followed) → (sha256 of its bytes, mode bits)."""
    result: dict[str, tuple[str, int]] = {}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        if path.is_symlink():
            result[str(path.relative_to(folder))] = (f"link:{os.readlink(path)}", info.st_mode)
        elif path.is_file():
            result[str(path.relative_to(folder))] = (hashlib.sha256(path.read_bytes()).hexdigest(), info.st_mode)
        else:
            result[str(path.relative_to(folder)) + "/"] = ("", info.st_mode)
    return result


def small_fight(folder: Path | None, seed: int = 11) -> Store:
    store = Store.create(new_state(seed=seed, ruleset="adnd2e"), folder)
    store.dispatch(a.AddSide(name="Отряд", is_party=True))
    store.dispatch(a.AddSide(name="Чудовища"))
    store.dispatch(a.AddCombatants(side="s1", name="Дельсенора", hp=14))
    store.dispatch(a.AddCombatants(side="s2", name="Тролль", hp=36, count=2))
    return store


def damage_round(store: Store, times: int, combatant: str = "c5") -> None:
    for amount in range(1, times + 1):
        store.dispatch(a.Damage(combatant=combatant, amount=amount % 3 + 1))
