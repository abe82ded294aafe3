"""warp_reduce.rs from Python: one sum per warp with shuffles; lane 0 writes through a WarpIndex witness."""

import sys
from pathlib import Path

import numpy as np

import oxide

N, BLOCK = 32 * 40, 128


def main() -> int:
    module = oxide.load(Path(__file__).with_name("warp_reduce.rs"))
    x = np.random.default_rng(5).standard_normal(N, dtype=np.float32)
    out = np.zeros(N // 32, np.float32)
    module.warp_sum[(N + BLOCK - 1) // BLOCK, BLOCK](x, out)
    errors = int(np.count_nonzero(~np.isclose(out, x.reshape(-1, 32).sum(axis=1), rtol=1e-5, atol=1e-5)))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: warp_sum, {N // 32} warps ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
