"""vecadd.rs from Python: c = a + b on the GPU (or the emulator without one), checked against numpy.

vecadd has no #[launch_contract], so nothing proves its launch geometry on the host: it launches through
`.unchecked`, and its index_1d witness checks the geometry on the device instead."""

import sys
from pathlib import Path

import numpy as np

import oxide

N, BLOCK = 10_000, 256


def main() -> int:
    module = oxide.load(Path(__file__).with_name("vecadd.rs"))
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(N, dtype=np.float32), rng.standard_normal(N, dtype=np.float32)
    c = np.zeros(N, np.float32)
    module.vecadd.unchecked[(N + BLOCK - 1) // BLOCK, BLOCK](a, b, c)
    errors = int(np.count_nonzero(c != a + b))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: vecadd, {N} elements ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
