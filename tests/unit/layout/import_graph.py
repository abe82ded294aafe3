"""The import graph of the oxide package, read from source with `ast` (nothing is imported).

Edges are the imports a module runs when it loads (top level, including inside `try`/`if` at top level)
and, separately, the imports inside functions. Imports under `if TYPE_CHECKING:` are annotations only and
are not edges.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE = "oxide"


@dataclass
class Module:
    name: str
    path: Path
    tree: ast.Module
    loads: set[str] = field(default_factory=set)         # oxide modules imported when this one loads
    deferred: list[tuple[str, int]] = field(default_factory=list)  # (module, line) imported inside functions


def _module_name(root: Path, path: Path) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _targets(module: Module, node: ast.Import | ast.ImportFrom, known: set[str]) -> list[str]:
    """The oxide modules `node` imports: `from a.b import c` is a.b.c when c is a module, else a.b."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            package = module.name.split(".")
            if module.path.name != "__init__.py":
                package = package[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join(package + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
    found = []
    for name in names:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != module.name:
            found.append(name)
    return found


def _visit(module: Module, body: list[ast.stmt], known: set[str], in_function: bool) -> None:
    for node in body:
        if isinstance(node, ast.If) and _is_type_checking(node):
            _visit(module, node.orelse, known, in_function)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for target in _targets(module, node, known):
                if in_function:
                    module.deferred.append((target, node.lineno))
                else:
                    module.loads.add(target)
            continue
        for child_body, child_in_function in _bodies(node, in_function):
            _visit(module, child_body, known, child_in_function)


def _bodies(node: ast.stmt, in_function: bool) -> list[tuple[list[ast.stmt], bool]]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return [(node.body, True)]
    if isinstance(node, ast.ClassDef):
        return [(node.body, in_function)]
    out = []
    for name in ("body", "orelse", "finalbody"):
        child = getattr(node, name, None)
        if isinstance(child, list) and child and isinstance(child[0], ast.stmt):
            out.append((child, in_function))
    for handler in getattr(node, "handlers", []):
        out.append((handler.body, in_function))
    return out


def read_package(root: Path) -> dict[str, Module]:
    """Every module of the package under `root` (the repository), with its import edges."""
    modules = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        name = _module_name(root, path)
        modules[name] = Module(name, path, ast.parse(path.read_text(encoding="utf-8"), str(path)))
    known = set(modules)
    for module in modules.values():
        _visit(module, module.tree.body, known, in_function=False)
    return modules


def cycles(modules: dict[str, Module]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in modules:
        if start in index:
            continue
        work = [(start, iter(sorted(modules[start].loads)))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            advanced = False
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(modules[nxt].loads))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def reaches(modules: dict[str, Module], start: str, goal: str) -> bool:
    """Whether loading `start` loads `goal` (through load-time imports only)."""
    seen, todo = {start}, [start]
    while todo:
        for nxt in modules[todo.pop()].loads:
            if nxt == goal:
                return True
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False
