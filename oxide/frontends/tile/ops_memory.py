"""cutile-rs memory and grid operations: block ids and counts, tensor extents, partitions, tile loads and
stores (a block stores only into its own output tile).
"""

from __future__ import annotations

from typing import Any


from oxide.dialects import tile
from oxide.frontends.syntax.errors import err
from oxide.frontends.tile import values as vals
from oxide.frontends.tile.ops import arg_loc, check_arity, check_shape, const_int_arg, index_args, index_value, tile_arg
from oxide.frontends.tile.registry import TileEmitter, function, method
from oxide.frontends.tile.types import (
    I32, UNIT_V, DimsT, PartitionT, ShapeT, TileT, TupleT, V, ViewT,
    rust_name,
)
from oxide.frontends.tile.values import scalar_const


# Block ids and extents ------------------------------------------------------------------------------------
@function("get_tile_block_id", "get_num_tile_blocks")
def _block_ids(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 0, name, f"{name}()")
    op = tile.BlockIdOp if name == "get_tile_block_id" else tile.NumBlocksOp
    parts = [V(I32, op.build(axis=axis)) for axis in ("x", "y", "z")]
    return V(TupleT((I32, I32, I32)), None, None, parts)


@function("num_tiles")
def _num_tiles(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 2, name, "num_tiles(&partition, axis)")
    p = args[0]
    if not isinstance(p.ty, PartitionT):
        raise err(arg_loc(e, 0), f"`num_tiles` counts the tiles of a partition, found `{rust_name(p.ty)}`")
    axis = const_int_arg(e, args[1], 1, "the axis")
    if not 0 <= axis < len(p.ty.shape):
        raise err(arg_loc(e, 1), f"axis {axis} is out of range for a rank-{len(p.ty.shape)} partition")
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
def _shape(em: TileEmitter, e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 0, name, "x.shape()")
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
def _partition(em: TileEmitter, e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 1, name, "x.partition(const_shape![..])")
    if not isinstance(recv.ty, ViewT):
        raise err(e.loc, f"`partition` views a `&Tensor` as tiles, found `{rust_name(recv.ty)}`")
    if recv.ty.mutable:
        raise err(e.loc, "an output tile is split with `partition_mut(shape)` (or read whole with `load()`)")
    return _make_partition(e, recv, em.shape_arg(args[0], arg_loc(e, 1)), 1)


def _make_partition(e: Any, view: V, shape: list[int], i: int) -> V:
    if len(shape) != len(view.ty.shape):
        raise err(arg_loc(e, i), f"a rank-{len(view.ty.shape)} tensor needs a rank-{len(view.ty.shape)} tile shape, "
                                 f"got {shape}")
    check_shape(e, shape, i)
    ty = PartitionT(view.ty.elem, tuple(shape), False)
    return V(ty, tile.PartitionOp.build(view.value, results=[ty.mlir()]))


@method("partition_mut")
def _partition_mut(em: TileEmitter, e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 1, name, "z.partition_mut(const_shape![..])")
    if not isinstance(recv.ty, ViewT):
        raise err(e.loc, f"`partition_mut` splits a `&mut Tensor` output, found `{rust_name(recv.ty)}`")
    if not recv.ty.mutable:
        raise _read_only(e.loc)
    shape = em.shape_arg(args[0], arg_loc(e, 1))
    own = list(recv.ty.shape)
    if len(shape) != len(own) or any(o % s for o, s in zip(own, shape)):
        raise err(arg_loc(e, 1), f"`partition_mut({shape})` must split the block's own tile {own} evenly (same rank, "
                                 f"each dimension a divisor)")
    check_shape(e, shape, 1)
    ty = PartitionT(recv.ty.elem, tuple(shape), True, tuple(o // s for o, s in zip(own, shape)))
    return V(ty, tile.PartitionMutOp.build(recv.value, results=[ty.mlir()]))


@method("load", "load_pipelined")
def _load(em: TileEmitter, e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    if isinstance(recv.ty, ViewT):
        if not recv.ty.mutable:
            raise err(e.loc, "an input is read through a partition: `x.partition(shape).load([i, j])`, "
                             "`x.load_tile(shape, [i, j])` or `load_tile_like_2d(x, out)`")
        check_arity(e, args, 0, name, "z.load()")
        return _load_own(recv)
    if not isinstance(recv.ty, PartitionT):
        raise err(e.loc, f"no method `load` on `{rust_name(recv.ty)}`")
    if recv.ty.mutable:
        raise err(e.loc, "loading through a `partition_mut` is unordered with its stores (unsafe in cutile-rs) and "
                         "not supported; read the whole output tile with `z.load()`")
    check_arity(e, args, 1, name, "p.load([i, j])")
    return _partition_load(e, recv, index_args(e, args[0], 1, len(recv.ty.shape)), 1)


def _partition_load(e: Any, p: V, indices: list[V], i: int) -> V:
    ty = TileT(p.ty.elem, p.ty.shape)
    return V(ty, tile.LoadOp.build(p.value, [index_value(e, v, i) for v in indices], results=[ty.mlir()]))


def _load_own(view: V) -> V:
    ty = TileT(view.ty.elem, view.ty.shape)
    return V(ty, tile.LoadOwnOp.build(view.value, results=[ty.mlir()]))


@function("load_tile_mut")
def _load_tile_mut(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 1, name, "load_tile_mut(z)")
    if not (isinstance(args[0].ty, ViewT) and args[0].ty.mutable):
        raise err(arg_loc(e, 0), f"`load_tile_mut` reads a `&mut Tensor` output tile, found `{rust_name(args[0].ty)}`")
    return _load_own(args[0])


@function("load_tile_like", "load_tile_like_1d", "load_tile_like_2d", "load_tile_like_3d")
def _load_tile_like(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 2, name, f"{name}(x, out)")
    x, z = args
    if not (isinstance(x.ty, ViewT) and not x.ty.mutable):
        raise err(arg_loc(e, 0), f"`{name}` loads from an input `&Tensor`, found `{rust_name(x.ty)}`")
    if not (isinstance(z.ty, ViewT) and z.ty.mutable):
        raise err(arg_loc(e, 1), f"`{name}` takes its tile shape from a `&mut Tensor` output, "
                                 f"found `{rust_name(z.ty)}`")
    rank = len(z.ty.shape)
    if name[-2:] in ("1d", "2d", "3d") and int(name[-2]) != rank:
        raise err(e.loc, f"`{name}` is for rank-{name[-2]} tensors; the output has rank {rank}")
    if len(x.ty.shape) != rank:
        raise err(e.loc, f"`{name}`: the input has rank {len(x.ty.shape)}, the output rank {rank}")
    p = _make_partition(e, x, list(z.ty.shape), 0)
    ids = [V(I32, tile.BlockIdOp.build(axis=axis)) for axis in ("x", "y", "z")[:rank]]
    return _partition_load(e, p, ids, 0)


@method("load_tile")
def _load_tile(em: TileEmitter, e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 2, name, "x.load_tile(const_shape![..], [i, j])")
    if not (isinstance(recv.ty, ViewT) and not recv.ty.mutable):
        raise err(e.loc, f"`load_tile` reads an input `&Tensor`, found `{rust_name(recv.ty)}`")
    p = _make_partition(e, recv, em.shape_arg(args[0], arg_loc(e, 1)), 1)
    return _partition_load(e, p, index_args(e, args[1], 2, len(recv.ty.shape)), 2)


@method("store")
def _store(em: TileEmitter, e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
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
    check_arity(e, args, 2, name, "p.store(tile, [i, j])")
    _stored_tile(e, args[0], recv.ty, 1)
    indices = index_args(e, args[1], 2, len(recv.ty.shape))
    for d, (v, n) in enumerate(zip(indices, recv.ty.grid)):
        if v.const is not None and not 0 <= v.const < n:
            raise err(arg_loc(e, 2), f"this store writes tile index {v.const} along dimension {d}, outside this "
                                     f"block's own tile (a `partition_mut` of {list(recv.ty.grid)} tiles): a block "
                                     f"writes only its own tile; use an index in 0..{n}")
    tile.StoreOp(recv.value, args[0].value, [index_value(e, v, 2) for v in indices])
    return UNIT_V


def _stored_tile(e: Any, v: V, holder: Any, i: int) -> None:
    ty = tile_arg(e, v, i, "the stored value")
    vals.retype_tile(v, TileT(holder.elem, holder.shape))
    if list(ty.shape) != list(holder.shape) or ty.elem != holder.elem:
        raise err(arg_loc(e, i), f"this stores a `{ty.rust()}` where the tile is `Tile<{holder.elem.rust()}, "
                                 f"{{{list(holder.shape)}}}>`; reshape/convert it to that shape and element type")
