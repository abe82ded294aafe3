"""The CUDA driver through cuda.bindings: initialisation, "is there a GPU", devices and error translation.

Without an NVIDIA driver, `cuInit` raises cuda.pathfinder's DynamicLibNotFoundError instead of returning a
CUresult; that, CUDA_ERROR_NO_DEVICE and a missing cuda-python all mean "no GPU" (the emulator runs then).
"""

from __future__ import annotations

import functools
from typing import Any

from oxide.runtime.errors import CudaError, GraphCaptureError, KernelFaultError, NoDeviceError

# Errors after which the CUDA context is unusable for the rest of the process (CUDA makes them sticky).
_STICKY = {
    "CUDA_ERROR_ILLEGAL_ADDRESS": "the kernel accessed memory outside any allocation",
    "CUDA_ERROR_LAUNCH_FAILED": "the kernel trapped (a failed bounds check, a panic or an abort)",
    "CUDA_ERROR_ASSERT": "a device-side assert!/gpu_assert! failed",
    "CUDA_ERROR_ILLEGAL_INSTRUCTION": "the kernel executed an illegal instruction (a trap)",
    "CUDA_ERROR_MISALIGNED_ADDRESS": "the kernel made a misaligned memory access",
    "CUDA_ERROR_INVALID_ADDRESS_SPACE": "the kernel used an address in the wrong memory space",
    "CUDA_ERROR_INVALID_PC": "the kernel jumped to an invalid program counter",
    "CUDA_ERROR_HARDWARE_STACK_ERROR": "the kernel overflowed its call stack",
    "CUDA_ERROR_LAUNCH_TIMEOUT": "the kernel ran past the watchdog time limit",
}

# Errors of an operation the driver will not capture into a graph, or of a capture it has invalidated.
_CAPTURE = {
    "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED": "the operation cannot be captured into a graph",
    "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED": "an earlier operation invalidated the capture",
    "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT": "the operation would make the legacy default stream wait for the capture",
    "CUDA_ERROR_STREAM_CAPTURE_ISOLATION": "the operation depends on work outside the capture",
    "CUDA_ERROR_STREAM_CAPTURE_UNJOINED": "a stream forked from the capture was not joined back",
    "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED": "the capture was not begun on this stream",
    "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD": "the capture was begun on another thread",
    "CUDA_ERROR_CAPTURED_EVENT": "the operation queries or waits for an event recorded inside the capture",
}


def cuda() -> Any:
    """The cuda.bindings.driver module (import errors propagate)."""
    from cuda.bindings import driver

    return driver


@functools.lru_cache(maxsize=1)
def gpu_status() -> tuple[bool, str]:
    """(True, device count text) when a CUDA GPU is usable, else (False, why not)."""
    try:
        drv = cuda()
    except ImportError:
        return False, "cuda-python is not installed"
    try:
        (err,) = drv.cuInit(0)
    except Exception as exc:  # no libcuda at all: cuda.pathfinder raises instead of returning a CUresult
        return False, f"no NVIDIA driver ({type(exc).__name__})"
    if err != drv.CUresult.CUDA_SUCCESS:
        return False, f"cuInit failed: {err.name}"
    err, count = drv.cuDeviceGetCount()
    if err != drv.CUresult.CUDA_SUCCESS or count == 0:
        return False, "no CUDA device"
    return True, f"{count} CUDA device(s)"


def gpu_available() -> bool:
    """Whether a CUDA GPU is usable in this process."""
    return gpu_status()[0]


def error_name(err: Any) -> str:
    """The CUresult's name (CUDA_ERROR_...)."""
    return getattr(err, "name", str(err))


def raise_for(err: Any, what: str, kernel: str | None = None) -> None:
    """Raise the runtime exception for a failed CUresult `err` of operation `what`."""
    drv = cuda()
    name = error_name(err)
    try:
        text = drv.cuGetErrorString(err)[1]
        text = text.decode() if isinstance(text, bytes) else str(text)
    except Exception:  # the description is a nicety; the name is enough
        text = ""
    where = f"kernel `{kernel}`: " if kernel else ""
    if name in _STICKY:
        raise KernelFaultError(
            f"{where}{what} failed with {name}: {_STICKY[name]}. CUDA cannot recover from this error: the GPU "
            "context of this process is unusable now, and every later GPU call fails. Restart the process "
            "(run kernels that may fault in a child process); `oxide sanitize` locates the fault",
            name, kernel, context_usable=False)
    if name in _CAPTURE:
        raise GraphCaptureError(
            f"{where}{what} failed with {name}: {_CAPTURE[name]}. Capture only stream-ordered work on the "
            "capturing stream (launches with `stream=`, oxide.runtime.copy); run this operation outside "
            "the capture, before or after the graph", name, kernel)
    raise CudaError(f"{where}{what} failed with {name}" + (f": {text}" if text else ""), name, kernel)


def check(result: Any, what: str, kernel: str | None = None) -> Any:
    """Unpack a cuda.bindings result tuple; raise on failure; return the value(s)."""
    drv = cuda()
    err = result[0] if isinstance(result, tuple) else result
    if err != drv.CUresult.CUDA_SUCCESS:
        raise_for(err, what, kernel)
    if isinstance(result, tuple):
        return result[1] if len(result) == 2 else result[1:]
    return None


class Device:
    """One CUDA device with its primary context; `activate()` makes the context current on this thread."""

    _instances: dict[int, "Device"] = {}

    def __new__(cls, ordinal: int = 0) -> "Device":
        if ordinal not in cls._instances:
            ok, why = gpu_status()
            if not ok:
                raise NoDeviceError(f"no GPU: {why}; use target='cpu' to run kernels on the emulator")
            drv = cuda()
            count = check(drv.cuDeviceGetCount(), "cuDeviceGetCount")
            if not 0 <= ordinal < count:
                raise NoDeviceError(f"no CUDA device {ordinal} (this machine has {count})")
            self = super().__new__(cls)
            self.ordinal = ordinal
            self.handle = check(drv.cuDeviceGet(ordinal), "cuDeviceGet")
            self.context = check(drv.cuDevicePrimaryCtxRetain(self.handle), "cuDevicePrimaryCtxRetain")
            self._attributes: dict[str, int] = {}
            cls._instances[ordinal] = self
        device = cls._instances[ordinal]
        device.activate()
        return device

    def activate(self) -> None:
        """Make this device's primary context current."""
        check(cuda().cuCtxSetCurrent(self.context), "cuCtxSetCurrent")

    def attribute(self, name: str) -> int:
        """A CUdevice_attribute by its short name (MAX_THREADS_PER_BLOCK, ...), cached."""
        if name not in self._attributes:
            drv = cuda()
            attr = getattr(drv.CUdevice_attribute, f"CU_DEVICE_ATTRIBUTE_{name}")
            self._attributes[name] = int(check(drv.cuDeviceGetAttribute(attr, self.handle), f"cuDeviceGetAttribute({name})"))
        return self._attributes[name]

    @property
    def compute_capability(self) -> tuple[int, int]:
        """(major, minor)."""
        return self.attribute("COMPUTE_CAPABILITY_MAJOR"), self.attribute("COMPUTE_CAPABILITY_MINOR")

    @property
    def name(self) -> str:
        """The marketing name (NVIDIA H200, ...)."""
        raw = check(cuda().cuDeviceGetName(256, self.handle), "cuDeviceGetName")
        return (raw.split(b"\0", 1)[0].decode() if isinstance(raw, bytes) else str(raw)).strip()

    def synchronize(self) -> None:
        """Wait for all work on this device's context."""
        self.activate()
        check(cuda().cuCtxSynchronize(), "cuCtxSynchronize")

    def __repr__(self) -> str:
        return f"Device({self.ordinal}: {self.name}, sm_{''.join(map(str, self.compute_capability))})"
