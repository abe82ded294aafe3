"""Argument marshalling: Python values -> a kernel's ABI, checked against its signature.

A `Binder` is built once per kernel. `bind(args)` checks the count, the kind and element type of every
buffer and the range of every scalar (KernelArgumentError naming the kernel and the parameter), and returns
a `Bound`: the buffers (for the overlap check), the `requires` values (`n`, `x.len()`), and the ABI values.

Buffers: on the GPU, DeviceBuffer, anything with `__cuda_array_interface__` or CUDA DLPack (zero-copy), or a
numpy array (copied in, and out again if the kernel may write it; only for synchronous launches). On the
emulator: numpy arrays (used in place) and EmulatedBuffer. A `DisjointSlice<T, Runtime2DIndex>` takes a 2-D
array (its row width is the second extent) or `RowWidth(buffer, width)`. Buffers of structs or arrays take
the arrays oxide.runtime.elements describes, at an address aligned to the element. A tensor-map parameter
takes an oxide.runtime.TensorMap: on the GPU its 128-byte descriptor, on the emulator the map itself; the
tensor it maps counts as a buffer the kernel may write (TMA stores write through it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from oxide.runtime.elements import Element, element_of, unpassable
from oxide.runtime.errors import HostArrayError, KernelArgumentError, OverlapError
from oxide.runtime.memory import ArrayView, DeviceBuffer, EmulatedBuffer, device_view
from oxide.runtime.scalars import SCALARS, SIGNLESS, convert, device_address, signed_bits
from oxide.runtime.signature import KernelSpec, ParamSpec
from oxide.runtime.tensor_map import TensorMap, TensorMapError


@dataclass(frozen=True)
class RowWidth:
    """A buffer with an explicit row width, for `DisjointSlice<T, Runtime2DIndex>` parameters."""

    buffer: Any
    width: int


class BufferArg(NamedTuple):
    """One buffer argument as launched: which parameter, where, how big, whether the kernel may write it."""

    param: str
    ptr: int
    nbytes: int
    mutable: bool


class Bound:
    """A bound argument list: ABI values (GPU: ints/floats per PTX parameter; emulator: per simt
    parameter), buffers for the overlap check, values for `requires`, host arrays to copy back."""

    __slots__ = ("abi", "buffers", "values", "copy_back", "temporaries")

    def __init__(self) -> None:
        self.abi: list[Any] = []
        self.buffers: list[BufferArg] = []
        self.values: dict[str, int] = {}
        self.copy_back: list[tuple[np.ndarray, DeviceBuffer]] = []
        self.temporaries: list[DeviceBuffer] = []


def _describe(value: Any) -> str:
    dtype = getattr(value, "dtype", None)
    return f"an array of {dtype}" if dtype is not None else f"a {type(value).__name__}"


def _allocation_start(array: np.ndarray) -> int:
    """The address of the numpy allocation an array views (its outermost base array)."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return int(array.__array_interface__["data"][0])


def check_overlaps(kernel: str, buffers: list[BufferArg]) -> None:
    """OverlapError if a mutable buffer shares bytes with any other buffer argument."""
    for i, a in enumerate(buffers):
        if not a.nbytes:
            continue
        for b in buffers[i + 1:]:
            if (a.mutable or b.mutable) and b.nbytes and a.ptr < b.ptr + b.nbytes and b.ptr < a.ptr + a.nbytes:
                first, second = (a, b) if a.mutable else (b, a)
                raise OverlapError(kernel, first.param, second.param,
                                   f"bytes 0x{max(a.ptr, b.ptr):x}..0x{min(a.ptr + a.nbytes, b.ptr + b.nbytes):x} "
                                   "are in both")


class ArgumentChecker:
    """What the SIMT and tile binders share: the kernel, the target, and the errors naming an argument."""

    def __init__(self, kernel: KernelSpec, gpu: bool):
        self.kernel, self.gpu = kernel, gpu
        self.params = kernel.params
        self.signature = f"{kernel.name}({', '.join(f'{p.name}: {p.rust_type}' for p in kernel.params)})"

    def _fail(self, p: ParamSpec, message: str, cls: type = KernelArgumentError) -> Exception:
        return cls(f"kernel `{self.kernel.name}`, argument `{p.name}: {p.rust_type}`: {message}")

    def _check_count(self, args: Sequence[Any]) -> None:
        if len(args) != len(self.params):
            raise KernelArgumentError(f"kernel `{self.kernel.name}` takes {len(self.params)} argument(s), "
                                      f"{len(args)} given: {self.signature}")


class Binder(ArgumentChecker):
    """Checks and converts the arguments of one kernel, for the GPU (`gpu=True`) or the emulator."""

    def __init__(self, kernel: KernelSpec, gpu: bool):
        super().__init__(kernel, gpu)
        self.converters = [self._converter(p) for p in self.params]

    def bind(self, args: Sequence[Any], allow_host: bool) -> Bound:
        """Check and convert `args` (in parameter order)."""
        self._check_count(args)
        bound = Bound()
        for convert_one, value in zip(self.converters, args):
            convert_one(value, bound, allow_host)
        return bound

    def _converter(self, p: ParamSpec) -> Callable[[Any, Bound, bool], None]:
        """The conversion of parameter `p`: a fast path for the common exact types, else the checked path."""
        why = unpassable(p)
        if why:  # the kernel loads; passing this argument is the error (KernelArgumentError naming it)
            def refuse(value: Any, bound: Bound, allow_host: bool) -> None:
                raise self._fail(p, f"{why}; this kernel cannot be launched from Python")

            return refuse
        if p.kind == "struct":
            return lambda value, bound, _: bound.abi.extend(self._struct(p, value))
        if p.kind == "scalar":
            return self._scalar_converter(p)
        if p.kind == "tensor_map":
            return lambda value, bound, _: self._tensor_map(p, value, bound)
        return self._buffer_converter(p)

    def _tensor_map(self, p: ParamSpec, value: Any, bound: Bound) -> None:
        """A TensorMap: its tensor joins the overlap check; the GPU gets the descriptor, the emulator the map."""
        if not isinstance(value, TensorMap):
            raise self._fail(p, f"expected an oxide.runtime.TensorMap (TensorMap(array, box, ...)), got "
                                f"{type(value).__name__}")
        if not self.gpu and not value.on_host:
            raise self._fail(p, "a tensor map of a GPU array cannot be used by the emulator; build it from a numpy "
                                "array, or run on the GPU")
        try:
            abi = value.descriptor() if self.gpu else value
        except TensorMapError as exc:
            raise self._fail(p, str(exc)) from None
        bound.buffers.append(BufferArg(p.name, value.address, value.extent_bytes, True))
        bound.abi.append(abi)

    def _scalar_converter(self, p: ParamSpec) -> Callable[[Any, Bound, bool], None]:
        t = SCALARS[p.elem]
        name, gpu, make = p.name, self.gpu, t.dtype.type
        fast = int if t.kind == "int" else float if t.kind == "float" else bool
        low, high = t.low, t.high

        def checked(value: Any, bound: Bound, _: bool) -> None:
            try:
                number = convert(value, t)
            except TypeError as exc:
                raise self._fail(p, str(exc)) from None
            if t.kind == "int":
                bound.values[name] = number
            bound.abi.append(number if gpu else make(number))

        def scalar(value: Any, bound: Bound, allow_host: bool) -> None:
            if type(value) is fast and gpu and (fast is not int or low <= value <= high):
                if fast is int:
                    bound.values[name] = value
                bound.abi.append(value)
            else:
                checked(value, bound, allow_host)

        return scalar

    def _buffer_converter(self, p: ParamSpec) -> Callable[[Any, Bound, bool], None]:
        name, mutable, key = p.name, p.mutable, f"{p.name}.len()"
        # Buffers of structs/arrays take the checked path (element count, alignment), and so do raw pointers
        # (whose element may be a type no array holds: that is reported when an array is passed).
        fast_path = self.gpu and p.kind != "ptr" and p.space != "runtime_2d" and not p.layout
        dtype = element_of(p).plain if fast_path else None

        def buffer(value: Any, bound: Bound, allow_host: bool) -> None:
            if fast_path and type(value) is DeviceBuffer and value.dtype == dtype:
                ptr, size = value.ptr, value.size
                bound.buffers.append(BufferArg(name, ptr, value.nbytes, mutable))
                bound.values[key] = size
                bound.abi += (ptr, size)
            else:
                self._buffer(p, value, allow_host, bound)

        return buffer

    def mismatch(self, args: Sequence[Any]) -> str | None:
        """Why `args` do not fit this signature (count, element types, scalar types), or None; copies nothing."""
        if len(args) != len(self.params):
            return f"takes {len(self.params)} argument(s), {len(args)} given"
        for p, value in zip(self.params, args):
            why = unpassable(p)
            if why:
                return f"`{p.name}: {p.rust_type}`: {why}"
            if p.kind == "scalar":
                try:
                    convert(value, SCALARS[p.elem])
                except TypeError as exc:
                    return f"`{p.name}: {p.rust_type}`: {exc}"
            elif p.kind == "tensor_map" and not isinstance(value, TensorMap):
                return f"`{p.name}: {p.rust_type}` takes a TensorMap, not {_describe(value)}"
            elif p.is_buffer:
                if isinstance(value, RowWidth):
                    value = value.buffer
                if isinstance(value, EmulatedBuffer):
                    value = value.array
                try:
                    view = value if isinstance(value, np.ndarray) else device_view(value)
                except KernelArgumentError as exc:
                    return f"`{p.name}`: {exc}"
                dtype = getattr(view, "dtype", None)
                try:
                    element = element_of(p)
                except KeyError as exc:  # a pointer to a type no array holds
                    return f"`{p.name}: {p.rust_type}`: the runtime has no arrays of {exc.args[0]} elements"
                if dtype is None or element.count(np.dtype(dtype), int(getattr(view, "size", 0))) is None:
                    return f"`{p.name}: {p.rust_type}` does not take {_describe(value)}"
        return None

    def _struct(self, p: ParamSpec, value: Any) -> list[Any]:
        if hasattr(value, "_fields"):  # namedtuple
            value = tuple(value)
        elif hasattr(value, "__dataclass_fields__"):
            value = tuple(getattr(value, f) for f in value.__dataclass_fields__)
        if not isinstance(value, (tuple, list)) or len(value) != len(p.fields):
            raise self._fail(p, f"expected a tuple of {len(p.fields)} field values ({', '.join(p.fields)}) in "
                                "declaration order")
        out = []
        for i, (t, v) in enumerate(zip(p.fields, value)):
            scalar = SIGNLESS.get(t) or SCALARS[t]
            try:
                number = convert(v, scalar)
            except TypeError as exc:
                raise self._fail(p, f"field {i}: {exc}") from None
            if scalar is SIGNLESS.get(t):
                # A signless field accepts either sign's range; its bits travel as the signed value (the PTX
                # parameter block packs `iN` as a signed C integer, the emulator reads them the same way).
                number = signed_bits(number, 8 * scalar.dtype.itemsize)
            if self.gpu:
                out.append(number)
            elif scalar.kind == "int" and number < 0:
                out.append(np.dtype(f"i{scalar.dtype.itemsize}").type(number))
            else:
                out.append(scalar.dtype.type(number))
        return out

    def _buffer(self, p: ParamSpec, value: Any, allow_host: bool, bound: Bound) -> None:
        width = None
        if isinstance(value, RowWidth):
            value, width = value.buffer, int(value.width)
        if p.kind == "ptr" and self.gpu and isinstance(value, int) and not isinstance(value, bool):
            bound.abi.append(device_address(value, lambda why: self._fail(p, why)))
            return
        try:
            element = element_of(p)
        except KeyError as exc:  # a pointer to a type no array holds (`*mut u128`): only an address can go
            raise self._fail(p, f"the runtime has no arrays of {exc.args[0]} elements; pass a raw device address "
                                "(an int) on the GPU") from None
        array = None
        if self.gpu:
            view = self._gpu_view(p, value)
            if view is None:
                if isinstance(value, np.ndarray):
                    if not allow_host:
                        raise self._fail(p, "a host (numpy) array cannot be used by a stream-ordered launch; hint: "
                                            "copy it to the GPU first with `oxide.runtime.to_device(array)` (or "
                                            "`module.to_device`), or launch without `stream=` to have it copied "
                                            "in and out", HostArrayError)
                    host = self._host_array(p, value)
                    device = DeviceBuffer.from_host(host)
                    bound.temporaries.append(device)  # alive until the launch has completed
                    if p.mutable:
                        bound.copy_back.append((value, device))
                    view = ArrayView(device.ptr, host.dtype, host.size, host.shape)
                else:
                    raise self._fail(p, f"expected a GPU array (oxide DeviceBuffer, CuPy, PyTorch, any "
                                        f"__cuda_array_interface__ or DLPack object) or a numpy array, got "
                                        f"{type(value).__name__}")
        else:
            if isinstance(value, EmulatedBuffer):
                value = value.array
            if not isinstance(value, np.ndarray):
                if isinstance(value, DeviceBuffer) or hasattr(value, "__cuda_array_interface__"):
                    raise self._fail(p, "a GPU array cannot be used by the emulator; copy it to the host "
                                        "(`.get()`), or run on the GPU")
                raise self._fail(p, f"expected a numpy array, got {type(value).__name__}")
            array = self._host_array(p, value)
            if p.mutable and not array.flags.writeable:
                raise self._fail(p, "the kernel writes this argument, but the array is read-only")
            view = ArrayView(int(array.__array_interface__["data"][0]), array.dtype, array.size, array.shape)
        count = self._element_count(p, element, view, array)
        bound.buffers.append(BufferArg(p.name, view.ptr, view.nbytes, p.mutable))
        bound.values[f"{p.name}.len()"] = count
        if p.space == "runtime_2d":
            if width is None:
                if len(view.shape) != 2:
                    raise self._fail(p, "a Runtime2DIndex DisjointSlice needs its row width: pass a 2-D array "
                                        "(rows, width) or RowWidth(buffer, width)")
                width = int(view.shape[1])
            if not 0 < width < 1 << 32:
                raise self._fail(p, f"row width {width} must be in 1..2^32")
        if self.gpu:
            bound.abi.append(view.ptr)
            if p.kind != "ptr":
                bound.abi.append(count)
            if p.space == "runtime_2d":
                bound.abi.append(width)
        else:
            flat = array.reshape(-1)
            bound.abi.append((flat, width) if p.space == "runtime_2d" else flat)

    def _element_count(self, p: ParamSpec, element: Element, view: ArrayView, array: np.ndarray | None) -> int:
        """How many elements of `p` the array holds; KernelArgumentError if it cannot hold them or its
        address is not aligned to the element (checked on the emulator too, relative to the numpy
        allocation, so that a misaligned view fails the same way on both)."""
        count = element.count(np.dtype(view.dtype), view.size)
        if count is None:
            if not p.layout:
                raise self._fail(p, f"expected elements of {p.elem} ({element.plain}), got an array of "
                                    f"{view.dtype}; hint: convert it with .astype(np.{element.plain})")
            raise self._fail(p, f"expected {element.describe()}; got {view.size} values of {view.dtype}")
        if element.align > 1:
            address = view.ptr if array is None else view.ptr - _allocation_start(array)
            if address % element.align:
                raise self._fail(p, f"the buffer's address 0x{view.ptr:x} is not a multiple of {element.align}, "
                                    f"the alignment of {p.elem}; pass an array that starts at an aligned "
                                    "address (a fresh allocation, or a view at an offset that is a multiple of "
                                    f"{element.align} bytes)")
        return count

    def _gpu_view(self, p: ParamSpec, value: Any) -> ArrayView | None:
        if isinstance(value, EmulatedBuffer):
            raise self._fail(p, "an emulator buffer cannot be used on the GPU; create buffers with the module "
                                "that launches (`module.to_device`)")
        if isinstance(value, np.ndarray):
            return None
        try:
            return device_view(value)
        except KernelArgumentError as exc:
            raise self._fail(p, str(exc)) from None

    def _host_array(self, p: ParamSpec, value: np.ndarray) -> np.ndarray:
        if not value.flags.c_contiguous:
            raise self._fail(p, "the array is not C-contiguous; pass np.ascontiguousarray(array) (and copy the "
                                "result back if the kernel writes it)")
        return value


def select_instance(name: str, instances: Sequence[Any], args: Sequence[Any]) -> Any:
    """The first instance of generic kernel `name` whose binder accepts `args`; else an error listing why each
    instance refused them."""
    reasons = []
    for kernel in instances:
        reason = kernel.binder.mismatch(args)
        if reason is None:
            return kernel
        reasons.append(f"  {kernel.spec.entry}: {reason}")
    raise KernelArgumentError(f"no instance of generic kernel `{name}` fits these arguments:\n" + "\n".join(reasons))
