"""Rust's inference of unsuffixed literals, done by this one-pass emitter: a literal takes the type
of what it meets, and a variable initialised by one is re-emitted with the type a later use gives it."""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from oxide.frontends.kernel_module import Retype
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast


if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


def is_plain_literal(e: ast.Expr) -> bool:
    if isinstance(e, ast.Unary) and e.op == "-":
        return is_plain_literal(e.operand)
    return isinstance(e, ast.Lit) and e.kind in ("int", "float") and not e.suffix


def unify(em: FunctionEmitter, a: Val, b: Val, loc: Any, what: str) -> T.Ty:
    """The common type of two operands, or a located mismatch (retrying literal-typed variables)."""
    if a.ty == b.ty:
        return a.ty
    for flexible, other in ((a, b), (b, a)):
        if getattr(flexible, "flex", None) is not None and isinstance(other.ty, (T.Int, T.Float)):
            raise Retype(flexible.flex, other.ty)
    raise err(loc, f"mismatched types in {what}: `{a.ty}` and `{b.ty}`")


def unsuffixed_literal(e: Any) -> bool:
    """An unsuffixed number, or an `if`/`match`/block whose every result is one (`match f { A => 2, _ => 0 }`):
    its type comes from later uses."""
    if isinstance(e, ast.Unary) and e.op == "-":
        return unsuffixed_literal(e.operand)
    if isinstance(e, ast.Block):
        return e.tail is not None and unsuffixed_literal(e.tail)
    if isinstance(e, ast.If):
        return e.else_ is not None and unsuffixed_literal(e.then) and unsuffixed_literal(e.else_)
    if isinstance(e, ast.Match):
        return bool(e.arms) and all(unsuffixed_literal(arm.body) for arm in e.arms)
    return isinstance(e, ast.Lit) and e.kind in ("int", "float") and not e.suffix
