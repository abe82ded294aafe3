"""The TMA-store epilogue of a specialized sm_90a GEMM (docs/tile-hopper.md, "The epilogue"): the consumer warps
write the accumulator, converted to the output type, into a 128-byte-swizzled staging box in shared memory, one
128-byte column slice of the tile at a time, and one thread stores each slice with a TMA store, which clips at
the tensor's edges. Two boxes where shared memory allows: a slice is written while the previous one's store
still reads the other box. The stores run asynchronously: in a persistent kernel they overlap the next tile's K loop.

Chosen by wgmma_plan (`GemmPlan.out_map`) when all the kernel does after the loop is `z.store(acc)` or
`z.store(convert(acc))`; the epilogue then replaces those ops.

Each thread holds, per 64-row block b of its warpgroup, the wgmma D fragment: rows r = 16 w + lane / 4 (+ 8 h),
columns 8 j + 2 (lane % 4) + e, register 4 j + 2 h + e (wgmma_plan.GemmPlan.layout). In the box (rows of 128
bytes, the 16-byte chunk c of row r at c ^ (r % 8)), a warp's stores of one register pair fall in eight
different 16-byte chunks of eight rows: no bank conflicts, and the same swizzle the TMA store undoes.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.passes.conversion.tile_to_simt.context import TileLowering
from oxide.passes.conversion.tile_to_simt.remap import only_if
from oxide.passes.conversion.tile_to_simt.wgmma_plan import (
    OUTPUT_BYTES,
    SWIZZLE_ATOM_BYTES,
    SWIZZLE_ROW_BYTES,
    WGMMA_M,
    GemmPlan,
)

WARP_THREADS = 32
WARPGROUP_WARPS = 4


class Epilogue:
    """The staging box (static shared memory, declared once per kernel) and the stores of one output tile."""

    def __init__(self, ctx: TileLowering, plan: GemmPlan, out_map: ir.Value):
        assert plan.out_map is not None
        self.ctx, self.plan, self.out_map = ctx, plan, out_map
        self.elem = plan.out_map.elem
        self.size = OUTPUT_BYTES[self.elem]
        count = plan.epilogue_bytes // self.size
        array = simt.SharedArrayOp.build(align=SWIZZLE_ATOM_BYTES,
                                         results=[ir.Type.parse(f"!simt.shared<{self.elem}, {count}>")])
        self.boxes = simt.SharedPtrOp.build(array, results=[ir.Type.parse(f"!simt.ptr<{self.elem}, 3>")])
        self.box_elems = count // plan.epilogue_boxes

    def box(self, slot: int) -> ir.Value:
        """Staging box `slot` (slices alternate between the boxes, so that one is written while the other's TMA
        store reads it)."""
        if slot == 0:
            return self.boxes
        return simt.PtrOffsetOp.build(self.boxes, self.ctx.index(self.ctx.i32(slot * self.box_elems)))

    def store(self, regs: list[ir.Value], origin: tuple[ir.Value, ir.Value]) -> None:
        """Store this consumer thread's accumulator `regs` (the wgmma layout) to the output tile at `origin`
        (row, column, i32), one column slice of the box's width at a time."""
        ctx, plan = self.ctx, self.plan
        lane = arith.remui(ctx.tid, ctx.i32(WARP_THREADS))
        warp = arith.divui(ctx.tid, ctx.i32(WARP_THREADS))
        group = arith.divui(warp, ctx.i32(WARPGROUP_WARPS))
        rows = arith.addi(arith.muli(group, ctx.i32(plan.blocks_per_group * WGMMA_M)),
                          arith.addi(arith.muli(arith.remui(warp, ctx.i32(WARPGROUP_WARPS)), ctx.i32(16)),
                                     arith.divui(lane, ctx.i32(4))))
        # Every row this thread writes is `rows` plus a multiple of 8: its swizzle key is lane / 4.
        key = arith.divui(lane, ctx.i32(4))
        pair_byte = arith.muli(arith.remui(lane, ctx.i32(4)), ctx.i32(2 * self.size))
        issuer = arith.cmpi(arith.CmpIPredicate.eq, ctx.tid, ctx.i32(0))
        width = SWIZZLE_ROW_BYTES // self.size
        boxes = plan.epilogue_boxes
        for chunk in range(plan.bn // width):
            box = self.box(chunk % boxes)
            # The TMA store that last read this box (`boxes` slices ago) must be done reading it.
            with only_if(issuer):
                simt.BulkWaitGroupOp(pending=boxes - 1, until="read")
            ctx.barrier()
            self._write_slice(box, regs, chunk, rows, key, pair_byte)
            # The box was written by ordinary stores; the TMA unit (the async proxy) reads it.
            simt.FenceProxyAsyncOp.build(space="shared_cta")
            ctx.barrier()
            with only_if(issuer):
                column = arith.addi(origin[1], ctx.i32(chunk * width))
                simt.TmaStoreOp(self.out_map, box, [column, origin[0]])
                simt.BulkCommitGroupOp()
        with only_if(issuer):
            simt.BulkWaitGroupOp(pending=0, until="read")

    def _write_slice(self, box: ir.Value, regs: list[ir.Value], chunk: int, rows: ir.Value, key: ir.Value,
                     pair_byte: ir.Value) -> None:
        """This thread's elements of column slice `chunk` into the swizzled box, two adjacent columns per store."""
        ctx, plan = self.ctx, self.plan
        width = SWIZZLE_ROW_BYTES // self.size
        per_block = plan.bn // 2
        for block in range(plan.blocks_per_group):
            for j in range(chunk * width // 8, (chunk + 1) * width // 8):
                byte = arith.addi(pair_byte, ctx.i32((j - chunk * width // 8) * 8 * self.size))
                swizzled = arith.addi(arith.shli(arith.xori(arith.shrui(byte, ctx.i32(4)), key), ctx.i32(4)),
                                      arith.andi(byte, ctx.i32(15)))
                for h in (0, 1):
                    row = arith.addi(rows, ctx.i32(block * WGMMA_M + 8 * h))
                    offset = arith.addi(arith.muli(row, ctx.i32(SWIZZLE_ROW_BYTES)), swizzled)
                    first = arith.divui(offset, ctx.i32(self.size))
                    for e in (0, 1):
                        value = self._converted(regs[block * per_block + 4 * j + 2 * h + e])
                        index = first if e == 0 else arith.addi(first, ctx.i32(1))
                        simt.PtrStoreOp(simt.PtrOffsetOp.build(box, ctx.index(index)), value)

    def _converted(self, value: ir.Value) -> ir.Value:
        if self.elem == "f32":
            return value
        return arith.truncf(ir.BF16Type.get() if self.elem == "bf16" else ir.F16Type.get(), value)
