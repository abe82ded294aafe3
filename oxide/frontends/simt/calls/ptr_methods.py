"""Raw pointers: their methods (`add`/`offset`/`sub` and the wrapping forms, `read`/`write` and the volatile
forms, `cast` / `cast_mut` / `cast_const`, `addr`, `is_null`, `offset_from` and its unsigned and byte forms;
a shared array's pointer methods through its `*mut SharedArray<T, N>`), `ptr::eq(a, b)`,
`SharedArray::as_raw_mut_ptr(p)` / `as_raw_ptr(p)`, and `row_width` of a runtime 2-D DisjointSlice."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import call_method, device_fn, device_method
from oxide.frontends.simt.calls.scalars import i64
from oxide.frontends.simt.expressions.indexing import index_value
from oxide.frontends.simt.places import shared_pointer
from oxide.frontends.simt.values import Val


def _no_args(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    return not args


@device_method(T.Ptr, "cast", "cast_mut", "cast_const", when=_no_args)
def _cast(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
          loc: Any, expected: T.Ty | None) -> Val:
    """`cast::<U>()` (always a cast op), `cast()` to the pointee the context expects, `cast_mut()` /
    `cast_const()`."""
    if name == "cast" and len(generics) == 1:
        target = em.resolve_type(ast.PtrTy(loc, generics[0], recv.ty.mutable))
        target = T.Ptr(target.elem, recv.ty.mutable, recv.ty.space)
        return Val(target, simt.PtrCastOp.build(recv.v, results=[target.mlir()]))
    if name != "cast":
        return Val(T.Ptr(recv.ty.elem, name == "cast_mut", recv.ty.space), recv.v)
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
    target = T.Ptr(elem, recv.ty.mutable, recv.ty.space)
    if elem == recv.ty.elem:
        return Val(target, recv.v)
    return Val(target, simt.PtrCastOp.build(recv.v, results=[target.mlir()]))


@device_method(T.Ptr, "addr", "expose_provenance", when=_no_args)
def _addr(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
          loc: Any, expected: T.Ty | None) -> Val:
    return Val(T.USIZE, simt.PtrToIntOp.build(recv.v))  # the address, as `p as usize`


@device_method(T.Ptr, "is_null", when=_no_args)
def _is_null(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
             loc: Any, expected: T.Ty | None) -> Val:
    zero = arith.constant(i64(), ir.IntegerAttr.get(i64(), 0))
    return Val(T.BOOL, arith.cmpi(arith.CmpIPredicate.eq, simt.PtrToIntOp.build(recv.v), zero))


@device_method(T.Ptr, "offset_from", "offset_from_unsigned", "byte_offset_from", "byte_offset_from_unsigned",
               when=lambda em, recv, name, args, *_: len(args) == 1)
def _offset_from(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
                 loc: Any, expected: T.Ty | None) -> Val:
    """(self - origin) in elements (or bytes); both point into the same allocation (the caller's promise)."""
    em.require_unsafe(loc, f"`{name}`")
    origin = em.expr(args[0])
    if not isinstance(origin.ty, T.Ptr) or origin.ty.elem != recv.ty.elem:
        raise err(args[0].loc, f"`{name}` takes a pointer of the same type, not `{origin.ty}`")
    bytes_ = arith.subi(simt.PtrToIntOp.build(recv.v), simt.PtrToIntOp.build(origin.v))
    size = 1 if name.startswith("byte_") else T.layout(recv.ty.elem)[0]
    result_ty = T.USIZE if name.endswith("_unsigned") else T.ISIZE
    divide = arith.divui if name.endswith("_unsigned") else arith.divsi
    return Val(result_ty, divide(bytes_, arith.constant(i64(), ir.IntegerAttr.get(i64(), size))))


@device_method(T.Ptr, "add", "offset", "wrapping_add", "wrapping_offset", "sub", "wrapping_sub")
def _offset(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
            loc: Any, expected: T.Ty | None) -> Val:
    if not name.startswith("wrapping_"):  # the wrapping forms are safe to call (only a deref is not)
        em.require_unsafe(loc, f"`{name}` on a raw pointer")
    if name in ("offset", "wrapping_offset"):
        i = arith.index_cast(ir.IndexType.get(), em.coerce(em.expr(args[0], T.ISIZE), T.ISIZE, args[0].loc).v)
    else:
        i = index_value(em, args[0])
        if name in ("sub", "wrapping_sub"):
            i = arith.subi(arith.constant(ir.IndexType.get(), 0), i)
    return Val(recv.ty, simt.PtrOffsetOp.build(recv.v, i))


@device_method(T.Ptr, "read", "read_volatile")
def _read(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
          loc: Any, expected: T.Ty | None) -> Val:
    em.require_unsafe(loc, f"`{name}` on a raw pointer")
    op = simt.VolatileLoadOp if name == "read_volatile" else simt.PtrLoadOp
    return Val(recv.ty.elem, op.build(recv.v))


@device_method(T.Ptr, "write", "write_volatile")
def _write(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
           loc: Any, expected: T.Ty | None) -> Val:
    em.require_unsafe(loc, f"`{name}` on a raw pointer")
    value = em.coerce(em.expr(args[0], recv.ty.elem), recv.ty.elem, args[0].loc)
    (simt.VolatileStoreOp if name == "write_volatile" else simt.PtrStoreOp).build(recv.v, value.v)
    return Val(T.UNIT, None)


@device_method(T.Shared, "addr", "expose_provenance", "is_null", "cast", "cast_mut", "cast_const")
def _shared_as_pointer(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
                       loc: Any, expected: T.Ty | None) -> Val:
    """`(&raw mut TILE).addr()`: the methods of the `*mut SharedArray<T, N>` the shared array is."""
    ptr = shared_pointer(recv)
    found = call_method(em, ptr, name, args, loc, expected, generics)
    if found is None:
        raise err(loc, f"no method named `{name}` found for `{ptr.ty}`")
    return found


@device_method(T.Disjoint, "row_width", when=lambda em, recv, name, args, *_:
               not args and (recv.ty.space == "runtime_2d" or recv.ty.space.startswith("rttiles:")))
def _row_width(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
               loc: Any, expected: T.Ty | None) -> Val:
    """`s.row_width()` of a `DisjointSlice<T, Runtime2DIndex>` (or `RuntimeRowMajorTiles<R, C>`): its elements
    per row, as u32."""
    return Val(T.PRIMITIVES["u32"], simt.RowWidthOp.build(recv.v))


def _as_pointer(em: Emitter, a: ast.Expr) -> Val:
    value = em.expr(a)
    if isinstance(value.ty, T.Shared):
        return shared_pointer(value)  # `&raw mut TILE`
    if not isinstance(value.ty, T.Ptr):
        raise err(a.loc, f"expected a raw pointer, found `{value.ty}`")
    return value


@device_fn("ptr::eq", when=lambda em, segs, generics, args, *_: len(args) == 2)
def _ptr_eq(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
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
def _shared_raw_ptr(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                    loc: Any) -> Val:
    """`SharedArray::as_raw_mut_ptr(p)` (unsafe): the pointer to element 0 of the shared array `p` points to,
    made without a `&mut` of the array (threads then write disjoint elements through it)."""
    em.require_unsafe(loc, f"`SharedArray::{segs[-1]}`")
    array = _as_pointer(em, args[0])
    if not isinstance(array.ty.elem, T.Array):
        raise err(args[0].loc, f"`SharedArray::{segs[-1]}` takes a `*mut SharedArray<T, N>`, not `{array.ty}`")
    ptr = T.Ptr(array.ty.elem.elem, segs[-1] == "as_raw_mut_ptr", array.ty.space)
    return Val(ptr, simt.PtrCastOp.build(array.v, results=[ptr.mlir()]))
