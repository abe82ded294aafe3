"""The GPU executor: one loaded CUmodule per artifact; launches through plain `cuLaunchKernel`.

Each function keeps one ctypes structure holding its PTX parameters and a fixed array of pointers into it,
so a launch packs the new values in one call and calls the driver (which copies the parameters at launch).
"""

from __future__ import annotations

import ctypes
import struct
from typing import Any

from oxide.runtime.artifact import Artifact
from oxide.runtime.config import LaunchConfig
from oxide.runtime.contract import DeviceLimits, FunctionLimits
from oxide.runtime.driver import Device, check, cuda, raise_for
from oxide.runtime.scalars import SCALARS, SIGNLESS
from oxide.runtime.signature import KernelSpec

_ABI_CTYPES = {"u64": ctypes.c_uint64, "u32": ctypes.c_uint32}


def _ctype(abi: str) -> Any:
    if abi in _ABI_CTYPES:
        return _ABI_CTYPES[abi]
    return (SIGNLESS.get(abi) or SCALARS[abi]).ctype


class GpuFunction:
    """A CUfunction with its parameter block."""

    def __init__(self, executor: "GpuExecutor", kernel: KernelSpec):
        drv = cuda()
        self.kernel = kernel
        self.handle = check(drv.cuModuleGetFunction(executor.module, kernel.entry.encode()),
                            f"loading entry `{kernel.entry}`", kernel.name)
        types = [_ctype(a) for p in kernel.params for a in p.abi]
        names = [f"p{i}" for i in range(len(types))]
        layout = type(f"{kernel.entry}_params", (ctypes.Structure,), {"_fields_": list(zip(names, types))})
        self.block = layout()
        # One struct.pack_into per launch fills the block: native ("@") alignment is the C layout ctypes uses.
        self.packer = struct.Struct("@" + "".join(t._type_ for t in types))
        assert self.packer.size <= ctypes.sizeof(layout)
        pointers = [ctypes.addressof(self.block) + getattr(layout, n).offset for n in names]
        self.pointers = (ctypes.c_void_p * max(len(pointers), 1))(*pointers)
        self.params_address = ctypes.addressof(self.pointers)
        attr = drv.CUfunction_attribute
        self.limits = FunctionLimits(
            int(check(drv.cuFuncGetAttribute(attr.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, self.handle),
                      "cuFuncGetAttribute", kernel.name)),
            int(check(drv.cuFuncGetAttribute(attr.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, self.handle),
                      "cuFuncGetAttribute", kernel.name)))
        self.dynamic_shared_allowed = 0

    def allow_dynamic_shared(self, nbytes: int) -> None:
        """Raise the function's dynamic shared memory limit (beyond the default 48 KiB)."""
        if nbytes > self.dynamic_shared_allowed:
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
            device.attribute("MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"))

    def function(self, kernel: KernelSpec) -> GpuFunction:
        """The loaded function of `kernel` (loaded on first use)."""
        fn = self.functions.get(kernel.entry)
        if fn is None:
            fn = self.functions[kernel.entry] = GpuFunction(self, kernel)
        return fn

    def launch(self, fn: GpuFunction, config: LaunchConfig, abi: list[Any], stream: Any) -> None:
        """Store the parameters and enqueue the kernel."""
        fn.packer.pack_into(fn.block, 0, *abi)
        g, b = config.grid, config.block
        (err,) = self._launch_kernel(fn.handle, g[0], g[1], g[2], b[0], b[1], b[2], config.shared_mem_bytes,
                                     stream, fn.params_address, 0)
        if err != 0:
            raise_for(err, "the launch", fn.kernel.name)

    def synchronize(self, kernel: str | None) -> None:
        """Wait for the device; raise a kernel's failure naming `kernel`."""
        (err,) = cuda().cuCtxSynchronize()
        if err != 0:
            raise_for(err, "the kernel", kernel)
