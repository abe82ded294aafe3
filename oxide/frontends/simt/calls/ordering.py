"""Three-way comparison: `a.cmp(&b)` and `a.partial_cmp(&b)` of integers, chars, bools and fieldless enums
(`partial_cmp` also of floats: `None` when either is NaN), giving `core::cmp::Ordering` (types.ORDERING, tag
-1/0/1), and the `Ordering` methods `is_lt` .. `is_ne`, `reverse` and `then`. Signed integers compare signed,
everything else unsigned; an enum compares its discriminants (what `#[derive(PartialOrd, Ord)]` does)."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.expressions.patterns import referent
from oxide.frontends.simt.emit_support import int_attr
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_method
from oxide.frontends.simt.values import OptionVal, Val

_I8 = T.ORDERING.storage


def _tag(value: int) -> ir.Value:
    return arith.constant(_I8.mlir(), int_attr(_I8.mlir(), value))


def _three_way(lt: ir.Value, gt: ir.Value) -> ir.Value:
    """-1 if `lt`, 1 if `gt`, else 0, as an Ordering tag."""
    return arith.select(lt, _tag(-1), arith.select(gt, _tag(1), _tag(0)))


def _other(em: Emitter, recv: Val, args: list[ast.Expr]) -> Val:
    """The argument `&other` as a value of the receiver's type."""
    value = referent(em, em.expr(args[0], recv.ty))
    return em.coerce(value, recv.ty, args[0].loc)


def _one_arg(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    return len(args) == 1


def _no_args(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    return not args


def _of_ordering(guard: Any) -> Any:
    """`guard`, on a receiver that is core::cmp::Ordering (not another enum)."""
    return lambda em, recv, *rest: recv.ty == T.ORDERING and guard(em, recv, *rest)


@device_method(T.Int, "cmp", "partial_cmp", when=_one_arg)
@device_method(T.Bool, "cmp", "partial_cmp", when=_one_arg)
@device_method(T.Enum, "cmp", "partial_cmp", when=_one_arg)
@device_method(T.Float, "partial_cmp", when=_one_arg)
def _cmp(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
         expected: T.Ty | None) -> Val:
    ty = recv.ty
    other = _other(em, recv, args).v
    if isinstance(ty, T.Float):
        lt = arith.cmpf(arith.CmpFPredicate.OLT, recv.v, other)
        gt = arith.cmpf(arith.CmpFPredicate.OGT, recv.v, other)
        ordered = arith.cmpf(arith.CmpFPredicate.ORD, recv.v, other)
        return Val(T.OptionTy(T.ORDERING), OptionVal(ordered, Val(T.ORDERING, _three_way(lt, gt))))
    signed = isinstance(ty, T.Int) and ty.signed or isinstance(ty, T.Enum) and ty.storage.signed
    lt = arith.cmpi(arith.CmpIPredicate.slt if signed else arith.CmpIPredicate.ult, recv.v, other)
    gt = arith.cmpi(arith.CmpIPredicate.sgt if signed else arith.CmpIPredicate.ugt, recv.v, other)
    ordering = Val(T.ORDERING, _three_way(lt, gt))
    if name == "partial_cmp":
        return Val(T.OptionTy(T.ORDERING), OptionVal(arith.constant(ir.IntegerType.get_signless(1), 1), ordering))
    return ordering


_PREDICATES = {"is_lt": "slt", "is_le": "sle", "is_gt": "sgt", "is_ge": "sge", "is_eq": "eq", "is_ne": "ne"}


@device_method(T.Enum, *_PREDICATES, when=_of_ordering(_no_args))
def _predicate(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    return Val(T.BOOL, arith.cmpi(getattr(arith.CmpIPredicate, _PREDICATES[name]), recv.v, _tag(0)))


@device_method(T.Enum, "reverse", when=_of_ordering(_no_args))
def _reverse(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
             expected: T.Ty | None) -> Val:
    return Val(T.ORDERING, arith.subi(_tag(0), recv.v))


@device_method(T.Enum, "then", when=_of_ordering(_one_arg))
def _then(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
          expected: T.Ty | None) -> Val:
    # `self` unless it is Equal, else the argument (both are evaluated, as in Rust: `then` takes a value).
    other = em.coerce(em.expr(args[0], T.ORDERING), T.ORDERING, args[0].loc)
    equal = arith.cmpi(arith.CmpIPredicate.eq, recv.v, _tag(0))
    return Val(T.ORDERING, arith.select(equal, other.v, recv.v))
