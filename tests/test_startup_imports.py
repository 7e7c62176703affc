"""Start-up loads what the first screen needs, and no more: the rulesets, the engine's rules, the store and
the screens and Textual widgets the session list does not show load when first used. Each check runs in a
fresh interpreter and looks at ``sys.modules`` (never at the time it took)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

NOT_AT_START = (
    "tui_combat.rulesets",
    "tui_combat.fight.store",
    "tui_combat.engine.apply",
    "tui_combat.engine.model",
    "tui_combat.engine.contract",
    "tui_combat.engine.registry",
    "tui_combat.engine.actions",
    "tui_combat.saves.journal",
    "tui_combat.saves.codec",
    "tui_combat.screens.round",
    "tui_combat.screens.setup",
    "tui_combat.screens.surprise",
    "tui_combat.screens.dialogs",
    "tui_combat.screens.help",
    "tui_combat.screens.settings",
    "tui_combat.screens.keymap",
    "tui_combat.screens.rewind",
    "tui_combat.screens.library",
    "tui_combat.widgets.order_list",
    "textual.widgets._checkbox",
    "textual.widgets._rich_log",
    "textual.widgets._text_area",
    "textual.document",
    "tui_combat.settings.toml_read",
    "tomllib",
)
"""Modules (and packages: their modules too) the session list does without (Textual's own start loads its
input, option list, select and loading indicator: the command palette and the toasts use them; the TOML
reader loads when there is a settings file to read)."""

TO_THE_SESSION_LIST = """
import json, sys
from pathlib import Path
from textual.widgets import DataTable
from tui_combat.app import CombatApp
from tui_combat.screens.sessions import SessionsScreen

async def listed(pilot):
    app = pilot.app
    while not (isinstance(app.screen, SessionsScreen) and app.screen.query_one(DataTable).row_count):
        await pilot.pause(0.01)
    await pilot.pause()
    Path(sys.argv[2]).write_text(json.dumps(sorted(sys.modules)))
    app.exit()

CombatApp(Path(sys.argv[1]), seed=1).run(headless=True, size=(80, 24), auto_pilot=listed)
"""


def loaded(code: str, tmp_path: Path, *args: str) -> set[str]:
    out = tmp_path / "modules.json"
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    env = {key: value for key, value in os.environ.items() if not key.startswith("TEXTUAL")}
    env["TUI_COMBAT_CONFIG_DIR"] = str(config)  # no settings file of the GM's (a keymap loads every screen)
    subprocess.run(
        [sys.executable, "-c", code, *args, str(out)], check=True, cwd=ROOT, env=env, timeout=120, capture_output=True
    )
    return set(json.loads(out.read_text()))


def unwanted(modules: set[str]) -> list[str]:
    return sorted(
        name for name in modules if any(name == prefix or name.startswith(prefix + ".") for prefix in NOT_AT_START)
    )


def test_the_session_list_loads_no_ruleset_no_rules_and_no_other_screen(tmp_path: Path) -> None:
    from tests.ui.fights import saved_round

    data = tmp_path / "data"
    saved_round(data, "ambush", ["Raf"], 2)  # a fight in a round: its step is shown, from the index once read
    subprocess.run(
        [sys.executable, "-m", "tui_combat", "--data-dir", str(data), "list"], check=True, cwd=ROOT, capture_output=True
    )
    modules = loaded(TO_THE_SESSION_LIST, tmp_path, str(data))
    assert "tui_combat.screens.sessions" in modules and "tui_combat.saves.index" in modules
    # Once the first frame is drawn, the list offers the installed plugins' demos (the Savage Worlds example's,
    # where it is installed), which loads those plugins: only what that loads is allowed beyond the list's own.
    assert unwanted(modules - loaded(PLUGIN_DEMOS, tmp_path)) == []


PLUGIN_DEMOS = """
import json, sys
from tui_combat.fight import session
before = set(sys.modules)
session.plugin_demos()
open(sys.argv[1], 'w').write(json.dumps(sorted(set(sys.modules) - before)))
"""
"""What finding the installed plugins' demos loads, beyond the session module (nothing of the rules when no plugin
is installed)."""


def test_finding_the_plugins_demos_loads_no_built_in_ruleset(tmp_path: Path) -> None:
    assert not [name for name in loaded(PLUGIN_DEMOS, tmp_path) if name.startswith("tui_combat.rulesets.")]


def test_the_first_list_of_a_fight_in_a_round_loads_its_ruleset(tmp_path: Path) -> None:
    """The check above can fail: without the index, the step of a round is read with its ruleset."""
    from tests.ui.fights import saved_round

    data = tmp_path / "data"
    saved_round(data, "ambush", ["Raf"], 2)
    assert "tui_combat.rulesets.adnd2e" in loaded(TO_THE_SESSION_LIST, tmp_path, str(data))


@pytest.mark.parametrize("module", ["tui_combat.app", "tui_combat.__main__"])
def test_importing_the_app_loads_no_screen_and_no_ruleset(tmp_path: Path, module: str) -> None:
    code = f"import json, sys\nimport {module}\nopen(sys.argv[1], 'w').write(json.dumps(sorted(sys.modules)))\n"
    modules = loaded(code, tmp_path)
    assert unwanted(modules) == []
    assert not [name for name in modules if name.startswith("tui_combat.screens.")]


def test_help_loads_no_textual(tmp_path: Path) -> None:
    code = (
        "import json, sys\nfrom tui_combat.__main__ import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "open(sys.argv[1], 'w').write(json.dumps(sorted(sys.modules)))\n"
    )
    modules = loaded(code, tmp_path)
    assert "argparse" in modules
    assert not [name for name in modules if name == "textual" or name.startswith("textual.")]
    assert unwanted(modules) == []


TO_A_RESUMED_ROUND = """
import json, sys
from pathlib import Path
from tui_combat.app import CombatApp
from tui_combat.screens.round import RoundScreen

async def shown(pilot):
    app = pilot.app
    while not (isinstance(app.screen, RoundScreen) and app.store is not None):
        await pilot.pause(0.01)
    await pilot.pause()
    Path(sys.argv[3]).write_text(json.dumps(sorted(sys.modules)))
    app.exit()

CombatApp(Path(sys.argv[1]), resume=sys.argv[2], seed=1).run(headless=True, size=(80, 24), auto_pilot=shown)
"""


def test_resuming_a_fight_of_a_built_in_ruleset_reads_no_installed_distribution(tmp_path: Path) -> None:
    """The app knows its own rulesets: reading every installed distribution's entry points (``importlib.metadata``,
    about a tenth of the start) waits until a plugin's ruleset or the list of them is asked for."""
    from tests.ui.fights import saved_round

    data = tmp_path / "data"
    saved_round(data, "ambush", ["Raf"], 2)
    modules = loaded(TO_A_RESUMED_ROUND, tmp_path, str(data), "ambush")
    assert "tui_combat.rulesets.adnd2e" in modules
    assert "importlib.metadata" not in modules
