"""Byte-addressed shared memory: one block's shared window, as the hardware lays it out.

Static arrays sit at offsets aligned to their alignment, the most aligned first, then the dynamic shared
memory at the next multiple of its alignment; a shared address is a byte offset into the window (the
32-bit address `cvta.to.shared` gives). The same bytes read under any element type (`view`). Bytes that an
in-flight TMA load writes are pending until its mbarrier phase completes, and bytes a cp.async writes until
its thread waits for its group: reading them is an error that names the barrier or the thread (`check_ready`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from oxide.runtime.emulator.errors import EmulatorError

# The hardware guarantees 16-byte alignment of the dynamic shared memory at least; a kernel asks for more.
DYNAMIC_ALIGN = 16
# A pending byte holds the address of the mbarrier its TMA load completes on, or, from ASYNC_COPY_TAG up, the
# cp.async that writes it: ASYNC_COPY_TAG + issuing thread * ASYNC_COPY_THREAD + its group (cp_async.py).
ASYNC_COPY_TAG = 1 << 40
ASYNC_COPY_THREAD = 1 << 24
# sm_80 and newer reserve the first 1 KB of each block's shared window for the system: the kernel's own shared
# memory starts at address 0x400 (so a wgmma descriptor's start address is the same here as on the GPU).
RESERVED = 1024


class SharedMemoryError(EmulatorError):
    """A shared-memory access the hardware would not do right: misaligned, outside the window, or reading
    bytes a TMA copy has not completed. A rule re-raises it located at the op (`Threads.fail`)."""


def _align(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


class SharedWindow:
    """One block's shared memory: `statics` as (bytes, alignment) per static array, `dynamic` bytes of
    dynamic shared memory aligned to `dynamic_align`, after the `reserved` bytes at the window's start that
    the kernel cannot use (RESERVED on sm_80 and newer)."""

    def __init__(self, statics: Sequence[tuple[int, int]], dynamic: int = 0, dynamic_align: int = DYNAMIC_ALIGN,
                 reserved: int = RESERVED):
        # The most aligned arrays first (in declaration order among equals), so that padding stays small and
        # a tile that asks for the most alignment (TMA, wgmma) starts the window.
        offset, self.offsets, self.reserved = reserved, [0] * len(statics), reserved
        for k in sorted(range(len(statics)), key=lambda k: -statics[k][1]):
            size, alignment = statics[k]
            offset = _align(offset, alignment)
            self.offsets[k] = offset
            offset += size
        self.dynamic_offset = _align(offset, max(dynamic_align, DYNAMIC_ALIGN))
        self.size = self.dynamic_offset + dynamic
        self.bytes = np.zeros(_align(self.size, 16), np.uint8)
        # The mbarrier address whose phase completes each byte's in-flight TMA load (-1: none).
        self.pending = np.full(len(self.bytes), -1, np.int64)
        self.in_flight = False  # whether any byte is pending (thread loads check bytes only then)
        self.mbarriers: Any = None  # the block's mbarriers (mbarrier.Mbarriers), made on first use

    def _span(self, address: int, nbytes: int) -> slice:
        if address < self.reserved or address + nbytes > self.size:
            raise SharedMemoryError(f"shared address {address:#x} (+{nbytes} bytes) is outside the block's "
                                    f"shared memory ({self.reserved:#x} to {self.size:#x}; the bytes before "
                                    f"{self.reserved:#x} are the system's)")
        return slice(address, address + nbytes)

    def view(self, address: int, dtype: Any, count: int) -> np.ndarray:
        """`count` elements of `dtype` at byte `address` (a view: writes land in the window)."""
        dtype = np.dtype(dtype)
        if address % dtype.itemsize:
            raise SharedMemoryError(f"shared address {address:#x} is not aligned to {dtype.itemsize} bytes for "
                                    f"{dtype} elements")
        return self.bytes[self._span(address, count * dtype.itemsize)].view(dtype)

    def read(self, address: int, nbytes: int) -> np.ndarray:
        """A copy of `nbytes` bytes at `address`, which must not be pending."""
        self.check_ready(address, nbytes)
        return self.bytes[self._span(address, nbytes)].copy()

    def write(self, address: int, data: np.ndarray) -> None:
        raw = np.ascontiguousarray(data).view(np.uint8).reshape(-1)
        self.bytes[self._span(address, raw.size)] = raw

    # In-flight copies -----------------------------------------------------------------------------------
    def mark_pending(self, address: int, nbytes: int, barrier: int) -> None:
        """Bytes an in-flight TMA load writes, completed by the mbarrier at shared address `barrier`."""
        self.pending[self._span(address, nbytes)] = barrier
        self.in_flight = True

    def complete(self, barrier: int) -> None:
        """The phase of the mbarrier at `barrier` completed: its loads' bytes are readable."""
        if self.in_flight:
            self.pending[self.pending == barrier] = -1
            self.in_flight = bool((self.pending >= 0).any())

    def check_ready(self, address: int, nbytes: int) -> None:
        """Fail a read of bytes a TMA copy has not completed."""
        span = self.pending[self._span(address, nbytes)]
        busy = np.flatnonzero(span >= 0)
        if busy.size:
            raise SharedMemoryError(pending_message(address + int(busy[0]), int(span[busy[0]])))


def pending_message(byte: int, barrier: int) -> str:
    """The error of a read of byte `byte`, which a TMA load completing on the mbarrier at `barrier` writes (or
    a cp.async, for a tag from ASYNC_COPY_TAG up)."""
    if barrier >= ASYNC_COPY_TAG:
        thread = (barrier - ASYNC_COPY_TAG) // ASYNC_COPY_THREAD
        return (f"reads shared memory a cp.async of thread {thread} of the block has not completed (byte {byte:#x}): "
                f"that thread must wait for its group (cp_async_wait_group) before the block's barrier that "
                f"precedes this read")
    return (f"reads shared memory a TMA copy has not completed (byte {byte:#x}): wait on the mbarrier at shared "
            f"address {barrier:#x} first")


def swizzle(offset: Any, mode: int) -> Any:
    """The byte offset at which TMA (and a wgmma descriptor of the same mode) keeps logical byte `offset`
    under the `mode`-byte swizzle (0: none; 32, 64, 128): within each 128-byte row, the 16-byte chunk index
    (bits 4 up) is XOR-ed with the row's index within the swizzle atom (bits 7 up), over log2(mode/16) bits."""
    if mode == 0:
        return offset
    if mode not in (32, 64, 128):
        raise SharedMemoryError(f"no {mode}-byte swizzle: the modes are none, 32, 64 and 128 bytes")
    bits = (mode // 16).bit_length() - 1
    mask = ((1 << bits) - 1) << 4
    return offset ^ ((offset >> 3) & mask)
