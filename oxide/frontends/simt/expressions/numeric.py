"""Numeric conversions as Rust's `as` does them (integer widths, signedness, saturating float-to-int)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mlir import ir
from mlir.dialects import arith

from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_support import int_attr


if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


def is_signed(ty: T.Ty) -> bool:
    """Whether an integer, bool or enum compares and extends as signed (an enum as its discriminant type)."""
    if isinstance(ty, T.Enum):
        ty = ty.storage
    return isinstance(ty, T.Int) and ty.signed


def cast_int(v: ir.Value, src: T.Ty, dst: T.Int) -> ir.Value:
    """Integer (or bool/enum) to integer, as `as` does: truncate, or extend by the source's signedness."""
    src_bits = 1 if isinstance(src, T.Bool) else src.mlir().width
    signed = is_signed(src)
    if src_bits == dst.bits:
        return v
    if src_bits > dst.bits:
        return arith.trunci(dst.mlir(), v)
    return (arith.extsi if signed else arith.extui)(dst.mlir(), v)


def saturating_fptoi(em: FunctionEmitter, v: ir.Value, src: T.Float, dst: T.Int) -> ir.Value:
    """Rust's float-to-int `as`: NaN -> 0, out-of-range values clamp to MIN/MAX."""
    lo = -(2 ** (dst.bits - 1)) if dst.signed else 0
    hi = 2 ** (dst.bits - 1) - 1 if dst.signed else 2 ** dst.bits - 1
    f = src.mlir()
    lo_f = arith.constant(f, ir.FloatAttr.get(f, float(lo)))
    hi_f = arith.constant(f, ir.FloatAttr.get(f, float(hi)))
    clamped = arith.minimumf(arith.maximumf(v, lo_f), hi_f)
    converted = (arith.fptosi if dst.signed else arith.fptoui)(dst.mlir(), clamped)
    hi_i = arith.constant(dst.mlir(), int_attr(dst.mlir(), hi))
    too_big = arith.cmpf(arith.CmpFPredicate.OGE, v, hi_f)
    converted = arith.select(too_big, hi_i, converted)
    is_nan = arith.cmpf(arith.CmpFPredicate.UNO, v, v)
    return arith.select(is_nan, arith.constant(dst.mlir(), ir.IntegerAttr.get(dst.mlir(), 0)), converted)
