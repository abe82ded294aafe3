"""The Triton peers of the tile examples: the same algorithm, one Triton program per tile block, written for
this benchmark (vector add, row softmax, layernorm and rmsnorm forward, GEMM with bf16 inputs and f32
accumulation). Each `run_*` launches on torch tensors and returns the output."""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl


@triton.jit
def _vecadd(x, y, z, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(z + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)


@triton.jit
def _softmax(x, y, cols, stride, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    cs = tl.arange(0, BN)[None, :]
    mask = cs < cols
    v = tl.load(x + rows * stride + cs, mask=mask, other=-float("inf"))
    e = tl.exp(v - tl.max(v, axis=1)[:, None])
    tl.store(y + rows * stride + cs, e / tl.sum(e, axis=1)[:, None], mask=mask)


@triton.jit
def _layernorm(x, w, b, y, cols, stride, eps, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    cs = tl.arange(0, BN)[None, :]
    mask = cs < cols
    v = tl.load(x + rows * stride + cs, mask=mask, other=0.0)
    mean = tl.sum(v, axis=1)[:, None] / cols
    d = tl.where(mask, v - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=1)[:, None] / cols + eps)
    out = d * rstd * tl.load(w + cs, mask=mask) + tl.load(b + cs, mask=mask)
    tl.store(y + rows * stride + cs, out, mask=mask)


@triton.jit
def _rmsnorm(x, w, y, cols, stride, eps, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    cs = tl.arange(0, BN)[None, :]
    mask = cs < cols
    v = tl.load(x + rows * stride + cs, mask=mask, other=0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(v * v, axis=1)[:, None] / cols + eps)
    tl.store(y + rows * stride + cs, v * rstd * tl.load(w + cs, mask=mask), mask=mask)


@triton.jit
def _gemm(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        ta = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        tb = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(ta, tb, acc)
    tl.store(c + rm[:, None] * N + rn[None, :], acc)


def run_vecadd(x: Any, y: Any, z: Any, block: int) -> None:
    _vecadd[(triton.cdiv(x.numel(), block),)](x, y, z, x.numel(), BLOCK=block)


def run_softmax(x: Any, y: Any, bm: int) -> None:
    rows, cols = x.shape
    _softmax[(rows // bm,)](x, y, cols, x.stride(0), BM=bm, BN=triton.next_power_of_2(cols))


def run_layernorm(x: Any, w: Any, b: Any, y: Any, eps: float, bm: int) -> None:
    rows, cols = x.shape
    _layernorm[(rows // bm,)](x, w, b, y, cols, x.stride(0), eps, BM=bm, BN=triton.next_power_of_2(cols))


def run_rmsnorm(x: Any, w: Any, y: Any, eps: float, bm: int) -> None:
    rows, cols = x.shape
    _rmsnorm[(rows // bm,)](x, w, y, cols, x.stride(0), eps, BM=bm, BN=triton.next_power_of_2(cols))


def run_gemm(a: Any, b: Any, c: Any, bm: int, bn: int, bk: int) -> None:
    m, k = a.shape
    n = b.shape[1]
    _gemm[(m // bm, n // bn)](a, b, c, m, n, k, BM=bm, BN=bn, BK=bk, num_warps=4, num_stages=3)




@triton.jit
def _gemm_tuned(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    # Grouped program order (GROUP tile rows per column of tiles) and masked edges: the general GEMM a user of
    # Triton writes, so that odd shapes run too.
    pid = tl.program_id(0)
    rows, cols = tl.cdiv(M, BM), tl.cdiv(N, BN)
    first = pid // (GROUP * cols) * GROUP
    height = min(rows - first, GROUP)
    pm = first + (pid % (GROUP * cols)) % height
    pn = (pid % (GROUP * cols)) // height
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kk = k * BK + rk
        ta = tl.load(a + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        tb = tl.load(b + kk[:, None] * N + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(ta, tb, acc)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(c.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


# (BM, BN, BK, warps, stages): Triton's usual Hopper GEMM configurations.
GEMM_CONFIGS = [(128, 256, 64, 8, 3), (128, 128, 64, 4, 4), (256, 128, 64, 8, 3), (128, 256, 32, 8, 4),
                (128, 128, 64, 8, 3)]


def gemm_config(a: Any, b: Any, c: Any, config: tuple[int, int, int, int, int]) -> Any:
    """A launcher of the masked, grouped Triton GEMM c = a @ b with one configuration."""
    m, k = a.shape
    n = b.shape[1]
    bm, bn, bk, warps, stages = config
    grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
    return lambda: _gemm_tuned[grid](a, b, c, m, n, k, BM=bm, BN=bn, BK=bk, GROUP=8, num_warps=warps,
                                     num_stages=stages)
