"""cluster_reduce.rs from Python: per-cluster sums through distributed shared memory (clusters of 4 blocks of
256 threads; sm_90)."""

import sys
from pathlib import Path

import numpy as np

import oxide

BLOCK, CLUSTER = 256, 4
N = BLOCK * CLUSTER * 3 - 100


def main() -> int:
    module = oxide.load(Path(__file__).with_name("cluster_reduce.rs"), chips=["sm_90a"])
    x = np.random.default_rng(7).standard_normal(N, dtype=np.float32)
    clusters = (N + BLOCK * CLUSTER - 1) // (BLOCK * CLUSTER)
    out = np.zeros(clusters, np.float32)
    module.cluster_sum[clusters * CLUSTER, BLOCK](x, out)
    padded = np.zeros(clusters * CLUSTER * BLOCK, np.float32)
    padded[:N] = x
    expected = padded.reshape(clusters, -1).sum(axis=1)
    errors = int(np.count_nonzero(~np.isclose(out, expected, rtol=1e-5, atol=1e-3)))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: cluster_sum, {clusters} clusters ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
