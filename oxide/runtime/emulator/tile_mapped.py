"""Mapped partitions on the tile emulator (`_tm.<name>` in a generated tile-block function): the work-item
arithmetic of `tile.mapped_work`, `tile.mapped_item_tiles` and `tile.mapped_index` (oxide.runtime.tile holds
it, shared with the host's launch checks), and `tile.mapped_store`, which writes a tile of the whole output
and traps on an index outside its tile grid (the compiler mints only indices inside it)."""

from __future__ import annotations

from typing import Any

import numpy as np

from oxide.runtime.emulator.tile import Block, Partition, store
from oxide.runtime.tile import item_tiles, work_items


def _grid(view: np.ndarray, tile: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(-(-n // t) for n, t in zip(view.shape, tile))


def mapped_work(view: np.ndarray, tile: tuple[int, ...], per_item: tuple[int, ...]) -> Any:
    """`tile.mapped_work`: the number of work items."""
    return np.int32(work_items(_grid(view, tile), per_item))


def mapped_item_tiles(view: np.ndarray, tile: tuple[int, ...], per_item: tuple[int, ...], item: Any) -> Any:
    """`tile.mapped_item_tiles`: how many tiles work item `item` holds."""
    total = 1
    for _, count in item_tiles(_grid(view, tile), per_item, int(item)):
        total *= count
    return np.int32(total)


def mapped_index(view: np.ndarray, tile: tuple[int, ...], per_item: tuple[int, ...], item: Any, t: Any,
                 axis: int) -> Any:
    """`tile.mapped_index`: the tile index along `axis` of the item's `t`-th tile (row-major)."""
    extents = item_tiles(_grid(view, tile), per_item, int(item))
    linear = int(t)
    for d in range(len(extents) - 1, axis, -1):
        linear //= extents[d][1]
    return np.int32(extents[axis][0] + linear % extents[axis][1])


def mapped_store(b: Block, view: np.ndarray, tile: tuple[int, ...], values: Any, index: tuple[Any, ...], elem: str,
                 loc: int) -> None:
    """`tile.mapped_store`: the tile at `index` of the output's whole tile grid, masked at the tensor's edge."""
    grid = _grid(view, tile)
    store(b, Partition(view, tile, elem, (0,) * len(tile), grid), values, index, loc)
