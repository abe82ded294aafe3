"""Compiling Rust kernels to emulator programs for the emulator tests (one MLIR context for the session)."""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from mlir import ir

from oxide.backend.emulator import emit_program
from oxide.frontends.simt.compile import compile_rust
from oxide.dialects.context import make_context
from oxide.runtime.emulator import launch

EXAMPLES = Path(__file__).resolve().parents[4] / "examples" / "rust"


@lru_cache(maxsize=1)
def _context() -> Any:
    return make_context()


@cache
def program(source: str, name: str = "k.rs", instances: tuple[tuple[str, tuple[str, ...]], ...] = ()) -> str:
    """The emulator program of Rust `source` (`instances`: kernel name -> type arguments, as tuples)."""
    context = _context()
    with context, ir.Location.unknown():
        table = {kernel: [list(args)] for kernel, args in instances} or None
        return emit_program(compile_rust(source, name, context, table).module)


def example(stem: str, **instances: tuple[str, ...]) -> str:
    """The emulator program of examples/rust/<stem>.rs."""
    path = EXAMPLES / f"{stem}.rs"
    return program(path.read_text(), f"examples/rust/{stem}.rs", tuple(sorted(instances.items())))


def run(source: str, grid: Any, block: Any, args: list[Any], entry: str = "k", **options: Any) -> None:
    """Compile `source` (file name k.rs) and launch kernel `entry` on the emulator."""
    launch(program(source), entry, grid, block, args, **options)
