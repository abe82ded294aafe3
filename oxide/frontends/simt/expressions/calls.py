"""Call expressions: a function call, a method call and a macro call all resolve in calls/ (the device API
and the user's functions); these handlers are the expression table's way in."""

from __future__ import annotations

from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.entry import call_function, call_macro, call_method
from oxide.frontends.simt.expressions.table import emits
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast


@emits(ast.Call)
def e_Call(self, e: ast.Call, expected: T.Ty | None) -> Val:
    return call_function(self, e, expected)


@emits(ast.MethodCall)
def e_MethodCall(self, e: ast.MethodCall, expected: T.Ty | None) -> Val:
    return call_method(self, e, expected)


@emits(ast.MacroCall)
def e_MacroCall(self, e: ast.MacroCall, expected: T.Ty | None) -> Val:
    return call_macro(self, e, expected)
