"""Thread-block clusters in the persistent sm_90a GEMM (docs/tile-hopper.md, "Clusters"): a cluster of CM x CN
blocks computes CM x CN neighbouring output tiles at a time, and the blocks that share an operand tile load it
once between them, each one slice by TMA multicast into the shared memory of all of them.

The cluster is (CM * CN, 1, 1) blocks of the persistent kernel's one-dimensional grid, so a block's rank in its
cluster is blockIdx.x % (CM * CN); rank r computes the tile (r % CM, r / CM) of the cluster's CM x CN tiles.
Blocks with the same r / CM (one tile column) share B: each loads 1 / CM of every B box (its rows), multicast to
the CM of them; blocks with the same r % CM (one tile row) share A the same way (1 / CN of the A box's rows).
Every slice is a whole number of 8-row swizzle atoms, so the 128-byte swizzle of the slices is the whole box's.

A stage of block X is written by X and by its peers (the blocks of its tile row and column), so a peer may
refill it only after X's consumers released it: each consumer warp arrives on the `empty` barrier of every block
that writes into it, itself included (a remote arrive through the cluster's shared-memory window, released at
CTA scope: see `release`), and `empty` expects warps x (CM + CN - 1) arrivals. `full` is unchanged: its own
producer's expect_tx of the whole stage's bytes, which the copies of all the peers complete. A cluster barrier after the barriers' initialisation keeps a
peer from arriving on, or copying into, a block whose barriers are not initialised yet, and one at the end keeps
a block alive while a peer may still arrive on its barriers.
"""

from __future__ import annotations

from collections.abc import Callable

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.dialects.simt.inline_ptx import build_inline_ptx
from oxide.passes.conversion.tile_to_simt.context import TileLowering
from oxide.passes.conversion.tile_to_simt.wgmma_plan import GemmPlan, TileOrigin

# The 32-bit shared-window offset of a generic address (cuda_device's `cvta_generic_to_shared_offset`): what a
# remote mbarrier arrive takes as the barrier's shared::cluster address after `mapa`.
CVTA_TO_SHARED = ("cvta.to.shared.u64 $0, $1;", "=l,l")


class ClusterPlace:
    """This block's place in its cluster, computed once at the kernel's start: its rank, its tile's row and
    column in the cluster's tiles, the multicast masks of its A and B slices, and the ranks that write into it."""

    def __init__(self, ctx: TileLowering, plan: GemmPlan):
        self.ctx, self.plan = ctx, plan
        cm, cn = plan.cluster
        block = simt.BlockIdOp.build(dim=simt.DimAttr.get("x"))
        self.rank = arith.remui(block, ctx.i32(cm * cn))
        self.m, self.n = arith.remui(self.rank, ctx.i32(cm)), arith.divui(self.rank, ctx.i32(cm))
        # A goes to the blocks of this tile row (ranks m + CM j), B to those of this tile column (CM n + i); an
        # operand no other block shares is a plain copy (no mask).
        row_bits = sum(1 << (cm * j) for j in range(cn))
        self.a_mask = _i16(arith.shli(ctx.i32(row_bits), self.m)) if cn > 1 else None
        self.b_mask = _i16(arith.shli(ctx.i32((1 << cm) - 1), arith.muli(self.n, ctx.i32(cm)))) if cm > 1 else None
        # The blocks whose copies land in this block's stages (and whose stages this block's copies land in):
        # its tile row, then the rest of its tile column.
        self.peers = [arith.addi(self.m, ctx.i32(cm * j)) for j in range(cn)]
        for i in range(1, cm):
            other = arith.remui(arith.addi(self.m, ctx.i32(i)), ctx.i32(cm))
            self.peers.append(arith.addi(other, arith.muli(self.n, ctx.i32(cm))))

    @property
    def writers(self) -> int:
        """How many blocks write into each stage of this block (CM + CN - 1)."""
        return len(self.peers)

    def sync(self) -> None:
        """A cluster barrier of every thread of every block (release and acquire)."""
        simt.ClusterArriveOp.build(relaxed=False, aligned=False)
        simt.ClusterWaitOp.build(aligned=False)

    def release(self, empty: ir.Value) -> None:
        """Arrive on the `empty` barrier at this address in every writer's shared memory.

        The release is at CTA scope: what the consumers did to the stage was read it through wgmma, completed by
        their wgmma wait, and the writers' TMA copies read nothing the consumers wrote. A cluster-scope release
        fences every earlier access of the warp cluster-wide at each arrival; measured on an H200, those
        fences took most of the clustered fp8 GEMM's time (0.43x the kernel without a cluster)."""
        for rank in self.peers:
            mapped = simt.MapSharedRankOp.build(empty, rank, results=[ir.Type.parse("!simt.ptr<i64, 7>")])
            generic = simt.PtrToIntOp.build(mapped)
            address = build_inline_ptx([generic], *CVTA_TO_SHARED, [ir.IntegerType.get_signless(64)])[0]
            simt.MbarrierArriveClusterOp.build(address, scope="cta")

    def fill(self, maps: tuple[ir.Value, ir.Value], full: ir.Value, stage_at: Callable[[int], ir.Value],
             k0: ir.Value, origin: TileOrigin) -> None:
        """This block's slices of the K tile that starts at element `k0`, of its A rows and B columns, into a
        stage (`stage_at(e)`: the pointer e elements into it) of every block that shares them, completing
        `full` there: Ring.fill's boxes, each cut into CN (A) or CM (B) slices of rows."""
        ctx, plan = self.ctx, self.plan
        row, col = origin.row, origin.col
        a_at = arith.muli(self.n, ctx.i32(plan.a_map.rows))
        b_at = arith.muli(self.m, ctx.i32(plan.b_map.rows))
        a_mask, b_mask = self.a_mask, self.b_mask
        for box in range(plan.bk // plan.row):
            k = k0 if box == 0 else arith.addi(k0, ctx.i32(box * plan.row))
            dst = self._slice(stage_at(box * plan.bm * plan.row), a_at, plan.row)
            simt.TmaLoadOp(dst, maps[0], origin.a(k, arith.addi(row, a_at)), full, a_mask)
            if plan.b_kmajor:
                dst = self._slice(stage_at(plan.a_elems + box * plan.bn * plan.row), b_at, plan.row)
                simt.TmaLoadOp(dst, maps[1], origin.b(k, arith.addi(col, b_at)), full, b_mask)
        if not plan.b_kmajor:
            width = plan.b_map.width
            for box in range(plan.bn // width):
                dst = self._slice(stage_at(plan.a_elems + box * width * width), b_at, width)
                column = col if box == 0 else arith.addi(col, ctx.i32(box * width))
                simt.TmaLoadOp(dst, maps[1], origin.b(column, arith.addi(k0, b_at)), full, b_mask)

    def _slice(self, box: ir.Value, first_row: ir.Value, row_elems: int) -> ir.Value:
        """The pointer to row `first_row` of a box whose rows are `row_elems` elements."""
        return simt.PtrOffsetOp.build(box, self.ctx.index(arith.muli(first_row, self.ctx.i32(row_elems))))


def _i16(value: ir.Value) -> ir.Value:
    return arith.trunci(ir.IntegerType.get_signless(16), value)
