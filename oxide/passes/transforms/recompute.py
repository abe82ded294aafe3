"""Integer values made again at an earlier point of the same function: what the bounds-check transforms
(oxide-version-bounds-checks above a loop, oxide-widen-bounds-checks above a run of reads) need to test an
index before the code that computes it runs."""

from __future__ import annotations

from typing import Callable

from mlir import ir

# Integer ops that are safe to compute early whatever their operands (no division: by zero it is undefined,
# and the original code might never have divided).
PURE_INTEGER_OPS = frozenset({
    "arith.constant", "arith.addi", "arith.subi", "arith.muli", "arith.shli", "arith.andi", "arith.ori",
    "arith.xori", "arith.extui", "arith.extsi", "arith.trunci", "arith.index_cast", "arith.index_castui"})

Available = Callable[[ir.Value], bool]


def computable(value: ir.Value, available: Available) -> bool:
    """Whether `value` is available at the earlier point, or a pure integer op of computable operands."""
    if available(value):
        return True
    owner = value.owner
    return (not isinstance(owner, ir.Block) and owner.name in PURE_INTEGER_OPS
            and all(computable(operand, available) for operand in owner.operands))


def recompute(value: ir.Value, available: Available) -> ir.Value:
    """A computable `value` at the current insertion point: itself where available, else its pure ops made
    again here (upstream CSE merges them with the originals where those dominate)."""
    if available(value):
        return value
    owner = value.owner
    operands = [recompute(operand, available) for operand in owner.operands]
    attributes = {name: owner.attributes[name] for name in owner.attributes}
    return ir.Operation.create(owner.name, results=[value.type], operands=operands, attributes=attributes).result
