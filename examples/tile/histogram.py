"""histogram.rs from Python: 100000 values in [0, 64) counted into 64 bins with pointer-tile atomics, one
256-value tile per tile block. The kernel has no output partition, so the grid is stated:
`mod.histogram[blocks](counts, x, n)`."""

import sys
from pathlib import Path

import numpy as np

import oxide

N, BINS, TILE = 100_000, 64, 256


def main() -> int:
    module = oxide.load(Path(__file__).with_name("histogram.rs"))
    x = np.random.default_rng(5).integers(0, BINS, N, dtype=np.int32)
    counts = np.zeros(BINS, np.int32)
    module.histogram[(N + TILE - 1) // TILE](counts, x, N)
    expected = np.bincount(x, minlength=BINS).astype(np.int32)
    errors = int(np.count_nonzero(counts != expected))
    print(f"FAILED: {errors} bins wrong" if errors else f"PASSED: tile histogram, {N} values ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
