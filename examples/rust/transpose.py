"""transpose.rs from Python: a tiled transpose through shared memory (block = (32, 8, 1) by contract)."""

import sys
from pathlib import Path

import numpy as np

import oxide

ROWS, COLS = 70, 100


def main() -> int:
    module = oxide.load(Path(__file__).with_name("transpose.rs"))
    inp = np.random.default_rng(8).standard_normal((ROWS, COLS), dtype=np.float32)
    out = np.zeros((COLS, ROWS), np.float32)
    module.transpose[((COLS + 31) // 32, (ROWS + 31) // 32), (32, 8)](inp, out, ROWS, COLS)
    errors = int(np.count_nonzero(out != inp.T))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: transpose, {ROWS}x{COLS} ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
