"""Compiled catalogs go to a folder of the test run, not the user's cache."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tui_combat.i18n import language, set_language
from tui_combat.i18n.catalog import CACHE_ENV_VAR


@pytest.fixture(autouse=True)
def private_catalog_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(CACHE_ENV_VAR, str(tmp_path_factory.getbasetemp() / "catalog-cache"))
    before = language()
    yield
    set_language(before)


@pytest.fixture
def data_root(tmp_path: Path) -> Path:
    """An empty data folder: the session list holds only the demos."""
    root = tmp_path / "data"
    root.mkdir()
    return root
