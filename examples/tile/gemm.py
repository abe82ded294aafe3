"""gemm.rs from Python: z = x @ y with bf16 inputs and f32 accumulation on Tensor Cores (mma), one 128x128
output tile per tile block. numpy has no bf16, so the inputs travel as their 16-bit patterns (uint16); the
values are drawn so that they are exact in bf16, which makes the float64 reference exact up to summation."""

import sys
from pathlib import Path

import numpy as np

import oxide
import oxide.tile

M, N, K, BM, BN, BK = 256, 384, 200, 128, 128, 64


def bf16(rng: np.random.Generator, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Random bf16 values: their bit patterns (uint16) and their float32 values."""
    values = rng.standard_normal(shape, dtype=np.float32)
    bits = (values.view(np.uint32) >> 16).astype(np.uint16)
    return bits, (bits.astype(np.uint32) << 16).view(np.float32)


def main() -> int:
    module = oxide.load(Path(__file__).with_name("gemm.rs"), instances={"gemm": [[str(BM), str(BN), str(BK)]]})
    rng = np.random.default_rng(4)
    (xb, x), (yb, y) = bf16(rng, (M, K)), bf16(rng, (K, N))
    z = np.zeros((M, N), np.float32)
    module.gemm(oxide.tile.partition(z, (BM, BN)), xb, yb)
    expected = x.astype(np.float64) @ y.astype(np.float64)
    errors = int(np.count_nonzero(~np.isclose(z, expected, rtol=1e-4, atol=1e-3)))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: tile gemm, {M}x{N}x{K} bf16 -> f32 ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
