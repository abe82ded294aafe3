"""Every kernel of examples/rust runs on the emulator and matches numpy (random inputs, sizes that are not
multiples of the block)."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime.emulator import launch
from tests.unit.runtime.emulator.helpers import example

RNG = np.random.default_rng(5)


def normal(*shape: int, dtype: type = np.float32) -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("n", [1, 1000, 3333])
def test_vecadd(n):
    a, b, c = normal(n), normal(n), np.zeros(n, np.float32)
    launch(example("vecadd"), "vecadd", ((n + 255) // 256,), (256,), [a, b, c])
    np.testing.assert_array_equal(c, a + b)


def test_saxpy():
    n = 5000
    x, y, out = normal(n), normal(n), np.zeros(n, np.float32)
    launch(example("saxpy"), "saxpy", ((n + 127) // 128,), (128,), [np.float32(2.5), x, y, out])
    # The kernel's a * x + y is contracted into one fma, as on the GPU: one rounding.
    np.testing.assert_array_equal(out, (np.float64(2.5) * x + y).astype(np.float32))


@pytest.mark.parametrize("dtype, entry", [(np.float32, "scale_f32"), (np.float64, "scale_f64"),
                                          (np.int32, "scale_i32")])
def test_generic_scale(dtype, entry):
    n = 3000
    x = (RNG.standard_normal(n) * 100).astype(dtype)
    out = np.zeros(n, dtype)
    program = example("scale_generic", scale=(entry.split("_")[1],))
    launch(program, entry, ((n + 255) // 256,), (256,), [x, dtype(3), out])
    np.testing.assert_array_equal(out, x * dtype(3))


# The naive kernel reads A's row for every thread of the grid (a trap past the end), so its M is a multiple
# of the block; the tiled one guards its loads.
@pytest.mark.parametrize("stem, m", [("sgemm_naive", 96), ("sgemm_tiled", 90)])
def test_sgemm(stem, m):
    k, n = 70, 64
    a, b, c = normal(m, k), normal(k, n), np.zeros((m, n), np.float32)
    launch(example(stem, **{stem: ("64",)}), f"{stem}_64", (n // 16, (m + 15) // 16), (16, 16), [a, b, k, c])
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)


def test_block_reduce():
    n = 256 * 7 + 17
    x = normal(n)
    blocks = (n + 255) // 256
    out = np.zeros(blocks, np.float32)
    launch(example("block_reduce"), "block_sum", (blocks,), (256,), [x, out])
    padded = np.zeros(blocks * 256, np.float32)
    padded[:n] = x
    np.testing.assert_allclose(out, padded.reshape(blocks, 256).sum(axis=1), rtol=1e-5, atol=1e-4)


def test_warp_reduce():
    n = 32 * 50 + 7
    x = normal(n)
    out = np.zeros((n + 31) // 32, np.float32)
    launch(example("warp_reduce"), "warp_sum", ((n + 127) // 128,), (128,), [x, out])
    padded = np.zeros(len(out) * 32, np.float32)
    padded[:n] = x
    np.testing.assert_allclose(out, padded.reshape(-1, 32).sum(axis=1), rtol=1e-5, atol=1e-5)


def test_histogram():
    n, nbins = 20_000, 37
    values = RNG.integers(0, 1 << 30, n).astype(np.uint32)
    bins = np.zeros(nbins, np.uint32)
    launch(example("histogram"), "histogram", ((n + 255) // 256,), (256,), [values, bins])
    np.testing.assert_array_equal(bins, np.bincount(values % nbins, minlength=nbins))


def test_stencil():
    h, w = 50, 70
    grid = normal(h, w)
    out = np.zeros((h, w), np.float32)
    launch(example("stencil"), "stencil", ((w + 15) // 16, (h + 15) // 16), (16, 16), [grid, w, h, out])
    expected = np.zeros((h, w), np.float32)
    expected[1:-1, 1:-1] = 0.5 * grid[1:-1, 1:-1] + 0.125 * (grid[:-2, 1:-1] + grid[2:, 1:-1] + grid[1:-1, :-2]
                                                             + grid[1:-1, 2:])
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_transpose():
    rows, cols = 70, 100
    inp = normal(rows, cols)
    out = np.zeros((cols, rows), np.float32)
    launch(example("transpose"), "transpose", ((cols + 31) // 32, (rows + 31) // 32), (32, 8), [inp, out, rows, cols])
    np.testing.assert_array_equal(out, inp.T)


def test_particles():
    n = 1000
    xs, ys, dist = normal(n), normal(n), np.zeros(n, np.float32)
    vx, vy, dt = np.float32(0.5), np.float32(-2.0), np.float32(0.25)
    launch(example("particles"), "advance", ((n + 255) // 256,), (256,), [xs, ys, vx, vy, dt, dist])
    px, py = xs + vx * dt, ys + vy * dt
    np.testing.assert_allclose(dist, np.sqrt(px * px + py * py), rtol=1e-6, atol=1e-6)


def test_printf_in_thread_order(capsys):
    launch(example("printf"), "hello", (3,), (64,), [np.float32(1.5)])
    assert capsys.readouterr().out.splitlines() == [f"block {b} of 3: scale = 1.500, mask 0xff" for b in range(3)]
