"""The GPU executor: one loaded CUmodule per artifact; launches through plain `cuLaunchKernel`, and cluster and
cooperative kernels through `cuLaunchKernelEx` (launch_ex.py).

Each function keeps one ctypes structure holding its PTX parameters and a fixed array of pointers into it,
so a launch packs the new values in one call and calls the driver (which copies the parameters at launch).
"""

from __future__ import annotations

import ctypes
import struct
from typing import Any

from oxide.runtime.artifact import Artifact
from oxide.runtime.config import LaunchConfig
from oxide.runtime.contract import DeviceLimits, FunctionLimits, check_shared_fits
from oxide.runtime.driver import Device, check, cuda, raise_for
from oxide.runtime.errors import KernelArgumentError
from oxide.runtime.inflight import release_device
from oxide.runtime.launch_ex import ExtendedLaunch
from oxide.runtime.scalars import SCALARS
from oxide.runtime.signature import TENSOR_MAP_ABI, KernelSpec
from oxide.runtime.tensor_map import DESCRIPTOR_BYTES


def _ctype(abi: str) -> Any:
    # Integer PTX parameters hold two's complement bits: an `iN` entry packs as a signed C integer, so a
    # negative value of a signed (or signless, see marshal.signed_bits) parameter packs as itself.
    if abi == TENSOR_MAP_ABI:
        # The descriptor's bytes as they are; the driver copies them into the 64-byte-aligned .param, so the
        # host copy needs no alignment of its own.
        return ctypes.c_ubyte * DESCRIPTOR_BYTES
    return SCALARS[abi].ctype


def _format(abi: str) -> str:
    """The `struct` format of one PTX parameter."""
    return f"{DESCRIPTOR_BYTES}s" if abi == TENSOR_MAP_ABI else SCALARS[abi].ctype._type_


class ParameterBlock:
    """The ctypes structure holding one kernel's PTX parameters, and the one `struct` format that fills it.

    A launch packs every ABI value in one `pack` call; a value the format cannot hold is a KernelArgumentError
    naming the kernel and the parameter (the binders check ranges first, so this is the last line of defence).
    """

    def __init__(self, kernel: KernelSpec):
        self.kernel = kernel
        self.owners = [p for p in kernel.params for _ in p.abi]  # the parameter each PTX parameter comes from
        abis = [a for p in kernel.params for a in p.abi]
        # A tile kernel on sm_90a's GEMM path: a tensor map of a tensor parameter after the contract's ABI.
        maps = (kernel.tile or {}).get("tma", [])
        self.owners += [kernel.params[m["param"]] for m in maps]
        abis += [TENSOR_MAP_ABI] * len(maps)
        if kernel.cooperative:
            abis.append("u64")  # the hidden grid-barrier workspace (launch_ex.ExtendedLaunch)
        types = [_ctype(a) for a in abis]
        names = [f"p{i}" for i in range(len(types))]
        layout = type(f"{kernel.entry}_params", (ctypes.Structure,), {"_fields_": list(zip(names, types))})
        self.layout = layout
        self.block = layout()
        # Native ("@") alignment is the C layout ctypes uses.
        self.formats = [_format(a) for a in abis]
        self.packer = struct.Struct("@" + "".join(self.formats))
        assert self.packer.size <= ctypes.sizeof(layout)
        self.offsets = [getattr(layout, n).offset for n in names]

    def pack(self, abi: list[Any], block: Any = None) -> None:
        """Store `abi` (one value per PTX parameter) into the block (or into `block`, one of this layout)."""
        try:
            self.packer.pack_into(self.block if block is None else block, 0, *abi)
        except struct.error as exc:
            raise self._argument_error(abi, exc) from None

    def pointers(self, block: Any) -> Any:
        """The array of pointers to `block`'s parameters that cuLaunchKernel takes."""
        base = ctypes.addressof(block)
        return (ctypes.c_void_p * max(len(self.offsets), 1))(*(base + offset for offset in self.offsets))

    def packed(self, abi: list[Any]) -> tuple[Any, Any]:
        """A block of its own holding `abi`, and its pointer array."""
        block = self.layout()
        self.pack(abi, block)
        return block, self.pointers(block)

    def _argument_error(self, abi: list[Any], exc: struct.error) -> KernelArgumentError:
        for i, (fmt, value) in enumerate(zip(self.formats, abi)):
            try:
                struct.pack("@" + fmt, value)
            except struct.error as one:
                p = self.owners[i]
                return KernelArgumentError(f"kernel `{self.kernel.name}`, argument `{p.name}: {p.rust_type}`: "
                                           f"{value!r} cannot be passed as a PTX .{_PTX_NAMES.get(fmt, fmt)} "
                                           f"parameter ({one})")
        return KernelArgumentError(f"kernel `{self.kernel.name}`: {len(abi)} parameter values for "
                                   f"{len(self.formats)} PTX parameters ({exc})")


# struct format characters as PTX parameter types, for messages.
_PTX_NAMES = {"b": "s8", "B": "u8", "h": "s16", "H": "u16", "i": "s32", "I": "u32", "l": "s64", "L": "u64",
              "q": "s64", "Q": "u64", "f": "f32", "d": "f64", "?": "pred"}


class GpuFunction:
    """A CUfunction with its parameter block."""

    def __init__(self, executor: "GpuExecutor", kernel: KernelSpec):
        drv = cuda()
        self.kernel = kernel
        self.handle = check(drv.cuModuleGetFunction(executor.module, kernel.entry.encode()),
                            f"loading entry `{kernel.entry}`", kernel.name)
        self.parameters = ParameterBlock(kernel)
        self.block, self.packer = self.parameters.block, self.parameters.packer
        self.pointers = self.parameters.pointers(self.block)
        self.params_address = ctypes.addressof(self.pointers)
        attr = drv.CUfunction_attribute
        self.limits = FunctionLimits(
            int(check(drv.cuFuncGetAttribute(attr.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, self.handle),
                      "cuFuncGetAttribute", kernel.name)),
            int(check(drv.cuFuncGetAttribute(attr.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, self.handle),
                      "cuFuncGetAttribute", kernel.name)))
        self.device_limits = executor.limits
        self.dynamic_shared_allowed = 0
        self.extended: dict[LaunchConfig, ExtendedLaunch] = {}  # cluster and cooperative launches, per config

    def allow_dynamic_shared(self, nbytes: int) -> None:
        """Raise the function's dynamic shared memory limit (beyond the default 48 KiB); SharedMemoryLimitError
        if its static and `nbytes` dynamic shared memory pass the device's opt-in limit."""
        if nbytes > self.dynamic_shared_allowed:
            check_shared_fits(self.kernel.name, self.limits.static_shared_bytes, nbytes, self.device_limits)
            drv = cuda()
            check(drv.cuFuncSetAttribute(self.handle,
                                         drv.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                         nbytes), "cuFuncSetAttribute", self.kernel.name)
            self.dynamic_shared_allowed = nbytes


class GpuExecutor:
    """An artifact loaded on one device."""

    target = "gpu"

    def __init__(self, artifact: Artifact, device: Device):
        self.device = device
        major, minor = device.compute_capability
        self.chip, ptx = artifact.ptx_for(major, minor)
        try:
            self.module = check(cuda().cuModuleLoadData(ptx.encode() + b"\0"), f"loading the {self.chip} PTX of "
                                f"`{artifact.name}` on {device.name}")
        except Exception as exc:
            if "UNSUPPORTED_PTX_VERSION" in str(exc):
                raise type(exc)(f"{exc}; the driver is older than the PTX ISA the artifact uses: update the NVIDIA "
                                "driver or rebuild for an older --arch", getattr(exc, "code", ""), None) from None
            raise
        self.functions: dict[str, GpuFunction] = {}
        self._launch_kernel = cuda().cuLaunchKernel
        self.limits = DeviceLimits(
            (major, minor),
            tuple(device.attribute(f"MAX_BLOCK_DIM_{a}") for a in "XYZ"),  # type: ignore[arg-type]
            tuple(device.attribute(f"MAX_GRID_DIM_{a}") for a in "XYZ"),  # type: ignore[arg-type]
            device.attribute("MAX_THREADS_PER_BLOCK"),
            device.attribute("MAX_SHARED_MEMORY_PER_BLOCK"),
            device.attribute("MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"),
            device.attribute("MULTIPROCESSOR_COUNT"))

    def function(self, kernel: KernelSpec) -> GpuFunction:
        """The loaded function of `kernel` (loaded on first use)."""
        fn = self.functions.get(kernel.entry)
        if fn is None:
            fn = self.functions[kernel.entry] = GpuFunction(self, kernel)
        return fn

    def active_clusters(self, fn: GpuFunction, block: tuple[int, int, int], shared_mem_bytes: int) -> int:
        """How many clusters of clustered `fn` (its cluster shape, `block`, that much dynamic shared memory) the
        device runs at once: not every SM can take part in a cluster (the GPCs' sizes), so a persistent grid
        of one cluster per M x N SMs would leave some clusters waiting for a second wave."""
        config = LaunchConfig(tuple(fn.kernel.cluster), block, shared_mem_bytes, 3)  # type: ignore[arg-type]
        extended = fn.extended.get(config)
        if extended is None:
            extended = fn.extended[config] = ExtendedLaunch(fn, self.device, config)
        return extended.active_clusters

    def launch(self, fn: GpuFunction, config: LaunchConfig, abi: list[Any], stream: Any) -> None:
        """Store the parameters and enqueue the kernel."""
        if fn.kernel.cluster or fn.kernel.cooperative:
            extended = fn.extended.get(config)
            if extended is None:
                extended = fn.extended[config] = ExtendedLaunch(fn, self.device, config)
            extended.launch(abi, stream)
            return
        fn.parameters.pack(abi)
        g, b = config.grid, config.block
        (err,) = self._launch_kernel(fn.handle, g[0], g[1], g[2], b[0], b[1], b[2], config.shared_mem_bytes,
                                     stream, fn.params_address, 0)
        if err != 0:
            raise_for(err, "the launch", fn.kernel.name)

    def packed(self, fn: GpuFunction, config: LaunchConfig, abi: list[Any]) -> "PackedLaunch | None":
        """`fn`'s launch with `config` and `abi`, packed once to be enqueued again and again (None for the
        cluster and cooperative launches, which take `launch`)."""
        if fn.kernel.cluster or fn.kernel.cooperative:
            return None
        return PackedLaunch(self, fn, config, abi)

    def synchronize(self, kernel: str | None) -> None:
        """Wait for the device; raise a kernel's failure naming `kernel`."""
        (err,) = cuda().cuCtxSynchronize()
        if err != 0:
            raise_for(err, "the kernel", kernel)
        release_device(self.device)  # every stream's queued work has completed


class PackedLaunch:
    """One launch whose arguments repeat (a stream-ordered tile launch on the same tensors, tile_kernel.py):
    its parameters packed once into a block of their own, so enqueueing it again is the driver call alone. The
    driver copies the parameters at each launch, so the block is only read."""

    __slots__ = ("_block", "_pointers", "address", "args", "handle", "launch_kernel", "name")

    def __init__(self, executor: GpuExecutor, fn: GpuFunction, config: LaunchConfig, abi: list[Any]):
        self._block, self._pointers = fn.parameters.packed(abi)
        self.address = ctypes.addressof(self._pointers)
        self.handle, self.name, self.launch_kernel = fn.handle, fn.kernel.name, executor._launch_kernel
        self.args = (*config.grid, *config.block, config.shared_mem_bytes)

    def __call__(self, stream: Any) -> None:
        """Enqueue the kernel on raw stream handle `stream`."""
        (err,) = self.launch_kernel(self.handle, *self.args, stream, self.address, 0)
        if err != 0:
            raise_for(err, "the launch", self.name)
