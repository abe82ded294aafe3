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


@pytest.mark.parametrize("d", [64, 128])
@pytest.mark.parametrize("causal", [False, True])
def test_sm90a_attention_bn128_matches_sdpa(torch, causal, d):
    """BN = 128: 128-key blocks through the TMA ring (docs/tile-attention.md, "K and V by TMA"; three stages at
    D = 128, four at D = 64), with partial query and key blocks."""
    module = load(_folder("sm_90a") / "attention.oxide.json", target="gpu")
    kernel = getattr(module, f"attention{'_causal' if causal else ''}_128_128_{d}")
    q, k, v = (torch.randn(2, 3, 700, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    out = torch.zeros(6, 700, d, device="cuda", dtype=torch.bfloat16)
    kernel(oxide.tile.partition(out, (1, 128, d)), q, k, v, math.log2(math.e) / math.sqrt(d))
    expected = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal)
    torch.cuda.synchronize()
    torch.testing.assert_close(out.view(2, 3, 700, d).float(), expected, rtol=TOLERANCE, atol=TOLERANCE)


@pytest.mark.parametrize("s", [64, 128, 192, 130, 600])
@pytest.mark.parametrize("bn", [64, 128])
@pytest.mark.parametrize("causal", [False, True])
def test_sm90a_pipelined_attention_over_few_key_blocks(torch, causal, bn, s):
    """The software-pipelined loop (docs/tile-attention.md, "The pipelined step") over one, two, three and more
    key blocks: step 0's values MMAs add nothing, the last step's run after the loop, and the ring's refills (two
    steps late) start only at the third step."""
    module = load(_folder("sm_90a") / "attention.oxide.json", target="gpu")
    kernel = getattr(module, f"attention{'_causal' if causal else ''}_128_{bn}_128")
    q, k, v = (torch.randn(2, 3, s, 128, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    out = torch.zeros(6, s, 128, device="cuda", dtype=torch.bfloat16)
    kernel(oxide.tile.partition(out, (1, 128, 128)), q, k, v, math.log2(math.e) / math.sqrt(128))
    expected = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal)
    torch.cuda.synchronize()
    torch.testing.assert_close(out.view(2, 3, s, 128).float(), expected, rtol=TOLERANCE, atol=TOLERANCE)


def test_sm90a_attention_reads_strided_heads_through_its_maps(torch):
    """q, k, v as [B, S, H, D] memory viewed as [B, H, S, D] (strided, innermost contiguous): the 4-D tensor maps
    take the strides as they are."""
    module = load(_folder("sm_90a") / "attention.oxide.json", target="gpu")
    q, k, v = (torch.randn(2, 333, 4, 64, device="cuda", dtype=torch.bfloat16).transpose(1, 2) for _ in range(3))
    out = torch.zeros(8, 333, 64, device="cuda", dtype=torch.bfloat16)
    module.attention_128_64_64(oxide.tile.partition(out, (1, 128, 64)), q, k, v, math.log2(math.e) / 8)
    expected = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float())
    torch.cuda.synchronize()
    torch.testing.assert_close(out.view(2, 4, 333, 64).float(), expected, rtol=TOLERANCE, atol=TOLERANCE)


def test_sm90a_attention_stages_a_tensor_tma_cannot_map(torch, monkeypatch):
    """Rows 130 bytes apart (a column slice of a 65-wide tensor) break TMA's 16-byte stride rule: the launch copies
    q into a buffer of 128-byte rows for the kernel (runtime/staging.py) and matches SDPA; with staging off it
    says so, naming the parameter, instead of reading wrong data."""
    from oxide.runtime import KernelArgumentError

    module = load(_folder("sm_90a") / "attention.oxide.json", target="gpu")
    wide = torch.randn(1, 2, 256, 65, device="cuda", dtype=torch.bfloat16)
    q = wide[..., :64]
    k, v = (torch.randn(1, 2, 256, 64, device="cuda", dtype=torch.bfloat16) for _ in range(2))
    out = torch.zeros(2, 256, 64, device="cuda", dtype=torch.bfloat16)
    module.attention_128_64_64(oxide.tile.partition(out, (1, 128, 64)), q, k, v, math.log2(math.e) / 8)
    expected = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float())
    torch.cuda.synchronize()
    torch.testing.assert_close(out.view(1, 2, 256, 64).float(), expected, rtol=TOLERANCE, atol=TOLERANCE)
    monkeypatch.setenv("OXIDE_STAGE_OPERANDS", "0")
    fresh = load(_folder("sm_90a") / "attention.oxide.json", target="gpu")  # a binding not made yet
    with pytest.raises(KernelArgumentError, match=r"argument `q: .*through TMA.*16"):
        fresh.attention_128_64_64(oxide.tile.partition(out, (1, 128, 64)), q, k, v, 0.18)


