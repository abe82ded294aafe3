"""scale_generic.rs from Python: one generic kernel, instantiated for f32 and f64; each call picks the
instance whose parameter types match the arguments."""

import sys
from pathlib import Path

import numpy as np

import oxide

N, BLOCK = 3000, 256


def main() -> int:
    module = oxide.load(Path(__file__).with_name("scale_generic.rs"), instances={"scale": [["f32"], ["f64"]]})
    errors = 0
    for dtype in (np.float32, np.float64):
        x = np.random.default_rng(2).standard_normal(N).astype(dtype)
        out = np.zeros(N, dtype)
        module.scale.unchecked[(N + BLOCK - 1) // BLOCK, BLOCK](x, 3.0, out)  # scale_f32, then scale_f64
        errors += int(np.count_nonzero(out != x * dtype(3.0)))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: scale<f32>, scale<f64>, {N} elements ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
