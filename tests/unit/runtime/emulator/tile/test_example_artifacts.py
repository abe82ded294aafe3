"""Every tile example (examples/tile/*.rs, as the artifacts in tests/fixtures/tile/) runs on the emulator and
matches numpy, with edge tiles in every dimension. The GPU runs the same artifacts in
tests/gpu/test_tile_examples.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import oxide.tile
from oxide.runtime.errors import KernelArgumentError
from oxide.runtime.module import load

FIXTURES = Path(__file__).resolve().parents[4] / "fixtures" / "tile"
RNG = np.random.default_rng(11)


def _module(stem: str):
    return load(FIXTURES / f"{stem}.oxide.json", target="cpu")


@pytest.mark.parametrize("n", [1, 1024, 3000])
def test_vecadd(n):
    x, y = RNG.standard_normal(n).astype(np.float32), RNG.standard_normal(n).astype(np.float32)
    z = np.full(n, 9.0, np.float32)
    _module("vecadd").add(oxide.tile.partition(z, (1024,)), x, y)
    np.testing.assert_array_equal(z, x + y)


def _rows(rows: int, cols: int) -> np.ndarray:
    return (RNG.standard_normal((rows, cols)) * 3 + 1).astype(np.float32)


@pytest.mark.parametrize("rows, cols", [(4, 1024), (9, 700), (1, 1)])
def test_softmax(rows, cols):
    x = _rows(rows, cols)
    y = np.zeros_like(x)
    _module("softmax").softmax(oxide.tile.partition(y, (4, 1024)), x)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("rows, cols", [(4, 1024), (9, 700)])
def test_layernorm(rows, cols):
    x = _rows(rows, cols)
    w, b = RNG.standard_normal(cols).astype(np.float32), RNG.standard_normal(cols).astype(np.float32)
    y = np.zeros_like(x)
    _module("layernorm").layernorm(oxide.tile.partition(y, (4, 1024)), x, w, b, 1e-5)
    x64 = x.astype(np.float64)
    centered = x64 - x64.mean(axis=1, keepdims=True)
    expected = centered / np.sqrt((centered ** 2).mean(axis=1, keepdims=True) + 1e-5) * w + b
    np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("rows, cols", [(4, 1024), (9, 700)])
def test_rmsnorm(rows, cols):
    x = _rows(rows, cols)
    w = RNG.standard_normal(cols).astype(np.float32)
    y = np.zeros_like(x)
    _module("rmsnorm").rmsnorm(oxide.tile.partition(y, (4, 1024)), x, w, 1e-6)
    x64 = x.astype(np.float64)
    expected = x64 / np.sqrt((x64 ** 2).mean(axis=1, keepdims=True) + 1e-6) * w
    np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-5)


def _bf16(shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    bits = (RNG.standard_normal(shape).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return bits, (bits.astype(np.uint32) << 16).view(np.float32)


@pytest.mark.parametrize("m, n, k", [(128, 128, 32), (130, 260, 70)])
def test_gemm(m, n, k):
    (ab, a), (bb, b) = _bf16((m, k)), _bf16((k, n))
    c = np.zeros((m, n), np.float32)
    _module("gemm").gemm(oxide.tile.partition(c, (128, 128)), ab, bb)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("n", [1, 256, 5000])
def test_histogram_with_pointer_tile_atomics(n):
    x = RNG.integers(0, 64, n).astype(np.int32)
    counts = np.zeros(64, np.int32)
    _module("histogram").histogram[(n + 255) // 256](counts, x, n)
    np.testing.assert_array_equal(counts, np.bincount(x, minlength=64))


def test_wrong_partition_tile_shape_is_refused():
    z = np.zeros(100, np.float32)
    with pytest.raises(KernelArgumentError, match=r"writes tiles of shape \(1024,\), but the partition has tile shape \(512,\)"):
        _module("vecadd").add(oxide.tile.partition(z, (512,)), z.copy(), z.copy())


def test_prepared_launch_repeats_on_the_same_arrays():
    x, y = RNG.standard_normal(3000).astype(np.float32), RNG.standard_normal(3000).astype(np.float32)
    z = np.zeros(3000, np.float32)
    launch = _module("vecadd").add.prepare(oxide.tile.partition(z, (1024,)), x, y)
    launch()
    np.testing.assert_array_equal(z, x + y)
    x += 1.0
    launch()
    np.testing.assert_array_equal(z, x + y)


def test_prepare_checks_once_like_a_launch():
    z = np.zeros(100, np.float32)
    with pytest.raises(KernelArgumentError, match="writes tiles of shape"):
        _module("vecadd").add.prepare(oxide.tile.partition(z, (512,)), z.copy(), z.copy())
    counts = np.zeros(64, np.int32)
    with pytest.raises(KernelArgumentError, match="no output partition"):
        _module("histogram").histogram.prepare(counts, np.zeros(10, np.int32), 10)
    launch = _module("histogram").histogram.prepare(counts, np.zeros(10, np.int32), 10, grid=1)
    launch()
    assert counts[0] == 10
