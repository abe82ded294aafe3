"""Closures: a closure value is its AST and the scopes it captures; calls inline its body."""

from __future__ import annotations

from typing import TYPE_CHECKING

from oxide.frontends.simt import types as T
from oxide.frontends.simt.expressions.table import emits
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast


if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


@emits(ast.Closure)
def e_Closure(em: FunctionEmitter, e: ast.Closure, expected: T.Ty | None) -> Val:
    """A closure value: its AST and the scopes it captures (by reference: the same bindings)."""
    return Val(T.Closure(id(e)), (e, list(em.scopes), em.generics[-1]))
