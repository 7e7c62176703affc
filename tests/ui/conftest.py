"""Fixtures for the interface tests: a private data folder and the app on it, with dice seed 1."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.ui.steps import SEED, SIZE, session_folders  # noqa: F401  (SIZE, session_folders: for older imports)
from tui_combat.app import CombatApp
from tui_combat.testing import make_app as app_on

SMOKE = frozenset({"test_round_flow.py", "test_opening.py", "test_card_and_log.py"})
"""The interface tests in the fast loop (``-m "not slow"``): a fight from the session list through a round,
opening and resuming, the card and the log. Every other interface test
is marked slow here (a new one too, until it is added to this set)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        path = Path(str(item.path))
        if path.parent == here and path.name not in SMOKE:
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def data_root(tmp_path: Path) -> Path:
    """An empty data folder: no saved sessions, so the session list holds only the demo."""
    root = tmp_path / "data"
    root.mkdir()
    return root


@pytest.fixture
def make_app(data_root: Path) -> Callable[..., CombatApp]:
    """``make_app(resume=…, encounter=…)``: a :class:`CombatApp` on ``data_root`` with seed 1
    (:func:`tui_combat.testing.make_app`)."""

    def make(**kwargs: object) -> CombatApp:
        return app_on(data_root, **kwargs)

    return make


@pytest.fixture
def in_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    """The accepted screenshots are in colour: ``NO_COLOR``, which every other test has, is removed (the
    rest of the pinned environment stays)."""
    monkeypatch.delenv("NO_COLOR", raising=False)
