"""pytest fixtures for testing with the app (:mod:`tui_combat.testing`): ``pytest_plugins =
["tui_combat.testing.fixtures"]`` in a ``conftest.py``. Only this module imports pytest (pytest is no dependency of
tui-combat: a plugin's tests bring it).

* ``app_home`` — the test's own machine folder: config, data and cache folders of its own (none of the developer's
  settings, library or saves is read), English, UTC (:func:`~tui_combat.testing.environment.hermetic_environment`);
* ``data_root`` — an empty data folder for the app's sessions;
* ``make_app`` — ``make_app(encounter=…, resume=…)``: a :class:`~tui_combat.app.CombatApp` on ``data_root``, dice
  seed 1, in ``app_home``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest

from tui_combat.app import CombatApp
from tui_combat.testing import pilot
from tui_combat.testing.environment import hermetic_environment, pinned_language

__all__ = ["app_home", "data_root", "make_app"]


@pytest.fixture
def app_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The test's own machine folder (its config, data and cache folders inside), English, UTC."""
    machine = tmp_path_factory.mktemp("machine")
    for name, value in hermetic_environment(machine, machine / "catalog-cache").items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    with pinned_language():
        yield machine


@pytest.fixture
def data_root(tmp_path: Path) -> Path:
    """An empty data folder: no saved sessions, so the session list holds only the demos."""
    root = tmp_path / "data"
    root.mkdir()
    return root


@pytest.fixture
def make_app(app_home: Path, data_root: Path) -> Callable[..., CombatApp]:
    """``make_app(resume=…, encounter=…)``: the app on ``data_root``, dice seed 1 (see
    :func:`tui_combat.testing.make_app`)."""
    return partial(pilot.make_app, data_root)
