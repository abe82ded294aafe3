"""Host-side partitions for tile kernels (`oxide.tile.partition`), cutile-rs's `x.partition([..])`.

    z = np.zeros((1000, 300), np.float32)
    mod.add(oxide.tile.partition(z, (128, 64)), x, y)   # grid (8, 5, 1): one tile block per 128x64 tile

A Partition is a tile kernel's mutable output argument: it names the array and the tile shape, and its
grid (ceil(extent / tile) per dimension, x = dimension 0) is the launch grid. Each tile block writes only its
own tile, so outputs need no other synchronisation. This module is runtime-only (numpy, no compiler).
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
