"""Raw-pointer and handle methods beyond device_api.py's core set: `cast()` with its target from context (the
other pointer methods are language_methods.py's), `row_width` of a runtime 2-D DisjointSlice, `ptr::null()`,
`ptr::eq(a, b)`, and `SharedArray::as_raw_mut_ptr(p)` / `as_raw_ptr(p)` of a `*mut SharedArray<T, N>`."""

from __future__ import annotations

from typing import Any

from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.registry import device_fn, device_method
from oxide.frontends.simt.places import shared_pointer
from oxide.frontends.simt.values import Val


@device_method(T.Ptr, "cast", "cast_mut", "cast_const", when=lambda em, recv, name, args, *_: not args)
def _cast(em: Any, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val:
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


@device_method(T.Disjoint, "row_width", when=lambda em, recv, name, args, *_:
               not args and (recv.ty.space == "runtime_2d" or recv.ty.space.startswith("rttiles:")))
def _row_width(em: Any, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
               loc: Any, expected: T.Ty | None) -> Val:
    """`s.row_width()` of a `DisjointSlice<T, Runtime2DIndex>` (or `RuntimeRowMajorTiles<R, C>`): its elements
    per row, as u32."""
    return Val(T.PRIMITIVES["u32"], simt.RowWidthOp.build(recv.v))


def _as_pointer(em: Any, a: ast.Expr) -> Val:
    value = em.expr(a)
    if isinstance(value.ty, T.Shared):
        return shared_pointer(value)  # `&raw mut TILE`
    if not isinstance(value.ty, T.Ptr):
        raise err(a.loc, f"expected a raw pointer, found `{value.ty}`")
    return value


@device_fn("ptr::eq", when=lambda em, segs, generics, args, *_: len(args) == 2)
def _ptr_eq(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
            loc: Any) -> Val:
    """`ptr::eq(a, b)`: whether two pointers hold the same address (compared as generic addresses, so a
    shared pointer equals the generic pointer made from its address)."""
    a, b = (_as_pointer(em, x) for x in args)
    if a.ty.elem != b.ty.elem:
        raise err(loc, f"`ptr::eq` takes two pointers of one type, not `{a.ty}` and `{b.ty}`")
    same = arith.cmpi(arith.CmpIPredicate.eq, simt.PtrToIntOp.build(a.v), simt.PtrToIntOp.build(b.v))
    return Val(T.BOOL, same)


@device_fn("SharedArray::as_raw_mut_ptr", "SharedArray::as_raw_ptr",
           when=lambda em, segs, generics, args, *_: len(args) == 1)
def _shared_raw_ptr(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                    loc: Any) -> Val:
    """`SharedArray::as_raw_mut_ptr(p)` (unsafe): the pointer to element 0 of the shared array `p` points to,
    made without a `&mut` of the array (threads then write disjoint elements through it)."""
    em.require_unsafe(loc, f"`SharedArray::{segs[-1]}`")
    array = _as_pointer(em, args[0])
    if not isinstance(array.ty.elem, T.Array):
        raise err(args[0].loc, f"`SharedArray::{segs[-1]}` takes a `*mut SharedArray<T, N>`, not `{array.ty}`")
    ptr = T.Ptr(array.ty.elem.elem, segs[-1] == "as_raw_mut_ptr", array.ty.space)
    return Val(ptr, simt.PtrCastOp.build(array.v, results=[ptr.mlir()]))
