"""Integer methods beyond int_core.py's: overflow-aware arithmetic (`overflowing_mul`,
`checked_*`, `saturating_*`), double-width products (`widening_mul`, `carrying_mul`, `carrying_mul_add`),
and bit and sign helpers (`reverse_bits`, `abs_diff`, `unsigned_abs`, `signum`, ...). Products are formed
in twice the width (i128 for 64-bit operands, which NVPTX expands into 64-bit multiplies)."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, llvm

from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_support import i1, int_attr
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_method
from oxide.frontends.simt.values import OptionVal, Val

_P = arith.CmpIPredicate


def _c(ty: T.Int, value: int) -> ir.Value:
    if value >= 1 << (ty.bits - 1):
        value -= 1 << ty.bits
    return arith.constant(ty.mlir(), int_attr(ty.mlir(), value))


def _min(ty: T.Int) -> int:
    return (1 << (ty.bits - 1)) if ty.signed else 0  # as a bit pattern


def _max(ty: T.Int) -> int:
    return (1 << (ty.bits - 1)) - 1 if ty.signed else (1 << ty.bits) - 1


def _arg(em: Emitter, args: list[ast.Expr], i: int, ty: T.Ty) -> ir.Value:
    return em.coerce(em.expr(args[i], ty), ty, args[i].loc).v


def _wide(ty: T.Int) -> T.Int:
    return T.Int(2 * ty.bits, ty.signed)


def _extend(v: ir.Value, ty: T.Int) -> ir.Value:
    return (arith.extsi if ty.signed else arith.extui)(_wide(ty).mlir(), v)


def _high(full: ir.Value, ty: T.Int) -> ir.Value:
    wide = _wide(ty)
    shifted = (arith.shrsi if ty.signed else arith.shrui)(full, _c(wide, ty.bits))
    return arith.trunci(ty.mlir(), shifted)


def add_sub_overflow(ty: T.Int, op: str, x: ir.Value, y: ir.Value) -> tuple[ir.Value, ir.Value]:
    """The wrapped x+y or x-y and whether it overflowed."""
    result = (arith.addi if op == "add" else arith.subi)(x, y)
    if ty.signed:
        # Overflow iff the operands' signs agree (add) / differ (sub) and the result's sign differs from x's.
        zero = _c(ty, 0)
        sx, sy, sr = (arith.cmpi(_P.slt, v, zero) for v in (x, y, result))
        operands_agree = arith.xori(arith.xori(sx, sy), i1(op == "add"))
        return result, arith.andi(operands_agree, arith.xori(sx, sr))
    return result, arith.cmpi(_P.ult if op == "add" else _P.ugt, result, x)


def mul_overflow(ty: T.Int, x: ir.Value, y: ir.Value) -> tuple[ir.Value, ir.Value]:
    """The wrapped x*y and whether the exact product does not fit `ty`."""
    full = arith.muli(_extend(x, ty), _extend(y, ty))
    result = arith.trunci(ty.mlir(), full)
    return result, arith.cmpi(_P.ne, _extend(result, ty), full)


def _division_ok(ty: T.Int, x: ir.Value, d: ir.Value) -> ir.Value:
    """d != 0, and not MIN / -1 for signed types (the two divisions that panic)."""
    ok = arith.cmpi(_P.ne, d, _c(ty, 0))
    if ty.signed:
        min_by_minus_one = arith.andi(arith.cmpi(_P.eq, x, _c(ty, _min(ty))), arith.cmpi(_P.eq, d, _c(ty, (1 << ty.bits) - 1)))
        ok = arith.andi(ok, arith.xori(min_by_minus_one, i1(True)))
    return ok


@device_method(T.Int, "overflowing_mul",
               when=lambda em, recv, name, args, *_: len(args) == 1)
def _overflowing_mul(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val:
    result, overflow = mul_overflow(recv.ty, recv.v, _arg(em, args, 0, recv.ty))
    return Val(T.Tuple((recv.ty, T.BOOL)), [Val(recv.ty, result), Val(T.BOOL, overflow)])


@device_method(T.Int, "checked_add", "checked_sub", "checked_mul", "checked_div", "checked_rem", "checked_neg",
               "checked_shl", "checked_shr",
               when=lambda em, recv, name, args, *_: len(args) == (0 if name == "checked_neg" else 1))
def _checked(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val:
    ty = recv.ty
    x = recv.v
    op = name[len("checked_"):]
    if op in ("add", "sub"):
        value, overflow = add_sub_overflow(ty, op, x, _arg(em, args, 0, ty))
        ok = arith.xori(overflow, i1(True))
    elif op == "mul":
        value, overflow = mul_overflow(ty, x, _arg(em, args, 0, ty))
        ok = arith.xori(overflow, i1(True))
    elif op == "neg":
        value, overflow = add_sub_overflow(ty, "sub", _c(ty, 0), x)
        # Unsigned: only 0 has a negation; add_sub_overflow's borrow says exactly that.
        ok = arith.xori(overflow, i1(True))
    elif op in ("div", "rem"):
        d = _arg(em, args, 0, ty)
        ok = _division_ok(ty, x, d)
        safe = arith.select(ok, d, _c(ty, 1))
        value = {("div", True): arith.divsi, ("div", False): arith.divui,
                 ("rem", True): arith.remsi, ("rem", False): arith.remui}[(op, ty.signed)](x, safe)
    else:
        u32 = T.PRIMITIVES["u32"]
        n = _arg(em, args, 0, u32)
        ok = arith.cmpi(_P.ult, n, _c(u32, ty.bits))
        amount = arith.andi(n, _c(u32, ty.bits - 1))
        amount = amount if ty.bits == 32 else (arith.extui if ty.bits > 32 else arith.trunci)(ty.mlir(), amount)
        value = (arith.shli if op == "shl" else arith.shrsi if ty.signed else arith.shrui)(x, amount)
    return Val(T.OptionTy(ty), OptionVal(ok, Val(ty, value)))


@device_method(T.Int, "saturating_add", "saturating_sub", "saturating_mul",
               when=lambda em, recv, name, args, *_: len(args) == 1)
def _saturating(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val:
    ty = recv.ty
    x, y = recv.v, _arg(em, args, 0, ty)
    op = name[len("saturating_"):]
    if op == "mul":
        value, overflow = mul_overflow(ty, x, y)
        if ty.signed:
            negative = arith.xori(arith.cmpi(_P.slt, x, _c(ty, 0)), arith.cmpi(_P.slt, y, _c(ty, 0)))
            bound = arith.select(negative, _c(ty, _min(ty)), _c(ty, _max(ty)))
        else:
            bound = _c(ty, _max(ty))
        return Val(ty, arith.select(overflow, bound, value))
    value, overflow = add_sub_overflow(ty, op, x, y)
    if ty.signed:
        # A signed add/sub overflows towards x's side: past MAX when x >= 0, past MIN when x < 0.
        bound = arith.select(arith.cmpi(_P.slt, x, _c(ty, 0)), _c(ty, _min(ty)), _c(ty, _max(ty)))
    else:
        bound = _c(ty, _max(ty) if op == "add" else 0)
    return Val(ty, arith.select(overflow, bound, value))


_DOUBLE_WIDTH_ARITY = {"widening_mul": 1, "carrying_mul": 2, "carrying_mul_add": 3}


@device_method(T.Int, "widening_mul", "carrying_mul", "carrying_mul_add",
               when=lambda em, recv, name, args, *_: recv.ty.bits <= 64 and len(args) == _DOUBLE_WIDTH_ARITY[name])
def _double_width(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val:
    ty = recv.ty
    want = _DOUBLE_WIDTH_ARITY[name]
    full = arith.muli(_extend(recv.v, ty), _extend(_arg(em, args, 0, ty), ty))
    for i in range(1, want):  # the carry and the addend; the sum cannot overflow the double width
        full = arith.addi(full, _extend(_arg(em, args, i, ty), ty))
    low_ty = T.Int(ty.bits, False)  # Rust: the low half is unsigned even for signed operands
    return Val(T.Tuple((low_ty, ty)), [Val(low_ty, arith.trunci(ty.mlir(), full)), Val(ty, _high(full, ty))])


@device_method(T.Int, "abs_diff",
               when=lambda em, recv, name, args, *_: len(args) == 1)
def _abs_diff(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val:
    ty = recv.ty
    x, y = recv.v, _arg(em, args, 0, ty)
    less = arith.cmpi(_P.slt if ty.signed else _P.ult, x, y)
    # The difference of the larger and the smaller, as an unsigned number (fits even for i32::MIN..MAX).
    diff = arith.select(less, arith.subi(y, x), arith.subi(x, y))
    return Val(T.Int(ty.bits, False), diff)


@device_method(T.Int, "unsigned_abs",
               when=lambda em, recv, name, args, *_: recv.ty.signed and not args)
def _unsigned_abs(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val:
    ty = recv.ty
    negative = arith.cmpi(_P.slt, recv.v, _c(ty, 0))
    return Val(T.Int(ty.bits, False), arith.select(negative, arith.subi(_c(ty, 0), recv.v), recv.v))


@device_method(T.Int, "signum", "is_positive", "is_negative",
               when=lambda em, recv, name, args, *_: recv.ty.signed and not args)
def _sign(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val:
    ty = recv.ty
    zero = _c(ty, 0)
    if name == "is_positive":
        return Val(T.BOOL, arith.cmpi(_P.sgt, recv.v, zero))
    if name == "is_negative":
        return Val(T.BOOL, arith.cmpi(_P.slt, recv.v, zero))
    positive = arith.extui(ty.mlir(), arith.cmpi(_P.sgt, recv.v, zero))
    negative = arith.extui(ty.mlir(), arith.cmpi(_P.slt, recv.v, zero))
    return Val(ty, arith.subi(positive, negative))


@device_method(T.Int, "reverse_bits",
               when=lambda em, recv, name, args, *_: not args)
def _reverse_bits(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val:
    return Val(recv.ty, llvm.intr_bitreverse(recv.v))


@device_method(T.Int, "wrapping_neg",
               when=lambda em, recv, name, args, *_: not args)
def _wrapping_neg(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val:
    return Val(recv.ty, arith.subi(_c(recv.ty, 0), recv.v))


@device_method(T.Int, "wrapping_shl", "wrapping_shr",
               when=lambda em, recv, name, args, *_: len(args) == 1)
def _wrapping_shift(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val:
    ty = recv.ty
    u32 = T.PRIMITIVES["u32"]
    amount = arith.andi(_arg(em, args, 0, u32), _c(u32, ty.bits - 1))
    amount = amount if ty.bits == 32 else (arith.extui if ty.bits > 32 else arith.trunci)(ty.mlir(), amount)
    op = arith.shli if name == "wrapping_shl" else arith.shrsi if ty.signed else arith.shrui
    return Val(ty, op(recv.v, amount))


@device_method(T.Int, "leading_ones", "trailing_ones", "count_zeros",
               when=lambda em, recv, name, args, *_: not args)
def _ones(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val:
    ty = recv.ty
    inverted = arith.xori(recv.v, _c(ty, (1 << ty.bits) - 1))
    count = {"leading_ones": lambda v: llvm.intr_ctlz(v, False), "trailing_ones": lambda v: llvm.intr_cttz(v, False),
             "count_zeros": llvm.intr_ctpop}[name](inverted)
    u32 = T.PRIMITIVES["u32"]
    if ty.bits != 32:
        count = (arith.extui if ty.bits < 32 else arith.trunci)(u32.mlir(), count)
    return Val(u32, count)


@device_method(T.Int, "cast_unsigned", "cast_signed",
               when=lambda em, recv, name, args, *_: not args and recv.ty.signed == (name == "cast_unsigned"))
def _cast_sign(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val:
    ty = recv.ty
    target = {T.USIZE: T.ISIZE, T.ISIZE: T.USIZE}.get(ty, T.Int(ty.bits, not ty.signed))
    return Val(target, recv.v)  # the same bits, read with the other signedness
