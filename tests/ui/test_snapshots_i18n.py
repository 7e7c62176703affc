"""The set-up, surprise and round screens at 80×24 in Russian and Ukrainian, compared with accepted SVG
screenshots in ``__snapshots__/`` (dice seed 1; the AD&D demo, the surprise and initiative typed from real
dice). Cyrillic labels are longer than English ones: these pictures are where a cut label or a footer
that no longer fits shows. After a deliberate change, look at the new pictures and accept them with
``pytest tests/ui/test_snapshots_i18n.py --snapshot-update``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.i18n.interface import SIZE, interface_in, make_app, to_round, to_setup, to_surprise, type_initiative
from tui_combat.i18n.catalog import CACHE_ENV_VAR

LANGUAGES = ("ru", "uk")


pytestmark = pytest.mark.usefixtures("in_colour")


@pytest.fixture(autouse=True)
def private_catalog_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV_VAR, str(tmp_path_factory.getbasetemp() / "catalog-cache"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_setup_of_the_demo(snap_compare: Any, data_root: Path, lang: str) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await to_setup(pilot)

    with interface_in(lang) as app_module:
        assert snap_compare(make_app(app_module, data_root), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_surprise_of_the_demo(snap_compare: Any, data_root: Path, lang: str) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await to_surprise(pilot)

    with interface_in(lang) as app_module:
        assert snap_compare(make_app(app_module, data_root), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_round_after_typed_initiative(snap_compare: Any, data_root: Path, lang: str) -> None:
    """Round 1: the party (7) acts before the monsters (10); Raf is selected."""

    async def run_before(pilot: Pilot[None]) -> None:
        await to_round(pilot)
        await type_initiative(pilot, "7", "10")

    with interface_in(lang) as app_module:
        assert snap_compare(make_app(app_module, data_root), terminal_size=SIZE, run_before=run_before)
