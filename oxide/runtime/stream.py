"""Streams and events on a GPU device. Launches with `stream=` are stream-ordered: they return at once, and
an error of the kernel surfaces at the next `synchronize()`, naming the last kernel launched on the stream."""

from __future__ import annotations

from typing import Any

from oxide.runtime.driver import Device, check, cuda, raise_for


class Stream:
    """A CUDA stream (non-blocking with respect to the legacy default stream)."""

    def __init__(self, device: Device | None = None):
        self.device = device or Device(0)
        self.device.activate()
        drv = cuda()
        self.handle = check(drv.cuStreamCreate(drv.CUstream_flags.CU_STREAM_NON_BLOCKING), "cuStreamCreate")
        self.last_kernel: str | None = None

    def synchronize(self) -> None:
        """Wait for the work queued so far; raise the error of a kernel that failed, naming it."""
        (err,) = cuda().cuStreamSynchronize(self.handle)
        if err != cuda().CUresult.CUDA_SUCCESS:
            raise_for(err, "the stream", self.last_kernel)

    def record(self, event: "Event | None" = None) -> "Event":
        """Record `event` (a new one if None) on this stream."""
        event = event or Event(self.device)
        check(cuda().cuEventRecord(event.handle, self.handle), "cuEventRecord")
        return event

    def wait(self, event: "Event") -> None:
        """Make later work on this stream wait for `event`."""
        check(cuda().cuStreamWaitEvent(self.handle, event.handle, 0), "cuStreamWaitEvent")

    def close(self) -> None:
        """Destroy the stream (after its work completes)."""
        if self.handle is not None:
            check(cuda().cuStreamDestroy(self.handle), "cuStreamDestroy")
            self.handle = None

    def __enter__(self) -> "Stream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Event:
    """A CUDA event; `elapsed_ms(later)` is the time between two recorded events."""

    def __init__(self, device: Device | None = None):
        self.device = device or Device(0)
        self.handle = check(cuda().cuEventCreate(0), "cuEventCreate")

    def synchronize(self) -> None:
        """Wait until the event has happened."""
        check(cuda().cuEventSynchronize(self.handle), "cuEventSynchronize")

    def elapsed_ms(self, later: "Event") -> float:
        """Milliseconds from this event to `later` (both recorded and complete)."""
        return float(check(cuda().cuEventElapsedTime(self.handle, later.handle), "cuEventElapsedTime"))
