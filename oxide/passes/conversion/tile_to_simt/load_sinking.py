"""Load sinking: a tile load from a read-only view moves down towards its first use.

A tile lives in registers from its load to its last use, and the lowering emits ops in program order, so a
load written early holds its registers across everything in between. LayerNorm loads w and b together after
its reductions, then computes `centered * rstd * w + b`: b's registers were live beside the centered row and
w. Moved down, w is loaded after `centered * rstd` and b after the product with w (ptxas -v, sm_90, 8 warps at
[4, 4096], 4 at [4, 1024]: LayerNorm 128 -> 116 and 128 -> 96 registers, RMSNorm at [4, 4096] 112 -> 107).

Only a top-level `tile.load` of a `tile.make_partition` of a read-only view (`!tile.view`, which the kernel
cannot write: the aliasing rules keep it apart from every mutable argument) moves, within its block, and
only across ops without regions that the tile, arith and math dialects define, that write no memory, and that
make no tile unless they load it or make it from loaded data (see `_crossable`). The lowering runs it on
kernels without a GEMM or attention plan (those match their loads' positions)."""

from __future__ import annotations

from mlir import ir

from oxide.dialects import tile as T
from oxide.ir.rules import OpSet, is_op

# The tile ops that write memory or have other effects a load must not cross.
_EFFECTS = OpSet(T.StoreOp, T.StoreOwnOp, T.AtomicRmwOp, T.MappedStoreOp, T.StorePtrOp, T.PrintOp)
_PURE_DIALECTS = ("tile", "arith", "math")


def sink_loads(func: ir.Operation) -> None:
    """Move each movable load of `func`'s entry block down towards its first user there."""
    block = func.regions[0].blocks[0]
    for load in [op.operation for op in block.operations if _movable(op.operation)]:
        ops = [op.operation for op in block.operations]
        start = ops.index(load)
        users = [in_block(use.owner.operation, block) for use in load.result.uses]
        if not users or any(u is None for u in users):
            continue
        first = min(ops.index(u) for u in users)
        stop = start + 1
        while stop < first and _crossable(ops[stop], _from_memory(ops[:stop])):
            stop += 1
        if stop > start + 1:
            load.move_before(ops[stop])


def _movable(op: ir.Operation) -> bool:
    if not is_op(op, T.LoadOp):
        return False
    source = op.operands[0].owner
    return not isinstance(source, ir.Block) and is_op(source, T.PartitionOp)


def _crossable(op: ir.Operation, loaded: list[ir.Value]) -> bool:
    """Whether a load may move below `op`: `op` writes no memory, and makes no tile, or loads one, or makes one
    from loaded data. A tile made from coordinates and scalars alone (a column mask) is cheap to hold and LLVM folds it
    into its use; a load moved below it left the mask live across the load's edge branches (softmax at
    [4, 1024]: 62 -> 80 registers)."""
    if len(op.regions) or op.name.split(".")[0] not in _PURE_DIALECTS or op in _EFFECTS:
        return False
    makes_tile = any(isinstance(r.type, ir.RankedTensorType) for r in op.results)
    return not makes_tile or is_op(op, T.LoadOp) or any(v in loaded for v in op.operands)


def _from_memory(ops: list[ir.Operation]) -> list[ir.Value]:
    """The values of `ops` that depend on a tile load."""
    loaded: list[ir.Value] = []
    for op in ops:
        if is_op(op, T.LoadOp) or any(v in loaded for v in op.operands):
            loaded.extend(op.results)
    return loaded


def in_block(op: ir.Operation, block: ir.Block) -> ir.Operation | None:
    """The op of `block` that is or contains `op` (None if none is)."""
    while op is not None:
        if op.block == block:
            return op
        op = op.parent.operation if op.parent is not None else None
    return None
