"""vecadd.rs from Python: z = x + y with one 1024-element tile per tile block, on the GPU (or the emulator
without one). The output is a partition: the launch grid is its tile count, ceil(10000 / 1024) = 10."""

import sys
from pathlib import Path

import numpy as np

import oxide
import oxide.tile

N, TILE = 10_000, 1024


def main() -> int:
    module = oxide.load(Path(__file__).with_name("vecadd.rs"), instances={"add": [[f"[{TILE}]"]]})
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(N, dtype=np.float32), rng.standard_normal(N, dtype=np.float32)
    z = np.zeros(N, np.float32)
    module.add(oxide.tile.partition(z, (TILE,)), x, y)
    errors = int(np.count_nonzero(z != x + y))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: tile vecadd, {N} elements ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
