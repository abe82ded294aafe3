"""The registry of the cutile-rs operations: each ops module registers its functions and methods here by
name with `@function(...)` / `@method(...)`, and ops.py dispatches calls through the two tables. A name is
registered once per table; a method that extends an existing one for another receiver (a pointer tile's
`broadcast`) says so with `extend_method`. The emitter (emit.py) imports every ops module once.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from oxide.frontends.syntax import ast
from oxide.frontends.tile.module import TileCrate
from oxide.frontends.tile.types import Scalar, V
from oxide.ir.registry import Registry

class TileEmitter(Protocol):
    """What an operation sees of the emitter (emit.py's Emitter) while it emits a call."""

    crate: TileCrate

    def expr(self, e: Any, expected: Any = None) -> V: ...

    def binary(self, op: str, a: V, b: V, loc: Any) -> V: ...

    def shape_arg(self, v: V, loc: Any) -> list[int]: ...

    def scalar_type(self, t: Any) -> Scalar: ...

    def inline(self, fn: ast.Function, args: list[V], explicit: list[Any], loc: Any, expected: Any) -> V: ...


OpFn = Callable[..., V]
FUNCTIONS: Registry[str, OpFn] = Registry("tile function")
METHODS: Registry[str, OpFn] = Registry("tile method")


def function(*names: str) -> Callable[[OpFn], OpFn]:
    """Register `fn(em, e, args, expected, name)` as the free function(s) `names`."""
    return FUNCTIONS.register(*names)


def method(*names: str) -> Callable[[OpFn], OpFn]:
    """Register `fn(em, e, recv, args, expected, name)` as the method(s) `names`."""
    return METHODS.register(*names)


def extend_method(name: str, extend: Callable[[OpFn | None], OpFn]) -> None:
    """Replace method `name` by `extend(existing)`, a handler that defers to the existing one (None if there
    is none yet) for the receivers it does not take."""
    existing = METHODS.get(name)
    if existing is None:
        METHODS.add(name, extend(None))
    else:
        METHODS.replace(name, extend(existing))
