"""The GPU launch path (GpuExecutor, DeviceBuffer, Stream, error translation) against a fake driver: the
parameter bytes the driver would read, copies in and out, sticky errors naming the kernel."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime import CudaError, KernelFaultError, LaunchConfig1D
from oxide.runtime.module import load
from tests.unit.runtime.fake_driver import CUresult


def test_parameters_reach_the_driver_as_the_ptx_declares_them(fake, artifact_dir):
    module = load(artifact_dir / "particles", target="gpu")
    assert module.target == "gpu" and module.executor.chip == "sm_90"
    xs, ys, dist = (module.to_device(np.arange(5, dtype=np.float32)) for _ in range(3))
    module.advance.unchecked[1, 32](xs, ys, (0.5, -2.0), 0.25, dist)
    (launch,) = fake.launches
    assert launch["entry"] == "advance" and launch["grid"] == (1, 1, 1) and launch["block"] == (32, 1, 1)
    assert launch["params"] == [xs.ptr, 5, ys.ptr, 5, 0.5, -2.0, 0.25, dist.ptr, 5]


def test_numpy_arguments_are_copied_in_and_written_ones_out(fake, artifact_dir):
    floats = np.ctypeslib.ctypes.c_float * 8
    seen = {}
    record = fake.cuLaunchKernel

    def kernel_writes_out(*args):
        result = record(*args)
        params = fake.launches[-1]["params"]
        seen["x"] = np.ctypeslib.as_array(floats.from_address(params[1])).copy()
        floats.from_address(params[5])[0] = 42.0  # what the kernel writes into `out`
        return result

    fake.cuLaunchKernel = kernel_writes_out
    module = load(artifact_dir / "saxpy", target="gpu")  # (the executor binds cuLaunchKernel when it loads)
    x = np.arange(8, dtype=np.float32)
    out = np.full(8, 7.0, np.float32)
    module.saxpy[1, 32](3.0, x, x, out)
    (launch,) = fake.launches
    assert launch["params"][1] != x.ctypes.data and launch["params"][0] == 3.0  # x was copied to the device
    assert np.array_equal(seen["x"], x)
    assert out.tolist() == [42.0] + [7.0] * 7  # out was copied in, and back after the launch


def test_runtime_2d_row_width_is_the_last_abi_value(fake, artifact_dir):
    module = load(artifact_dir / "stencil", target="gpu")
    grid, out = module.zeros(12, np.float32), module.zeros((3, 4), np.float32)
    module.stencil[(1, 1), (16, 16)](grid, 4, 3, out)
    assert fake.launches[0]["params"] == [grid.ptr, 12, 4, 3, out.ptr, 12, 4]


def test_stream_ordered_launches_and_errors_at_synchronize(fake, artifact_dir):
    module = load(artifact_dir / "saxpy", target="gpu")
    stream = module.stream()
    x, out = module.to_device(np.ones(4, np.float32)), module.zeros(4, np.float32)
    module.saxpy[1, 32, stream](1.0, x, x, out)
    assert fake.launches[0]["stream"] == stream.handle
    fake.fail_sync = CUresult.CUDA_ERROR_LAUNCH_FAILED
    with pytest.raises(KernelFaultError, match=r"kernel `saxpy`: the stream failed with CUDA_ERROR_LAUNCH_FAILED: "
                                               r"the kernel trapped.*context of this process is unusable") as info:
        stream.synchronize()
    assert not info.value.context_usable and info.value.kernel == "saxpy"


def test_synchronous_launch_errors_name_the_kernel(fake, artifact_dir):
    module = load(artifact_dir / "saxpy", target="gpu")
    x = module.to_device(np.ones(4, np.float32))
    fake.fail_sync = CUresult.CUDA_ERROR_ASSERT
    with pytest.raises(KernelFaultError, match=r"kernel `saxpy`: the kernel failed with CUDA_ERROR_ASSERT: a "
                                               r"device-side assert"):
        module.saxpy[1, 32](1.0, x, x, module.zeros(4, np.float32))
    fake.fail_sync = CUresult.CUDA_ERROR_INVALID_VALUE
    with pytest.raises(CudaError, match="CUDA_ERROR_INVALID_VALUE: fake description") as info:
        module.saxpy[1, 32](1.0, x, x, module.zeros(4, np.float32))
    assert info.value.context_usable


def test_dynamic_shared_memory_beyond_48k_raises_the_function_limit(fake, artifact_dir):
    module = load(artifact_dir / "vecadd", target="gpu")
    a = module.zeros(4, np.float32)
    module.vecadd.unchecked[1, 32, None, 64 << 10](a, a, module.zeros(4, np.float32))
    assert list(fake.func_attributes.values()) == [64 << 10]
    assert fake.launches[0]["shared"] == 64 << 10


def test_buffers_copy_both_ways_and_views_share_the_allocation(fake):
    from oxide.runtime import DeviceBuffer, Device

    Device(0)
    host = np.arange(10, dtype=np.int32)
    buf = DeviceBuffer.from_host(host)
    view = buf[2:5]
    assert view.ptr == buf.ptr + 8 and view.shape == (3,) and view.get().tolist() == [2, 3, 4]
    view.copy_from(np.array([7, 8, 9], np.int32))
    assert buf.get().tolist() == [0, 1, 7, 8, 9, 5, 6, 7, 8, 9]
    assert buf.__cuda_array_interface__["data"] == (buf.ptr, False)
    with pytest.raises(TypeError, match="contiguous"):
        buf[::2]


def test_a_stream_of_another_device_is_rejected(fake, artifact_dir):
    from oxide.runtime import Device, LaunchContractError, Stream

    module = load(artifact_dir / "saxpy", target="gpu")
    other = Stream(Device(1))
    x = module.to_device(np.ones(4, np.float32))
    with pytest.raises(LaunchContractError, match="`stream` expects a stream of device 0, got a stream of device 1"):
        module.saxpy[1, 32, other](1.0, x, x, module.zeros(4, np.float32))
    assert fake.launches == []


def test_the_specialised_launch_matches_the_general_path(fake, artifact_dir):
    from oxide.runtime import LaunchContractError, OverlapError

    module = load(artifact_dir / "contracted", target="gpu")
    kernel = module.scaled
    prepared = kernel.prepare(LaunchConfig1D(1, 128))
    assert prepared.fast is not None
    x, out = module.to_device(np.ones(128, np.float32)), module.zeros(128, np.float32)
    prepared(x, 100, 2.0, out)                                # the specialised function
    kernel._launch(prepared, (x, 100, 2.0, out), None)        # the general path
    assert fake.launches[0] == fake.launches[1]
    assert fake.launches[0]["params"] == [x.ptr, 128, 100, 2.0, out.ptr, 128]
    with pytest.raises(LaunchContractError, match=r"`requires` expects out.len\(\) >= n, got 128 vs 129"):
        prepared(x, 129, 2.0, out)
    with pytest.raises(OverlapError, match="argument `out` overlaps argument `x`"):
        prepared(x, 1, 2.0, x)
    prepared(x, np.uint32(5), 2.0, out)                       # a numpy scalar: the general path takes it
    assert fake.launches[-1]["params"][2] == 5 and len(fake.launches) == 3
