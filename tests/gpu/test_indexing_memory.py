"""simt indexing, memory and shared-memory kernels on the GPU, compared with numpy
(kernels: tests/gpu/kernels/indexing_memory.mlir)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tests.gpu.harness import DeviceArray, launch, load

FIXTURE = "indexing_memory.ptx"


def run(cuda, entry, grid, block, args, shared_bytes=0):
    launch(cuda, load(cuda, FIXTURE, entry), grid, block, args, shared_bytes)


@pytest.mark.parametrize("n", [1, 1000, 1 << 20])
def test_scale_disjoint_1d(cuda, n):
    x = DeviceArray(cuda, np.random.default_rng(n).standard_normal(n).astype(np.float32))
    out = DeviceArray(cuda, np.full(n, -1, np.float32))
    run(cuda, "scale", [(n + 255) // 256 + 1], [256], [x, n, out, n, np.float32(1.5)])
    np.testing.assert_array_equal(out.get(), x.host * np.float32(1.5))


def test_unproven_1d_witness_is_checked_on_device(cuda):
    n = 256
    out = DeviceArray(cuda, np.zeros(n, np.int32))
    run(cuda, "unproven", [2], [128], [out, n])
    np.testing.assert_array_equal(out.get(), np.arange(n) + 1)
    # A 2-D launch makes the 1-D index non-unique: the witness is invalid and nothing is written.
    blocked = DeviceArray(cuda, np.zeros(n, np.int32))
    run(cuda, "unproven", [2, 2], [64, 2], [blocked, n])
    np.testing.assert_array_equal(blocked.get(), np.zeros(n, np.int32))


def test_u32_index(cuda):
    n = 5000
    out = DeviceArray(cuda, np.zeros(n, np.int32))
    run(cuda, "narrow", [(n + 127) // 128], [128], [out, n])
    np.testing.assert_array_equal(out.get(), np.arange(n, dtype=np.int32) * 3)


def test_index_2d_constant_stride(cuda):
    rows, width = 40, 64
    out = DeviceArray(cuda, np.full(rows * width, -1, np.int32))
    # 80 columns of threads for a 64-wide space: columns 64..79 hold invalid witnesses.
    run(cuda, "fill_2d", [5, 3], [16, 16], [out, rows * width])
    r, c = np.divmod(np.arange(rows * width), width)
    np.testing.assert_array_equal(out.get(), (r * 1000 + c).astype(np.int32))


def test_index_2d_runtime_width(cuda):
    rows, width = 30, 50
    out = DeviceArray(cuda, np.full(rows * width, -1, np.int32))
    run(cuda, "fill_runtime_2d", [4, 2], [16, 16], [out, rows * width, np.uint32(width)])
    r, c = np.divmod(np.arange(rows * width), width)
    np.testing.assert_array_equal(out.get(), (r * 1000 + c).astype(np.int32))


def test_warp_index_counts_partial_warps(cuda):
    blocks, threads = 3, 100  # 4 warps per block, the last one partial
    warps = blocks * 4
    out = DeviceArray(cuda, np.full(warps, -1, np.int32))
    run(cuda, "per_warp", [blocks], [threads], [out, warps])
    np.testing.assert_array_equal(out.get(), np.arange(warps, dtype=np.int32) + 7)


def test_vector_load_store(cuda):
    n = 4099  # not a multiple of 4: the tail is left alone
    src = DeviceArray(cuda, np.random.default_rng(3).standard_normal(n).astype(np.float32))
    dst = DeviceArray(cuda, np.full(n, 9, np.float32))
    run(cuda, "vector_double", [(n // 4 + 127) // 128], [128], [src, n, dst, n])
    expected = np.full(n, 9, np.float32)
    expected[: n // 4 * 4] = src.host[: n // 4 * 4] * 2
    np.testing.assert_array_equal(dst.get(), expected)


def test_raw_and_volatile_pointers(cuda):
    n = 777
    m = DeviceArray(cuda, np.arange(n, dtype=np.int64) * 3 + (1 << 40))
    run(cuda, "pointers", [(n + 255) // 256], [256], [m, n])
    np.testing.assert_array_equal(m.get(), m.host * 10 + np.arange(n) + 1)


def test_static_and_dynamic_shared(cuda):
    n = 1000
    x = DeviceArray(cuda, np.random.default_rng(5).standard_normal(n).astype(np.float32))
    out = DeviceArray(cuda, np.zeros(n, np.float32))
    run(cuda, "shared_roundtrip", [(n + 127) // 128], [128], [x, n, out, n], shared_bytes=128 * 4)
    np.testing.assert_array_equal(out.get(), x.host + np.float32(1) + np.float32(2))


_TRAP_SCRIPT = textwrap.dedent(
    """
    import numpy as np
    from cuda.bindings import driver
    from tests.gpu.conftest import _gpu_context
    from tests.gpu.harness import DeviceArray, launch_status, load
    _gpu_context()
    x = DeviceArray(driver, np.ones(8, np.float32))
    out = DeviceArray(driver, np.zeros(1, np.float32))
    fn = load(driver, "indexing_memory.ptx", "out_of_bounds")
    ok = launch_status(driver, fn, [1], [8], [x, 8, out, 1])
    bad = launch_status(driver, fn, [1], [9], [x, 8, out, 1])
    print(ok.name, bad.name)
    """
)


def test_out_of_bounds_read_traps(cuda):
    # A trap poisons the CUDA context, so it runs in a process of its own.
    result = subprocess.run([sys.executable, "-c", _TRAP_SCRIPT], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    ok, trapped = result.stdout.split()
    assert ok == "CUDA_SUCCESS"
    # The driver reports a device `trap` as an illegal instruction or (driver 580) an unspecified launch failure.
    assert trapped in ("CUDA_ERROR_ILLEGAL_INSTRUCTION", "CUDA_ERROR_LAUNCH_FAILED")
