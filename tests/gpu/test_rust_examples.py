"""The Rust examples (examples/rust/*.rs), compiled by oxide's frontend, run on the GPU and compared with
numpy. Fixtures: tests/fixtures/rust_<example>.ptx (tests/fixtures/sources.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tests.gpu.harness import DeviceArray, launch, load

RNG = np.random.default_rng(2026)


def run(cuda, example, entry, grid, block, args, shared_bytes=0):
    launch(cuda, load(cuda, f"rust_{example}.ptx", entry), grid, block, args, shared_bytes)


def dev(cuda, array):
    return DeviceArray(cuda, array)


@pytest.mark.parametrize("n", [1, 1000, 1 << 20])
def test_vecadd(cuda, n):
    a, b = (dev(cuda, RNG.standard_normal(n).astype(np.float32)) for _ in range(2))
    c = dev(cuda, np.zeros(n, np.float32))
    run(cuda, "vecadd", "vecadd", [(n + 255) // 256], [256], [a, n, b, n, c, n])
    np.testing.assert_array_equal(c.get(), a.host + b.host)


def test_saxpy_with_helper(cuda):
    n = 5000
    x, y = (dev(cuda, RNG.standard_normal(n).astype(np.float32)) for _ in range(2))
    out = dev(cuda, np.zeros(n, np.float32))
    run(cuda, "saxpy", "saxpy", [(n + 127) // 128], [128], [np.float32(2.5), x, n, y, n, out, n])
    expected = (np.float64(2.5) * x.host + y.host).astype(np.float32)  # fma: one rounding
    np.testing.assert_allclose(out.get(), expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("dtype, entry", [(np.float32, "scale_f32"), (np.float64, "scale_f64"), (np.int32, "scale_i32")])
def test_generic_scale(cuda, dtype, entry):
    n = 3000
    x = dev(cuda, (RNG.standard_normal(n) * 100).astype(dtype))
    out = dev(cuda, np.zeros(n, dtype))
    factor = dtype(3)
    run(cuda, "scale_generic", entry, [(n + 255) // 256], [256], [x, n, factor, out, n])
    np.testing.assert_array_equal(out.get(), x.host * factor)


@pytest.mark.parametrize("example", ["sgemm_naive", "sgemm_tiled"])
def test_sgemm(cuda, example):
    m, k, n = 96, 80, 64
    a = dev(cuda, RNG.standard_normal((m, k)).astype(np.float32))
    b = dev(cuda, RNG.standard_normal((k, n)).astype(np.float32))
    c = dev(cuda, np.zeros((m, n), np.float32))
    run(cuda, example, f"{example}_64", [n // 16, m // 16], [16, 16], [a, m * k, b, k * n, k, c, m * n])
    np.testing.assert_allclose(c.get(), a.host @ b.host, rtol=1e-4, atol=1e-4)


def test_block_reduction(cuda):
    n = 256 * 40 + 17
    x = dev(cuda, RNG.standard_normal(n).astype(np.float32))
    blocks = (n + 255) // 256
    out = dev(cuda, np.zeros(blocks, np.float32))
    run(cuda, "block_reduce", "block_sum", [blocks], [256], [x, n, out, blocks])
    padded = np.zeros(blocks * 256, np.float32)
    padded[:n] = x.host
    np.testing.assert_allclose(out.get(), padded.reshape(blocks, 256).sum(axis=1), rtol=1e-5, atol=1e-4)


def test_warp_shuffle_reduction(cuda):
    n = 32 * 50
    x = dev(cuda, RNG.standard_normal(n).astype(np.float32))
    out = dev(cuda, np.zeros(n // 32, np.float32))
    run(cuda, "warp_reduce", "warp_sum", [(n + 127) // 128], [128], [x, n, out, n // 32])
    np.testing.assert_allclose(out.get(), x.host.reshape(-1, 32).sum(axis=1), rtol=1e-5, atol=1e-5)


def test_histogram_atomics(cuda):
    n, nbins = 100_000, 37
    values = dev(cuda, RNG.integers(0, 1 << 30, n).astype(np.uint32))
    bins = dev(cuda, np.zeros(nbins, np.uint32))
    run(cuda, "histogram", "histogram", [(n + 255) // 256], [256], [values, n, bins, nbins])
    np.testing.assert_array_equal(bins.get(), np.bincount(values.host % nbins, minlength=nbins).astype(np.uint32))


def test_stencil_runtime_2d(cuda):
    h, w = 50, 70
    grid = RNG.standard_normal((h, w)).astype(np.float32)
    inp = dev(cuda, grid)
    out = dev(cuda, np.zeros((h, w), np.float32))
    run(cuda, "stencil", "stencil", [(w + 15) // 16, (h + 15) // 16], [16, 16], [inp, h * w, w, h, out, h * w, np.uint32(w)])
    expected = np.zeros((h, w), np.float32)
    inner = 0.5 * grid[1:-1, 1:-1] + 0.125 * (grid[:-2, 1:-1] + grid[2:, 1:-1] + grid[1:-1, :-2] + grid[1:-1, 2:])
    expected[1:-1, 1:-1] = inner
    np.testing.assert_allclose(out.get(), expected, rtol=1e-5, atol=1e-5)


def test_transpose_shared(cuda):
    rows, cols = 70, 100
    inp = dev(cuda, RNG.standard_normal((rows, cols)).astype(np.float32))
    out = dev(cuda, np.zeros((cols, rows), np.float32))
    run(cuda, "transpose", "transpose", [(cols + 31) // 32, (rows + 31) // 32], [32, 8],
        [inp, rows * cols, out, rows * cols, rows, cols])
    np.testing.assert_array_equal(out.get(), inp.host.T)


def test_copy_struct_methods(cuda):
    n = 1000
    xs, ys = (dev(cuda, RNG.standard_normal(n).astype(np.float32)) for _ in range(2))
    dist = dev(cuda, np.zeros(n, np.float32))
    vx, vy, dt = np.float32(0.5), np.float32(-2.0), np.float32(0.25)
    run(cuda, "particles", "advance", [(n + 255) // 256], [256], [xs, n, ys, n, vx, vy, dt, dist, n])
    px, py = xs.host + vx * dt, ys.host + vy * dt
    np.testing.assert_allclose(dist.get(), np.sqrt(px * px + py * py), rtol=1e-6, atol=1e-6)


_PRINTF = textwrap.dedent(
    """
    import numpy as np
    from cuda.bindings import driver
    from tests.gpu.conftest import _gpu_context
    from tests.gpu.harness import launch, load
    _gpu_context()
    launch(driver, load(driver, "rust_printf.ptx", "hello"), [2], [64], [np.float32(1.5)])
    """
)


def test_printf_rust_placeholders(cuda):
    result = subprocess.run([sys.executable, "-c", _PRINTF], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert sorted(result.stdout.splitlines()) == [
        "block 0 of 2: scale = 1.500, mask 0xff",
        "block 1 of 2: scale = 1.500, mask 0xff",
    ]
