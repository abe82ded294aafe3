"""What the primitive types' methods share: a method called as a function (`u32::max(a, b)`,
`f32::math::sin(x)`), the argument-count check of the methods that take arguments, and `get()` of a
`Uniform<T>` (a uniform value is its value here)."""

from __future__ import annotations

from typing import Any

from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import call_method, device_method
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err


def primitive_method(em: Emitter, recv: Val, name: str, args: list[ast.Expr], loc: Any,
                     expected: T.Ty | None) -> Val:
    """`recv.name(args)` of a primitive receiver: its registered method, else the error that names it."""
    found = call_method(em, recv, name, args, loc, expected)
    if found is None:
        raise err(loc, f"no method named `{name}` found for `{recv.ty}` in device code")
    return found


def check_arity(name: str, args: list[ast.Expr], wanted: int, loc: Any) -> None:
    """A scalar method called with another argument count is refused, instead of reading past the written
    arguments or ignoring extra ones."""
    if len(args) != wanted:
        raise err(loc, f"`{name}` expects {wanted} argument{'s' if wanted > 1 else ''}, got {len(args)}")


@device_method(T.Int, "get", when=lambda em, recv, name, args, *_: not args)
@device_method(T.Float, "get", when=lambda em, recv, name, args, *_: not args)
@device_method(T.Bool, "get", when=lambda em, recv, name, args, *_: not args)
def _uniform_get(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                 expected: T.Ty | None) -> Val:
    return recv  # `Uniform<T>::get()`
