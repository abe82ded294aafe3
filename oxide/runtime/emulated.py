"""The emulator executor: runs an artifact's emulator program on numpy (oxide.runtime.emulator), behind the
same launch interface as the GPU. Its device limits are those of an sm_90 GPU, so launch contracts and
limits are checked as they would be on an H200."""

from __future__ import annotations

from typing import Any

from oxide.runtime.artifact import Artifact
from oxide.runtime.config import LaunchConfig
from oxide.runtime.contract import DeviceLimits, FunctionLimits, check_shared_fits
from oxide.runtime.errors import ArtifactError, KernelFaultError
from oxide.runtime.launch_ex import check_cluster_shape
from oxide.runtime.signature import KernelSpec

EMULATED_LIMITS = DeviceLimits((9, 0), (1024, 1024, 64), ((1 << 31) - 1, 65535, 65535), 1024, 48 * 1024, 227 * 1024)


class EmulatedFunction:
    """A kernel of the emulator program; its thread limit is its launch bounds (registers are not modelled)."""

    def __init__(self, kernel: KernelSpec):
        self.kernel = kernel
        self.limits = FunctionLimits(kernel.launch_bounds[0] if kernel.launch_bounds else 1024, 0)

    def allow_dynamic_shared(self, nbytes: int) -> None:
        """Nothing to raise on the emulator beyond the device model's limit (SharedMemoryLimitError past it)."""
        check_shared_fits(self.kernel.name, 0, nbytes, EMULATED_LIMITS)


class EmulatedExecutor:
    """An artifact on the emulator."""

    target = "cpu"
    chip = "emulator"

    def __init__(self, artifact: Artifact, shuffle_blocks: bool = False, check_races: bool = True):
        if artifact.emulator is None and artifact.kernels:
            raise ArtifactError(f"artifact `{artifact.name}` carries no emulator program: one of its kernels does "
                                "something the emulator cannot run (inline PTX, ...), or it was built without the "
                                "emulator; run it on a GPU, or rebuild it with `oxide build`")
        self.program = artifact.emulator
        self.limits = EMULATED_LIMITS
        self.shuffle_blocks, self.check_races = shuffle_blocks, check_races
        self.functions: dict[str, EmulatedFunction] = {}

    def function(self, kernel: KernelSpec) -> EmulatedFunction:
        """The emulated function of `kernel`."""
        fn = self.functions.get(kernel.entry)
        if fn is None:
            fn = self.functions[kernel.entry] = EmulatedFunction(kernel)
        return fn

    def active_clusters(self, fn: EmulatedFunction, block: tuple[int, int, int], shared_mem_bytes: int) -> None:
        """How many clusters of `fn` run at once: no limit of its own on the emulator beyond its SM count (None)."""
        return None

    def launch(self, fn: EmulatedFunction, config: LaunchConfig, abi: list[Any], stream: Any) -> None:
        """Run the kernel to completion (emulated launches are synchronous)."""
        from oxide.runtime.emulator import launch
        from oxide.runtime.emulator.errors import EmulatorError

        spec = fn.kernel
        check_cluster_shape(spec, config)  # the GPU path's error for a grid of partial clusters
        try:
            # A cooperative kernel's grid runs resident at once; its workspace parameter is the GPU's alone.
            launch(self.program, spec.entry, config.grid, config.block, abi, config.shared_mem_bytes,
                   shuffle_blocks=self.shuffle_blocks, check_races=self.check_races,
                   cluster=tuple(spec.cluster) if spec.cluster else None)
        except EmulatorError as exc:
            raise KernelFaultError(f"kernel `{fn.kernel.name}` (emulator): {type(exc).__name__}: {exc}",
                                   type(exc).__name__, fn.kernel.name, context_usable=True) from exc

    def launch_tile(self, kernel: KernelSpec, grid: tuple[int, int, int], args: list[Any]) -> None:
        """Run a tile kernel over `grid` tile blocks, one block at a time (synchronous)."""
        from oxide.runtime.emulator import launch_tile
        from oxide.runtime.emulator.errors import EmulatorError

        try:
            launch_tile(self.program, kernel.entry, grid, args, shuffle_blocks=self.shuffle_blocks)
        except EmulatorError as exc:
            raise KernelFaultError(f"kernel `{kernel.name}` (emulator): {type(exc).__name__}: {exc}",
                                   type(exc).__name__, kernel.name, context_usable=True) from exc

    def synchronize(self, kernel: str | None) -> None:
        """Emulated launches have completed when they return."""
