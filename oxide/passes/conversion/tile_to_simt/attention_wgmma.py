"""The two products of a flash-attention loop on sm_90a (attention_pattern.py) as wgmma: B from shared memory,
A from shared memory (the scores' `q`) or from registers (the values' `p`).

Each shared operand is staged by the threads that hold it into its own 128-byte-swizzled shared buffer (1024-byte
aligned: the swizzle repeats every 8 rows of 128 bytes), laid out as TMA would have written it, so that wgmma's
matrix descriptors read it as they read the GEMM's ring (docs/tile-hopper.md):

- `q` [BM, D], K-major (rows of D in boxes of 64 columns): staged once, before the loop (it is invariant);
- `k` (the scores' B, `kt` [D, BN]): K-major, BN rows of D, the wgmma reads it without the transpose bit;
- `v` [BN, D]: MN-major (rows of D along K), read with the transpose bit.

The offset of element (row, col) in such a buffer is `(col / 64) * rows * 64 + row * 64 + (((col / 8) % 8) ^
(row % 8)) * 8 + col % 8` elements, a linear map over GF(2) of the coordinate bits: a thread's offset is its
thread-id part XOR its register part (a constant), and a run of registers along `col` is one vector store.

`p` [BM, BN] is the values MMAs' A in registers (`wgmma_mma_async_reg_a`): in the scores' accumulator layout a
thread's registers 8kk..8kk+7 of a 64-row block hold exactly the A fragment of K step kk (rows 16w + lane/4
(+8), columns 16kk + 2 (lane % 4) + {0, 1} (+8)), so rounding the scores is all the staging `p` needs.

Where the kernel's loads allow it, q, k and v arrive by TMA instead (attention_tma.py, which reuses the buffers,
`register_a` and `issue`); what follows is the staging by the threads, the path of every other such loop.

Synchronisation (one block barrier per product): each thread's stores, `fence.proxy.async` (the generic
stores before the async proxy's wgmma reads), a barrier; then every warpgroup issues its MMAs, commits and waits
for them. A buffer is rewritten only after the next product's barrier, which every warpgroup reaches after its
own wait on the MMAs that read the buffer: the scores' `k` after the values' barrier, `v` after the next
scores' barrier.
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.dialects.simt.inline_ptx import build_inline_ptx
from oxide.dialects.simt.wgmma import REGISTER_A_REGISTERS
from oxide.ir.rules import is_op
from oxide.passes.conversion.tile_to_simt.attention_pattern import (
    SWIZZLE_ELEMS,
    WGMMA_M,
    AttentionPlan,
    accumulator_layout,
)
from oxide.passes.conversion.tile_to_simt.context import TileLowering, ptr_offset, store_shared
from oxide.passes.conversion.tile_to_simt.layouts import Bit, Layout, TileValue, vector_width
from oxide.passes.conversion.tile_to_simt.remap import convert_layout
from oxide.passes.conversion.tile_to_simt.wgmma_gemm import WARPGROUP_THREADS, descriptor_plus, fence_accumulator

STAGE_MARK = "tile.attention_stage"
# Set on the q buffer once its staging (before the loop) is emitted: a loop body lowered again (control.py
# settles carried layouts in rounds) reuses it.
STAGED_MARK = "tile.attention_staged"
SWIZZLE_ATOM_BYTES = 1024
WGMMA_K = 16
# bf16 and f16, the inputs the attention path takes (attention_pattern.py).
ELEM_BYTES = 2
# A run of registers stored at once: at most one 16-byte chunk of the swizzle (8 16-bit elements).
CHUNK_ELEMS = 8


def swizzled_offset(row: int, col: int, rows: int) -> int:
    """The element offset of (row, col) in a 128-byte-swizzled buffer of `rows` rows (module docstring)."""
    box, within = divmod(col, SWIZZLE_ELEMS)
    return box * rows * SWIZZLE_ELEMS + row * SWIZZLE_ELEMS + (((within // 8) ^ (row % 8)) * 8) + within % 8


def buffer(ctx: TileLowering, role: str, elem: ir.Type, count: int) -> ir.Operation:
    """The SharedPtrOp of role's staging buffer at the kernel's entry, made on first use."""
    for op in ctx.entry.operations:
        op = op.operation
        if isinstance(op.opview, simt.SharedPtrOp) and STAGE_MARK in op.attributes \
                and ir.StringAttr(op.attributes[STAGE_MARK]).value == role:
            return op
    with ir.InsertionPoint.at_block_begin(ctx.entry):
        array = simt.SharedArrayOp.build(align=SWIZZLE_ATOM_BYTES,
                                         results=[ir.Type.parse(f"!simt.shared<{elem}, {count}>")])
        ptr = simt.SharedPtrOp.build(array, results=[ir.Type.parse(f"!simt.ptr<{elem}, 3>")])
    ptr.owner.attributes[STAGE_MARK] = ir.StringAttr.get(role)
    return ptr.owner


class _Placement:
    """Where a tile's elements go in a swizzled buffer: `col_dim` is the tile dimension along the 128-byte rows,
    the other one the buffer's rows (`rows` of them)."""

    def __init__(self, layout: Layout, col_dim: int, rows: int):
        self.layout, self.col_dim, self.rows = layout, col_dim, rows

    def offset(self, coords: tuple[int, ...]) -> int:
        return swizzled_offset(coords[1 - self.col_dim], coords[self.col_dim], self.rows)

    def image(self, bit: Bit) -> int:
        coords = [0, 0]
        coords[bit.dim] = 1 << bit.bit
        return self.offset(tuple(coords))

    def thread_part(self, ctx: TileLowering) -> tuple[ir.Value | None, int]:
        """This thread's part of the offset (i32; None when no thread bit moves it) and the offset bits the
        thread parts may set."""
        value, mask = None, 0
        for t, bit in enumerate(self.layout.thread_bits):
            if bit is None:
                continue
            image = self.image(bit)
            mask |= image
            flag = arith.andi(arith.shrui(ctx.tid, ctx.i32(t)), ctx.i32(1))
            term = arith.muli(flag, ctx.i32(image))
            value = term if value is None else arith.xori(value, term)
        return value, mask


def stage(ctx: TileLowering, tile_value: TileValue, base: ir.Value, col_dim: int, rows: int) -> None:
    """Write this thread's elements of `tile_value` into the swizzled buffer at `base` (module docstring), a
    vector store per run of registers along the 128-byte rows. Replicated holders write the same value to the
    same place, which is harmless."""
    layout = tile_value.layout
    place = _Placement(layout, col_dim, rows)
    width = min(vector_width(layout), CHUNK_ELEMS) if col_dim == len(layout.shape) - 1 else 1
    thread, mask = place.thread_part(ctx)
    thread_ptr = base if thread is None else ptr_offset(base, ctx.index(thread))
    values = tile_value.values
    for j in range(0, layout.per_thread, width):
        constant = place.offset(layout.register_coords(j))
        if constant & mask == 0:  # the parts share no bit: their XOR is their sum, which folds into the address
            ptr = thread_ptr if constant == 0 else ptr_offset(thread_ptr, ctx.const(ir.IndexType.get(), constant))
        else:
            ptr = ptr_offset(base, ctx.index(arith.xori(thread, ctx.i32(constant))))
        store_shared(ptr, values[j:j + width])


def _descriptor(ctx: TileLowering, base: ir.Value, elements: Any, leading_bytes: int) -> ir.Value:
    """The wgmma descriptor of the matrix `elements` (an i32 value or an int) into a swizzled buffer."""
    offset = ctx.index(elements) if isinstance(elements, ir.Value) else ctx.const(ir.IndexType.get(), elements)
    start = ptr_offset(base, offset) if not (isinstance(elements, int) and elements == 0) else base
    return simt.SmemDescOp.build(start, leading_byte_offset=leading_bytes, stride_byte_offset=SWIZZLE_ATOM_BYTES,
                                 swizzle="128B", base_offset=0)


def issue(ctx: TileLowering, plan: AttentionPlan, a: ir.Value | TileValue | list[ir.Value], b_base: ir.Value,
          acc: list[ir.Value], wait: bool = True) -> list[ir.Value]:
    """This warpgroup's MMAs of the product, committed and (with `wait`) waited for; without it the results are
    still in flight (a software-pipelined loop waits for them later): per 64-row block, K / 16 steps of
    m64nNk16. A is K-major in shared memory (the scores' q, BM rows) or, for the values, `p` in registers (a
    TileValue in the scores' accumulator layout, whose registers 8kk..8kk+7 of a block are the A fragment of
    K step kk, or those registers already packed by `packed_a`); B is K-major (the scores: BN rows of D) or
    MN-major (the values: boxes of 64 columns of D, BN rows each, the transpose bit)."""
    group = arith.divui(ctx.tid, ctx.i32(WARPGROUP_THREADS))
    group_rows = arith.muli(group, ctx.i32(plan.blocks_per_group * WGMMA_M))
    per_block = plan.n // 2
    out = list(acc)
    packed = a if isinstance(a, list) else packed_a(ctx, a) if isinstance(a, TileValue) else None
    simt.WgmmaFenceOp()
    # One descriptor per operand, every K step's a constant add to it (wgmma_gemm.descriptor_plus): building
    # each step's from its address cost about ten uniform instructions per wgmma on the softmax's critical path.
    b_lead = 16 if plan.scores else plan.bn * SWIZZLE_ELEMS * ELEM_BYTES
    b_desc = _descriptor(ctx, b_base, 0, b_lead)
    for block in range(plan.blocks_per_group):
        rows = arith.addi(group_rows, ctx.i32(block * WGMMA_M))
        a_desc = None if packed is not None else _descriptor(ctx, a, arith.muli(rows, ctx.i32(SWIZZLE_ELEMS)), 16)
        regs = out[block * per_block:(block + 1) * per_block]
        for kk in range(plan.k // WGMMA_K):
            box, within = divmod(kk * WGMMA_K, SWIZZLE_ELEMS)
            b_step = box * plan.bn * SWIZZLE_ELEMS + within if plan.scores else kk * WGMMA_K * SWIZZLE_ELEMS
            desc_b = descriptor_plus(b_desc, b_step * ELEM_BYTES)
            if packed is not None:
                first = block * plan.bn // 4 + kk * REGISTER_A_REGISTERS
                op = simt.WgmmaMmaAsyncRegAOp(
                    regs, packed[first:first + REGISTER_A_REGISTERS], desc_b, results=[v.type for v in regs],
                    m=WGMMA_M, n=plan.n, k=WGMMA_K, input=plan.elem, accumulator="f32", scale_d="accumulate",
                    negate_a=False, negate_b=False, transpose_b=not plan.scores)
            else:
                desc_a = descriptor_plus(a_desc, (box * plan.bm * SWIZZLE_ELEMS + within) * ELEM_BYTES)
                op = simt.WgmmaMmaAsyncOp(
                    regs, desc_a, desc_b, results=[v.type for v in regs], m=WGMMA_M, n=plan.n, k=WGMMA_K,
                    input=plan.elem, accumulator="f32", scale_d="accumulate", negate_a=False, negate_b=False,
                    transpose_a=False, transpose_b=not plan.scores)
            regs = list(op.result)
        out[block * per_block:(block + 1) * per_block] = regs
    simt.WgmmaCommitGroupOp()
    if not wait:
        return out
    simt.WgmmaWaitGroupOp(pending=0)
    return fence_accumulator(out)


# A PTX template that is only a comment, its output tied to its input: pins a packed A register before the
# wgmma fence that follows (the asm and the fence both have side effects). A register of A written between the
# fence and its MMA makes ptxas insert its own warpgroup arrive and serialize every wgmma of the kernel (C7520).
PIN_A = ("// wgmma A register", "=r,0")


# Two f32 rounded to nearest into one register of 16-bit halves, the first argument low: one instruction
# (F2FP.PACK_AB) where two conversions and the packing would take four.
CVT_PAIR = "cvt.rn.{kind}x2.f32 $0, $2, $1;"


def _rounded_from_f32(value: ir.Value) -> ir.Value | None:
    """The f32 that `value` (bf16 or f16) was rounded to nearest from by an `arith.truncf`, or None."""
    owner = value.owner  # a Block for a block argument, which is_op rejects
    if not is_op(owner, arith.TruncFOp) or "roundingmode" in owner.operation.attributes:
        return None
    source = owner.operation.operands[0]
    return source if str(source.type) == "f32" else None


def packed_a(ctx: TileLowering, p: TileValue) -> list[ir.Value]:
    """`p`'s values as the 32-bit registers of wgmma's register A: registers 2i (low half) and 2i + 1 (high
    half) in one, pinned before the fence. A pair rounded from f32 (the softmax's `P`) is converted and packed
    by one `cvt.rn.{bf16,f16}x2.f32`, which pins the register as well (inline PTX with side effects)."""
    i16, i32 = ir.IntegerType.get_signless(16), ir.IntegerType.get_signless(32)
    out = []
    for lo, hi in zip(p.values[0::2], p.values[1::2]):
        sources = (_rounded_from_f32(lo), _rounded_from_f32(hi))
        if all(s is not None for s in sources):
            kind = str(lo.type)
            out.append(build_inline_ptx(list(sources), CVT_PAIR.format(kind=kind), "=r,f,f", [i32])[0])
            continue
        low = arith.extui(i32, arith.bitcast(i16, lo))
        high = arith.shli(arith.extui(i32, arith.bitcast(i16, hi)), ctx.i32(16))
        out.append(build_inline_ptx([arith.ori(low, high)], *PIN_A, [i32])[0])
    return out


def register_a(ctx: TileLowering, plan: AttentionPlan, p: TileValue) -> TileValue:
    """`p` [BM, BN] in the scores' accumulator layout, where its registers are the values MMAs' A fragments
    (it is already there unless the softmax moved it)."""
    layout = accumulator_layout(plan.bm, plan.bn, plan.blocks_per_group, plan.warpgroups)
    return p if p.layout == layout else convert_layout(ctx, p, layout)


def _staged_q(ctx: TileLowering, op: Any, plan: AttentionPlan, q: TileValue) -> ir.Value:
    """The q buffer, staged before the loop (once, however often the loop body is lowered)."""
    owner = buffer(ctx, "q", q.values[0].type, plan.bm * plan.d)
    if STAGED_MARK not in owner.attributes:
        old_iv = op.operation.parent.regions[0].blocks[0].arguments[0]
        loop = ir.BlockArgument(ctx.scalar(old_iv)).owner.owner
        with ir.InsertionPoint(loop):
            stage(ctx, q, owner.result, col_dim=1, rows=plan.bm)
            simt.FenceProxyAsyncOp.build(space="shared_cta")
        owner.attributes[STAGED_MARK] = ir.UnitAttr.get()
    return owner.result


def lower_attention_mma(ctx: TileLowering, op: Any, plan: AttentionPlan) -> TileValue:
    """One of the attention loop's products on wgmma (module docstring); the result in the wgmma layout."""
    a, b = ctx.tile(op.lhs), ctx.tile(op.rhs)
    acc = ctx.tile(op.acc)
    if acc.layout != plan.layout:
        acc = convert_layout(ctx, acc, plan.layout)
    elem = a.values[0].type
    if plan.scores:
        a_base = _staged_q(ctx, op, plan, a)
        b_base = buffer(ctx, "k", elem, plan.bn * plan.d).result
        stage(ctx, b, b_base, col_dim=0, rows=plan.bn)
    else:
        a_base = register_a(ctx, plan, a)
        b_base = buffer(ctx, "v", elem, plan.bn * plan.d).result
        stage(ctx, b, b_base, col_dim=1, rows=plan.bn)
    simt.FenceProxyAsyncOp.build(space="shared_cta")
    ctx.barrier()
    return TileValue(plan.layout, issue(ctx, plan, a_base, b_base, list(acc.values)))
