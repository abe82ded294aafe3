"""Staged operands on the GPU (oxide/runtime/staging.py): sm_90a GEMMs whose rows TMA cannot read (B, C or A
rows that are not a multiple of 16 bytes) run their TMA entry on padded copies, against torch; the same launches
with staging off take the mma.sync sibling. Row-major and K-major B, bf16 and f32 outputs, batched GEMM (rank-3
tensors whose rows are staged as one region), stream-ordered relaunches, an output the copy back must not
disturb outside the kernel's tiles (a column slice of a wider array), and a staged launch replayed from a CUDA
graph."""

from __future__ import annotations

from pathlib import Path

import pytest

import oxide.tile
from oxide.runtime.errors import KernelArgumentError
from oxide.runtime.module import load
from oxide.runtime.stream import Stream

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tile_sm90a"


@pytest.fixture(scope="module")
def torch(hopper_torch):
    return hopper_torch


@pytest.fixture(scope="module")
def gemm(torch):
    return load(FIXTURES / "gemm_precisions.oxide.json", target="gpu")


@pytest.fixture(params=["on", "off"])
def staging(request, monkeypatch):
    if request.param == "off":
        monkeypatch.setenv("OXIDE_STAGE_OPERANDS", "0")
    return request.param


def _check(torch, c, expected, k: int) -> None:
    torch.cuda.synchronize()
    torch.testing.assert_close(c.double(), expected, rtol=2e-2, atol=2e-2 * k ** 0.5)


@pytest.mark.parametrize("instance, out", [("gemm_bf16_bf16_128_128_64", "bf16"), ("gemm_bf16_f32_128_128_64", "f32"),
                                           ("gemm_bf16_bf16_128_256_64", "bf16")])
@pytest.mark.parametrize("m, n, k", [(300, 101, 256), (257, 129, 100), (1000, 1001, 520), (4095, 4097, 4096)])
def test_gemm_on_rows_tma_cannot_read(torch, gemm, staging, instance, out, m, n, k):
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16 if out == "bf16" else torch.float32)
    kernel = getattr(gemm, instance)
    tile = (128, 256) if instance.endswith("256_64") else (128, 128)
    if staging == "off" and tile == (128, 256):  # beyond the mma.sync path's staging: no sibling to fall back to
        with pytest.raises(KernelArgumentError, match="OXIDE_STAGE_OPERANDS"):
            kernel.prepare(oxide.tile.partition(c, tile), a, b)
        return
    launch = kernel.prepare(oxide.tile.partition(c, tile), a, b)
    assert launch.bound.variant["entry"].endswith("$mma_sync") == (staging == "off")
    assert bool(launch.bound.staged) == (staging == "on")
    launch()
    _check(torch, c, a.double() @ b.double(), k)


def test_a_kmajor_b_with_odd_rows_is_staged_in_its_own_order(torch, gemm, staging):
    m, n, k = 384, 200, 1001  # B^T's rows: 1001 bf16
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    bt = torch.randn(n, k, device="cuda").to(torch.bfloat16)
    c = torch.full((m, n), float("nan"), device="cuda")
    gemm.gemm_bf16_f32_128_128_64(oxide.tile.partition(c, (128, 128)), a, bt.t())
    _check(torch, c, a.double() @ bt.t().double(), k)


def test_the_copy_back_leaves_the_rest_of_a_wider_output_alone(torch, gemm, staging):
    m, n, k = 260, 100, 128
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
    wide = torch.full((m, n + 3), 7.0, device="cuda")
    c = wide[:, 1:n + 1]  # rows of 100 f32 at a pitch of 103: staged as rows, copied back between the columns
    gemm.gemm_bf16_f32_128_128_64(oxide.tile.partition(c, (128, 128)), a, b)
    _check(torch, c, a.double() @ b.double(), k)
    assert bool((wide[:, 0] == 7).all()) and bool((wide[:, n + 1:] == 7).all())


def test_stream_ordered_relaunches_stage_every_launch(torch, gemm, staging):
    m, n, k = 513, 301, 264
    stream = Stream(gemm.device)
    part_grid = None
    results = []
    for seed in range(3):
        torch.manual_seed(seed)
        a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
        b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
        c = torch.full((m, n), float("nan"), device="cuda")
        part = oxide.tile.partition(c, (128, 128))
        part_grid = part.grid
        torch.cuda.synchronize()
        gemm.gemm_bf16_f32_128_128_64[part_grid, stream](part, a, b)
        results.append((a, b, c))
    stream.synchronize()
    for a, b, c in results:
        _check(torch, c, a.double() @ b.double(), k)
    stream.close()


def test_batched_gemm_stages_its_rank_3_rows(torch, staging):
    module = load(FIXTURES / "batch_matmul.oxide.json", target="gpu")
    batch, m, n, k = 3, 300, 250, 100
    a = torch.randn(batch, m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(batch, k, n, device="cuda").to(torch.bfloat16)
    c = torch.full((batch, m, n), float("nan"), device="cuda").to(torch.bfloat16)
    module.batch_matmul_bf16_bf16_128_128_64(oxide.tile.partition(c, (1, 128, 128)), a, b)
    _check(torch, c, a.double() @ b.double(), k)


def test_a_staged_launch_replays_from_a_graph(torch, gemm, staging):
    """Captured, a staged launch's allocations, copies and frees are nodes of the graph beside the kernel, so each
    replay stages the operands' current contents."""
    from oxide.runtime import Graph

    m, n, k = 300, 101, 256
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
    c = torch.full((m, n), float("nan"), device="cuda")
    stream = Stream(gemm.device)
    part = oxide.tile.partition(c, (128, 128))
    torch.cuda.synchronize()
    with Graph.capture(stream) as graph:
        gemm.gemm_bf16_f32_128_128_64[part.grid, stream](part, a, b)
    for seed in range(3):
        torch.manual_seed(seed)
        a.copy_(torch.randn(m, k, device="cuda").to(torch.bfloat16))
        b.copy_(torch.randn(k, n, device="cuda").to(torch.bfloat16))
        c.fill_(float("nan"))
        torch.cuda.synchronize()
        graph.launch(stream)
        stream.synchronize()
        _check(torch, c, a.double() @ b.double(), k)
    graph.close()
    stream.close()
