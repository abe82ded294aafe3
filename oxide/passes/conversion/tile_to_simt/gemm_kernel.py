"""The kernel around a matched sm_90a GEMM loop (docs/tile-hopper.md): which warps do what, and which output
tiles a block computes. The loop itself, the ring and the MMAs are wgmma_gemm.py's; the TMA-store epilogue
wgmma_epilogue.py's.

- Specialized (`GemmPlan.specialized`): the block is the consumer warps (the kernel's warps: every tile op is
  lowered for them) plus one producer warpgroup. After the ring is initialised the block splits once: the
  producer warpgroup gives its registers up (setmaxnreg) and one of its threads fills the ring for every tile
  the block computes; the consumers take the registers and, per tile, run the wgmma loop and everything after
  it (the epilogue), synchronising among themselves with a named barrier, since the producer is not at their
  barriers. Each role emits the tile's ops before the loop (block ids, partitions, the accumulator's zero) for
  itself; they write nothing (wgmma_plan checks).
- Persistent (`GemmPlan.persistent`): the grid is at most one block per SM; each role walks the output tiles
  t = blockIdx.x, t + gridDim.x, ... in grouped order (group_m tile rows, then the next columns, so that
  neighbouring blocks share B tiles in L2), and the pipeline's steps continue from tile to tile, so the
  producer fills the next tile's stages while the consumers finish this one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.dialects import tile as T
from oxide.ir.rules import is_op
from oxide.passes.conversion.tile_to_simt.context import TileLowering, ViewValue
from oxide.passes.conversion.tile_to_simt.layouts import TileValue
from oxide.passes.conversion.tile_to_simt.mapped import mapped_origin
from oxide.passes.conversion.tile_to_simt.mapped_gemm import emit_mapped_walk
from oxide.passes.conversion.tile_to_simt.remap import only_if
from oxide.passes.conversion.tile_to_simt.wgmma_epilogue import Epilogue
from oxide.passes.conversion.tile_to_simt.wgmma_gemm import (
    Ring,
    consumer_loop,
    initial_accumulator,
    inline_loop,
    k_tile_count,
    producer_loop,
    tile_origin,
)
from oxide.passes.conversion.tile_to_simt.wgmma_plan import PRODUCER_REGISTERS, GemmPlan

EmitOp = Callable[[TileLowering, ir.Operation], None]
# What a role does with one tile: "consume" (consumer warpgroups), "produce" (the producer thread), "inline"
# (every warp multiplies, thread 0 also fills the ring).
CONSUME, PRODUCE, INLINE = "consume", "produce", "inline"


@dataclass
class _Kernel:
    """One GEMM kernel being emitted: its tile ops (the entry block's, without the terminator), loop, plan."""

    ctx: TileLowering
    entry: ir.Block
    ops: list[ir.Operation]
    loop: ir.Operation
    plan: GemmPlan
    ring: Ring
    epilogue: Epilogue | None
    emit_op: EmitOp


def emit_gemm_kernel(ctx: TileLowering, entry: ir.Block, loop: ir.Operation, plan: GemmPlan,
                     maps: list[ir.Value], emit_op: EmitOp) -> None:
    """Emit the body of tile kernel block `entry`, whose GEMM loop `loop` has `plan`; `maps` are the kernel's
    tensor-map parameters (plan.maps)."""
    ring = Ring(ctx, plan, (maps[0], maps[1]))
    epilogue = Epilogue(ctx, plan, maps[2]) if plan.out_map else None
    ring.init()
    ops = [o.operation for o in entry.operations]
    kernel = _Kernel(ctx, entry, ops[:-1], loop, plan, ring, epilogue, emit_op)
    if not plan.specialized:
        _tiles(kernel, INLINE)
    else:
        consumers = 32 * plan.warps
        branch = scf.IfOp(arith.cmpi(arith.CmpIPredicate.ult, ctx.tid, ctx.i32(consumers)), [], has_else=True)
        with ir.InsertionPoint(branch.then_block):
            if plan.consumer_registers:
                simt.SetMaxNRegOp(regs=plan.consumer_registers, action="inc")
            ctx.barrier_threads, outer = consumers, ctx.barrier_threads
            try:
                _tiles(kernel, CONSUME)
            finally:
                ctx.barrier_threads = outer
            scf.YieldOp([])
        with ir.InsertionPoint(branch.else_block):
            if plan.consumer_registers:
                simt.SetMaxNRegOp(regs=PRODUCER_REGISTERS, action="dec")
            with only_if(arith.cmpi(arith.CmpIPredicate.eq, ctx.tid, ctx.i32(consumers))):
                _tiles(kernel, PRODUCE)
            scf.YieldOp([])
    if ring.cluster:
        ring.cluster.sync()  # no block exits while a peer may still arrive on its barriers
    emit_op(ctx, ops[-1])


def _tiles(kernel: _Kernel, role: str) -> None:
    """One role's work over the block's tiles: its own tile, a persistent kernel's walk over the tile grid, or the
    kernel's own walk over a mapped output (mapped_gemm.py)."""
    if kernel.plan.persistent:
        _persistent(kernel, role)
    elif kernel.loop.block != kernel.entry:
        emit_mapped_walk(kernel.ctx, kernel.ops, kernel.loop, kernel.emit_op,
                         lambda ops, base: _tile(replace(kernel, ops=ops), role, base))
    else:
        _tile(kernel, role, kernel.ctx.i32(0))


def _tile(kernel: _Kernel, role: str, base: ir.Value) -> ir.Value:
    """Emit one role's part of one output tile, the GEMM loop's pipeline steps numbered from `base`; the step
    after them. The ops before the loop are emitted for every role; consumers (and the inline shape) also emit
    the ops after it, or the TMA-store epilogue in their place."""
    ctx, ops, loop, plan = kernel.ctx, kernel.ops, kernel.loop, kernel.plan
    at = ops.index(loop)
    for op in ops[:at]:
        kernel.emit_op(ctx, op)
    origin, k_tiles = tile_origin(ctx, loop, plan), k_tile_count(ctx, loop)
    if role == PRODUCE:
        producer_loop(kernel.ring, origin, base, k_tiles)
        return arith.addi(base, k_tiles)
    acc = list(initial_accumulator(ctx, loop, plan).values)
    regs = consumer_loop(kernel.ring, base, k_tiles, acc) if role == CONSUME else \
        inline_loop(kernel.ring, origin, k_tiles, acc)
    ctx.bind(loop.results[0], TileValue(plan.layout, regs))
    if kernel.epilogue is not None:
        kernel.epilogue.store(regs, _output_origin(ctx, ops[-1]))
    else:
        for op in ops[at + 1:]:
            kernel.emit_op(ctx, op)
    return arith.addi(base, k_tiles)


def _output_origin(ctx: TileLowering, store: ir.Operation) -> tuple[ir.Value, ...]:
    """The first row and column (i32) of the output tile that `store` (the kernel's store_own) writes; a batched
    GEMM's output tile: its batch, first row and column; a mapped output's: its index times the tile shape."""
    if is_op(store, T.MappedStoreOp):
        return mapped_origin(ctx, store)
    view: ViewValue = ctx.lowered(store.operands[0])
    assert view.origin is not None
    return tuple(ctx.to_i32(o) for o in view.origin)


def _persistent(kernel: _Kernel, role: str) -> None:
    """One role's walk over the tile grid: virtual block ids in grouped order, the pipeline's step carried. A
    batched GEMM walks batch x tile rows x tile columns: the batches one after the other (t / tiles per batch),
    the grouped order within each."""
    ctx, plan = kernel.ctx, kernel.plan
    outputs = [ctx.lowered(a) for a in kernel.entry.arguments if T.ViewMutType.isinstance(a.type)]
    first: ViewValue = outputs[0]
    assert first.tile is not None
    lead = 1 if plan.batched else 0  # the batch dimension of a batched output (its tiles are one batch deep)
    rows, cols = (_ceil_div(ctx, ctx.to_i32(first.shape[d]), first.tile[d]) for d in (lead, lead + 1))
    place, (cm, cn) = kernel.ring.cluster, plan.cluster
    # With a cluster, the clusters walk the grid of cluster tiles (CM x CN output tiles each), every block of a
    # cluster in the same order; a block whose tile lies past the output's edge still runs the pipeline its
    # peers share (TMA reads zeros there and the store writes nothing).
    walked = (rows, cols) if place is None else (_ceil_div(ctx, rows, cm), _ceil_div(ctx, cols, cn))
    total = arith.muli(*walked)
    if plan.batched:
        per_batch, batches = total, ctx.to_i32(first.shape[0])
        total = arith.muli(batches, per_batch)
    start = simt.BlockIdOp.build(dim=simt.DimAttr.get("x"))
    step = simt.GridDimOp.build(dim=simt.DimAttr.get("x"))
    if place is not None:
        blocks = ctx.i32(plan.cluster_blocks)
        start, step = arith.divui(start, blocks), arith.divui(step, blocks)
    tiles = scf.ForOp(start, total, step, [ctx.i32(0)])
    with ir.InsertionPoint(tiles.body):
        t = tiles.induction_variable
        if plan.batched:
            batch, t = arith.divui(t, per_batch), arith.remui(t, per_batch)
        m, n = _grouped(ctx, t, *walked, max(1, plan.group_m // cm))
        if place is not None:
            m, n = arith.addi(arith.muli(m, ctx.i32(cm)), place.m), arith.addi(arith.muli(n, ctx.i32(cn)), place.n)
        ids = [batch, m, n] if plan.batched else [m, n]
        ctx.block_ids = ids if plan.batched else [m, n, ctx.i32(0)]
        ctx.grid_dims = [batches, rows, cols] if plan.batched else [rows, cols, ctx.i32(1)]
        for view in outputs:
            assert view.tile is not None
            view.origin = [arith.muli(ctx.to_i64(i), ctx.i64(extent)) for i, extent in zip(ids, view.tile)]
        ctx.loop_depth += 1  # scratch memory is reused from tile to tile: barriers before rewriting it
        try:
            after = _tile(kernel, role, tiles.inner_iter_args[0])
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

