"""The sm_90a tile GEMM built with thread-block clusters (knob cluster: docs/tile-hopper.md, "Clusters"; the
artifacts in tests/fixtures/tile_sm90a_cluster_<shape>/) against torch on the GPU: 2x1 (two blocks of a tile
column share B by TMA multicast) and 1x2 (two of a tile row share A), at sizes whose tile grid is not a whole
number of cluster tiles (blocks with no tile of their own keep the shared pipeline going), with the N-major and
the K-major B entries, and the mma.sync sibling (which takes no cluster) for rows TMA cannot read."""

from __future__ import annotations

from pathlib import Path

import pytest

import oxide.tile
from oxide.runtime.module import load

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SIZES = [(128, 128, 64), (300, 264, 104), (200, 1000, 520), (1024, 1024, 1024), (4096, 4096, 4096),
         (4095, 4096, 4096), (8192, 8192, 512), (16384, 128, 4096)]


@pytest.fixture(scope="module")
def torch(hopper_torch):
    return hopper_torch


def _module(shape: str):
    return load(FIXTURES / f"tile_sm90a_cluster_{shape}" / "gemm.oxide.json", target="gpu")


def _check(torch, c, expected, k: int) -> None:
    torch.cuda.synchronize()
    torch.testing.assert_close(c.double(), expected, rtol=1e-3, atol=1e-3 * k ** 0.5)


@pytest.mark.parametrize("shape, instance, tile", [("2x1", "gemm_128_256_64", (128, 256)),
                                                   ("2x1", "gemm_128_128_64", (128, 128)),
                                                   ("1x2", "gemm_128_128_64", (128, 128))])
@pytest.mark.parametrize("m, n, k", SIZES)
def test_clustered_gemm_matches_torch(torch, shape, instance, tile, m, n, k):
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
    c = torch.full((m, n), float("nan"), device="cuda")
    getattr(_module(shape), instance)(oxide.tile.partition(c, tile), a, b)
    _check(torch, c, a.double() @ b.double(), k)


@pytest.mark.parametrize("shape", ["2x1", "1x2"])
@pytest.mark.parametrize("m, n, k", [(300, 264, 104), (4096, 4096, 4096)])
def test_clustered_gemm_reads_a_transposed_b_kmajor(torch, shape, m, n, k):
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    bt = torch.randn(n, k, device="cuda").to(torch.bfloat16)
    c = torch.full((m, n), float("nan"), device="cuda")
    _module(shape).gemm_128_128_64(oxide.tile.partition(c, (128, 128)), a, bt.t())
    _check(torch, c, a.double() @ bt.t().double(), k)


@pytest.mark.parametrize("shape", ["2x1", "1x2"])
def test_clustered_gemm_falls_back_for_rows_tma_cannot_read(torch, shape):
    m, n, k = 300, 100, 256  # rows of 100 bf16 (200 bytes): the mma.sync sibling, launched without a cluster
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
    c = torch.full((m, n), float("nan"), device="cuda")
    _module(shape).gemm_128_128_64(oxide.tile.partition(c, (128, 128)), a, b)
    _check(torch, c, a.double() @ b.double(), k)


def test_repeated_clustered_launches_stay_correct(torch):
    # Many launches of one prepared configuration: the persistent clusters' barriers start clean every time.
    m = n = k = 2048
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
    c = torch.full((m, n), float("nan"), device="cuda")
    launch = _module("2x1").gemm_128_256_64.prepare(oxide.tile.partition(c, (128, 256)), a, b)
    for _ in range(50):
        launch()
    _check(torch, c, a.double() @ b.double(), k)
