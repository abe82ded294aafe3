"""Run sinking: each run of a stored tile pulls the work that only it needs down to its store.

A tile made from a read-only load and elementwise ops holds all its registers until the store takes them,
the store's whole-tile branch taking every run at once. At [4, 1024] f32 with a warp per row, RMSNorm's
`x * rstd` (32 values a thread) and w (32 more) were both live at the store, and the edge branches' 64-bit
addresses beside them: 78 registers. A read-only load that feeds only elementwise work towards one store
is therefore emitted one run at a time (`load_tile(..., per_run=True)`: a branch per run on the same
whole-tile condition), the store too, and before each of the store's runs the ops that only that run needs
move down to it: w's run, its products, then the store of those 4 values. RMSNorm 78 -> 56 registers,
LayerNorm 96 -> 80 (ptxas -v, sm_90; docs/tile-lowering.md).

An op moves only if it has no side effects (arith, math, vector ops without regions, or a per-run branch of
a read-only load, recorded in `TileLowering.run_loads`) and every use of its results is in the moved set or
in the store's run; a read-only view is never written by the kernel (the aliasing rules), so its loads may
cross stores."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mlir import ir
from mlir.dialects import gpu

from oxide.dialects import tile as T
from oxide.ir.rules import is_op

if TYPE_CHECKING:
    from oxide.passes.conversion.tile_to_simt.context import TileLowering

_PURE_DIALECTS = ("arith", "math", "vector")


def loads_per_run(ctx: TileLowering, op: T.LoadOp) -> bool:
    """Whether tile load `op` reads a read-only view and reaches only stores, through elementwise ops,
    reshapes and broadcasts, each store's tile held in as many values a thread as the loaded one, and meets
    another tile on the way: then each of its runs meets one run of a store, beside values held from before.
    (At [4, 4096] on 8 warps w is 16 values a thread against 64 stored: a run of w feeds four store runs, and
    the per-run form cost RMSNorm 107 -> 114 registers. A load that only converts towards its store holds
    nothing else: fp8 quantize 25 -> 32.)"""
    if not is_op(op.partition.owner, T.PartitionOp):
        return False
    held = ctx.default_layout(list(T.shape_of(op.result.type))).per_thread
    stores, meets, stack = 0, False, [op.result]
    while stack:
        for use in stack.pop().uses:
            user = use.owner.operation
            if is_op(user, T.StoreOp, T.StoreOwnOp):
                if ctx.default_layout(list(T.shape_of(user.operands[1].type))).per_thread != held:
                    return False
                stores += 1
            elif is_op(user, T.ReshapeOp, T.BroadcastOp) or _pure(user):
                tiles = [v for v in user.operands if isinstance(v.type, ir.RankedTensorType)]
                meets = meets or any(v != tiles[0] for v in tiles)
                stack.extend(user.results)
            else:
                return False
    return stores > 0 and meets


def fed_by_run_loads(run_loads: list[ir.Operation] | None, values: list[ir.Value]) -> bool:
    """Whether any of `values` is computed, through pure ops, from a per-run load."""
    if not run_loads:
        return False
    seen: list[ir.Operation] = []
    stack = [_producer(v) for v in values]
    while stack:
        op = stack.pop()
        if op is None or op in seen:
            continue
        seen.append(op)
        if op in run_loads:
            return True
        if _pure(op):
            stack.extend(_producer(v) for v in op.operands)
    return False


def _pure(op: ir.Operation) -> bool:
    return not len(op.regions) and op.name.split(".")[0] in _PURE_DIALECTS


def sink_into_run(run_loads: list[ir.Operation], values: list[ir.Value], run: ir.Operation) -> None:
    """Move the ops that only `run` (a store's branch for `values`) needs to just before it."""
    blocks = _enclosing_blocks(run)
    found: list[ir.Operation] = []
    stack = [_producer(v) for v in values]
    while stack:
        op = stack.pop()
        if op is None or op in found or op.block not in blocks:
            continue
        if not (op in run_loads or _pure(op)):
            continue
        found.append(op)
        stack.extend(_producer(v) for v in op.operands)
    moving = _used_only_by(found, run)
    for op in _in_program_order(moving):
        op.move_before(run)


def _producer(value: ir.Value) -> ir.Operation | None:
    owner = value.owner
    return None if isinstance(owner, ir.Block) else owner.operation


def _enclosing_blocks(op: ir.Operation) -> list[ir.Block]:
    blocks = []
    while op is not None:
        blocks.append(op.block)
        op = op.parent.operation if op.parent is not None and not is_op(op.parent, gpu.GPUFuncOp) else None
    return blocks


def _inside(op: ir.Operation, container: ir.Operation) -> bool:
    while op is not None:
        if op == container:
            return True
        op = op.parent.operation if op.parent is not None else None
    return False


def _used_only_by(ops: list[ir.Operation], run: ir.Operation) -> list[ir.Operation]:
    """The largest part of `ops` whose results are used only inside that part or inside `run`."""
    kept = list(ops)
    changed = True
    while changed:
        changed = False
        for op in list(kept):
            users = [use.owner.operation for result in op.results for use in result.uses]
            if any(u not in kept and not _inside(u, run) for u in users):
                kept.remove(op)
                changed = True
    return kept


def _in_program_order(ops: list[ir.Operation]) -> list[ir.Operation]:
    """`ops` with every op after the ops it uses."""
    ordered: list[ir.Operation] = []

    def place(op: ir.Operation) -> None:
        if op in ordered:
            return
        for value in op.operands:
            producer = _producer(value)
            if producer is not None and producer in ops:
                place(producer)
        ordered.append(op)

    for op in ops:
        place(op)
    return ordered

