"""The package's import graph: every module imports only its own layer or the layers below, and no module
reaches itself through its imports.

Imports are read from the source with ``ast``, so every kind counts: at the top of a module, inside a
function (the lazy imports that keep start-up fast), under ``if TYPE_CHECKING:``, and the re-exports
of a package's ``__init__``.

Layers, lowest first, a folder each: i18n and settings (the user's folder, TOML read and written) → engine →
rulesets → saves → fight (the store, sessions, the library, reports, stat blocks, encounter files) → widgets (with
textual_ext) → screens → app (with its parts, ``running``) → __main__ and the testing kit (``testing``, which drives
the app).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = "tui_combat"
SOURCE = Path(__file__).resolve().parents[1] / PACKAGE

LAYERS: tuple[tuple[str, ...], ...] = (
    ("tui_combat", "tui_combat.i18n", "tui_combat.settings"),
    ("tui_combat.engine",),
    ("tui_combat.rulesets",),
    ("tui_combat.saves",),
    ("tui_combat.fight",),
    ("tui_combat.widgets", "tui_combat.textual_ext"),
    ("tui_combat.screens",),
    ("tui_combat.app", "tui_combat.running"),
    ("tui_combat.__main__", "tui_combat.testing"),
)
"""One line per layer, one folder of the package each (the package's own ``__init__``, the app and ``__main__``
beside theirs)."""
LAYER_NAMES = ("i18n/settings", "engine", "rulesets", "saves", "fight", "widgets", "screens", "app", "__main__")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(SOURCE.rglob("*.py"))}


def layer_of(module: str) -> int:
    """The layer of a module: its longest matching prefix in :data:`LAYERS` (the package itself, only its
    own ``__init__``); -1 when it has none."""
    best, best_length = -1, -1
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            below = prefix != PACKAGE and module.startswith(prefix + ".")
            if (module == prefix or below) and len(prefix) > best_length:
                best, best_length = index, len(prefix)
    return best


def imported_modules(module: str, path: Path, known: set[str]) -> set[str]:
    """Every module of the package that ``module`` imports, wherever the import statement is."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            found.add(base)
            for alias in node.names:  # "from pkg import submodule" imports the submodule too
                candidate = f"{base}.{alias.name}"
                if candidate in known:
                    found.add(candidate)
    ours = {name for name in found if name == PACKAGE or name.startswith(PACKAGE + ".")}
    return {name for name in ours if name in known and name != module}


def import_graph() -> dict[str, set[str]]:
    modules = all_modules()
    known = set(modules)
    return {name: imported_modules(name, path, known) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph as a path that ends where it starts, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target) :] + [target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


# -- the checker itself can find what it looks for ---------------------------------------------------
def test_imports_of_every_kind_are_found(tmp_path: Path) -> None:
    source = tmp_path / "tui_combat" / "screens"
    source.mkdir(parents=True)
    module = source / "sample.py"
    module.write_text(
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "import tui_combat.engine.model\n"
        "from tui_combat.saves import journal\n"
        "from . import dialogs\n"
        "if TYPE_CHECKING:\n"
        "    from tui_combat.app import CombatApp\n"
        "def later() -> None:\n"
        "    from tui_combat.fight.store import Store\n",
        encoding="utf-8",
    )
    known = {
        "tui_combat",
        "tui_combat.app",
        "tui_combat.fight.store",
        "tui_combat.saves",
        "tui_combat.saves.journal",
        "tui_combat.engine",
        "tui_combat.engine.model",
        "tui_combat.screens",
        "tui_combat.screens.dialogs",
    }
    found = imported_modules("tui_combat.screens.sample", module, known)
    assert found == {
        "tui_combat.engine.model",
        "tui_combat.saves",
        "tui_combat.saves.journal",
        "tui_combat.screens",
        "tui_combat.screens.dialogs",
        "tui_combat.app",
        "tui_combat.fight.store",
    }


def test_a_cycle_is_found_and_shown_as_a_path() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_layers_are_ordered_as_documented() -> None:
    assert layer_of("tui_combat.i18n") < layer_of("tui_combat.engine.apply") < layer_of("tui_combat.rulesets.adnd2e")
    assert (
        layer_of("tui_combat.rulesets.data_loading")
        < layer_of("tui_combat.saves.journal")
        < layer_of("tui_combat.fight.store")
    )
    assert layer_of("tui_combat.fight.session") < layer_of("tui_combat.widgets.budget")
    assert layer_of("tui_combat.widgets.budget") < layer_of("tui_combat.screens.round") < layer_of("tui_combat.app")
    assert layer_of("tui_combat.app") < layer_of("tui_combat.__main__")
    assert layer_of("tui_combat.storage") == -1  # a prefix must end at a dot


# -- the package ----------------------------------------------------------------------------------------
def test_every_module_has_a_layer() -> None:
    unplaced = sorted(name for name in all_modules() if layer_of(name) < 0)
    assert unplaced == [], f"modules outside every layer: {unplaced}; add them to LAYERS"


def test_no_module_imports_a_higher_layer() -> None:
    upward = []
    for module, targets in sorted(import_graph().items()):
        for target in sorted(targets):
            if layer_of(target) > layer_of(module):
                upward.append(
                    f"{module} ({LAYER_NAMES[layer_of(module)]}) imports {target} ({LAYER_NAMES[layer_of(target)]})"
                )
    assert upward == [], "\n".join(upward)


@pytest.mark.parametrize("forbidden", ["rulesets", "saves", "fight", "widgets", "screens", "app"])
def test_the_engine_imports_nothing_above_it(forbidden: str) -> None:
    prefix = f"{PACKAGE}.{forbidden}"
    offending = sorted(
        f"{module} imports {target}"
        for module, targets in import_graph().items()
        if module.startswith(f"{PACKAGE}.engine")
        for target in targets
        if target == prefix or target.startswith(prefix + ".")
    )
    assert offending == []


def test_the_screens_never_import_the_app() -> None:
    offending = sorted(
        f"{module} imports {target}"
        for module, targets in import_graph().items()
        if module.startswith((f"{PACKAGE}.screens", f"{PACKAGE}.widgets"))
        for target in targets
        if target == f"{PACKAGE}.app"
    )
    assert offending == []


def test_the_import_graph_has_no_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, " → ".join(cycle or [])
