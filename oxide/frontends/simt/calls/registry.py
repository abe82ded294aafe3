"""The registry of device functions and primitive methods that live outside device_api.py: each module of
this package registers its handlers here by the function's (or method's) last path segment, and
device_api.py asks the registry before it reports an unknown name."""

from __future__ import annotations

from typing import Any, Callable

from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.values import Val

# (emitter, path segments, explicit generic arguments, argument expressions, expected type, location)
PathHandler = Callable[[Any, list[str], list[Any], list[ast.Expr], "T.Ty | None", Any], "Val | None"]
# (emitter, receiver, method name, argument expressions, explicit generic arguments, location, expected type)
MethodHandler = Callable[[Any, Val, str, list[ast.Expr], list[Any], Any, "T.Ty | None"], "Val | None"]

_PATHS: dict[str, list[PathHandler]] = {}
_METHODS: dict[str, list[MethodHandler]] = {}


def device_fn(*names: str) -> Callable[[PathHandler], PathHandler]:
    """Register a handler for calls whose last path segment is one of `names`; it returns None when the
    call is not its (another handler, or the caller's error, then applies)."""
    def register(handler: PathHandler) -> PathHandler:
        for name in names:
            _PATHS.setdefault(name, []).append(handler)
        return handler
    return register


def device_method(*names: str) -> Callable[[MethodHandler], MethodHandler]:
    """Register a handler for methods by name (integers, floats, bools, raw pointers); it returns None when the
    receiver is not its kind."""
    def register(handler: MethodHandler) -> MethodHandler:
        for name in names:
            _METHODS.setdefault(name, []).append(handler)
        return handler
    return register


def qualifier(segs: list[str]) -> str | None:
    """The path segment before a function's name (`mem` of `core::mem::swap`), if any."""
    return segs[-2] if len(segs) >= 2 else None


def call_path(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
              loc: Any) -> Val | None:
    """The value of a registered device-function call, or None when no handler takes it."""
    for handler in _PATHS.get(segs[-1], []):
        value = handler(em, segs, generics, args, expected, loc)
        if value is not None:
            return value
    return None


def call_method(em: Any, recv: Val, name: str, args: list[ast.Expr], loc: Any, expected: T.Ty | None,
                generics: list[Any] | None = None) -> Val | None:
    """The value of a registered method call, or None when no handler takes it."""
    for handler in _METHODS.get(name, []):
        value = handler(em, recv, name, args, list(generics or []), loc, expected)
        if value is not None:
            return value
    return None
