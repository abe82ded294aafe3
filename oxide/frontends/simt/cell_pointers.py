"""Raw pointers to a local's cell: `addr_of!(x)`, `addr_of_mut!(acc[k])`, `addr_of!(pair.0[i])`. A local lives
in registers (a cell LLVM promotes), so the pointer is the cell itself (`T.CellPtr`), read and written in place
by `*p`, `p.read()` and `p.write(v)` (calls/local_pointer_methods.py) in unsafe code, as a `&mut local` is.
It has no address: arithmetic, casts to integers and other pointer types, and comparisons are refused.
(Pointers into local arrays from `arr.as_ptr()` are local_pointers.py's.)

`addr_of_mut!` needs a `let mut` local (or an element or field of one). `addr_of!` of a local that is not
`let mut` (a by-value `&T` binding included) points at a copy of the value: nothing can write that local, so
reads through the pointer see what it holds.
"""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from mlir import ir

from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.values import Cell, Val, element_cell, new_cell, store_cell
from oxide.frontends.simt.expressions.indexing import local_cell, local_element_place

if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter

# Bindings that hold handles to memory rather than a local value: `addr_of!` through them is not a pointer to a
# local (a slice element, a shared array, ...).
_NOT_LOCAL = (T.Slice, T.Disjoint, T.Shared, T.Ptr, T.ElemRef, T.PlaceRef, T.PtrSlice, T.Atomic, T.ThreadIndex,
              T.Closure, T.FnItem)


def _root(e: ast.Expr) -> ast.Expr:
    while isinstance(e, (ast.Field, ast.Index)):
        e = e.base
    return e


def _local_binding(em: FunctionEmitter, e: ast.Expr) -> Val | Cell | None:
    """The local binding at the root of a place expression (`pair` of `pair.0[i]`), if it is one."""
    root = _root(e)
    if not (isinstance(root, ast.PathExpr) and len(root.segments) == 1):
        return None
    bound = em.lookup(root.segments[0])
    return bound if isinstance(bound, (Val, Cell)) else None


def address_of_local(em: FunctionEmitter, operand: ast.Expr, mutable: bool, loc: Any) -> Val | None:
    """`addr_of!(operand)` / `addr_of_mut!(operand)` when the operand is (part of) a local; None otherwise."""
    bound = _local_binding(em, operand)
    if bound is None or (isinstance(bound, Val) and isinstance(bound.ty, _NOT_LOCAL)):
        return None
    if not (isinstance(operand, ast.Index) and isinstance(operand.index, ast.Range)):
        cell = local_cell(em, operand)
        if cell is None and isinstance(operand, (ast.Index, ast.Field)):
            place = local_element_place(em, operand)
            if place is not None:
                try:
                    cell = element_cell(*place)
                except TypeError as exc:
                    raise err(loc, f"a pointer to {exc} is not supported in device code") from None
        if cell is not None:
            return Val(T.CellPtr(cell.ty, mutable), cell)
    if mutable:
        raise err(operand.loc, "`addr_of_mut!` needs a `let mut` local (or an element or field of one)")
    value = em.expr(operand)
    try:
        with ir.InsertionPoint.at_block_begin(em.entry):
            copy = new_cell(value.ty)
    except TypeError:
        raise err(operand.loc, f"a pointer to a local of type `{value.ty}` is not supported in device code") from None
    store_cell(copy, value)
    return Val(T.CellPtr(value.ty, False), copy)


def no_address(loc: Any, what: str) -> Exception:
    """The error for using a pointer to a local as an address (`p.add(1)`, `p as usize`, `p == q`)."""
    return err(loc, f"{what} of a pointer to a local is not supported in device code: a local lives in registers and "
                    "has no address; index or name the local instead")
