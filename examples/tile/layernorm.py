"""layernorm.rs from Python: y = (x - mean) / sqrt(var + eps) * w + b per row, 4 rows per tile block."""

import sys
from pathlib import Path

import numpy as np

import oxide
import oxide.tile

ROWS, COLS, BM, N, EPS = 64, 1000, 4, 1024, 1e-5


def main() -> int:
    module = oxide.load(Path(__file__).with_name("layernorm.rs"), instances={"layernorm": [[str(BM), str(N)]]})
    rng = np.random.default_rng(2)
    x = rng.standard_normal((ROWS, COLS), dtype=np.float32) * 3 + 1
    w, b = rng.standard_normal(COLS, dtype=np.float32), rng.standard_normal(COLS, dtype=np.float32)
    y = np.zeros_like(x)
    module.layernorm(oxide.tile.partition(y, (BM, N)), x, w, b, EPS)
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=1, keepdims=True)
    expected = (x64 - mean) / np.sqrt(((x64 - mean) ** 2).mean(axis=1, keepdims=True) + EPS) * w + b
    errors = int(np.count_nonzero(~np.isclose(y, expected, rtol=1e-4, atol=1e-4)))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: tile layernorm, {ROWS}x{COLS} ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
