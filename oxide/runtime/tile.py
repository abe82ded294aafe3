"""Host-side partitions for tile kernels (`oxide.tile.partition`), cutile-rs's `x.partition([..])`.

    z = np.zeros((1000, 300), np.float32)
    mod.add(oxide.tile.partition(z, (128, 64)), x, y)   # grid (8, 5, 1): one tile block per 128x64 tile

A Partition is a tile kernel's mutable output argument: it names the array and the tile shape, and its
grid (ceil(extent / tile) per dimension, x = dimension 0) is the launch grid. Each tile block writes only its
own tile, so outputs need no other synchronisation. This module is runtime-only (numpy, no compiler).

    mod.gemm_persistent(oxide.tile.partition(z, (16, 16)).map((4, 1), 4), x, y)   # grid (4, 1, 1)

`Partition.map(shape, blocks)` is cutile-rs's `partition([..]).map(MAP, num_tile_blocks)`, the argument of a
`MappedPartitionMut<E, S, MAP>` parameter: the tile grid is cut into work items of `shape` tiles (0 = the
whole axis, clipped at the edge), numbered row-major, and block b of `blocks` takes items b, b + blocks, ...
(docs/tile-language.md, "Persistent kernels").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from oxide.runtime.errors import PartitionError

MAX_RANK = 3  # the launch grid has three axes


@dataclass(frozen=True)
class Partition:
    """An output array split into tiles of `tile_shape`; `grid` is the number of tiles per dimension."""

    array: Any
    tile_shape: tuple[int, ...]

    @property
    def shape(self) -> tuple[int, ...]:
        """The array's shape (elements)."""
        return tuple(int(d) for d in self.array.shape)

    @property
    def grid(self) -> tuple[int, ...]:
        """Tiles per dimension: ceil(extent / tile); a tile at the edge may reach past the array."""
        return tuple(-(-n // t) for n, t in zip(self.shape, self.tile_shape))

    def __repr__(self) -> str:
        dtype = getattr(self.array, "dtype", "?")
        return f"Partition(shape={self.shape}, dtype={dtype}, tile_shape={self.tile_shape}, grid={self.grid})"

    def map(self, shape: int | tuple[int, ...] | list[int], blocks: int) -> "MappedPartition":
        """The partition's tiles grouped into work items of `shape` tiles (0 = the whole axis), walked by
        `blocks` persistent tile blocks: the argument of a `MappedPartitionMut` parameter."""
        per_item = (shape,) if isinstance(shape, int) else tuple(shape)
        if len(per_item) != len(self.tile_shape) or not all(_is_int(m) and m >= 0 for m in per_item):
            raise PartitionError(f"a map has one tile count (0 = the whole axis) per dimension of the tile shape "
                                 f"{self.tile_shape}, got {shape!r}")
        if not any(per_item):
            raise PartitionError(f"the map {per_item} streams no axis: at least one entry must be a tile count above "
                                 f"0 (0 = the whole axis)")
        items = work_items(self.grid, per_item)
        if not _is_int(blocks) or not 1 <= blocks <= max(items, 1) or items == 0:
            raise PartitionError(f"a mapped partition runs on 1 to {items} tile blocks (one per work item at most: "
                                 f"{self.grid} tiles in items of {per_item}), got {blocks!r}")
        return MappedPartition(self, per_item, blocks)


@dataclass(frozen=True)
class MappedPartition:
    """A partition whose tile grid is cut into work items of `map` tiles, launched on `blocks` tile blocks."""

    partition: Partition
    map: tuple[int, ...]
    blocks: int

    @property
    def array(self) -> Any:
        """The output array."""
        return self.partition.array

    @property
    def work_items(self) -> int:
        """How many work items the tile grid holds."""
        return work_items(self.partition.grid, self.map)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def item_extents(grid: tuple[int, ...], per_item: tuple[int, ...]) -> list[tuple[int, int]]:
    """Per axis (tiles per item, items): an entry 0 of the map is the whole axis."""
    out = []
    for tiles, m in zip(grid, per_item):
        size = m or tiles
        out.append((size, -(-tiles // max(size, 1))))
    return out


def work_items(grid: tuple[int, ...], per_item: tuple[int, ...]) -> int:
    """The number of work items of a tile grid cut into items of `per_item` tiles."""
    total = 1
    for _, items in item_extents(grid, per_item):
        total *= items
    return total


def item_tiles(grid: tuple[int, ...], per_item: tuple[int, ...], item: int) -> list[tuple[int, int]]:
    """Per axis (first tile index, tiles) of work item `item` (row-major over the item grid, clipped)."""
    extents = item_extents(grid, per_item)
    coords = []
    for _, items in reversed(extents):
        coords.append(item % items)
        item //= items
    return [(c * size, min(size, tiles - c * size))
            for c, (size, _), tiles in zip(reversed(coords), extents, grid)]


def partition(array: Any, tile_shape: int | tuple[int, ...] | list[int]) -> Partition:
    """`array` as a grid of `tile_shape` tiles: the output argument of a tile kernel."""
    shape = getattr(array, "shape", None)
    if shape is None or not hasattr(array, "dtype"):
        raise PartitionError(f"oxide.tile.partition takes an array (numpy, a device array, ...), got "
                             f"{type(array).__name__}")
    tiles = (tile_shape,) if isinstance(tile_shape, int) else tuple(tile_shape)
    if not all(isinstance(t, int) and not isinstance(t, bool) for t in tiles):
        raise PartitionError(f"a tile shape is a tuple of ints, got {tile_shape!r}")
    rank = len(shape)
    if not 1 <= rank <= MAX_RANK:
        raise PartitionError(f"a partitioned output has rank 1 to {MAX_RANK} (one grid axis per dimension), got "
                             f"an array of shape {tuple(shape)}")
    if len(tiles) != rank:
        raise PartitionError(f"tile shape {tiles} has rank {len(tiles)}, but the array has shape {tuple(shape)}: "
                             f"give one tile extent per dimension")
    for t in tiles:
        if t <= 0 or t & (t - 1):
            raise PartitionError(f"tile shape {tiles}: every tile extent must be a positive power of two, got {t}")
    return Partition(array, tiles)
