"""examples/tile/attention.rs (the artifact in tests/fixtures/tile/) on the emulator matches a float64
reference within the bf16 tolerance, non-causal and causal, D = 64 and 128, with a partial last key block
(the masks) and a partial query block (masked stores); tests/gpu/test_tile_attention.py runs it on the GPU."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import oxide.tile
from oxide.runtime.module import load

ROOT = Path(__file__).resolve().parents[5]
sys.path.insert(0, str(ROOT / "examples" / "tile"))

from attention import bf16, reference  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "tile" / "attention.oxide.json"


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("d", [64, 128])
def test_attention_matches_the_reference(causal, d):
    rng = np.random.default_rng(d + causal)
    s = 150  # one full and one partial 128-row query block; two full and one partial 64-key block
    (qb, q), (kb, k), (vb, v) = (bf16(rng, (1, 1, s, d)) for _ in range(3))
    out = np.full((1, s, d), 0x7FC0, np.uint16)  # NaN where nothing is written
    kernel = getattr(load(FIXTURE, target="cpu"), f"attention{'_causal' if causal else ''}_128_64_{d}")
    kernel(oxide.tile.partition(out, (1, 128, d)), qb, kb, vb, np.float32(np.log2(np.e) / np.sqrt(d)))
    got = (out.astype(np.uint32) << 16).view(np.float32).reshape(1, 1, s, d)
    np.testing.assert_allclose(got, reference(q, k, v, causal), rtol=2e-2, atol=2e-2)


def test_the_tolerance_catches_a_missing_mask():
    """The causal reference differs from the non-causal one by far more than the tolerance: the test above
    would see a mask that does nothing."""
    rng = np.random.default_rng(0)
    (_, q), (_, k), (_, v) = (bf16(rng, (1, 1, 150, 64)) for _ in range(3))
    assert np.abs(reference(q, k, v, True) - reference(q, k, v, False)).max() > 0.2
