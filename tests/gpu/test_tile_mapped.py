"""The persistent GEMM over a mapped output (examples/tile/persistent_gemm.rs, fixture
tests/fixtures/tile/persistent_gemm.*) on the GPU against numpy, with edge tiles, a clipped last work item and
block counts from 1 to every work item."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import oxide.tile
from oxide.runtime.module import load

FIXTURE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "tile" / "persistent_gemm.oxide.json"
RNG = np.random.default_rng(1919)


@pytest.mark.parametrize("m, n, k, blocks", [(256, 256, 128, 4), (200, 150, 96, 1), (200, 150, 96, 6),
                                             (1000, 700, 256, 33), (1000, 700, 256, 88)])
def test_persistent_gemm_matches_numpy(cuda, m, n, k, blocks):
    module = load(FIXTURE, target="gpu")
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    c = np.full((m, n), np.nan, np.float32)
    module.gemm_persistent(oxide.tile.partition(c, (64, 64)).map((2, 1), blocks), a, b)
    # f32 mma multiplies at tf32 precision; a NaN left means a tile was never written.
    np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=1e-2, atol=2e-3 * np.sqrt(k))
