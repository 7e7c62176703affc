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
# The machine of each test's own: the public testing kit's (tui_combat.testing.environment), which a plugin's tests
# use too.
from tui_combat.testing.environment import (  # noqa: E402
    CLEARED_PREFIXES,
    KEPT,
    KEPT_PREFIXES,
    PINNED,
    SHARED_CACHE,
    USER_FOLDERS,
    hermetic_environment,
)

__all__ = [
    "CLEARED_PREFIXES",
    "HERMETIC_LANGUAGE",
    "KEPT",
    "KEPT_PREFIXES",
    "PINNED",
    "SHARED_CACHE",
    "USER_FOLDERS",
    "hermetic_environment",
]


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
def hermetic(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
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
    terminalreporter.write_line(
        f"time in tests: {times[False]:.0f} s not marked slow (the fast loop, -m 'not slow'), "
        f"{times[True]:.0f} s marked slow"
    )


@pytest.fixture
def savage_worlds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """The Savage Worlds example plugin, installed or (outside CI) copied in with its entry point
    (:mod:`tests.plugins.savage`)."""
    from tests.plugins.savage import savage_worlds as load

    yield from load(tmp_path, monkeypatch)
