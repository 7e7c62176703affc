"""Every test runs on a machine of its own: empty config, data and cache folders, English, a plain UTC clock
and a known terminal — never the user's settings, library, saves, language or theme.

The environment is pinned twice: once when the test run starts (so that anything decided at import time,
such as the terminal's symbols or a language chosen while a module loads, is decided on the pinned
environment), and again for each test with folders of its own (so that one test's settings or saves never
reach another).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

HERMETIC_LANGUAGE = "en"
PINNED: dict[str, str] = {
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "LANGUAGE": "",
    "LC_MESSAGES": "",
    "LC_CTYPE": "",
    "TZ": "UTC",
    "TERM": "xterm-256color",
    "NO_COLOR": "1",
    "COLORTERM": "",
    "TUI_COMBAT_PLAIN": "",
    "COLUMNS": "80",
    "LINES": "24",
    "FORCE_COLOR": "",
    "TTY_COMPATIBLE": "",
    "TTY_INTERACTIVE": "",
    "ESCDELAY": "",
}
"""Variables every test starts with (an empty value is removed). ``COLUMNS``/``LINES``: the width argparse
and Rich wrap their text to (a user's narrow terminal would wrap the command's help)."""

CLEARED_PREFIXES = ("TEXTUAL", "TUI_COMBAT_")
"""Variables the user may have set that change what the app or Textual does; removed for each test."""
KEPT = {"TUI_COMBAT_BROWSER", "TUI_COMBAT_TEST_DEADLINE"}
"""…except these, which tell the tests where a browser is and how long a busy machine may take…"""
KEPT_PREFIXES = ("TEXTUAL_SNAPSHOT",)
"""…and what pytest-textual-snapshot sets for its own run (its folder for the screenshots it compares)."""

USER_FOLDERS = {
    "HOME": "home",
    "XDG_CONFIG_HOME": "config",
    "XDG_DATA_HOME": "data",
    "XDG_CACHE_HOME": "cache",
    "XDG_STATE_HOME": "state",
    "XDG_RUNTIME_DIR": "runtime",
    "TUI_COMBAT_CONFIG_DIR": "config/tui-combat",
    "TUI_COMBAT_DATA_DIR": "data/tui-combat",
}
"""Each folder variable → where it points inside the test's own machine folder."""
SHARED_CACHE = "TUI_COMBAT_CACHE_DIR"
"""Compiled catalogs are the same for every test: one cache per run, made once."""


def hermetic_environment(machine: Path, cache: Path) -> dict[str, str | None]:
    """What the environment should be for a test whose private folders live in ``machine`` (None: unset)."""
    wanted: dict[str, str | None] = {
        name: None for name in os.environ
        if name.startswith(CLEARED_PREFIXES) and name not in KEPT and not name.startswith(KEPT_PREFIXES)
    }
    for name, value in PINNED.items():
        wanted[name] = value or None
    for name, folder in USER_FOLDERS.items():
        path = machine / folder
        path.mkdir(parents=True, exist_ok=True)
        wanted[name] = str(path)
    wanted[SHARED_CACHE] = str(cache)
    return wanted


def _apply(environment: dict[str, str | None]) -> None:
    for name, value in environment.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def pytest_configure(config: pytest.Config) -> None:
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="tui-combat-tests-"))
    _apply(hermetic_environment(base / "machine", base / "catalog-cache"))
    config.stash[_CACHE_KEY] = base / "catalog-cache"
    _CONFIG["config"] = config
    if hasattr(time, "tzset"):
        time.tzset()


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: two workers a core (four more than the cores at most). An interface test spends much of its
    time waiting on the app's timers and threads: one worker a core left the cores idle two fifths of the
    time. ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides when set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return min(2 * cores, cores + 4)


_CACHE_KEY = pytest.StashKey[Path]()
_CONFIG: dict[str, pytest.Config] = {}
"""The run's configuration, for the report hooks that are not given it."""


@pytest.fixture(autouse=True)
def hermetic(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest,
             monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The test's own machine folder (HOME, XDG folders, the app's config and data folders inside it),
    English, UTC, ``NO_COLOR``; the interface's language and the terminal's symbols decided afresh."""
    machine = tmp_path_factory.mktemp("machine")
    for name, value in hermetic_environment(machine, request.config.stash[_CACHE_KEY]).items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    from tui_combat.i18n import language, set_language
    from tui_combat.widgets.glyphs import forget_terminal

    before = language()
    set_language(HERMETIC_LANGUAGE)
    forget_terminal()
    yield machine
    set_language(before)
    forget_terminal()


# -- how long the fast loop takes ---------------------------------------------------------------------------
_TIMES_KEY = pytest.StashKey[dict[bool, float]]()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # Read off the report, not the collected items: under -n the tests are collected in the workers, and the
    # reports (with their markers' names among the keywords) come back to the process that prints the summary.
    config = _CONFIG.get("config")
    if config is None:
        return
    times = config.stash.setdefault(_TIMES_KEY, {True: 0.0, False: 0.0})
    times["slow" in report.keywords] += report.duration


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    """One line: the time spent in the fast loop's tests (not marked slow) and in the slow ones."""
    times = config.stash.get(_TIMES_KEY, None)
    if not times or not (times[True] or times[False]):
        return
    terminalreporter.write_line(f"time in tests: {times[False]:.0f} s not marked slow (the fast loop, -m 'not slow'), "
                                f"{times[True]:.0f} s marked slow")


@pytest.fixture
def savage_worlds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """The Savage Worlds example plugin, installed or (outside CI) copied in with its entry point
    (:mod:`tests.plugins.savage`)."""
    from tests.plugins.savage import savage_worlds as load

    yield from load(tmp_path, monkeypatch)
