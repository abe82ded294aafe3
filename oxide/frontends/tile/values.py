"""Scalar and tile value helpers of the tile frontend: constants, literal typing, type agreement,
conversions (`as`, `convert_tile`) and the arith op tables of Rust's operators.

Everything here emits at the current insertion point and location; errors are located at the `loc` given.
"""

from __future__ import annotations

import math as pymath
from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.frontends.kernel_module import Retype
from oxide.frontends.syntax.errors import err
from oxide.frontends.tile.types import (
    BOOL, SCALAR_ALIASES, SCALARS, Flex, Scalar, TileT, TupleT, V, rust_name,
)
from oxide.diagnostics import SourceLoc


def elem_kind(ty: Any) -> Scalar | None:
    """The element type of a scalar or tile type."""
    if isinstance(ty, Scalar):
        return ty
    if isinstance(ty, TileT):
        return ty.elem
    return None


def refuse_fp8(ty: Any, what: str, loc: SourceLoc) -> None:
    """fp8 tiles have no arithmetic (cutile-rs's restricted floats): a located error naming `what` and the
    type, with the conversion to use first."""
    elem = elem_kind(ty)
    if elem is not None and elem.is_fp8:
        raise err(loc, f"{what} is not defined on `{rust_name(ty)}`: fp8 tiles are only loaded, stored, converted "
                       f"and multiplied by `mma`; convert first (`convert_tile::<f32>(t)`), compute, and convert back "
                       f"(`convert_tile::<{elem.name}>(r)`)")


def scalar_const(value: Any, ty: Scalar) -> V:
    """A scalar constant of type `ty` (its value folded into `const`)."""
    if ty.is_float:
        return V(ty, arith.constant(ty.mlir(), ir.FloatAttr.get(ty.mlir(), float(value))), float(value))
    value = int(value)
    wrapped = wrap(value, ty)
    return V(ty, arith.constant(ty.mlir(), ir.IntegerAttr.get(ty.mlir(), to_signless(wrapped, ty))), wrapped)


def tile_const(value: Any, ty: TileT) -> V:
    """A tile with every element `value`: `arith.constant dense<value>`."""
    elem = ty.elem.mlir()
    if ty.elem.is_float:
        attr = ir.FloatAttr.get(elem, float(value))
    else:
        attr = ir.IntegerAttr.get(elem, to_signless(wrap(int(value), ty.elem), ty.elem))
    return V(ty, arith.constant(ty.mlir(), ir.DenseElementsAttr.get_splat(ty.mlir(), attr)))


def wrap(value: int, ty: Scalar) -> int:
    """`value` as Rust's `ty` holds it (two's complement wrap-around)."""
    if ty.is_bool:
        return int(bool(value))
    bits = ty.bits
    value &= (1 << bits) - 1
    if ty.signed and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def to_signless(value: int, ty: Scalar) -> int:
    """The value MLIR's IntegerAttr takes for a signless integer (bool true is 1, wide unsigned wrap)."""
    if ty.is_bool:
        return value
    if not ty.signed and value >= 1 << (ty.bits - 1):
        return value - (1 << ty.bits)
    return value


def literal(value: Any, kind: str, suffix: str | None, loc: SourceLoc) -> V:
    """A literal: typed by its suffix, else Flex until its use fixes a type."""
    if kind == "bool":
        return scalar_const(bool(value), BOOL)
    if suffix is None:
        return V(Flex(kind), None, value)
    suffix = SCALAR_ALIASES.get(suffix, suffix)
    if suffix not in SCALARS:
        raise err(loc, f"the literal suffix `{suffix}` is not supported in tile kernels (element types: "
                       f"{', '.join(SCALARS)})")
    ty = SCALARS[suffix]
    if kind == "float" and not ty.is_float:
        raise err(loc, f"a float literal cannot have the integer suffix `{suffix}`")
    return scalar_const(value, ty)


def concrete(v: V, origin: int | None = None) -> V:
    """`v` with a concrete type: a Flex literal takes its default type (i32 / f64)."""
    if isinstance(v.ty, Flex):
        out = scalar_const(v.const, v.ty.default())
        out.origin = origin
        return out
    return v


def coerce(v: V, ty: Any, loc: SourceLoc, what: str = "this value") -> V:
    """`v` as a value of type `ty`: a Flex literal takes it; any other type must already be it."""
    if v.ty == ty:
        return v
    if isinstance(v.ty, Flex) and isinstance(ty, Scalar):
        if v.ty.kind == "float" and not ty.is_float:
            raise err(loc, f"expected `{ty.rust()}`, found a float literal")
        if v.ty.kind == "int" and ty.is_bool:
            raise err(loc, "expected `bool`, found an integer literal")
        return scalar_const(v.const, ty)
    if isinstance(v.ty, Flex) and isinstance(ty, TileT):
        raise err(loc, f"expected a tile `{ty.rust()}`, found a scalar literal; make a tile with "
                       f"`constant(value, shape)` or `broadcast_scalar(value, shape)`")
    if isinstance(ty, TupleT) and isinstance(v.ty, TupleT) and len(ty.elems) == len(v.ty.elems):
        parts = [coerce(p, t, loc, what) for p, t in zip(v.parts, ty.elems)]
        return V(ty, None, None, parts)
    if v.origin is not None and isinstance(ty, Scalar) and isinstance(v.ty, Scalar):
        raise Retype(v.origin, ty)
    retype_tile(v, ty)
    raise err(loc, f"mismatched types: {what} is `{rust_name(v.ty)}`, expected `{rust_name(ty)}`")


def retype_tile(v: V, ty: Any) -> None:
    """Raise Retype when `v` is a tile splatted from a defaulted literal and `ty` is a tile of its shape with
    another element type (the literal should have had that type)."""
    if v.origin is not None and isinstance(v.ty, TileT) and isinstance(ty, TileT) and v.ty.shape == ty.shape \
            and v.ty.elem != ty.elem:
        raise Retype(v.origin, ty.elem)


def unify_scalars(a: V, b: V, loc: SourceLoc, op: str) -> tuple[V, V]:
    """Two operands of a scalar operator at one type (a Flex literal takes the other's type)."""
    if isinstance(a.ty, Flex) and not isinstance(b.ty, Flex):
        return coerce(a, b.ty, loc), b
    if isinstance(b.ty, Flex) and not isinstance(a.ty, Flex):
        return a, coerce(b, a.ty, loc)
    if a.ty != b.ty:
        for x, y in ((a, b), (b, a)):
            if x.origin is not None and isinstance(y.ty, Scalar):
                raise Retype(x.origin, y.ty)
        raise err(loc, f"mismatched types: `{rust_name(a.ty)} {op} {rust_name(b.ty)}`; convert one side with "
                       f"`as` (scalars) or `convert_tile` (tiles)")
    return a, b


def shift_in_range(amount: Any, ty: Any) -> bool:
    """Whether a constant shift amount is below the shifted type's width (128 for an untyped constant)."""
    bits = ty.bits if isinstance(ty, Scalar) and ty.is_int else 128
    return type(amount) is int and 0 <= amount < bits


def cast_const(value: Any, ty: Scalar) -> Any:
    """Rust's `value as ty` on a compile-time number: floats to integers truncate and saturate (NaN is 0)."""
    if ty.is_float:
        return float(value)
    if ty.is_bool:
        return bool(value)
    if isinstance(value, float):
        if value != value:
            return 0
        low, high = (-(1 << (ty.bits - 1)), (1 << (ty.bits - 1)) - 1) if ty.signed else (0, (1 << ty.bits) - 1)
        return low if value <= low else high if value >= high else int(value)
    return wrap(int(value), ty)


def fold(op: str, a: Any, b: Any, ty: Any) -> Any:
    """Rust's `a op b` on compile-time values (integer division truncates), or None when not folded."""
    is_float = isinstance(a, float) or isinstance(b, float) or (isinstance(ty, Scalar) and ty.is_float)
    try:
        if op in ("+", "-", "*"):
            value = a + b if op == "+" else a - b if op == "-" else a * b
        elif op in ("/", "%"):
            if is_float:
                value = a / b if op == "/" else pymath.fmod(a, b)
            else:
                quotient = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
                value = quotient if op == "/" else a - b * quotient
        elif op in ("==", "!=", "<", "<=", ">", ">="):
            return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        elif op in ("&", "|", "^", "&&", "||") and not is_float:
            value = {"&": a & b, "|": a | b, "^": a ^ b, "&&": a and b, "||": a or b}[op]
        elif op in ("<<", ">>") and not is_float:
            value = a << b if op == "<<" else a >> b
        else:
            return None
    except (ZeroDivisionError, ValueError):
        return None
    if isinstance(ty, Scalar) and ty.is_int:
        return wrap(int(value), ty)
    if isinstance(ty, Scalar) and ty.is_bool:
        return bool(value)
    return value


_FLOAT_OPS = {"+": arith.addf, "-": arith.subf, "*": arith.mulf, "/": arith.divf, "%": arith.remf}
_INT_OPS = {"+": arith.addi, "-": arith.subi, "*": arith.muli, "&": arith.andi, "|": arith.ori, "^": arith.xori,
            "<<": arith.shli}
_SIGNED_OPS = {"/": (arith.divsi, arith.divui), "%": (arith.remsi, arith.remui), ">>": (arith.shrsi, arith.shrui)}
_FLOAT_CMP = {"==": "OEQ", "!=": "UNE", "<": "OLT", "<=": "OLE", ">": "OGT", ">=": "OGE"}
_INT_CMP = {"==": ("eq", "eq"), "!=": ("ne", "ne"), "<": ("slt", "ult"), "<=": ("sle", "ule"),
            ">": ("sgt", "ugt"), ">=": ("sge", "uge")}
COMPARISONS = tuple(_FLOAT_CMP)


def arith_binary(op: str, a: ir.Value, b: ir.Value, elem: Scalar, loc: SourceLoc, shown: str) -> ir.Value | None:
    """The arith op of Rust's `a op b` on scalars or same-shape tiles of `elem`; None if `elem` has no `op`."""
    if op in _FLOAT_CMP:
        if elem.is_float:
            return arith.cmpf(getattr(arith.CmpFPredicate, _FLOAT_CMP[op]), a, b)
        signed, unsigned = _INT_CMP[op]
        return arith.cmpi(getattr(arith.CmpIPredicate, signed if elem.signed else unsigned), a, b)
    if elem.is_float:
        fn = _FLOAT_OPS.get(op)
    elif elem.is_bool:
        fn = {"&": arith.andi, "|": arith.ori, "^": arith.xori, "&&": arith.andi, "||": arith.ori}.get(op)
    elif op in _SIGNED_OPS:
        fn = _SIGNED_OPS[op][0 if elem.signed else 1]
    else:
        fn = _INT_OPS.get(op)
    if fn is None:
        raise err(loc, f"`{shown}` has no operator `{op}`")
    return fn(a, b)


def convert(v: V, target: Scalar, loc: SourceLoc) -> V:
    """`v as target` (scalar) or `convert_tile::<target>(v)` (tile): int/float widening, narrowing and
    int<->float conversion; float->int is not saturating (out-of-range values are undefined)."""
    v = concrete(v)
    src = elem_kind(v.ty)
    if src is None:
        raise err(loc, f"cannot convert a `{rust_name(v.ty)}`")
    out_ty = TileT(target, v.ty.shape) if isinstance(v.ty, TileT) else target
    if src == target:
        return v
    if (src.is_fp8 or target.is_fp8) and not isinstance(v.ty, TileT):
        raise err(loc, f"fp8 (`{(src if src.is_fp8 else target).name}`) is a tile element type: convert tiles "
                       f"(`convert_tile::<{target.name}>(t)`), not scalars")
    if isinstance(v.ty, Scalar) and v.const is not None and not target.is_bool:
        if target.is_float:
            return scalar_const(float(v.const), target)
        if not src.is_float:
            return scalar_const(int(v.const), target)
        # Rust's float-to-int `as` saturates (NaN gives 0).
        low, high = (-(1 << (target.bits - 1)), (1 << (target.bits - 1)) - 1) if target.signed \
            else (0, (1 << target.bits) - 1)
        value = 0 if pymath.isnan(v.const) else max(low, min(high, v.const))
        return scalar_const(int(value), target)
    result = out_ty.mlir() if isinstance(out_ty, TileT) else target.mlir()
    x = v.value
    if src.is_float and target.is_float:
        if src.mlir() == target.mlir():  # f32 <-> tf32: the same f32 container
            return V(out_ty, x)
        if src.bits == target.bits:  # f16 <-> bf16: through f32
            wide = TileT(SCALARS["f32"], v.ty.shape).mlir() if isinstance(v.ty, TileT) else ir.F32Type.get()
            value = arith.truncf(result, arith.extf(wide, x))
        else:
            value = (arith.extf if target.bits > src.bits else arith.truncf)(result, x)
    elif src.is_float:
        if target.is_bool:
            raise err(loc, "cannot convert a float to `bool`; compare it instead")
        value = (arith.fptosi if target.signed else arith.fptoui)(result, x)
    elif target.is_float:
        value = (arith.sitofp if src.signed else arith.uitofp)(result, x)
    elif target.is_bool:
        zero = tile_const(0, v.ty) if isinstance(v.ty, TileT) else scalar_const(0, src)
        value = arith.cmpi(arith.CmpIPredicate.ne, x, zero.value)
    elif target.bits > src.bits:
        value = (arith.extsi if src.signed else arith.extui)(result, x)
    elif target.bits < src.bits:
        value = arith.trunci(result, x)
    else:
        return V(out_ty, x)  # same width, other signedness: the same signless bits
    return V(out_ty, value)


# The associated constants of the scalar types (`f32::INFINITY`, `u8::MAX`) and their values.
SCALAR_CONSTS = {"ZERO": 0, "ONE": 1, "MAX": "max", "MIN": "min", "INFINITY": float("inf"),
                  "NEG_INFINITY": float("-inf"), "NAN": float("nan"), "EPSILON": "eps"}


def scalar_constant(name: str, ty: Scalar) -> Any:
    """The value of `ty::NAME` (`f32::MAX`, `i32::MIN`, `f16::EPSILON`, ...)."""
    value = SCALAR_CONSTS[name]
    if value == "max":
        return _limit(ty, True)
    if value == "min":
        return _limit(ty, False)
    if value == "eps":
        return {"f16": 2.0 ** -10, "bf16": 2.0 ** -7, "f32": 2.0 ** -23, "f64": 2.0 ** -52}[ty.name]
    return value


def _limit(ty: Scalar, upper: bool) -> Any:
    if ty.is_float:
        big = {"f16": 65504.0, "bf16": 3.3895313892515355e38, "f32": 3.4028234663852886e38,
               "f64": 1.7976931348623157e308}[ty.name]
        return big if upper else -big
    if ty.is_bool:
        return upper
    if ty.signed:
        return (1 << (ty.bits - 1)) - 1 if upper else -(1 << (ty.bits - 1))
    return (1 << ty.bits) - 1 if upper else 0
