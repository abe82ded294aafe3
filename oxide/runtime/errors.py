"""The runtime's exceptions: every one names the kernel it concerns and says what to do.

All derive from `OxideRuntimeError`. Launch-contract failures carry the contract `field`, the `expected`
and the `actual` value as attributes, so programs can react to them without parsing the message.
"""

from __future__ import annotations

from typing import Any


class OxideRuntimeError(Exception):
    """Base of every error the runtime raises."""


class NoDeviceError(OxideRuntimeError):
    """A GPU was asked for (target="gpu") and none is usable."""


class ArtifactError(OxideRuntimeError):
    """A kernel artifact is missing, unreadable, or was written by an incompatible compiler."""


class KernelArgumentError(OxideRuntimeError, TypeError):
    """A launch got the wrong number of arguments, or an argument of the wrong type, dtype or kind."""


class HostArrayError(KernelArgumentError):
    """A host (numpy) array was passed where a device array is needed."""


class LaunchContractError(OxideRuntimeError, ValueError):
    """A launch breaks the kernel's #[launch_contract] (or a device limit); names the field, expected and actual."""

    def __init__(self, kernel: str, field: str, expected: Any, actual: Any, detail: str = ""):
        self.kernel, self.field, self.expected, self.actual = kernel, field, expected, actual
        message = f"kernel `{kernel}`: launch contract `{field}` expects {expected}, got {actual}"
        super().__init__(message + (f" ({detail})" if detail else ""))


class SharedMemoryLimitError(LaunchContractError):
    """A kernel needs more shared memory per block than the device lets a block opt in to."""

    def __init__(self, kernel: str, static: int, dynamic: int, limit: int):
        self.static, self.dynamic, self.limit = static, dynamic, limit
        super().__init__(kernel, "dynamic_shared", f"static + dynamic shared memory <= {limit} bytes (the device's "
                         "opt-in limit per block)", static + dynamic,
                         f"{static} bytes static + {dynamic} dynamic; compile it for this device's chip, with "
                         "smaller tiles or fewer pipeline stages")


class PartitionError(OxideRuntimeError, ValueError):
    """`oxide.tile.partition(array, tile_shape)` got a tile shape that does not fit the array (rank, sizes)."""


class UncontractedLaunchError(OxideRuntimeError):
    """A kernel without #[launch_contract] was launched through the safe (checked) path."""


class OverlapError(OxideRuntimeError, ValueError):
    """A mutable buffer argument overlaps another buffer argument of the same launch."""

    def __init__(self, kernel: str, first: str, second: str, detail: str):
        self.kernel, self.first, self.second = kernel, first, second
        super().__init__(f"kernel `{kernel}`: argument `{first}` overlaps argument `{second}` ({detail}); "
                         "a mutable buffer may not share memory with another argument: pass separate buffers "
                         "or non-overlapping views")


class CudaError(OxideRuntimeError):
    """A CUDA driver call failed; `code` is the CUresult name, `kernel` the kernel involved (if any)."""

    def __init__(self, message: str, code: str, kernel: str | None = None, context_usable: bool = True):
        self.code, self.kernel, self.context_usable = code, kernel, context_usable
        super().__init__(message)


class KernelFaultError(CudaError):
    """A kernel faulted on the device: illegal address, trap (a failed bounds check or assert), ...

    `context_usable` says whether this process can still use the GPU: CUDA makes such errors sticky, so it
    is False for them, and every later call in this process fails; run such kernels in a child process.
    """


class GraphError(OxideRuntimeError):
    """A CUDA graph used wrongly: a capture on the default stream or on the emulator, a synchronous launch
    inside a capture, a replay of a closed graph."""


class GraphCaptureError(GraphError, CudaError):
    """The driver refused to capture an operation into a graph (or the capture was invalidated by it);
    `code` is the CUresult name, `kernel` the kernel whose launch was refused (if any)."""
