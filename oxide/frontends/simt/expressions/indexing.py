"""Indices, and the places of `let mut` locals: `a[i]` of a local array, `x.f` of a local, read or
written in their cells (structure of arrays), and reads from evaluated bases that are not memory."""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.simt import local_slices
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.kernel_module import Retype
from oxide.frontends.simt.values import ArrayView, Cell, Val, element_at, store_element
from oxide.frontends.syntax import ast


if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


def index_value(em: FunctionEmitter, e: ast.Expr) -> ir.Value:
    """An index expression as `index` (Rust indexes with usize)."""
    v = em.expr(e, T.USIZE)
    if not isinstance(v.ty, T.Int) or v.ty != T.USIZE:
        if getattr(v, "flex", None) is not None:
            raise Retype(v.flex, T.USIZE)
        raise err(e.loc, f"the type `[T]` cannot be indexed by `{v.ty}`: indices are `usize`")
    return arith.index_cast(ir.IndexType.get(), v.v)


def index_on_value(em: FunctionEmitter, base: Val, e: ast.Index) -> Val:
    """`base[i]` read from an evaluated base that is not a memory place (scalar slices, local arrays)."""
    ty = base.ty
    if isinstance(ty, T.LocalSlice):
        return local_slices.read(em, base, index_value(em, e.index))
    if isinstance(ty, T.Slice):
        i = index_value(em, e.index)
        if isinstance(ty.elem, T.Atomic):
            # An atomic cell is used in place, never read as a whole: its value is its address.
            ptr = T.Ptr(ty.elem.value, True, 1)
            return Val(ty.elem, simt.ElemPtrOp.build(base.v, i, results=[ptr.mlir()]))
        op = simt.LoadUncheckedOp if em.unchecked else simt.LoadOp
        return Val(ty.elem, op.build(base.v, i))
    if isinstance(ty, T.Shared):
        em.require_unsafe(e.loc, "reading a `static mut` shared array")
        return Val(ty.elem, simt.SharedLoadOp.build(base.v, index_value(em, e.index)))
    if isinstance(ty, T.Array):
        i = index_value(em, e.index)
        em.check_array_bounds(i, ty.length)
        return element_at(ArrayView(base.v.storage, base.v.prefix + (i,)), ty.elem)
    if isinstance(ty, T.Struct) and ty.indexed:
        return index_on_value(em, base.v[0], e)
    if isinstance(ty, T.Ptr):
        raise err(e.loc, "a raw pointer cannot be indexed; use `unsafe { *p.add(i) }`")
    if isinstance(ty, T.Disjoint):
        raise err(e.loc, "a DisjointSlice cannot be indexed directly; write through `get_mut(thread_index)`")
    raise err(e.loc, f"cannot index into a value of type `{ty}`")


def array_load(view: ArrayView, i: ir.Value, elem: T.Ty) -> Val:
    """Element i of an array view."""
    return element_at(ArrayView(view.storage, view.prefix + (i,)), elem)


def array_store(value: Val, view: ArrayView, i: ir.Value, elem: T.Ty) -> None:
    """Store element i of an array view."""
    store_element(value, ArrayView(view.storage, view.prefix + (i,)), elem)


def local_array_place(em: FunctionEmitter, e: ast.Expr) -> tuple[ArrayView, T.Array] | None:
    """The storage of a `let mut` array (or a row of one: `a[i]` of a nested array), for assignment."""
    if isinstance(e, ast.Index):
        outer = local_array_place(em, e.base)
        if outer is None or not isinstance(outer[1].elem, T.Array):
            return None
        view, ty = outer
        i = index_value(em, e.index)
        em.check_array_bounds(i, ty.length)
        return ArrayView(view.storage, view.prefix + (i,)), ty.elem
    cell = local_cell(em, e)
    if cell is not None and isinstance(cell.ty, T.Array):
        return ArrayView(cell.leaves), cell.ty
    if isinstance(e, ast.Field):
        place = local_element_place(em, e)
        if place is not None and isinstance(place[1], T.Array):
            return place
    return None


def local_element_place(em: FunctionEmitter, e: ast.Expr) -> tuple[ArrayView, T.Ty] | None:
    """Where `arr[i]` or `arr[i].field...` of a `let mut` array lives (structure of arrays)."""
    if isinstance(e, ast.Index):
        outer = local_array_place(em, e.base)
        if outer is None:
            return None
        view, ty = outer
        i = index_value(em, e.index)
        em.check_array_bounds(i, ty.length)
        return ArrayView(view.storage, view.prefix + (i,)), ty.elem
    if isinstance(e, ast.Field):
        inner = local_element_place(em, e.base)
        if inner is None:
            return None
        view, ty = inner
        if isinstance(ty, T.Tuple) and e.name.isdigit() and int(e.name) < len(ty.elems):
            return ArrayView(view.storage[int(e.name)], view.prefix), ty.elems[int(e.name)]
        if isinstance(ty, T.Struct) and ty.field(e.name) is not None:
            index_, field_ty = ty.field(e.name)
            return ArrayView(view.storage[index_], view.prefix), field_ty
    return None


def field_of(em: FunctionEmitter, base: Val, name: str, loc: Any) -> Val:
    ty = base.ty
    if isinstance(ty, T.Tuple) and name.isdigit() and int(name) < len(ty.elems):
        return base.v[int(name)]
    if isinstance(ty, T.Struct):
        found = ty.field(name)
        if found is not None:
            return base.v[found[0]]
    raise err(loc, f"no field `{name}` on type `{ty}`")


def local_cell(em: FunctionEmitter, e: ast.Expr) -> Cell | None:
    """The storage of `x`, `x.f`, `x.0.g` when x is a `let mut` local, else None; also of `(*p).f` when p is an
    `addr_of_mut!` pointer to one (unsafe)."""
    path: list[str] = []
    while isinstance(e, ast.Field):
        path.append(e.name)
        e = e.base
    through_pointer = isinstance(e, ast.Unary) and e.op == "*"
    if through_pointer:
        e = e.operand
    if not (isinstance(e, ast.PathExpr) and len(e.segments) == 1):
        return None
    cell = em.lookup(e.segments[0])
    if through_pointer:
        if not (isinstance(cell, Val) and isinstance(cell.ty, T.CellPtr) and cell.ty.mutable):
            return None
        em.require_unsafe(e.loc, "dereferencing a raw pointer")
        cell = cell.v
    if isinstance(cell, Val) and isinstance(cell.ty, T.LocalRef):
        cell = cell.v  # a `&mut local` binding: places through it are the local's
    if not isinstance(cell, Cell):
        return None
    for name in reversed(path):
        cell = sub_cell(cell, name, e.loc)
    return cell


def sub_cell(cell: Cell, name: str, loc: Any) -> Cell:
    if isinstance(cell.ty, T.Tuple) and name.isdigit():
        return cell.leaves[int(name)]
    if isinstance(cell.ty, T.Struct):
        found = cell.ty.field(name)
        if found is not None:
            return cell.leaves[found[0]]
    raise err(loc, f"no field `{name}` on type `{cell.ty}`")
