"""The examples in docs/ must keep running as written, and say what is true."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
ENGINE_API = DOCS / "engine-api.md"
WRITING_A_RULESET = DOCS / "writing-a-ruleset.md"
SKIRMISH = Path(__file__).resolve().parents[1] / "plugins" / "skirmish.py"


def blocks(path: Path, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", path.read_text(encoding="utf-8"), re.S)


def test_engine_api_example_prints_what_the_doc_says(capsys: pytest.CaptureFixture[str]) -> None:
    code = blocks(ENGINE_API, "python")[0]
    namespace: dict[str, Any] = {}
    exec(compile(code, str(ENGINE_API), "exec"), namespace)
    printed = capsys.readouterr().out
    assert printed == blocks(ENGINE_API, "text")[0]

    # Worked out by hand: random.Random(1) first draws 3 for the monsters, the party typed 7; AD&D's
    # standard initiative goes lowest first and groups a side in one slot; Troll 1 has 36 HP.
    state = namespace["store"].state
    names = state.names()
    assert [(str(slot.label), [names[c] for c in slot.combatants]) for slot in state.order] == [
        ("3", ["Troll 1", "Troll 2", "Troll 3", "Orc 1", "Orc 2", "Orc 3", "Orc 4", "Orc 5", "Orc 6"]),
        ("7", ["Raf", "Rupert", "Delsenora"]),
    ]
    troll = next(c for c in state.combatants if c.name == "Troll 1")
    assert (troll.hp, troll.max_hp) == (29, 36)
    assert state.surprised == ()  # 6 and 9 on 1d10; surprised on 1–3
    assert "Troll 1 takes 7 damage: 29/36 HP.\n" in printed


def test_the_ruleset_guide_shows_the_example_ruleset_exactly() -> None:
    """The guide shows tests/plugins/skirmish.py in full; the tests load and play that file."""
    assert SKIRMISH.read_text(encoding="utf-8") in blocks(WRITING_A_RULESET, "python")


def test_the_ruleset_guides_test_example_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The guide's "Testing a ruleset" example, run against the example plugin under its package name."""
    spec = importlib.util.spec_from_file_location("skirmish_example", SKIRMISH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "skirmish_example", module)
    spec.loader.exec_module(module)
    code = next(block for block in blocks(WRITING_A_RULESET, "python") if "def test_" in block)
    namespace: dict[str, Any] = {}
    exec(compile(code, str(WRITING_A_RULESET), "exec"), namespace)
    tests = [value for name, value in namespace.items() if name.startswith("test_")]
    assert tests
    for test in tests:
        test()


def test_the_ruleset_guides_keyboard_example_passes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The guide's Pilot example ("At the keyboard"), written with the public testing kit, run as written."""
    import asyncio

    spec = importlib.util.spec_from_file_location("skirmish_example", SKIRMISH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "skirmish_example", module)
    spec.loader.exec_module(module)
    code = next(block for block in blocks(WRITING_A_RULESET, "python") if "async def test_" in block)
    namespace: dict[str, Any] = {}
    exec(compile(code, str(WRITING_A_RULESET), "exec"), namespace)
    tests = [value for name, value in namespace.items() if name.startswith("test_")]
    assert len(tests) == 1
    asyncio.run(tests[0](tmp_path))
