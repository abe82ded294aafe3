"""Argument marshalling: counts, kinds, element types, scalar ranges, structs, host arrays, zero-copy views."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime import (HostArrayError, KernelArgumentError, LaunchConfig1D, LaunchConfig2D, RowWidth)
from tests.unit.runtime.conftest import FakeGpuArray

CFG = LaunchConfig1D(1, 32)


def test_emulator_abi_is_one_value_per_parameter(kernel_of):
    kernel, ex = kernel_of("saxpy", "saxpy")
    x, y, out = np.ones(8, np.float32), np.ones(8, np.float32), np.zeros(8, np.float32)
    kernel(2.5, x, y, out, config=CFG)
    entry, config, abi = ex.launches[0]
    assert entry == "saxpy" and config.grid == (1, 1, 1) and config.block == (32, 1, 1)
    assert isinstance(abi[0], np.float32) and abi[0] == np.float32(2.5)
    assert abi[1] is not x and np.shares_memory(abi[1], x) and np.shares_memory(abi[3], out)


def test_gpu_abi_is_pointer_and_length_per_slice(kernel_of):
    kernel, ex = kernel_of("saxpy", "saxpy", gpu=True)
    x, y, out = FakeGpuArray(0x1000, 8), FakeGpuArray(0x2000, 8), FakeGpuArray(0x3000, 8)
    kernel(1.0, x, y, out, config=CFG, stream=0)
    assert ex.launches[0][2] == [1.0, 0x1000, 8, 0x2000, 8, 0x3000, 8]


def test_wrong_argument_count_names_the_signature(kernel_of):
    kernel, _ = kernel_of("saxpy", "saxpy")
    with pytest.raises(KernelArgumentError, match=r"kernel `saxpy` takes 4 argument\(s\), 2 given: "
                                                  r"saxpy\(a: f32, x: &\[f32\], y: &\[f32\], out: DisjointSlice"):
        kernel(1.0, np.ones(4, np.float32), config=CFG)


def test_wrong_element_type_has_a_hint(kernel_of):
    kernel, _ = kernel_of("saxpy", "saxpy")
    with pytest.raises(KernelArgumentError, match=r"argument `x: &\[f32\]`: expected elements of f32 \(float32\), "
                                                  r"got an array of float64; hint: .*astype\(np.float32\)"):
        kernel(1.0, np.ones(4), np.ones(4, np.float32), np.ones(4, np.float32), config=CFG)


def test_float_where_an_integer_is_expected_is_an_error(kernel_of):
    kernel, _ = kernel_of("contracted", "scaled")
    x, out = np.ones(128, np.float32), np.zeros(128, np.float32)
    with pytest.raises(KernelArgumentError, match=r"kernel `scaled`, argument `n: u32`: expected an integer \(u32\), "
                                                  r"got a float \(3.0\)"):
        kernel(x, 3.0, 1.0, out, config=LaunchConfig1D(1, 128))


@pytest.mark.parametrize("value, message", [(-1, r"-1 does not fit in u32 \(0..=4294967295\)"),
                                            (1 << 32, "4294967296 does not fit in u32"),
                                            (True, r"expected an integer \(u32\), got a bool"),
                                            (np.float32(2), r"expected an integer \(u32\), got a numpy float32")])
def test_integer_scalars_are_range_and_type_checked(kernel_of, value, message):
    kernel, _ = kernel_of("contracted", "scaled")
    with pytest.raises(KernelArgumentError, match=message):
        kernel(np.ones(128, np.float32), value, 1.0, np.zeros(128, np.float32), config=LaunchConfig1D(1, 128))


def test_integers_are_accepted_for_floats(kernel_of):
    kernel, ex = kernel_of("saxpy", "saxpy")
    kernel(np.int64(3), np.ones(4, np.float32), np.ones(4, np.float32), np.zeros(4, np.float32), config=CFG)
    assert ex.launches[0][2][0] == np.float32(3.0)


def test_struct_parameters_take_a_tuple_of_fields(kernel_of):
    kernel, ex = kernel_of("particles", "advance", gpu=True)
    xs, ys, dist = FakeGpuArray(0x100, 4), FakeGpuArray(0x200, 4), FakeGpuArray(0x300, 4)
    kernel.unchecked(xs, ys, (0.5, -2.0), 0.25, dist, config=CFG, stream=0)
    assert ex.launches[0][2] == [0x100, 4, 0x200, 4, 0.5, -2.0, 0.25, 0x300, 4]
    with pytest.raises(KernelArgumentError, match=r"`velocity: Vec2`: expected a tuple of 2 field values"):
        kernel.unchecked(xs, ys, 0.5, 0.25, dist, config=CFG, stream=0)


def test_host_array_in_a_stream_ordered_launch_has_a_hint(kernel_of):
    kernel, _ = kernel_of("saxpy", "saxpy", gpu=True)
    with pytest.raises(HostArrayError, match=r"argument `x: &\[f32\]`: a host \(numpy\) array cannot be used by a "
                                             r"stream-ordered launch; hint: copy it to the GPU first"):
        kernel(1.0, np.ones(4, np.float32), FakeGpuArray(0x10, 4), FakeGpuArray(0x100, 4), config=CFG, stream=0)


def test_non_contiguous_arrays_are_rejected(kernel_of):
    kernel, _ = kernel_of("saxpy", "saxpy")
    strided = np.ones(8, np.float32)[::2]
    with pytest.raises(KernelArgumentError, match="not C-contiguous"):
        kernel(1.0, strided, np.ones(4, np.float32), np.zeros(4, np.float32), config=CFG)
    with pytest.raises(KernelArgumentError, match="not C-contiguous"):
        gpu, _ = kernel_of("saxpy", "saxpy", gpu=True)
        odd = FakeGpuArray(0x10, 4)
        odd.__cuda_array_interface__["strides"] = (8,)
        gpu(1.0, odd, FakeGpuArray(0x100, 4), FakeGpuArray(0x200, 4), config=CFG, stream=0)


def test_read_only_array_for_a_written_parameter(kernel_of):
    kernel, _ = kernel_of("saxpy", "saxpy")
    out = np.zeros(4, np.float32)
    out.flags.writeable = False
    with pytest.raises(KernelArgumentError, match="the kernel writes this argument, but the array is read-only"):
        kernel(1.0, np.ones(4, np.float32), np.ones(4, np.float32), out, config=CFG)


def test_gpu_and_host_memory_do_not_mix(kernel_of):
    kernel, _ = kernel_of("saxpy", "saxpy")
    with pytest.raises(KernelArgumentError, match="a GPU array cannot be used by the emulator"):
        kernel(1.0, FakeGpuArray(0x10, 4), np.ones(4, np.float32), np.zeros(4, np.float32), config=CFG)


def test_runtime_2d_disjoint_slice_takes_its_row_width(kernel_of):
    kernel, ex = kernel_of("stencil", "stencil", gpu=True)
    inp, out = FakeGpuArray(0x100, 12), FakeGpuArray(0x1000, 12, shape=(3, 4))
    kernel(inp, 4, 3, out, config=LaunchConfig2D((1, 1), (16, 16)), stream=0)
    assert ex.launches[0][2] == [0x100, 12, 4, 3, 0x1000, 12, 4]
    kernel(inp, 4, 3, RowWidth(FakeGpuArray(0x1000, 12), 6), config=LaunchConfig2D((1, 1), (16, 16)), stream=0)
    assert ex.launches[1][2][-1] == 6
    with pytest.raises(KernelArgumentError, match="needs its row width: pass a 2-D array"):
        kernel(inp, 4, 3, FakeGpuArray(0x1000, 12), config=LaunchConfig2D((1, 1), (16, 16)), stream=0)


def test_atomic_slices_take_the_value_type_and_count_as_written(kernel_of):
    kernel, ex = kernel_of("histogram", "histogram")
    values, bins = np.arange(10, dtype=np.uint32), np.zeros(3, np.uint32)
    kernel.unchecked(values, bins, config=CFG)
    spec_bins = kernel.spec.params[1]
    assert spec_bins.elem == "u32" and spec_bins.mutable
    with pytest.raises(KernelArgumentError, match=r"expected elements of u32 \(uint32\), got an array of int32"):
        kernel.unchecked(values, bins.astype(np.int32), config=CFG)
