"""What a device-call handler may ask of the emitter: the members of FunctionEmitter that calls/ uses, as a
Protocol, so handlers are typed without importing the emitter (which imports the expressions, which import
calls/)."""

from __future__ import annotations

from typing import Any, Callable, Protocol

from mlir import ir

from oxide.frontends.simt import types as T
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.items import Crate


class Emitter(Protocol):
    """The emitter of one kernel body, as the device calls see it."""

    crate: Crate
    kernel: ast.Function
    entry: ir.Block | None
    generics: list[dict[str, Any]]
    inline_fns: list[ast.Function]
    unchecked: bool  # bounds checks off (`get` forms its address only for an index it has checked)

    def expr(self, e: ast.Expr, expected: T.Ty | None = None) -> Val: ...

    def coerce(self, value: Val, ty: T.Ty, loc: Any) -> Val: ...

    def owned(self, value: Val) -> Val: ...

    def bind(self, name: str, value: Any) -> None: ...

    def lookup(self, name: str) -> Any: ...

    def resolve_type(self, t: Any) -> T.Ty: ...

    def scalar_element(self, t: Any, container: str) -> T.Ty: ...

    def const_arg(self, e: Any) -> int: ...

    def align_arg(self, e: Any, what: str) -> int: ...

    def struct_type(self, struct: ast.StructDef, args: list[T.Ty]) -> T.Struct: ...

    def enum_type(self, enum: ast.EnumDef) -> T.Enum | T.DataEnum: ...

    def require_unsafe(self, loc: Any, what: str) -> None: ...

    def trap_unless(self, ok: ir.Value) -> None: ...

    def check_division(self, a: Val, b: Val, ty: T.Int) -> None: ...

    def check_array_bounds(self, i: ir.Value, length: int) -> None: ...

    def call_closure(self, closure: Val, args: list[ast.Expr], loc: Any) -> Val: ...


# (emitter, path segments, explicit generic arguments, argument expressions, expected type, location)
PathHandler = Callable[[Emitter, list[str], list[Any], list[ast.Expr], "T.Ty | None", Any], Val]
# (emitter, receiver, method name, argument expressions, explicit generic arguments, location, expected type)
MethodHandler = Callable[[Emitter, Val, str, list[ast.Expr], list[Any], Any, "T.Ty | None"], Val]
