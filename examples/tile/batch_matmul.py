"""batch_matmul.rs from Python: z[b] = x[b] @ y[b] for a batch of bf16 matrices, f32 accumulation on Tensor Cores,
bf16 and f32 outputs, one 1 x BM x BN output tile per tile block. numpy has no bf16, so bf16 tensors travel as
their 16-bit patterns (uint16); the inputs are exact bf16 values, so the float64 reference is exact up to
summation."""

import sys
from pathlib import Path

import numpy as np

import oxide
import oxide.tile

BATCH, M, N, K, BM, BN, BK = 3, 200, 136, 200, 64, 64, 64
# (output, relative tolerance of one output element: the f32 accumulator rounded once to the output type)
CASES = [("bf16", 2 ** -7), ("f32", 1e-4)]


def bf16(rng: np.random.Generator, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Random bf16 values: their bit patterns (uint16) and their float64 values."""
    bits = (rng.standard_normal(shape, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return bits, (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def main() -> int:
    instances = [["bf16", out, str(BM), str(BN), str(BK)] for out, _ in CASES]
    module = oxide.load(Path(__file__).with_name("batch_matmul.rs"), instances={"batch_matmul": instances})
    rng = np.random.default_rng(19)
    (xb, x), (yb, y) = bf16(rng, (BATCH, M, K)), bf16(rng, (BATCH, K, N))
    expected = np.matmul(x, y)
    failed = 0
    for out, rtol in CASES:
        z = np.zeros((BATCH, M, N), np.uint16 if out == "bf16" else np.float32)
        kernel = getattr(module, f"batch_matmul_bf16_{out}_{BM}_{BN}_{BK}")
        kernel(oxide.tile.partition(z, (1, BM, BN)), xb, yb)
        got = (z.astype(np.uint32) << 16).view(np.float32) if out == "bf16" else z
        errors = int(np.count_nonzero(~np.isclose(got, expected, rtol=rtol, atol=rtol * np.sqrt(K))))
        print(f"bf16 -> {out}: {'FAILED: ' + str(errors) + ' errors' if errors else 'ok'}")
        failed += errors
    print("FAILED" if failed else f"PASSED: tile batch_matmul, {BATCH} x {M}x{N}x{K} ({module.target})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
