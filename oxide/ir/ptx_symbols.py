"""Symbol names that become PTX identifiers: gpu.module, and the functions and globals inside one.

PTX accepts `[a-zA-Z][a-zA-Z0-9_$]*` or `[_$%][a-zA-Z0-9_$]+` (ASCII only); LLVM's NVPTX backend aborts on
other names and ptxas rejects them, so oxide-verify reports them at the symbol.
"""

from __future__ import annotations

import re

from mlir import ir

_PTX_IDENTIFIER = re.compile(r"[a-zA-Z][a-zA-Z0-9_$]*|[_$%][a-zA-Z0-9_$]+")


def ptx_symbol_problem(op: ir.Operation) -> str | None:
    """Why the symbol `op` defines cannot be a PTX identifier, or None (or when it emits no PTX symbol)."""
    if "sym_name" not in op.attributes or not _emits_ptx_symbol(op):
        return None
    name = ir.StringAttr(op.attributes["sym_name"]).value
    if _PTX_IDENTIFIER.fullmatch(name):
        return None
    return (f"'{name}' cannot be a PTX symbol name: PTX names are ASCII letters, digits, '_' and '$', starting "
            "with a letter, or with '_', '$' or '%' followed by at least one more character; rename it")


def _emits_ptx_symbol(op: ir.Operation) -> bool:
    if op.name == "gpu.module":
        return True
    parent = op.parent
    return parent is not None and parent.name == "gpu.module"
