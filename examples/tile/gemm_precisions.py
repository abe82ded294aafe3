"""gemm_precisions.rs from Python: z = x @ y at several precisions, f32 accumulate, converted to z's type. numpy
has no bf16, so bf16 tensors travel as their 16-bit patterns (uint16); tf32 tensors hold f32 values, which the
Tensor Cores multiply at tf32 precision (10 mantissa bits)."""

import sys
from pathlib import Path

import numpy as np

import oxide
import oxide.tile

M, N, K, BM, BN, BK = 200, 136, 200, 64, 64, 64
# (input, output, relative tolerance of one output element)
CASES = [("bf16", "bf16", 2 ** -7), ("f16", "f16", 2 ** -9), ("bf16", "f32", 1e-4), ("tf32", "f32", 5e-3)]


def array(rng: np.random.Generator, shape: tuple[int, int], elem: str) -> tuple[np.ndarray, np.ndarray]:
    """Random values of `elem`: the array the kernel takes and its float64 values."""
    values = rng.standard_normal(shape, dtype=np.float32)
    if elem == "bf16":
        bits = (values.view(np.uint32) >> 16).astype(np.uint16)
        return bits, (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    data = values.astype(np.float16 if elem == "f16" else np.float32)
    return data, data.astype(np.float64)


def result(z: np.ndarray, elem: str) -> np.ndarray:
    return (z.astype(np.uint32) << 16).view(np.float32) if elem == "bf16" else z.astype(np.float64)


def main() -> int:
    instances = [[ein, eout, str(BM), str(BN), str(BK)] for ein, eout, _ in CASES]
    module = oxide.load(Path(__file__).with_name("gemm_precisions.rs"), instances={"gemm": instances})
    rng = np.random.default_rng(18)
    failed = 0
    for ein, eout, rtol in CASES:
        (xa, x), (ya, y) = array(rng, (M, K), ein), array(rng, (K, N), ein)
        z = np.zeros((M, N), {"bf16": np.uint16, "f16": np.float16, "f32": np.float32}[eout])
        getattr(module, f"gemm_{ein}_{eout}_{BM}_{BN}_{BK}")(oxide.tile.partition(z, (BM, BN)), xa, ya)
        expected = x @ y
        errors = int(np.count_nonzero(~np.isclose(result(z, eout), expected, rtol=rtol, atol=rtol * np.sqrt(K))))
        print(f"{ein} -> {eout}: {'FAILED: ' + str(errors) + ' errors' if errors else 'ok'}")
        failed += errors
    print("FAILED" if failed else f"PASSED: tile gemm at {len(CASES)} precisions, {M}x{N}x{K} ({module.target})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
