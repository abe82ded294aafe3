"""sgemm_naive.rs from Python: C = A @ B with a const-generic kernel instantiated for N = 64 columns, launched
2-D as its contract (domain = 2) requires."""

import sys
from pathlib import Path

import numpy as np

import oxide
from oxide.runtime import LaunchConfig2D

M, K, N = 96, 80, 64


def main() -> int:
    module = oxide.load(Path(__file__).with_name("sgemm_naive.rs"), instances={"sgemm_naive": [[str(N)]]})
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((M, K), dtype=np.float32), rng.standard_normal((K, N), dtype=np.float32)
    c = np.zeros((M, N), np.float32)
    module.sgemm_naive(a, b, K, c, config=LaunchConfig2D((N // 16, M // 16), (16, 16)))
    errors = int(np.count_nonzero(~np.isclose(c, a @ b, rtol=1e-4, atol=1e-4)))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: sgemm_naive, {M}x{K} @ {K}x{N} ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
