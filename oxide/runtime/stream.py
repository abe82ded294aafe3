"""Streams and events on a GPU device. Launches with `stream=` are stream-ordered: they return at once, and
an error of the kernel surfaces at the next `synchronize()`, naming the last kernel launched on the stream.

A launch takes oxide's `Stream` or any other library's stream for the same device: a torch or CuPy stream, a
cuda.core `Stream` (anything with `__cuda_stream__`), a `CUstream`, or a raw handle (`int`). Oxide's streams
go the other way through `__cuda_stream__` and `.ptr` (`torch.cuda.ExternalStream(s.ptr)`,
`cupy.cuda.ExternalStream(s.ptr)`). The arguments of a stream-ordered launch stay referenced until the
stream's work is done (inflight.py)."""

from __future__ import annotations

from typing import Any

from oxide.runtime import inflight
from oxide.runtime.driver import Device, check, cuda, raise_for
from oxide.runtime.errors import KernelArgumentError, LaunchContractError


class Stream:
    """A CUDA stream (non-blocking with respect to the legacy default stream)."""

    def __init__(self, device: Device | None = None):
        self.device = device or Device(0)
        self.device.activate()
        drv = cuda()
        self.handle = check(drv.cuStreamCreate(drv.CUstream_flags.CU_STREAM_NON_BLOCKING), "cuStreamCreate")
        self.owned = True
        self.last_kernel: str | None = None
        self.inflight = inflight.ledger(self.handle, self.device)

    @classmethod
    def external(cls, stream: Any, device: Device | None = None) -> "Stream":
        """An oxide Stream for another library's stream (torch, CuPy, cuda.core, a raw handle): launches on it
        name their kernel on failure, and `close()` leaves the stream to its owner."""
        self = cls.__new__(cls)
        self.device = device or Device(0)
        self.handle = foreign_handle(stream)
        self.owned = False
        self.last_kernel = None
        self.inflight = inflight.ledger(self.handle, self.device)
        return self

    @property
    def ptr(self) -> int:
        """The raw CUstream handle as an int (what torch/CuPy's ExternalStream take)."""
        return int(self.handle)

    def __cuda_stream__(self) -> tuple[int, int]:
        """The stream protocol of cuda.core: (version 0, raw handle)."""
        return 0, int(self.handle)

    def synchronize(self) -> None:
        """Wait for the work queued so far; raise the error of a kernel that failed, naming it."""
        (err,) = cuda().cuStreamSynchronize(self.handle)
        if err != cuda().CUresult.CUDA_SUCCESS:
            raise_for(err, "the stream", self.last_kernel)
        self.inflight.release()

    def record(self, event: "Event | None" = None) -> "Event":
        """Record `event` (a new one if None) on this stream."""
        event = event or Event(self.device)
        check(cuda().cuEventRecord(event.handle, self.handle), "cuEventRecord")
        return event

    def wait(self, event: "Event") -> None:
        """Make later work on this stream wait for `event`."""
        check(cuda().cuStreamWaitEvent(self.handle, event.handle, 0), "cuStreamWaitEvent")

    def close(self) -> None:
        """Wait for the stream's work, then destroy it (a stream made by `external` stays to its owner)."""
        if self.handle is None:
            return
        try:
            self.synchronize()
        finally:
            if self.owned:
                check(cuda().cuStreamDestroy(self.handle), "cuStreamDestroy")
                inflight.forget(self.handle)
            self.handle = None

    def __enter__(self) -> "Stream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        kind = "" if getattr(self, "owned", True) else "external "
        return f"<{kind}stream 0x{int(self.handle or 0):x} on device {self.device.ordinal}>"


class Event:
    """A CUDA event; `elapsed_ms(later)` is the time between two recorded events."""

    def __init__(self, device: Device | None = None):
        self.device = device or Device(0)
        self.handle = check(cuda().cuEventCreate(0), "cuEventCreate")

    def record(self, stream: Any) -> "Event":
        """Record this event on `stream` (oxide's or another library's); returns the event."""
        check(cuda().cuEventRecord(self.handle, _handle_of(stream)), "cuEventRecord")
        return self

    def synchronize(self) -> None:
        """Wait until the event has happened."""
        check(cuda().cuEventSynchronize(self.handle), "cuEventSynchronize")

    def elapsed_ms(self, later: "Event") -> float:
        """Milliseconds from this event to `later` (both recorded and complete)."""
        return float(check(cuda().cuEventElapsedTime(self.handle, later.handle), "cuEventElapsedTime"))


def foreign_handle(stream: Any) -> int:
    """The raw CUstream handle of another library's stream object, or a KernelArgumentError."""
    if isinstance(stream, bool):
        raise _not_a_stream(stream)
    if isinstance(stream, int):
        return stream
    protocol = getattr(stream, "__cuda_stream__", None)
    if protocol is not None:  # cuda.core, and libraries that adopted its protocol: (version, handle)
        value = protocol() if callable(protocol) else protocol
        return int(value[1])
    for attribute in ("cuda_stream", "ptr"):  # torch.cuda.Stream, cupy.cuda.Stream
        value = getattr(stream, attribute, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    if type(stream).__name__ == "CUstream":  # cuda.bindings' handle type
        return int(stream)
    raise _not_a_stream(stream)


def _not_a_stream(stream: Any) -> KernelArgumentError:
    return KernelArgumentError(f"`stream` must be an oxide Stream, a torch, CuPy or cuda.core stream, a CUstream or "
                               f"a raw stream handle (int), got {type(stream).__name__}")


def _handle_of(stream: Any) -> Any:
    return stream.handle if type(stream) is Stream else foreign_handle(stream)


def resolve(stream: Any, device: Device, kernel: str) -> tuple[Any, inflight.Ledger]:
    """The driver handle and the ledger of a launch's (not None) `stream` on `device`; a stream of another
    device is a LaunchContractError naming `kernel`."""
    if type(stream) is Stream:
        if stream.device is not device:
            raise LaunchContractError(kernel, "stream", f"a stream of device {device.ordinal}",
                                      f"a stream of device {stream.device.ordinal}")
        stream.last_kernel = kernel  # so a failure found at synchronize() names this kernel
        return stream.handle, stream.inflight
    handle = foreign_handle(stream)
    known = inflight.known(handle, device)
    if known is not None:  # this handle was checked against the device before
        return handle, known
    context = check(cuda().cuStreamGetCtx(handle), "cuStreamGetCtx", kernel)
    if int(context) != int(device.context):
        raise LaunchContractError(kernel, "stream", f"a stream of device {device.ordinal}'s primary context",
                                  f"a stream of another context ({type(stream).__name__})",
                                  "create the stream on the kernel's device")
    return handle, inflight.ledger(handle, device)


def synchronize(device: Device | None = None) -> None:
    """Wait for all work on `device` (GPU 0 by default) and release the arguments queued work held."""
    device = device or Device(0)
    device.synchronize()
    inflight.release_device(device)
