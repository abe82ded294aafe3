"""saxpy.rs from Python: out = a * x + y through a contracted kernel (domain = 1), on device buffers."""

import sys
from pathlib import Path

import numpy as np

import oxide
from oxide.runtime import LaunchConfig1D

N, BLOCK = 5000, 128


def main() -> int:
    module = oxide.load(Path(__file__).with_name("saxpy.rs"))
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal(N, dtype=np.float32), rng.standard_normal(N, dtype=np.float32)
    # Device buffers (GPU memory, or the emulator's): copied once, reused by any number of launches.
    dx, dy, dout = module.to_device(x), module.to_device(y), module.zeros(N, np.float32)
    prepared = module.saxpy.prepare(LaunchConfig1D((N + BLOCK - 1) // BLOCK, BLOCK))  # contract checked here
    prepared(2.5, dx, dy, dout)
    expected = (np.float64(2.5) * x + y).astype(np.float32)  # the kernel uses one fused multiply-add
    errors = int(np.count_nonzero(~np.isclose(dout.get(), expected, rtol=1e-6, atol=1e-6)))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: saxpy, {N} elements ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
