"""Iterator chains that end in a reduction: `xs.iter().map(f).sum()`, `a.into_iter().product()` over a
slice or array, with any number of `.map(f)` and the no-op adapters `.copied()` / `.cloned()`. They become
one counted loop; the sum wraps on overflow (cuda-oxide builds with debug assertions off)."""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_support import index
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.values import Val, load_cell, new_cell, store_cell, zero_value
from oxide.frontends.simt.expressions.indexing import array_load
from oxide.frontends.simt.local_slices import element_unchecked

if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter

_PASS_THROUGH = ("iter", "into_iter", "copied", "cloned")


def reduction(em: FunctionEmitter, e: ast.MethodCall, expected: T.Ty | None) -> Val | None:
    """`<chain>.sum()` / `.product()` as a loop, or None when `e` is no such chain."""
    if e.name not in ("sum", "product") or e.args:
        return None
    maps: list[ast.Expr] = []
    node: Any = e.receiver
    saw_iter = False
    while isinstance(node, ast.MethodCall) and (node.name in _PASS_THROUGH or node.name == "map"):
        if node.name == "map":
            if len(node.args) != 1:
                return None
            maps.insert(0, node.args[0])
        elif node.name in ("iter", "into_iter"):
            saw_iter = True
        node = node.receiver
    if not saw_iter:
        return None
    seq = em.expr(node)
    if not isinstance(seq.ty, (T.Slice, T.Array, T.LocalSlice)) or T.is_aggregate(seq.ty.elem):
        raise err(node.loc, f"`.{e.name}()` over `{seq.ty}` is not supported in device code")
    functions = [em.expr(m) for m in maps]
    for f, m in zip(functions, maps):
        if not isinstance(f.ty, T.Closure):
            raise err(m.loc, "`map` takes a closure")
    if isinstance(seq.ty, T.Array):
        seq = em.owned(seq)
    if isinstance(seq.ty, T.LocalSlice):
        length = seq.v.length
    else:
        length = simt.LenOp.build(seq.v) if isinstance(seq.ty, T.Slice) else index(seq.ty.length)
    accumulator = None
    loop = scf.ForOp(index(0), length, index(1))
    with ir.InsertionPoint(loop.body):
        i = loop.induction_variable
        if isinstance(seq.ty, T.LocalSlice):
            value = element_unchecked(seq, i)
        elif isinstance(seq.ty, T.Slice):
            value = Val(seq.ty.elem, simt.LoadUncheckedOp.build(seq.v, i))  # i < len by construction
        else:
            value = array_load(seq.v, i, seq.ty.elem)
        for f in functions:
            em.bind("__chain_value", value)
            value = em.call_closure(f, [ast.PathExpr(e.loc, ["__chain_value"])], e.loc)
        ty = expected if isinstance(expected, (T.Int, T.Float)) else value.ty
        if value.ty != ty or not isinstance(ty, (T.Int, T.Float)):
            raise err(e.loc, f"`.{e.name}()` of `{value.ty}` values into `{ty}` is not supported in device code")
        with ir.InsertionPoint.at_block_begin(em.entry):
            accumulator = new_cell(ty)
        with ir.InsertionPoint(loop.operation):  # the start value is stored before the loop runs
            store_cell(accumulator, Val(ty, zero_value(ty) if e.name == "sum" else _one(ty)))
        current = load_cell(accumulator).v
        if isinstance(ty, T.Float):
            combined = (arith.addf if e.name == "sum" else arith.mulf)(current, value.v)
        else:
            combined = (arith.addi if e.name == "sum" else arith.muli)(current, value.v)
        store_cell(accumulator, Val(ty, combined))
        scf.YieldOp([])
    return load_cell(accumulator)


def _one(ty: T.Ty) -> ir.Value:
    if isinstance(ty, T.Float):
        return arith.constant(ty.mlir(), ir.FloatAttr.get(ty.mlir(), 1.0))
    return arith.constant(ty.mlir(), ir.IntegerAttr.get(ty.mlir(), 1))
