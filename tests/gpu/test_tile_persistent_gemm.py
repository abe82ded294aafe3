"""The persistent GEMM on a mapped output (examples/tile/persistent_gemm_mixed.rs) compiled for sm_90a
(tests/fixtures/tile_sm90a/persistent_gemm_mixed.*: the kernel's iter_indices walk on the TMA + wgmma pipeline;
docs/tile-hopper.md, "Persistent GEMM on a mapped output") against torch on the GPU: bf16 in, bf16 and f32 out,
edge tiles, more tiles than blocks, clipped work items, a B read K-major, and the mma.sync sibling for rows TMA
cannot read."""

from __future__ import annotations

from pathlib import Path

import pytest

import oxide.tile
from oxide.runtime.module import load

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tile_sm90a"
# (M, N, K, blocks): one tile; edges on every dimension; more tiles than blocks; the benchmark's sizes.
SIZES = [(128, 256, 64, 1), (300, 264, 104, 2), (1000, 1000, 520, 7), (4096, 4096, 4096, 132),
         (8192, 8192, 8192, 132)]


@pytest.fixture(scope="module")
def torch(hopper_torch):
    return hopper_torch


@pytest.fixture(scope="module")
def module(torch):
    return load(FIXTURES / "persistent_gemm_mixed.oxide.json", target="gpu")


def _check(torch, c, a, b, k: int, out: str) -> None:
    torch.cuda.synchronize()
    expected = a.double() @ b.double()
    rtol = 2 ** -7 if out == "bf16" else 1e-3
    torch.testing.assert_close(c.double(), expected, rtol=rtol, atol=rtol * k ** 0.5)


def _operands(torch, m: int, n: int, k: int, out: str):
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16 if out == "bf16" else torch.float32)
    return a, b, c


def _blocks(part, blocks: int) -> int:
    """At most one block per work item (items of one tile)."""
    return min(blocks, part.grid[0] * part.grid[1])


@pytest.mark.parametrize("out", ["bf16", "f32"])
@pytest.mark.parametrize("m, n, k, blocks", SIZES)
def test_persistent_gemm_mixed_matches_torch(torch, module, m, n, k, blocks, out):
    a, b, c = _operands(torch, m, n, k, out)
    part = oxide.tile.partition(c, (128, 256))
    getattr(module, f"gemm_persistent_mixed_bf16_{out}_128_256_64_1x1")(part.map((1, 1), _blocks(part, blocks)), a, b)
    _check(torch, c, a, b, k, out)


@pytest.mark.parametrize("m, n, k, blocks", [(300, 264, 104, 2), (1000, 1000, 520, 7)])
def test_persistent_gemm_mixed_clipped_items_of_two_tiles(torch, module, m, n, k, blocks):
    a, b, c = _operands(torch, m, n, k, "bf16")
    part = oxide.tile.partition(c, (128, 128))
    module.gemm_persistent_mixed_bf16_bf16_128_128_64_2x1(part.map((2, 1), blocks), a, b)
    _check(torch, c, a, b, k, "bf16")


def test_persistent_gemm_mixed_reads_a_transposed_b_kmajor(torch, module):
    m, n, k = 1000, 1000, 520
    a, _, c = _operands(torch, m, n, k, "f32")
    b = torch.randn(n, k, device="cuda").to(torch.bfloat16).t()  # K innermost: the `$kmajor_b` entry
    part = oxide.tile.partition(c, (128, 256))
    module.gemm_persistent_mixed_bf16_f32_128_256_64_1x1(part.map((1, 1), 9), a, b)
    _check(torch, c, a, b, k, "f32")


def test_persistent_gemm_mixed_falls_back_for_rows_tma_cannot_read(torch, module):
    m, n, k = 300, 263, 101  # rows of 202 and 526 bytes: the mma.sync sibling of the 128 x 128 instance
    a, b, c = _operands(torch, m, n, k, "bf16")
    part = oxide.tile.partition(c, (128, 128))
    module.gemm_persistent_mixed_bf16_bf16_128_128_64_2x1(part.map((2, 1), 3), a, b)
    _check(torch, c, a, b, k, "bf16")
