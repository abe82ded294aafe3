"""The frontends' floors: syntax/ reads source with no MLIR; syntax/, kernel_module and structured import no
frontend; tile/ builds on the floors, never on simt/ (so a further frontend can sit beside both)."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import oxide

FRONTENDS = pathlib.Path(oxide.__file__).parent / "frontends"


def _loaded_after(modules: list[str]) -> set[str]:
    """The modules loaded by importing `modules` in a fresh interpreter."""
    code = ("import sys\n" + "".join(f"import {m}\n" for m in modules)
            + "print('\\n'.join(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return set(out.split())


def test_the_syntax_floor_imports_no_mlir_and_no_frontend() -> None:
    syntax = sorted(f"oxide.frontends.syntax.{p.stem}" for p in (FRONTENDS / "syntax").glob("*.py")
                    if p.stem != "__init__")
    loaded = _loaded_after(syntax)
    assert not any(m == "mlir" or m.startswith("mlir.") for m in loaded)
    assert not any(m.startswith(("oxide.frontends.simt", "oxide.frontends.tile")) for m in loaded)


def test_the_shared_floors_import_no_frontend() -> None:
    loaded = _loaded_after(["oxide.frontends.kernel_module", "oxide.frontends.structured"])
    assert not any(m.startswith(("oxide.frontends.simt", "oxide.frontends.tile")) for m in loaded)


def _oxide_imports(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("oxide"):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("oxide"))
    return found


def test_tile_builds_only_on_the_floors() -> None:
    allowed = ("oxide.frontends.syntax", "oxide.frontends.kernel_module", "oxide.frontends.structured",
               "oxide.frontends.tile", "oxide.dialects", "oxide.ir", "oxide.target", "oxide.diagnostics")
    for path in sorted((FRONTENDS / "tile").glob("*.py")):
        outside = {m for m in _oxide_imports(path) if not m.startswith(allowed)}
        assert not outside, f"{path.name} imports {sorted(outside)}"
