"""grid_sync_reduce.rs from Python: a two-phase sum in one cooperative launch, with grid::sync() between the
phases (blocks of 256 threads)."""

import sys
from pathlib import Path

import numpy as np

import oxide

BLOCK, BLOCKS = 256, 8
N = 50_000


def main() -> int:
    module = oxide.load(Path(__file__).with_name("grid_sync_reduce.rs"), chips=["sm_90a"])
    x = np.random.default_rng(11).standard_normal(N, dtype=np.float32)
    partials = np.zeros(BLOCKS, np.float32)
    out = np.zeros(1, np.float32)
    module.grid_sum[BLOCKS, BLOCK](x, partials, out)
    expected = float(x.astype(np.float64).sum())
    ok = np.isclose(out[0], expected, rtol=1e-4, atol=1e-2)
    print(f"PASSED: grid_sum of {N} values ({module.target})" if ok else f"FAILED: {out[0]} != {expected}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
