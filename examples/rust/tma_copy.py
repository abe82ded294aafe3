"""tma_copy.rs from Python: a 2-D matrix copied tile by tile through 128-byte-swizzled shared memory with TMA
loads and stores (sm_90), including edge tiles that hang over the matrix (zero fill on load, skipped on
store); the row sums the kernel takes from each shared tile check what the loads delivered."""

import sys
from pathlib import Path

import numpy as np

import oxide
from oxide.runtime import TensorMap, to_device

ROWS, COLS, TILE = 80, 100, 32


def main() -> int:
    module = oxide.load(Path(__file__).with_name("tma_copy.rs"), chips=["sm_90a"])
    src = np.random.default_rng(5).standard_normal((ROWS, COLS), dtype=np.float32)
    dst = np.zeros_like(src)
    grid = ((COLS + TILE - 1) // TILE, (ROWS + TILE - 1) // TILE)
    row_sums = np.zeros(grid[0] * grid[1] * TILE, np.float32)
    # A tensor map describes memory the copy engine reads: GPU memory on a GPU, the numpy array on the emulator.
    gpu = module.target == "gpu"
    src_mem, dst_mem = (to_device(src), to_device(dst)) if gpu else (src, dst)
    src_map = TensorMap(src_mem, box=(TILE, TILE), swizzle="128B")
    dst_map = TensorMap(dst_mem, box=(TILE, TILE), swizzle="128B")
    module.tma_copy.unchecked[grid, TILE](src_map, dst_map, row_sums)
    if gpu:
        dst = dst_mem.get()
    padded = np.zeros((grid[1] * TILE, grid[0] * TILE), np.float32)
    padded[:ROWS, :COLS] = src
    tiles = padded.reshape(grid[1], TILE, grid[0], TILE).transpose(0, 2, 1, 3)  # (tile row, tile col, row, col)
    expected_sums = tiles.sum(axis=3).reshape(-1)
    errors = int(np.count_nonzero(dst != src))
    errors += int(np.count_nonzero(~np.isclose(row_sums, expected_sums, rtol=1e-5, atol=1e-4)))
    print(f"FAILED: {errors} errors" if errors else
          f"PASSED: tma_copy {ROWS}x{COLS} in {grid[0] * grid[1]} tiles ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
