"""The cutile-rs operation catalogue: what each free function (`reduce_sum(t, 1)`) and method
(`x.partition(..)`, `p.load([i, j])`, `z.store(t)`) of `cutile::core` emits, with its type checks.

Each entry is registered by name with `@function(...)` or `@method(...)`; a method call with no method of
that name falls back to the function of that name with the receiver first (`t.exp()` is `exp(t)`). Marker
arguments (`rounding::*`, `ftz::*`, `nan::*`, `overflow::*`) are accepted and dropped where they do not
change oxide's semantics.
"""

from __future__ import annotations

import math as pymath
from typing import TYPE_CHECKING, Any, Callable

from mlir import ir
from mlir.dialects import arith, math

from oxide.dialects import tile
from oxide.frontends.rust import ast
from oxide.frontends.rust.emit_support import err
from oxide.frontends.tile import values as vals
from oxide.frontends.tile.types import (
    BOOL, I32, UNIT_V, ArrayT, ClosureT, DimsT, Flex, MarkerT, PartitionT, Scalar, ShapeT, TileT, TupleT, V, ViewT,
    rust_name,
)
from oxide.frontends.tile.values import coerce, concrete, scalar_const

if TYPE_CHECKING:
    from oxide.frontends.tile.emit import Emitter

OpFn = Callable[..., V]
FUNCTIONS: dict[str, OpFn] = {}
METHODS: dict[str, OpFn] = {}


def function(*names: str) -> Callable[[OpFn], OpFn]:
    """Register `fn(em, e, args, expected, name)` as the free function(s) `names`."""
    def register(fn: OpFn) -> OpFn:
        for name in names:
            FUNCTIONS[name] = fn
        return fn
    return register


def method(*names: str) -> Callable[[OpFn], OpFn]:
    """Register `fn(em, e, recv, args, expected, name)` as the method(s) `names`."""
    def register(fn: OpFn) -> OpFn:
        for name in names:
            METHODS[name] = fn
        return fn
    return register


def call(em: "Emitter", e: ast.Call, expected: Any) -> V:
    """A call: a helper function of the module (inlined), else a cutile-rs function."""
    if not isinstance(e.func, ast.PathExpr):
        raise err(e.loc, "tile kernels call functions by name")
    name = e.func.segments[-1]
    helper = em.crate.function(name) if len(e.func.segments) == 1 or e.func.segments[0] in ("self", "super") else None
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


def dispatch_method(em: "Emitter", e: ast.MethodCall, expected: Any) -> V:
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


def _loc(e: Any, i: int) -> Any:
    args = _args(e)
    return args[i].loc if i < len(args) else e.loc


def _plain(args: list[V]) -> list[V]:
    """The arguments without marker types (rounding::*, ftz::*, ...)."""
    return [a for a in args if not isinstance(a.ty, MarkerT)]


def _arity(e: Any, args: list[V], n: int, name: str, usage: str) -> None:
    if len(args) != n:
        raise err(e.loc, f"`{name}` takes {n} argument(s): `{usage}`")


def _tile(e: Any, v: V, i: int, what: str) -> TileT:
    if not isinstance(v.ty, TileT):
        raise err(_loc(e, i), f"{what} must be a tile, found `{rust_name(v.ty)}`")
    return v.ty


def _const_int(e: Any, v: V, i: int, what: str) -> int:
    if isinstance(v.const, bool) or not isinstance(v.const, int):
        raise err(_loc(e, i), f"{what} must be a compile-time integer")
    return v.const


def _i32(e: Any, v: V, i: int) -> ir.Value:
    v = coerce(v, I32, _loc(e, i), "a tile index") if isinstance(v.ty, Flex) else v
    if v.ty != I32:
        if isinstance(v.ty, Scalar) and v.ty.is_int:
            return vals.convert(v, I32, _loc(e, i)).value
        raise err(_loc(e, i), f"a tile index is an integer, found `{rust_name(v.ty)}`")
    return v.value


def _indices(e: Any, v: V, i: int, rank: int) -> list[V]:
    if not isinstance(v.ty, (ArrayT, TupleT, ShapeT)):
        raise err(_loc(e, i), f"tile indices are written `[i, j]`, found `{rust_name(v.ty)}`")
    parts = [scalar_const(d, I32) for d in v.shape] if isinstance(v.ty, ShapeT) else v.parts
    if len(parts) != rank:
        raise err(_loc(e, i), f"a rank-{rank} partition takes {rank} tile indices, got {len(parts)}")
    return parts


def _check_shape(e: Any, shape: list[int], i: int) -> None:
    if not 0 <= len(shape) <= tile.types.MAX_TILE_RANK:
        raise err(_loc(e, i), f"tiles have rank 0 to {tile.types.MAX_TILE_RANK}, this shape has {len(shape)}")
    for d in shape:
        if d <= 0 or d & (d - 1):
            raise err(_loc(e, i), f"tile shape {shape}: every tile dimension must be a power of two")


# Block ids and extents ------------------------------------------------------------------------------------
@function("get_tile_block_id", "get_num_tile_blocks")
def _block_ids(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 0, name, f"{name}()")
    op = tile.BlockIdOp if name == "get_tile_block_id" else tile.NumBlocksOp
    parts = [V(I32, op.build(axis=axis)) for axis in ("x", "y", "z")]
    return V(TupleT((I32, I32, I32)), None, None, parts)


@function("num_tiles")
def _num_tiles(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 2, name, "num_tiles(&partition, axis)")
    p = args[0]
    if not isinstance(p.ty, PartitionT):
        raise err(_loc(e, 0), f"`num_tiles` counts the tiles of a partition, found `{rust_name(p.ty)}`")
    axis = _const_int(e, args[1], 1, "the axis")
    if not 0 <= axis < len(p.ty.shape):
        raise err(_loc(e, 1), f"axis {axis} is out of range for a rank-{len(p.ty.shape)} partition")
    if p.ty.grid is not None:
        return scalar_const(p.ty.grid[axis], I32)
    return V(I32, tile.NumTilesOp.build(p.value, axis=axis))


def tensor_dim(view: V, axis: int) -> V:
    """`x.shape()[axis]` of an input with dynamic dimensions (a static one folds to a constant)."""
    size = view.ty.shape[axis]
    if size >= 0:
        return scalar_const(size, I32)
    return V(I32, tile.DimOp.build(view.value, axis=axis))


@method("shape")
def _shape(em: "Emitter", e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 0, name, "x.shape()")
    if isinstance(recv.ty, ViewT) and all(d >= 0 for d in recv.ty.shape):
        # An output's shape is its tile shape S; a fully static input's is known too: both are compile-time.
        return V(ShapeT(), shape=list(recv.ty.shape))
    if isinstance(recv.ty, ViewT):
        return V(DimsT(), view=recv)
    if isinstance(recv.ty, TileT):
        return V(ShapeT(), shape=list(recv.ty.shape))
    raise err(e.loc, f"`{rust_name(recv.ty)}` has no shape")


# Partitions, loads and stores ------------------------------------------------------------------------------
def _read_only(loc: Any) -> Any:
    return err(loc, "inputs are read-only: a `&Tensor` cannot be stored to; make it a `&mut Tensor` output")


@method("partition")
def _partition(em: "Emitter", e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 1, name, "x.partition(const_shape![..])")
    if not isinstance(recv.ty, ViewT):
        raise err(e.loc, f"`partition` views a `&Tensor` as tiles, found `{rust_name(recv.ty)}`")
    if recv.ty.mutable:
        raise err(e.loc, "an output tile is split with `partition_mut(shape)` (or read whole with `load()`)")
    return _make_partition(e, recv, em.shape_arg(args[0], _loc(e, 1)), 1)


def _make_partition(e: Any, view: V, shape: list[int], i: int) -> V:
    if len(shape) != len(view.ty.shape):
        raise err(_loc(e, i), f"a rank-{len(view.ty.shape)} tensor needs a rank-{len(view.ty.shape)} tile shape, "
                              f"got {shape}")
    _check_shape(e, shape, i)
    ty = PartitionT(view.ty.elem, tuple(shape), False)
    return V(ty, tile.PartitionOp.build(view.value, results=[ty.mlir()]))


@method("partition_mut")
def _partition_mut(em: "Emitter", e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 1, name, "z.partition_mut(const_shape![..])")
    if not isinstance(recv.ty, ViewT):
        raise err(e.loc, f"`partition_mut` splits a `&mut Tensor` output, found `{rust_name(recv.ty)}`")
    if not recv.ty.mutable:
        raise _read_only(e.loc)
    shape = em.shape_arg(args[0], _loc(e, 1))
    own = list(recv.ty.shape)
    if len(shape) != len(own) or any(o % s for o, s in zip(own, shape)):
        raise err(_loc(e, 1), f"`partition_mut({shape})` must split the block's own tile {own} evenly (same rank, "
                              f"each dimension a divisor)")
    _check_shape(e, shape, 1)
    ty = PartitionT(recv.ty.elem, tuple(shape), True, tuple(o // s for o, s in zip(own, shape)))
    return V(ty, tile.PartitionMutOp.build(recv.value, results=[ty.mlir()]))


@method("load", "load_pipelined")
def _load(em: "Emitter", e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    if isinstance(recv.ty, ViewT):
        if not recv.ty.mutable:
            raise err(e.loc, "an input is read through a partition: `x.partition(shape).load([i, j])`, "
                             "`x.load_tile(shape, [i, j])` or `load_tile_like_2d(x, out)`")
        _arity(e, args, 0, name, "z.load()")
        return _load_own(recv)
    if not isinstance(recv.ty, PartitionT):
        raise err(e.loc, f"no method `load` on `{rust_name(recv.ty)}`")
    if recv.ty.mutable:
        raise err(e.loc, "loading through a `partition_mut` is unordered with its stores (unsafe in cutile-rs) and "
                         "not supported; read the whole output tile with `z.load()`")
    _arity(e, args, 1, name, "p.load([i, j])")
    return _partition_load(e, recv, _indices(e, args[0], 1, len(recv.ty.shape)), 1)


def _partition_load(e: Any, p: V, indices: list[V], i: int) -> V:
    ty = TileT(p.ty.elem, p.ty.shape)
    return V(ty, tile.LoadOp.build(p.value, [_i32(e, v, i) for v in indices], results=[ty.mlir()]))


def _load_own(view: V) -> V:
    ty = TileT(view.ty.elem, view.ty.shape)
    return V(ty, tile.LoadOwnOp.build(view.value, results=[ty.mlir()]))


@function("load_tile_mut")
def _load_tile_mut(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 1, name, "load_tile_mut(z)")
    if not (isinstance(args[0].ty, ViewT) and args[0].ty.mutable):
        raise err(_loc(e, 0), f"`load_tile_mut` reads a `&mut Tensor` output tile, found `{rust_name(args[0].ty)}`")
    return _load_own(args[0])


@function("load_tile_like", "load_tile_like_1d", "load_tile_like_2d", "load_tile_like_3d")
def _load_tile_like(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 2, name, f"{name}(x, out)")
    x, z = args
    if not (isinstance(x.ty, ViewT) and not x.ty.mutable):
        raise err(_loc(e, 0), f"`{name}` loads from an input `&Tensor`, found `{rust_name(x.ty)}`")
    if not (isinstance(z.ty, ViewT) and z.ty.mutable):
        raise err(_loc(e, 1), f"`{name}` takes its tile shape from a `&mut Tensor` output, found `{rust_name(z.ty)}`")
    rank = len(z.ty.shape)
    if name[-2:] in ("1d", "2d", "3d") and int(name[-2]) != rank:
        raise err(e.loc, f"`{name}` is for rank-{name[-2]} tensors; the output has rank {rank}")
    if len(x.ty.shape) != rank:
        raise err(e.loc, f"`{name}`: the input has rank {len(x.ty.shape)}, the output rank {rank}")
    p = _make_partition(e, x, list(z.ty.shape), 0)
    ids = [V(I32, tile.BlockIdOp.build(axis=axis)) for axis in ("x", "y", "z")[:rank]]
    return _partition_load(e, p, ids, 0)


@method("load_tile")
def _load_tile(em: "Emitter", e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 2, name, "x.load_tile(const_shape![..], [i, j])")
    if not (isinstance(recv.ty, ViewT) and not recv.ty.mutable):
        raise err(e.loc, f"`load_tile` reads an input `&Tensor`, found `{rust_name(recv.ty)}`")
    p = _make_partition(e, recv, em.shape_arg(args[0], _loc(e, 1)), 1)
    return _partition_load(e, p, _indices(e, args[1], 2, len(recv.ty.shape)), 2)


@method("store")
def _store(em: "Emitter", e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    if isinstance(recv.ty, ViewT) and not recv.ty.mutable or isinstance(recv.ty, PartitionT) and not recv.ty.mutable:
        raise _read_only(e.loc)
    if isinstance(recv.ty, ViewT):
        if len(args) != 1:
            raise err(e.loc, "`z.store(tile)` writes this block's own output tile and takes no index: a block can "
                             "write only its own tile")
        _stored_tile(e, args[0], recv.ty, 1)
        tile.StoreOwnOp(recv.value, args[0].value)
        return UNIT_V
    if not isinstance(recv.ty, PartitionT):
        raise err(e.loc, f"no method `store` on `{rust_name(recv.ty)}`")
    _arity(e, args, 2, name, "p.store(tile, [i, j])")
    _stored_tile(e, args[0], recv.ty, 1)
    indices = _indices(e, args[1], 2, len(recv.ty.shape))
    for d, (v, n) in enumerate(zip(indices, recv.ty.grid)):
        if v.const is not None and not 0 <= v.const < n:
            raise err(_loc(e, 2), f"this store writes tile index {v.const} along dimension {d}, outside this block's "
                                  f"own tile (a `partition_mut` of {list(recv.ty.grid)} tiles): a block writes only "
                                  f"its own tile; use an index in 0..{n}")
    tile.StoreOp(recv.value, args[0].value, [_i32(e, v, 2) for v in indices])
    return UNIT_V


def _stored_tile(e: Any, v: V, holder: Any, i: int) -> None:
    ty = _tile(e, v, i, "the stored value")
    vals.retype_tile(v, TileT(holder.elem, holder.shape))
    if list(ty.shape) != list(holder.shape) or ty.elem != holder.elem:
        raise err(_loc(e, i), f"this stores a `{ty.rust()}` where the tile is `Tile<{holder.elem.rust()}, "
                              f"{{{list(holder.shape)}}}>`; reshape/convert it to that shape and element type")


# Creation ------------------------------------------------------------------------------------------------
def _elem_for(v: V, expected: Any) -> Scalar:
    if isinstance(v.ty, Flex):
        hint = expected.elem if isinstance(expected, TileT) else expected if isinstance(expected, Scalar) else None
        return hint if hint is not None and (hint.is_float or v.ty.kind == "int") else v.ty.default()
    if isinstance(v.ty, Scalar):
        return v.ty
    raise err(None, "expected a scalar")


def _splat(e: Any, v: V, shape: list[int], expected: Any, i: int) -> V:
    if not isinstance(v.ty, (Scalar, Flex)):
        raise err(_loc(e, i), f"expected a scalar, found `{rust_name(v.ty)}`")
    _check_shape(e, shape, i + 1)
    elem = _elem_for(v, expected)
    ty = TileT(elem, tuple(shape))
    v = coerce(v, elem, _loc(e, i))
    if v.const is not None and v.origin is None:
        return vals.tile_const(v.const, ty)
    return V(ty, tile.SplatOp.build(v.value, results=[ty.mlir()]), origin=v.origin)


@function("constant", "broadcast_scalar", "full")
def _constant(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 2, name, f"{name}(value, const_shape![..])")
    return _splat(e, args[0], em.shape_arg(args[1], _loc(e, 1)), expected, 0)


@function("scalar_to_tile")
def _scalar_to_tile(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 1, name, "scalar_to_tile(x)")
    return _splat(e, args[0], [], expected, 0)


@function("tile_to_scalar")
def _tile_to_scalar(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 1, name, "tile_to_scalar(t)")
    ty = _tile(e, args[0], 0, "the argument")
    if pymath.prod(ty.shape) != 1:
        raise err(_loc(e, 0), f"`tile_to_scalar` needs a single-element tile, found shape {list(ty.shape)}")
    return V(ty.elem, tile.ToScalarOp.build(args[0].value, results=[ty.elem.mlir()]))


@method("broadcast")
def _broadcast_method(em: "Emitter", e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 1, name, "x.broadcast(const_shape![..])")
    return _broadcast(em, e, recv, em.shape_arg(args[0], _loc(e, 1)), expected)


@function("broadcast")
def _broadcast_fn(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 2, name, "broadcast(x, const_shape![..])")
    return _broadcast(em, e, args[0], em.shape_arg(args[1], _loc(e, 1)), expected)


def _broadcast(em: "Emitter", e: Any, v: V, shape: list[int], expected: Any) -> V:
    if not isinstance(v.ty, TileT):
        return _splat(e, v, shape, expected, 0)
    _check_shape(e, shape, 1)
    src = list(v.ty.shape)
    if src == shape:
        return v
    if len(src) > len(shape) or any(s not in (1, d) for s, d in zip(reversed(src), reversed(shape))):
        raise err(e.loc, f"cannot broadcast a tile of shape {src} to {shape}: dimensions align at the right and each "
                         f"must be 1 or equal (reshape first, e.g. `t.reshape(const_shape![{src[0]}, 1])`)")
    ty = TileT(v.ty.elem, tuple(shape))
    return V(ty, tile.BroadcastOp.build(v.value, results=[ty.mlir()]))


@function("iota")
def _iota(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 1, name, "iota(const_shape![N])")
    shape = em.shape_arg(args[0], _loc(e, 0))
    if len(shape) != 1:
        raise err(_loc(e, 0), f"`iota` makes a rank-1 tile, the shape {shape} has rank {len(shape)}")
    _check_shape(e, shape, 0)
    elem = _generic_elem(em, e, expected) or I32
    if not elem.is_int:
        raise err(e.loc, f"`iota` makes an integer tile, not a tile of `{elem.rust()}`")
    ty = TileT(elem, tuple(shape))
    return V(ty, tile.IotaOp.build(results=[ty.mlir()]))


def _generic_elem(em: "Emitter", e: Any, expected: Any) -> Scalar | None:
    """The element type a turbofish (`f::<f32>`) or the expected tile type names, if any."""
    generics = e.func.generics if isinstance(e, ast.Call) else e.generics
    if generics:
        return em.scalar_type(generics[0])
    if isinstance(expected, TileT):
        return expected.elem
    if isinstance(expected, Scalar):
        return expected
    return None


# Shape ops -----------------------------------------------------------------------------------------------
@function("reshape")
def _reshape_fn(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 2, name, "reshape(t, const_shape![..])")
    return _reshape(em, e, args[0], args[1])


@method("reshape")
def _reshape_method(em: "Emitter", e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 1, name, "t.reshape(const_shape![..])")
    return _reshape(em, e, recv, args[0])


def _reshape(em: "Emitter", e: Any, v: V, shape_v: V) -> V:
    ty = _tile(e, v, 0, "the reshaped value")
    shape = em.shape_arg(shape_v, _loc(e, 1))
    _check_shape(e, shape, 1)
    if pymath.prod(shape) != pymath.prod(ty.shape):
        raise err(_loc(e, 1), f"cannot reshape {list(ty.shape)} ({pymath.prod(ty.shape)} elements) to {shape} "
                              f"({pymath.prod(shape)} elements)")
    if list(ty.shape) == shape:
        return v
    out = TileT(ty.elem, tuple(shape))
    return V(out, tile.ReshapeOp.build(v.value, results=[out.mlir()]))


@function("permute")
def _permute_fn(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 2, name, "permute(t, const_array![1, 0])")
    return _permute(e, args[0], em.shape_arg(args[1], _loc(e, 1)))


@method("transpose")
def _transpose(em: "Emitter", e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 0, name, "t.transpose()")
    ty = _tile(e, recv, 0, "the transposed value")
    if len(ty.shape) != 2:
        raise err(e.loc, f"`transpose` is for rank-2 tiles; use `permute` for shape {list(ty.shape)}")
    return _permute(e, recv, [1, 0])


def _permute(e: Any, v: V, perm: list[int]) -> V:
    ty = _tile(e, v, 0, "the permuted value")
    if sorted(perm) != list(range(len(ty.shape))):
        raise err(_loc(e, 1), f"{perm} is not a permutation of the {len(ty.shape)} dimensions")
    out = TileT(ty.elem, tuple(ty.shape[p] for p in perm))
    return V(out, tile.PermuteOp.build(v.value, perm=ir.DenseI64ArrayAttr.get(perm), results=[out.mlir()]))


@function("cat")
def _cat(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 3, name, "cat(a, b, dim)")
    a, b = _tile(e, args[0], 0, "cat's first operand"), _tile(e, args[1], 1, "cat's second operand")
    dim = _const_int(e, args[2], 2, "the dimension")
    if a.elem != b.elem or len(a.shape) != len(b.shape) or not 0 <= dim < len(a.shape) or any(
            x != y for i, (x, y) in enumerate(zip(a.shape, b.shape)) if i != dim):
        raise err(e.loc, f"cannot join `{a.rust()}` and `{b.rust()}` along dimension {dim}")
    shape = list(a.shape)
    shape[dim] += b.shape[dim]
    _check_shape(e, shape, 0)
    out = TileT(a.elem, tuple(shape))
    return V(out, tile.CatOp.build(args[0].value, args[1].value, dim=dim, results=[out.mlir()]))


@function("extract")
def _extract(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 2, name, "extract(t, [i, j])")
    ty = _tile(e, args[0], 0, "the source")
    if not isinstance(expected, TileT):
        raise err(e.loc, "`extract` takes its result shape from the type: "
                         "`let s: Tile<E, {[..]}> = extract(t, [i, j]);`")
    if len(expected.shape) != len(ty.shape) or any(s % d for s, d in zip(ty.shape, expected.shape)):
        raise err(e.loc, f"a {list(expected.shape)} sub-tile must have the rank of {list(ty.shape)} and divide it")
    indices = _indices(e, args[1], 1, len(ty.shape))
    for d, (v, s, n) in enumerate(zip(indices, ty.shape, expected.shape)):
        if v.const is not None and not 0 <= v.const < s // n:
            raise err(_loc(e, 1), f"sub-tile index {v.const} along dimension {d} is outside 0..{s // n}")
    out = TileT(ty.elem, expected.shape)
    return V(out, tile.ExtractOp.build(args[0].value, [_i32(e, v, 1) for v in indices], results=[out.mlir()]))


# Elementwise ---------------------------------------------------------------------------------------------
_BINARY_FORMS = {"addf": "+", "addi": "+", "subf": "-", "subi": "-", "mulf": "*", "muli": "*", "divf": "/",
                 "divi": "/", "true_div": "/", "remf": "%", "remi": "%", "andi": "&", "ori": "|", "xori": "^",
                 "shli": "<<", "shri": ">>"}


@function(*_BINARY_FORMS)
def _binary_form(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    args = _plain(args)
    _arity(e, args, 2, name, f"{name}(a, b)")
    a, b = args
    if isinstance(a.ty, Flex) and isinstance(b.ty, Flex):
        a = coerce(a, _elem_for(a, expected), e.loc)
    out = em.binary(_BINARY_FORMS[name], a, b, e.loc)
    elem = vals.elem_kind(out.ty)
    if elem is not None and name.endswith("f") and name != "true_div" and not elem.is_float \
            or name == "true_div" and elem is not None and not elem.is_float:
        raise err(e.loc, f"`{name}` is for float tiles; found `{rust_name(out.ty)}`")
    return out


def _same(e: Any, args: list[V], name: str) -> tuple[Any, list[V]]:
    """Operands of one scalar or tile type (Flex literals take the others' type)."""
    concrete_ty = next((a.ty for a in args if not isinstance(a.ty, Flex)), None)
    if concrete_ty is None:
        args = [concrete(a) for a in args]
        concrete_ty = args[0].ty
    out = []
    for i, a in enumerate(args):
        if isinstance(a.ty, Flex) and isinstance(concrete_ty, Scalar):
            a = coerce(a, concrete_ty, _loc(e, i))
        if a.ty != concrete_ty:
            raise err(_loc(e, i), f"`{name}` takes operands of one type: `{rust_name(concrete_ty)}` and "
                                  f"`{rust_name(a.ty)}`" + (" (broadcast the scalar to a tile first)"
                                                            if isinstance(concrete_ty, TileT) else ""))
        out.append(a)
    if vals.elem_kind(concrete_ty) is None:
        raise err(e.loc, f"`{name}` takes scalars or tiles, found `{rust_name(concrete_ty)}`")
    return concrete_ty, out


@function("max_tile", "min_tile", "maxf", "minf", "maxi", "mini", "max", "min")
def _max_min(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    args = _plain(args)
    _arity(e, args, 2, name, f"{name}(a, b)")
    ty, (a, b) = _same(e, args, name)
    elem = vals.elem_kind(ty)
    is_max = name.startswith("max")
    if elem.is_float:
        fn = arith.maximumf if is_max else arith.minimumf
    elif elem.is_bool:
        raise err(e.loc, f"`{name}` of booleans")
    else:
        fn = {(True, True): arith.maxsi, (True, False): arith.maxui, (False, True): arith.minsi,
              (False, False): arith.minui}[(is_max, elem.signed)]
    if name in ("maxf", "minf") and not elem.is_float or name in ("maxi", "mini") and not elem.is_int:
        raise err(e.loc, f"`{name}` does not take `{rust_name(ty)}`")
    return V(ty, fn(a.value, b.value))


_UNARY_MATH = {"exp": math.exp, "exp2": math.exp2, "log": math.log, "log2": math.log2, "sqrt": math.sqrt,
               "rsqrt": math.rsqrt, "sin": math.sin, "cos": math.cos, "tan": math.tan, "sinh": math.sinh,
               "cosh": math.cosh, "tanh": math.tanh, "ceil": math.ceil, "floor": math.floor, "absf": math.absf}


@function(*_UNARY_MATH, "absi", "abs", "negf", "negi", "noti")
def _unary(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    args = _plain(args)
    _arity(e, args, 1, name, f"{name}(x)")
    ty, (x,) = _same(e, args, name)
    elem = vals.elem_kind(ty)
    if name in ("negf", "negi", "noti"):
        op = "!" if name == "noti" else "-"
        v = em.binary("-" if op == "-" else "^", *_unary_operands(x, elem, op), e.loc)
        return v
    if name == "abs":
        name = "absf" if elem.is_float else "absi"
    if name == "absi":
        if not elem.is_int:
            raise err(e.loc, f"`absi` is for integer tiles; found `{rust_name(ty)}`")
        return V(ty, math.absi(x.value))
    if not elem.is_float:
        raise err(e.loc, f"`{name}` is for float tiles; found `{rust_name(ty)}` (convert it with `convert_tile`)")
    return V(ty, _UNARY_MATH[name](x.value))


def _unary_operands(x: V, elem: Scalar, op: str) -> tuple[V, V]:
    """`-x` as `0 - x`, `!x` as `x ^ all-ones`, at x's type."""
    if op == "-":
        zero = vals.tile_const(0, x.ty) if isinstance(x.ty, TileT) else scalar_const(0, elem)
        return zero, x
    ones = vals.tile_const(1 if elem.is_bool else -1, x.ty) if isinstance(x.ty, TileT) \
        else scalar_const(True if elem.is_bool else -1, elem)
    return x, ones


@function("fma")
def _fma(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    args = _plain(args)
    _arity(e, args, 3, name, "fma(a, b, c)")
    ty, (a, b, c) = _same(e, args, name)
    if not vals.elem_kind(ty).is_float:
        raise err(e.loc, f"`fma` is for float tiles; found `{rust_name(ty)}`")
    return V(ty, math.fma(a.value, b.value, c.value))


@function("pow", "atan2")
def _pow(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    args = _plain(args)
    _arity(e, args, 2, name, f"{name}(a, b)")
    ty, (a, b) = _same(e, args, name)
    if not vals.elem_kind(ty).is_float:
        raise err(e.loc, f"`{name}` is for float tiles; found `{rust_name(ty)}`")
    return V(ty, (math.powf if name == "pow" else math.atan2)(a.value, b.value))


_COMPARE_FORMS = {"eq_tile": "==", "ne_tile": "!=", "gt_tile": ">", "ge_tile": ">=", "lt_tile": "<", "le_tile": "<="}


@function(*_COMPARE_FORMS)
def _compare(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    args = _plain(args)
    _arity(e, args, 2, name, f"{name}(a, b)")
    ty, (a, b) = _same(e, args, name)
    elem = vals.elem_kind(ty)
    value = vals.arith_binary(_COMPARE_FORMS[name], a.value, b.value, elem, e.loc, rust_name(ty))
    return V(TileT(BOOL, ty.shape) if isinstance(ty, TileT) else BOOL, value)


@function("select")
def _select(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 3, name, "select(cond, a, b)")
    ty, (a, b) = _same(e, args[1:], name)
    cond = args[0]
    want = TileT(BOOL, ty.shape) if isinstance(ty, TileT) else BOOL
    if cond.ty != want:
        raise err(_loc(e, 0), f"`select`'s condition must be `{rust_name(want)}` (the operands' shape, of bool), "
                              f"found `{rust_name(cond.ty)}`")
    return V(ty, arith.select(cond.value, a.value, b.value))


@function("ceil_div")
def _ceil_div(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 2, name, "ceil_div(a, b)")
    ty, (a, b) = _same(e, args, name)
    if not isinstance(ty, Scalar) or not ty.is_int:
        raise err(e.loc, "`ceil_div` takes two integers")
    one = scalar_const(1, ty)
    return em.binary("/", em.binary("-", em.binary("+", a, b, e.loc), one, e.loc), b, e.loc)


# Reductions, scans, mma ----------------------------------------------------------------------------------
@function("reduce_sum", "reduce_max", "reduce_min", "reduce_prod")
def _reduce(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    args = _plain(args)
    _arity(e, args, 2, name, f"{name}(t, dim)")
    ty = _tile(e, args[0], 0, "the reduced value")
    dim = _const_int(e, args[1], 1, "the dimension")
    if not 0 <= dim < len(ty.shape):
        raise err(_loc(e, 1), f"dimension {dim} is out of range for a rank-{len(ty.shape)} tile")
    if ty.elem.is_bool:
        raise err(_loc(e, 0), "cannot reduce a tile of booleans")
    out = TileT(ty.elem, ty.shape[:dim] + ty.shape[dim + 1:])
    kind = name.split("_")[1]
    unsigned = ty.elem.is_int and not ty.elem.signed
    return V(out, tile.ReduceOp.build(args[0].value, dim=dim, kind=kind, unsigned=unsigned, results=[out.mlir()]))


@function("reduce")
def _reduce_closure(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 4, name, "reduce(t, dim, identity, |a, b| a + b)")
    kind = _closure_kind(e, args[3], 3)
    _check_identity(e, args[2], 2, kind)
    return _reduce(em, e, args[:2], expected, f"reduce_{kind}")


@function("scan")
def _scan_closure(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 5, name, "scan(t, dim, reverse::Forward, identity, |a, b| a + b)")
    kind = _closure_kind(e, args[4], 4)
    return _scan(em, e, args[:4], expected, f"scan_{kind}")


_MAX_NAMES = ("max", "maxf", "maxi", "max_tile")
_MIN_NAMES = ("min", "minf", "mini", "min_tile")


def _closure_kind(e: Any, v: V, i: int) -> str:
    """Which reduction a combining closure is: `|a, b| a + b` (sum), `a * b` (prod), `max(a, b)` /
    `a.max(b)` (max), `min(..)` (min)."""
    hint = "the combining closure must be `|a, b| a + b`, `a * b`, `max(a, b)` or `min(a, b)` (or `a.max(b)`)"
    closure = v.const
    if not isinstance(v.ty, ClosureT) or len(closure.params) != 2 or not all(
            isinstance(p.pattern, ast.BindPat) for p in closure.params):
        raise err(_loc(e, i), hint)
    names = {p.pattern.name for p in closure.params}
    body = closure.body
    while isinstance(body, ast.Block) and not body.stmts and body.tail is not None:
        body = body.tail

    def is_params(*operands: Any) -> bool:
        found = [o.segments[0] for o in operands if isinstance(o, ast.PathExpr) and len(o.segments) == 1]
        return len(found) == 2 and set(found) == names

    if isinstance(body, ast.Binary) and body.op in ("+", "*") and is_params(body.lhs, body.rhs):
        return "sum" if body.op == "+" else "prod"
    if isinstance(body, ast.Call) and isinstance(body.func, ast.PathExpr) and len(body.args) == 2 \
            and is_params(*body.args):
        callee = body.func.segments[-1]
    elif isinstance(body, ast.MethodCall) and len(body.args) == 1 and is_params(body.receiver, body.args[0]):
        callee = body.name
    else:
        raise err(_loc(e, i), hint)
    if callee in _MAX_NAMES or callee in _MIN_NAMES:
        return "max" if callee in _MAX_NAMES else "min"
    raise err(_loc(e, i), hint)


def _check_identity(e: Any, identity: V, i: int, kind: str) -> None:
    """A sum/prod identity argument must be 0/1 (max/min identities are not checked: -inf, MIN, ...)."""
    expected_identity = {"sum": 0, "prod": 1}.get(kind)
    if identity.const is None or expected_identity is not None and identity.const != expected_identity:
        raise err(_loc(e, i), f"the identity of a `{kind}` combination is {expected_identity}: oxide's reductions "
                              f"and scans start from the identity")


@function("scan_sum", "scan_max", "scan_min", "scan_prod")
def _scan(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    if len(args) not in (2, 3, 4):
        raise err(e.loc, f"`{name}` takes `(t, dim, reverse::Forward|Reverse, identity)`")
    ty = _tile(e, args[0], 0, "the scanned value")
    dim = _const_int(e, args[1], 1, "the dimension")
    if not 0 <= dim < len(ty.shape):
        raise err(_loc(e, 1), f"dimension {dim} is out of range for a rank-{len(ty.shape)} tile")
    if ty.elem.is_bool:
        raise err(_loc(e, 0), "cannot scan a tile of booleans")
    reverse = False
    if len(args) >= 3:
        marker = args[2]
        if not isinstance(marker.ty, MarkerT) or marker.const not in ("reverse::Forward", "reverse::Reverse"):
            raise err(_loc(e, 2), "the scan direction is `reverse::Forward` or `reverse::Reverse`")
        reverse = marker.const == "reverse::Reverse"
    if len(args) == 4:
        _check_identity(e, args[3], 3, name.split("_")[1])
    unsigned = ty.elem.is_int and not ty.elem.signed
    return V(ty, tile.ScanOp.build(args[0].value, dim=dim, kind=name.split("_")[1], reverse=reverse,
                                   unsigned=unsigned, results=[ty.mlir()]))


@function("mma", "mmaf")
def _mma(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 3, name, "mma(a, b, acc)")
    a, b, c = (_tile(e, v, i, w) for i, (v, w) in enumerate(zip(args, ("mma's a", "mma's b", "mma's accumulator"))))
    if len(a.shape) != 2 or len(b.shape) != 2 or len(c.shape) != 2 or a.shape[1] != b.shape[0] \
            or c.shape != (a.shape[0], b.shape[1]):
        raise err(e.loc, f"mma needs a: MxK, b: KxN, acc: MxN; got {list(a.shape)}, {list(b.shape)}, {list(c.shape)}")
    pairs = {("f16", "f32"), ("bf16", "f32"), ("f32", "f32"), ("f16", "f16")}
    if a.elem != b.elem or (a.elem.name, c.elem.name) not in pairs:
        raise err(e.loc, f"mma does not take {a.elem.rust()} x {b.elem.rust()} -> {c.elem.rust()}; it takes f16/bf16 "
                         f"-> f32, f16 -> f16 and f32 (as tf32) -> f32")
    k_min = 16 if a.elem.name in ("f16", "bf16") else 8
    if a.shape[0] < 16 or b.shape[1] < 8 or a.shape[1] < k_min:
        raise err(e.loc, f"mma tiles must be at least one Tensor Core fragment (M >= 16, N >= 8, K >= {k_min}); got "
                         f"{list(a.shape)} x {list(b.shape)}")
    return V(c, tile.MmaOp.build(args[0].value, args[1].value, args[2].value))


# Conversions ---------------------------------------------------------------------------------------------
_CONVERSION_KINDS = {"ftof": ("float", "float"), "ftoi": ("float", "int"), "itof": ("int", "float"),
                     "exti": ("int", "int"), "trunci": ("int", "int")}


@function("convert_tile", "convert_scalar", *_CONVERSION_KINDS)
def _convert(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    args = _plain(args)
    _arity(e, args, 1, name, f"{name}::<T>(x)")
    target = _generic_elem(em, e, expected)
    if target is None:
        raise err(e.loc, f"`{name}` needs its target type: `{name}::<f32>(x)` or a typed `let`")
    v = concrete(args[0])
    src = vals.elem_kind(v.ty)
    if src is None:
        raise err(_loc(e, 0), f"cannot convert `{rust_name(v.ty)}`")
    if name in _CONVERSION_KINDS:
        want_src, want_dst = _CONVERSION_KINDS[name]
        kind = lambda s: "float" if s.is_float else "int"  # noqa: E731
        if kind(src) != want_src or kind(target) != want_dst or name == "exti" and target.bits <= src.bits \
                or name == "trunci" and target.bits >= src.bits:
            raise err(e.loc, f"`{name}` does not convert `{src.rust()}` to `{target.rust()}`")
    return vals.convert(v, target, e.loc)


@function("bitcast")
def _bitcast(em: "Emitter", e: Any, args: list[V], expected: Any, name: str) -> V:
    _arity(e, args, 1, name, "bitcast::<T>(x)")
    target = _generic_elem(em, e, expected)
    v = concrete(args[0])
    src = vals.elem_kind(v.ty)
    if target is None or src is None or target.bits != src.bits or target.is_bool:
        raise err(e.loc, "`bitcast` reinterprets the bits of a tile as another element type of the same width: "
                         "`bitcast::<u32>(t)`")
    out = TileT(target, v.ty.shape) if isinstance(v.ty, TileT) else target
    if src.is_int and target.is_int:
        return V(out, v.value)
    return V(out, arith.bitcast(out.mlir(), v.value))

