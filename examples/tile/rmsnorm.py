"""rmsnorm.rs from Python: y = x / sqrt(mean(x^2) + eps) * w per row, 4 rows per tile block."""

import sys
from pathlib import Path

import numpy as np

import oxide
import oxide.tile

ROWS, COLS, BM, N, EPS = 64, 1000, 4, 1024, 1e-6


def main() -> int:
    module = oxide.load(Path(__file__).with_name("rmsnorm.rs"), instances={"rmsnorm": [[str(BM), str(N)]]})
    rng = np.random.default_rng(3)
    x = rng.standard_normal((ROWS, COLS), dtype=np.float32) * 2
    w = rng.standard_normal(COLS, dtype=np.float32)
    y = np.zeros_like(x)
    module.rmsnorm(oxide.tile.partition(y, (BM, N)), x, w, EPS)
    x64 = x.astype(np.float64)
    expected = x64 / np.sqrt((x64 ** 2).mean(axis=1, keepdims=True) + EPS) * w
    errors = int(np.count_nonzero(~np.isclose(y, expected, rtol=1e-4, atol=1e-5)))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: tile rmsnorm, {ROWS}x{COLS} ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
