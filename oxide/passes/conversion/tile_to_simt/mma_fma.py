"""Lowering of `tile.mma` without Tensor Cores: an FMA loop over K on the accumulator layout's own scalars.

It takes the products that no mma.sync fragment fits (M < 16, N < 8, or K below the instruction's K: the
cutile-rs examples' [16, 8] x [8, 16], [4, 4] x [4, 4] and matrix-vector products with N = 1) and every
product on a chip without mma.sync (below sm_80); mma_layouts.tensor_core_shape is the rule.

Every thread writes its elements of a and b, widened to f32 (f32 inputs as they are, or rounded to tf32 when
the mma asks for tf32 products, as the Tensor Cores read them; fp8 through its exact f16 value), into the
block's shared scratch memory, row-major; after a barrier each thread runs K steps of one f32 fma per
accumulator element it holds, loading per step one element of A per distinct row and one of B per distinct
column among its elements. The result keeps the accumulator's layout, so no layout conversion is needed on
either side; an f16 accumulator is widened before the loop and rounded once after it.
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import tile
from oxide.passes.conversion.tile_to_simt.context import TileLowering
from oxide.passes.conversion.tile_to_simt.fp8 import is_fp8, to_f16
from oxide.passes.conversion.tile_to_simt.layouts import TileValue
from oxide.passes.conversion.tile_to_simt.remap import only_if

# tf32 keeps 10 of f32's 23 mantissa bits: add half of the lowest kept bit to the magnitude, then clear the
# 13 dropped bits (round to nearest, ties away from zero, as cvt.rna.tf32.f32 and the tile emulator do).
_TF32_HALF = 0x1000
_TF32_MASK = 0xFFFFE000
_EXPONENT = 0x7F800000


def _tf32(ctx: TileLowering, value: ir.Value) -> ir.Value:
    """An f32 rounded to tf32 with integer arithmetic (no cvt.rna.tf32, which needs sm_80); inf and NaN stay."""
    i32 = ir.IntegerType.get_signless(32)
    bits = arith.bitcast(i32, value)
    rounded = arith.andi(arith.addi(bits, ctx.i32(_TF32_HALF)), ctx.const(i32, _TF32_MASK - (1 << 32)))
    finite = arith.cmpi(arith.CmpIPredicate.ne, arith.andi(bits, ctx.i32(_EXPONENT)), ctx.i32(_EXPONENT))
    return arith.bitcast(ir.F32Type.get(), arith.select(finite, rounded, bits))


def _widen(ctx: TileLowering, value: ir.Value, tf32: bool) -> ir.Value:
    """An input element as the f32 the product uses (`tf32`: an f32 rounded to tf32 first)."""
    f32 = ir.F32Type.get()
    if str(value.type) == "f32":
        return _tf32(ctx, value) if tf32 else value
    if is_fp8(value.type):
        value = to_f16(ctx, value)
    return arith.extf(f32, value)


def _stage(ctx: TileLowering, operand: TileValue, base: ir.Value, start: int, row_elems: int, tf32: bool) -> None:
    """Write this thread's elements of `operand` (widened) to scratch[start + row * row_elems + col], from
    their owners only (two holders of a replicated element writing it in one step is a race)."""
    widened = [_widen(ctx, v, tf32) for v in operand.values]
    for element, value in zip(operand.layout.coords(ctx, ctx.tid), widened):
        row, col = element.coords
        index = arith.addi(arith.muli(row, ctx.i32(row_elems)), col)
        with only_if(element.owner):
            ctx.scratch_store(base, arith.addi(index, ctx.i32(start)) if start else index, value)


def lower_mma_fma(ctx: TileLowering, op: Any) -> TileValue:
    """acc + a @ b as f32 FMA loops; the result has the accumulator's layout."""
    m, k = tile.shape_of(op.lhs.type)
    n = tile.shape_of(op.rhs.type)[1]
    f32 = ir.F32Type.get()
    a, b, acc = ctx.tile(op.lhs), ctx.tile(op.rhs), ctx.tile(op.acc)
    base = ctx.scratch(f32, m * k + k * n)
    ctx.scratch_begin()
    tf32 = tile.multiplies_as_tf32(op)
    _stage(ctx, a, base, 0, k, tf32)
    _stage(ctx, b, base, m * k, n, tf32)
    ctx.barrier()
    layout = acc.layout
    acc_type = acc.values[0].type
    start = [v if str(acc_type) == "f32" else arith.extf(f32, v) for v in acc.values]
    # Loop-invariant parts of the addresses: A's row start per distinct row, B's column per distinct column
    # (keyed by the register's constant coordinates, which every thread shares).
    rows: dict[int, ir.Value] = {}
    cols: dict[int, ir.Value] = {}
    for j, element in enumerate(layout.coords(ctx, ctx.tid)):
        row_key, col_key = layout.register_coords(j)
        rows.setdefault(row_key, arith.muli(element.coords[0], ctx.i32(k)))
        cols.setdefault(col_key, arith.addi(element.coords[1], ctx.i32(m * k)))
    loop = scf.ForOp(ctx.i32(0), ctx.i32(k), ctx.i32(1), start)
    with ir.InsertionPoint(loop.body):
        kk = loop.induction_variable
        a_step = {key: ctx.scratch_load(base, arith.addi(row, kk), f32) for key, row in rows.items()}
        b_row = arith.muli(kk, ctx.i32(n))
        b_step = {key: ctx.scratch_load(base, arith.addi(b_row, col), f32) for key, col in cols.items()}
        # The product of two f16, bf16, fp8 or tf32 inputs is exact in f32 (at most 11 + 11 significant bits),
        # so a multiply then an add rounds exactly as an fma does; of two f32 inputs it is rounded once more,
        # which is f32 accuracy (ptxas may contract the pair into an fma).
        out = [arith.addf(total, arith.mulf(a_step[r], b_step[c]))
               for total, (r, c) in zip(loop.inner_iter_args, map(layout.register_coords, range(layout.per_thread)))]
        scf.YieldOp(out)
    results = list(loop.results)
    if str(acc_type) != "f32":
        results = [arith.truncf(acc_type, v) for v in results]
    return TileValue(layout, results)
