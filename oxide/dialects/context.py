"""The context factory: an mlir.ir.Context with the upstream dialects oxide uses and oxide's own.

It lives on the dialects floor because it loads them; oxide.ir below declares dialects but knows none."""

from __future__ import annotations

from typing import Iterable

from mlir import ir

from oxide.dialects import simt, tile
from oxide.ir.compat import probe
from oxide.ir.declare import Dialect

# Upstream dialects that oxide's frontends emit or its lowerings produce.
UPSTREAM_DIALECTS = ("builtin", "func", "arith", "math", "scf", "cf", "gpu", "llvm", "nvvm", "index", "vector", "ub")


def oxide_dialects() -> list[Dialect]:
    """oxide's own dialects (importing them declares them)."""
    return [simt.DIALECT, tile.DIALECT]


def make_context(extra_dialects: Iterable[Dialect] = ()) -> ir.Context:
    """A new context with the upstream dialects oxide uses, oxide's dialects, and `extra_dialects` loaded."""
    probe()
    context = ir.Context()
    # Single-threaded, so that a forked child (oxide.ir.isolation) never waits on pool threads it lacks.
    context.enable_multithreading(False)
    for name in UPSTREAM_DIALECTS:
        context.dialects[name]
    for dialect in [*oxide_dialects(), *extra_dialects]:
        dialect.load(context)
    return context
