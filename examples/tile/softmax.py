"""softmax.rs from Python: a fused row softmax, each tile block owning 4 rows of the output. Rows are 1000
long; the tile is 1024 wide, and the kernel masks the 24 columns past the row end."""

import sys
from pathlib import Path

import numpy as np

import oxide
import oxide.tile

ROWS, COLS, BM, N = 64, 1000, 4, 1024


def main() -> int:
    module = oxide.load(Path(__file__).with_name("softmax.rs"), instances={"softmax": [[str(BM), str(N)]]})
    x = np.random.default_rng(1).standard_normal((ROWS, COLS), dtype=np.float32) * 4
    y = np.zeros_like(x)
    module.softmax(oxide.tile.partition(y, (BM, N)), x)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    expected = e / e.sum(axis=1, keepdims=True)
    errors = int(np.count_nonzero(~np.isclose(y, expected, rtol=1e-5, atol=1e-7)))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: tile softmax, {ROWS}x{COLS} ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
