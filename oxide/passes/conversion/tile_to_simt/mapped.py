"""Mapped partitions (`MappedPartitionMut`, oxide/dialects/tile/mapped.py): the work-item arithmetic of
`tile.mapped_work`, `tile.mapped_item_tiles` and `tile.mapped_index` on block-uniform scalars, and
`tile.mapped_store` as an ordinary masked tile store at index * tile shape.

A mapped parameter has the ABI of a view (pointer, extents, strides). Per axis d: G_d = ceil(extent_d / S_d)
tiles, M_d = MAP_d (G_d where MAP_d is 0) tiles per item, I_d = ceil(G_d / M_d) items; item w sits at item
coordinates w delinearized row-major over I, its first tile at item_d * M_d, and it holds
min(M_d, G_d - item_d * M_d) tiles along d. Scalars are i64 inside (extents are i64) and i32 outside.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import tile as T
from oxide.dialects.tile.mapped import map_of
from oxide.passes.conversion.tile_to_simt.context import TileLowering, ViewValue, i_type
from oxide.passes.conversion.tile_to_simt.memory import store_tile
from oxide.passes.conversion.tile_to_simt.rules import lowering


@dataclass
class MappedValue:
    """A lowered mapped partition: the output's view, its tile shape and its map (0 = the whole axis)."""

    view: ViewValue
    tile: list[int]
    map: list[int]


def mapped_value(view: ViewValue, mapped_type: ir.Type) -> MappedValue:
    """The lowered form of a mapped-partition kernel parameter bound to `view`."""
    return MappedValue(view, T.shape_of(mapped_type), map_of(mapped_type))


def _ceil_div(ctx: TileLowering, a: ir.Value, b: ir.Value) -> ir.Value:
    return arith.divui(arith.addi(a, arith.subi(b, ctx.i64(1))), b)


def _grid(ctx: TileLowering, m: MappedValue) -> list[tuple[ir.Value, ir.Value, ir.Value]]:
    """Per axis (G_d tiles, M_d tiles per item, I_d items), i64."""
    out = []
    for extent, tile, per_item in zip(m.view.shape, m.tile, m.map):
        tiles = _ceil_div(ctx, extent, ctx.i64(tile))
        item = ctx.i64(per_item) if per_item else tiles
        # An empty axis has no tiles and no items; max(M, 1) keeps the division defined.
        items = _ceil_div(ctx, tiles, arith.maxui(item, ctx.i64(1)))
        out.append((tiles, item, items))
    return out


def _delinearize(ctx: TileLowering, linear: ir.Value, extents: list[ir.Value]) -> list[ir.Value]:
    """Row-major coordinates of `linear` over `extents` (i64; the last axis fastest)."""
    coords = []
    for extent in reversed(extents):
        coords.append(arith.remui(linear, extent))
        linear = arith.divui(linear, extent)
    return coords[::-1]


def _item(ctx: TileLowering, m: MappedValue, item: ir.Value) -> list[tuple[ir.Value, ir.Value]]:
    """Per axis (first tile index, tiles) of work item `item` (i32), i64."""
    grid = _grid(ctx, m)
    coords = _delinearize(ctx, ctx.to_i64(item), [items for _, _, items in grid])
    out = []
    for (tiles, per_item, _), coord in zip(grid, coords):
        first = arith.muli(coord, per_item)
        out.append((first, arith.minui(per_item, arith.subi(tiles, first))))
    return out


@lowering(T.MappedWorkOp)
def lower_mapped_work(ctx: TileLowering, op: T.MappedWorkOp) -> ir.Value:
    """prod I_d: the number of work items."""
    total = ctx.i64(1)
    for _, _, items in _grid(ctx, ctx.lowered(op.mapped)):
        total = arith.muli(total, items)
    return arith.trunci(i_type(32), total)


@lowering(T.MappedItemTilesOp)
def lower_mapped_item_tiles(ctx: TileLowering, op: T.MappedItemTilesOp) -> ir.Value:
    """The product of the item's clipped extents."""
    total = ctx.i64(1)
    for _, tiles in _item(ctx, ctx.lowered(op.mapped), ctx.scalar(op.item)):
        total = arith.muli(total, tiles)
    return arith.trunci(i_type(32), total)


@lowering(T.MappedIndexOp)
def lower_mapped_index(ctx: TileLowering, op: T.MappedIndexOp) -> ir.Value:
    """The item's first tile plus the tile's row-major coordinate inside the (clipped) item."""
    extents = _item(ctx, ctx.lowered(op.mapped), ctx.scalar(op.item))
    coords = _delinearize(ctx, ctx.to_i64(ctx.scalar(op.tile)), [tiles for _, tiles in extents])
    return arith.trunci(i_type(32), arith.addi(extents[op.axis][0], coords[op.axis]))


def _origin(ctx: TileLowering, op: T.MappedStoreOp) -> list[ir.Value]:
    """Where the stored tile starts (i64 per axis): its index times the tile shape."""
    m: MappedValue = ctx.lowered(op.mapped)
    return [arith.muli(ctx.to_i64(ctx.scalar(i)), ctx.i64(t)) for i, t in zip(op.indices, m.tile)]


def mapped_origin(ctx: TileLowering, store: ir.Operation) -> tuple[ir.Value, ...]:
    """The first element (i32 per axis) of the tile a `tile.mapped_store` writes (the sm_90a GEMM's TMA-store
    epilogue stores there in its place)."""
    return tuple(ctx.to_i32(o) for o in _origin(ctx, store.opview))


@lowering(T.MappedStoreOp)
def lower_mapped_store(ctx: TileLowering, op: T.MappedStoreOp) -> None:
    """A masked tile store at index * tile shape (the index is inside the grid by construction)."""
    m: MappedValue = ctx.lowered(op.mapped)
    store_tile(ctx, m.view, _origin(ctx, op), ctx.tile(op.tile))
