"""Raw-pointer and handle methods beyond device_api.py's core set: `cast()` with its target from context (the
other pointer methods are language_methods.py's), `row_width` of a runtime 2-D DisjointSlice, `ptr::null()`,
`ptr::eq(a, b)`, and `SharedArray::as_raw_mut_ptr(p)` / `as_raw_ptr(p)` of a `*mut SharedArray<T, N>`."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_support import err
from oxide.frontends.simt.calls.registry import device_fn, device_method
from oxide.frontends.simt.places import shared_pointer
from oxide.frontends.simt.values import Val


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


def _as_pointer(em: Any, a: ast.Expr) -> Val:
    value = em.expr(a)
    if isinstance(value.ty, T.Shared):
        return shared_pointer(value)  # `&raw mut TILE`
    if not isinstance(value.ty, T.Ptr):
        raise err(a.loc, f"expected a raw pointer, found `{value.ty}`")
    return value


@device_fn("eq")
def _ptr_eq(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
            loc: Any) -> Val | None:
    """`ptr::eq(a, b)`: whether two pointers hold the same address (compared as generic addresses, so a
    shared pointer equals the generic pointer made from its address)."""
    if len(segs) < 2 or segs[-2] != "ptr" or len(args) != 2:
        return None
    a, b = (_as_pointer(em, x) for x in args)
    if a.ty.elem != b.ty.elem:
        raise err(loc, f"`ptr::eq` takes two pointers of one type, not `{a.ty}` and `{b.ty}`")
    same = arith.cmpi(arith.CmpIPredicate.eq, simt.PtrToIntOp.build(a.v), simt.PtrToIntOp.build(b.v))
    return Val(T.BOOL, same)


@device_fn("as_raw_mut_ptr", "as_raw_ptr")
def _shared_raw_ptr(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                    loc: Any) -> Val | None:
    """`SharedArray::as_raw_mut_ptr(p)` (unsafe): the pointer to element 0 of the shared array `p` points to,
    made without a `&mut` of the array (threads then write disjoint elements through it)."""
    if len(segs) < 2 or segs[-2] != "SharedArray" or len(args) != 1:
        return None
    em.require_unsafe(loc, f"`SharedArray::{segs[-1]}`")
    array = _as_pointer(em, args[0])
    if not isinstance(array.ty.elem, T.Array):
        raise err(args[0].loc, f"`SharedArray::{segs[-1]}` takes a `*mut SharedArray<T, N>`, not `{array.ty}`")
    ptr = T.Ptr(array.ty.elem.elem, segs[-1] == "as_raw_mut_ptr", array.ty.space)
    return Val(ptr, simt.PtrCastOp.build(array.v, results=[ptr.mlir()]))
