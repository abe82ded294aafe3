"""Blocks and `if`: `{ .. }`, `unsafe { .. }`, `if c { } else { }`, `if let` and let chains."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mlir import ir
from mlir.dialects import arith, scf

from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_support import i1
from oxide.frontends.simt.expressions.branch_values import value_if
from oxide.frontends.simt.expressions.patterns import match_pattern
from oxide.frontends.simt.expressions.table import emits
from oxide.frontends.simt.values import Val, load_cell, new_cell, store_cell
from oxide.frontends.syntax import ast


if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


@emits(ast.Block)
def e_Block(em: FunctionEmitter, e: ast.Block, expected: T.Ty | None) -> Val:
    if e.unsafe:
        was = em.in_unsafe
        em.in_unsafe = True
        try:
            return em.block(e, expected)
        finally:
            em.in_unsafe = was
    return em.block(e, expected)


@emits(ast.If)
def e_If(em: FunctionEmitter, e: ast.If, expected: T.Ty | None) -> Val:
    if isinstance(e.cond, ast.LetChain):
        return if_let_chain(em, e, expected)
    if isinstance(e.cond, ast.LetCond):
        return if_let(em, e, expected)
    cond = em.coerce(em.expr(e.cond, T.BOOL), T.BOOL, e.cond.loc)
    if e.else_ is None:
        branch = scf.IfOp(cond.v)
        with ir.InsertionPoint(branch.then_block):
            em.block(e.then)
            scf.YieldOp([])
        return Val(T.UNIT, None)
    return value_if(em, cond.v, lambda: em.block(e.then, expected),
                    lambda hint: em.expr(e.else_, expected or hint), e.loc)


def if_let_chain(em: FunctionEmitter, e: ast.If, expected: T.Ty | None) -> Val:
    """`if let P = v && c && let Q = w { } else { }`: the conditions in order, short-circuiting, each
    seeing the bindings before it; the else branch runs when any fails."""
    with ir.InsertionPoint.at_block_begin(em.entry):
        matched = new_cell(T.BOOL)
    store_cell(matched, Val(T.BOOL, i1(False)))

    def step(i: int) -> None:
        if i == len(e.cond.parts):
            store_cell(matched, Val(T.BOOL, i1(True)))
            em.block(e.then, expected)
            return
        part = e.cond.parts[i]
        if isinstance(part, ast.LetCond):
            value = em.expr(part.value)
            ok, binds = match_pattern(em, part.pattern, value)
        else:
            ok, binds = em.coerce(em.expr(part, T.BOOL), T.BOOL, part.loc).v, []
        branch = scf.IfOp(ok)
        with ir.InsertionPoint(branch.then_block):
            em.push()
            try:
                for pattern, bound in binds:
                    em.bind_pattern(pattern, bound)
                step(i + 1)
            finally:
                em.pop()
            scf.YieldOp([])

    step(0)
    if e.else_ is not None:
        otherwise = scf.IfOp(arith.xori(load_cell(matched).v, i1(True)))
        with ir.InsertionPoint(otherwise.then_block):
            em.expr(e.else_, expected)
            scf.YieldOp([])
    return Val(T.UNIT, None)


def if_let(em: FunctionEmitter, e: ast.If, expected: T.Ty | None) -> Val:
    value = em.expr(e.cond.value)
    ok, binds = match_pattern(em, e.cond.pattern, value)

    def then() -> Val:
        em.push()
        try:
            for pattern, bound in binds:
                em.bind_pattern(pattern, bound)
            return em.block(e.then, expected)
        finally:
            em.pop()

    if e.else_ is None:
        branch = scf.IfOp(ok)
        with ir.InsertionPoint(branch.then_block):
            then()
            scf.YieldOp([])
        return Val(T.UNIT, None)
    return value_if(em, ok, then, lambda hint: em.expr(e.else_, expected or hint), e.loc)
