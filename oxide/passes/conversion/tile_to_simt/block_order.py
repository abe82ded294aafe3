"""The order in which a flash-attention kernel's tile blocks take their tiles.

The hardware starts a grid's blocks in the order of their linear index `bx + gx * (by + gy * bz)`, x fastest.
An attention kernel's grid is (batch x heads, query blocks) (docs/tile-attention.md), so the blocks that run at
the same time are the same query block of about as many different heads as the chip holds blocks, and every
one of them reads its own head's keys and values: at B=4 H=32 S=4096 D=128 each query block re-reads 2 MiB of
K and V per head from DRAM, 8.6 GB per run. Reading the same linear index with y fastest instead gives the
blocks that run together the query blocks of one head, whose K and V then come from L2.

Within a head the query blocks go last first. A causal kernel's block for query block y walks about y + 1 key
blocks, so in the source's order the longest blocks of the last heads start last and run alone at the end of
the grid (the tail); last first, the longest blocks start first and the short ones fill the tail. A non-causal
kernel's blocks are the same length, and the order among them changes nothing.

The remap is a bijection of the grid onto itself, so every tile is still taken by exactly one block and a block
stores only its own tile; only the order changes.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.passes.conversion.tile_to_simt.context import TileLowering


def head_major(ctx: TileLowering) -> list[ir.Value]:
    """The tile ids (x, y, z) of this block with the grid's y fastest, last first, within each z plane: with
    l = bx + gx * by (below gx * gy), y = gy - 1 - l % gy and x = l / gy; z stays bz."""
    bx, by, bz, gx, gy = (op.build(dim=simt.DimAttr.get(axis)) for op, axis in
                          ((simt.BlockIdOp, "x"), (simt.BlockIdOp, "y"), (simt.BlockIdOp, "z"),
                           (simt.GridDimOp, "x"), (simt.GridDimOp, "y")))
    linear = arith.addi(bx, arith.muli(gx, by))
    last = arith.subi(gy, arith.constant(ir.IntegerType.get_signless(32), 1))
    return [arith.divui(linear, gy), arith.subi(last, arith.remui(linear, gy)), bz]
