"""Raw-pointer and handle methods beyond device_api.py's core set: `cast`, `cast_mut`, `cast_const`, `is_null`,
the `offset_from` family, `row_width` of a runtime 2-D DisjointSlice, and the element copies behind
`ptr::copy` / `ptr::copy_nonoverlapping`."""

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


@device_method("is_null")
def _is_null(em: Any, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val | None:
    if not isinstance(recv.ty, T.Ptr) or args:
        return None
    address = simt.PtrToIntOp.build(recv.v)
    zero = arith.constant(address.type, 0)
    return Val(T.BOOL, arith.cmpi(arith.CmpIPredicate.eq, address, zero))


def _elem_bytes(ty: T.Ty, loc: Any) -> int:
    if isinstance(ty, (T.Int, T.Float)):
        return ty.bits // 8
    raise err(loc, f"`offset_from` on pointers to `{ty}` is not supported in device code (integers and floats)")


@device_method("offset_from", "offset_from_unsigned", "byte_offset_from", "byte_offset_from_unsigned")
def _offset_from(em: Any, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val | None:
    if not isinstance(recv.ty, T.Ptr) or len(args) != 1:
        return None
    em.require_unsafe(loc, f"`{name}`")
    origin = em.expr(args[0])
    if not isinstance(origin.ty, T.Ptr) or (origin.ty.elem != recv.ty.elem and not name.startswith("byte_")):
        raise err(args[0].loc, f"`{name}` takes a pointer to `{recv.ty.elem}`, not `{origin.ty}`")
    size = 1 if name.startswith("byte_") else _elem_bytes(recv.ty.elem, loc)
    delta = arith.subi(simt.PtrToIntOp.build(recv.v), simt.PtrToIntOp.build(origin.v))
    # Rust requires the distance to be a whole number of elements (else UB), so the division is exact.
    count = arith.divsi(delta, arith.constant(delta.type, size)) if size > 1 else delta
    return Val(T.USIZE if name.endswith("_unsigned") else T.ISIZE, count)


@device_method("row_width")
def _row_width(em: Any, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
               loc: Any, expected: T.Ty | None) -> Val | None:
    """`s.row_width()` of a `DisjointSlice<T, Runtime2DIndex>`: its elements per row, as u32."""
    if not isinstance(recv.ty, T.Disjoint) or recv.ty.space != "runtime_2d" or args:
        return None
    return Val(T.PRIMITIVES["u32"], simt.RowWidthOp.build(recv.v))


@device_method("addr", "expose_provenance")
def _addr(em: Any, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
          loc: Any, expected: T.Ty | None) -> Val | None:
    """`p.addr()`: the pointer's (generic) address as a usize, as `p as usize` gives it."""
    if not isinstance(recv.ty, T.Ptr) or args:
        return None
    return Val(T.USIZE, simt.PtrToIntOp.build(recv.v))


def copy_elements(src: Any, dst: Any, count: Any, descending: bool) -> None:
    """dst[i] = src[i] for i in 0..count (an index), in ascending or descending order of i."""
    from mlir.dialects import scf

    one = arith.constant(ir.IndexType.get(), 1)
    loop = scf.ForOp(arith.constant(ir.IndexType.get(), 0), count, one)
    with ir.InsertionPoint(loop.body):
        k = loop.induction_variable
        i = arith.subi(arith.subi(count, one), k) if descending else k
        value = simt.PtrLoadOp.build(simt.PtrOffsetOp.build(src, i))
        simt.PtrStoreOp.build(simt.PtrOffsetOp.build(dst, i), value)
        scf.YieldOp([])


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
