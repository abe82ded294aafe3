"""Memory access on lane vectors: checked and unchecked loads and stores through slices, shared arrays,
pointers and references, with bounds checks that raise `OutOfBounds` (the GPU traps) and race tracking.

A masked-off lane never touches memory: its index is replaced by 0 before the gather, so whatever garbage
it computed cannot fault.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from oxide.runtime.emulator.errors import OutOfBounds
from oxide.runtime.emulator.memory import Buffer, Ptr, Witness
from oxide.runtime.emulator.shared_window import SharedMemoryError, pending_message
from oxide.runtime.emulator.threads import Threads


def length(buffer: Buffer) -> np.int64:
    return np.int64(buffer.elements)


def _check(c: Threads, mask: Any, buffer: Buffer, index: Any, loc: int, what: str, n: int | None = None) -> None:
    """Fail the lanes of `mask` whose index is not below `n` (by default the buffer's scalar count)."""
    n = len(buffer) if n is None else n
    if isinstance(index, np.ndarray):
        bad = index.astype(np.int64, copy=False).view(np.uint64) >= n  # a negative index reads as a huge one
        if mask is not c.full:
            bad &= mask
        if bad.any():
            k = c.first(bad)
            c.fail(OutOfBounds, f"{what} index {int(index[k])} is out of bounds for {buffer.what} of length {n}",
                   bad, loc)
    elif not 0 <= index < n and mask.any():
        c.fail(OutOfBounds, f"{what} index {int(index)} is out of bounds for {buffer.what} of length {n}", mask, loc)


def _address(buffer: Buffer, index: Any) -> Any:
    """Where a lane's index lands in the buffer's array (its block's shared instance)."""
    return index if buffer.lane_base is None else buffer.lane_base + index


def load(c: Threads, mask: Any, buffer: Buffer, index: Any, loc: int, checked: bool = True) -> Any:
    """s[i]: bounds-checked (unless `checked` is false: get_unchecked, where out of bounds still stops the
    emulator rather than reading another allocation)."""
    _check(c, mask, buffer, index, loc, "an" if checked else "an unchecked")
    at = _address(buffer, index)
    if buffer.window is not None and buffer.window.in_flight:
        check_ready(c, mask, buffer, at, loc)
    if buffer.tracker is not None:
        buffer.tracker.on_read(c, mask, at + buffer.base if buffer.base else at, loc)
    if not isinstance(at, np.ndarray):
        return buffer.array[at]
    if mask is not c.full:
        at = np.where(mask, at, 0 if buffer.lane_base is None else buffer.lane_base)
    return buffer.array[at]


def check_ready(c: Threads, mask: Any, buffer: Buffer, at: Any, loc: int) -> None:
    """Fail the lanes of `mask` that read shared-window bytes a TMA load has not completed."""
    window = buffer.window
    first = buffer.window_offset + np.where(mask, c.broadcast(at), 0).astype(np.int64) * buffer.array.itemsize
    barrier = window.pending[np.clip(first, 0, len(window.pending) - 1)]
    bad = (barrier >= 0) & mask
    if bad.any():
        k = c.first(bad)
        c.fail(SharedMemoryError, pending_message(int(first[k]), int(barrier[k])), bad, loc)


def ptr_cast(c: Threads, ptr: Ptr, dtype: Any, loc: int) -> Ptr:
    """A pointer to `dtype` elements at the same address. Shared-window memory reads under any element type
    (the address must be aligned to it); other memory only between types of the same size."""
    buffer = ptr.buffer.cast(dtype)
    old, new = ptr.buffer.array.itemsize, buffer.array.itemsize
    if old == new:
        return Ptr(buffer, ptr.offset)
    nbytes = np.asarray(ptr.offset, np.int64) * old
    misaligned = c.broadcast((nbytes + buffer.window_offset) % new != 0)
    if misaligned.any():
        k = c.first(misaligned)
        c.fail(SharedMemoryError, f"a pointer to shared address {int(c.broadcast(nbytes)[k]) + buffer.window_offset:#x} "
               f"cast to {np.dtype(dtype)} elements is not aligned to {new} bytes", misaligned, loc)
    return Ptr(buffer, nbytes // new)


def store(c: Threads, mask: Any, buffer: Buffer, index: Any, value: Any, loc: int, checked: bool = True) -> None:
    """s[i] = v on the lanes of `mask` (lanes in order: the highest lane's value stays where two collide)."""
    _check(c, mask, buffer, index, loc, "an" if checked else "an unchecked")
    at = _address(buffer, index)
    if buffer.tracker is not None:
        buffer.tracker.on_write(c, mask, at + buffer.base if buffer.base else at, loc)
    if mask is c.full and isinstance(at, np.ndarray):
        buffer.array[at] = value
    else:
        buffer.array[c.broadcast(at)[mask]] = c.broadcast(value)[mask]


def _vector_check(c: Threads, mask: Any, buffer: Buffer, index: Any, width: int, loc: int) -> None:
    vectors = len(buffer) // width
    bad = c.broadcast(index).astype(np.int64).view(np.uint64) >= vectors
    bad &= mask
    if bad.any():
        c.fail(OutOfBounds, f"vector index {int(c.broadcast(index)[c.first(bad)])} is out of bounds for "
               f"{buffer.what} as {vectors} vectors of {width}", bad, loc)


def vector_load(c: Threads, mask: Any, buffer: Buffer, index: Any, width: int, loc: int) -> np.ndarray:
    """as_vectors()[i]: elements i*width .. i*width+width-1, one row per lane (shape (lanes, width))."""
    _vector_check(c, mask, buffer, index, width, loc)
    first = c.broadcast(index).astype(np.int64) * width
    return np.stack([load(c, mask, buffer, first + k, loc) for k in range(width)], axis=1)


def vector_store(c: Threads, mask: Any, buffer: Buffer, index: Any, value: Any, width: int, loc: int) -> None:
    _vector_check(c, mask, buffer, index, width, loc)
    first = c.broadcast(index).astype(np.int64) * width
    rows = np.broadcast_to(value, (c.lanes, width))
    for k in range(width):
        store(c, mask, buffer, first + k, np.ascontiguousarray(rows[:, k]), loc)


def elem_ptr(c: Threads, mask: Any, buffer: Buffer, index: Any, loc: int) -> Ptr:
    """&s[i], bounds-checked (one past the end is out of bounds too, as Rust's indexing says)."""
    _check(c, mask, buffer, index, loc, "an", buffer.elements)
    return Ptr(buffer, index * buffer.unit if buffer.unit != 1 else index)


def ptr_load(c: Threads, mask: Any, ptr: Ptr, loc: int) -> Any:
    return load(c, mask, ptr.buffer, ptr.offset, loc, checked=False)


def ptr_store(c: Threads, mask: Any, ptr: Ptr, value: Any, loc: int) -> None:
    store(c, mask, ptr.buffer, ptr.offset, value, loc, checked=False)


def with_row_width(c: Threads, buffer: Buffer, width: Any, loc: int) -> Buffer:
    """DisjointSlice::from_raw_parts_with_space of a runtime 2-D slice: `buffer` with its row width (which the
    API requires to be the same for every thread)."""
    widths = np.unique(width)
    if widths.size != 1:
        from oxide.runtime.emulator.errors import UnsupportedOperation

        raise UnsupportedOperation(f"a DisjointSlice row width that differs between threads at {c.launch.loc(loc)}")
    return dataclasses.replace(buffer, width=int(widths[0]))


def slice_from_ptr(c: Threads, ptr: Ptr, count: Any, loc: int, unit: int = 1) -> Buffer:
    """slice::from_raw_parts: the same start for every lane (per-lane slices are not emulated); `unit` scalars
    of the buffer per element (a slice of structs or arrays over a buffer of their scalars)."""
    start, count = np.unique(ptr.offset), np.unique(count)
    if start.size != 1 or count.size != 1:
        from oxide.runtime.emulator.errors import UnsupportedOperation

        raise UnsupportedOperation(f"slice::from_raw_parts with a different pointer or length per thread at "
                                   f"{c.launch.loc(loc)}")
    first, n = int(start[0]), int(count[0])
    if first < 0 or first + n * unit > len(ptr.buffer):
        c.fail(OutOfBounds, f"slice::from_raw_parts of {n} elements at offset {first} exceeds {ptr.buffer.what} "
               f"({len(ptr.buffer)} elements)", c.full, loc)
    return ptr.buffer.view(first, n, unit)


def get_mut(c: Threads, buffer: Buffer, witness: Witness) -> tuple[Any, Ptr]:
    """DisjointSlice::get_mut: (ok, reference); ok = the witness is valid and its element is in bounds."""
    n = buffer.elements
    if witness.row is not None:
        width = np.int64(buffer.width)
        flat = witness.row * width + witness.col
        ok = witness.valid & (witness.col < width) & (flat < n)
    else:
        flat = witness.value
        ok = witness.valid & (flat < n)
    return ok, Ptr(buffer, flat * buffer.unit if buffer.unit != 1 else flat)


# Thread index witnesses -------------------------------------------------------------------------------
def _global(c: Threads, axis: int) -> Any:
    return c.bid[axis].astype(np.int64) * np.int64(c.bdim[axis]) + c.tid[axis].astype(np.int64)


def _extents_one(c: Threads, axes: str) -> Any:
    return np.bool_(all(c.bdim[a] == 1 and c.gdim[a] == 1 for a in ("xyz".index(x) for x in axes)))


def index_1d(c: Threads, proven: bool) -> Witness:
    return Witness(_global(c, 0), np.bool_(True) if proven else _extents_one(c, "yz"))


def index_2d(c: Threads, stride: int, proven: bool) -> Witness:
    row, col = _global(c, 1), _global(c, 0)
    valid = (col < stride) & (np.bool_(True) if proven else _extents_one(c, "z"))
    return Witness(row * np.int64(stride) + col, valid)


def index_2d_runtime(c: Threads, proven: bool) -> Witness:
    return Witness(None, np.bool_(True) if proven else _extents_one(c, "z"), _global(c, 1), _global(c, 0))


def warp_index(c: Threads, proven: bool) -> Witness:
    warps_per_block = (int(c.bdim[0]) + 31) // 32
    value = c.bid[0].astype(np.int64) * warps_per_block + (c.tid[0] // 32).astype(np.int64)
    return Witness(value, (c.lane_id == 0) & (np.bool_(True) if proven else _extents_one(c, "yz")))


# Thread-local arrays: (lanes, *shape), one row per lane ---------------------------------------------------
def _local_index(c: Threads, mask: Any, array: np.ndarray, indices: tuple[Any, ...], loc: int) -> tuple[Any, ...]:
    for axis, index in enumerate(indices):
        bad = c.broadcast((index < 0) | (index >= array.shape[axis + 1])) & mask
        if bad.any():
            k = c.first(bad)
            c.fail(OutOfBounds, f"index {int(c.broadcast(index)[k])} is out of bounds for a local array of "
                   f"length {array.shape[axis + 1]}", bad, loc)
    return tuple(np.where(mask, index, 0) for index in indices)


def local_load(c: Threads, mask: Any, array: np.ndarray, indices: tuple[Any, ...], loc: int) -> Any:
    return array[(np.arange(c.lanes),) + _local_index(c, mask, array, indices, loc)]


def local_store(c: Threads, mask: Any, array: np.ndarray, indices: tuple[Any, ...], value: Any, loc: int) -> None:
    at = _local_index(c, mask, array, indices, loc)
    lanes = np.flatnonzero(mask)
    array[(lanes,) + tuple(c.broadcast(i)[lanes] for i in at)] = c.broadcast(value)[lanes]
