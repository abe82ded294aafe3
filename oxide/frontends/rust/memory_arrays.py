"""Arrays in global memory: the `&mut [T; N]` that `get_mut` (or `get_unchecked_mut`) yields for a
`DisjointSlice<[T; N]>` (T an integer or float). Its elements are reached through a pointer to the first one:
`row[i]` reads and `row[i] = v` writes element i after checking i < N (a trap otherwise, as Rust's index);
`*row` copies the whole row into a local array and `*row = a` stores one."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, memref, scf

from oxide.dialects import simt
from oxide.frontends.rust import ast
from oxide.frontends.rust import types as T
from oxide.frontends.rust.values import ArrayView, Val, element_at, load_cell, new_cell


def is_row_ref(ty: T.Ty) -> bool:
    """Whether `ty` is a `&mut [T; N]` into global memory."""
    return isinstance(ty, T.ElemRef) and isinstance(ty.elem, T.Array)


def _first_element(ref: Val) -> tuple[ir.Value, T.Array]:
    array: T.Array = ref.ty.elem
    whole = T.Ptr(array, True, 1)
    ptr = simt.RefPtrOp.build(ref.v, results=[whole.mlir()])
    first = T.Ptr(array.elem, True, 1)
    return simt.PtrCastOp.build(ptr, results=[first.mlir()]), array


def _element(em: Any, ref: Val, index: ast.Expr) -> tuple[ir.Value, T.Ty]:
    from oxide.frontends.rust.emit_expr import index_value

    first, array = _first_element(ref)
    i = index_value(em, index)
    em.check_array_bounds(i, array.length)
    return simt.PtrOffsetOp.build(first, i), array.elem


def load_element(em: Any, ref: Val, index: ast.Expr) -> Val:
    """`row[i]`."""
    ptr, elem = _element(em, ref, index)
    return Val(elem, simt.PtrLoadOp.build(ptr))


def store_element(em: Any, ref: Val, index: ast.Expr, value: Any) -> None:
    """`row[i] = v`; `value(ty)` gives the right-hand side checked against the element type."""
    ptr, elem = _element(em, ref, index)
    simt.PtrStoreOp.build(ptr, value(elem).v)


def _each(length: int, body: Any) -> None:
    loop = scf.ForOp(arith.constant(ir.IndexType.get(), 0), arith.constant(ir.IndexType.get(), length),
                     arith.constant(ir.IndexType.get(), 1))
    with ir.InsertionPoint(loop.body):
        body(loop.induction_variable)
        scf.YieldOp([])


def load_row(em: Any, ref: Val) -> Val:
    """`*row`: the row copied into a local array (arrays are values)."""
    first, array = _first_element(ref)
    with ir.InsertionPoint.at_block_begin(em.entry):
        cell = new_cell(array)
    _each(array.length, lambda i: memref.store(simt.PtrLoadOp.build(simt.PtrOffsetOp.build(first, i)), cell.leaves, [i]))
    return load_cell(cell)


def store_row(em: Any, ref: Val, value: Val) -> None:
    """`*row = a` for an array value `a` of the row's type."""
    first, array = _first_element(ref)
    view: ArrayView = value.v
    _each(array.length, lambda i: simt.PtrStoreOp.build(
        simt.PtrOffsetOp.build(first, i), element_at(ArrayView(view.storage, view.prefix + (i,)), array.elem).v))
