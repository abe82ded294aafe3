"""cutile-rs tile creation and shape operations: constant, broadcast, splat, iota, scalar<->tile, reshape,
permute/transpose, cat, extract.
"""

from __future__ import annotations

import math as pymath
from typing import Any

from mlir import ir

from oxide.dialects import tile
from oxide.frontends.syntax.errors import err
from oxide.frontends.tile import values as vals
from oxide.frontends.tile.ops import (
    arg_loc, check_arity, check_shape, const_int_arg, index_args, index_value, literal_elem, named_elem, tile_arg,
)
from oxide.frontends.tile.registry import TileEmitter, function, method
from oxide.frontends.tile.types import (
    I32, Flex, Scalar, TileT, V, rust_name,
)
from oxide.frontends.tile.values import coerce


# Creation ------------------------------------------------------------------------------------------------
def _splat(e: Any, v: V, shape: list[int], expected: Any, i: int) -> V:
    if not isinstance(v.ty, (Scalar, Flex)):
        raise err(arg_loc(e, i), f"expected a scalar, found `{rust_name(v.ty)}`")
    check_shape(e, shape, i + 1)
    elem = literal_elem(v, expected)
    ty = TileT(elem, tuple(shape))
    v = coerce(v, elem, arg_loc(e, i))
    if v.const is not None and v.origin is None:
        return vals.tile_const(v.const, ty)
    return V(ty, tile.SplatOp.build(v.value, results=[ty.mlir()]), origin=v.origin)


@function("constant", "broadcast_scalar", "full")
def _constant(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 2, name, f"{name}(value, const_shape![..])")
    return _splat(e, args[0], em.shape_arg(args[1], arg_loc(e, 1)), expected, 0)


@function("scalar_to_tile")
def _scalar_to_tile(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 1, name, "scalar_to_tile(x)")
    return _splat(e, args[0], [], expected, 0)


@function("tile_to_scalar")
def _tile_to_scalar(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 1, name, "tile_to_scalar(t)")
    ty = tile_arg(e, args[0], 0, "the argument")
    if pymath.prod(ty.shape) != 1:
        raise err(arg_loc(e, 0), f"`tile_to_scalar` needs a single-element tile, found shape {list(ty.shape)}")
    return V(ty.elem, tile.ToScalarOp.build(args[0].value, results=[ty.elem.mlir()]))


@method("broadcast")
def _broadcast_method(em: TileEmitter, e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 1, name, "x.broadcast(const_shape![..])")
    return _broadcast(em, e, recv, em.shape_arg(args[0], arg_loc(e, 1)), expected)


@function("broadcast")
def _broadcast_fn(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 2, name, "broadcast(x, const_shape![..])")
    return _broadcast(em, e, args[0], em.shape_arg(args[1], arg_loc(e, 1)), expected)


def check_broadcast(e: Any, what: str, src: list[int], shape: list[int]) -> None:
    """Numpy's rule: shapes align at the right, each source dimension 1 or equal; a located error otherwise."""
    if len(src) > len(shape) or any(s not in (1, d) for s, d in zip(reversed(src), reversed(shape))):
        raise err(e.loc, f"cannot broadcast {what} of shape {src} to {shape}: dimensions align at the right and each "
                         f"must be 1 or equal (reshape first, e.g. `t.reshape(const_shape![{src[0]}, 1])`)")


def _broadcast(em: TileEmitter, e: Any, v: V, shape: list[int], expected: Any) -> V:
    if not isinstance(v.ty, TileT):
        return _splat(e, v, shape, expected, 0)
    check_shape(e, shape, 1)
    src = list(v.ty.shape)
    if src == shape:
        return v
    check_broadcast(e, "a tile", src, shape)
    ty = TileT(v.ty.elem, tuple(shape))
    return V(ty, tile.BroadcastOp.build(v.value, results=[ty.mlir()]))


@function("iota")
def _iota(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 1, name, "iota(const_shape![N])")
    shape = em.shape_arg(args[0], arg_loc(e, 0))
    if len(shape) != 1:
        raise err(arg_loc(e, 0), f"`iota` makes a rank-1 tile, the shape {shape} has rank {len(shape)}")
    check_shape(e, shape, 0)
    elem = named_elem(em, e, expected) or I32
    if not elem.is_int:
        raise err(e.loc, f"`iota` makes an integer tile, not a tile of `{elem.rust()}`")
    ty = TileT(elem, tuple(shape))
    return V(ty, tile.IotaOp.build(results=[ty.mlir()]))


# Shape ops -----------------------------------------------------------------------------------------------
@function("reshape")
def _reshape_fn(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 2, name, "reshape(t, const_shape![..])")
    return _reshape(em, e, args[0], args[1])


@method("reshape")
def _reshape_method(em: TileEmitter, e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 1, name, "t.reshape(const_shape![..])")
    return _reshape(em, e, recv, args[0])


def _reshape(em: TileEmitter, e: Any, v: V, shape_v: V) -> V:
    ty = tile_arg(e, v, 0, "the reshaped value")
    shape = em.shape_arg(shape_v, arg_loc(e, 1))
    check_shape(e, shape, 1)
    if pymath.prod(shape) != pymath.prod(ty.shape):
        raise err(arg_loc(e, 1), f"cannot reshape {list(ty.shape)} ({pymath.prod(ty.shape)} elements) to {shape} "
                                 f"({pymath.prod(shape)} elements)")
    if list(ty.shape) == shape:
        return v
    out = TileT(ty.elem, tuple(shape))
    return V(out, tile.ReshapeOp.build(v.value, results=[out.mlir()]))


@function("permute")
def _permute_fn(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 2, name, "permute(t, const_array![1, 0])")
    return _permute(e, args[0], em.shape_arg(args[1], arg_loc(e, 1)))


@method("transpose")
def _transpose(em: TileEmitter, e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 0, name, "t.transpose()")
    ty = tile_arg(e, recv, 0, "the transposed value")
    if len(ty.shape) != 2:
        raise err(e.loc, f"`transpose` is for rank-2 tiles; use `permute` for shape {list(ty.shape)}")
    return _permute(e, recv, [1, 0])


def _permute(e: Any, v: V, perm: list[int]) -> V:
    ty = tile_arg(e, v, 0, "the permuted value")
    if sorted(perm) != list(range(len(ty.shape))):
        raise err(arg_loc(e, 1), f"{perm} is not a permutation of the {len(ty.shape)} dimensions")
    out = TileT(ty.elem, tuple(ty.shape[p] for p in perm))
    return V(out, tile.PermuteOp.build(v.value, perm=ir.DenseI64ArrayAttr.get(perm), results=[out.mlir()]))


@function("cat")
def _cat(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 3, name, "cat(a, b, dim)")
    a, b = tile_arg(e, args[0], 0, "cat's first operand"), tile_arg(e, args[1], 1, "cat's second operand")
    dim = const_int_arg(e, args[2], 2, "the dimension")
    if a.elem != b.elem or len(a.shape) != len(b.shape) or not 0 <= dim < len(a.shape) or any(
            x != y for i, (x, y) in enumerate(zip(a.shape, b.shape)) if i != dim):
        raise err(e.loc, f"cannot join `{a.rust()}` and `{b.rust()}` along dimension {dim}")
    shape = list(a.shape)
    shape[dim] += b.shape[dim]
    check_shape(e, shape, 0)
    out = TileT(a.elem, tuple(shape))
    return V(out, tile.CatOp.build(args[0].value, args[1].value, dim=dim, results=[out.mlir()]))


@function("extract")
def _extract(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 2, name, "extract(t, [i, j])")
    ty = tile_arg(e, args[0], 0, "the source")
    if not isinstance(expected, TileT):
        raise err(e.loc, "`extract` takes its result shape from the type: "
                         "`let s: Tile<E, {[..]}> = extract(t, [i, j]);`")
    if len(expected.shape) != len(ty.shape) or any(s % d for s, d in zip(ty.shape, expected.shape)):
        raise err(e.loc, f"a {list(expected.shape)} sub-tile must have the rank of {list(ty.shape)} and divide it")
    indices = index_args(e, args[1], 1, len(ty.shape))
    for d, (v, s, n) in enumerate(zip(indices, ty.shape, expected.shape)):
        if v.const is not None and not 0 <= v.const < s // n:
            raise err(arg_loc(e, 1), f"sub-tile index {v.const} along dimension {d} is outside 0..{s // n}")
    out = TileT(ty.elem, expected.shape)
    return V(out, tile.ExtractOp.build(args[0].value, [index_value(e, v, 1) for v in indices], results=[out.mlir()]))
