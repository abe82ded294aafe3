"""Python has no borrow checker: every mutable buffer argument is checked against every other buffer."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime import LaunchConfig1D, OverlapError
from tests.unit.runtime.conftest import FakeGpuArray

CFG = LaunchConfig1D(1, 32)


def test_the_same_array_as_input_and_output_is_rejected(kernel_of):
    kernel, ex = kernel_of("saxpy", "saxpy")
    x = np.ones(8, np.float32)
    with pytest.raises(OverlapError, match=r"kernel `saxpy`: argument `out` overlaps argument `x`") as info:
        kernel(1.0, x, np.ones(8, np.float32), x, config=CFG)
    assert (info.value.first, info.value.second) == ("out", "x")
    assert ex.launches == []


def test_overlapping_views_are_rejected_and_disjoint_views_accepted(kernel_of):
    kernel, ex = kernel_of("saxpy", "saxpy")
    base = np.zeros(16, np.float32)
    with pytest.raises(OverlapError, match="argument `out` overlaps argument `y`"):
        kernel(1.0, np.ones(4, np.float32), base[0:8], base[7:15], config=CFG)
    kernel(1.0, np.ones(4, np.float32), base[0:8], base[8:16], config=CFG)
    assert len(ex.launches) == 1


def test_read_only_arguments_may_share_memory(kernel_of):
    kernel, ex = kernel_of("saxpy", "saxpy")
    x = np.ones(8, np.float32)
    kernel(1.0, x, x, np.zeros(8, np.float32), config=CFG)
    assert len(ex.launches) == 1


def test_gpu_arrays_are_compared_by_device_address(kernel_of):
    kernel, _ = kernel_of("saxpy", "saxpy", gpu=True)
    x = FakeGpuArray(0x1000, 64)             # bytes 0x1000..0x1100
    out = FakeGpuArray(0x10FC, 4)            # its first element is x's last
    with pytest.raises(OverlapError, match=r"bytes 0x10fc..0x1100 are in both"):
        kernel(1.0, x, FakeGpuArray(0x9000, 4), out, config=CFG, stream=0)
    kernel(1.0, x, FakeGpuArray(0x9000, 4), FakeGpuArray(0x1100, 4), config=CFG, stream=0)


def test_atomic_slices_count_as_written(kernel_of):
    kernel, _ = kernel_of("histogram", "histogram")
    data = np.zeros(8, np.uint32)
    with pytest.raises(OverlapError, match="argument `bins` overlaps argument `values`"):
        kernel.unchecked(data, data[2:4], config=CFG)


def test_empty_buffers_overlap_nothing(kernel_of):
    kernel, ex = kernel_of("saxpy", "saxpy")
    x = np.ones(8, np.float32)
    kernel(1.0, x, x, x[4:4], config=CFG)
    assert len(ex.launches) == 1
