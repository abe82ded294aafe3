"""persistent_gemm.rs from Python: C = A @ B by 4 persistent tile blocks walking work items of 2 x 1 output
tiles (`oxide.tile.partition(c, tile).map(shape, blocks)`), on the GPU (or the emulator without one). The sizes
leave ragged edge tiles and a clipped last work item."""

import sys
from pathlib import Path

import numpy as np

import oxide
import oxide.tile

M, N, K, TILE, BLOCKS = 200, 150, 96, (64, 64), 4


def main() -> int:
    module = oxide.load(Path(__file__).with_name("persistent_gemm.rs"),
                        instances={"gemm_persistent": [["f32", "64", "64", "32", "[2, 1]"]]})
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((M, K), dtype=np.float32), rng.standard_normal((K, N), dtype=np.float32)
    c = np.full((M, N), np.nan, np.float32)
    module.gemm_persistent(oxide.tile.partition(c, TILE).map((2, 1), BLOCKS), a, b)
    # f32 mma multiplies at tf32 precision: compare with a tolerance that grows with sqrt(K).
    ok = np.allclose(c, a.astype(np.float64) @ b, rtol=1e-2, atol=2e-3 * np.sqrt(K))
    print(f"PASSED: tile persistent GEMM {M}x{N}x{K} on {BLOCKS} blocks ({module.target})" if ok else
          f"FAILED: max error {np.nanmax(np.abs(c - a.astype(np.float64) @ b))}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
