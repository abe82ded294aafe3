"""Launch configurations. `LaunchConfig1D/2D/3D` carry their rank, which a contracted kernel's `domain` must
equal (a 2-D launch of a 1-D kernel would give duplicate indices); `LaunchConfig` is the raw form the
unchecked path and numba-style `kernel[grid, block]` take (its rank: the longest of grid and block)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Dim3 = tuple[int, int, int]


def _dim3(value: Any, what: str) -> tuple[Dim3, int]:
    """(x, y, z) and the number of components the user gave."""
    parts = [value] if isinstance(value, int) else list(value)
    if not 1 <= len(parts) <= 3 or not all(isinstance(p, int) and not isinstance(p, bool) for p in parts):
        raise TypeError(f"{what} must be an int or a tuple of 1 to 3 ints, got {value!r}")
    padded = parts + [1] * (3 - len(parts))
    return (padded[0], padded[1], padded[2]), len(parts)


@dataclass(frozen=True)
class LaunchConfig:
    """Grid and block extents, dynamic shared memory bytes, and the rank the launch was written with."""

    grid: Dim3
    block: Dim3
    shared_mem_bytes: int = 0
    rank: int = 1

    @classmethod
    def of(cls, grid: Any, block: Any, shared_mem_bytes: int = 0) -> "LaunchConfig":
        """From ints or tuples (numba style)."""
        g, gr = _dim3(grid, "grid")
        b, br = _dim3(block, "block")
        return cls(g, b, int(shared_mem_bytes), max(gr, br))

    @classmethod
    def for_num_elems(cls, n: int, block: int = 256) -> "LaunchConfig1D":
        """One thread per element: `block` threads per block, ceil(n / block) blocks."""
        return LaunchConfig1D(max(1, -(-n // block)), block)


def LaunchConfig1D(grid_x: int, block_x: int, shared_mem_bytes: int = 0) -> LaunchConfig:
    """A 1-D launch (y and z extents 1)."""
    return LaunchConfig((grid_x, 1, 1), (block_x, 1, 1), shared_mem_bytes, 1)


def LaunchConfig2D(grid: tuple[int, int], block: tuple[int, int], shared_mem_bytes: int = 0) -> LaunchConfig:
    """A 2-D launch (z extents 1)."""
    return LaunchConfig((grid[0], grid[1], 1), (block[0], block[1], 1), shared_mem_bytes, 2)


def LaunchConfig3D(grid: tuple[int, int, int], block: tuple[int, int, int], shared_mem_bytes: int = 0) -> LaunchConfig:
    """A 3-D launch."""
    return LaunchConfig(tuple(grid), tuple(block), shared_mem_bytes, 3)  # type: ignore[arg-type]
