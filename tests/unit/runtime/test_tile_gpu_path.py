"""Tile kernel launches on the GPU path against the fake driver: the parameter bytes follow the contract ABI
(pointer, i64 extents, i64 element strides per tensor), the block is 32 * warps threads, the grid is the
partition grid; numpy arrays (strided ones too) are copied in and outputs copied back."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

import oxide.tile
from oxide.runtime.errors import HostArrayError, KernelArgumentError, OverlapError
from oxide.runtime.launch_key import launch_key
from oxide.runtime.memory import EmulatedBuffer
from oxide.runtime.module import load
from oxide.runtime.stream import Stream
from tests.unit.runtime.tile_artifacts import write


def test_tensors_pass_pointer_extents_and_element_strides(fake, tmp_path):
    mod = load(write(tmp_path, "rowsum", warps=2), target="gpu")
    z, w = mod.to_device(np.zeros((10, 1), np.float32)), mod.to_device(np.zeros((10, 8), np.float32))
    x = mod.to_device(np.ones((10, 8), np.float32))
    mod.rowsum(oxide.tile.partition(z, (4, 1)), oxide.tile.partition(w, (4, 8)), x)
    (launch,) = fake.launches
    assert launch["entry"] == "rowsum" and launch["grid"] == (3, 1, 1) and launch["block"] == (64, 1, 1)
    assert launch["params"] == [z.ptr, 10, 1, 1, 1, w.ptr, 10, 8, 8, 1, x.ptr, 10, 8, 8, 1]


def test_scalars_follow_the_tensors_in_order(fake, tmp_path):
    mod = load(write(tmp_path, "add"), target="gpu")
    z, x, y = (mod.to_device(np.zeros(300, np.float32)) for _ in range(3))
    mod.add[3](oxide.tile.partition(z, (128,)), x, y, 2.5)
    (launch,) = fake.launches
    assert launch["grid"] == (3, 1, 1) and launch["block"] == (128, 1, 1)
    assert launch["params"] == [z.ptr, 300, 1, x.ptr, 300, 1, y.ptr, 300, 1, 2.5]


def test_numpy_outputs_are_copied_back_even_when_strided(fake, tmp_path):
    floats = ctypes.c_float * 128
    record = fake.cuLaunchKernel
    seen = {}

    def kernel_writes_z(*args):
        result = record(*args)
        params = fake.launches[-1]["params"]
        seen["x"] = np.ctypeslib.as_array(floats.from_address(params[3])).copy()
        floats.from_address(params[0])[5] = 42.0  # what the kernel writes into z
        return result

    fake.cuLaunchKernel = kernel_writes_z
    mod = load(write(tmp_path, "add"), target="gpu")
    backing = np.zeros(256, np.float32)
    x = np.arange(256, dtype=np.float32)[::2]  # strided input: copied contiguous
    mod.add(oxide.tile.partition(backing[::2], (128,)), x, np.ones(128, np.float32), 1.0)
    (launch,) = fake.launches
    assert launch["params"][1:3] == [128, 1]  # the device copy is contiguous
    np.testing.assert_array_equal(seen["x"], x)
    assert backing[10] == 42.0 and np.count_nonzero(backing) == 1  # written back through the strided view


def test_gpu_path_checks_before_launching(fake, tmp_path):
    mod = load(write(tmp_path, "add"), target="gpu")
    z = np.zeros(256, np.float32)
    with pytest.raises(OverlapError, match="argument `z` overlaps argument `x`"):
        mod.add(oxide.tile.partition(z[:128], (128,)), z[64:192], np.ones(128, np.float32), 1.0)
    with pytest.raises(HostArrayError, match="stream-ordered launch"):
        mod.add[1, "stream"](oxide.tile.partition(z[:128], (128,)), z[128:], z[128:], 1.0)
    with pytest.raises(KernelArgumentError, match="an emulator buffer cannot be used on the GPU"):
        mod.add(oxide.tile.partition(EmulatedBuffer(z), (128,)), z, z, 1.0)
    assert fake.launches == []


class _Foreign:
    """A GPU array of another library, seen only through __cuda_array_interface__."""

    def __init__(self, buffer, shape=None, strides=None):
        self.shape, self.dtype = shape or buffer.shape, buffer.dtype
        self.__cuda_array_interface__ = {"shape": self.shape, "typestr": buffer.dtype.str, "strides": strides,
                                         "data": (buffer.ptr, False), "version": 3}


def test_foreign_gpu_arrays_pass_zero_copy_with_their_strides(fake, tmp_path):
    mod = load(write(tmp_path, "add"), target="gpu")
    z, x = mod.to_device(np.zeros(256, np.float32)), mod.to_device(np.ones(256, np.float32))
    mod.add(oxide.tile.partition(_Foreign(z), (128,)), _Foreign(x), x, 1.0)
    assert fake.launches[-1]["params"][:6] == [z.ptr, 256, 1, x.ptr, 256, 1]
    # Every other element (byte stride 8): the kernel gets element stride 2, no copy.
    mod.add(oxide.tile.partition(z[:128], (128,)), _Foreign(x, (128,), (8,)), x[128:], 1.0)
    assert fake.launches[-1]["params"][:6] == [z.ptr, 128, 1, x.ptr, 128, 2]
    with pytest.raises(OverlapError, match="argument `z` overlaps argument `y`"):
        mod.add(oxide.tile.partition(_Foreign(z), (128,)), x, z, 1.0)


def test_a_strided_output_is_checked_for_overlap_over_its_whole_span(fake, tmp_path):
    mod = load(write(tmp_path, "add"), target="gpu")
    z, x = mod.to_device(np.zeros(512, np.float32)), mod.to_device(np.ones(128, np.float32))
    # z's even elements span 255 floats: y starting at z's element 200 overlaps them.
    with pytest.raises(OverlapError, match="argument `z` overlaps argument `y`"):
        mod.add(oxide.tile.partition(_Foreign(z, (128,), (8,)), (128,)), x, z[200:328], 1.0)
    assert fake.launches == []


@pytest.mark.parametrize("strides, why", [((-4,), "non-negative strides"), ((0,), "make elements overlap")])
def test_gpu_views_the_kernel_abi_cannot_take_are_refused(fake, tmp_path, strides, why):
    mod = load(write(tmp_path, "add"), target="gpu")
    z, x = mod.to_device(np.zeros(256, np.float32)), mod.to_device(np.ones(256, np.float32))
    with pytest.raises(KernelArgumentError, match=f"argument `z: .*`: .*{why}"):
        mod.add(oxide.tile.partition(_Foreign(z, (128,), strides), (128,)), x[:128], x[128:], 1.0)
    assert fake.launches == []


def test_a_broadcast_input_is_taken(fake, tmp_path):
    # Reading one element many times is fine; only an output's elements must not overlap.
    mod = load(write(tmp_path, "add"), target="gpu")
    z, x = mod.to_device(np.zeros(128, np.float32)), mod.to_device(np.ones(128, np.float32))
    mod.add(oxide.tile.partition(z, (128,)), _Foreign(x, (128,), (0,)), x, 1.0)
    assert fake.launches[-1]["params"][3:6] == [x.ptr, 128, 0]


def test_stream_ordered_relaunches_on_the_same_arrays_reuse_the_checked_binding(fake, tmp_path, monkeypatch):
    mod = load(write(tmp_path, "add"), target="gpu")
    z, x, y = (mod.to_device(np.zeros(300, np.float32)) for _ in range(3))
    stream = Stream(mod.device)
    binds = []
    bind = mod.add.binder.bind
    monkeypatch.setattr(mod.add.binder, "bind", lambda *a: binds.append(1) or bind(*a))
    part = oxide.tile.partition(z, (128,))
    for _ in range(3):
        mod.add[3, stream](part, x, y, 2.5)
    assert len(binds) == 1 and len(fake.launches) == 3
    assert fake.launches[2]["params"] == [z.ptr, 300, 1, x.ptr, 300, 1, y.ptr, 300, 1, 2.5]
    mod.add[3, stream](part, x, y, 3.5)  # another scalar: checked again
    mod.add[3, stream](part, x, x, 3.5)  # another array
    assert len(binds) == 3 and fake.launches[-1]["params"][-4:] == [x.ptr, 300, 1, 3.5]
    with pytest.raises(OverlapError):  # the checks still run on the first launch of a key, and refusals stay
        mod.add[3, stream](oxide.tile.partition(x, (128,)), x, y, 1.0)
    with pytest.raises(OverlapError):
        mod.add[3, stream](oxide.tile.partition(x, (128,)), x, y, 1.0)
    stream.close()


def test_launch_keys_cover_every_fact_the_checks_read():
    class Tensor:  # the accessors of a CUDA torch tensor
        __module__ = "torch"
        is_cuda = True

        def __init__(self, ptr, shape, strides, dtype="torch.float32"):
            self.ptr, self.shape, self.strides, self.dtype = ptr, shape, strides, dtype

        def data_ptr(self):
            return self.ptr

        def stride(self):
            return self.strides

        def get_device(self):
            return 0

    t = Tensor(4096, (4, 8), (8, 1))
    assert launch_key([t, 1.0]) == launch_key([Tensor(4096, (4, 8), (8, 1)), 1.0])
    different = [[Tensor(8192, (4, 8), (8, 1)), 1.0], [Tensor(4096, (8, 4), (4, 1)), 1.0],
                 [Tensor(4096, (4, 8), (1, 4)), 1.0], [Tensor(4096, (4, 8), (8, 1), "torch.int32"), 1.0],
                 [t, 2.0], [t, 1], [t, True], [oxide.tile.partition(t, (4, 8)), 1.0]]
    assert len({launch_key(args) for args in different} | {launch_key([t, 1.0])}) == len(different) + 1
    assert launch_key([np.zeros(4), 1.0]) is None  # a host array is copied per launch: the general path
    assert launch_key([t, np.float32(1.0)]) is None
