"""Argument marshalling for tile kernels: Python values -> the tile kernel ABI, checked against the signature.

`TileBinder.bind(args)` checks what cutile-rs checks at launch and more (KernelArgumentError or
LaunchContractError naming the kernel and the parameter):
- every `&mut Tensor<E, {[S..]}>` parameter gets an `oxide.tile.partition(array, S)` with exactly the
  kernel's tile shape S, and every output partition has the same grid (that grid is the launch grid);
- element types and ranks match, and the static dims of `&Tensor` inputs match the array's extents;
- the grid is not empty;
- the memory of every output is recorded for the overlap check (outputs against each other and against
  every input), with a strided array's whole byte range.

ABI per tensor (contract): on the GPU a pointer, r x i64 extents, r x i64 strides in elements; on the
emulator the numpy array itself (any strides). A GPU array may be strided (a transposed view, a column slice):
its strides reach the kernel as they are, if none is negative; an output whose elements overlap (a zero stride,
a broadcast) is refused, and the overlap check takes a strided array's whole byte range. A kernel compiled for sm_90a's GEMM path (docs/tile-hopper.md)
takes, after those, one TMA tensor map per `tile["tma"]` entry, which the binder encodes for the GPU from the
device memory of the tensor the entry names. Such a kernel lists its launch-time variants (`tile["variants"]`, in
the order they are tried): the binder picks the first whose tensor maps all encode for the bound tensors, the
last (the mma.sync sibling) needing none (`TileBound.variant`); an artifact without variants refuses a tensor TMA
cannot describe with a KernelArgumentError. A straight-line kernel (tile_to_simt/guarded.py) lists two variants:
itself, for tensors that are all `vector_ready`, then its default lowering. Numpy arrays on the GPU are copied to the device (made contiguous) and
outputs copied back after a synchronous launch, as the SIMT runtime does.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from oxide.runtime import staging
from oxide.runtime.errors import (
    HostArrayError,
    KernelArgumentError,
    LaunchContractError,
)
from oxide.runtime.marshal import ArgumentChecker, BufferArg
from oxide.runtime.memory import DeviceBuffer, EmulatedBuffer, device_view
from oxide.runtime.scalars import SCALARS, convert, device_address
from oxide.runtime.signature import KernelSpec, ParamSpec
from oxide.runtime.staging import Staged
from oxide.runtime.tensor_map import TensorMap, TensorMapError
from oxide.runtime.tile import MappedPartition, Partition

# A straight-line tile kernel's widest access (tile_to_simt/guarded.py): ld.global.v4.b32.
_VECTOR_BYTES = 16

_FLOATS = {"f32": np.float32, "f64": np.float64, "f16": np.float16}
# Tensor elements whose numpy stand-in does not tell TMA their type (bf16 arrives as 16-bit patterns).
_TMA_DTYPES = {"bf16": "bfloat16", "f8e4m3fn": "uint8", "f8e5m2": "uint8"}
# fp8 arrays: their bytes (uint8), or an array type named for the same fp8 type (torch, ml_dtypes).
_FP8_DTYPE_NAMES = {"f8e4m3fn": "float8_e4m3fn", "f8e5m2": "float8_e5m2"}
_SIGNLESS = {"i8": 1, "i16": 2, "i32": 4, "i64": 8}
# Encoded tensor maps kept per binder: a GEMM relaunched on the same tensors reuses its descriptors (encoding
# three maps cost about half of a launch's host time). A descriptor is a function of the key alone.
_TENSOR_MAP_CACHE = 64


@functools.lru_cache(maxsize=256)
def dtype_fits(elem: str, dtype: np.dtype) -> bool:
    """Whether arrays of `dtype` hold tensor elements of type `elem` (a Rust name, or a signless MLIR one)."""
    if elem in _FLOATS:
        return dtype == np.dtype(_FLOATS[elem])
    if elem == "bf16":  # numpy has no bf16: ml_dtypes' bfloat16, or the 16-bit patterns as (u)int16
        return dtype.itemsize == 2 and (dtype.name == "bfloat16" or dtype.kind in "iu")
    if elem in _FP8_DTYPE_NAMES:  # numpy has no fp8: the bit patterns as uint8, read as the kernel's fp8 type
        return dtype == np.uint8 or dtype.name == _FP8_DTYPE_NAMES[elem]
    if elem in ("bool", "i1"):
        return dtype == np.bool_
    if elem in _SIGNLESS:
        return dtype.kind in "iu" and dtype.itemsize == _SIGNLESS[elem]
    return elem in SCALARS and dtype == SCALARS[elem].dtype


def self_overlapping(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """Whether two elements of an array with these element strides share memory: a zero stride, or an axis
    that steps inside the span of the axes with smaller strides (negative strides are refused before this)."""
    span = 1  # elements covered by the axes taken so far
    for extent, stride in sorted(((n, abs(s)) for n, s in zip(shape, strides) if n > 1), key=lambda a: a[1]):
        if stride < span:
            return True
        span = stride * (extent - 1) + span
    return False


def byte_range(ptr: int, shape: Sequence[int], strides: Sequence[int], itemsize: int) -> tuple[int, int]:
    """(first byte, byte count) that an array with these byte strides touches; (ptr, 0) if it is empty."""
    if any(n == 0 for n in shape):
        return ptr, 0
    low = ptr + sum(s * (n - 1) for n, s in zip(shape, strides) if s < 0)
    high = ptr + sum(s * (n - 1) for n, s in zip(shape, strides) if s > 0) + itemsize
    return low, high - low


def vector_ready(ptr: int, shape: tuple[int, ...], strides: tuple[int, ...], dtype: np.dtype) -> bool:
    """Whether a straight-line tile kernel may move this device tensor in 16-byte runs (strides in elements): a
    16-byte aligned base, innermost stride 1, the other strides and the innermost extent multiples of the run."""
    run = _VECTOR_BYTES // dtype.itemsize
    if not shape:
        return ptr % _VECTOR_BYTES == 0
    return (ptr % _VECTOR_BYTES == 0 and strides[-1] == 1 and shape[-1] % run == 0
            and all(s % run == 0 for s in strides[:-1]))


def own_variant(kernel: Any) -> dict[str, Any]:
    """A tile kernel's own entry as a launch variant: its tile launch facts (warps, maps, ring, ...) under its
    entry's name. It is the only variant of a kernel that lists none."""
    return {**(kernel.tile or {}), "entry": kernel.entry}


class TileBound:
    """Bound arguments: ABI values, buffers for the overlap check, the launch grid, host copies to write back."""

    __slots__ = ("abi", "abi_slots", "buffers", "copy_back", "device_tensors", "grid", "staged", "temporaries",
                 "variant")

    def __init__(self) -> None:
        self.abi: list[Any] = []
        # GPU only: each tensor parameter's device memory (address, shape, element strides, dtype), by parameter.
        self.device_tensors: dict[int, tuple[int, tuple[int, ...], tuple[int, ...], np.dtype]] = {}
        self.buffers: list[BufferArg] = []
        self.grid: tuple[int, int, int] | None = None
        self.copy_back: list[tuple[np.ndarray, DeviceBuffer]] = []
        self.temporaries: list[DeviceBuffer] = []
        # GPU only: the variant the launch runs ({"entry", "tma", "dynamic_shared", "threads", "persistent", ..}).
        self.variant: dict[str, Any] = {}
        # GPU only: where each tensor parameter's pointer is in `abi`, and the tensors each launch copies into
        # padded buffers (staging.py); with any, the variant's tensor maps are encoded per launch.
        self.abi_slots: dict[int, int] = {}
        self.staged: list[Staged] = []


class TileBinder(ArgumentChecker):
    """Checks and converts the arguments of one tile kernel, for the GPU (`gpu=True`) or the emulator."""

    def __init__(self, kernel: KernelSpec, gpu: bool):
        super().__init__(kernel, gpu)
        # Encoded tensor maps by (TMA entry, address, shape, strides, dtype), oldest first (_TENSOR_MAP_CACHE).
        self._tensor_maps: dict[tuple, bytes | TensorMapError] = {}

    def bind(self, args: Sequence[Any], allow_host: bool) -> TileBound:
        """Check and convert `args` (in parameter order); the grid comes from the output partitions."""
        self._check_count(args)
        bound = TileBound()
        first_output = None
        for index, (p, value) in enumerate(zip(self.params, args)):
            if p.kind in ("tile_out", "tile_mapped"):
                grid = self._output_grid(p, value) if p.kind == "tile_out" else self._mapped_grid(p, value)
                if bound.grid is None:
                    bound.grid, first_output = grid, p
                elif grid != bound.grid:
                    assert first_output is not None
                    raise LaunchContractError(
                        self.kernel.name, "grid", f"{bound.grid} (the partition grid of `{first_output.name}`)", grid,
                        f"the partition of `{p.name}` has another grid; every output of a tile kernel must be "
                        "split into the same number of tiles per dimension")
                self._tensor(p, value.array, allow_host, bound, index)
            elif p.kind == "tile_in":
                if isinstance(value, Partition):
                    raise self._fail(p, "an input tensor takes the array itself, not a partition (the kernel "
                                        "partitions its inputs)")
                self._tensor(p, value, allow_host, bound, index)
            elif p.kind == "ptr":
                self._pointer(p, value, allow_host, bound)
            else:
                self._scalar(p, value, bound)
        if bound.grid is not None and 0 in bound.grid:
            raise LaunchContractError(self.kernel.name, "grid", "at least one tile block per axis", bound.grid,
                                      "an output partition is empty")
        if self.gpu:
            self._choose_variant(bound)
        return bound

    def _choose_variant(self, bound: TileBound) -> None:
        """Pick the first variant whose tensor maps encode for the bound tensors (and whose "vector" tensors are
        vector-ready); append its maps to the ABI."""
        tile = self.kernel.tile or {}
        variants = tile.get("variants") or [own_variant(self.kernel)]
        stageable: tuple[dict[str, Any], list[Staged]] | None = None
        for variant in variants:
            if not all(vector_ready(*bound.device_tensors[i]) for i in variant.get("vector", [])):
                continue  # a straight-line kernel; its default lowering follows
            if stageable is not None and not variant.get("tma"):
                break  # the TMA entry on padded copies before a variant that reads without TMA (staging.py)
            maps: list[bytes] = []
            for entry in variant.get("tma", []):
                encoded = self._tensor_map(entry, bound)
                if isinstance(encoded, TensorMapError):
                    if stageable is None and staging.enabled():
                        staged = self._staging(variant, bound)
                        stageable = None if staged is None else (variant, staged)
                    break  # a later variant may read this tensor without TMA
                maps.append(encoded)
            else:
                bound.variant = variant
                bound.abi += maps
                return
        if stageable is not None:
            bound.variant, bound.staged = stageable
            return
        # Only a kernel whose last variant needs TMA gets here: its tiles are beyond the mma.sync path's staging
        # (128 x 256 x 64), it is sm_90a's attention loop (docs/tile-attention.md), or its artifact was compiled
        # before variants existed.
        off = "" if staging.enabled() else "; staging into padded copies is off (OXIDE_STAGE_OPERANDS=0)"
        raise self._fail(self.params[entry["param"]], f"this kernel reads the tensor through TMA (compiled for "
                                                      f"sm_90a's GEMM or attention path), and {encoded}{off}; pad "
                                                      f"the rows to a multiple of 16 bytes, or compile for sm_90 "
                                                      f"(mma.sync)")

    def _staging(self, variant: dict[str, Any], bound: TileBound) -> list[Staged] | None:
        """The tensors to stage so that every tensor map of `variant` encodes (staging.plan), or None where one
        cannot be staged, or still would not encode on a padded buffer."""
        staged: dict[int, Staged] = {}
        for entry in variant.get("tma", []):
            param = entry["param"]
            ptr, shape, strides, dtype = bound.device_tensors[param]
            swapped = bool(entry.get("transposed"))
            if not isinstance(self._tensor_map(entry, bound), TensorMapError) and param not in staged:
                continue
            if swapped:
                shape, strides = (*shape[:-2], shape[-1], shape[-2]), (*strides[:-2], strides[-1], strides[-2])
            whole = param in (self.kernel.tile or {}).get("stores_whole", [])
            plan = staging.plan(param, ptr, shape, strides, dtype, self.params[param].mutable, whole, swapped)
            if plan is None or staged.get(param, plan) != plan:
                return None
            staged[param] = plan
            try:  # the rules on the buffer's layout, at an address as aligned as an allocation's
                self._map_of(entry, (staging.ALIGN * 2**20, bound.device_tensors[param][1], plan.abi_strides(),
                                     dtype))
            except TensorMapError:
                return None
        return list(staged.values()) or None

    def staged_abi(self, bound: TileBound, buffers: dict[int, int]) -> list[Any]:
        """A staged launch's ABI: each staged tensor's pointer and strides replaced by its buffer's (`buffers`:
        by parameter), then the variant's tensor maps encoded on what the kernel reads."""
        abi = list(bound.abi)
        tensors = dict(bound.device_tensors)
        for staged in bound.staged:
            _, shape, _, dtype = tensors[staged.param]
            strides = staged.abi_strides()
            slot = bound.abi_slots[staged.param]
            abi[slot] = buffers[staged.param]
            abi[slot + 1 + len(shape):slot + 1 + 2 * len(shape)] = strides
            tensors[staged.param] = (buffers[staged.param], shape, strides, dtype)
        for entry in bound.variant.get("tma", []):
            encoded = self._cached_map(entry, tensors[entry["param"]])
            if isinstance(encoded, TensorMapError):
                raise self._fail(self.params[entry["param"]], f"the staged copy cannot be read by TMA: {encoded}")
            abi.append(encoded)
        return abi

    def _tensor_map(self, entry: dict[str, Any], bound: TileBound) -> bytes | TensorMapError:
        """The 128-byte descriptor of a `tile["tma"]` entry (the box of the tensor parameter it names, swizzled),
        or why TMA cannot describe that tensor."""
        return self._cached_map(entry, bound.device_tensors[entry["param"]])

    def _cached_map(self, entry: dict[str, Any], tensor: tuple[int, tuple[int, ...], tuple[int, ...], np.dtype]
                    ) -> bytes | TensorMapError:
        key = (id(entry), *tensor)
        cache = self._tensor_maps
        if key not in cache:
            if len(cache) >= _TENSOR_MAP_CACHE:
                cache.pop(next(iter(cache)))
            cache[key] = self._encode_tensor_map(entry, tensor)
        return cache[key]

    def _encode_tensor_map(self, entry: dict[str, Any], tensor: tuple[int, tuple[int, ...], tuple[int, ...], np.dtype]
                           ) -> bytes | TensorMapError:
        try:
            return self._map_of(entry, tensor).descriptor()
        except TensorMapError as exc:
            return exc

    def _map_of(self, entry: dict[str, Any], tensor: tuple[int, tuple[int, ...], tuple[int, ...], np.dtype]
                ) -> TensorMap:
        """The tensor map of a `tile["tma"]` entry on `tensor` (address, shape, element strides, dtype), its
        rules checked (TensorMapError), not yet encoded."""
        p = self.params[entry["param"]]
        ptr, shape, strides, dtype = tensor
        if entry.get("transposed"):  # the map describes the memory with the last two dimensions swapped (K-major B)
            shape, strides = (*shape[:-2], shape[-1], shape[-2]), (*strides[:-2], strides[-1], strides[-2])
        return TensorMap(_DeviceTensor(ptr, shape, strides, dtype), entry["box"], swizzle=entry["swizzle"],
                         dtype=_TMA_DTYPES.get(p.elem))

    def mismatch(self, args: Sequence[Any]) -> str | None:
        """Why `args` do not fit this signature (count, partitions' tile shapes, element types, ranks, scalar
        types), or None; copies nothing (a generic kernel picks its instance with this)."""
        if len(args) != len(self.params):
            return f"takes {len(self.params)} argument(s), {len(args)} given"
        for p, value in zip(self.params, args):
            if p.kind == "scalar":
                try:
                    convert(value, SCALARS[p.elem])
                except (TypeError, KeyError) as exc:
                    return f"`{p.name}: {p.rust_type}`: {exc}"
                continue
            if p.kind == "tile_out":
                if not isinstance(value, Partition) or value.tile_shape != tuple(p.shape):
                    return f"`{p.name}: {p.rust_type}` takes a partition with tile shape {tuple(p.shape)}"
                value = value.array
            if p.kind == "tile_mapped":
                if not isinstance(value, MappedPartition) or value.partition.tile_shape != tuple(p.shape) \
                        or value.map != tuple(p.map):
                    return (f"`{p.name}: {p.rust_type}` takes a mapped partition with tile shape {tuple(p.shape)} "
                            f"and map {tuple(p.map)}")
                value = value.array
            if p.kind == "ptr" and isinstance(value, int):
                continue
            try:
                _, dtype, shape = self._array(p, value)
            except KernelArgumentError as exc:
                return str(exc)
            if not dtype_fits(p.elem, dtype):
                return f"`{p.name}: {p.rust_type}` does not take {_describe(value)}"
            if p.is_tensor and len(shape) != len(p.shape):
                return f"`{p.name}: {p.rust_type}` is a rank-{len(p.shape)} tensor"
        return None

    def _output_grid(self, p: ParamSpec, value: Any) -> tuple[int, int, int]:
        hint = f"oxide.tile.partition({p.name}, {tuple(p.shape)})"
        if not isinstance(value, Partition):
            raise self._fail(p, f"a tile kernel's output is a partition of an array: pass `{hint}`, got "
                                f"{_describe(value)}")
        if value.tile_shape != tuple(p.shape):
            raise self._fail(p, f"the kernel writes tiles of shape {tuple(p.shape)}, but the partition has tile "
                                f"shape {value.tile_shape}; pass `{hint}`")
        grid = value.grid
        return tuple(grid) + (1,) * (3 - len(grid))  # type: ignore[return-value]

    def _mapped_grid(self, p: ParamSpec, value: Any) -> tuple[int, int, int]:
        """(blocks, 1, 1) of a mapped partition whose tile shape and map are the kernel's."""
        hint = f"oxide.tile.partition({p.name}, {tuple(p.shape)}).map({tuple(p.map)}, blocks)"
        if not isinstance(value, MappedPartition):
            raise self._fail(p, f"a `MappedPartitionMut` parameter takes a mapped partition of an array: pass "
                                f"`{hint}`, got {_describe(value)}")
        if value.partition.tile_shape != tuple(p.shape) or value.map != tuple(p.map):
            raise self._fail(p, f"the kernel writes tiles of shape {tuple(p.shape)} in work items of {tuple(p.map)}, "
                                f"but the partition has tile shape {value.partition.tile_shape} and map {value.map}; "
                                f"pass `{hint}`")
        if not 1 <= value.blocks <= value.work_items:
            raise self._fail(p, f"the mapped partition asks for {value.blocks} tile blocks, but it holds "
                                f"{value.work_items} work items (the array changed shape?)")
        return (value.blocks, 1, 1)

    def _array(self, p: ParamSpec, value: Any) -> tuple[Any, np.dtype, tuple[int, ...]]:
        """(a numpy array or a device ArrayView, its dtype, its shape) after the kind checks of the target."""
        if isinstance(value, EmulatedBuffer):
            if self.gpu:
                raise self._fail(p, "an emulator buffer cannot be used on the GPU; create buffers with the module "
                                    "that launches (`module.to_device`)")
            value = value.array
        if isinstance(value, np.ndarray):
            return value, value.dtype, tuple(value.shape)
        if not self.gpu:
            if isinstance(value, DeviceBuffer) or hasattr(value, "__cuda_array_interface__"):
                raise self._fail(p, "a GPU array cannot be used by the emulator; copy it to the host (`.get()`), "
                                    "or run on the GPU")
            raise self._fail(p, f"expected a numpy array, got {_describe(value)}")
        view = self._device(p, value)
        return view, view.dtype, tuple(int(d) for d in view.shape)

    def _tensor(self, p: ParamSpec, value: Any, allow_host: bool, bound: TileBound, index: int) -> None:
        array, dtype, shape = self._array(p, value)
        if not dtype_fits(p.elem, dtype):
            raise self._fail(p, f"expected elements of {p.elem}, got an array of {dtype}")
        if len(shape) != len(p.shape):
            raise self._fail(p, f"expected a rank-{len(p.shape)} tensor, got an array of shape {shape}")
        if p.kind == "tile_in":
            for axis, (want, got) in enumerate(zip(p.shape, shape)):
                if want != -1 and want != got:
                    raise self._fail(p, f"dimension {axis} is {want} in the kernel's type, but the array has shape "
                                        f"{shape}")
        if isinstance(array, np.ndarray):
            address, strides = array.__array_interface__["data"][0], [s // dtype.itemsize for s in array.strides]
            if p.mutable and not array.flags.writeable:
                raise self._fail(p, "the kernel writes this argument, but the array is read-only")
        else:
            address, strides = array.ptr, list(array.strides or _c_strides(shape))
            if any(s < 0 for s, n in zip(strides, shape) if n > 1):
                raise self._fail(p, f"the GPU array has strides {tuple(strides)} (in elements); a tile kernel takes "
                                    "non-negative strides: pass a contiguous copy (or flip the data, not the view)")
        if p.mutable and self_overlapping(shape, strides):
            raise self._fail(p, f"the kernel writes this argument, but its strides {tuple(strides)} (in elements) "
                                f"make elements overlap (a broadcast view): pass a contiguous array")
        start, size = byte_range(address, shape, [s * dtype.itemsize for s in strides], dtype.itemsize)
        bound.buffers.append(BufferArg(p.name, start, size, p.mutable))
        if not self.gpu:
            bound.abi.append(array)
            return
        if isinstance(array, np.ndarray):  # copied to the device, contiguous
            ptr, strides = self._host_to_device(p, array, allow_host, bound), _c_strides(shape)
        else:
            ptr = address
        bound.device_tensors[index] = (ptr, shape, tuple(strides), np.dtype(dtype))
        bound.abi_slots[index] = len(bound.abi)
        bound.abi += [ptr, *shape, *strides]

    def _pointer(self, p: ParamSpec, value: Any, allow_host: bool, bound: TileBound) -> None:
        if self.gpu and isinstance(value, int) and not isinstance(value, bool):
            bound.abi.append(device_address(value, lambda why: self._fail(p, why)))
            return
        array, dtype, _ = self._array(p, value)
        if not dtype_fits(p.elem, dtype):
            raise self._fail(p, f"expected elements of {p.elem}, got an array of {dtype}")
        if isinstance(array, np.ndarray):
            if not array.flags.c_contiguous:
                raise self._fail(p, "a raw pointer needs a C-contiguous array; pass np.ascontiguousarray(array)")
            bound.buffers.append(BufferArg(p.name, array.__array_interface__["data"][0], array.nbytes, p.mutable))
            bound.abi.append(self._host_to_device(p, array, allow_host, bound) if self.gpu else array)
        else:
            if array.strides is not None:
                raise self._fail(p, "a raw pointer needs a C-contiguous GPU array; pass a contiguous copy")
            bound.buffers.append(BufferArg(p.name, array.ptr, array.nbytes, p.mutable))
            bound.abi.append(array.ptr)

    def _scalar(self, p: ParamSpec, value: Any, bound: TileBound) -> None:
        if p.elem not in SCALARS:
            raise self._fail(p, f"the runtime cannot pass {p.elem} scalars; pass the value in a tensor")
        try:
            number = convert(value, SCALARS[p.elem])
        except TypeError as exc:
            raise self._fail(p, str(exc)) from None
        bound.abi.append(number)

    def _device(self, p: ParamSpec, value: Any) -> Any:
        try:
            view = device_view(value, strided=True)
        except KernelArgumentError as exc:
            raise self._fail(p, str(exc)) from None
        if view is None:
            raise self._fail(p, f"expected a GPU array (oxide DeviceBuffer, CuPy, PyTorch, any "
                                f"__cuda_array_interface__ or DLPack object) or a numpy array, got {_describe(value)}")
        return view

    def _host_to_device(self, p: ParamSpec, value: np.ndarray, allow_host: bool, bound: TileBound) -> int:
        if not allow_host:
            raise self._fail(p, "a host (numpy) array cannot be used by a stream-ordered launch (nor a prepared "
                                "one); hint: copy it to the GPU first with `oxide.runtime.to_device(array)` (or "
                                "`module.to_device`), or launch without `stream=` to have it copied in and out",
                             HostArrayError)
        device = DeviceBuffer.from_host(np.ascontiguousarray(value))
        bound.temporaries.append(device)  # alive until the launch has completed
        if p.mutable:
            bound.copy_back.append((value, device))
        return device.ptr


class _DeviceTensor:
    """A bound tensor's device memory as TensorMap reads a GPU array (`__cuda_array_interface__`); strides in
    elements."""

    def __init__(self, ptr: int, shape: tuple[int, ...], strides: tuple[int, ...], dtype: np.dtype):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": dtype.str, "data": (ptr, True),
                                         "strides": tuple(s * dtype.itemsize for s in strides), "version": 3}


def _c_strides(shape: tuple[int, ...]) -> list[int]:
    """Row-major strides in elements."""
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    return strides[::-1]


def _describe(value: Any) -> str:
    dtype = getattr(value, "dtype", None)
    return f"an array of {dtype}" if dtype is not None else f"a {type(value).__name__}"
