"""Place expressions over memory: `s[i]`, `r.f`, `r[i][j]`, `*p` and `&mut ...` of them, where the base is a
slice, shared array, element reference or pointer whose element is an aggregate (see places.py).

A chain like `rows[r][c]` or `cells[i].lo` is walked without reading memory; only the end of the chain is
read (in value position) or written (as an assignment target).
"""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from mlir import ir

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import local_pointers
from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_slices import subslice
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.expressions.indexing import field_of, index_on_value, index_value, local_cell
from oxide.frontends.simt.local_slices import borrow_array
from oxide.frontends.simt.places import (
    Place, as_reference, element_place, field_place, load_place, pointer_place, reference_place, slice_of_array,
    store_place,
)
from oxide.frontends.simt.ptr_slices import element_place as ptr_slice_element
from oxide.frontends.simt.values import Val, load_cell

if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


def place_or_value(em: FunctionEmitter, e: ast.Expr) -> Place | Val:
    """The memory place `e` denotes when it is one (nothing read yet), else the value of `e`."""
    if isinstance(e, ast.Index) and isinstance(e.index, ast.Range):
        cell = local_cell(em, e.base)
        if cell is not None and isinstance(cell.ty, T.Array):
            base = Val(T.LocalRef(cell.ty, True), cell)  # `&mut arr[..k]` of a `let mut` array: its window
        else:
            base = place_or_value(em, e.base)
        return subslice(em, as_reference(base) if isinstance(base, Place) else base, e.index, e.loc)
    if isinstance(e, ast.Index):
        base = _through_local_ref(place_or_value(em, e.base))
        place = index_place(em, base, e)
        return place if place is not None else index_on_value(em, as_value(em, base), e)
    if isinstance(e, ast.Field):
        base = _through_local_ref(place_or_value(em, e.base))
        place = base if isinstance(base, Place) else reference_place(base)
        if place is not None:
            return field_place(place, e.name, e.loc)
        return field_of(em, base, e.name, e.loc)
    if isinstance(e, ast.Unary) and e.op == "*":
        ref = em.expr(e.operand)
        place = deref_place(em, ref, e.loc)
        return place if place is not None else deref_value(em, ref, e)
    return em.expr(e)


def deref_value(em: FunctionEmitter, v: Val, e: ast.Unary) -> Val:
    """`*v` when v is not a reference into memory: a local's storage (also through an `addr_of!` pointer), the
    element a pointer into a local array is at, an element reference, a pointer to an atomic cell, or a by-value
    `&T`."""
    if isinstance(v.ty, T.LocalRef):
        return load_cell(v.v)
    if isinstance(v.ty, T.CellPtr):
        em.require_unsafe(e.loc, "dereferencing a raw pointer")
        return load_cell(v.v)  # `addr_of!(x)`: the local's cell
    if isinstance(v.ty, T.LocalPtr):
        return local_pointers.read(em, v, e.loc)  # `arr.as_ptr()`: the element at its position
    if isinstance(v.ty, T.ElemRef):
        return Val(v.ty.elem, simt.RefLoadOp.build(v.v))
    if isinstance(v.ty, T.Ptr):
        em.require_unsafe(e.loc, "dereferencing a raw pointer")
        return Val(v.ty.elem, v.v)  # `&*(p as *const DeviceAtomicU32)`: the cell, in place
    return v  # `*x` of a by-value `&T`


def _through_local_ref(p: Place | Val) -> Place | Val:
    """Indexing and field access see through a `&mut local` (`row[1]` of `row = &mut grid[0]`)."""
    if isinstance(p, Val) and isinstance(p.ty, T.LocalRef):
        return load_cell(p.v)
    return p


def as_value(em: FunctionEmitter, p: Place | Val) -> Val:
    """A place read, or a value as it is."""
    return load_place(em, p) if isinstance(p, Place) else p


def deref_place(em: FunctionEmitter, ref: Val, loc: Any) -> Place | None:
    """`*ref` as a place when `ref` is a reference into memory or a raw pointer (unsafe)."""
    place = reference_place(ref)
    if place is not None:
        return place
    if isinstance(ref.ty, T.Ptr) and not isinstance(ref.ty.elem, T.Atomic):
        em.require_unsafe(loc, "dereferencing a raw pointer")
        if isinstance(ref.ty.elem, T.Ptr):
            raise err(loc, "reading a pointer from memory (`*p` of a `*const *const T`) is not supported in device "
                           "code; only a pointer into a local array of pointers (`slots.as_ptr()`) can be read")
        return pointer_place(ref)
    return None


def index_place(em: FunctionEmitter, base: Place | Val, e: ast.Index) -> Place | None:
    """`base[i]` as a place: an array place (or a reference to one), a slice of shared or generic memory, or a
    slice / shared array whose elements are aggregates. None when `base[i]` is a plain value read (scalar slices, local arrays)."""
    place = base if isinstance(base, Place) else reference_place(base)
    if place is not None:
        if isinstance(place.ty, T.Array):
            return element_place(em, place, index_value(em, e.index), e.loc)
        return None
    ty = base.ty
    if isinstance(ty, T.PtrSlice):
        return ptr_slice_element(em, base, index_value(em, e.index))
    if isinstance(ty, T.Slice) and T.is_aggregate(ty.elem):
        ptr_ty = T.Ptr(ty.elem, True, 1).mlir()
        return Place(simt.ElemPtrOp.build(base.v, index_value(em, e.index), results=[ptr_ty]), ty.elem, ty.mutable, 1)
    if isinstance(ty, T.Shared) and T.is_aggregate(ty.elem):
        em.require_unsafe(e.loc, "accessing a `static mut` shared array")
        first = simt.SharedPtrOp.build(base.v, results=[T.Ptr(ty.elem, True, 3).mlir()])
        return element_place(em, Place(_shared_as_array(first, ty), T.Array(ty.elem, ty.length), True, 3),
                             index_value(em, e.index), e.loc)
    return None


def _shared_as_array(first: ir.Value, ty: T.Shared) -> ir.Value:
    return simt.PtrCastOp.build(first, results=[T.Ptr(T.Array(ty.elem, ty.length), True, 3).mlir()])


def assign_place(em: FunctionEmitter, target: ast.Expr, rhs: Any) -> bool | Val | None:
    """Store `rhs(place type)` into `target` when it is a memory place (`s[i].f = v`, `row[j] = v`, `*r = v`
    of an aggregate) and return True. Otherwise return what was evaluated on the way (the base of an index,
    the operand of `*`) for the caller to go on with, or None when nothing was."""
    place: Place | None = None
    if isinstance(target, ast.Index):
        base = place_or_value(em, target.base)
        place = index_place(em, base, target)
        if place is None:
            if isinstance(base, Place):
                raise err(target.loc, f"cannot assign to an element of `{base.ty}`")
            return base
    elif isinstance(target, ast.Field):
        base = place_or_value(em, target.base)
        owner = base if isinstance(base, Place) else reference_place(base)
        if owner is None:
            return base
        place = field_place(owner, target.name, target.loc)
    elif isinstance(target, ast.Unary) and target.op == "*":
        ref = em.expr(target.operand)
        if not (isinstance(ref.ty, T.PlaceRef) or (isinstance(ref.ty, (T.ElemRef, T.Ptr)) and T.is_aggregate(ref.ty.elem))):
            return ref
        place = deref_place(em, ref, target.loc)
    if place is None:
        return None
    if not place.mutable:
        raise err(target.loc, "cannot assign through a shared reference (`&T`) or into a read-only slice")
    store_place(em, place, rhs(place.ty))
    return True


def borrow(em: FunctionEmitter, e: ast.Unary) -> Val:
    """`&x` / `&mut x` of an index, field or `*` expression: a reference when it is a memory place
    (`let e = &mut a[i];`), else the operand's value for the caller to go on with. `&` of a scalar in
    memory reads it (a `&T` of a Copy value is used by value everywhere else)."""
    p = place_or_value(em, e.operand)
    if not isinstance(p, Place):
        return p
    if e.op == "&mut":
        if not p.mutable:
            raise err(e.loc, "cannot borrow this element as mutable: it is behind a `&` reference or a `&[T]`")
        return as_reference(p)
    if T.is_aggregate(p.ty):
        return as_reference(Place(p.ptr, p.ty, False, p.space))
    return load_place(em, p)


def is_place_syntax(e: ast.Expr) -> bool:
    """Whether `e` may denote a memory place: an index, a field or a dereference."""
    return isinstance(e, (ast.Index, ast.Field)) or (isinstance(e, ast.Unary) and e.op == "*")


def unsize(value: Val, ty: T.Ty) -> Val | None:
    """A reference to an array in global memory used where `&[T]` / `&mut [T]` is expected."""
    place = reference_place(value)
    if place is None or not isinstance(ty, T.Slice) or not isinstance(place.ty, T.Array) or place.space != 1:
        return None
    if place.ty.elem != ty.elem or (ty.mutable and not place.mutable):
        return None
    return slice_of_array(place, ty.mutable)


def unsize_snapshot(em: FunctionEmitter, value: Val, ty: T.Ty, loc: Any) -> Val | None:
    """A shared array (`&TILE`), or a reference to an array in shared or constant memory (`&TILE[r]`), used where
    `&[T]` is expected. Slices address
    global memory only, so the array is read once into a local array and the slice is a window on that copy:
    the same values, since nothing may write the array while a shared borrow of it lives (in Rust a write
    from another thread meanwhile is a data race). `&mut [T]` of such an array is rejected: writes through
    it must reach the memory."""
    if isinstance(value.ty, T.Shared):
        # `&TILE` of a whole `SharedArray<T, N>`: the array at its base address.
        array = T.Array(value.ty.elem, value.ty.length)
        base = simt.SharedPtrOp.build(value.v, results=[T.Ptr(value.ty.elem, True, 3).mlir()])
        place: Place | None = Place(simt.PtrCastOp.build(base, results=[T.Ptr(array, True, 3).mlir()]), array,
                                    True, 3)
    else:
        place = reference_place(value)
    if place is None or not isinstance(ty, T.Slice) or not isinstance(place.ty, T.Array) or place.space == 1 \
            or place.ty.elem != ty.elem:
        return None
    if ty.mutable:
        memory = "constant memory (read-only)" if place.space == 4 else "shared memory"
        raise err(loc, f"a `&mut [{ty.elem.rust()}]` of an array in {memory} is not supported in device code "
                       "(slices address global memory); index the array itself, or take `&[T]`")
    return borrow_array(load_place(em, place), ty)
