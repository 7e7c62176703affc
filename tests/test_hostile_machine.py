"""The tests are green on a machine whose user has made the app his own: his real user folders (HOME and the
XDG folders) hold a settings file in Ukrainian, with another theme and every binding moved to other keys,
a combatant library and a saved fight; his environment asks for Ukrainian, colours, a plain terminal, a
narrow screen and a far time zone. A slice of the suite (where saves go, settings, the library, and interface tests
that press the default keys, read the session list, the library and the settings screen) runs in a
separate pytest on that machine and must pass: nothing a test does may come from the user's files or
environment.

First the machine is shown to be hostile: the app itself, started on that environment without the test
suite's isolation, would speak Ukrainian, find the saved fight and the library, and move every key.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tui_combat.toml_write import toml_text

ROOT = Path(__file__).resolve().parents[1]
SLICE = (
    "tests/saves/test_paths.py",
    "tests/test_settings_file.py", "tests/test_library.py", "tests/test_cli_sessions.py",
    "tests/ui/test_round_flow.py", "tests/ui/test_opening.py", "tests/ui/test_keymap.py",
    "tests/ui/test_settings_screen.py", "tests/ui/test_library_ui.py",
    "tests/i18n/test_choose.py",
)
"""Tests that would notice: they press default keys, list sessions, read the library and the settings."""

KEY_POOL = [f"{mod}f{n}" for mod in ("ctrl+", "shift+", "ctrl+shift+", "alt+", "alt+shift+", "ctrl+alt+") for n in range(1, 25)]
"""Keys no default binding uses: each binding gets one of its own."""


def every_binding_id() -> list[str]:
    from tui_combat.app import CombatApp
    from tui_combat.screens.keymap import collect

    return list(collect(CombatApp).bindings())


def hostile_machine(base: Path) -> dict[str, str]:
    """The user's folders under ``base`` filled as a GM who has used the app would have them; the
    environment that points at them."""
    from tui_combat.engine import actions as a
    from tui_combat.engine.apply import apply
    from tui_combat.library import Entry, save_entry
    from tui_combat.saves.locations import sessions_dir
    from tui_combat.store import Store, new_state

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
    for action in (a.SetName(name="The user's own fight"), a.SetRuleset(ruleset="adnd2e"),
                   a.AddSide(name="Heroes", is_party=True), a.AddSide(name="Orcs"),
                   a.AddCombatants(side="s1", name="Borys", hp=12, sheet={"cls": "warrior", "level": 2}),
                   a.AddCombatants(side="s2", name="Orc", hp=6, count=3, sheet={"cls": "monster", "level": 1})):
        state = apply(state, action)
    Store.create(state, sessions_dir(app_data) / "users-own-fight").close()
    cache.mkdir(parents=True)

    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith(("TEXTUAL", "TUI_COMBAT_", "XDG_", "LC_"))}
    environment.update({
        "HOME": str(home), "XDG_CONFIG_HOME": str(config), "XDG_DATA_HOME": str(data),
        "XDG_CACHE_HOME": str(cache), "XDG_STATE_HOME": str(home / ".local" / "state"),
        "LANG": "uk_UA.UTF-8", "LANGUAGE": "uk:ru", "LC_ALL": "uk_UA.UTF-8", "LC_MESSAGES": "uk_UA.UTF-8",
        "TZ": "Pacific/Kiritimati", "TERM": "linux", "COLORTERM": "truecolor", "FORCE_COLOR": "1",
        "TUI_COMBAT_PLAIN": "1", "COLUMNS": "41", "LINES": "13", "TEXTUAL_ANIMATIONS": "full",
    })
    environment.pop("NO_COLOR", None)
    for kept in ("TUI_COMBAT_BROWSER", "TUI_COMBAT_TEST_DEADLINE"):
        if kept in os.environ:
            environment[kept] = os.environ[kept]
    return environment


APP_ON_THE_MACHINE = """
from tui_combat.app import CombatApp
from tui_combat.config import read_settings, settings_path
from tui_combat.i18n.choose import choose_language
from tui_combat.library import read_library, library_path
from tui_combat.saves.session_folders import list_sessions
from tui_combat.saves.locations import data_dir
print(choose_language())
from tui_combat.screens.keymap import check_keymap, collect
check = check_keymap(read_settings(settings_path()).document["keys"], collect(CombatApp))
print(len(check.keymap), len(check.problems))
print(", ".join(info.name for info in list_sessions(data_dir())))
print(len(read_library(library_path(data_dir(), "adnd2e"), "adnd2e").entries))
"""


@pytest.mark.slow
def test_the_suite_is_green_on_a_machine_made_the_users_own(tmp_path: Path) -> None:
    environment = hostile_machine(tmp_path)
    seen = subprocess.run([sys.executable, "-c", APP_ON_THE_MACHINE], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=300)
    assert seen.returncode == 0, seen.stderr
    assert seen.stdout.split("\n")[:4] == ["uk", f"{len(every_binding_id())} 0", "The user's own fight", "2"], seen.stdout

    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *SLICE],
                         cwd=ROOT, env=environment, capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "skipped" not in run.stdout.rsplit("\n", 2)[-2], run.stdout[-2000:]
