"""Slices made from slices: subslices `&s[a..b]` (and `&row[1..]` of an array in global memory), and the
pieces that `split_at` and `as_chunks` (calls/slice_splits.py) are made of. A slice is a global pointer and a
length, so each of these is an offset pointer and a new length; Rust's panics on bad bounds are traps here."""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_support import index
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.places import reference_place, slice_of_array
from oxide.frontends.simt.local_slices import borrow_array, window
from oxide.frontends.simt.values import Val
from oxide.frontends.simt.expressions.indexing import index_value
from oxide.frontends.simt.ptr_slices import window as ptr_window

if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


def as_slice(base: Val) -> Val | None:
    """`base` as a slice: a slice itself (in memory or of a local array), or a reference to an array in
    global memory."""
    if isinstance(base.ty, (T.Slice, T.LocalSlice, T.PtrSlice)):
        return base
    place = reference_place(base)
    if place is not None and isinstance(place.ty, T.Array) and place.space == 1:
        return slice_of_array(place, place.mutable)
    return None


def slice_length(s: Val) -> ir.Value:
    return s.v.length if isinstance(s.ty, (T.LocalSlice, T.PtrSlice)) else simt.LenOp.build(s.v)


def piece(s: Val, start: ir.Value, count: ir.Value, elem: T.Ty | None = None) -> Val:
    """The `count` elements of slice `s` from `start` (no check: the caller has checked the bounds)."""
    if isinstance(s.ty, T.LocalSlice):
        return window(s, start, count)
    if isinstance(s.ty, T.PtrSlice):
        return ptr_window(s, start, count, elem)
    elem = elem or s.ty.elem
    ptr_ty = T.Ptr(s.ty.elem, True, 1)
    base = simt.SlicePtrOp.build(s.v, results=[ptr_ty.mlir()])
    first = simt.PtrOffsetOp.build(base, start)
    if elem != s.ty.elem:
        first = simt.PtrCastOp.build(first, results=[T.Ptr(elem, True, 1).mlir()])
    piece = T.Slice(elem, s.ty.mutable)
    return Val(piece, simt.SliceFromPtrOp.build(first, count, results=[piece.mlir()]))


def subslice(em: FunctionEmitter, base: Val, rng: ast.Range, loc: Any) -> Val:
    """`s[a..b]`, `s[a..]`, `s[..b]`, `s[a..=b]`: traps unless a <= b <= len."""
    s = as_slice(base)
    if s is None and isinstance(base.ty, (T.Array, T.LocalRef)):
        elem = base.ty.elem if isinstance(base.ty, T.Array) else getattr(base.ty.elem, "elem", None)
        if elem is not None:  # `&arr[1..3]` / `&mut arr[..k]` of a local array
            s = borrow_array(base, T.Slice(elem, isinstance(base.ty, T.LocalRef)))
    if s is None:
        raise err(loc, f"a subslice of `{base.ty}` is not supported in device code (only of slices and of arrays)")
    length = slice_length(s)
    start = index_value(em, rng.start) if rng.start is not None else index(0)
    if rng.end is None:
        end = length
    else:
        end = index_value(em, rng.end)
        if rng.inclusive:
            end = arith.addi(end, index(1))
    ule = arith.CmpIPredicate.ule
    em.trap_unless(arith.andi(arith.cmpi(ule, start, end), arith.cmpi(ule, end, length)))
    return piece(s, start, arith.subi(end, start))
