"""Tile kernels through oxide.runtime on the GPU: hand-written PTX with the tile kernel ABI
(tests/fixtures/tile_runtime/, made by tests/unit/runtime/tile_artifacts.write_gpu_fixtures) launched with
`mod.kernel(oxide.tile.partition(...), ...)`, its results compared with the emulator running the same
artifact. This checks the runtime's side of the contract on a real device -- argument order, extents and
element strides, the partition grid, the block of 32 * warps threads, copies in and out, raw pointers --
independently of the tile lowering."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import oxide.tile
from oxide.runtime import OverlapError
from oxide.runtime.module import load

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tile_runtime"


def _both(name: str):
    path = FIXTURES / f"{name}.oxide.json"
    return load(path, target="gpu"), load(path, target="cpu")


def test_vector_add_with_an_edge_tile_matches_the_emulator(cuda):
    gpu, cpu = _both("add")
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal(1000).astype(np.float32), rng.standard_normal(1000).astype(np.float32)
    z_gpu, z_cpu = np.full(1000, 7.0, np.float32), np.full(1000, 7.0, np.float32)
    gpu.add(oxide.tile.partition(z_gpu, (128,)), x, y, 0.5)
    cpu.add(oxide.tile.partition(z_cpu, (128,)), x, y, 0.5)
    np.testing.assert_array_equal(z_gpu, z_cpu)
    np.testing.assert_array_equal(z_gpu, x + y * np.float32(0.5))


def test_strided_numpy_output_and_device_arrays(cuda):
    gpu = load(FIXTURES / "add.oxide.json", target="gpu")
    x = np.arange(600, dtype=np.float32)[::3]  # strided input (copied contiguous)
    y = gpu.to_device(np.ones(200, np.float32))
    backing = np.zeros(400, np.float32)
    gpu.add(oxide.tile.partition(backing[::2], (128,)), x, y, 2.0)
    np.testing.assert_array_equal(backing[::2], x + 2.0)
    assert not backing[1::2].any()
    z = gpu.to_device(np.zeros(200, np.float32))
    gpu.add[2](oxide.tile.partition(z, (128,)), x, y, 1.0)
    np.testing.assert_array_equal(z.get(), x + 1.0)
    with pytest.raises(OverlapError):
        gpu.add(oxide.tile.partition(z, (128,)), z, y, 1.0)


def test_two_outputs_on_a_2d_tile_grid_match_the_emulator(cuda):
    gpu, cpu = _both("rowsum")
    x = np.random.default_rng(2).standard_normal((37, 8)).astype(np.float32)
    results = []
    for mod in (gpu, cpu):
        z, w = np.zeros((37, 1), np.float32), np.zeros((37, 8), np.float32)
        mod.rowsum(oxide.tile.partition(z, (4, 1)), oxide.tile.partition(w, (4, 8)), x)
        results.append((z, w))
    (zg, wg), (zc, wc) = results
    np.testing.assert_array_equal(wg, wc)
    np.testing.assert_allclose(zg, zc, rtol=1e-6, atol=1e-6)  # the GPU sums in butterfly order


def test_raw_pointer_atomics_match_the_emulator(cuda):
    gpu, cpu = _both("bump")
    idx = np.array([0, 1, 1, 3, 3, 3, 0, 2], np.int32)
    counts_gpu, counts_cpu = np.zeros(4, np.int32), np.zeros(4, np.int32)
    gpu.bump[5](counts_gpu, idx)
    cpu.bump[5](counts_cpu, idx)
    np.testing.assert_array_equal(counts_gpu, counts_cpu)
    np.testing.assert_array_equal(counts_gpu, 5 * np.bincount(idx, minlength=4))
