"""examples/tile/attention.rs on the GPU (the artifacts in tests/fixtures/tile/ for sm_90 and tile_sm90a/ for
sm_90a, whose blocks use more than 48 KiB of shared memory: the runtime raises each function's limit at load)
against torch's scaled_dot_product_attention, non-causal and causal, bf16, D = 64 and 128, with sequence lengths
that leave partial blocks; and against the emulator running the same artifact on a small shape."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import oxide.tile
from oxide.runtime.module import load

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# bf16 output of an f32 softmax-weighted sum (docs/tile-attention.md, "Accuracy").
TOLERANCE = 2e-2


@pytest.fixture(scope="module")
def torch(cuda):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA")
    return torch


def _folder(chip: str) -> Path:
    return FIXTURES / ("tile" if chip == "sm_90" else "tile_sm90a")


@pytest.mark.parametrize("chip", ["sm_90", "sm_90a"])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("d, bn", [(64, 64), (128, 64)])
@pytest.mark.parametrize("b, h, s", [(1, 2, 256), (2, 3, 1000), (4, 32, 4096)])
def test_attention_matches_sdpa(torch, chip, causal, d, bn, b, h, s):
    module = load(_folder(chip) / "attention.oxide.json", target="gpu")
    kernel = getattr(module, f"attention{'_causal' if causal else ''}_128_{bn}_{d}")
    q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    out = torch.zeros(b * h, s, d, device="cuda", dtype=torch.bfloat16)
    kernel(oxide.tile.partition(out, (1, 128, d)), q, k, v, math.log2(math.e) / math.sqrt(d))
    expected = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal)
    torch.cuda.synchronize()
    torch.testing.assert_close(out.view(b, h, s, d).float(), expected, rtol=TOLERANCE, atol=TOLERANCE)


@pytest.mark.parametrize("chip", ["sm_90", "sm_90a"])
def test_attention_gpu_equals_emulator(cuda, chip):
    rng = np.random.default_rng(19)
    q, k, v = ((rng.standard_normal((1, 2, 200, 64), dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)
               for _ in range(3))
    got = {}
    for target in ("gpu", "cpu"):
        module = load(_folder(chip) / "attention.oxide.json", target=target)
        out = np.zeros((2, 200, 64), np.uint16)
        module.attention_causal_128_64_64(oxide.tile.partition(out, (1, 128, 64)), q, k, v, 0.18)
        got[target] = (out.astype(np.uint32) << 16).view(np.float32)
    # Sums in another order round differently to bf16 (one ulp: 2^-8 relative).
    np.testing.assert_allclose(got["gpu"], got["cpu"], rtol=1e-2, atol=1e-2)
