"""The batched tile GEMM (examples/tile/batch_matmul.rs) compiled for sm_90a (tests/fixtures/tile_sm90a/
batch_matmul.*: rank-3 tensor maps, the persistent walk over batch x tile rows x tile columns; docs/tile-hopper.md,
"Batched GEMM") against torch.bmm on the GPU: bf16 in, bf16 and f32 out, edge tiles on every dimension, a B read
K-major (a transposed view), strided batches, and the mma.sync sibling for rows TMA cannot read."""

from __future__ import annotations

from pathlib import Path

import pytest

import oxide.tile
from oxide.runtime.module import load

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tile_sm90a"
SIZES = [(1, 128, 256, 64), (3, 300, 264, 104), (5, 200, 1000, 520), (16, 1024, 1024, 1024), (8, 2048, 2048, 2048),
         (2, 4095, 4096, 4096)]


@pytest.fixture(scope="module")
def torch(hopper_torch):
    return hopper_torch


@pytest.fixture(scope="module")
def module(torch):
    return load(FIXTURES / "batch_matmul.oxide.json", target="gpu")


def _check(torch, c, a, b, k: int, out: str) -> None:
    torch.cuda.synchronize()
    expected = torch.bmm(a.double(), b.double())
    rtol = 2 ** -7 if out == "bf16" else 1e-3
    torch.testing.assert_close(c.double(), expected, rtol=rtol, atol=rtol * k ** 0.5)


def _output(torch, batch: int, m: int, n: int, out: str):
    return torch.full((batch, m, n), float("nan"), device="cuda",
                      dtype=torch.bfloat16 if out == "bf16" else torch.float32)


@pytest.mark.parametrize("out", ["bf16", "f32"])
@pytest.mark.parametrize("batch, m, n, k", SIZES)
def test_batch_matmul_matches_torch_bmm(torch, module, batch, m, n, k, out):
    a = torch.randn(batch, m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(batch, k, n, device="cuda").to(torch.bfloat16)
    c = _output(torch, batch, m, n, out)
    getattr(module, f"batch_matmul_bf16_{out}_128_256_64")(oxide.tile.partition(c, (1, 128, 256)), a, b)
    _check(torch, c, a, b, k, out)


@pytest.mark.parametrize("batch, m, n, k", [(3, 300, 264, 104), (16, 1024, 1024, 1024)])
def test_batch_matmul_reads_a_transposed_b_kmajor(torch, module, batch, m, n, k):
    # b = bt.transpose(1, 2): K innermost, the `$kmajor_b` entry (its map swaps the last two dimensions).
    a = torch.randn(batch, m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(batch, n, k, device="cuda").to(torch.bfloat16).transpose(1, 2)
    c = _output(torch, batch, m, n, "bf16")
    module.batch_matmul_bf16_bf16_128_256_64(oxide.tile.partition(c, (1, 128, 256)), a, b)
    _check(torch, c, a, b, k, "bf16")


def test_batch_matmul_reads_strided_batches(torch, module):
    # Every other batch of larger tensors: batch strides of two matrices (TMA takes any 16-byte multiple).
    a = torch.randn(8, 256, 192, device="cuda").to(torch.bfloat16)[::2]
    b = torch.randn(8, 192, 384, device="cuda").to(torch.bfloat16)[::2]
    c = _output(torch, 4, 256, 384, "f32")
    module.batch_matmul_bf16_f32_128_256_64(oxide.tile.partition(c, (1, 128, 256)), a, b)
    _check(torch, c, a, b, 192, "f32")


@pytest.mark.parametrize("batch, m, n, k", [(3, 300, 256, 100), (2, 129, 70, 70)])
def test_batch_matmul_falls_back_for_rows_tma_cannot_read(torch, module, batch, m, n, k):
    # Rows of K or N bf16 elements that are not a multiple of 16 bytes: the 128 x 128 instance's mma.sync sibling.
    a = torch.randn(batch, m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(batch, k, n, device="cuda").to(torch.bfloat16)
    c = _output(torch, batch, m, n, "bf16")
    module.batch_matmul_bf16_bf16_128_128_64(oxide.tile.partition(c, (1, 128, 128)), a, b)
    _check(torch, c, a, b, k, "bf16")
