"""cutile-rs pointer tiles and atomics, for `unsafe fn` kernels with `*mut E` parameters:
`pointer_to_tile(p)`, `broadcast_ptr(pt, shape)` / `pt.broadcast(shape)`, `addptr(pt, n)` / `pt.offset(n)`,
`addptr_tile(pt, offsets)` / `pt.offset_tile(offsets)`, `reshape_ptr(pt, shape)` / `pt.reshape(shape)`,
`new_token_unordered()` and `atomic_rmw_tko(ptrs, values, atomic::Kind, ordering, scope, mask, token)`.

A pointer tile exists only here, in the frontend: the `*mut E` parameter and an i64 tile of element offsets
from it. `atomic_rmw_tko` becomes one `tile.atomic_rmw` (old values back, 0 where the mask is false) and
returns `(old, token)`. oxide runs every element's atomic as a relaxed, device-scope read-modify-write, so
`ordering::Relaxed`/`Weak` and `scope::TileBlock`/`Device` are accepted and stronger orderings or the system
scope are errors, not silently weakened. Nothing checks what a raw pointer may overlap: that is why these
kernels are `unsafe`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import tile
from oxide.frontends.syntax.errors import err
from oxide.frontends.tile import values as vals
from oxide.frontends.tile.ops import arg_loc, check_arity, check_shape, tile_arg
from oxide.frontends.tile.registry import TileEmitter, extend_method, function
from oxide.frontends.tile.ops_shape import check_broadcast
from oxide.frontends.tile.types import BOOL, SCALARS, MarkerT, PtrT, Scalar, TileT, TupleT, V, rust_name

I64 = SCALARS["i64"]
# cutile-rs's atomic::* kinds -> tile.atomic_rmw kinds (AddF is add on a float tile).
_KINDS = {"Add": "add", "AddF": "add", "And": "and", "Or": "or", "Xor": "xor", "Max": "max", "Min": "min",
          "Umax": "umax", "Umin": "umin", "Xchg": "xchg"}
_ORDERINGS = ("Relaxed", "Weak")
_SCOPES = ("TileBlock", "Device")


@dataclass(frozen=True)
class PointerTileT:
    """`PointerTile<*mut E, {[..]}>`: a `*mut E` parameter and a tile of element offsets from it."""

    elem: Scalar
    shape: tuple[int, ...]

    def rust(self) -> str:
        return f"PointerTile<*mut {self.elem.rust()}, {{{list(self.shape)}}}>"


@dataclass(frozen=True)
class TokenT:
    """`Token`: orders memory operations in cutile-rs; oxide's atomics need no token, it is carried along."""

    def rust(self) -> str:
        return "Token"


def _pointer_tile(base: V, offsets: ir.Value, shape: list[int]) -> V:
    """The pointer tile `base + offsets` (base: the `*mut E` parameter)."""
    ty = PointerTileT(base.ty.elem, tuple(shape))
    return V(ty, None, None, [base, V(TileT(I64, tuple(shape)), offsets)])


def _check_pointer_tile(e: Any, v: V, i: int) -> PointerTileT:
    if not isinstance(v.ty, PointerTileT):
        raise err(arg_loc(e, i), f"expected a pointer tile (from `pointer_to_tile(p)`), found `{rust_name(v.ty)}`")
    return v.ty


@function("pointer_to_tile")
def _pointer_to_tile(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 1, name, "pointer_to_tile(p)")
    if not isinstance(args[0].ty, PtrT):
        raise err(arg_loc(e, 0), f"`pointer_to_tile` takes a `*mut T` parameter, found `{rust_name(args[0].ty)}`")
    zero = arith.constant(tile.tile_type([], I64.mlir()), ir.DenseElementsAttr.get_splat(
        tile.tile_type([], I64.mlir()), ir.IntegerAttr.get(I64.mlir(), 0)))
    return _pointer_tile(args[0], zero, [])


def _broadcast_pointer(em: TileEmitter, e: Any, pt: V, shape: list[int]) -> V:
    check_shape(e, shape, 1)
    src = list(pt.ty.shape)
    if src == shape:
        return pt
    check_broadcast(e, "a pointer tile", src, shape)
    offsets = tile.BroadcastOp.build(pt.parts[1].value, results=[tile.tile_type(shape, I64.mlir())])
    return _pointer_tile(pt.parts[0], offsets, shape)


def _reshape_pointer(em: TileEmitter, e: Any, pt: V, shape: list[int]) -> V:
    check_shape(e, shape, 1)
    if math.prod(pt.ty.shape) != math.prod(shape):
        raise err(e.loc, f"cannot reshape a pointer tile of shape {list(pt.ty.shape)} to {shape}")
    offsets = tile.ReshapeOp.build(pt.parts[1].value, results=[tile.tile_type(shape, I64.mlir())])
    return _pointer_tile(pt.parts[0], offsets, shape)


def _offset_pointer(em: TileEmitter, e: Any, pt: V, amount: V, i: int) -> V:
    """Offsets + amount: a scalar integer, or an integer tile of the pointer tile's shape."""
    shape = list(pt.ty.shape)
    if isinstance(amount.ty, TileT):
        tile_arg(e, amount, i, "the offsets")
        if not amount.ty.elem.is_int or list(amount.ty.shape) != shape:
            raise err(arg_loc(e, i), f"offsets of a pointer tile of shape {shape} are an integer tile of that shape, "
                                     f"found `{rust_name(amount.ty)}`")
        wide = _widen(amount.value, amount.ty.elem, shape)
    else:
        scalar = vals.coerce(amount, I64, arg_loc(e, i), "a pointer offset") if not isinstance(amount.ty, Scalar) \
            else amount
        if not isinstance(scalar.ty, Scalar) or not scalar.ty.is_int:
            raise err(arg_loc(e, i), f"a pointer offset is an integer, found `{rust_name(amount.ty)}`")
        scalar = vals.convert(scalar, I64, arg_loc(e, i)) if scalar.ty != I64 else scalar
        wide = tile.SplatOp.build(scalar.value, results=[tile.tile_type(shape, I64.mlir())])
    return _pointer_tile(pt.parts[0], arith.addi(pt.parts[1].value, wide), shape)


def _widen(value: ir.Value, elem: Scalar, shape: list[int]) -> ir.Value:
    if elem == I64 or elem.name == "u64":
        return value
    target = tile.tile_type(shape, I64.mlir())
    return arith.extsi(target, value) if elem.signed else arith.extui(target, value)


@function("broadcast_ptr", "reshape_ptr", "addptr", "addptr_tile")
def _pointer_fn(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 2, name, f"{name}(pointer_tile, ..)")
    _check_pointer_tile(e, args[0], 0)
    if name in ("broadcast_ptr", "reshape_ptr"):
        shape = em.shape_arg(args[1], arg_loc(e, 1))
        return (_broadcast_pointer if name == "broadcast_ptr" else _reshape_pointer)(em, e, args[0], shape)
    return _offset_pointer(em, e, args[0], args[1], 1)


def _wrap_method(name: str, on_pointer: Any) -> None:
    """`pt.<name>(..)` on a pointer tile; any other receiver keeps the existing method (tiles, scalars)."""
    def extend(fallback: Any) -> Any:
        def handler(em: TileEmitter, e: Any, recv: V, args: list[V], expected: Any, method_name: str) -> V:
            if isinstance(recv.ty, PointerTileT):
                check_arity(e, args, 1, method_name, f"pointer_tile.{method_name}(..)")
                return on_pointer(em, e, recv, args[0])
            if fallback is None:
                raise err(e.loc, f"no method `{method_name}` on `{rust_name(recv.ty)}` in tile kernels")
            return fallback(em, e, recv, args, expected, method_name)
        return handler

    extend_method(name, extend)


_wrap_method("broadcast", lambda em, e, pt, a: _broadcast_pointer(em, e, pt, em.shape_arg(a, arg_loc(e, 1))))
_wrap_method("reshape", lambda em, e, pt, a: _reshape_pointer(em, e, pt, em.shape_arg(a, arg_loc(e, 1))))
_wrap_method("offset", lambda em, e, pt, a: _offset_pointer(em, e, pt, a, 1))
_wrap_method("offset_tile", lambda em, e, pt, a: _offset_pointer(em, e, pt, a, 1))


@function("new_token_unordered")
def _new_token(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 0, name, "new_token_unordered()")
    return V(TokenT())


def _marker(e: Any, v: V, i: int, module: str, allowed: dict[str, str] | tuple[str, ...], what: str) -> str:
    text = v.const if isinstance(v.ty, MarkerT) and isinstance(v.const, str) else ""
    module_name, _, leaf = text.rpartition("::")
    if not module_name.endswith(module):
        raise err(arg_loc(e, i), f"argument {i + 1} of `atomic_rmw_tko` is {what} (`{module}::..`)")
    if leaf not in allowed:
        raise err(arg_loc(e, i), f"`{text}` is not supported: oxide's tile atomics are relaxed and device-scoped "
                                 f"(use {', '.join(f'`{module}::{a}`' for a in allowed)})")
    return leaf


@function("atomic_rmw_tko")
def _atomic_rmw(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 7, name, "atomic_rmw_tko(ptrs, values, atomic::Add, ordering::Relaxed, scope::Device, "
                                  "mask, token)")
    ptrs, values = args[0], args[1]
    pt = _check_pointer_tile(e, ptrs, 0)
    kind = _KINDS[_marker(e, args[2], 2, "atomic", _KINDS, "the operation")]
    _marker(e, args[3], 3, "ordering", _ORDERINGS, "the memory ordering")
    _marker(e, args[4], 4, "scope", _SCOPES, "the scope")
    vt = tile_arg(e, values, 1, "the values")
    if vt.elem != pt.elem or list(vt.shape) != list(pt.shape):
        raise err(arg_loc(e, 1), f"the values of an atomic through `{rust_name(pt)}` are a "
                                 f"`{rust_name(TileT(pt.elem, pt.shape))}`, found `{rust_name(vt)}`")
    mask = args[5]
    if not (isinstance(mask.ty, TileT) and mask.ty.elem == BOOL and list(mask.ty.shape) == list(pt.shape)):
        raise err(arg_loc(e, 5), f"the mask is a `{rust_name(TileT(BOOL, pt.shape))}` (which elements take "
                                 f"part), found `{rust_name(mask.ty)}`")
    if not isinstance(args[6].ty, TokenT):
        raise err(arg_loc(e, 6), f"the last argument is a token (`new_token_unordered()`), found "
                                 f"`{rust_name(args[6].ty)}`")
    old = tile.AtomicRmwOp.build(ptrs.parts[0].value, ptrs.parts[1].value, values.value, mask.value, kind=kind,
                                 results=[vt.mlir()])
    return V(TupleT((vt, TokenT())), None, None, [V(vt, old), V(TokenT())])
