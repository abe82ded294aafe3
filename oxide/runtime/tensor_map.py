"""Host tensor maps for TMA: `TensorMap(array, box, ...)` describes a tiled view of a device array that a
kernel's `*const TmaDescriptor` parameter receives as the 128-byte descriptor itself (by value,
grid-constant).

Dims, strides and boxes are given outermost-first, like the array's shape (`box=(64, 32)` is 64 rows of 32
elements of a 2-D array); the descriptor and the device's coordinates are innermost-first, as PTX takes
them (`cp_async_bulk_tensor_2d_g2s(dst, map, col, row, bar)`).

The hardware's rules (cuTensorMapEncodeTiled's) are checked in Python when the map is built, each failure a
TensorMapError naming the rule and the value. The descriptor is encoded with the driver only when a GPU
launch needs it (once, then cached), so a map of a numpy array can be built, checked and handed to the
emulator on a machine without a GPU. The plain description (dtype, shape, byte strides, box, element
strides, swizzle, fill) stays on the object for whoever models the copy.
"""

from __future__ import annotations

import math
import struct
from typing import Any

import numpy as np

from oxide.runtime.driver import check, cuda
from oxide.runtime.errors import OxideRuntimeError
from oxide.runtime.memory import DeviceBuffer

MAX_RANK = 5
DESCRIPTOR_BYTES = 128
GLOBAL_ALIGN = 16  # the tensor's base address
STRIDE_MULTIPLE = 16  # every stride but the innermost
MAX_STRIDE = 1 << 40
MAX_DIM = 1 << 32
MAX_BOX = 256
MAX_ELEMENT_STRIDE = 8
INNER_BOX_MULTIPLE = 16  # bytes of the innermost box extent
SWIZZLES = {"none": 0, "32B": 32, "64B": 64, "128B": 128}
OOB_FILLS = ("zero", "nan")
L2_PROMOTIONS = ("none", "64B", "128B", "256B")

# numpy element types -> the driver's data types. TMA copies bits, so signed 8/16-bit integers travel as the
# unsigned types of their width; the type matters to the hardware only for the NaN fill (floats only).
_DATA_TYPES = {
    "uint8": "UINT8", "int8": "UINT8", "bool": "UINT8", "uint16": "UINT16", "int16": "UINT16",
    "uint32": "UINT32", "int32": "INT32", "uint64": "UINT64", "int64": "INT64",
    "float16": "FLOAT16", "bfloat16": "BFLOAT16", "float32": "FLOAT32", "float64": "FLOAT64",
}
_FLOATS = ("float16", "bfloat16", "float32", "float64")
_ITEMSIZE = {"bfloat16": 2}


class TensorMapError(OxideRuntimeError, ValueError):
    """A tensor map breaks one of the hardware's rules: `rule` names it, `value` is what broke it."""

    def __init__(self, rule: str, value: Any, message: str):
        self.rule, self.value = rule, value
        super().__init__(f"tensor map: {message}")


class TensorMap:
    """A TMA tensor map of a device array (numpy arrays only for the emulator).

    array            anything with `__cuda_array_interface__` (CuPy, PyTorch, ...), an oxide DeviceBuffer, or
                     a numpy array (emulator only)
    box              the box one copy moves, outermost-first, each 1..256
    element_strides  outermost-first, each 1..8 (default all 1): the box takes every k-th element
    swizzle          "none", "32B", "64B" or "128B": how the box is laid out in shared memory
    oob_fill         "zero" or "nan" (floats): what out-of-bounds elements of a load read as
    l2_promotion     "none", "64B", "128B" or "256B"
    dtype            the element type, when the array's is another of the same size (`"bfloat16"` for a
                     uint16 buffer of bf16 bits)
    """

    def __init__(self, array: Any, box: Any, *, element_strides: Any = None, swizzle: str = "none",
                 oob_fill: str = "zero", l2_promotion: str = "none", interleave: str = "none",
                 dtype: Any = None):
        self.array = array
        self.address, self.shape, self.strides, array_dtype, self.on_host = _describe(array)
        self.dtype = _element_type(array_dtype, dtype)
        self.itemsize = _ITEMSIZE.get(self.dtype) or np.dtype(self.dtype).itemsize
        self.box = _ints(box, "box")
        self.element_strides = _ints(element_strides, "element_strides") if element_strides is not None \
            else tuple(1 for _ in self.shape)
        self.swizzle, self.oob_fill, self.l2_promotion = swizzle, oob_fill, l2_promotion
        if interleave != "none":
            raise TensorMapError("interleave", interleave, f"interleave {interleave!r} is not supported; tiled "
                                 "maps here use interleave \"none\"")
        check_rules(self)
        self._descriptor: bytes | None = None

    @property
    def rank(self) -> int:
        """The number of dimensions (1..5)."""
        return len(self.shape)

    @property
    def box_bytes(self) -> int:
        """The bytes one load of the box brings into shared memory (what `expect_tx` waits for)."""
        counts = [-(-b // s) for b, s in zip(self.box, self.element_strides)]
        return math.prod(counts) * self.itemsize

    @property
    def extent_bytes(self) -> int:
        """The bytes from the tensor's first element to the end of its last: what its copies may touch."""
        return sum((d - 1) * s for d, s in zip(self.shape, self.strides)) + self.itemsize

    def descriptor(self) -> bytes:
        """The 128-byte CUtensorMap, encoded by the driver on first use (needs a GPU and a device array)."""
        if self._descriptor is None:
            if self.on_host:
                raise TensorMapError("device_array", type(self.array).__name__,
                                     "a map of a host (numpy) array runs on the emulator only; build the map "
                                     "from a GPU array (oxide.runtime.to_device(array), CuPy, PyTorch) to launch "
                                     "on the GPU")
            self._descriptor = _encode(self)
        return self._descriptor

    def __repr__(self) -> str:
        return (f"TensorMap(dtype={self.dtype}, shape={self.shape}, strides={self.strides}, box={self.box}, "
                f"element_strides={self.element_strides}, swizzle={self.swizzle!r}, oob_fill={self.oob_fill!r})")


def _ints(values: Any, what: str) -> tuple[int, ...]:
    try:
        out = tuple(int(v) for v in values)
    except (TypeError, ValueError):
        raise TensorMapError(what, values, f"`{what}` must be a sequence of integers, got {values!r}") from None
    return out


def _describe(array: Any) -> tuple[int, tuple[int, ...], tuple[int, ...], Any, bool]:
    """(address, shape, byte strides, dtype, on host) of a device or numpy array."""
    if isinstance(array, np.ndarray):
        return (int(array.__array_interface__["data"][0]), tuple(array.shape), tuple(array.strides),
                array.dtype, True)
    if isinstance(array, DeviceBuffer):
        dtype = np.dtype(array.dtype)
        return int(array.ptr), tuple(array.shape), _c_strides(tuple(array.shape), dtype.itemsize), dtype, False
    if "bfloat16" in str(getattr(array, "dtype", "")) and hasattr(array, "data_ptr"):
        # The array interface cannot describe bf16: torch raises, or gives an opaque 2-byte "V2" element.
        shape = tuple(int(d) for d in array.shape)
        strides = tuple(int(s) * 2 for s in array.stride())
        return int(array.data_ptr()), shape, strides, "bfloat16", False
    try:
        cai = getattr(array, "__cuda_array_interface__", None)
    except (TypeError, ValueError):
        cai = None
    if cai is None:
        raise TensorMapError("array", type(array).__name__,
                             f"expected a GPU array (anything with __cuda_array_interface__, or an oxide "
                             f"DeviceBuffer) or a numpy array, got {type(array).__name__}")
    dtype = np.dtype(cai["typestr"])
    shape = tuple(int(d) for d in cai["shape"])
    strides = tuple(int(s) for s in cai["strides"]) if cai.get("strides") else _c_strides(shape, dtype.itemsize)
    return int(cai["data"][0] or 0), shape, strides, dtype, False


def _c_strides(shape: tuple[int, ...], itemsize: int) -> tuple[int, ...]:
    strides, step = [], itemsize
    for d in reversed(shape):
        strides.append(step)
        step *= d
    return tuple(reversed(strides))


def _element_type(array_dtype: Any, requested: Any) -> str:
    name = array_dtype if isinstance(array_dtype, str) else np.dtype(array_dtype).name
    if requested is None:
        chosen = name
    else:
        chosen = requested if isinstance(requested, str) else np.dtype(requested).name
        wanted = _ITEMSIZE.get(chosen) or (np.dtype(chosen).itemsize if chosen in _DATA_TYPES else None)
        have = _ITEMSIZE.get(name) or np.dtype(name).itemsize
        if wanted is not None and wanted != have:
            raise TensorMapError("dtype", chosen, f"dtype {chosen} ({wanted} bytes) does not match the array's "
                                 f"elements ({name}, {have} bytes)")
    if chosen not in _DATA_TYPES:
        raise TensorMapError("dtype", chosen, f"TMA has no {chosen} elements; it copies {', '.join(_DATA_TYPES)}")
    return chosen


def check_rules(m: TensorMap) -> None:
    """Raise TensorMapError unless `m` keeps every rule cuTensorMapEncodeTiled sets for tiled maps."""
    rank = len(m.shape)
    if not 1 <= rank <= MAX_RANK:
        raise TensorMapError("rank", rank, f"the array has {rank} dimensions; TMA maps 1 to {MAX_RANK}")
    for what, values in (("box", m.box), ("element_strides", m.element_strides)):
        if len(values) != rank:
            raise TensorMapError(what, values, f"`{what}` has {len(values)} entries for a {rank}-D array "
                                 "(give one per dimension, outermost first)")
    if m.address % GLOBAL_ALIGN:
        raise TensorMapError("global_address", m.address, f"the array's address 0x{m.address:x} is not "
                             f"{GLOBAL_ALIGN}-byte aligned")
    _check_dims_and_strides(m)
    _check_box(m)
    if m.swizzle not in SWIZZLES:
        raise TensorMapError("swizzle", m.swizzle, f"swizzle {m.swizzle!r} is not one of {', '.join(SWIZZLES)}")
    inner_bytes = m.box[-1] * m.itemsize
    if SWIZZLES[m.swizzle] and inner_bytes > SWIZZLES[m.swizzle]:
        raise TensorMapError("swizzle_span", inner_bytes, f"the innermost box extent is {inner_bytes} bytes "
                             f"({m.box[-1]} x {m.itemsize}), more than the {m.swizzle} swizzle span")
    if m.oob_fill not in OOB_FILLS:
        raise TensorMapError("oob_fill", m.oob_fill, f"oob_fill {m.oob_fill!r} is not \"zero\" or \"nan\"")
    if m.oob_fill == "nan" and m.dtype not in _FLOATS:
        raise TensorMapError("oob_fill", m.oob_fill, f"a NaN fill needs floating-point elements, not {m.dtype}")
    if m.l2_promotion not in L2_PROMOTIONS:
        raise TensorMapError("l2_promotion", m.l2_promotion,
                             f"l2_promotion {m.l2_promotion!r} is not one of {', '.join(L2_PROMOTIONS)}")


def _check_dims_and_strides(m: TensorMap) -> None:
    for axis, extent in enumerate(m.shape):
        if not 1 <= extent <= MAX_DIM:
            raise TensorMapError("global_dim", extent, f"dimension {axis} has extent {extent}; TMA takes 1..2^32")
    if m.strides[-1] != m.itemsize:
        raise TensorMapError("inner_stride", m.strides[-1], f"the innermost dimension must be contiguous (stride "
                             f"{m.itemsize} bytes), but its stride is {m.strides[-1]} bytes")
    for axis, stride in enumerate(m.strides[:-1]):
        if stride % STRIDE_MULTIPLE or not 0 < stride < MAX_STRIDE:
            raise TensorMapError("global_stride", stride, f"dimension {axis} has a stride of {stride} bytes; every "
                                 f"stride but the innermost must be a positive multiple of {STRIDE_MULTIPLE} "
                                 "below 2^40 (pad the rows)")


def _check_box(m: TensorMap) -> None:
    for axis, extent in enumerate(m.box):
        if not 1 <= extent <= MAX_BOX:
            raise TensorMapError("box", extent, f"box extent {extent} of dimension {axis} is not in 1..{MAX_BOX}")
    inner_bytes = m.box[-1] * m.itemsize
    if inner_bytes % INNER_BOX_MULTIPLE:
        raise TensorMapError("inner_box_bytes", inner_bytes, f"the innermost box extent is {inner_bytes} bytes "
                             f"({m.box[-1]} x {m.itemsize}); it must be a multiple of {INNER_BOX_MULTIPLE}")
    for axis, step in enumerate(m.element_strides):
        if not 1 <= step <= MAX_ELEMENT_STRIDE:
            raise TensorMapError("element_strides", step, f"element stride {step} of dimension {axis} is not in "
                                 f"1..{MAX_ELEMENT_STRIDE}")


def _encode(m: TensorMap) -> bytes:
    """cuTensorMapEncodeTiled on the description (innermost-first, as the driver takes it)."""
    drv = cuda()
    swizzle = "NONE" if m.swizzle == "none" else m.swizzle
    l2 = "NONE" if m.l2_promotion == "none" else f"L2_{m.l2_promotion}"
    fill = "NONE" if m.oob_fill == "zero" else "NAN_REQUEST_ZERO_FMA"
    # The bindings take the sizes as their own cuuint32_t / cuuint64_t objects, not Python ints.
    u32, u64 = drv.cuuint32_t, drv.cuuint64_t
    tensor_map = check(drv.cuTensorMapEncodeTiled(
        _enum(drv, "CUtensorMapDataType", f"DATA_TYPE_{_DATA_TYPES[m.dtype]}"), u32(m.rank), m.address,
        [u64(d) for d in reversed(m.shape)], [u64(s) for s in reversed(m.strides[:-1])],
        [u32(b) for b in reversed(m.box)], [u32(e) for e in reversed(m.element_strides)],
        _enum(drv, "CUtensorMapInterleave", "INTERLEAVE_NONE"),
        _enum(drv, "CUtensorMapSwizzle", f"SWIZZLE_{swizzle}"),
        _enum(drv, "CUtensorMapL2promotion", f"L2_PROMOTION_{l2}"),
        _enum(drv, "CUtensorMapFloatOOBfill", f"FLOAT_OOB_FILL_{fill}")), "encoding a tensor map")
    return struct.pack(f"<{DESCRIPTOR_BYTES // 8}Q", *(int(word) for word in tensor_map.opaque))


def _enum(drv: Any, kind: str, member: str) -> Any:
    """A member of one of the driver's tensor-map enums (`CU_TENSOR_MAP_<member>`; the names are the same in
    every cuda-bindings release that has tensor maps)."""
    return getattr(getattr(drv, kind), f"CU_TENSOR_MAP_{member}")
