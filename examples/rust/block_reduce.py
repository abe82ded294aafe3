"""block_reduce.rs from Python: per-block sums through shared memory and barriers (block = 256 threads)."""

import sys
from pathlib import Path

import numpy as np

import oxide

BLOCK = 256
N = BLOCK * 12 + 17


def main() -> int:
    module = oxide.load(Path(__file__).with_name("block_reduce.rs"))
    x = np.random.default_rng(4).standard_normal(N, dtype=np.float32)
    blocks = (N + BLOCK - 1) // BLOCK
    out = np.zeros(blocks, np.float32)
    module.block_sum[blocks, BLOCK](x, out)
    padded = np.zeros(blocks * BLOCK, np.float32)
    padded[:N] = x
    errors = int(np.count_nonzero(~np.isclose(out, padded.reshape(blocks, BLOCK).sum(axis=1), rtol=1e-5, atol=1e-4)))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: block_sum, {blocks} blocks ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
