"""Raw-pointer and handle methods beyond device_api.py's core set: `cast()` with its target from context (the
other pointer methods are language_methods.py's), `row_width` of a runtime 2-D DisjointSlice, and
`ptr::null()`."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.rust import ast
from oxide.frontends.rust import types as T
from oxide.frontends.rust.emit_support import err
from oxide.frontends.rust.intrinsics.registry import device_fn, device_method
from oxide.frontends.rust.values import Val


@device_method("cast", "cast_mut", "cast_const")
def _cast(em: Any, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val | None:
    if not isinstance(recv.ty, T.Ptr) or args:
        return None
    mutable = {"cast": recv.ty.mutable, "cast_mut": True, "cast_const": False}[name]
    elem = recv.ty.elem
    if name == "cast":
        if generics:
            elem = em.resolve_type(generics[0])
        elif isinstance(expected, T.Ptr):
            elem = expected.elem
        else:
            raise err(loc, "cannot infer the target type of `cast()`; write `cast::<T>()` or annotate the binding")
    try:
        elem.mlir()
    except TypeError:
        raise err(loc, f"a raw pointer of `{elem}` elements is not supported in device code yet "
                       "(elements must be integers, floats, bools or arrays of them)") from None
    target = T.Ptr(elem, mutable, recv.ty.space)
    if elem == recv.ty.elem:
        return Val(target, recv.v)
    return Val(target, simt.PtrCastOp.build(recv.v, results=[target.mlir()]))


@device_method("row_width")
def _row_width(em: Any, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
               loc: Any, expected: T.Ty | None) -> Val | None:
    """`s.row_width()` of a `DisjointSlice<T, Runtime2DIndex>` (or `RuntimeRowMajorTiles<R, C>`): its elements
    per row, as u32."""
    if not isinstance(recv.ty, T.Disjoint) or args or \
            not (recv.ty.space == "runtime_2d" or recv.ty.space.startswith("rttiles:")):
        return None
    return Val(T.PRIMITIVES["u32"], simt.RowWidthOp.build(recv.v))


@device_fn("null", "null_mut")
def _null(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
          loc: Any) -> Val | None:
    """`ptr::null()` / `ptr::null_mut()`: the generic pointer with address 0."""
    if len(segs) < 2 or segs[-2] != "ptr" or args:
        return None
    if generics:
        elem = em.resolve_type(generics[0])
    elif isinstance(expected, T.Ptr):
        elem = expected.elem
    else:
        raise err(loc, f"cannot infer the pointee of `ptr::{segs[-1]}()`; write `ptr::{segs[-1]}::<T>()`")
    ptr = T.Ptr(elem, segs[-1] == "null_mut", 0)
    zero = arith.constant(ir.IntegerType.get_signless(64), 0)
    return Val(ptr, simt.IntToPtrOp.build(zero, results=[ptr.mlir()]))
