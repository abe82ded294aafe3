"""Hand-written tile IR for the tile emulator tests: a kernel body in generic form becomes an emulator
program (one MLIR context for the session), launched over a grid of tile blocks."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from mlir import ir

from oxide.backend.emulator import emit_program
from oxide.dialects.context import make_context
from oxide.ir.parse import parse_source
from oxide.runtime.emulator import launch_tile


@lru_cache(maxsize=1)
def _context() -> Any:
    return make_context()


def module(params: str, body: str, name: str = "k", warps: int = 4) -> str:
    """The text of a module holding one tile kernel `name` with `params` and `body` (ops, one a line)."""
    return (f"module attributes {{gpu.container_module}} {{\n  gpu.module @kernels {{\n"
            f"    gpu.func @{name}({params}) kernel attributes {{tile.warps = {warps} : i32}} {{\n"
            f"{body}\n      gpu.return\n    }}\n  }}\n}}\n")


@cache
def program(text: str) -> str:
    """The emulator program of MLIR `text` (parsed as file k.rs, so locations name it)."""
    context = _context()
    with context, ir.Location.unknown():
        return emit_program(parse_source(text, "k.rs", context).module)


def run(params: str, body: str, grid: Any, args: list[Any], name: str = "k") -> None:
    """Build kernel `name` from `params` and `body` and launch it over `grid` tile blocks."""
    launch_tile(program(module(params, body, name)), name, grid, args)


def view(elem: str, *shape: int) -> str:
    return f"!tile.view<{elem}, array<i64: {', '.join(map(str, shape))}>>"


def out(elem: str, *shape: int) -> str:
    return f"!tile.view_mut<{elem}, array<i64: {', '.join(map(str, shape))}>>"


def part(elem: str, *shape: int) -> str:
    return f"!tile.partition<{elem}, array<i64: {', '.join(map(str, shape))}>>"


def tensor(elem: str, *shape: int) -> str:
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{elem}>"
