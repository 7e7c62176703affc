"""Every private name of Textual, Rich and textual-serve the package uses, found by reading its source.

A name is private when it starts with one underscore (not a dunder). The package uses one when it
- imports a private module of those libraries (``textual._compositor``, ``textual.widgets._footer``) or a
  private name from one of their modules (``from textual.keys import _character_to_key``);
- reads, writes or calls ``self._x``, ``super()._x`` or ``cls._x`` in a class that is one of theirs by
  inheritance (or a mixin put beside one of theirs), where ``_x`` is defined by one of their classes in its
  ancestry; or defines ``_x`` itself there (an override, or an attribute that shadows theirs);
- reads or writes ``something._x`` of any other object, where ``_x`` is a private name defined by one of their
  classes and by none of ours (``node._bindings``, ``style._meta``); or names it in ``getattr``/``setattr``.

What each library defines is read from its installed source with ``ast``: the names of each class's body and
the ``self._x`` it assigns. Run ``python -m tests.private_names`` to print the list.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

PACKAGE = "tui_combat"
SOURCE = Path(__file__).resolve().parents[1] / PACKAGE
LIBRARIES = ("textual", "rich", "textual_serve")
QUARANTINE = "textual_ext"
"""The one folder of the package allowed to use them (``tui_combat/textual_ext/``)."""


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name != "_"


def is_library(module: str) -> bool:
    return module.split(".")[0] in LIBRARIES


@dataclass(frozen=True, order=True)
class Use:
    """One use of a private name: where, and which (``owner``: the library module or class it belongs to)."""

    path: str
    line: int
    owner: str
    name: str
    how: str

    @property
    def surface(self) -> str:
        return f"{self.owner}.{self.name}" if self.name else self.owner

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.surface} ({self.how})"


# -- what the libraries define ------------------------------------------------------------------------
def _library_files(library: str) -> Iterator[tuple[str, Path]]:
    spec = importlib.util.find_spec(library)
    assert spec is not None and spec.submodule_search_locations, library
    root = Path(next(iter(spec.submodule_search_locations)))
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        yield ".".join(parts), path


def _defined_in_class(node: ast.ClassDef) -> set[str]:
    """The private names a class's body defines and the ``self._x`` its methods assign."""
    names: set[str] = set()
    for statement in node.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(statement.name)
        elif isinstance(statement, ast.Assign):
            names.update(target.id for target in statement.targets if isinstance(target, ast.Name))
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            names.add(statement.target.id)
    for inner in ast.walk(node):
        if isinstance(inner, ast.Attribute) and isinstance(inner.ctx, ast.Store):
            if isinstance(inner.value, ast.Name) and inner.value.id == "self":
                names.add(inner.attr)
    return {name for name in names if is_private(name)}


@cache
def library_classes() -> dict[tuple[str, str], frozenset[str]]:
    """(module, class name) → the private names that class defines, for every class of the libraries."""
    classes: dict[tuple[str, str], frozenset[str]] = {}
    for library in LIBRARIES:
        for module, path in _library_files(library):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    classes[(module, node.name)] = frozenset(_defined_in_class(node))
    return classes


@cache
def library_private_names() -> dict[str, frozenset[str]]:
    """Private name → the library classes ("module.Class") that define it."""
    owners: dict[str, set[str]] = {}
    for (module, name), names in library_classes().items():
        for private in names:
            owners.setdefault(private, set()).add(f"{module}.{name}")
    return {name: frozenset(found) for name, found in owners.items()}


# -- what the package defines --------------------------------------------------------------------------
def package_modules() -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for path in sorted(SOURCE.rglob("*.py")):
        parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


@cache
def our_private_names() -> frozenset[str]:
    """The private names the package's own classes define (those of its classes that are no library's)."""
    names: set[str] = set()
    for module, path in package_modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and not _library_ancestry(_our_class(module, node)):
                names |= _defined_in_class(node)
    return frozenset(names)


def _our_class(module: str, node: ast.ClassDef) -> type | None:
    """The class object of ``node``: found in its module by name, or made up from its bases when it is
    defined inside a function (its bases looked up among the module's names and the imports of the file)."""
    loaded = importlib.import_module(module)
    found = getattr(loaded, node.name, None)
    if isinstance(found, type) and found.__module__ == module:
        return found
    bases = [base for base in (_resolve(loaded, expression) for expression in node.bases) if isinstance(base, type)]
    if not bases:
        return None
    try:
        return type(node.name, tuple(bases), {})
    except TypeError:  # bases that cannot be combined in a made-up class: take them one by one
        return type(node.name, (bases[0],), {})


def _resolve(module: Any, expression: ast.expr) -> object:
    """What a class's base expression names, in ``module`` or among the file's imports."""
    if isinstance(expression, ast.Attribute):
        owner = _resolve(module, expression.value)
        return getattr(owner, expression.attr, None)
    if not isinstance(expression, ast.Name):
        return None
    if hasattr(module, expression.id):
        return getattr(module, expression.id)
    source = Path(inspect.getfile(module)).read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                if (alias.asname or alias.name) == expression.id:
                    return getattr(importlib.import_module(node.module), alias.name, None)
    return None


def _library_ancestry(cls: type | None) -> list[type]:
    """The library classes ``cls`` is made of: in its own ancestry, or in that of any class of the package
    that puts it among its bases (a mixin)."""
    if cls is None:
        return []
    found: list[type] = []
    stack, seen = [cls], set()
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        found.extend(base for base in current.__mro__ if is_library(base.__module__) and base not in found)
        stack.extend(sub for sub in current.__subclasses__() if sub.__module__.startswith(PACKAGE))
    return found


def _owner_defining(ancestry: list[type], name: str) -> str | None:
    classes = library_classes()
    for base in ancestry:
        if name in classes.get((base.__module__, base.__name__), ()):
            return f"{base.__module__}.{base.__qualname__}"
    return None


# -- the scan -----------------------------------------------------------------------------------------
class _Scan(ast.NodeVisitor):
    def __init__(self, module: str, path: str) -> None:
        self.module = module
        self.path = path
        self.uses: list[Use] = []
        self.ancestry: list[list[type]] = [[]]
        self.imported_modules: dict[str, str] = {}
        """Local name → the module it names (``import os``: os is no library)."""

    def add(self, node: ast.AST, owner: str, name: str, how: str) -> None:
        self.uses.append(Use(self.path, getattr(node, "lineno", 0), owner, name, how))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            top = alias.name.split(".")[0]
            self.imported_modules[alias.asname or top] = alias.name if alias.asname else top
            if is_library(alias.name) and any(is_private(part) for part in alias.name.split(".")):
                self.add(node, alias.name, "", "private module imported")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or not is_library(module):
            return
        if any(is_private(part) for part in module.split(".")):
            for alias in node.names:
                self.add(node, module, alias.name, "imported from a private module")
            return
        for alias in node.names:
            if is_private(alias.name):
                self.add(node, module, alias.name, "private name imported")
            elif isinstance(getattr(importlib.import_module(module), alias.name, None), type(importlib)):
                self.imported_modules[alias.asname or alias.name] = f"{module}.{alias.name}"

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        ancestry = _library_ancestry(_our_class(self.module, node))
        for statement in node.body:  # names the class defines over its library ancestors'
            defined: list[str] = []
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defined = [statement.name]
            elif isinstance(statement, ast.Assign):
                defined = [target.id for target in statement.targets if isinstance(target, ast.Name)]
            elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                defined = [statement.target.id]
            for name in filter(is_private, defined):
                owner = _owner_defining(ancestry, name)
                if owner is not None:
                    self.add(
                        statement,
                        owner,
                        name,
                        "overridden" if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) else "redefined",
                    )
        self.ancestry.append(ancestry)
        self.generic_visit(node)
        self.ancestry.pop()

    def _attribute(self, node: ast.AST, receiver: ast.expr, name: str) -> None:
        if not is_private(name):
            return
        own = (isinstance(receiver, ast.Name) and receiver.id in ("self", "cls")) or (
            isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and receiver.func.id == "super"
        )
        if own:
            owner = _owner_defining(self.ancestry[-1], name)
            if owner is not None:
                self.add(node, owner, name, "used on its own class")
            return
        if isinstance(receiver, ast.Name) and receiver.id in self.imported_modules:
            module = self.imported_modules[receiver.id]
            if is_library(module):
                self.add(node, module, name, "private name of a module")
            return
        owners = library_private_names().get(name)
        if owners and name not in our_private_names():
            self.add(
                node,
                " | ".join(sorted(owners)) if len(owners) <= 3 else f"{len(owners)} classes",
                name,
                "used on another object",
            )

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self._attribute(node, node.value, node.attr)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if (
            isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            self._attribute(node, node.args[0], node.args[1].value)
        self.generic_visit(node)


def private_uses(modules: dict[str, Path] | None = None) -> list[Use]:
    """Every use of a private library name in the package (or in ``modules``: name → file)."""
    uses: list[Use] = []
    for module, path in (package_modules() if modules is None else modules).items():
        where = path.relative_to(SOURCE.parent).as_posix() if path.is_relative_to(SOURCE.parent) else str(path)
        scan = _Scan(module, where)
        scan.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        uses.extend(scan.uses)
    return sorted(set(uses))


def surfaces(uses: list[Use]) -> list[str]:
    """The distinct private names used (each library module or class's name once): a name used on another
    object, of one of several classes, counts as the one of them it is used of elsewhere."""
    known: dict[str, set[str]] = {}
    for use in uses:
        if " | " not in use.owner:
            known.setdefault(use.name, set()).add(use.owner)
    found = set()
    for use in uses:
        owners = set(use.owner.split(" | ")) & known.get(use.name, set())
        found.add(f"{min(owners)}.{use.name}" if owners and use.name else use.surface)
    return sorted(found)


if __name__ == "__main__":
    found = private_uses()
    for use in found:
        print(use)
    print(f"\n{len(surfaces(found))} private surfaces:")
    for surface in surfaces(found):
        print(" ", surface)
