"""The plugin's tests, with tui-combat's public testing kit (:mod:`tui_combat.testing`) and nothing else of the app's
tests: each runs on a machine of its own (the kit's ``app_home``: config, data and cache folders of its own,
English), with the ruleset registered for it (``savage_worlds``) and the app at hand (``make_app``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

try:
    import savage_worlds  # installed (pip install -e examples/savage_worlds)
except ImportError:  # a clone where it is not: the package is the folder beside this one
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import savage_worlds

from tui_combat.engine.contract import AnyRuleset
from tui_combat.testing import registered
from tui_combat.testing.fixtures import app_home, data_root, make_app

__all__ = ["app_home", "data_root", "make_app", "machine", "savage_worlds"]


@pytest.fixture(autouse=True)
def machine(app_home: Path) -> Path:
    """Every test of the plugin on a machine of its own."""
    return app_home


@pytest.fixture(name="savage_worlds")
def savage_worlds_ruleset() -> Iterator[AnyRuleset]:
    """The ruleset, registered for the test (the app finds it by its id, as it finds an installed one); forgotten
    after."""
    with registered(savage_worlds.RULESET) as ruleset:
        yield ruleset
