"""Raw pointers into local arrays: `arr.as_ptr()` of a local array (`let slots = [p, q]; slots.as_ptr()`). A
local array lives in registers, so such a pointer is no address but a position in the array (a
local_slices.Window whose `start` is the pointer's element and `length` the array's): `add` / `sub` /
`offset` (and their `wrapping_` forms) move it, `*p` and `p.read()` read the element it is at (unsafe, and
trapping when it is outside the array, which Rust leaves undefined). It is passed to helpers taking a `*const T`
(they are inlined); such a parameter may then be a `*const *const T` (a pointer to pointers)."""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from mlir import ir
from mlir.dialects import arith

from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_support import index
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.local_slices import Window
from oxide.frontends.simt.values import ArrayView, Val, element_at
from oxide.frontends.simt.expressions.indexing import index_value

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


_MOVES = {"add": 1, "wrapping_add": 1, "sub": -1, "wrapping_sub": -1, "offset": 1, "wrapping_offset": 1}


def method(em: FunctionEmitter, p: Val, e: ast.MethodCall) -> Val:
    """add / sub / offset (and wrapping forms), read, is_null of a pointer into a local array."""
    w: Window = p.v
    if e.name in _MOVES and len(e.args) == 1:
        if not e.name.startswith("wrapping_"):
            em.require_unsafe(e.loc, f"`{e.name}` on a raw pointer")
        if e.name.endswith("offset"):
            k = arith.index_cast(ir.IndexType.get(), em.coerce(em.expr(e.args[0], T.ISIZE), T.ISIZE, e.args[0].loc).v)
        else:
            k = index_value(em, e.args[0])
        start = arith.addi(w.start, k) if _MOVES[e.name] > 0 else arith.subi(w.start, k)
        return Val(p.ty, Window(w.view, start, w.length))
    if e.name == "read" and not e.args:
        return read(em, p, e.loc)
    if e.name == "is_null" and not e.args:
        return Val(T.BOOL, arith.constant(ir.IntegerType.get_signless(1), 0))  # it points into an array
    raise err(e.loc, f"`{e.name}` of a pointer into a local array is not supported in device code (it has "
                     "`add`, `sub`, `offset`, `read` and `*p`; it has no address: put the data in a slice or "
                     "shared memory)")
