"""The registry finds every ruleset, the built-in ones too, through the ``tui_combat.rulesets`` entry points:
the engine names no ruleset module, a plugin that does not load says so, and a ruleset registered in-process
needs no entry point."""

from __future__ import annotations

import importlib.metadata
import pkgutil
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

import tui_combat.rulesets
from tests.common import registered
from tui_combat.engine import registry
from tui_combat.engine.errors import RuleError
from tui_combat.rulesets.adnd2e import RULESET as ADND2E

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "tui_combat" / "engine"


def ruleset_packages() -> list[str]:
    return [
        info.name for info in pkgutil.iter_modules(tui_combat.rulesets.__path__, "tui_combat.rulesets.") if info.ispkg
    ]


def test_the_engine_names_no_ruleset_module() -> None:
    packages = ruleset_packages()
    assert "tui_combat.rulesets.adnd2e" in packages
    for source in ENGINE.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        named = [package for package in packages if package in text]
        assert named == [], f"{source.relative_to(ROOT)} names {named}"


def test_the_engine_names_no_ruleset_id_nor_a_default_one() -> None:
    """No ruleset is the engine's own: a fight or a file that names none is not quietly given one."""
    table = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    ids = list(table["project"]["entry-points"][registry.ENTRY_POINT_GROUP])
    for source in ENGINE.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        named = [ruleset_id for ruleset_id in ids if re.search(rf"\b{ruleset_id}\b", text)]
        assert named == [], f"{source.relative_to(ROOT)} names {named}"


def test_every_built_in_ruleset_is_an_entry_point_and_found_through_it() -> None:
    table = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = table["project"]["entry-points"][registry.ENTRY_POINT_GROUP]
    assert {target.partition(":")[0] for target in listed.values()} == set(ruleset_packages())
    registry.forget()
    try:
        assert set(listed) <= set(registry.available())
        for ruleset_id, target in listed.items():
            ruleset = registry.get(ruleset_id)
            assert ruleset.id == ruleset_id
            assert f"{type(ruleset).__module__}".startswith(target.partition(":")[0])
    finally:
        registry.forget()


class _Entry:
    def __init__(self, name: str, value: str) -> None:
        self.name, self.value, self.dist = name, value, None


def test_a_plugin_that_does_not_load_is_refused_with_its_target(monkeypatch: pytest.MonkeyPatch) -> None:
    entries = [_Entry("broken", "no_such_plugin_module:RULESET"), _Entry("not-one", "tui_combat.engine.model:State")]
    monkeypatch.setattr(
        importlib.metadata, "entry_points", lambda group: entries if group == registry.ENTRY_POINT_GROUP else []
    )
    registry.forget()
    try:
        assert registry.available() == ["broken", "not-one"]
        with pytest.raises(RuleError, match="no_such_plugin_module:RULESET could not be loaded"):
            registry.get("broken")
        with pytest.raises(RuleError, match="tui_combat.engine.model:State is not a Ruleset"):
            registry.get("not-one")
    finally:
        registry.forget()


def test_with_no_entry_points_a_ruleset_is_unknown_unless_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [])
    registry.forget()
    try:
        assert registry.available() == []
        with pytest.raises(RuleError, match='Unknown ruleset "adnd2e"'):
            registry.get("adnd2e")
        with registered(ADND2E):
            assert registry.get("adnd2e") is ADND2E
    finally:
        registry.forget()


@pytest.fixture
def broken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    from tests.plugins.broken import broken_plugins

    yield from broken_plugins(tmp_path, monkeypatch)


def test_a_plugin_that_fails_with_anything_is_named_with_what_and_where(broken: Path) -> None:
    from tests.plugins.broken import PREPARE_ERROR, SYNTAX_ERROR

    assert {SYNTAX_ERROR, PREPARE_ERROR} <= set(registry.available())
    with pytest.raises(RuleError) as caught:
        registry.get(SYNTAX_ERROR)
    assert str(caught.value).startswith(
        f"The ruleset plugin {SYNTAX_ERROR}:RULESET could not be loaded: SyntaxError at "
        f"{broken / 'broken_syntax.py'}, line 2: "
    )
    with pytest.raises(RuleError) as caught:
        registry.get(PREPARE_ERROR)
    assert str(caught.value).startswith(
        f"The ruleset plugin {PREPARE_ERROR}:RULESET could not be loaded: RuntimeError at "
        f"{broken / 'broken_prepare.py'}, line 9: its tables are missing"
    )
    with pytest.raises(RuleError, match="SyntaxError"):  # asked again, the same answer (not loaded a second time)
        registry.get(SYNTAX_ERROR)
    assert registry.get("adnd2e").id == "adnd2e"  # the others load as ever


def test_the_app_knows_its_own_rulesets_as_its_entry_points_list_them() -> None:
    from tui_combat.rulesets import BUILT_IN

    table = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert BUILT_IN == table["project"]["entry-points"][registry.ENTRY_POINT_GROUP]


def test_a_known_ruleset_loads_without_reading_the_installed_distributions(monkeypatch: pytest.MonkeyPatch) -> None:
    from tui_combat.rulesets import BUILT_IN

    def refused(group: str) -> list[object]:
        raise AssertionError("the installed distributions were read")

    monkeypatch.setattr(importlib.metadata, "entry_points", refused)
    registry.forget()
    try:
        registry.know(BUILT_IN)
        assert registry.get("dnd5e").id == "dnd5e"
        registry.forget()  # forgotten with the rest: found through the entry points again
        monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [])
        with pytest.raises(RuleError, match='Unknown ruleset "dnd5e"'):
            registry.get("dnd5e")
    finally:
        registry.forget()
