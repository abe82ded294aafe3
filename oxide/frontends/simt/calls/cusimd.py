"""cuda_device's `CuSimd<T, N>`: N values of T held in registers, built with `CuSimd::<T, N>::new([..])`, read
with `s[i]` (bounds-checked), `s.at(i)`, `s.get::<K>()`, `s.x()`/`y()`/`z()`/`w()`, `s.xy()` and `s.to_array()`.
It is an array value of its own type (no arithmetic on it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.expressions.indexing import array_load, index_value
from oxide.frontends.simt.emit_support import index
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_fn, device_method
from oxide.frontends.simt.values import Val

_LANES = {"x": 0, "y": 1, "z": 2, "w": 3}


@dataclass(frozen=True)
class CuSimdTy(T.Array):
    """`CuSimd<T, N>`: an array of N Ts (a distinct type: `[T; N]` and `CuSimd<T, N>` do not mix)."""

    def rust(self) -> str:
        return f"CuSimd<{self.elem.rust()}, {self.length}>"


def cusimd_type(em: Emitter, t: ast.PathTy) -> T.Ty | None:
    """`CuSimd<T, N>` as a type, else None."""
    if t.name != "CuSimd" or len(t.args) != 2:
        return None
    elem = em.resolve_type(t.args[0])
    if not isinstance(elem, (T.Int, T.Float)):
        raise err(t.loc, f"`CuSimd<{elem}, _>` is not supported in device code (integers and floats)")
    return CuSimdTy(elem, em.const_arg(t.args[1]))


@device_fn("CuSimd::new", when=lambda em, segs, generics, args, *_: len(args) == 1)
def _new(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
         loc: Any) -> Val:
    if len(generics) == 2:
        ty = cusimd_type(em, ast.PathTy(loc, "CuSimd", list(generics)))
    elif isinstance(expected, CuSimdTy):
        ty = expected
    else:
        ty = None
    want = T.Array(ty.elem, ty.length) if ty is not None else None
    value = em.expr(args[0], want)
    if not isinstance(value.ty, T.Array) or isinstance(value.ty, CuSimdTy):
        raise err(args[0].loc, f"`CuSimd::new` takes an array, not `{value.ty}`")
    if want is not None:
        value = em.coerce(value, want, args[0].loc)
    return Val(CuSimdTy(value.ty.elem, value.ty.length), em.owned(value).v)


def _lane(em: Emitter, recv: Val, k: int, loc: Any) -> Val:
    if not 0 <= k < recv.ty.length:
        raise err(loc, f"lane {k} is out of range for `{recv.ty}`")
    return array_load(recv.v, index(k), recv.ty.elem)


def _no_args(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    return not args


@device_method(CuSimdTy, *_LANES, when=_no_args)
def _lane_method(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                 expected: T.Ty | None) -> Val:
    return _lane(em, recv, _LANES[name], loc)


@device_method(CuSimdTy, "xy", when=_no_args)
def _xy(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
        expected: T.Ty | None) -> Val:
    return Val(T.Tuple((recv.ty.elem, recv.ty.elem)), [_lane(em, recv, 0, loc), _lane(em, recv, 1, loc)])


@device_method(CuSimdTy, "get", when=lambda em, recv, name, args, generics, *_: len(generics) == 1 and not args)
def _get(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
         expected: T.Ty | None) -> Val:
    return _lane(em, recv, em.const_arg(generics[0]), loc)


@device_method(CuSimdTy, "at", when=lambda em, recv, name, args, *_: len(args) == 1)
def _at(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
        expected: T.Ty | None) -> Val:
    i = index_value(em, args[0])
    em.check_array_bounds(i, recv.ty.length)
    return array_load(recv.v, i, recv.ty.elem)


@device_method(CuSimdTy, "to_array", when=_no_args)
def _to_array(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
              expected: T.Ty | None) -> Val:
    return em.owned(Val(T.Array(recv.ty.elem, recv.ty.length), recv.v))
