"""A machine whose user has made the app his own: his real user folders (HOME and the XDG folders) hold a
settings file in Ukrainian, with another theme and every binding moved to other keys, a combatant library
and a saved fight; his environment asks for Ukrainian, colours, a plain terminal, a narrow screen and a far
time zone. Nothing a test does may come from any of it.

``tests/test_hostile_machine.py`` shows the machine is hostile (the app itself, started there without the
suite's isolation, would speak Ukrainian, find the fight and the library, and move every key) and runs a
slice of the suite on it; ``.ci/run`` runs the whole suite on it::

    .venv/bin/python -m tests.hostile_machine DIR   # fills DIR, prints the shell lines that move into it
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

KEY_POOL = [
    f"{mod}f{n}" for mod in ("ctrl+", "shift+", "ctrl+shift+", "alt+", "alt+shift+", "ctrl+alt+") for n in range(1, 25)
]
"""Keys no default binding uses: each binding gets one of its own."""

CLEARED = ("TEXTUAL", "TUI_COMBAT_", "XDG_", "LC_", "NO_COLOR")
"""The variables of the machine running the tests that the hostile machine does not keep."""
KEPT = ("TUI_COMBAT_BROWSER", "TUI_COMBAT_TEST_DEADLINE")
"""…but for where a browser is and how long a busy machine may take."""


def every_binding_id() -> list[str]:
    from tui_combat.app import CombatApp
    from tui_combat.screens.keymap import collect

    return list(collect(CombatApp).bindings())


def hostile_machine(base: Path) -> tuple[dict[str, str], list[str]]:
    """The user's folders under ``base`` filled as a GM who has used the app would have them; the variables
    that point at them (and ask for his language, colours and terminal), and those to unset."""
    from tui_combat.engine import actions as a
    from tui_combat.engine.apply import apply
    from tui_combat.fight.library import Entry, save_entry
    from tui_combat.fight.store import Store, new_state
    from tui_combat.saves.locations import sessions_dir
    from tui_combat.settings.toml_write import toml_text

    home = base / "home"
    config, data, cache = home / ".config", home / ".local" / "share", home / ".cache"
    ids = every_binding_id()
    assert len(ids) <= len(KEY_POOL), "more bindings than keys to move them to"
    settings = {"language": "uk", "theme": "gruvbox", "keys": dict(zip(ids, KEY_POOL, strict=False))}
    (config / "tui-combat").mkdir(parents=True)
    (config / "tui-combat" / "settings.toml").write_text(toml_text(settings), encoding="utf-8")

    app_data = data / "tui-combat"
    save_entry(app_data, "adnd2e", Entry(name="Orc chief", hp=11, sheet={"cls": "monster", "level": 2}))
    save_entry(app_data, "adnd2e", Entry(name="Goblin", hp=4, count=6, sheet={"cls": "monster", "level": 1}))
    save_entry(app_data, "dnd5e", Entry(name="Bandit", hp=11, sheet={"ac": 12}))
    state = new_state(seed=7, ruleset="adnd2e")
    for action in (
        a.SetName(name="The user's own fight"),
        a.SetRuleset(ruleset="adnd2e"),
        a.AddSide(name="Heroes", is_party=True),
        a.AddSide(name="Orcs"),
        a.AddCombatants(side="s1", name="Borys", hp=12, sheet={"cls": "warrior", "level": 2}),
        a.AddCombatants(side="s2", name="Orc", hp=6, count=3, sheet={"cls": "monster", "level": 1}),
    ):
        state = apply(state, action)
    Store.create(state, sessions_dir(app_data) / "users-own-fight").close()
    cache.mkdir(parents=True)

    unset = [name for name in os.environ if name.startswith(CLEARED) and name not in KEPT]
    wanted = {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(config),
        "XDG_DATA_HOME": str(data),
        "XDG_CACHE_HOME": str(cache),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "LANG": "uk_UA.UTF-8",
        "LANGUAGE": "uk:ru",
        "LC_ALL": "uk_UA.UTF-8",
        "LC_MESSAGES": "uk_UA.UTF-8",
        "TZ": "Pacific/Kiritimati",
        "TERM": "linux",
        "COLORTERM": "truecolor",
        "FORCE_COLOR": "1",
        "TUI_COMBAT_PLAIN": "1",
        "COLUMNS": "41",
        "LINES": "13",
        "TEXTUAL_ANIMATIONS": "full",
    }
    return wanted, [name for name in unset if name not in wanted]


def environment_of(base: Path) -> dict[str, str]:
    """The whole environment of a process on the hostile machine under ``base``."""
    wanted, unset = hostile_machine(base)
    environment = {name: value for name, value in os.environ.items() if name not in unset}
    environment.update(wanted)
    return environment


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.hostile_machine DIR", file=sys.stderr)
        return 2
    wanted, unset = hostile_machine(Path(argv[0]).resolve())
    print(
        "\n".join(
            [
                *(f"unset {name}" for name in unset),
                *(f"export {name}={shlex.quote(value)}" for name, value in wanted.items()),
            ]
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
