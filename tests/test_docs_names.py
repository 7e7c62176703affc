"""Every name of the engine an example plugin touches is in the guide (``docs/writing-a-ruleset.md``,
``docs/engine-api.md``): what it imports from tui-combat, the hooks and class attributes of the contract it sets,
the fields of the engine's Structs it fills, the attributes of the fight it reads. A plugin written from the
guide alone needs no look into the source for them."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui_combat.engine import actions
from tui_combat.engine.contract import Ruleset
from tui_combat.engine.dice import Roll
from tui_combat.engine.model import Combatant, Initiative, RollRequest, Slot, State

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = (
    *sorted((ROOT / "examples" / "savage_worlds" / "savage_worlds").glob("*.py")),
    ROOT / "tests" / "plugins" / "skirmish.py",
)
GUIDE = (ROOT / "docs" / "writing-a-ruleset.md", ROOT / "docs" / "engine-api.md")
READ_ON: dict[str, type] = {
    "state": State,
    "combatant": Combatant,
    "attacker": Combatant,
    "target": Combatant,
    "request": RollRequest,
    "result": Roll,
    "slot": Slot,
    "initiative": Initiative,
}
"""A plugin's variables by the engine type they hold, for the attributes it reads of them."""
MESSAGES: dict[str, frozenset[str]] = {
    name: frozenset() for name in ("_", "N_", "ngettext", "pgettext", "plural_msg", "msg")
}
MESSAGES["log"] = frozenset(("secret", "rolls", "facts", "public"))
"""Calls whose keywords are a message's parameters, but for the function's own (``log``'s ``facts`` …)."""


def code_spans(text: str) -> set[str]:
    """Every identifier inside a `code span` or a ``` block of the guide."""
    blocks = re.findall(r"```.*?```", text, flags=re.S)
    spans = re.findall(r"`([^`]+)`", re.sub(r"```.*?```", "", text, flags=re.S))  # a span may wrap a line
    found: set[str] = set()
    for block in blocks + spans:
        found |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", block))
    return found


def engine_names(tree: ast.AST, imported: set[str]) -> Iterator[tuple[str, str]]:
    """(name, where) of what the plugin's module uses of the engine."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tui_combat"):
            for alias in node.names:
                yield alias.name, f"imported from {node.module}"
        elif isinstance(node, ast.ClassDef) and any(
            isinstance(base, ast.Subscript) and getattr(base.value, "id", "") == "Ruleset" for base in node.bases
        ):
            for item in node.body:
                names = (
                    [item.name]
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                    else [
                        target.id
                        for target in getattr(item, "targets", [getattr(item, "target", None)])
                        if isinstance(target, ast.Name)
                    ]
                )
                for name in names:
                    if hasattr(Ruleset, name) or name in Ruleset.__annotations__:
                        yield name, f"a hook or attribute of Ruleset set by {node.name}"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in imported:
            for keyword in node.keywords:
                if keyword.arg and (node.func.id not in MESSAGES or keyword.arg in MESSAGES[node.func.id]):
                    yield keyword.arg, f"a field of {node.func.id}"
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in ("a", "actions")
        ):
            yield node.func.attr, "an action of tui_combat.engine.actions"
            for keyword in node.keywords:
                if keyword.arg:
                    yield keyword.arg, f"a field of actions.{node.func.attr}"
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in READ_ON:
            kind = READ_ON[node.value.id]
            if node.attr in getattr(kind, "__struct_fields__", ()) or hasattr(kind, node.attr):
                yield node.attr, f"read of {kind.__name__}"


def used_names() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in PLUGINS:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            alias.asname or alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tui_combat")
            for alias in node.names
        }
        for name, where in engine_names(tree, imported):
            found.setdefault(name, f"{path.name}: {where}")
    return found


def test_the_example_plugins_use_names_of_the_engine() -> None:
    names = used_names()
    assert {"Ruleset", "log", "settle", "FieldSpec", "after_damage", "in_turn", "order", "Damage"} <= set(names)


def test_every_name_an_example_plugin_uses_is_in_the_guide() -> None:
    documented = set().union(*(code_spans(path.read_text(encoding="utf-8")) for path in GUIDE))
    missing = {name: where for name, where in used_names().items() if name not in documented}
    assert not missing, "\n".join(f"{name}  ({where})" for name, where in sorted(missing.items()))


@pytest.mark.parametrize(
    "struct",
    [
        a
        for a in vars(actions).values()
        if isinstance(a, type) and issubclass(a, actions._Action) and a is not actions._Action
    ],
)
def test_every_action_and_its_fields_are_in_the_guide(struct: type) -> None:
    """The engine's actions a plugin applies (``apply(state, actions.Damage(…))``), each with its fields."""
    documented = set().union(*(code_spans(path.read_text(encoding="utf-8")) for path in GUIDE))
    missing = [name for name in (struct.__name__, *struct.__struct_fields__) if name not in documented]
    assert not missing, f"{struct.__name__}: {missing}"
