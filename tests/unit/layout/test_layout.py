"""The layout rules of the architecture (docs/architecture.md), checked on the source: import circles,
cycle-breaking imports, the import floors, and the size of files and functions."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.unit.layout.import_graph import cycles, read_package, reaches

ROOT = Path(__file__).resolve().parents[3]
MODULES = read_package(ROOT)
MAX_CYCLE = 3
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80


def test_no_import_circle_of_more_than_three_modules() -> None:
    big = [c for c in cycles(MODULES) if len(c) > MAX_CYCLE]
    assert not big, "import circles of more than 3 modules:\n" + "\n".join(", ".join(c) for c in big)


def test_no_function_local_import_breaks_a_cycle() -> None:
    """An import inside a function that would close a circle if it ran at load time hides the circle; the
    fix is to move the shared code down a floor, not to defer the import."""
    hidden = [f"{m.path.relative_to(ROOT)}:{line}: imports {target}, which imports {m.name}"
              for m in MODULES.values() for target, line in m.deferred
              if target in MODULES and reaches(MODULES, target, m.name)]
    assert not hidden, "function-local imports that break a cycle:\n" + "\n".join(hidden)


def _loads_below(package: str) -> set[str]:
    return {target for name, m in MODULES.items() if name == package or name.startswith(package + ".")
            for target in m.loads | {t for t, _ in m.deferred}}


@pytest.mark.parametrize("floor, forbidden", [
    ("oxide.runtime", ("oxide.ir", "oxide.dialects", "oxide.analysis", "oxide.passes", "oxide.backend",
                       "oxide.frontends", "oxide.api", "oxide.tools", "oxide.target")),
    ("oxide.ir", ("oxide.dialects", "oxide.analysis", "oxide.passes", "oxide.backend", "oxide.frontends",
                  "oxide.api", "oxide.tools")),
    ("oxide.dialects", ("oxide.analysis", "oxide.passes", "oxide.backend", "oxide.frontends", "oxide.api",
                        "oxide.tools")),
    ("oxide.analysis", ("oxide.passes", "oxide.backend", "oxide.frontends", "oxide.api", "oxide.tools")),
    ("oxide.passes", ("oxide.backend", "oxide.frontends", "oxide.api", "oxide.tools")),
    ("oxide.frontends.syntax", ("oxide.frontends.simt", "oxide.frontends.tile", "oxide.frontends.kernel_module",
                                "oxide.frontends.structured", "oxide.dialects", "oxide.passes", "oxide.backend")),
    ("oxide.frontends.tile", ("oxide.frontends.simt",)),
    ("oxide.frontends.simt", ("oxide.frontends.tile",)),
    ("oxide.frontends", ("oxide.passes", "oxide.backend", "oxide.api", "oxide.tools")),
    ("oxide.api", ("oxide.tools",)),
])
def test_imports_flow_one_way(floor: str, forbidden: tuple[str, ...]) -> None:
    wrong = sorted(t for t in _loads_below(floor) if any(t == f or t.startswith(f + ".") for f in forbidden))
    assert not wrong, f"{floor} imports a higher floor or a sibling's insides: {wrong}"


def test_the_syntax_floor_has_no_mlir() -> None:
    for name, m in MODULES.items():
        if name.startswith("oxide.frontends.syntax"):
            source = m.path.read_text(encoding="utf-8")
            assert "import mlir" not in source and "from mlir" not in source, f"{m.path} imports MLIR"


def test_no_file_is_over_600_lines() -> None:
    long = [(str(m.path.relative_to(ROOT)), n) for m in MODULES.values()
            if (n := len(m.path.read_text(encoding="utf-8").splitlines())) > MAX_FILE_LINES]
    assert not long, f"files over {MAX_FILE_LINES} lines: {long}"


def test_no_function_is_over_80_lines() -> None:
    long = [f"{m.path.relative_to(ROOT)}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for m in MODULES.values() for node in ast.walk(m.tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(long)


def test_the_diagnostics_import_nothing_of_oxide() -> None:
    """Every layer reports through oxide.diagnostics, the runtime included, so it stands on nothing."""
    module = MODULES["oxide.diagnostics"]
    assert not module.loads and not module.deferred
