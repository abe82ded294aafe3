"""persistent_gemm_mixed.rs from Python: C = A @ B with f16 inputs, an f32 accumulator and an f32 output, by 4
persistent tile blocks walking work items of 2 x 1 output tiles, on the GPU (or the emulator without one). The
sizes leave ragged edge tiles and more tiles than blocks; on an sm_90a GPU the kernel runs on TMA and wgmma."""

import sys
from pathlib import Path

import numpy as np

import oxide
import oxide.tile

M, N, K, TILE, BLOCKS = 200, 136, 96, (64, 64), 4


def main() -> int:
    module = oxide.load(Path(__file__).with_name("persistent_gemm_mixed.rs"),
                        instances={"gemm_persistent_mixed": [["f16", "f32", "64", "64", "64", "[2, 1]"]]})
    rng = np.random.default_rng(0)
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    c = np.full((M, N), np.nan, np.float32)
    module.gemm_persistent_mixed(oxide.tile.partition(c, TILE).map((2, 1), BLOCKS), a, b)
    expected = a.astype(np.float64) @ b.astype(np.float64)
    ok = np.allclose(c, expected, rtol=1e-3, atol=1e-3 * np.sqrt(K))
    print(f"PASSED: tile persistent GEMM (f16 in, f32 accumulate) {M}x{N}x{K} on {BLOCKS} blocks ({module.target})"
          if ok else f"FAILED: max error {np.nanmax(np.abs(c - expected))}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
