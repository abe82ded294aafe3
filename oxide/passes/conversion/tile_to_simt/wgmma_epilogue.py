"""The TMA-store epilogue of a specialized sm_90a GEMM (docs/tile-hopper.md, "The epilogue"): the consumer warps
write the accumulator, converted to the output type, into a 128-byte-swizzled staging box in shared memory, one
128-byte column slice of the tile at a time, and one thread stores each slice with a TMA store, which clips at
the tensor's edges. Two boxes where shared memory allows: a slice is written while the previous one's store
still reads the other box. The stores run asynchronously: in a persistent kernel they overlap the next tile's K loop.

Chosen by wgmma_plan (`GemmPlan.out_map`) when all the kernel does after the loop is `z.store(acc)` or
`z.store(convert(acc))`; the epilogue then replaces those ops.

Which element each register holds is the accumulator's layout (`GemmPlan.layout`, the wgmma D fragment): per
64-row block of its warpgroup, a thread holds rows 16 w + lane / 4 (+ 8) and, per 8-column chunk, columns
2 (lane % 4) + {0, 1}. In the box (rows of 128 bytes, the 16-byte chunk c of row r at c ^ (r % 8)), a warp's
stores of one register pair fall in eight different 16-byte chunks of eight rows: no bank conflicts, and the
same swizzle the TMA store undoes.
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
    GemmPlan,
)


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

    def store(self, regs: list[ir.Value], origin: tuple[ir.Value, ...]) -> None:
        """Store this consumer thread's accumulator `regs` (the wgmma layout) to the output tile at `origin`
        (row, column, i32; a batched GEMM's output: batch, row, column), one column slice of the box's width at a
        time."""
        ctx, plan = self.ctx, self.plan
        (rows, columns), _ = plan.layout.thread_base(ctx, ctx.tid)
        # Every row this thread writes is `rows` plus a multiple of 8 (register bits give rows 8 and up): its
        # swizzle key is rows % 8. Its columns are `columns` (below 8) plus a register's column offset.
        key = arith.andi(rows, ctx.i32(7))
        column_byte = arith.muli(columns, ctx.i32(self.size))
        issuer = arith.cmpi(arith.CmpIPredicate.eq, ctx.tid, ctx.i32(0))
        width = SWIZZLE_ROW_BYTES // self.size
        boxes = plan.epilogue_boxes
        for chunk in range(plan.bn // width):
            box = self.box(chunk % boxes)
            # The TMA store that last read this box (`boxes` slices ago) must be done reading it.
            with only_if(issuer):
                simt.BulkWaitGroupOp(pending=boxes - 1, until="read")
            ctx.barrier()
            self._write_slice(box, regs, chunk, rows, key, column_byte)
            # The box was written by ordinary stores; the TMA unit (the async proxy) reads it.
            simt.FenceProxyAsyncOp.build(space="shared_cta")
            ctx.barrier()
            with only_if(issuer):
                column = arith.addi(origin[-1], ctx.i32(chunk * width))
                simt.TmaStoreOp(self.out_map, box, [column, *reversed(origin[:-1])])
                simt.BulkCommitGroupOp()
        with only_if(issuer):
            simt.BulkWaitGroupOp(pending=0, until="read")

    def _write_slice(self, box: ir.Value, regs: list[ir.Value], chunk: int, rows: ir.Value, key: ir.Value,
                     column_byte: ir.Value) -> None:
        """This thread's elements of column slice `chunk` into the swizzled box, by the layout's register
        coordinates; registers 2i and 2i + 1 are adjacent columns (register bit 0 is column bit 0), so the
        second of a pair is the element after the first's."""
        ctx, layout = self.ctx, self.plan.layout
        width = SWIZZLE_ROW_BYTES // self.size
        for j in range(0, layout.per_thread, 2):
            row_offset, column = layout.register_coords(j)
            if column // width != chunk:
                continue
            byte = arith.addi(column_byte, ctx.i32(column % width * self.size))
            swizzled = arith.addi(arith.shli(arith.xori(arith.shrui(byte, ctx.i32(4)), key), ctx.i32(4)),
                                  arith.andi(byte, ctx.i32(15)))
            row = arith.addi(rows, ctx.i32(row_offset))
            first = arith.divui(arith.addi(arith.muli(row, ctx.i32(SWIZZLE_ROW_BYTES)), swizzled), ctx.i32(self.size))
            for e in (0, 1):
                index = first if e == 0 else arith.addi(first, ctx.i32(1))
                simt.PtrStoreOp(simt.PtrOffsetOp.build(box, ctx.index(index)), self._converted(regs[j + e]))

    def _converted(self, value: ir.Value) -> ir.Value:
        if self.elem == "f32":
            return value
        return arith.truncf(ir.BF16Type.get() if self.elem == "bf16" else ir.F16Type.get(), value)
