"""A loaded artifact: its kernels as attributes, on the GPU or the emulator.

    mod = oxide.runtime.load("build/vecadd.oxide.json")          # GPU if present, else the emulator
    mod = oxide.runtime.load(path, target="cpu")                  # always the emulator
    mod.vecadd, mod.scale (generic), mod.scale_f32 (one instance)
    x = mod.to_device(np.arange(4, dtype=np.float32))             # DeviceBuffer / EmulatedBuffer

Kernels are attributes; one named like a helper method (`empty`, `zeros`, `to_device`, `stream`) hides it.
`target="auto"` (the default) follows `OXIDE_DEVICE` (`gpu` or `cpu`) when set, else uses the GPU when one
is usable; `notice` then says in one line why the emulator runs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from oxide.runtime.artifact import Artifact
from oxide.runtime.driver import Device, gpu_status
from oxide.runtime.errors import NoDeviceError
from oxide.runtime.kernel import Kernel, KernelGroup
from oxide.runtime.memory import DeviceBuffer, EmulatedBuffer
from oxide.runtime.tile_kernel import TileKernel, TileKernelGroup


def resolve_target(target: str = "auto") -> tuple[str, str]:
    """("gpu" or "cpu", a one-line reason) for a requested target ("auto", "gpu", "cpu")."""
    if target == "auto":
        target = os.environ.get("OXIDE_DEVICE", "auto").lower() or "auto"
    if target not in ("auto", "gpu", "cpu"):
        raise ValueError(f"target must be 'auto', 'gpu' or 'cpu', got {target!r}")
    ok, why = gpu_status()
    if target == "gpu" and not ok:
        raise NoDeviceError(f"target='gpu' but there is no GPU: {why}")
    if target == "cpu":
        return "cpu", "running on the emulator (target cpu)"
    if target == "auto" and not ok:
        return "cpu", f"no GPU ({why}): running on the emulator"
    return "gpu", why


class Module:
    """An artifact's kernels, ready to launch."""

    def __init__(self, artifact: Artifact, target: str = "auto", device: int = 0, *, shuffle_blocks: bool = False,
                 check_races: bool = True):
        self.artifact = artifact
        self.target, self.notice = resolve_target(target)
        if self.target == "gpu":
            from oxide.runtime.gpu import GpuExecutor

            self.device: Device | None = Device(device)
            self.executor: Any = GpuExecutor(artifact, self.device)
        else:
            from oxide.runtime.emulated import EmulatedExecutor

            self.device = None
            self.executor = EmulatedExecutor(artifact, shuffle_blocks, check_races)
        self.kernels: dict[str, Kernel | TileKernel | KernelGroup | TileKernelGroup] = {}
        by_name: dict[str, list[Any]] = {}
        for spec in artifact.kernels:
            kernel = TileKernel(spec, self.executor) if spec.tile is not None else Kernel(spec, self.executor)
            self.kernels[spec.entry] = kernel
            by_name.setdefault(spec.name, []).append(kernel)
        for name, instances in by_name.items():
            if name not in self.kernels or len(instances) > 1:
                group = TileKernelGroup if isinstance(instances[0], TileKernel) else KernelGroup
                self.kernels[name] = instances[0] if len(instances) == 1 else group(name, instances)
        # Kernels are instance attributes: found without __getattr__, and a kernel named like a helper method
        # (`empty`, `zeros`, ...) wins; the helper stays reachable as Module.empty(module, ...).
        self.__dict__.update(self.kernels)

    def __getattr__(self, name: str) -> Kernel | TileKernel | KernelGroup | TileKernelGroup:
        kernels = self.__dict__.get("kernels", {})
        if name in kernels:
            return kernels[name]
        raise AttributeError(f"module `{self.__dict__.get('artifact').name if 'artifact' in self.__dict__ else '?'}` "
                             f"has no kernel `{name}` (kernels: {', '.join(sorted(kernels))})")

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self.kernels))

    def to_device(self, array: Any) -> DeviceBuffer | EmulatedBuffer:
        """Copy a host array to this module's device memory."""
        return DeviceBuffer.from_host(array) if self.target == "gpu" else EmulatedBuffer.from_host(array)

    def empty(self, shape: Any, dtype: Any) -> DeviceBuffer | EmulatedBuffer:
        """Uninitialised device memory (the emulator fills it with zeros)."""
        if self.target == "gpu":
            return DeviceBuffer(shape, dtype)
        return EmulatedBuffer(np.zeros(shape, dtype))

    def zeros(self, shape: Any, dtype: Any) -> DeviceBuffer | EmulatedBuffer:
        """Zero-filled device memory."""
        buf = Module.empty(self, shape, dtype)  # not self.empty: a kernel may be called `empty`
        buf.fill_zero()
        return buf

    def stream(self) -> Any:
        """A new stream on this module's device (None on the emulator, whose launches are synchronous)."""
        if self.target != "gpu":
            return None
        from oxide.runtime.stream import Stream

        return Stream(self.device)

    def synchronize(self) -> None:
        """Wait for all launched work."""
        self.executor.synchronize(None)

    def __repr__(self) -> str:
        return (f"<oxide module {self.artifact.name} on {self.target} ({self.executor.chip}): "
                f"{', '.join(sorted(self.kernels))}>")


def load(path: str | Path, target: str = "auto", device: int = 0, **emulator_options: Any) -> Module:
    """Load an artifact (its .oxide.json, or a directory holding one) for `target`."""
    return Module(Artifact.load(path), target, device, **emulator_options)
