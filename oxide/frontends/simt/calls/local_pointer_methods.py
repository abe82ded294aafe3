"""Methods of the raw pointers that point at locals and have no address: a pointer to a local's cell
(`addr_of!(x)`, cell_pointers.py) is read and written in place by `p.read()` / `p.write(v)`; a pointer into a
local array (`arr.as_ptr()`, local_pointers.py) moves by `add` / `sub` / `offset` (and their `wrapping_`
forms), reads by `read()`, and is never null. Every other method of either is refused, naming why."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import OTHER, device_method
from oxide.frontends.simt.cell_pointers import no_address
from oxide.frontends.simt.expressions.indexing import index_value
from oxide.frontends.simt.local_pointers import read
from oxide.frontends.simt.local_slices import Window
from oxide.frontends.simt.values import Val, load_cell, store_cell
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err


# Pointers to a local's cell ----------------------------------------------------------------------------------
@device_method(T.CellPtr, "read", "write")
def _cell_access(em: Emitter, p: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                 expected: T.Ty | None) -> Val:
    """`p.read()` / `p.write(v)` (unsafe): the local's value, or an assignment to it."""
    em.require_unsafe(loc, f"`{name}` on a raw pointer")
    if name == "read" and not args:
        return load_cell(p.v)
    if name == "write" and len(args) == 1:
        if not p.ty.mutable:
            raise err(loc, "cannot write through a `*const` pointer")
        store_cell(p.v, em.coerce(em.expr(args[0], p.ty.elem), p.ty.elem, args[0].loc))
        return Val(T.UNIT, None)
    raise err(loc, f"`{name}` takes {'no arguments' if name == 'read' else 'one value'}")


@device_method(T.CellPtr, OTHER)
def _cell_has_no_address(em: Emitter, p: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                         expected: T.Ty | None) -> Val:
    raise no_address(loc, f"`{name}`")


# Pointers into a local array ---------------------------------------------------------------------------------
_MOVES = {"add": 1, "wrapping_add": 1, "sub": -1, "wrapping_sub": -1, "offset": 1, "wrapping_offset": 1}


@device_method(T.LocalPtr, *_MOVES)
def _move(em: Emitter, p: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
          expected: T.Ty | None) -> Val:
    """`p.add(k)` & co: the pointer k elements on (unsafe unless `wrapping_`); `offset` takes an isize."""
    if len(args) != 1:
        raise _unsupported(loc, name)
    w: Window = p.v
    if not name.startswith("wrapping_"):
        em.require_unsafe(loc, f"`{name}` on a raw pointer")
    if name.endswith("offset"):
        k = arith.index_cast(ir.IndexType.get(), em.coerce(em.expr(args[0], T.ISIZE), T.ISIZE, args[0].loc).v)
    else:
        k = index_value(em, args[0])
    start = arith.addi(w.start, k) if _MOVES[name] > 0 else arith.subi(w.start, k)
    return Val(p.ty, Window(w.view, start, w.length))


@device_method(T.LocalPtr, "read")
def _read(em: Emitter, p: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
          expected: T.Ty | None) -> Val:
    if args:
        raise _unsupported(loc, name)
    return read(em, p, loc)


@device_method(T.LocalPtr, "is_null")
def _is_null(em: Emitter, p: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
             expected: T.Ty | None) -> Val:
    if args:
        raise _unsupported(loc, name)
    return Val(T.BOOL, arith.constant(ir.IntegerType.get_signless(1), 0))  # it points into an array


@device_method(T.LocalPtr, OTHER)
def _not_a_local_pointer_method(em: Emitter, p: Val, name: str, args: list[ast.Expr], generics: list[Any],
                                loc: Any, expected: T.Ty | None) -> Val:
    raise _unsupported(loc, name)


def _unsupported(loc: Any, name: str) -> Exception:
    return err(loc, f"`{name}` of a pointer into a local array is not supported in device code (it has "
                    "`add`, `sub`, `offset`, `read` and `*p`; it has no address: put the data in a slice or "
                    "shared memory)")
