"""tile-prefetch-loads: software pipelining of the tile loads of a loop, one iteration ahead.

In a K loop such as a GEMM's, every iteration loads its a and b tiles and then multiplies them; lowered
as it is, each iteration waits for its global loads before the Tensor Cores can start. This pass loads the
first iteration's tiles before the loop and, in each iteration, the next iteration's tiles first, carried
to it as loop arguments: the loads of iteration k + 1 are in flight while iteration k computes.

A `tile.load` in a loop body is prefetched when its partition is defined outside the loop and its indices
are computed from the induction variable and loop-invariant values by side-effect-free ops (`arith`, block
ids, dims, tile counts). The load one step past the last iteration reads a tile index past the tensor's
edge, which tile.load defines as zeros (never a fault), so no guard is needed. Loads of `&Tensor` inputs
never see the loop's own writes (outputs are disjoint from inputs, checked at launch); a loop with
pointer atomics (which may write anywhere) is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import tile
from oxide.ir.rules import OpSet, is_op, ops_of
from oxide.ir.walk import walk
from oxide.passes.base import OxidePass
from oxide.passes.registry import register_pass

# Ops an index may be computed with: no side effects, so they can be computed again for the next iteration.
_PURE = OpSet(*ops_of(arith), tile.BlockIdOp, tile.NumBlocksOp, tile.DimOp, tile.NumTilesOp)


def _operation(op: ir.Operation | ir.OpView | None) -> ir.Operation | None:
    return op.operation if isinstance(op, ir.OpView) else op


def _inside(value: ir.Value, loop: ir.Operation) -> bool:
    """Whether `value` is defined inside `loop` (a block argument of its body or an op nested in it)."""
    owner = value.owner
    op = _operation(owner.owner if isinstance(owner, ir.Block) else owner)
    while op is not None:
        if op == loop:
            return True
        op = _operation(op.parent)
    return False


def _index_slice(value: ir.Value, loop: ir.Operation, body: ir.Block, order: dict[ir.Operation, int],
                 found: dict[ir.Operation, int]) -> bool:
    """Collect into `found` the body ops computing `value` from the induction variable and loop-invariant
    values; False when something else is involved."""
    if not _inside(value, loop):
        return True
    if isinstance(value.owner, ir.Block):
        return value.owner == body and ir.BlockArgument(value).arg_number == 0
    op = _operation(value.owner)
    pure = op in _PURE
    if op not in order or not pure or len(op.regions):
        return False
    if op in found:
        return True
    found[op] = order[op]
    return all(_index_slice(operand, loop, body, order, found) for operand in op.operands)


def _has_atomics(loop: ir.Operation) -> bool:
    seen = False

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal seen
        if is_op(op, tile.AtomicRmwOp):
            seen = True
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    walk(loop, visit, ir.WalkOrder.PRE_ORDER)
    return seen


def _clone(ops: list[ir.Operation], mapping: dict[ir.Value, ir.Value], at: ir.InsertionPoint) -> None:
    """Clone `ops` (in order) at `at`, their operands mapped through `mapping`, which learns their results."""
    for op in ops:
        new = op.clone(ip=at)
        for i, operand in enumerate(op.operands):
            if operand in mapping:
                new.operands[i] = mapping[operand]
        for old, fresh in zip(op.results, new.results):
            mapping[old] = fresh


def prefetch_loop(loop: ir.Operation) -> bool:
    """Prefetch the loop's eligible loads one iteration ahead; False (the loop unchanged) when none is."""
    loop = _operation(loop)
    body = loop.regions[0].blocks[0]
    order = {op.operation: k for k, op in enumerate(body.operations)}
    loads: list[ir.Operation] = []
    slice_ops: dict[ir.Operation, int] = {}
    for op in order:
        if not is_op(op, tile.LoadOp) or _inside(op.operands[0], loop):
            continue
        found: dict[ir.Operation, int] = {}
        if all(_index_slice(index, loop, body, order, found) for index in list(op.operands)[1:]):
            loads.append(op)
            slice_ops.update(found)
    if not loads or _has_atomics(loop):
        return False
    index_ops = sorted(slice_ops, key=slice_ops.__getitem__)
    lower, upper, step = list(loop.operands)[:3]
    inits = list(loop.operands)[3:]
    iv = body.arguments[0]
    with loop.location:
        # The first iteration's tiles, before the loop.
        before = ir.InsertionPoint(loop)
        mapping: dict[ir.Value, ir.Value] = {iv: lower}
        _clone(index_ops + loads, mapping, before)
        first = [mapping[load.result] for load in loads]
        new_loop = scf.ForOp(lower, upper, step, inits + first, ip=before)
        new_body = new_loop.body
        new_iv = new_body.arguments[0]
        carried = list(new_body.arguments)[1:1 + len(inits)]
        current = list(new_body.arguments)[1 + len(inits):]
        # The next iteration's tiles, first thing in the body.
        with ir.InsertionPoint(new_body):
            next_iv = arith.addi(new_iv, step)
            anchor = scf.YieldOp([])
        mapping = {iv: next_iv}
        _clone(index_ops + loads, mapping, ir.InsertionPoint(anchor))
        following = [mapping[load.result] for load in loads]
        iv.replace_all_uses_with(new_iv)
        for old, new in zip(list(body.arguments)[1:], carried):
            old.replace_all_uses_with(new)
        for load, value in zip(loads, current):
            load.result.replace_all_uses_with(value)
        old_yield = list(body.operations)[-1]
        for op in [o.operation for o in body.operations][:-1]:
            if op in loads:
                op.erase()
            else:
                op.move_before(anchor)
        with ir.InsertionPoint(anchor):
            scf.YieldOp(list(old_yield.operands) + following)
        anchor.erase()
        # The body's own index computations now serve nothing if only the loads used them.
        for op in reversed(index_ops):
            if not any(list(result.uses) for result in op.results):
                op.erase()
        for old, new in zip(loop.results, new_loop.results):
            old.replace_all_uses_with(new)
    loop.erase()
    return True


@register_pass
@dataclass(frozen=True)
class TilePrefetchLoads(OxidePass):
    """Load each loop's tiles one iteration ahead (software pipelining of tile.load)."""

    name = "tile-prefetch-loads"

    def run(self, module: ir.Operation) -> None:
        loops: list[ir.Operation] = []

        def collect(op: ir.Operation) -> ir.WalkResult:
            if is_op(op, scf.ForOp):
                loops.append(op)
            return ir.WalkResult.ADVANCE

        # Post-order: inner loops first, so an outer loop sees the inner loop's prologue loads.
        walk(module, collect, ir.WalkOrder.POST_ORDER)
        for loop in loops:
            prefetch_loop(loop)
