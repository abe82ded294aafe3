"""Keeping the arguments of queued work alive until the GPU is done with them.

A stream-ordered launch returns before the kernel runs. Python has no borrow checker: the caller may drop its
last reference to an argument right away (`mod.k[g, b, s](DeviceBuffer(...), ...)`), and a DeviceBuffer's
memory is then freed, or a torch/CuPy tensor's memory goes back to its caching allocator, which hands it to
the next allocation while the kernel still reads it. So every stream-ordered launch (and copy, and graph
replay) hands its arguments to the stream's `Ledger`, which holds them until the work is known to be done:

- the references are grouped in batches of `BATCH` operations; closing a batch records a (timing-free) event
  on the stream, and batches whose event has completed are released, oldest first, without waiting;
- `Stream.synchronize()`, `Module.synchronize()`, a synchronous launch (which waits for the whole device) and
  `oxide.runtime.synchronize()` release everything the completed work held.

So a program that never synchronizes holds the arguments of at most `BATCH` recent operations per stream
beyond those still running. While a graph captures a stream, its ledger hands the references to the graph
instead (a replay reads the same buffers); no event is recorded or queried then, as a capture forbids both.

Ledgers are keyed by the stream's raw handle, so an oxide Stream and a torch or CuPy stream object for the same
CUDA stream share one.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any

from oxide.runtime.driver import check, cuda

BATCH = 16  # operations per batch: one event record per BATCH launches, not per launch

# Threads that are capturing a stream into a graph right now (graph.py adds and removes them): a synchronous
# launch there would wait for the device, which a capture forbids. A list: one entry per open capture.
CAPTURE_THREADS: list[int] = []


def capturing_here() -> bool:
    """Whether this thread is inside `Graph.capture(...)`."""
    return bool(CAPTURE_THREADS) and threading.get_ident() in CAPTURE_THREADS


class Ledger:
    """What the queued work of one stream reads."""

    def __init__(self, handle: int, device: Any):
        self.handle, self.device = handle, device
        self.current: list[Any] = []
        self.batches: deque[tuple[Any, list[Any]]] = deque()  # (event recorded after the batch, references)
        self.spare: list[Any] = []  # events of released batches, reused
        self.capture: list[Any] | None = None  # the capturing graph's references, while one captures

    def hold(self, refs: Any) -> None:
        """Keep `refs` alive until the operation just queued on the stream has run."""
        if self.capture is not None:
            self.capture.append(refs)
            return
        self.current.append(refs)
        if len(self.current) >= BATCH:
            self._close_batch()

    def _close_batch(self) -> None:
        self.retire()
        drv = cuda()
        event = self.spare.pop() if self.spare else check(
            drv.cuEventCreate(drv.CUevent_flags.CU_EVENT_DISABLE_TIMING), "cuEventCreate")
        check(drv.cuEventRecord(event, self.handle), "cuEventRecord")
        self.batches.append((event, self.current))
        self.current = []

    def retire(self) -> None:
        """Release the batches whose work has completed (never waits)."""
        if self.capture is not None:
            return
        query, ok = cuda().cuEventQuery, cuda().CUresult.CUDA_SUCCESS
        while self.batches:
            (err,) = query(self.batches[0][0])
            if err != ok:  # not ready (or a failed kernel, which synchronize() reports): keep the rest
                return
            self.spare.append(self.batches.popleft()[0])

    def release(self) -> None:
        """Everything queued so far has completed (the caller waited for it): drop all references."""
        self.current = []
        while self.batches:
            self.spare.append(self.batches.popleft()[0])

    @property
    def held(self) -> int:
        """Operations whose references are held (for tests and diagnostics)."""
        return len(self.current) + sum(len(refs) for _, refs in self.batches)


_LEDGERS: dict[int, Ledger] = {}


def ledger(handle: Any, device: Any) -> Ledger:
    """The ledger of the stream with raw handle `handle` (created on first use)."""
    key = int(handle)
    entry = _LEDGERS.get(key)
    if entry is None or entry.device is not device:
        entry = _LEDGERS[key] = Ledger(key, device)
    return entry


def known(handle: Any, device: Any) -> Ledger | None:
    """The ledger of stream `handle` if it was used on `device` already, else None."""
    entry = _LEDGERS.get(int(handle))
    return entry if entry is not None and entry.device is device else None


def forget(handle: Any) -> None:
    """The stream `handle` was destroyed after its work completed: drop its ledger and destroy its events."""
    entry = _LEDGERS.pop(int(handle), None)
    if entry is not None:
        entry.release()
        for event in entry.spare:
            check(cuda().cuEventDestroy(event), "cuEventDestroy")


def release_device(device: Any) -> None:
    """All work of `device` has completed (a context-wide synchronize): release every ledger of it."""
    for entry in _LEDGERS.values():
        if entry.device is device and entry.capture is None:
            entry.release()
