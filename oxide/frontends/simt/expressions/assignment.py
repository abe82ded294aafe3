"""`place = value` and `place op= value`: stores into locals, their fields and elements, and memory."""

from __future__ import annotations

from typing import Any, Callable, TYPE_CHECKING

from oxide.dialects import simt
from oxide.frontends.simt import local_slices
from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_places import assign_place
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.expressions.indexing import (
    array_store, index_value, local_array_place, local_element_place, sub_cell,
)
from oxide.frontends.kernel_module import Retype
from oxide.frontends.simt.expressions.operators import binary_values
from oxide.frontends.simt.expressions.table import emits
from oxide.frontends.simt.values import Cell, Val, store_cell, store_element
from oxide.frontends.syntax import ast


if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


@emits(ast.Assign)
def e_Assign(em: FunctionEmitter, e: ast.Assign, expected: T.Ty | None) -> Val:
    target = e.target
    current = None
    if e.op is not None:
        current = em.expr(target)
        value = em.expr(e.value, current.ty)
        value = binary_values(em, e.op, current, value, e.loc)
    else:
        value = None
    assign(em, target, value, e.value, e.loc)
    return Val(T.UNIT, None)


def assign(em: FunctionEmitter, target: ast.Expr, value: Val | None, value_expr: ast.Expr, loc: Any) -> None:
    """Store into a place: a mutable local (or a field/element of one), `*r`, `s[i]`, `TILE[i]`."""

    def rhs(ty: T.Ty) -> Val:
        v = value if value is not None else em.expr(value_expr, ty)
        if v.ty != ty and getattr(v, "flex", None) is not None and isinstance(ty, (T.Int, T.Float)):
            raise Retype(v.flex, ty)
        return em.coerce(v, ty, value_expr.loc)

    if isinstance(target, ast.PathExpr) and len(target.segments) == 1:
        _assign_local(em, target, value, value_expr)
    elif isinstance(target, ast.Unary) and target.op == "*":
        _assign_through(em, target, rhs)
    elif isinstance(target, ast.Index):
        _assign_element(em, target, rhs)
    elif isinstance(target, ast.Field):
        _assign_field(em, target, rhs)
    else:
        raise err(target.loc, "invalid left-hand side of assignment")


def _assign_local(em: FunctionEmitter, target: ast.PathExpr, value: Val | None, value_expr: ast.Expr) -> None:
    """`x = v` of a `let mut` local (a literal-typed one is re-emitted with the type v gives it)."""
    bound = em.lookup(target.segments[0])
    if isinstance(bound, Cell):
        v = value if value is not None else em.expr(value_expr, bound.ty)
        if v.ty != bound.ty and getattr(bound, "flex", None) is not None and isinstance(v.ty, (T.Int, T.Float)):
            raise Retype(bound.flex, v.ty)
        store_cell(bound, em.coerce(v, bound.ty, value_expr.loc))
        return
    if isinstance(bound, Val):
        raise err(target.loc, f"cannot assign twice to immutable variable `{target.segments[0]}`; "
                              f"declare it `let mut {target.segments[0]}`")
    raise err(target.loc, f"cannot find value `{target.segments[0]}` in this scope")


def _assign_through(em: FunctionEmitter, target: ast.Unary, rhs: Callable[[T.Ty], Val]) -> None:
    """`*r = v`: through a `&mut` local, an `addr_of_mut!` pointer, an element reference or a raw pointer."""
    ref = assign_place(em, target, rhs)
    if ref is True:
        return
    if isinstance(ref.ty, T.LocalRef):
        store_cell(ref.v, rhs(ref.ty.elem))
        return
    if isinstance(ref.ty, T.CellPtr):
        em.require_unsafe(target.loc, "writing through a raw pointer")
        if not ref.ty.mutable:
            raise err(target.loc, "cannot assign through a `*const` pointer")
        store_cell(ref.v, rhs(ref.ty.elem))
        return
    if isinstance(ref.ty, T.ElemRef):
        simt.RefStoreOp.build(ref.v, rhs(ref.ty.elem).v)
        return
    if isinstance(ref.ty, T.Ptr):
        em.require_unsafe(target.loc, "writing through a raw pointer")
        if not ref.ty.mutable:
            raise err(target.loc, "cannot write through a `*const` pointer")
        simt.PtrStoreOp.build(ref.v, rhs(ref.ty.elem).v)
        return
    raise err(target.loc, f"cannot assign through a value of type `{ref.ty}`")


def _assign_element(em: FunctionEmitter, target: ast.Index, rhs: Callable[[T.Ty], Val]) -> None:
    """`a[i] = v`: of a local array (or a row of one), a slice of registers, a slice, or a shared array."""
    base_expr = target.base
    place = local_array_place(em, base_expr)
    if place is not None:
        view, array_ty = place
        i = index_value(em, target.index)
        em.check_array_bounds(i, array_ty.length)
        array_store(rhs(array_ty.elem), view, i, array_ty.elem)
        return
    base = assign_place(em, target, rhs)
    if base is True:
        return
    if isinstance(base.ty, T.LocalSlice):
        i = index_value(em, target.index)
        local_slices.write(em, base, i, rhs(base.ty.elem), target.loc)
        return
    if isinstance(base.ty, T.Slice):
        if not base.ty.mutable:
            raise err(target.loc, "cannot assign to an element of a `&[T]`; only `&mut [T]` or a DisjointSlice "
                                  "(through get_mut) are writable")
        i = index_value(em, target.index)
        simt.StoreOp.build(base.v, i, rhs(base.ty.elem).v)
        return
    if isinstance(base.ty, T.Shared):
        em.require_unsafe(target.loc, "writing a `static mut` shared array")
        i = index_value(em, target.index)
        simt.SharedStoreOp.build(base.v, i, rhs(base.ty.elem).v)
        return
    if isinstance(base.ty, T.Disjoint):
        raise err(target.loc, "a DisjointSlice is written only through `get_mut(thread_index)`")
    if isinstance(base.ty, T.Array):
        raise err(target.loc, "cannot assign to an element of an immutable array; declare it `let mut`")
    raise err(target.loc, f"cannot assign to an element of `{base.ty}`")


def _assign_field(em: FunctionEmitter, target: ast.Field, rhs: Callable[[T.Ty], Val]) -> None:
    """`x.f = v`: of a `let mut` local, of an element of a local array, or of a place in memory."""
    path = []
    node: Any = target
    while isinstance(node, ast.Field):
        path.append(node.name)
        node = node.base
    if isinstance(node, ast.PathExpr) and isinstance(em.lookup(node.segments[0]), Cell):
        cell = em.lookup(node.segments[0])
        for name in reversed(path):
            cell = sub_cell(cell, name, target.loc)
        store_cell(cell, rhs(cell.ty))
        return
    place = local_element_place(em, target)
    if place is not None:
        store_element(rhs(place[1]), place[0], place[1])
        return
    if assign_place(em, target, rhs) is True:
        return
    raise err(target.loc, "can only assign to fields of a `let mut` local (or of an element in memory)")
