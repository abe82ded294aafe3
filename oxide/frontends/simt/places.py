"""Values in memory reached through an address: elements of slices, DisjointSlices and shared arrays whose
type is an aggregate, the pointee of a raw pointer, what `get_mut` yields, and the rows and fields of those.

A `Place` is an address (`!simt.ptr<T.mem(ty), space>`) and the Rust type stored there. Projections never
read memory: `place[i]` of an array is `ptr_cast` to the element plus `ptr_offset`, `place.f` of a struct
or tuple is `simt.field_ptr`. Reading or writing a whole aggregate goes leaf by leaf (arrays in a loop), so
each scalar is one load or store and writing one field never touches another. Leaves are accessed at their
natural alignment, except in an over-aligned aggregate (`#[repr(align(16))]`), read or written whole
unrolled with each leaf's alignment stated (`simt.align`), from which LLVM merges them into vector accesses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TYPE_CHECKING

from mlir import ir
from mlir.dialects import scf

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.structured import unroll_array_loop
from oxide.frontends.simt.emit_support import index
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.values import ArrayView, Val, element_at, load_cell, new_cell, store_element

if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


@dataclass
class Place:
    """`ty` stored at `ptr` (a `!simt.ptr` in address space `space`); `mutable` when it may be written."""

    ptr: ir.Value
    ty: T.Ty
    mutable: bool
    space: int


def _ptr_type(ty: T.Ty, space: int) -> ir.Type:
    return T.Ptr(ty, True, space).mlir()


def reference_place(value: Val) -> Place | None:
    """The place a reference-like value refers to (`&mut T` from get_mut, `&T` into memory), else None.
    Raw pointers are not references: they become places only through an unsafe `*p`."""
    ty = value.ty
    if isinstance(ty, T.PlaceRef):
        return Place(value.v, ty.elem, ty.mutable, ty.space)
    if isinstance(ty, T.ElemRef) and T.is_aggregate(ty.elem):
        ptr = simt.RefPtrOp.build(value.v, results=[_ptr_type(ty.elem, 1)])
        return Place(ptr, ty.elem, True, 1)
    return None


def shared_pointer(value: Val, mutable: bool = True) -> Val:
    """A shared array handle (`&raw mut X` of `static mut X: SharedArray<T, N>`) as the raw pointer
    `*mut SharedArray<T, N>`: a pointer to `[T; N]` in shared memory, which integer casts, `addr`, `is_null`,
    `ptr::eq`, struct fields and function parameters carry like any pointer."""
    shared: T.Shared = value.ty
    ptr = T.Ptr(T.Array(shared.elem, shared.length), mutable, 3)
    base = simt.SharedPtrOp.build(value.v, results=[T.Ptr(shared.elem, True, 3).mlir()])
    return Val(ptr, simt.PtrCastOp.build(base, results=[ptr.mlir()]))


def pointer_place(value: Val) -> Place:
    """What a raw pointer points to (the caller has checked for `unsafe`)."""
    ty = value.ty
    return Place(value.v, ty.elem, ty.mutable, ty.space)


def as_reference(place: Place) -> Val:
    """`&place` / `&mut place` as a value."""
    return Val(T.PlaceRef(place.ty, place.mutable, place.space), place.ptr)


def element_place(em: FunctionEmitter, place: Place, i: ir.Value, loc: Any) -> Place:
    """`place[i]` of an array place; the index is bounds-checked like any array index."""
    if not isinstance(place.ty, T.Array):
        raise err(loc, f"cannot index into a value of type `{place.ty}`")
    em.check_array_bounds(i, place.ty.length)
    first = simt.PtrCastOp.build(place.ptr, results=[_ptr_type(place.ty.elem, place.space)])
    return Place(simt.PtrOffsetOp.build(first, i), place.ty.elem, place.mutable, place.space)


def field_place(place: Place, name: str, loc: Any) -> Place:
    """`place.name` (or `place.0`) of a struct or tuple place."""
    ty = place.ty
    found: tuple[int, T.Ty] | None = None
    if isinstance(ty, T.Tuple) and name.isdigit() and int(name) < len(ty.elems):
        found = int(name), ty.elems[int(name)]
    elif isinstance(ty, T.Struct):
        found = ty.field(name)
    if found is None:
        raise err(loc, f"no field `{name}` on type `{ty}`")
    position, field_ty = found
    field = T.mem_field_index(ty, position)
    ptr = simt.FieldPtrOp.build(place.ptr, field=ir.IntegerAttr.get(ir.IntegerType.get_signless(64), field),
                                results=[_ptr_type(field_ty, place.space)])
    return Place(ptr, field_ty, place.mutable, place.space)


def _field_names(ty: T.Ty) -> list[str]:
    return [str(i) for i in range(len(ty.elems))] if isinstance(ty, T.Tuple) else [n for n, _ in ty.fields]


# An over-aligned aggregate read or written whole is unrolled up to this many leaves, each access with the
# alignment its offset has; larger ones go through loops at the leaves' natural alignment.
_UNROLL_LEAVES = 64

# (alignment of the aggregate's address, byte offset of the current part in it), or None: natural alignment
Known = tuple[int, int] | None


def _known(ty: T.Ty) -> Known:
    align = T.layout(ty)[1]
    return (align, 0) if align > T.natural_align(ty) and _leaves(ty) <= _UNROLL_LEAVES else None


def _leaves(ty: T.Ty) -> int:
    if isinstance(ty, T.Array):
        return ty.length * _leaves(ty.elem)
    if isinstance(ty, (T.Tuple, T.Struct)):
        return sum(_leaves(p) for p in (ty.elems if isinstance(ty, T.Tuple) else [f for _, f in ty.fields]))
    return 1


def _leaf_access(op: Any, ty: T.Ty, known: Known) -> None:
    """State the alignment of a leaf access where its offset in an over-aligned aggregate gives more than the
    natural one (offset 0 of a 16-aligned struct: 16; offset 8: 8)."""
    if known is None:
        return
    align, offset = known
    if offset:
        align = min(align, offset & -offset)
    if align > T.layout(ty)[1]:
        op.attributes[simt.ALIGN_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), align)


def _parts_of(place: Place, known: Known) -> list[tuple[str, Known]]:
    offsets = T.field_offsets(place.ty)
    return [(name, None if known is None else (known[0], known[1] + offset))
            for name, offset in zip(_field_names(place.ty), offsets)]


def load_place(em: FunctionEmitter, place: Place, known: Known | bool = True) -> Val:
    """The value stored at a place (a copy: arrays are read into a local array). `known` is the alignment
    context of a part of an over-aligned aggregate; callers leave it out (it follows from the place's type)."""
    known = _known(place.ty) if known is True else known
    ty = place.ty
    if isinstance(ty, T.Array):
        with ir.InsertionPoint.at_block_begin(em.entry):
            cell = new_cell(ty)
        copy = load_cell(cell)

        def element(i: ir.Value, at: Known) -> None:
            store_element(load_place(em, _unchecked_element(place, i), at),
                          ArrayView(copy.v.storage, copy.v.prefix + (i,)), ty.elem)

        _each_element(ty, known, element)
        return copy
    if isinstance(ty, (T.Tuple, T.Struct)):
        return Val(ty, [load_place(em, field_place(place, n, None), at) for n, at in _parts_of(place, known)])
    load = simt.PtrLoadOp.build(place.ptr)
    _leaf_access(load.owner, ty, known)
    return Val(ty, load)


def store_place(em: FunctionEmitter, place: Place, value: Val, known: Known | bool = True) -> None:
    """Write a whole value to a place, one scalar store per leaf (`known` as for load_place)."""
    known = _known(place.ty) if known is True else known
    ty = place.ty
    if isinstance(ty, T.Array):
        view: ArrayView = value.v
        _each_element(ty, known, lambda i, at: store_place(
            em, _unchecked_element(place, i), element_at(ArrayView(view.storage, view.prefix + (i,)), ty.elem), at))
    elif isinstance(ty, (T.Tuple, T.Struct)):
        for (name, at), part in zip(_parts_of(place, known), value.v):
            store_place(em, field_place(place, name, None), part, at)
    else:
        store = simt.PtrStoreOp.build(place.ptr, value.v)
        _leaf_access(store, ty, known)


def _each_element(ty: T.Array, known: Known, body: Any) -> None:
    """body(i, known alignment of element i) for each element: unrolled where the alignment is known."""
    if known is None:
        _for_each(ty.length, lambda i: body(i, None))
        return
    size = T.layout(ty.elem)[0]
    for i in range(ty.length):
        body(index(i), (known[0], known[1] + i * size))


def slice_of_array(place: Place, mutable: bool) -> Val:
    """`&mut [T]` / `&[T]` of an array place in global memory (`let s: &mut [f32] = row;`)."""
    assert isinstance(place.ty, T.Array) and place.space == 1
    first = simt.PtrCastOp.build(place.ptr, results=[_ptr_type(place.ty.elem, 1)])
    slice_ty = T.Slice(place.ty.elem, mutable)
    return Val(slice_ty, simt.SliceFromPtrOp.build(first, index(place.ty.length), results=[slice_ty.mlir()]))


def _unchecked_element(place: Place, i: ir.Value) -> Place:
    first = simt.PtrCastOp.build(place.ptr, results=[_ptr_type(place.ty.elem, place.space)])
    return Place(simt.PtrOffsetOp.build(first, i), place.ty.elem, place.mutable, place.space)


def _for_each(count: int, body: Any) -> None:
    loop = scf.ForOp(index(0), index(count), index(1))
    unroll_array_loop(loop, count)
    with ir.InsertionPoint(loop.body):
        body(loop.induction_variable)
        scf.YieldOp([])
