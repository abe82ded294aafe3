"""Method calls that are language features rather than GPU API, tried before the device API's methods:
iterator reductions and `MaybeUninit` (decided from the call's shape, before the receiver is evaluated);
check-once views and their slots and 2-D tiles, raw pointers to a local's cell (`read` / `write`) and into local
arrays, arrays in memory and local arrays (`len`, `map`, `as_slice`, `as_ptr`), slices made from slices,
`cast_unsigned` / `cast_signed`, and auto-dereferencing a reference into memory."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_support import i1
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.values import Val


def _i64() -> ir.Type:
    return ir.IntegerType.get_signless(64)


def _usize(value: int) -> ir.Value:
    return arith.constant(T.USIZE.mlir(), ir.IntegerAttr.get(T.USIZE.mlir(), value))


def method_before_receiver(em: Any, e: ast.MethodCall, expected: T.Ty | None) -> Val | None:
    """`xs.iter().map(f).sum()`, `slot.write(v)` / `slot.assume_init()` of a MaybeUninit local."""
    from oxide.frontends.simt.calls.core_calls import maybe_uninit_method
    from oxide.frontends.simt.emit_iterators import reduction

    reduced = reduction(em, e, expected)
    if reduced is not None:
        return reduced
    return maybe_uninit_method(em, e)


def method_on_value(em: Any, recv: Val, e: ast.MethodCall) -> tuple[Val | None, Val]:
    """(the call's value, or None to go on with the device API; the receiver to go on with, which is
    dereferenced when it is a reference to a scalar in memory)."""
    ty = recv.ty
    name = e.name
    if isinstance(ty, T.CellPtr):
        from oxide.frontends.simt.cell_pointers import access, no_address

        if name in ("read", "write"):
            return access(em, recv, name, e.args, e.loc), recv
        raise no_address(e.loc, f"`{name}`")
    if isinstance(ty, T.Tile2D):
        from oxide.frontends.simt.views_2d import tile_method

        return tile_method(em, recv, e), recv
    if isinstance(ty, T.Disjoint):
        from oxide.frontends.simt.views_2d import tile_view

        tile = tile_view(em, recv, e)
        if tile is not None:
            return tile, recv
    if isinstance(ty, (T.Disjoint, T.ThreadRun, T.ElemRef, T.GridRuns)):
        from oxide.frontends.simt.views import disjoint_view, grid_runs_method, run_method, slot_method

        if isinstance(ty, T.ThreadRun):
            return run_method(em, recv, e), recv
        if isinstance(ty, T.GridRuns):
            return grid_runs_method(em, recv, e), recv
        viewed = disjoint_view(em, recv, e) if isinstance(ty, T.Disjoint) else slot_method(em, recv, e)
        if viewed is not None:
            return viewed, recv
    if isinstance(ty, (T.ElemRef, T.PlaceRef)) and isinstance(ty.elem, T.Array):
        from oxide.frontends.simt.emit_places import array_ref_method

        on_array = array_ref_method(em, recv, name, e.args, e.loc)
        if on_array is not None:
            return on_array, recv
    if isinstance(ty, T.Int) and name in ("cast_unsigned", "cast_signed") and not e.args:
        # Same bits, the other signedness (`i32::cast_unsigned` is `as u32`).
        pointer_sized = ty in (T.USIZE, T.ISIZE)
        target = (T.USIZE if name == "cast_unsigned" else T.ISIZE) if pointer_sized \
            else T.Int(ty.bits, name == "cast_signed")
        return Val(target, recv.v), recv
    if isinstance(ty, T.Array) and not e.args and name == "as_ptr":
        from oxide.frontends.simt.local_pointers import array_pointer

        return array_pointer(recv), recv
    if isinstance(ty, T.LocalPtr):
        from oxide.frontends.simt import local_pointers

        return local_pointers.method(em, recv, e), recv
    if isinstance(ty, T.Array) and not e.args and name in ("as_slice", "len", "is_empty"):
        if name == "as_slice":
            from oxide.frontends.simt.local_slices import borrow_array

            return borrow_array(recv, T.Slice(ty.elem, False)), recv
        if name == "len":
            return Val(T.USIZE, _usize(ty.length)), recv
        return Val(T.BOOL, i1(ty.length == 0)), recv
    if isinstance(ty, T.Bool) and name in ("then", "then_some") and len(e.args) == 1:
        return _bool_then(em, recv, e), recv
    if isinstance(ty, T.Array) and name == "map" and len(e.args) == 1:
        from oxide.frontends.simt.calls.core_calls import array_map

        return array_map(em, recv, e.args[0], e.loc), recv
    if isinstance(ty, (T.ElemRef, T.PlaceRef)) and T.is_scalar(ty.elem):
        # Method calls auto-dereference: `x.wrapping_add(1)` of an `x: &mut u32` into memory.
        from oxide.frontends.simt.places import load_place, reference_place

        place = reference_place(recv)
        recv = load_place(em, place) if place is not None else Val(ty.elem, simt.RefLoadOp.build(recv.v))
        ty = recv.ty
    if isinstance(ty, T.PtrSlice) and name in ("as_ptr", "as_mut_ptr") and not e.args:
        from oxide.frontends.simt.ptr_slices import as_ptr

        if name == "as_mut_ptr" and not ty.mutable:
            raise err(e.loc, "`as_mut_ptr` needs a `&mut [T]`")
        return as_ptr(recv, name == "as_mut_ptr"), recv
    if isinstance(ty, (T.LocalSlice, T.PtrSlice)) and name in ("len", "is_empty") and not e.args:
        from oxide.frontends.simt.local_slices import length

        n = length(recv)
        return (n if name == "len" else Val(T.BOOL, arith.cmpi(arith.CmpIPredicate.eq, n.v, _usize(0)))), recv
    if isinstance(ty, (T.Slice, T.ElemRef, T.PlaceRef, T.LocalSlice, T.PtrSlice)):
        from oxide.frontends.simt.emit_slices import slice_method

        pieces = slice_method(em, recv, e)
        if pieces is not None:
            return pieces, recv
    if isinstance(ty, T.Shared) and name in ("addr", "expose_provenance", "is_null", "cast", "cast_mut", "cast_const"):
        from oxide.frontends.simt.places import shared_pointer

        recv = shared_pointer(recv)  # `(&raw mut TILE).addr()`: the `*mut SharedArray<T, N>`'s methods
        ty = recv.ty
    if isinstance(ty, T.Ptr):
        return _pointer_method(em, recv, e), recv
    return None, recv


def _bool_then(em: Any, flag: Val, e: ast.MethodCall) -> Val:
    """`b.then_some(v)` (v is computed either way) and `b.then(|| v)` (the closure runs only when b)."""
    from oxide.frontends.simt.expressions.branch_values import value_if
    from oxide.frontends.simt.expressions.placeholders import placeholder_or_unit
    from oxide.frontends.simt.values import OptionVal

    if e.name == "then_some":
        value = em.expr(e.args[0])
    else:
        f = em.expr(e.args[0])
        if not isinstance(f.ty, T.Closure):
            raise err(e.args[0].loc, "`then` takes a closure")
        value = value_if(em, flag.v, lambda: em.call_closure(f, [], e.loc), placeholder_or_unit, e.loc)
    return Val(T.OptionTy(value.ty), OptionVal(flag.v, value))


def _pointer_method(em: Any, recv: Val, e: ast.MethodCall) -> Val | None:
    """cast::<U>, cast_mut / cast_const, addr, is_null, offset_from and its unsigned and byte forms."""
    ty: T.Ptr = recv.ty
    name = e.name
    if name == "cast" and len(e.generics) == 1 and not e.args:
        target = em.resolve_type(ast.PtrTy(e.loc, e.generics[0], ty.mutable))
        target = T.Ptr(target.elem, ty.mutable, ty.space)
        return Val(target, simt.PtrCastOp.build(recv.v, results=[target.mlir()]))
    if name in ("cast_mut", "cast_const") and not e.args:
        return Val(T.Ptr(ty.elem, name == "cast_mut", ty.space), recv.v)
    if name in ("addr", "expose_provenance") and not e.args:
        return Val(T.USIZE, simt.PtrToIntOp.build(recv.v))  # the address, as `p as usize`
    if name == "is_null" and not e.args:
        zero = arith.constant(_i64(), ir.IntegerAttr.get(_i64(), 0))
        return Val(T.BOOL, arith.cmpi(arith.CmpIPredicate.eq, simt.PtrToIntOp.build(recv.v), zero))
    if name in ("offset_from", "offset_from_unsigned", "byte_offset_from", "byte_offset_from_unsigned") \
            and len(e.args) == 1:
        # (self - origin) in elements; both point into the same allocation (the caller's promise).
        em.require_unsafe(e.loc, f"`{name}`")
        origin = em.expr(e.args[0])
        if not isinstance(origin.ty, T.Ptr) or origin.ty.elem != ty.elem:
            raise err(e.args[0].loc, f"`{name}` takes a pointer of the same type, not `{origin.ty}`")
        bytes_ = arith.subi(simt.PtrToIntOp.build(recv.v), simt.PtrToIntOp.build(origin.v))
        size = 1 if name.startswith("byte_") else T.layout(ty.elem)[0]
        result_ty = T.USIZE if name.endswith("_unsigned") else T.ISIZE
        divide = arith.divui if name.endswith("_unsigned") else arith.divsi
        return Val(result_ty, divide(bytes_, arith.constant(_i64(), ir.IntegerAttr.get(_i64(), size))))
    return None
