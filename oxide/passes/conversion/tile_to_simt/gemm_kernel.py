"""The kernel around a matched sm_90a GEMM loop (docs/tile-hopper.md): which warps do what, and which output
tiles a block computes. The loop itself, the ring and the MMAs are wgmma_gemm.py's.

- Specialized (`GemmPlan.specialized`): the block is the consumer warps (the kernel's warps: every tile op is
  lowered for them) plus one producer warpgroup. At the GEMM loop the block splits: the producer warpgroup
  gives its registers up (setmaxnreg) and one of its threads issues the TMA copies; the consumers take the
  registers, run the wgmma loop and everything after it (the epilogue), and synchronise among themselves
  with a named barrier, since the producer is not at their barriers. The ops before the loop (block ids,
  partitions, the accumulator's zero) run on every thread and write nothing (wgmma_plan checks).
- Persistent (`GemmPlan.persistent`): the grid is at most one block per SM; each block walks the output
  tiles t = blockIdx.x, t + gridDim.x, ... in grouped order (group_m tile rows, then the next columns, so
  that neighbouring blocks share B tiles in L2), and the pipeline's steps continue from tile to tile, so the
  producer fills the next tile's stages while the consumers finish this one.
"""

from __future__ import annotations

from collections.abc import Callable

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.dialects import tile as T
from oxide.passes.conversion.tile_to_simt.context import TileLowering, ViewValue
from oxide.passes.conversion.tile_to_simt.layouts import TileValue
from oxide.passes.conversion.tile_to_simt.remap import only_if
from oxide.passes.conversion.tile_to_simt.wgmma_gemm import Ring, consumer_loop, inline_loop, loop_operands, producer_loop
from oxide.passes.conversion.tile_to_simt.wgmma_plan import PRODUCER_REGISTERS, GemmPlan

EmitOp = Callable[[TileLowering, ir.Operation], None]


def emit_gemm_kernel(ctx: TileLowering, entry: ir.Block, loop: ir.Operation, plan: GemmPlan,
                     maps: tuple[ir.Value, ir.Value], emit_op: EmitOp) -> None:
    """Emit the body of tile kernel block `entry`, whose GEMM loop `loop` has `plan`."""
    ring = Ring(ctx, plan, maps)
    ring.init()
    ops = [o.operation for o in entry.operations]
    body, terminator = ops[:-1], ops[-1]
    if plan.persistent:
        _persistent(ctx, entry, body, loop, plan, ring, emit_op)
    else:
        _emit_tile(ctx, body, loop, plan, ring, ctx.i32(0), emit_op)
    emit_op(ctx, terminator)


def _emit_tile(ctx: TileLowering, ops: list[ir.Operation], loop: ir.Operation, plan: GemmPlan, ring: Ring,
               base: ir.Value, emit_op: EmitOp) -> ir.Value:
    """Emit one output tile's ops, the GEMM loop's pipeline steps numbered from `base`; the step after them."""
    at = ops.index(loop)
    for op in ops[:at]:
        emit_op(ctx, op)
    origin, k_tiles, acc = loop_operands(ctx, loop, plan)
    if not plan.specialized:
        ctx.bind(loop.results[0], TileValue(plan.layout, inline_loop(ring, origin, k_tiles, list(acc.values))))
        for op in ops[at + 1:]:
            emit_op(ctx, op)
        return arith.addi(base, k_tiles)
    consumers = 32 * plan.warps
    branch = scf.IfOp(arith.cmpi(arith.CmpIPredicate.ult, ctx.tid, ctx.i32(consumers)), [], has_else=True)
    with ir.InsertionPoint(branch.then_block):
        if plan.consumer_registers:
            simt.SetMaxNRegOp(regs=plan.consumer_registers, action="inc")
        ctx.bind(loop.results[0], TileValue(plan.layout, consumer_loop(ring, base, k_tiles, list(acc.values))))
        ctx.barrier_threads, outer = consumers, ctx.barrier_threads
        try:
            for op in ops[at + 1:]:
                emit_op(ctx, op)
        finally:
            ctx.barrier_threads = outer
        scf.YieldOp([])
    with ir.InsertionPoint(branch.else_block):
        if plan.consumer_registers:
            simt.SetMaxNRegOp(regs=PRODUCER_REGISTERS, action="dec")
        with only_if(arith.cmpi(arith.CmpIPredicate.eq, ctx.tid, ctx.i32(consumers))):
            producer_loop(ring, origin, base, k_tiles)
        scf.YieldOp([])
    return arith.addi(base, k_tiles)


def _persistent(ctx: TileLowering, entry: ir.Block, ops: list[ir.Operation], loop: ir.Operation, plan: GemmPlan,
                ring: Ring, emit_op: EmitOp) -> None:
    """The tile loop of a persistent kernel: virtual block ids in grouped order, the pipeline's step carried."""
    outputs = [ctx.lowered(a) for a in entry.arguments if T.ViewMutType.isinstance(a.type)]
    first: ViewValue = outputs[0]
    assert first.tile is not None
    rows, cols = (_ceil_div(ctx, _to_i32(ctx, first.shape[d]), first.tile[d]) for d in range(2))
    total = arith.muli(rows, cols)
    start = simt.BlockIdOp.build(dim=simt.DimAttr.get("x"))
    step = simt.GridDimOp.build(dim=simt.DimAttr.get("x"))
    tiles = scf.ForOp(start, total, step, [ctx.i32(0)])
    with ir.InsertionPoint(tiles.body):
        m, n = _grouped(ctx, tiles.induction_variable, rows, cols, plan.group_m)
        ctx.block_ids, ctx.grid_dims = [m, n, ctx.i32(0)], [rows, cols, ctx.i32(1)]
        for view in outputs:
            assert view.tile is not None
            view.origin = [arith.muli(ctx.to_i64(i), ctx.i64(extent)) for i, extent in zip((m, n), view.tile)]
        ctx.loop_depth += 1  # scratch memory is reused from tile to tile: barriers before rewriting it
        try:
            after = _emit_tile(ctx, ops, loop, plan, ring, tiles.inner_iter_args[0], emit_op)
        finally:
            ctx.loop_depth -= 1
            ctx.block_ids = ctx.grid_dims = None
        scf.YieldOp([after])


def _grouped(ctx: TileLowering, t: ir.Value, rows: ir.Value, cols: ir.Value, group_m: int) -> tuple[ir.Value, ir.Value]:
    """Tile `t`'s (row, column) in grouped order: group_m rows of one column, then the next column, and after
    every column the next group of rows (the last group may be shorter)."""
    width = arith.muli(ctx.i32(group_m), cols)
    first_row = arith.muli(arith.divui(t, width), ctx.i32(group_m))
    height = arith.minui(arith.subi(rows, first_row), ctx.i32(group_m))
    within = arith.remui(t, width)
    return arith.addi(first_row, arith.remui(within, height)), arith.divui(within, height)


def _ceil_div(ctx: TileLowering, value: ir.Value, by: int) -> ir.Value:
    return arith.divui(arith.addi(value, ctx.i32(by - 1)), ctx.i32(by))


def _to_i32(ctx: TileLowering, value: ir.Value) -> ir.Value:
    return value if str(value.type) == "i32" else arith.trunci(ir.IntegerType.get_signless(32), value)
