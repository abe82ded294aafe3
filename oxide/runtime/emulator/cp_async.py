"""The runtime side of the Ampere asynchronous copies (cp.async, commit_group, wait_group), in a block's shared
window (scheduled mode).

A copy reads its source when it is issued (global memory a kernel copies from is not written while the copy
runs) and writes the window's bytes at once, but marks them pending under a tag that names the issuing
thread and the group the copy joins (its count of commits so far). A `wait_group N` completes, for each of
its threads, every group but the N most recently committed: their bytes stop being pending. A read of a
pending byte (a thread load, ldmatrix, a TMA store) is a located error naming the thread that must wait, so
a kernel that forgets the wait, or reads a stage before its copies are waited for, fails here.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from oxide.runtime.emulator.errors import OutOfBounds
from oxide.runtime.emulator.memory import Ptr
from oxide.runtime.emulator.shared_window import ASYNC_COPY_TAG, ASYNC_COPY_THREAD, SharedMemoryError, SharedWindow
from oxide.runtime.emulator.threads import Threads


@dataclass
class _Copies:
    """One cp.async op's pending copies: per issuing lane, its window byte address and group number."""

    lanes: np.ndarray
    addresses: np.ndarray
    groups: np.ndarray
    nbytes: int


@dataclass
class _State:
    """A block's cp.async bookkeeping: commits and completed groups per thread, and the copies in flight."""

    committed: np.ndarray
    completed: np.ndarray
    in_flight: list[_Copies] = field(default_factory=list)


_STATES: weakref.WeakKeyDictionary[SharedWindow, _State] = weakref.WeakKeyDictionary()


def _state(c: Threads) -> _State:
    window = c.window
    if window is None:
        raise SharedMemoryError("cp.async needs the block's shared window (the scheduled mode)")
    if window not in _STATES:
        _STATES[window] = _State(np.zeros(c.lanes, np.int64), np.zeros(c.lanes, np.int64))
    return _STATES[window]


def _tags(lanes: np.ndarray, groups: np.ndarray) -> np.ndarray:
    return ASYNC_COPY_TAG + lanes * ASYNC_COPY_THREAD + groups


def copy(c: Threads, mask: Any, dst: Ptr, src: Ptr, nbytes: int, src_size: Any, loc: int) -> None:
    """Each thread of `mask` copies `nbytes` from `src` to shared `dst`, reading only `src_size` bytes (all
    when None) and zero-filling the rest; the bytes are pending until the thread's wait covers its group."""
    state = _state(c)
    lanes = np.flatnonzero(c.broadcast(mask))
    if lanes.size == 0:
        return
    if dst.buffer.window is not c.window:
        c.fail(SharedMemoryError, f"a cp.async lands in this block's shared memory; this pointer is into "
               f"{dst.buffer.what}", mask, loc)
    addresses = c.shared_address(dst)[lanes]
    reads = np.full(lanes.size, nbytes, np.int64) if src_size is None else c.broadcast(src_size)[lanes].astype(np.int64)
    source = src.buffer.array
    starts = c.broadcast(np.asarray(src.offset, np.int64))[lanes] * source.itemsize
    _check(c, lanes, addresses, starts, reads, nbytes, source.nbytes, src.buffer.what, loc)
    window, raw = c.window, source.view(np.uint8)
    spans = np.arange(nbytes)
    data = np.zeros((lanes.size, nbytes), np.uint8)
    for row, (start, count) in enumerate(zip(starts, reads)):
        data[row, :count] = raw[start:start + count]
    window.bytes[addresses[:, None] + spans] = data
    groups = state.committed[lanes]
    window.pending[addresses[:, None] + spans] = _tags(lanes, groups)[:, None]
    window.in_flight = True
    state.in_flight.append(_Copies(lanes, addresses, groups, nbytes))
    tracker = dst.buffer.tracker
    if tracker is not None:
        item = dst.buffer.array.itemsize
        first = c.broadcast(np.asarray(dst.offset, np.int64))
        for k in range(nbytes // item):
            tracker.on_write(c, c.broadcast(mask), first + k + dst.buffer.base, loc)


def _check(c: Threads, lanes: np.ndarray, addresses: np.ndarray, starts: np.ndarray, reads: np.ndarray,
           nbytes: int, source_bytes: int, what: str, loc: int) -> None:
    """Fail misaligned destinations, source sizes outside 0..nbytes and reads past the source."""
    def fail(kind: type, bad: np.ndarray, message: str) -> None:
        mask = np.zeros(c.lanes, np.bool_)
        mask[lanes[bad]] = True
        c.fail(kind, message, mask, loc)

    bad = (addresses % nbytes != 0) | (addresses + nbytes > c.window.size) | (addresses < c.window.reserved)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        fail(SharedMemoryError, bad, f"a {nbytes}-byte cp.async to shared address {int(addresses[k]):#x}: the "
             f"destination must be {nbytes}-byte aligned and inside the block's shared memory")
    bad = (reads < 0) | (reads > nbytes)
    if bad.any():
        fail(SharedMemoryError, bad, f"cp.async src_size {int(reads[np.flatnonzero(bad)[0]])} is outside 0..{nbytes}")
    bad = (reads > 0) & ((starts < 0) | (starts + reads > source_bytes))
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        fail(OutOfBounds, bad, f"a cp.async reads bytes {int(starts[k])}..{int(starts[k] + reads[k])} of {what}, "
             f"which has {source_bytes} bytes")


def commit(c: Threads, mask: Any) -> None:
    """Each thread of `mask` closes its current group."""
    state = _state(c)
    state.committed[c.broadcast(mask)] += 1


def wait(c: Threads, mask: Any, pending: int) -> None:
    """Each thread of `mask` completes every group of its own but the `pending` most recent ones."""
    state = _state(c)
    active = c.broadcast(mask)
    state.completed[active] = np.maximum(state.completed[active], state.committed[active] - pending)
    window, remaining = c.window, []
    for copies in state.in_flight:
        done = active[copies.lanes] & (copies.groups < state.completed[copies.lanes])
        if done.any():
            where = copies.addresses[done][:, None] + np.arange(copies.nbytes)
            tags = _tags(copies.lanes[done], copies.groups[done])[:, None]
            window.pending[where] = np.where(window.pending[where] == tags, -1, window.pending[where])
        if not done.all():
            keep = ~done
            remaining.append(_Copies(copies.lanes[keep], copies.addresses[keep], copies.groups[keep], copies.nbytes))
    state.in_flight = remaining
    window.in_flight = bool((window.pending >= 0).any())
    c.order_point()
