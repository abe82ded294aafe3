"""The persistent walk of a GEMM on a mapped output (docs/tile-hopper.md, "Persistent GEMM on a mapped output"):
the kernel's own `for idx in z.iter_indices()` loops (gemm_pattern.mapped_walk) re-emitted around one role's
part of each output tile, with the pipeline's step counter carried through them.

The walk the mapped partition prescribes is already a persistent one (block b takes work items b, b + B, ...,
and each item's tiles in order), so the TMA + wgmma kernel follows it instead of its own tile scheduler: the
producer and the consumers each run the same loops, over the same scalars, so they visit the same tiles in the
same order, and the stores stay at the indices the block's loop minted (the disjointness of mapped partitions).
"""

from __future__ import annotations

from collections.abc import Callable

from mlir import ir
from mlir.dialects import scf

from oxide.passes.conversion.tile_to_simt.context import TileLowering
from oxide.passes.conversion.tile_to_simt.gemm_pattern import body_ops, mapped_walk

EmitOp = Callable[[TileLowering, ir.Operation], None]
# One role's part of one tile: given the tile body's ops and the first pipeline step, emit it; the next step.
EmitTile = Callable[[list[ir.Operation], ir.Value], ir.Value]


def emit_mapped_walk(ctx: TileLowering, ops: list[ir.Operation], loop: ir.Operation, emit_op: EmitOp,
                     emit_tile: EmitTile) -> None:
    """Emit the kernel's top-level `ops` (without the terminator) for one role, whose mapped walk holds the GEMM K
    loop `loop`: the ops before the walk, then its loops, and in the innermost body `emit_tile`."""
    walk = mapped_walk(loop)
    assert walk is not None  # the plan was made from this match
    _level(ctx, ops, walk.loops, ctx.i32(0), emit_op, emit_tile)


def _level(ctx: TileLowering, ops: list[ir.Operation], loops: list[ir.Operation], step: ir.Value,
           emit_op: EmitOp, emit_tile: EmitTile) -> ir.Value:
    """The ops of one level of the walk: those before its loop (on every role: they write nothing, which the plan
    checked), and the loop, re-created with the pipeline step carried; the step after it."""
    if not loops:
        return emit_tile(ops, step)
    loop, at = loops[0], ops.index(loops[0])
    for op in ops[:at]:
        emit_op(ctx, op)
    lower, upper, by = (ctx.scalar(v) for v in list(loop.operands)[:3])
    walked = scf.ForOp(lower, upper, by, [step])
    with ir.InsertionPoint(walked.body):
        ctx.bind(loop.regions[0].blocks[0].arguments[0], walked.induction_variable)
        ctx.loop_depth += 1  # scratch memory is reused from tile to tile: barriers before rewriting it
        try:
            after = _level(ctx, body_ops(loop), loops[1:], walked.inner_iter_args[0], emit_op, emit_tile)
        finally:
            ctx.loop_depth -= 1
        scf.YieldOp([after])
    return walked.results[0]
