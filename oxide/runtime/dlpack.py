"""DLPack export of oxide's DeviceBuffer, so `torch.from_dlpack(buf)`, `cupy.from_dlpack(buf)` and JAX take it
without a copy (`__cuda_array_interface__` covers `torch.as_tensor(buf, device="cuda")` and `cupy.asarray`).

A capsule named "dltensor" holds a DLManagedTensor (the DLPack 0.8 layout; a producer may answer a consumer
that asks for DLPack 1.x with it). The buffer stays alive until the consumer calls the tensor's deleter, or,
for a capsule nobody consumed, until the capsule is destroyed. The data is ready when it is exported: oxide's
synchronous operations have completed, and work queued on an oxide stream must be waited for first
(`stream.synchronize()`, or make the consumer's stream wait for an Event), as with any producer that does not
know the consumer's stream.
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

from oxide.runtime.driver import check, cuda

KDL_CUDA = 2  # DLDeviceType of CUDA device memory
# DLDataTypeCode per numpy kind: int, uint, float, bool.
_CODES = {"i": 0, "u": 1, "f": 2, "b": 6}


class _Device(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _Device), ("ndim", ctypes.c_int32), ("dtype", _DataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class _Managed(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(_Managed))
_Managed._fields_ = [("dl_tensor", _Tensor), ("manager_ctx", ctypes.c_void_p), ("deleter", _DELETER)]

# What each exported tensor keeps alive (its buffer, the structure, the shape array), by structure address.
_EXPORTS: dict[int, tuple[Any, ...]] = {}
_NAME = ctypes.create_string_buffer(b"dltensor")  # a capsule's name must outlive the capsule

# Private prototypes of the capsule API: ctypes.pythonapi's function objects are shared, so setting their argtypes
# there would change them for every other user in the process.
_capsule_new = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(
    ("PyCapsule_New", ctypes.pythonapi))
_capsule_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(
    ("PyCapsule_IsValid", ctypes.pythonapi))
_capsule_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi))
_NAME_ADDRESS = ctypes.addressof(_NAME)


@_DELETER
def _release(managed: Any) -> None:
    """The DLManagedTensor's deleter: the consumer is done with the buffer."""
    _EXPORTS.pop(ctypes.addressof(managed.contents), None)


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _destroy_capsule(capsule: int) -> None:
    """A capsule destroyed unconsumed still names "dltensor" (a consumer renames it): release the export."""
    if _capsule_valid(capsule, _NAME_ADDRESS):
        _EXPORTS.pop(_capsule_pointer(capsule, _NAME_ADDRESS), None)


def data_type(dtype: np.dtype) -> tuple[int, int]:
    """(DLDataTypeCode, bits) of a numpy dtype; BufferError for one DLPack cannot describe."""
    code = _CODES.get(dtype.kind)
    if code is None:
        raise BufferError(f"DLPack cannot describe elements of dtype {dtype}; view the buffer as an integer or "
                          "float dtype of the same size")
    return code, dtype.itemsize * 8


def export(buffer: Any, copy: bool | None = None) -> Any:
    """A "dltensor" capsule of `buffer` (a DeviceBuffer: C-contiguous device memory)."""
    if copy:
        raise BufferError("oxide exports DeviceBuffers without copying (copy=True is not supported)")
    code, bits = data_type(buffer.dtype)
    managed = _Managed()
    shape = (ctypes.c_int64 * max(len(buffer.shape), 1))(*buffer.shape)
    tensor = managed.dl_tensor
    tensor.data, tensor.ndim, tensor.byte_offset = buffer.ptr, len(buffer.shape), 0
    tensor.device.device_type, tensor.device.device_id = KDL_CUDA, device_ordinal(buffer.ptr)
    tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes = code, bits, 1
    tensor.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
    tensor.strides = None  # NULL: C-contiguous
    managed.deleter = _release
    address = ctypes.addressof(managed)
    _EXPORTS[address] = (buffer, managed, shape)
    return _capsule_new(address, _NAME_ADDRESS, ctypes.cast(_destroy_capsule, ctypes.c_void_p))


def device_ordinal(ptr: int) -> int:
    """The ordinal of the device whose memory `ptr` is in."""
    drv = cuda()
    return int(check(drv.cuPointerGetAttribute(drv.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr),
                     "cuPointerGetAttribute"))
