"""histogram.rs from Python: atomic increments into &[DeviceAtomicU32] bins (a uint32 array here)."""

import sys
from pathlib import Path

import numpy as np

import oxide

N, BINS, BLOCK = 20_000, 37, 256


def main() -> int:
    module = oxide.load(Path(__file__).with_name("histogram.rs"))
    values = np.random.default_rng(6).integers(0, 1 << 30, N).astype(np.uint32)
    bins = np.zeros(BINS, np.uint32)
    module.histogram.unchecked[(N + BLOCK - 1) // BLOCK, BLOCK](values, bins)
    expected = np.bincount(values % BINS, minlength=BINS).astype(np.uint32)
    errors = int(np.count_nonzero(bins != expected))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: histogram, {N} values into {BINS} bins ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
