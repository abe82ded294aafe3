"""Raw pointers into local arrays: `arr.as_ptr()` of a local array (`let slots = [p, q]; slots.as_ptr()`). A
local array lives in registers, so such a pointer is no address but a position in the array (a
local_slices.Window whose `start` is the pointer's element and `length` the array's): `add` / `sub` /
`offset` (and their `wrapping_` forms, calls/local_pointer_methods.py) move it, `*p` and `p.read()` read the
element it is at (unsafe, and trapping when it is outside the array, which Rust leaves undefined). It is passed to helpers taking a `*const T`
(they are inlined); such a parameter may then be a `*const *const T` (a pointer to pointers)."""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from mlir.dialects import arith

from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_support import index
from oxide.frontends.simt.local_slices import Window
from oxide.frontends.simt.values import ArrayView, Val, element_at

if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


def array_pointer(array: Val) -> Val:
    """`arr.as_ptr()` of a local array: at element 0."""
    ty: T.Array = array.ty
    return Val(T.LocalPtr(ty.elem), Window(array.v, index(0), index(ty.length)))


def read(em: FunctionEmitter, p: Val, loc: Any) -> Val:
    """`*p` / `p.read()`: the element the pointer is at."""
    em.require_unsafe(loc, "dereferencing a raw pointer")
    w: Window = p.v
    em.trap_unless(arith.cmpi(arith.CmpIPredicate.ult, w.start, w.length))
    return element_at(ArrayView(w.view.storage, w.view.prefix + (w.start,)), p.ty.elem)
