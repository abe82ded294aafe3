"""Slices of shared or generic memory: `slice::from_raw_parts(p, n)` / `from_raw_parts_mut` where `p` is not a
global pointer (`addr_of!(TILE) as *const T` points into shared memory, `p as *const T` of an integer is
generic). The simt slice types address global memory only, so such a slice stays a frontend value, (pointer
in its own address space, length): `s[i]` is a bounds-checked place at `p.add(i)`, read and written through
the pointer (aggregate elements field by field, see places.py); it is measured, subsliced, split and passed
to helpers like a slice in global memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.places import Place
from oxide.frontends.simt.values import Val

if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


@dataclass
class Span:
    """`length` elements (an `index` value) from the pointer `ptr` (a `!simt.ptr` to the element type)."""

    ptr: ir.Value
    length: ir.Value


def from_pointer(p: Val, length: ir.Value, mutable: bool) -> Val:
    """The slice of `length` elements at the raw pointer `p` (the caller has checked for `unsafe`)."""
    return Val(T.PtrSlice(p.ty.elem, mutable, p.ty.space), Span(p.v, length))


def length(s: Val) -> Val:
    """`s.len()` as usize."""
    return Val(T.USIZE, arith.index_cast(ir.IntegerType.get_signless(64), s.v.length))


def element_place(em: FunctionEmitter, s: Val, i: ir.Value) -> Place:
    """`s[i]` as a place; traps unless `i < len` (as indexing any slice does)."""
    if not em.unchecked:
        em.trap_unless(arith.cmpi(arith.CmpIPredicate.ult, i, s.v.length))
    return Place(simt.PtrOffsetOp.build(s.v.ptr, i), s.ty.elem, s.ty.mutable, s.ty.space)


def window(s: Val, start: ir.Value, count: ir.Value, elem: T.Ty | None = None) -> Val:
    """The `count` elements from `start` (bounds checked by the caller), as elements of `elem` when given
    (`as_chunks::<N>` views whole chunks as arrays)."""
    first = simt.PtrOffsetOp.build(s.v.ptr, start)
    if elem is not None and elem != s.ty.elem:
        first = simt.PtrCastOp.build(first, results=[T.Ptr(elem, True, s.ty.space).mlir()])
    return Val(T.PtrSlice(elem or s.ty.elem, s.ty.mutable, s.ty.space), Span(first, count))


def as_ptr(s: Val, mutable: bool) -> Val:
    """`s.as_ptr()` / `s.as_mut_ptr()`: the first element's address, in the slice's address space."""
    ptr = T.Ptr(s.ty.elem, mutable, s.ty.space)
    return Val(ptr, s.v.ptr)
