"""Methods of f16/f32/f64: the math functions (`sin`, `exp`, `powf`, `mul_add`, `sqrt` correctly rounded,
...), `min`/`max` (NaN-ignoring) and `minimum`/`maximum`, `clamp`, classification (`is_nan`, ...), bits
(`to_bits`) and unit conversions."""

from __future__ import annotations

import math as pymath
from typing import Any

from mlir import ir
from mlir.dialects import arith, math as mmath

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.primitives import check_arity
from oxide.frontends.simt.calls.registry import device_fn, device_method
from oxide.frontends.simt.calls.scalars import const
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast

_UNARY = {"exp": mmath.exp, "exp2": mmath.exp2, "ln": mmath.log, "log2": mmath.log2, "log10": mmath.log10,
          "sin": mmath.sin, "cos": mmath.cos, "tan": mmath.tan, "floor": mmath.floor, "ceil": mmath.ceil,
          "round": mmath.round, "round_ties_even": mmath.roundeven, "abs": mmath.absf, "asin": mmath.asin,
          "acos": mmath.acos, "atan": mmath.atan, "sinh": mmath.sinh, "cosh": mmath.cosh, "tanh": mmath.tanh,
          "asinh": mmath.asinh, "acosh": mmath.acosh, "atanh": mmath.atanh, "cbrt": mmath.cbrt,
          "exp_m1": mmath.expm1, "ln_1p": mmath.log1p}
# The methods with arguments: name -> how many (besides the receiver).
_ARITY = {"powf": 1, "powi": 1, "mul_add": 2, "copysign": 1, "atan2": 1, "min": 1, "max": 1, "minimum": 1,
          "maximum": 1, "clamp": 2}
_BINARY = {"powf": mmath.powf, "copysign": mmath.copysign, "atan2": mmath.atan2, "min": arith.minnumf,
           "max": arith.maxnumf, "minimum": arith.minimumf, "maximum": arith.maximumf}


def _no_args(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    return not args


def _arg(em: Emitter, args: list[ast.Expr], i: int, want: T.Ty) -> ir.Value:
    return em.coerce(em.expr(args[i], want), want, args[i].loc).v


@device_method(T.Float, *_UNARY, when=_no_args)
def _unary(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
           expected: T.Ty | None) -> Val:
    return Val(recv.ty, _UNARY[name](recv.v))


@device_method(T.Float, "sqrt", when=_no_args)
def _sqrt(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
          expected: T.Ty | None) -> Val:
    ty = recv.ty
    if ty.bits == 32:  # math.sqrt on f32 is sqrt.approx (no prec-sqrt flag); Rust's is correctly rounded
        return Val(ty, simt.LibdeviceOp.build([recv.v], fn="sqrt", results=[ty.mlir()]))
    return Val(ty, mmath.sqrt(recv.v))


@device_method(T.Float, "trunc", "hypot", "fract")
def _libdevice(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    ty = recv.ty
    if name == "fract":
        trunc = simt.LibdeviceOp.build([recv.v], fn="trunc", results=[ty.mlir()])
        return Val(ty, arith.subf(recv.v, trunc))
    operands = [recv.v] + ([_arg(em, args, 0, ty)] if name == "hypot" else [])
    return Val(ty, simt.LibdeviceOp.build(operands, fn=name, results=[ty.mlir()]))


@device_method(T.Float, *_ARITY)
def _with_args(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    ty, x = recv.ty, recv.v
    check_arity(name, args, _ARITY[name], loc)
    if name == "powi":
        return Val(ty, mmath.fpowi(x, _arg(em, args, 0, T.PRIMITIVES["i32"])))
    if name == "mul_add":
        return Val(ty, mmath.fma(x, _arg(em, args, 0, ty), _arg(em, args, 1, ty)))
    if name == "clamp":
        lo, hi = _arg(em, args, 0, ty), _arg(em, args, 1, ty)
        below = arith.cmpf(arith.CmpFPredicate.OLT, x, lo)
        above = arith.cmpf(arith.CmpFPredicate.OGT, x, hi)
        return Val(ty, arith.select(above, hi, arith.select(below, lo, x)))
    return Val(ty, _BINARY[name](x, _arg(em, args, 0, ty)))


_SCALED = {"recip": None, "to_degrees": 57.2957795130823208767981548141051703, "to_radians": pymath.pi / 180.0}


@device_method(T.Float, *_SCALED)
def _scaled(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
            expected: T.Ty | None) -> Val:
    ty = recv.ty
    if name == "recip":
        return Val(ty, arith.divf(const(ty, 1.0), recv.v))
    return Val(ty, arith.mulf(recv.v, const(ty, _SCALED[name])))


@device_method(T.Float, "sin_cos")
def _sin_cos(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
             expected: T.Ty | None) -> Val:
    ty = recv.ty
    return Val(T.Tuple((ty, ty)), [Val(ty, mmath.sin(recv.v)), Val(ty, mmath.cos(recv.v))])


@device_method(T.Float, "signum")
def _signum(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
            expected: T.Ty | None) -> Val:
    x = recv.v
    nan = arith.cmpf(arith.CmpFPredicate.UNO, x, x)
    return Val(recv.ty, arith.select(nan, x, mmath.copysign(const(recv.ty, 1.0), x)))


@device_method(T.Float, "is_nan", "is_finite", "is_infinite", "is_sign_negative")
def _classify(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
              expected: T.Ty | None) -> Val:
    ty, x = recv.ty, recv.v
    if name == "is_nan":
        return Val(T.BOOL, arith.cmpf(arith.CmpFPredicate.UNO, x, x))
    if name == "is_finite":
        return Val(T.BOOL, arith.cmpf(arith.CmpFPredicate.OLT, mmath.absf(x), const(ty, pymath.inf)))
    if name == "is_infinite":
        return Val(T.BOOL, arith.cmpf(arith.CmpFPredicate.OEQ, mmath.absf(x), const(ty, pymath.inf)))
    bits = arith.bitcast(ir.IntegerType.get_signless(ty.bits), x)
    return Val(T.BOOL, arith.cmpi(arith.CmpIPredicate.slt, bits, const(T.Int(ty.bits, True), 0)))


@device_method(T.Float, "to_bits")
def _to_bits(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
             expected: T.Ty | None) -> Val:
    out = T.PRIMITIVES[f"u{recv.ty.bits}"]
    return Val(out, arith.bitcast(out.mlir(), recv.v))




@device_fn("f32::from_bits", "f64::from_bits", when=lambda em, segs, generics, args, *_: len(args) == 1)
def _from_bits(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
               loc: Any) -> Val:
    float_ty = T.PRIMITIVES[segs[-2]]
    bits_ty = T.PRIMITIVES[f"u{float_ty.bits}"]
    bits = em.coerce(em.expr(args[0], bits_ty), bits_ty, args[0].loc)
    return Val(float_ty, arith.bitcast(float_ty.mlir(), bits.v))
