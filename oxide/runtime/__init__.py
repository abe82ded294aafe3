"""oxide.runtime: load compiled kernel artifacts and launch them with cuda-python, or on the emulator when
there is no GPU. It imports nothing of the compiler (nor mlir), so it runs where only numpy and cuda-python
are installed. See docs/runtime.md."""

from oxide.runtime.artifact import Artifact
from oxide.runtime.config import LaunchConfig, LaunchConfig1D, LaunchConfig2D, LaunchConfig3D
from oxide.runtime.driver import Device, gpu_available, gpu_status
from oxide.runtime.errors import (
    ArtifactError,
    CudaError,
    GraphCaptureError,
    GraphError,
    HostArrayError,
    KernelArgumentError,
    KernelFaultError,
    LaunchContractError,
    NoDeviceError,
    OverlapError,
    OxideRuntimeError,
    PartitionError,
    SharedMemoryLimitError,
    UncontractedLaunchError,
)
from oxide.runtime.graph import Graph
from oxide.runtime.kernel import Kernel, KernelGroup, PreparedLaunch
from oxide.runtime.marshal import RowWidth
from oxide.runtime.memory import DeviceBuffer, EmulatedBuffer
from oxide.runtime.module import Module, load
from oxide.runtime.stream import Event, Stream, synchronize
from oxide.runtime.tensor_map import TensorMap, TensorMapError
from oxide.runtime.transfer import copy


def to_device(array: object) -> DeviceBuffer:
    """Copy a host array to GPU memory (device 0)."""
    Device(0)
    return DeviceBuffer.from_host(array)


__all__ = [
    "Artifact", "ArtifactError", "CudaError", "Device", "DeviceBuffer", "EmulatedBuffer", "Event", "Graph",
    "GraphCaptureError", "GraphError", "HostArrayError",
    "Kernel", "KernelArgumentError", "KernelFaultError", "KernelGroup", "LaunchConfig", "LaunchConfig1D",
    "LaunchConfig2D", "LaunchConfig3D", "LaunchContractError", "Module", "NoDeviceError", "OverlapError",
    "OxideRuntimeError", "PartitionError", "PreparedLaunch", "RowWidth", "SharedMemoryLimitError", "Stream", "TensorMap", "TensorMapError",
    "UncontractedLaunchError",
    "copy", "gpu_available", "gpu_status", "load", "synchronize", "to_device",
]
