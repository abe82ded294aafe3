"""fp8 (f8E4M3FN, f8E5M2) conversions on the scalars a thread holds.

LLVM has no fp8 type: the LLVM lowering maps f8 values to i8 and leaves `arith.extf` / `arith.truncf` on them
unconverted (the translation to LLVM IR then fails), so they are written here in operations it has:

- fp8 -> f16 (exact: every e4m3 and e5m2 value is an f16), integer operations on the byte, on every chip. e5m2
  is the high byte of an f16. e4m3's byte, its exponent field moved into an f16's (bits 7-13), is an f16 of the
  same mantissa and an exponent 8 too small (bias 15 against 7), normal or subnormal alike, so one exact f16
  multiply by 256 scales it; S.1111.111, e4m3's only NaN, becomes an f16 NaN. Wider targets extend the f16.
- f32 (f16, bf16: widened exactly first) -> fp8: PTX `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32` (sm_89 and newer),
  two values per instruction, as inline PTX.
"""

from __future__ import annotations


from mlir import ir
from mlir.dialects import arith

from oxide.dialects.simt.inline_ptx import build_inline_ptx
from oxide.ir.rules import LoweringError
from oxide.passes.conversion.tile_to_simt.context import TileLowering
from oxide.passes.conversion.tile_to_simt.layouts import TileValue

FP8 = {"f8E4M3FN": "e4m3", "f8E5M2": "e5m2"}


def is_fp8(type_: ir.Type) -> bool:
    """Whether a scalar type (or a tile's element type) is fp8."""
    elem = type_.element_type if isinstance(type_, ir.RankedTensorType) else type_
    return str(elem) in FP8


def _int(bits: int) -> ir.Type:
    return ir.IntegerType.get_signless(bits)


def _i16(ctx: TileLowering, value: int) -> ir.Value:
    return ctx.const(_int(16), value)


def to_f16(ctx: TileLowering, value: ir.Value) -> ir.Value:
    """An fp8 scalar as the f16 of the same value (exact)."""
    byte = arith.extui(_int(16), arith.bitcast(_int(8), value))
    if FP8[str(value.type)] == "e5m2":
        return arith.bitcast(ir.F16Type.get(), arith.shli(byte, _i16(ctx, 8)))
    magnitude = arith.andi(byte, _i16(ctx, 0x7F))
    scaled = arith.mulf(arith.bitcast(ir.F16Type.get(), arith.shli(magnitude, _i16(ctx, 7))),
                        ctx.const(ir.F16Type.get(), 256.0))
    bits = arith.select(arith.cmpi(arith.CmpIPredicate.eq, magnitude, _i16(ctx, 0x7F)), _i16(ctx, 0x7E00),
                        arith.bitcast(_int(16), scaled))
    sign = arith.shli(arith.andi(byte, _i16(ctx, 0x80)), _i16(ctx, 8))
    return arith.bitcast(ir.F16Type.get(), arith.ori(bits, sign))


def from_f32(ctx: TileLowering, pair: list[ir.Value], elem: ir.Type) -> list[ir.Value]:
    """One or two f32 scalars rounded to fp8 `elem` by one cvt.rn.satfinite (the first in the low byte)."""
    low, high = pair[0], pair[-1]
    asm = f"cvt.rn.satfinite.{FP8[str(elem)]}x2.f32 $0, $2, $1;"
    (packed,) = build_inline_ptx([low, high], asm, "=h,f,f", [_int(16)])
    halves = [arith.trunci(_int(8), packed), arith.trunci(_int(8), arith.shrui(packed, _i16(ctx, 8)))]
    return [arith.bitcast(elem, h) for h in halves[:len(pair)]]


def _widen(value: ir.Value, target: ir.Type) -> ir.Value:
    return value if value.type == target else arith.extf(target, value)


def lower_conversion(ctx: TileLowering, op: ir.Operation, source: TileValue | ir.Value) -> TileValue | ir.Value:
    """`arith.extf` from fp8 or `arith.truncf` to fp8 (f8E4M3FN <-> f8E5M2 goes through f32) on a tile or a
    scalar: the conversion of each element this thread holds."""
    target = op.results[0].type
    target_elem = target.element_type if isinstance(target, ir.RankedTensorType) else target
    values = source.values if isinstance(source, TileValue) else [source]
    if is_fp8(op.operands[0].type):
        values = [to_f16(ctx, v) for v in values]
        if not is_fp8(target_elem):
            values = [_widen(v, target_elem) for v in values]
    if is_fp8(target_elem):
        if not ctx.target.has_fp8:
            raise LoweringError(f"converting to {target_elem} needs cvt.rn.satfinite of sm_89 or newer; the target "
                                f"is {ctx.target.chip}: quantize the data before the kernel, or compile for sm_90")
        wide = [_widen(v, ir.F32Type.get()) for v in values]
        values = [out for j in range(0, len(wide), 2) for out in from_f32(ctx, wide[j:j + 2], target_elem)]
    if isinstance(source, TileValue):
        return TileValue(source.layout, values, splat=source.is_splat)
    return values[0]
