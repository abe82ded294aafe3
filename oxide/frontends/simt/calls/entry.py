"""The emitter's three ways into the device calls: a call expression, a method call and a macro call. Their
names and signatures are what the emitter's call sites depend on; the resolution behind them is calls/'s."""

from __future__ import annotations

from typing import Any

from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls import device_api
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.values import Val


def call_function(em: Any, e: ast.Call, expected: T.Ty | None) -> Val:
    """`f(args)`: a path (a device function, a `core` function, the user's function, a constructor) or a
    value that is a closure or a function item."""
    if not isinstance(e.func, ast.PathExpr):
        callee = em.expr(e.func)  # `(self.f)(x)`, `(table[i])(x)`: a closure or function item value
        if isinstance(callee.ty, T.Closure):
            return em.call_closure(callee, e.args, e.loc)
        if isinstance(callee.ty, T.FnItem):
            return device_api.call_path(em, ast.PathExpr(e.func.loc, list(callee.ty.path), list(callee.v or [])),
                                        e.args, expected, e.loc)
        raise err(e.loc, f"expected a function, found a value of type `{callee.ty}`")
    return device_api.call_path(em, e.func, e.args, expected, e.loc)


def call_method(em: Any, e: ast.MethodCall, expected: T.Ty | None) -> Val:
    """`receiver.name(args)`."""
    return device_api.call_method(em, e, expected)


def call_macro(em: Any, e: ast.MacroCall, expected: T.Ty | None) -> Val:
    """`name!(args)`."""
    return device_api.macro(em, e, expected)
