"""Tile debugging: `tile.print` becomes one `simt.printf` (CUDA's vprintf) executed by thread 0 of the block,
so a tile block prints its line once, as its single-threaded semantics say (every thread holds the same
block-uniform scalars, so thread 0's arguments are the block's)."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.dialects import tile as T
from oxide.passes.conversion.tile_to_simt.context import TileLowering
from oxide.passes.conversion.tile_to_simt.rules import lowering


@lowering(T.PrintOp)
def lower_print(ctx: TileLowering, op: T.PrintOp) -> None:
    """`if tid == 0 { vprintf(format, args) }`."""
    groups = [[ctx.scalar(v) for v in group] for group in (op.ints32, op.ints64, op.floats)]
    attrs = op.operation.attributes
    first = arith.cmpi(arith.CmpIPredicate.eq, ctx.tid, ctx.i32(0))
    branch = scf.IfOp(first, [])
    with ir.InsertionPoint(branch.then_block):
        simt.PrintfOp.build(*groups, format=ir.StringAttr(attrs["format"]).value,
                            order=ir.StringAttr(attrs["order"]).value, results=[ir.IntegerType.get_signless(32)])
        scf.YieldOp([])
