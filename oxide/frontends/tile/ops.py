"""The dispatch of the cutile-rs operations: calls and method calls in a tile kernel go to a helper function
of the module (inlined) or to the operation registered under that name, with the argument checks the
operations share.

Each operation is registered by name with `@function(...)` or `@method(...)` (registry.py) in
ops_memory.py, ops_shape.py, ops_compute.py and ops_atomic.py; a method call with no method of that name
falls back to the function of that name with the receiver first (`t.exp()` is `exp(t)`). Marker arguments
(`rounding::*`, `ftz::*`, `nan::*`, `overflow::*`) are accepted and dropped where they do not change oxide's
semantics.
"""

from __future__ import annotations

from typing import Any

from mlir import ir

from oxide.dialects import tile
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err
from oxide.frontends.tile import values as vals
from oxide.frontends.tile.registry import FUNCTIONS, METHODS, TileEmitter
from oxide.frontends.tile.types import (
    I32, ArrayT, Flex, MarkerT, Scalar, ShapeT, TileT, TupleT, V, rust_name,
)
from oxide.frontends.tile.values import coerce, scalar_const

def call(em: TileEmitter, e: ast.Call, expected: Any) -> V:
    """A call: a helper function of the module (inlined), else a cutile-rs function."""
    if not isinstance(e.func, ast.PathExpr):
        raise err(e.loc, "tile kernels call functions by name")
    name, path = e.func.segments[-1], e.func.segments[:-1]
    # Helpers live in one namespace; a path through this file's modules (`other::helper`) names one too.
    local = all(p in ("self", "super", "crate") or p in em.crate.modules for p in path)
    helper = em.crate.function(name) if local else None
    if helper is not None and name not in em.crate.entries:
        args = [em.expr(a) for a in e.args]
        return em.inline(helper, args, e.func.generics, e.loc, expected)
    if name in em.crate.entries:
        raise err(e.loc, f"`{name}` is a `#[cutile::entry]` kernel; kernels are launched from the host, not called")
    handler = FUNCTIONS.get(name)
    if handler is None:
        raise err(e.func.loc, f"cannot find function `{name}`: it is neither a helper of this module nor a "
                              f"cutile-rs operation oxide supports (see docs/tile-language.md)")
    return handler(em, e, [em.expr(a) for a in e.args], expected, name)


def dispatch_method(em: TileEmitter, e: ast.MethodCall, expected: Any) -> V:
    """A method call: a cutile-rs method, or the function of that name with the receiver first."""
    recv = em.expr(e.receiver)
    args = [em.expr(a) for a in e.args]
    handler = METHODS.get(e.name)
    if handler is not None:
        return handler(em, e, recv, args, expected, e.name)
    if e.name in FUNCTIONS:
        return FUNCTIONS[e.name](em, e, [recv] + args, expected, e.name)
    raise err(e.loc, f"no method `{e.name}` on `{rust_name(recv.ty)}` in tile kernels")


def _args(e: Any) -> list[Any]:
    return ([e.receiver] if isinstance(e, ast.MethodCall) else []) + list(e.args)


def arg_loc(e: Any, i: int) -> Any:
    """Where argument `i` of a call is written (a method's receiver is argument 0)."""
    args = _args(e)
    return args[i].loc if i < len(args) else e.loc


def without_markers(args: list[V]) -> list[V]:
    """The arguments without marker types (rounding::*, ftz::*, ...)."""
    return [a for a in args if not isinstance(a.ty, MarkerT)]


def check_arity(e: Any, args: list[V], n: int, name: str, usage: str) -> None:
    """An operation takes `n` arguments; the error shows its usage."""
    if len(args) != n:
        raise err(e.loc, f"`{name}` takes {n} argument(s): `{usage}`")


def tile_arg(e: Any, v: V, i: int, what: str) -> TileT:
    """Argument `i` is a tile; its type."""
    if not isinstance(v.ty, TileT):
        raise err(arg_loc(e, i), f"{what} must be a tile, found `{rust_name(v.ty)}`")
    return v.ty


def const_int_arg(e: Any, v: V, i: int, what: str) -> int:
    """Argument `i` is a compile-time integer (a dimension, an axis); its value."""
    if isinstance(v.const, bool) or not isinstance(v.const, int):
        raise err(arg_loc(e, i), f"{what} must be a compile-time integer")
    return v.const


def index_value(e: Any, v: V, i: int) -> ir.Value:
    """A tile index as the i32 value the tile ops take."""
    v = coerce(v, I32, arg_loc(e, i), "a tile index") if isinstance(v.ty, Flex) else v
    if v.ty != I32:
        if isinstance(v.ty, Scalar) and v.ty.is_int:
            return vals.convert(v, I32, arg_loc(e, i)).value
        raise err(arg_loc(e, i), f"a tile index is an integer, found `{rust_name(v.ty)}`")
    return v.value


def index_args(e: Any, v: V, i: int, rank: int) -> list[V]:
    """The `rank` tile indices of `[i, j]` (argument `i`)."""
    if not isinstance(v.ty, (ArrayT, TupleT, ShapeT)):
        raise err(arg_loc(e, i), f"tile indices are written `[i, j]`, found `{rust_name(v.ty)}`")
    parts = [scalar_const(d, I32) for d in v.shape] if isinstance(v.ty, ShapeT) else v.parts
    if len(parts) != rank:
        raise err(arg_loc(e, i), f"a rank-{rank} partition takes {rank} tile indices, got {len(parts)}")
    return parts


def check_shape(e: Any, shape: list[int], i: int) -> None:
    """A tile shape (argument `i`): rank 0 to 4, every dimension a power of two."""
    if not 0 <= len(shape) <= tile.types.MAX_TILE_RANK:
        raise err(arg_loc(e, i), f"tiles have rank 0 to {tile.types.MAX_TILE_RANK}, this shape has {len(shape)}")
    for d in shape:
        if d <= 0 or d & (d - 1):
            raise err(arg_loc(e, i), f"tile shape {shape}: every tile dimension must be a power of two")


def literal_elem(v: V, expected: Any) -> Scalar:
    """The element type of a scalar operand; an untyped literal takes the expected one if it fits."""
    if isinstance(v.ty, Flex):
        hint = expected.elem if isinstance(expected, TileT) else expected if isinstance(expected, Scalar) else None
        return hint if hint is not None and (hint.is_float or v.ty.kind == "int") else v.ty.default()
    if isinstance(v.ty, Scalar):
        return v.ty
    raise err(None, "expected a scalar")


def named_elem(em: TileEmitter, e: Any, expected: Any) -> Scalar | None:
    """The element type a turbofish (`f::<f32>`) or the expected tile type names, if any."""
    generics = e.func.generics if isinstance(e, ast.Call) else e.generics
    if generics:
        return em.scalar_type(generics[0])
    if isinstance(expected, TileT):
        return expected.elem
    if isinstance(expected, Scalar):
        return expected
    return None

