"""Small builders the device-call handlers share: scalar constants, u32/usize results and u32 arguments.
MLIR types are per context, so every type here is made when it is used, never at import."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith

from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.emit_support import int_attr
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast

U32 = T.PRIMITIVES["u32"]


def i32() -> ir.Type:
    """i32 in the current context."""
    return ir.IntegerType.get_signless(32)


def i64() -> ir.Type:
    """i64 in the current context."""
    return ir.IntegerType.get_signless(64)


def attr_i64(value: int) -> ir.Attribute:
    return ir.IntegerAttr.get(i64(), value)


def const(ty: T.Ty, value: float | int) -> ir.Value:
    """A constant of a scalar semantic type."""
    if isinstance(ty, T.Float):
        return arith.constant(ty.mlir(), ir.FloatAttr.get(ty.mlir(), float(value)))
    return arith.constant(ty.mlir(), int_attr(ty.mlir(), int(value)))


def u32(v: ir.Value) -> Val:
    return Val(U32, v)


def usize(v: ir.Value) -> Val:
    """An index-typed value as usize."""
    return Val(T.USIZE, arith.index_cast(i64(), v) if str(v.type) == "index" else v)


def u32_arg(em: Emitter, a: ast.Expr) -> ir.Value:
    return em.coerce(em.expr(a, U32), U32, a.loc).v


def full_mask() -> ir.Value:
    """The all-lanes warp mask (-1 as i32)."""
    return arith.constant(i32(), ir.IntegerAttr.get(i32(), -1))
