"""Methods of local arrays and of the slices made from locals or raw pointers: an array's `len`,
`is_empty`, `as_slice`, `as_ptr` and `map(f)`; a local or pointer slice's `len` and `is_empty`; a
pointer slice's `as_ptr` / `as_mut_ptr`."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, scf

from oxide.frontends.simt import types as T
from oxide.frontends.structured import unroll_array_loop
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_method
from oxide.frontends.simt.emit_support import i1
from oxide.frontends.simt.expressions.indexing import array_load, array_store
from oxide.frontends.simt.local_pointers import array_pointer
from oxide.frontends.simt.local_slices import borrow_array, length
from oxide.frontends.simt.ptr_slices import as_ptr
from oxide.frontends.simt.values import ArrayView, Val, load_cell, new_cell
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err


def _no_args(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    return not args


def _usize(value: int) -> ir.Value:
    return arith.constant(T.USIZE.mlir(), ir.IntegerAttr.get(T.USIZE.mlir(), value))


def _index_const(i: int) -> ir.Value:
    return arith.constant(ir.IndexType.get(), i)


@device_method(T.Array, "as_ptr", when=_no_args)
def _array_ptr(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    return array_pointer(recv)


@device_method(T.Array, "as_slice", "len", "is_empty", when=_no_args)
def _array_len(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    ty: T.Array = recv.ty
    if name == "as_slice":
        return borrow_array(recv, T.Slice(ty.elem, False))
    if name == "len":
        return Val(T.USIZE, _usize(ty.length))
    return Val(T.BOOL, i1(ty.length == 0))


@device_method(T.Array, "map", when=lambda em, recv, name, args, *_: len(args) == 1)
def _map(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
         expected: T.Ty | None) -> Val:
    return array_map(em, recv, args[0], loc)


def array_map(em: Emitter, array: Val, f_expr: ast.Expr, loc: Any) -> Val:
    """`[T; N].map(f)`: a new array of f(element), in order."""
    f = em.expr(f_expr)
    if not isinstance(f.ty, T.Closure):
        raise err(f_expr.loc, "`map` takes a closure")
    source = em.owned(array)
    ty: T.Array = array.ty
    loop = scf.ForOp(_index_const(0), _index_const(ty.length), _index_const(1))
    unroll_array_loop(loop, ty.length)
    with ir.InsertionPoint(loop.body):
        em.bind("__map_element", array_load(source.v, loop.induction_variable, ty.elem))
        out = em.call_closure(f, [ast.PathExpr(loc, ["__map_element"])], loc)
        with ir.InsertionPoint.at_block_begin(em.entry):
            try:
                result = new_cell(T.Array(out.ty, ty.length))
            except TypeError:
                raise err(loc, f"`map` to `{out.ty}` elements is not supported in device code") from None
        array_store(out, ArrayView(result.leaves), loop.induction_variable, out.ty)
        scf.YieldOp([])
    return load_cell(result)


@device_method(T.PtrSlice, "as_ptr", "as_mut_ptr", when=_no_args)
def _ptr_slice_ptr(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                   expected: T.Ty | None) -> Val:
    if name == "as_mut_ptr" and not recv.ty.mutable:
        raise err(loc, "`as_mut_ptr` needs a `&mut [T]`")
    return as_ptr(recv, name == "as_mut_ptr")


@device_method(T.LocalSlice, "len", "is_empty", when=_no_args)
@device_method(T.PtrSlice, "len", "is_empty", when=_no_args)
def _slice_len(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    n = length(recv)
    return n if name == "len" else Val(T.BOOL, arith.cmpi(arith.CmpIPredicate.eq, n.v, _usize(0)))
