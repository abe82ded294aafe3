"""Values that are never read: the payload of `None`, the result of a branch that does not return."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.simt import branch_results
from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_support import i1
from oxide.frontends.simt.values import OptionVal, Val, zero_value


def none_of(ty: T.OptionTy) -> Val:
    return Val(ty, OptionVal(i1(False), placeholder(ty.inner)))


def placeholder(ty: T.Ty) -> Val:
    """A value of `ty` that is never read (the payload of None)."""
    if isinstance(ty, (T.Int, T.Float, T.Bool, T.Enum)):
        return Val(ty, zero_value(ty))
    if isinstance(ty, (T.Tuple, T.Struct)):
        parts = ty.elems if isinstance(ty, T.Tuple) else [f for _, f in ty.fields]
        return Val(ty, [placeholder(p) for p in parts])
    if isinstance(ty, T.Ptr):
        generic = T.Ptr(ty.elem, ty.mutable, 0)
        null = simt.IntToPtrOp.build(arith.constant(ir.IntegerType.get_signless(64), 0), results=[generic.mlir()])
        return Val(ty, null if ty.space == 0 else simt.FromGenericOp.build(null, results=[ty.mlir()]))
    if isinstance(ty, T.ThreadIndex):
        return Val(ty, branch_results.placeholder_leaves(ty)[0])
    raise TypeError(f"no placeholder for {ty}")


def placeholder_or_unit(ty: T.Ty | None) -> Val:
    if ty is None or isinstance(ty, T.Unit):
        return Val(T.UNIT, None)
    return placeholder(ty)
