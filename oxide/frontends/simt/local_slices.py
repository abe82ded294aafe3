"""Slices of local arrays: `&arr` / `&mut arr` / `&TABLE` where a `&[T]` is expected. A local array lives in
registers (memrefs LLVM promotes), so such a slice is a window on it, (array view, start, length), not a
pointer: it is indexed, measured, looped over, subsliced and passed to helpers like a slice in memory."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TYPE_CHECKING

from mlir import ir
from mlir.dialects import arith

from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_support import index
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.values import ArrayView, Cell, Val, element_at, store_element

if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


@dataclass
class Window:
    """`length` elements of the array `view` from index `start` (both `index` values)."""

    view: ArrayView
    start: ir.Value
    length: ir.Value


def borrow_array(value: Val, want: T.Slice) -> Val | None:
    """A local array (by value for `&[T]`, through `&mut local` for `&mut [T]`) as a slice window."""
    if isinstance(value.ty, T.LocalRef) and isinstance(value.ty.elem, T.Array):
        cell: Cell = value.v
        array, view = value.ty.elem, ArrayView(cell.leaves, cell.prefix)
    elif isinstance(value.ty, T.Array) and not want.mutable:
        array, view = value.ty, value.v
    else:
        return None
    if array.elem != want.elem:
        return None
    return Val(T.LocalSlice(want.elem, want.mutable), Window(view, index(0), index(array.length)))


def length(s: Val) -> Val:
    """`s.len()` as usize."""
    return Val(T.USIZE, arith.index_cast(ir.IntegerType.get_signless(64), s.v.length))


def _checked(em: FunctionEmitter, s: Val, i: ir.Value) -> ArrayView:
    if not em.unchecked:
        em.trap_unless(arith.cmpi(arith.CmpIPredicate.ult, i, s.v.length))
    w: Window = s.v
    return ArrayView(w.view.storage, w.view.prefix + (arith.addi(w.start, i),))


def read(em: FunctionEmitter, s: Val, i: ir.Value) -> Val:
    """`s[i]`, bounds-checked."""
    return element_at(_checked(em, s, i), s.ty.elem)


def element_unchecked(s: Val, i: ir.Value) -> Val:
    """`s[i]` for an `i` known to be in range (loops over the window)."""
    w: Window = s.v
    return element_at(ArrayView(w.view.storage, w.view.prefix + (arith.addi(w.start, i),)), s.ty.elem)


def write(em: FunctionEmitter, s: Val, i: ir.Value, value: Val, loc: Any) -> None:
    """`s[i] = v` through a `&mut [T]` window."""
    if not s.ty.mutable:
        raise err(loc, "cannot assign to an element of a `&[T]`; borrow the array as `&mut`")
    store_element(value, _checked(em, s, i), s.ty.elem)


def window(s: Val, start: ir.Value, count: ir.Value) -> Val:
    """The `count` elements from `start` of a window (bounds checked by the caller)."""
    w: Window = s.v
    return Val(s.ty, Window(w.view, arith.addi(w.start, start), count))
