"""Pointers as integers on the emulator: `p as u64` and back, for memory in a block's shared window.

A shared pointer's integer is a generic address, as on the GPU: `SHARED_GENERIC_BASE` plus its byte address
in the window, so its low 32 bits are the 32-bit shared address (what `cvta.to.shared` gives) and alignment
tests on it behave as on the GPU. A pointer into another block's window (distributed shared memory, from
`map_shared_rank`) carries that block's cluster rank plus one in bits 24..31: the emulator's spelling of a
`shared::cluster` address (a window is far smaller than 16 MB). An integer in that range turns back into a
pointer into the same window; a pointer into global memory turns into its host address (numpy's), which
does not turn back.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from oxide.runtime.emulator.errors import LaunchError, UnsupportedOperation
from oxide.runtime.emulator.memory import Buffer, Ptr
from oxide.runtime.emulator.threads import Threads

SHARED_GENERIC_BASE = np.int64(1 << 44)
RANK_SHIFT = 24
_LOW = (1 << 32) - 1
# What a null pointer (`core::ptr::null()`) points into: nothing, so a load through it is out of bounds.
NULL = Buffer(np.zeros(0, np.uint8), "a null pointer", None)


def _rank_of(c: Threads, buffer: Buffer) -> int:
    """The cluster rank of the block whose window `buffer` lies in."""
    for rank, peer in enumerate(c.cluster_peers):
        if peer.window is buffer.window:
            return rank
    raise UnsupportedOperation("a pointer into the shared memory of a block outside this cluster")


def ptr_to_int(c: Threads, ptr: Ptr) -> Any:
    """The address of `ptr` per lane (int64): generic for shared memory (module docstring), else the host
    address of the element."""
    buffer = ptr.buffer
    if buffer is NULL:
        return np.int64(0) + np.asarray(ptr.offset, np.int64) * 0
    if buffer.window is None:
        return (np.int64(buffer.array.ctypes.data)
                + np.asarray(ptr.offset, np.int64) * buffer.array.itemsize)
    tag = 0 if buffer.window is c.window else (_rank_of(c, buffer) + 1) << RANK_SHIFT
    return SHARED_GENERIC_BASE + np.int64(tag) + c.shared_address(ptr)


def decode(c: Threads, address: int) -> tuple[Threads, int]:
    """The block (this one or a cluster peer) and window byte address of a shared address: 32-bit shared,
    shared::cluster or generic."""
    low = int(address) & _LOW
    tag, byte = low >> RANK_SHIFT, low & ((1 << RANK_SHIFT) - 1)
    if tag == 0:
        return c, byte
    if tag > len(c.cluster_peers):
        raise UnsupportedOperation(f"shared::cluster address {int(address):#x} names cluster rank {tag - 1}, but "
                                   f"the cluster has {len(c.cluster_peers)} blocks")
    return c.cluster_peers[tag - 1], byte


def window_pointer(peer: Threads, byte: Any, dtype: Any) -> Ptr:
    """A pointer to `dtype` elements at window byte `byte` of block `peer` (its whole window as one buffer;
    accesses through it are not race-checked)."""
    dtype = np.dtype(dtype)
    key = ("window", dtype)
    buffer = peer.shared.get(key)
    if buffer is None:
        window = peer.window
        array = window.bytes[:window.size - window.size % dtype.itemsize].view(dtype)
        buffer = peer.shared[key] = Buffer(array, "shared memory", None, window=window)
    return Ptr(buffer, np.asarray(byte, np.int64) // dtype.itemsize)


def int_to_ptr(c: Threads, mask: Any, address: Any, dtype: Any, loc: int) -> Ptr:
    """`a as *mut T`: a pointer at the shared address `a` (the same block for every thread), or null."""
    lanes = c.broadcast(np.asarray(address, np.int64))[c.broadcast(mask)]
    if lanes.size == 0 or not lanes.any():
        return Ptr(NULL, np.int64(0))
    shared = (lanes >= SHARED_GENERIC_BASE) & (lanes - SHARED_GENERIC_BASE <= _LOW)
    if c.window is None or not shared.all():
        c.fail(UnsupportedOperation, "an integer cast to a pointer to memory other than shared memory (the "
               "emulator turns only shared addresses back into pointers)", mask, loc)
    peers = {id(decode(c, int(a))[0]) for a in np.unique(lanes)}
    if len(peers) != 1:
        c.fail(UnsupportedOperation, "integers cast to pointers into different blocks' shared memory in one "
               "instruction", mask, loc)
    peer, _ = decode(c, int(lanes[0]))
    itemsize = np.dtype(dtype).itemsize
    byte = (c.broadcast(np.asarray(address, np.int64)) & ((1 << RANK_SHIFT) - 1))
    misaligned = (byte % itemsize != 0) & c.broadcast(mask)
    if misaligned.any():
        c.fail(UnsupportedOperation, f"shared address {int(byte[c.first(misaligned)]):#x} is not aligned to "
               f"{itemsize} bytes for {np.dtype(dtype)} elements", misaligned, loc)
    return window_pointer(peer, np.where(c.broadcast(mask), byte, 0), dtype)


def map_shared_rank(c: Threads, mask: Any, ptr: Ptr, rank: Any, loc: int) -> Ptr:
    """`cluster::map_shared_rank(p, rank)`: the same byte of block `rank`'s window (the same rank for every
    thread of the instruction)."""
    if c.launch.cluster is None:
        c.fail(LaunchError, "map_shared_rank in a kernel launched without a cluster shape: launch it with "
               "cluster=(x, y, z) (#[cluster_launch] does so through oxide.load)", mask, loc)
    ranks = np.unique(c.broadcast(np.asarray(rank, np.int64))[c.broadcast(mask)])
    if ranks.size == 0:
        return ptr
    if ranks.size != 1:
        c.fail(UnsupportedOperation, "map_shared_rank to different cluster ranks in one instruction", mask, loc)
    target = int(ranks[0])
    if not 0 <= target < len(c.cluster_peers):
        c.fail(UnsupportedOperation, f"map_shared_rank to rank {target}, outside the cluster of "
               f"{len(c.cluster_peers)} blocks (undefined behaviour on the GPU)", mask, loc)
    if ptr.buffer.window is None:
        c.fail(UnsupportedOperation, "map_shared_rank of a pointer that is not into shared memory", mask, loc)
    peer = c.cluster_peers[target]
    return window_pointer(peer, c.shared_address(ptr), ptr.buffer.array.dtype)
