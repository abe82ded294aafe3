"""Buffers kernels read and write: `DeviceBuffer` (GPU memory), `EmulatedBuffer` (the emulator's "device"
memory, a numpy array), and `device_view`, which reads any foreign GPU array (CuPy, PyTorch, Numba, JAX...)
through `__cuda_array_interface__` or DLPack without copying.

Both buffer classes have the same interface (`shape`, `dtype`, `size`, `nbytes`, `ptr`, `get()`, `copy_from`,
1-D slicing into views of the same allocation), so host programs run unchanged on either target.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from oxide.runtime import dlpack
from oxide.runtime.driver import check, cuda
from oxide.runtime.errors import KernelArgumentError


@dataclass(frozen=True)
class ArrayView:
    """An array in GPU (or emulator) memory: address, element type, element count, shape, and its element
    strides when it is not C-contiguous (None: row-major; only `device_view(..., strided=True)` gives them)."""

    ptr: int
    dtype: np.dtype
    size: int
    shape: tuple[int, ...]
    strides: tuple[int, ...] | None = None

    @property
    def nbytes(self) -> int:
        """Bytes covered."""
        return self.size * self.dtype.itemsize


class _Allocation:
    """One cuMemAlloc; freed when the last buffer viewing it is gone."""

    def __init__(self, nbytes: int):
        self.ptr = int(check(cuda().cuMemAlloc(max(nbytes, 1)), f"cuMemAlloc({nbytes} bytes)"))
        self.nbytes = nbytes
        self._finalizer = weakref.finalize(self, _free, self.ptr)


def _free(ptr: int) -> None:
    try:
        cuda().cuMemFree(ptr)
    except Exception:  # interpreter shutdown or a dead context: nothing left to free into
        pass


class _BufferBase:
    """What both buffer kinds share: 1-D slicing."""

    shape: tuple[int, ...]
    dtype: np.dtype

    def __len__(self) -> int:
        return self.shape[0] if self.shape else 1

    def _slice_bounds(self, index: Any) -> tuple[int, int]:
        if len(self.shape) != 1 or not isinstance(index, slice):
            raise TypeError("buffers slice along one dimension only: buf[start:stop] of a 1-D buffer")
        start, stop, step = index.indices(self.shape[0])
        if step != 1:
            raise TypeError("buffer views must be contiguous (step 1)")
        return start, max(stop, start)


class DeviceBuffer(_BufferBase):
    """A contiguous array in GPU memory (C order). `get()` copies it to a new numpy array."""

    def __init__(self, shape: Any, dtype: Any, *, _allocation: _Allocation | None = None, _offset: int = 0):
        self.shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        # Plain attributes rather than the computed properties: the launch path reads them every time.
        self.size = int(np.prod(self.shape, dtype=np.int64))
        self.nbytes = self.size * self.dtype.itemsize
        self._allocation = _allocation or _Allocation(self.nbytes)
        self.ptr = self._allocation.ptr + _offset

    @classmethod
    def from_host(cls, array: Any) -> "DeviceBuffer":
        """Copy a host array to a new device buffer."""
        host = np.ascontiguousarray(array)
        buf = cls(host.shape, host.dtype)
        buf.copy_from(host)
        return buf

    def copy_from(self, array: Any) -> None:
        """Copy a host array of the same size and dtype into this buffer."""
        host = np.ascontiguousarray(array, dtype=self.dtype)
        if host.size != self.size:
            raise ValueError(f"copy_from: buffer holds {self.size} elements, the array {host.size}")
        if host.nbytes:
            check(cuda().cuMemcpyHtoD(self.ptr, host.ctypes.data, host.nbytes), "cuMemcpyHtoD")

    def copy_to(self, out: np.ndarray) -> np.ndarray:
        """Copy into an existing contiguous host array of the same size and dtype."""
        if not out.flags.c_contiguous or out.dtype != self.dtype or out.size != self.size:
            raise ValueError("copy_to needs a C-contiguous array of the buffer's dtype and size")
        if out.nbytes:
            check(cuda().cuMemcpyDtoH(out.ctypes.data, self.ptr, out.nbytes), "cuMemcpyDtoH")
        return out

    def get(self) -> np.ndarray:
        """The contents as a new numpy array (synchronous)."""
        return self.copy_to(np.empty(self.shape, self.dtype))

    def fill_zero(self) -> None:
        """Set every byte to 0."""
        if self.nbytes:
            check(cuda().cuMemsetD8(self.ptr, 0, self.nbytes), "cuMemsetD8")

    def __getitem__(self, index: slice) -> "DeviceBuffer":
        start, stop = self._slice_bounds(index)
        return DeviceBuffer((stop - start,), self.dtype, _allocation=self._allocation,
                            _offset=self.ptr - self._allocation.ptr + start * self.dtype.itemsize)

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self.ptr, False), "strides": None,
                "version": 3, "stream": None}

    def __dlpack__(self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None,
                   copy: bool | None = None) -> Any:
        """A DLPack capsule of this buffer (zero-copy: `torch.from_dlpack(buf)`, `cupy.from_dlpack(buf)`). The
        data must be ready: wait for oxide streams that write it before exporting (dlpack.py)."""
        if dl_device is not None and tuple(dl_device) != self.__dlpack_device__():
            raise BufferError(f"this buffer is on CUDA device {self.__dlpack_device__()[1]}, not {tuple(dl_device)}")
        return dlpack.export(self, copy)

    def __dlpack_device__(self) -> tuple[int, int]:
        return dlpack.KDL_CUDA, dlpack.device_ordinal(self.ptr)

    def __repr__(self) -> str:
        return f"DeviceBuffer(shape={self.shape}, dtype={self.dtype}, ptr=0x{self.ptr:x})"


class EmulatedBuffer(_BufferBase):
    """The emulator's device memory: a numpy array behind the DeviceBuffer interface."""

    def __init__(self, array: np.ndarray):
        self.array = array
        self.shape, self.dtype = array.shape, array.dtype

    @property
    def size(self) -> int:
        """Element count."""
        return int(self.array.size)

    @property
    def nbytes(self) -> int:
        """Bytes."""
        return int(self.array.nbytes)

    @property
    def ptr(self) -> int:
        """The host address (used for the overlap checks)."""
        return int(self.array.__array_interface__["data"][0])

    @classmethod
    def from_host(cls, array: Any) -> "EmulatedBuffer":
        """Copy a host array."""
        return cls(np.array(array, copy=True, order="C"))

    def copy_from(self, array: Any) -> None:
        """Copy a host array of the same size and dtype in."""
        self.array.reshape(-1)[:] = np.asarray(array, dtype=self.dtype).reshape(-1)

    def copy_to(self, out: np.ndarray) -> np.ndarray:
        """Copy into an existing host array."""
        out.reshape(-1)[:] = self.array.reshape(-1)
        return out

    def get(self) -> np.ndarray:
        """The contents as a new numpy array."""
        return self.array.copy()

    def fill_zero(self) -> None:
        """Set every element to 0."""
        self.array[...] = 0

    def __getitem__(self, index: slice) -> "EmulatedBuffer":
        start, stop = self._slice_bounds(index)
        return EmulatedBuffer(self.array[start:stop])

    def __repr__(self) -> str:
        return f"EmulatedBuffer(shape={self.shape}, dtype={self.dtype})"


def device_view(obj: Any, strided: bool = False) -> ArrayView | None:
    """A zero-copy view of a GPU array object (DeviceBuffer, `__cuda_array_interface__`, DLPack on a CUDA
    device); None if `obj` is none of these. A non-contiguous array is a KernelArgumentError, unless `strided`
    (a caller that passes strides to the kernel, as the tile runtime does): then the view carries its element
    strides, which may be negative or zero (the caller decides what it takes)."""
    if isinstance(obj, DeviceBuffer):
        return ArrayView(obj.ptr, obj.dtype, obj.size, obj.shape)
    if type(obj).__module__ == "torch" and type(obj).__name__ in ("Tensor", "Parameter"):
        view = _torch_view(obj, strided)
        if view is not None:
            return view
    try:
        cai = getattr(obj, "__cuda_array_interface__", None)
    except (TypeError, ValueError):  # torch has no typestr for bfloat16 and raises: try DLPack below
        cai = None
    if cai is not None:
        dtype = np.dtype(cai["typestr"])
        if dtype.kind == "V" and dtype.itemsize == 2 and "bfloat16" in str(getattr(obj, "dtype", "")):
            dtype = np.dtype(np.uint16)  # torch describes bfloat16 as raw 2-byte records: take its 16-bit patterns
        shape = tuple(cai["shape"])
        strides = cai.get("strides")
        elements = None
        if strides is not None and tuple(strides) != _c_strides(shape, dtype.itemsize):
            if not strided or any(s % dtype.itemsize for s in strides):
                raise KernelArgumentError("the GPU array is not C-contiguous; pass a contiguous copy")
            elements = tuple(int(s) // dtype.itemsize for s in strides)
        return ArrayView(int(cai["data"][0] or 0), dtype, math.prod(shape), shape, elements)
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        device_type, _ = obj.__dlpack_device__()
        if int(device_type) not in (2, 3, 13):  # kDLCUDA, kDLCUDAHost, kDLCUDAManaged
            return None
        from cuda.core.utils import StridedMemoryView

        # from_dlpack is the explicit constructor of newer cuda.core; the plain constructor tries DLPack first.
        make = getattr(StridedMemoryView, "from_dlpack", None)
        view = make(obj, -1) if make is not None else StridedMemoryView(obj, -1)
        shape = tuple(view.shape)
        elements = None
        if view.strides is not None and tuple(view.strides) != _c_strides(shape, 1):
            if not strided:
                raise KernelArgumentError("the GPU array is not C-contiguous; pass a contiguous copy")
            elements = tuple(int(s) for s in view.strides)  # DLPack strides count elements
        return ArrayView(int(view.ptr), _dlpack_dtype(view, obj), int(np.prod(shape, dtype=np.int64)), shape,
                         elements)
    return None


# torch dtypes by name; bfloat16, which numpy lacks, as its 16-bit patterns (how the runtime takes bf16 data).
_TORCH_DTYPES = {f"torch.{name}": np.dtype(dtype) for name, dtype in (
    ("float32", np.float32), ("float64", np.float64), ("float16", np.float16), ("bfloat16", np.uint16),
    ("int8", np.int8), ("int16", np.int16), ("int32", np.int32), ("int64", np.int64), ("uint8", np.uint8),
    ("uint16", np.uint16), ("uint32", np.uint32), ("uint64", np.uint64), ("bool", np.bool_),
    # fp8, which numpy lacks, as its bytes (the tile runtime reads them as the kernel's fp8 type).
    ("float8_e4m3fn", np.uint8), ("float8_e5m2", np.uint8))}


def _torch_view(tensor: Any, strided: bool) -> ArrayView | None:
    """A CUDA torch tensor read through its own accessors: the CUDA array interface costs several µs per call
    and has no bfloat16. None for anything this does not cover (CPU tensors, other dtypes): the generic path."""
    dtype = _TORCH_DTYPES.get(str(tensor.dtype))
    if dtype is None or not tensor.is_cuda:
        return None
    shape = tuple(tensor.shape)
    strides = None
    if tensor.numel() > 1 and not tensor.is_contiguous():
        if not strided:
            raise KernelArgumentError("the GPU array is not C-contiguous; pass a contiguous copy")
        strides = tuple(int(s) for s in tensor.stride())  # torch strides count elements
    return ArrayView(int(tensor.data_ptr()), dtype, math.prod(shape), shape, strides)


def _dlpack_dtype(view: Any, obj: Any) -> np.dtype:
    """The numpy dtype of a DLPack array; bfloat16, which numpy lacks, as its 16-bit pattern (uint16), the form
    the runtime takes bf16 data in."""
    try:
        return np.dtype(view.dtype)
    except (TypeError, ValueError, RuntimeError):
        if "bfloat16" in str(getattr(obj, "dtype", "")):
            return np.dtype(np.uint16)
        raise KernelArgumentError(f"cannot read the element type of this GPU array ({getattr(obj, 'dtype', '?')})")


def _c_strides(shape: tuple[int, ...], itemsize: int) -> tuple[int, ...]:
    strides, step = [], itemsize
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    return tuple(reversed(strides))
