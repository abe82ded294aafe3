"""Array constructors and methods: `core::array::from_fn(|i| ..)`, `[T; N]::map(|x| ..)`, `len`, `is_empty`."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.frontends.rust import ast
from oxide.frontends.rust import types as T
from oxide.frontends.rust.emit_support import err
from oxide.frontends.rust.intrinsics.registry import device_fn, device_method, qualifier
from oxide.frontends.rust.values import ArrayView, Val, load_cell, new_cell


@device_fn("from_fn")
def _array_from_fn(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                   loc: Any) -> Val | None:
    """`core::array::from_fn(|i| f(i))`: an array whose element i is the closure's value at i (the length
    comes from the array type the value is expected to have)."""
    if qualifier(segs) != "array" or len(args) != 1:
        return None
    from mlir.dialects import scf

    from oxide.frontends.rust.values import store_element

    if not isinstance(expected, T.Array):
        raise err(loc, "cannot infer the length of `array::from_fn`; annotate the binding: `let a: [T; N] = ...`")
    f = em.expr(args[0])
    if not isinstance(f.ty, T.Closure):
        raise err(args[0].loc, "`array::from_fn` takes a closure of the element index")
    with ir.InsertionPoint.at_block_begin(em.entry):
        cell = new_cell(expected)
    loop = scf.ForOp(arith.constant(ir.IndexType.get(), 0), arith.constant(ir.IndexType.get(), expected.length),
                     arith.constant(ir.IndexType.get(), 1))
    with ir.InsertionPoint(loop.body):
        i = loop.induction_variable
        em.push()
        try:
            em.bind("__array_from_fn_index", Val(T.USIZE, arith.index_cast(T.USIZE.mlir(), i)))
            value = em.call_closure(f, [ast.PathExpr(loc, ["__array_from_fn_index"])], loc)
        finally:
            em.pop()
        store_element(em.coerce(value, expected.elem, loc), ArrayView(cell.leaves, (i,)), expected.elem)
        scf.YieldOp([])
    return load_cell(cell)


_MAX_UNROLLED_MAP = 64


@device_method("map")
def _array_map(em: Any, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
               loc: Any, expected: T.Ty | None) -> Val | None:
    """`[T; N]::map(|x| f(x))`: a new array of the closure's values, one call per element in order (unrolled,
    so the element type is the closure's)."""
    if not isinstance(recv.ty, T.Array) or len(args) != 1:
        return None
    from oxide.frontends.rust.emit_expr import array_load
    from oxide.frontends.rust.emit_support import index

    array: T.Array = recv.ty
    if array.length > _MAX_UNROLLED_MAP:
        raise err(loc, f"`map` over an array of more than {_MAX_UNROLLED_MAP} elements is not supported in device "
                       "code; loop over the indices")
    f = em.expr(args[0])
    if not isinstance(f.ty, T.Closure):
        raise err(args[0].loc, "`map` takes a closure")
    values = []
    for k in range(array.length):
        em.push()
        try:
            em.bind("__array_map_element", em.owned(array_load(recv.v, index(k), array.elem)))
            values.append(em.call_closure(f, [ast.PathExpr(loc, ["__array_map_element"])], loc))
        finally:
            em.pop()
    elem = values[0].ty if values else array.elem
    out = T.Array(elem, array.length)
    with ir.InsertionPoint.at_block_begin(em.entry):
        cell = new_cell(out)
    from oxide.frontends.rust.values import store_element

    for k, v in enumerate(values):
        store_element(em.coerce(v, elem, loc), ArrayView(cell.leaves, (index(k),)), elem)
    return load_cell(cell)


@device_method("len", "is_empty")
def _array_len(em: Any, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
               loc: Any, expected: T.Ty | None) -> Val | None:
    """`a.len()` / `a.is_empty()` of an array: its (compile-time) length."""
    if not isinstance(recv.ty, T.Array) or args:
        return None
    if name == "is_empty":
        from oxide.frontends.rust.emit_support import i1

        return Val(T.BOOL, i1(recv.ty.length == 0))
    return Val(T.USIZE, arith.constant(T.USIZE.mlir(), ir.IntegerAttr.get(T.USIZE.mlir(), recv.ty.length)))
