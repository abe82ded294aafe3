"""DLPack export of DeviceBuffer against the fake driver: the DLManagedTensor a consumer reads (address, CUDA
device, dtype, shape, C-contiguous), and the buffer kept alive until the consumer's deleter, or the destruction
of an unconsumed capsule, releases it."""

from __future__ import annotations

import ctypes
import gc
import weakref
from typing import Any

import numpy as np
import pytest

from oxide.runtime import dlpack, to_device
from oxide.runtime.memory import DeviceBuffer

_get = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(("PyCapsule_GetPointer", ctypes.pythonapi))
_rename = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_void_p)(("PyCapsule_SetName", ctypes.pythonapi))
_USED = ctypes.create_string_buffer(b"used_dltensor")


def test_the_capsule_describes_the_buffer(fake: Any) -> None:
    buf = to_device(np.arange(12, dtype=np.float32).reshape(3, 4))
    assert buf.__dlpack_device__() == (2, 0)
    capsule = buf.__dlpack__(stream=7)
    managed = dlpack._Managed.from_address(_get(capsule, b"dltensor"))
    tensor = managed.dl_tensor
    assert tensor.data == buf.ptr and tensor.ndim == 2 and tensor.byte_offset == 0
    assert (tensor.device.device_type, tensor.device.device_id) == (2, 0)
    assert (tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes) == (2, 32, 1)
    assert [tensor.shape[0], tensor.shape[1]] == [3, 4] and not tensor.strides
    bits = to_device(np.zeros(2, np.uint16)).__dlpack__()  # bf16 data travels as its 16-bit patterns
    assert dlpack._Managed.from_address(_get(bits, b"dltensor")).dl_tensor.dtype.code == 1


def test_a_consumer_releases_the_buffer_through_the_deleter(fake: Any) -> None:
    buf = to_device(np.ones(4, np.int32))
    alive = weakref.ref(buf)
    capsule = buf.__dlpack__()
    address = _get(capsule, b"dltensor")
    del buf
    gc.collect()
    assert alive() is not None
    _rename(capsule, ctypes.addressof(_USED))  # what a consumer does when it takes the tensor
    del capsule
    gc.collect()
    assert alive() is not None  # the consumer owns it now
    managed = dlpack._Managed.from_address(address)
    managed.deleter(ctypes.pointer(managed))  # the consumer is done
    gc.collect()
    assert alive() is None


def test_an_unconsumed_capsule_releases_the_buffer(fake: Any) -> None:
    buf = to_device(np.ones(4, np.float64))
    alive = weakref.ref(buf)
    capsule = buf.__dlpack__()
    del buf, capsule
    gc.collect()
    assert alive() is None and not dlpack._EXPORTS


def test_what_dlpack_cannot_take_is_a_buffer_error(fake: Any) -> None:
    buf = DeviceBuffer(4, np.complex64)
    with pytest.raises(BufferError, match="DLPack cannot describe elements of dtype complex64"):
        buf.__dlpack__()
    with pytest.raises(BufferError, match="without copying"):
        DeviceBuffer(4, np.float32).__dlpack__(copy=True)
    with pytest.raises(BufferError, match=r"on CUDA device 0, not \(2, 1\)"):
        DeviceBuffer(4, np.float32).__dlpack__(dl_device=(2, 1))
