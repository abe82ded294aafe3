"""The core integer methods: `min`/`max`/`clamp`, `abs`, `pow` (by squaring), `wrapping_add/sub/mul`,
`overflowing_add/sub`, `rotate_left/right`, bit counts (`count_ones`, `leading_zeros`, `trailing_zeros`,
`is_power_of_two`), `is_multiple_of`, `div_ceil` and `rem_euclid`. (int_methods.py has the checked,
saturating and double-width arithmetic.)"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, llvm, math as mmath, memref, scf

from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.primitives import check_arity
from oxide.frontends.simt.calls.registry import device_method
from oxide.frontends.simt.calls.scalars import U32, const
from oxide.frontends.simt.emit_support import i1
from oxide.frontends.simt.expressions.numeric import cast_int
from oxide.frontends.simt.values import Val, new_cell
from oxide.frontends.syntax import ast

_P = arith.CmpIPredicate
_MIN_MAX = {("min", True): arith.minsi, ("min", False): arith.minui,
            ("max", True): arith.maxsi, ("max", False): arith.maxui}
_WRAPPING = {"wrapping_add": arith.addi, "wrapping_sub": arith.subi, "wrapping_mul": arith.muli}


def _arg(em: Emitter, args: list[ast.Expr], i: int, want: T.Ty) -> ir.Value:
    return em.coerce(em.expr(args[i], want), want, args[i].loc).v


@device_method(T.Int, "min", "max", "clamp")
def _min_max(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
             expected: T.Ty | None) -> Val:
    ty, x = recv.ty, recv.v
    check_arity(name, args, 2 if name == "clamp" else 1, loc)
    if name != "clamp":
        return Val(ty, _MIN_MAX[(name, ty.signed)](x, _arg(em, args, 0, ty)))
    lo, hi = _arg(em, args, 0, ty), _arg(em, args, 1, ty)
    if ty.signed:
        return Val(ty, arith.minsi(arith.maxsi(x, lo), hi))
    return Val(ty, arith.minui(arith.maxui(x, lo), hi))


@device_method(T.Int, "is_multiple_of")
def _is_multiple_of(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                    expected: T.Ty | None) -> Val:
    ty, x = recv.ty, recv.v
    check_arity(name, args, 1, loc)
    d = _arg(em, args, 0, ty)
    zero = const(ty, 0)
    safe_d = arith.select(arith.cmpi(_P.eq, d, zero), const(ty, 1), d)
    divisible = arith.cmpi(_P.eq, arith.remui(x, safe_d), zero)
    # Rust: `n.is_multiple_of(0)` is true only for n == 0.
    return Val(T.BOOL, arith.select(arith.cmpi(_P.eq, d, zero), arith.cmpi(_P.eq, x, zero), divisible))


@device_method(T.Int, "overflowing_add", "overflowing_sub")
def _overflowing(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                 expected: T.Ty | None) -> Val:
    ty, x = recv.ty, recv.v
    check_arity(name, args, 1, loc)
    other = _arg(em, args, 0, ty)
    result = (arith.addi if name == "overflowing_add" else arith.subi)(x, other)
    if ty.signed:
        # Overflow iff the operands' signs agree (add) / differ (sub) and the result's sign differs.
        zero = const(ty, 0)
        sx, so, sr = (arith.cmpi(_P.slt, v, zero) for v in (x, other, result))
        same = arith.xori(arith.xori(sx, so), i1(name == "overflowing_add"))
        overflow = arith.andi(same, arith.xori(sx, sr))
    else:
        overflow = arith.cmpi(_P.ult if name == "overflowing_add" else _P.ugt, result, x)
    return Val(T.Tuple((ty, T.BOOL)), [Val(ty, result), Val(T.BOOL, overflow)])


@device_method(T.Int, "rotate_left", "rotate_right")
def _rotate(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
            expected: T.Ty | None) -> Val:
    ty, x = recv.ty, recv.v
    check_arity(name, args, 1, loc)
    n = cast_int(_arg(em, args, 0, U32), U32, ty)
    mask = const(ty, ty.bits - 1)
    left = arith.andi(n, mask) if name == "rotate_left" else arith.andi(arith.subi(const(ty, 0), n), mask)
    right = arith.andi(arith.subi(const(ty, 0), left), mask)
    return Val(ty, arith.ori(arith.shli(x, left), arith.shrui(x, right)))


@device_method(T.Int, *_WRAPPING)
def _wrapping(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
              expected: T.Ty | None) -> Val:
    check_arity(name, args, 1, loc)
    return Val(recv.ty, _WRAPPING[name](recv.v, _arg(em, args, 0, recv.ty)))


@device_method(T.Int, "abs", when=lambda em, recv, *_: recv.ty.signed)
def _abs(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
         expected: T.Ty | None) -> Val:
    return Val(recv.ty, mmath.absi(recv.v))


@device_method(T.Int, "pow")
def _pow(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
         expected: T.Ty | None) -> Val:
    check_arity(name, args, 1, loc)
    exponent = _arg(em, args, 0, U32)
    return Val(recv.ty, _int_pow(em, recv.v, exponent, recv.ty))


@device_method(T.Int, "count_ones", "leading_zeros", "trailing_zeros")
def _count(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
           expected: T.Ty | None) -> Val:
    return Val(U32, cast_int(_bit_count(name, recv.v), T.Int(recv.ty.bits, False), U32))


@device_method(T.Int, "is_power_of_two")
def _is_power_of_two(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                     expected: T.Ty | None) -> Val:
    ones = cast_int(_bit_count("count_ones", recv.v), T.Int(recv.ty.bits, False), U32)
    return Val(T.BOOL, arith.cmpi(_P.eq, ones, const(U32, 1)))


@device_method(T.Int, "div_ceil")
def _div_ceil(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
              expected: T.Ty | None) -> Val:
    ty, x = recv.ty, recv.v
    check_arity(name, args, 1, loc)
    d = _arg(em, args, 0, ty)
    em.check_division(recv, Val(ty, d), ty)
    one = const(ty, 1)
    return Val(ty, arith.divui(arith.subi(arith.addi(x, d), one), d))


@device_method(T.Int, "rem_euclid")
def _rem_euclid(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                expected: T.Ty | None) -> Val:
    ty, x = recv.ty, recv.v
    check_arity(name, args, 1, loc)
    d = _arg(em, args, 0, ty)
    r = arith.remsi(x, d) if ty.signed else arith.remui(x, d)
    if ty.signed:
        neg = arith.cmpi(_P.slt, r, const(ty, 0))
        r = arith.select(neg, arith.addi(r, mmath.absi(d)), r)
    return Val(ty, r)


def _bit_count(name: str, x: ir.Value) -> ir.Value:
    """ctpop / ctlz / cttz as LLVM intrinsics (convert-gpu-to-nvvm has no lowering of math.ctpop on MLIR 22);
    a zero input is defined (Rust: leading_zeros(0) is the bit width)."""
    if name == "count_ones":
        return llvm.intr_ctpop(x)
    return (llvm.intr_ctlz if name == "leading_zeros" else llvm.intr_cttz)(x, False)


def _int_pow(em: Emitter, base: ir.Value, exponent: ir.Value, ty: T.Int) -> ir.Value:
    """base^exponent by repeated squaring (wrapping), in an scf.while over the exponent's bits."""
    with ir.InsertionPoint.at_block_begin(em.entry):
        acc, b, n = new_cell(ty).leaves, new_cell(ty).leaves, new_cell(U32).leaves
    memref.store(const(ty, 1), acc, [])
    memref.store(base, b, [])
    memref.store(exponent, n, [])
    loop = scf.WhileOp([], [])
    before = loop.before.blocks.append()
    with ir.InsertionPoint(before):
        scf.ConditionOp(arith.cmpi(_P.ne, memref.load(n, []), const(U32, 0)), [])
    after = loop.after.blocks.append()
    with ir.InsertionPoint(after):
        cur_n, cur_b = memref.load(n, []), memref.load(b, [])
        odd = arith.cmpi(_P.ne, arith.andi(cur_n, const(U32, 1)), const(U32, 0))
        cur_acc = memref.load(acc, [])
        memref.store(arith.select(odd, arith.muli(cur_acc, cur_b), cur_acc), acc, [])
        memref.store(arith.muli(cur_b, cur_b), b, [])
        memref.store(arith.shrui(cur_n, const(U32, 1)), n, [])
        scf.YieldOp([])
    return memref.load(acc, [])
